/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-route-table.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

namespace
{
/// The dense IPv4 array may span this many addresses, or 4 per route if more.
constexpr uint64_t DENSE_MIN_SPAN = 65536;
} // namespace

uint32_t
RdmaRouteTable::WithPort(uint32_t group, uint32_t port)
{
    Group ports;
    if (group != NONE)
    {
        ports = m_groups[group];
        if (std::find(ports.begin(), ports.end(), port) != ports.end())
        {
            return group;
        }
    }
    ports.push_back(port);
    auto it = m_groupIndex.find(ports);
    if (it != m_groupIndex.end())
    {
        return it->second;
    }
    const uint32_t index = m_groups.size();
    m_groups.push_back(ports);
    m_groupIndex.emplace(std::move(ports), index);
    return index;
}

uint32_t
RdmaRouteTable::V4Slot(uint32_t dst)
{
    if (m_v4IsDense)
    {
        if (m_v4Dense.empty())
        {
            m_v4Base = dst;
        }
        const uint64_t low = std::min(m_v4Base, dst);
        const uint64_t high = std::max<uint64_t>(m_v4Base + m_v4Dense.size(), uint64_t(dst) + 1);
        if (high - low <= std::max<uint64_t>(DENSE_MIN_SPAN, 4 * (m_nV4 + 1)))
        {
            if (low < m_v4Base)
            {
                m_v4Dense.PrependNone(m_v4Base - low);
                m_v4Base = static_cast<uint32_t>(low);
            }
            if (high > m_v4Base + m_v4Dense.size())
            {
                m_v4Dense.Resize(high - m_v4Base);
            }
            return m_v4Dense.Get(dst - m_v4Base);
        }
        MakeSparse();
    }
    return m_v4Sparse.emplace(dst, NONE).first->second;
}

void
RdmaRouteTable::SetV4(uint32_t dst, uint32_t group)
{
    if (m_v4IsDense)
    {
        m_v4Dense.Set(dst - m_v4Base, group);
    }
    else
    {
        m_v4Sparse[dst] = group;
    }
}

void
RdmaRouteTable::MakeSparse()
{
    for (std::size_t i = 0; i < m_v4Dense.size(); ++i)
    {
        if (m_v4Dense.Get(i) != NONE)
        {
            m_v4Sparse.emplace(static_cast<uint32_t>(m_v4Base + i), m_v4Dense.Get(i));
        }
    }
    m_v4Dense.Release();
    m_v4IsDense = false;
}

void
RdmaRouteTable::Add(Ipv4Address dst, uint32_t port)
{
    const uint32_t slot = V4Slot(dst.Get());
    m_nV4 += slot == NONE;
    SetV4(dst.Get(), WithPort(slot, port));
}

void
RdmaRouteTable::Set(Ipv4Address dst, const Group& ports)
{
    const uint32_t slot = V4Slot(dst.Get());
    m_nV4 += slot == NONE;
    auto it = m_groupIndex.find(ports);
    if (it == m_groupIndex.end())
    {
        it = m_groupIndex.emplace(ports, m_groups.size()).first;
        m_groups.push_back(ports);
    }
    SetV4(dst.Get(), it->second);
}

void
RdmaRouteTable::Add(Ipv6Address dst, uint32_t port)
{
    auto it = m_v6.emplace(dst, NONE).first;
    it->second = WithPort(it->second, port);
}

void
RdmaRouteTable::Clear()
{
    *this = RdmaRouteTable();
}

const RdmaRouteTable::Group*
RdmaRouteTable::Lookup(uint32_t dst) const
{
    uint32_t group = NONE;
    if (m_v4IsDense)
    {
        const uint32_t i = dst - m_v4Base; // wraps below the base: out of range
        if (i < m_v4Dense.size())
        {
            group = m_v4Dense.Get(i);
        }
    }
    else
    {
        auto it = m_v4Sparse.find(dst);
        group = it == m_v4Sparse.end() ? NONE : it->second;
    }
    return group == NONE ? nullptr : &m_groups[group];
}

const RdmaRouteTable::Group*
RdmaRouteTable::Lookup(const uint8_t* dst) const
{
    uint8_t bytes[16];
    std::memcpy(bytes, dst, 16);
    auto it = m_v6.find(Ipv6Address(bytes));
    return it == m_v6.end() ? nullptr : &m_groups[it->second];
}

uint32_t
RdmaRouteTable::Select(const Group& group, uint64_t hash)
{
    return group.size() == 1 ? group[0] : group[hash % group.size()];
}

bool
RdmaRouteTable::operator==(const RdmaRouteTable& o) const
{
    return m_nV4 == o.m_nV4 && m_v4IsDense == o.m_v4IsDense && m_v4Base == o.m_v4Base &&
           m_groups == o.m_groups && m_v4Dense == o.m_v4Dense && m_v4Sparse == o.m_v4Sparse &&
           m_v6 == o.m_v6;
}

std::size_t
RdmaRouteTable::Hash() const
{
    std::size_t h = m_v4Dense.Hash() ^ (m_nV4 * 0x9E3779B97F4A7C15ULL) ^ m_v4Base;
    for (const Group& g : m_groups)
    {
        for (uint32_t port : g)
        {
            h = h * 31 + port;
        }
        h = h * 31 + 0xFFFF;
    }
    return h;
}

std::size_t
RdmaRouteTable::GetNRoutes() const
{
    return m_nV4 + m_v6.size();
}

std::size_t
RdmaRouteTable::GetNGroups() const
{
    return m_groups.size();
}

} // namespace ns3
