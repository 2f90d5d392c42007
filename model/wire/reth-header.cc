/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RethHeader);

RethHeader::RethHeader()
    : m_va(0),
      m_rkey(0),
      m_dmaLength(0)
{
}

TypeId
RethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RethHeader>();
    return tid;
}

TypeId
RethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RethHeader::Print(std::ostream& os) const
{
    os << "RETH va=0x" << std::hex << m_va << " rkey=0x" << m_rkey << std::dec
       << " dmalen=" << m_dmaLength;
}

uint32_t
RethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_va);
    start.WriteHtonU32(m_rkey);
    start.WriteHtonU32(m_dmaLength);
}

uint32_t
RethHeader::Deserialize(Buffer::Iterator start)
{
    m_va = start.ReadNtohU64();
    m_rkey = start.ReadNtohU32();
    m_dmaLength = start.ReadNtohU32();
    return SIZE;
}

void
RethHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
RethHeader::GetVirtualAddress() const
{
    return m_va;
}

void
RethHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
RethHeader::GetRkey() const
{
    return m_rkey;
}

void
RethHeader::SetDmaLength(uint32_t length)
{
    m_dmaLength = length;
}

uint32_t
RethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

} // namespace ns3
