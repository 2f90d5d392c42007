/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-remote-access-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaRemoteAccessHeader);

TypeId
RdmaRemoteAccessHeader::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaRemoteAccessHeader").SetParent<Header>().SetGroupName("Rdma");
    return tid;
}

void
RdmaRemoteAccessHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
RdmaRemoteAccessHeader::GetVirtualAddress() const
{
    return m_va;
}

void
RdmaRemoteAccessHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
RdmaRemoteAccessHeader::GetRkey() const
{
    return m_rkey;
}

void
RdmaRemoteAccessHeader::SerializeRemoteAccess(Buffer::Iterator& start) const
{
    start.WriteHtonU64(m_va);
    start.WriteHtonU32(m_rkey);
}

void
RdmaRemoteAccessHeader::DeserializeRemoteAccess(Buffer::Iterator& start)
{
    m_va = start.ReadNtohU64();
    m_rkey = start.ReadNtohU32();
}

void
RdmaRemoteAccessHeader::PrintRemoteAccess(std::ostream& os) const
{
    os << " va=0x" << std::hex << m_va << " rkey=0x" << m_rkey << std::dec;
}

} // namespace ns3
