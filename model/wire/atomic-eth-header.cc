/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "atomic-eth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AtomicEthHeader);

AtomicEthHeader::AtomicEthHeader()
    : m_swapOrAdd(0),
      m_compare(0)
{
}

TypeId
AtomicEthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtomicEthHeader")
                            .SetParent<RdmaRemoteAccessHeader>()
                            .SetGroupName("Rdma")
                            .AddConstructor<AtomicEthHeader>();
    return tid;
}

TypeId
AtomicEthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AtomicEthHeader::Print(std::ostream& os) const
{
    os << "AtomicETH";
    PrintRemoteAccess(os);
    os << " swap/add=0x" << std::hex << m_swapOrAdd << " compare=0x" << m_compare << std::dec;
}

uint32_t
AtomicEthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
AtomicEthHeader::Serialize(Buffer::Iterator start) const
{
    SerializeRemoteAccess(start);
    start.WriteHtonU64(m_swapOrAdd);
    start.WriteHtonU64(m_compare);
}

uint32_t
AtomicEthHeader::Deserialize(Buffer::Iterator start)
{
    DeserializeRemoteAccess(start);
    m_swapOrAdd = start.ReadNtohU64();
    m_compare = start.ReadNtohU64();
    return SIZE;
}

void
AtomicEthHeader::SetSwapOrAdd(uint64_t data)
{
    m_swapOrAdd = data;
}

uint64_t
AtomicEthHeader::GetSwapOrAdd() const
{
    return m_swapOrAdd;
}

void
AtomicEthHeader::SetCompare(uint64_t data)
{
    m_compare = data;
}

uint64_t
AtomicEthHeader::GetCompare() const
{
    return m_compare;
}

} // namespace ns3
