/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "atomic-eth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AtomicEthHeader);

AtomicEthHeader::AtomicEthHeader()
    : m_va(0),
      m_rkey(0),
      m_swapOrAdd(0),
      m_compare(0)
{
}

TypeId
AtomicEthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtomicEthHeader")
                            .SetParent<Header>()
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
    os << "AtomicETH va=0x" << std::hex << m_va << " rkey=0x" << m_rkey << " swap/add=0x"
       << m_swapOrAdd << " compare=0x" << m_compare << std::dec;
}

uint32_t
AtomicEthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
AtomicEthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_va);
    start.WriteHtonU32(m_rkey);
    start.WriteHtonU64(m_swapOrAdd);
    start.WriteHtonU64(m_compare);
}

uint32_t
AtomicEthHeader::Deserialize(Buffer::Iterator start)
{
    m_va = start.ReadNtohU64();
    m_rkey = start.ReadNtohU32();
    m_swapOrAdd = start.ReadNtohU64();
    m_compare = start.ReadNtohU64();
    return SIZE;
}

void
AtomicEthHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
AtomicEthHeader::GetVirtualAddress() const
{
    return m_va;
}

void
AtomicEthHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
AtomicEthHeader::GetRkey() const
{
    return m_rkey;
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
