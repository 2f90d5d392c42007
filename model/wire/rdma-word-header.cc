/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-word-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaWordHeader);
NS_OBJECT_ENSURE_REGISTERED(ImmDtHeader);
NS_OBJECT_ENSURE_REGISTERED(IethHeader);

TypeId
RdmaWordHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaWordHeader").SetParent<Header>().SetGroupName("Rdma");
    return tid;
}

uint32_t
RdmaWordHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaWordHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_word);
}

uint32_t
RdmaWordHeader::Deserialize(Buffer::Iterator start)
{
    m_word = start.ReadNtohU32();
    return SIZE;
}

TypeId
ImmDtHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ImmDtHeader")
                            .SetParent<RdmaWordHeader>()
                            .SetGroupName("Rdma")
                            .AddConstructor<ImmDtHeader>();
    return tid;
}

TypeId
ImmDtHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
ImmDtHeader::Print(std::ostream& os) const
{
    os << "ImmDt 0x" << std::hex << m_word << std::dec;
}

void
ImmDtHeader::SetImmediateData(uint32_t imm)
{
    m_word = imm;
}

uint32_t
ImmDtHeader::GetImmediateData() const
{
    return m_word;
}

TypeId
IethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IethHeader")
                            .SetParent<RdmaWordHeader>()
                            .SetGroupName("Rdma")
                            .AddConstructor<IethHeader>();
    return tid;
}

TypeId
IethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IethHeader::Print(std::ostream& os) const
{
    os << "IETH rkey=0x" << std::hex << m_word << std::dec;
}

void
IethHeader::SetRkey(uint32_t rkey)
{
    m_word = rkey;
}

uint32_t
IethHeader::GetRkey() const
{
    return m_word;
}

} // namespace ns3
