/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-route-table.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

void
RdmaRouteTable::AddToGroup(Group& group, uint32_t port)
{
    if (std::find(group.begin(), group.end(), port) == group.end())
    {
        group.push_back(port);
    }
}

void
RdmaRouteTable::Add(Ipv4Address dst, uint32_t port)
{
    AddToGroup(m_v4[dst.Get()], port);
}

void
RdmaRouteTable::Add(Ipv6Address dst, uint32_t port)
{
    AddToGroup(m_v6[dst], port);
}

void
RdmaRouteTable::Clear()
{
    m_v4.clear();
    m_v6.clear();
}

const RdmaRouteTable::Group*
RdmaRouteTable::Lookup(uint32_t dst) const
{
    auto it = m_v4.find(dst);
    return it == m_v4.end() ? nullptr : &it->second;
}

const RdmaRouteTable::Group*
RdmaRouteTable::Lookup(const uint8_t* dst) const
{
    uint8_t bytes[16];
    std::memcpy(bytes, dst, 16);
    auto it = m_v6.find(Ipv6Address(bytes));
    return it == m_v6.end() ? nullptr : &it->second;
}

uint32_t
RdmaRouteTable::Select(const Group& group, uint64_t hash)
{
    return group.size() == 1 ? group[0] : group[hash % group.size()];
}

std::size_t
RdmaRouteTable::GetNRoutes() const
{
    return m_v4.size() + m_v6.size();
}

} // namespace ns3
