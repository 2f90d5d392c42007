/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "atomic-ack-eth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AtomicAckEthHeader);

TypeId
AtomicAckEthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtomicAckEthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<AtomicAckEthHeader>();
    return tid;
}

TypeId
AtomicAckEthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AtomicAckEthHeader::Print(std::ostream& os) const
{
    os << "AtomicAckETH orig=0x" << std::hex << m_origRemData << std::dec;
}

uint32_t
AtomicAckEthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
AtomicAckEthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_origRemData);
}

uint32_t
AtomicAckEthHeader::Deserialize(Buffer::Iterator start)
{
    m_origRemData = start.ReadNtohU64();
    return SIZE;
}

void
AtomicAckEthHeader::SetOriginalRemoteData(uint64_t data)
{
    m_origRemData = data;
}

uint64_t
AtomicAckEthHeader::GetOriginalRemoteData() const
{
    return m_origRemData;
}

} // namespace ns3
