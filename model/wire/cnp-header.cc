/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cnp-header.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CnpHeader);

TypeId
CnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CnpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<CnpHeader>();
    return tid;
}

TypeId
CnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
CnpHeader::Print(std::ostream& os) const
{
    os << "CNP reserved=" << (IsZero() ? "zero" : "non-zero");
}

uint32_t
CnpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
CnpHeader::Serialize(Buffer::Iterator start) const
{
    start.Write(m_reserved.data(), SIZE);
}

uint32_t
CnpHeader::Deserialize(Buffer::Iterator start)
{
    start.Read(m_reserved.data(), SIZE);
    return SIZE;
}

bool
CnpHeader::IsZero() const
{
    return std::all_of(m_reserved.begin(), m_reserved.end(), [](uint8_t b) { return b == 0; });
}

} // namespace ns3
