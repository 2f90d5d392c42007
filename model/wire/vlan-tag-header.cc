/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "vlan-tag-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(VlanTagHeader);

VlanTagHeader::VlanTagHeader()
    : m_tci(0),
      m_innerType(0x0800)
{
}

TypeId
VlanTagHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VlanTagHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<VlanTagHeader>();
    return tid;
}

TypeId
VlanTagHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
VlanTagHeader::Print(std::ostream& os) const
{
    os << "802.1Q pcp=" << +GetPcp() << " dei=" << GetDei() << " vid=" << GetVid() << " type=0x"
       << std::hex << m_innerType << std::dec;
}

uint32_t
VlanTagHeader::GetSerializedSize() const
{
    return SIZE;
}

void
VlanTagHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_tci);
    start.WriteHtonU16(m_innerType);
}

uint32_t
VlanTagHeader::Deserialize(Buffer::Iterator start)
{
    m_tci = start.ReadNtohU16();
    m_innerType = start.ReadNtohU16();
    return SIZE;
}

void
VlanTagHeader::SetPcp(uint8_t pcp)
{
    m_tci = (m_tci & 0x1FFF) | (uint16_t(pcp & 0x7) << 13);
}

uint8_t
VlanTagHeader::GetPcp() const
{
    return m_tci >> 13;
}

void
VlanTagHeader::SetDei(bool dei)
{
    m_tci = dei ? (m_tci | 0x1000) : (m_tci & ~0x1000);
}

bool
VlanTagHeader::GetDei() const
{
    return m_tci & 0x1000;
}

void
VlanTagHeader::SetVid(uint16_t vid)
{
    m_tci = (m_tci & 0xF000) | (vid & 0x0FFF);
}

uint16_t
VlanTagHeader::GetVid() const
{
    return m_tci & 0x0FFF;
}

void
VlanTagHeader::SetInnerType(uint16_t type)
{
    m_innerType = type;
}

uint16_t
VlanTagHeader::GetInnerType() const
{
    return m_innerType;
}

} // namespace ns3
