/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RethHeader);

RethHeader::RethHeader()
    : m_dmaLength(0)
{
}

TypeId
RethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RethHeader")
                            .SetParent<RdmaRemoteAccessHeader>()
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
    os << "RETH";
    PrintRemoteAccess(os);
    os << " dmalen=" << m_dmaLength;
}

uint32_t
RethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RethHeader::Serialize(Buffer::Iterator start) const
{
    SerializeRemoteAccess(start);
    start.WriteHtonU32(m_dmaLength);
}

uint32_t
RethHeader::Deserialize(Buffer::Iterator start)
{
    DeserializeRemoteAccess(start);
    m_dmaLength = start.ReadNtohU32();
    return SIZE;
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
