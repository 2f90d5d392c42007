/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-route-computer.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRouteComputer");

namespace
{
/// Stored distance of an unreachable node.
constexpr uint16_t FAR = 0xFFFF;
} // namespace

RdmaRouteComputer::RdmaRouteComputer(const RdmaTopologySpec& spec, const std::vector<bool>& down)
    : m_nNodes(spec.GetNNodes()),
      m_isSwitch(spec.isSwitch),
      m_hostIndex(spec.GetNNodes(), UNREACHABLE),
      m_ports(spec.GetNNodes()),
      m_down(down)
{
    NS_ABORT_MSG_UNLESS(m_down.empty() || m_down.size() == spec.links.size(),
                        "RdmaRouteComputer: a down flag per link");
    for (uint32_t n = 0; n < m_nNodes; ++n)
    {
        if (!m_isSwitch[n])
        {
            m_hostIndex[n] = m_hostNode.size();
            m_hostNode.push_back(n);
        }
    }
    for (uint32_t i = 0; i < spec.links.size(); ++i)
    {
        const RdmaTopologySpec::Link& l = spec.links[i];
        NS_ABORT_MSG_IF(l.a >= m_nNodes || l.b >= m_nNodes, l.where << ": no such node");
        m_ports[l.a].push_back({i, l.b});
        m_ports[l.b].push_back({i, l.a});
    }
    const std::size_t rowBytes = std::max<std::size_t>(1, m_nNodes) * sizeof(uint16_t);
    m_nRows = std::max<std::size_t>(
        1,
        std::min<std::size_t>(m_hostNode.size(), ROW_CACHE_BYTES / rowBytes));
    m_rowHost.assign(m_nRows, UNREACHABLE);
    m_rows.resize(m_nRows);
    NS_LOG_INFO(spec.name << ": " << m_hostNode.size() << " destinations, " << m_nNodes
                          << " nodes, " << m_nRows << " distance rows kept");
}

const uint16_t*
RdmaRouteComputer::GetRow(uint32_t dstHost) const
{
    const uint32_t slot = dstHost % m_nRows;
    std::vector<uint16_t>& row = m_rows[slot];
    if (m_rowHost[slot] == dstHost)
    {
        return row.data();
    }
    // Breadth-first from the destination; hosts are not transit nodes.
    row.assign(m_nNodes, FAR);
    uint16_t* dist = row.data();
    const uint32_t dst = m_hostNode[dstHost];
    m_queue.clear();
    dist[dst] = 0;
    m_queue.push_back(dst);
    for (std::size_t q = 0; q < m_queue.size(); ++q)
    {
        const uint32_t u = m_queue[q];
        if (u != dst && !m_isSwitch[u])
        {
            continue;
        }
        NS_ABORT_MSG_IF(dist[u] + 1 >= FAR, "RdmaRouteComputer: a path of 65535 links");
        for (const Port& p : m_ports[u])
        {
            if (dist[p.peer] == FAR && !IsDown(p))
            {
                dist[p.peer] = dist[u] + 1;
                m_queue.push_back(p.peer);
            }
        }
    }
    m_rowHost[slot] = dstHost;
    return dist;
}

void
RdmaRouteComputer::ReleaseRows()
{
    for (std::vector<uint16_t>& row : m_rows)
    {
        std::vector<uint16_t>().swap(row);
    }
    std::fill(m_rowHost.begin(), m_rowHost.end(), UNREACHABLE);
    std::vector<uint32_t>().swap(m_queue);
}

bool
RdmaRouteComputer::IsNextHop(uint32_t u, uint32_t dstHost, const uint16_t* dist, const Port& p) const
{
    return u != m_hostNode[dstHost] && !IsDown(p) && dist[u] != FAR && dist[p.peer] + 1 == dist[u] &&
           (p.peer == m_hostNode[dstHost] || m_isSwitch[p.peer]);
}

uint32_t
RdmaRouteComputer::GetNHosts() const
{
    return m_hostNode.size();
}

uint32_t
RdmaRouteComputer::GetHostNode(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hostNode.size(), "no host " << host);
    return m_hostNode[host];
}

