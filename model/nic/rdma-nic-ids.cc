/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic-ids.h"

namespace ns3
{

RdmaNicIds::RdmaNicIds(Ipv4Address address, uint32_t node)
    : m_address(address),
      m_node(node)
{
}

void
RdmaNicIds::Place(Ipv4Address address, uint32_t node)
{
    m_address = address;
    m_node = node;
}

Ipv4Address
RdmaNicIds::GetAddress() const
{
    return m_address;
}

uint32_t
RdmaNicIds::GetNode() const
{
    return m_node;
}

uint32_t
RdmaNicIds::PeekQpn() const
{
    return m_nextQpn & 0xFFFFFF;
}

uint32_t
RdmaNicIds::TakeQpn()
{
    const uint32_t qpn = PeekQpn();
    ++m_nextQpn;
    return qpn;
}

uint32_t
RdmaNicIds::TakeKey()
{
    return (m_nextKey++ << 8) | 0x5A;
}

} // namespace ns3
