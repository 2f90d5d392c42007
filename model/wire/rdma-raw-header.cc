/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-raw-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaRawHeader);

RdmaRawHeader::RdmaRawHeader()
    : m_bytes(nullptr),
      m_length(0)
{
}

RdmaRawHeader::RdmaRawHeader(const uint8_t* bytes, uint32_t length)
    : m_bytes(bytes),
      m_length(length)
{
}

TypeId
RdmaRawHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRawHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRawHeader>();
    return tid;
}

TypeId
RdmaRawHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RdmaRawHeader::Print(std::ostream& os) const
{
    os << "headers, " << m_length << " bytes";
}

uint32_t
RdmaRawHeader::GetSerializedSize() const
{
    return m_length;
}

void
RdmaRawHeader::Serialize(Buffer::Iterator start) const
{
    start.Write(m_bytes, m_length);
}

uint32_t
RdmaRawHeader::Deserialize(Buffer::Iterator /* start */)
{
    return m_length;
}

} // namespace ns3