uint32_t
RdmaRouteComputer::GetHostIndex(uint32_t node) const
{
    NS_ABORT_MSG_IF(node >= m_nNodes, "no node " << node);
    return m_hostIndex[node];
}

const std::vector<RdmaRouteComputer::Port>&
RdmaRouteComputer::GetPorts(uint32_t node) const
{
    NS_ABORT_MSG_IF(node >= m_nNodes, "no node " << node);
    return m_ports[node];
}

uint32_t
RdmaRouteComputer::GetDistance(uint32_t node, uint32_t dstHost) const
{
    NS_ABORT_MSG_IF(node >= m_nNodes || dstHost >= m_hostNode.size(),
                    "no node " << node << " or host " << dstHost);
    const uint16_t d = GetRow(dstHost)[node];
    return d == FAR ? UNREACHABLE : d;
}

uint32_t
RdmaRouteComputer::GetNNextHops(uint32_t node, uint32_t dstHost) const
{
    NS_ABORT_MSG_IF(node >= m_nNodes || dstHost >= m_hostNode.size(),
                    "no node " << node << " or host " << dstHost);
    const uint16_t* dist = GetRow(dstHost);
    uint32_t n = 0;
    for (const Port& p : m_ports[node])
    {
        n += IsNextHop(node, dstHost, dist, p) ? 1 : 0;
    }
    return n;
}

uint32_t
RdmaRouteComputer::GetNextHop(uint32_t node, uint32_t dstHost, uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= GetNNextHops(node, dstHost), "next hop " << i << " out of range");
    const uint16_t* dist = GetRow(dstHost);
    for (uint32_t port = 0;; ++port)
    {
        if (IsNextHop(node, dstHost, dist, m_ports[node][port]) && i-- == 0)
        {
            return port;
        }
    }
}

void
RdmaRouteComputer::GetNextHops(uint32_t node, uint32_t dstHost, std::vector<uint32_t>& ports) const
{
    NS_ABORT_MSG_IF(node >= m_nNodes || dstHost >= m_hostNode.size(),
                    "no node " << node << " or host " << dstHost);
    ports.clear();
    const uint16_t* dist = GetRow(dstHost);
    for (uint32_t port = 0; port < m_ports[node].size(); ++port)
    {
        if (IsNextHop(node, dstHost, dist, m_ports[node][port]))
        {
            ports.push_back(port);
        }
    }
}

std::vector<uint32_t>
RdmaRouteComputer::GetPath(uint32_t srcHost, uint32_t dstHost) const
{
    std::vector<uint32_t> path;
    uint32_t u = GetHostNode(srcHost);
    const uint32_t dst = GetHostNode(dstHost);
    while (u != dst && GetNNextHops(u, dstHost) > 0)
    {
        const Port& p = m_ports[u][GetNextHop(u, dstHost, 0)];
        path.push_back(p.link);
        u = p.peer;
    }
    return u == dst ? path : std::vector<uint32_t>();
}

uint64_t
RdmaRouteComputer::CountPaths(uint32_t srcHost, uint32_t dstHost) const
{
    // Paths from each node to dst, in order of increasing distance.
    const uint32_t src = GetHostNode(srcHost);
    const uint32_t dst = GetHostNode(dstHost);
    const uint32_t far = GetDistance(src, dstHost);
    if (far == UNREACHABLE)
    {
        return 0;
    }
    std::vector<std::vector<uint32_t>> byDist(far + 1);
    for (uint32_t u = 0; u < m_nNodes; ++u)
    {
        const uint32_t d = GetDistance(u, dstHost);
        if (d <= far && (m_isSwitch[u] || u == src))
        {
            byDist[d].push_back(u);
        }
    }
    std::vector<uint64_t> paths(m_nNodes, 0);
    paths[dst] = 1;
    for (uint32_t level = 1; level <= far; ++level)
    {
        for (uint32_t u : byDist[level])
        {
            uint64_t n = 0;
            for (uint32_t i = 0; i < GetNNextHops(u, dstHost); ++i)
            {
                const uint64_t add = paths[m_ports[u][GetNextHop(u, dstHost, i)].peer];
                n = (n + add < n) ? UINT64_MAX : n + add;
            }
            paths[u] = n;
        }
    }
    return paths[src];
}

} // namespace ns3
