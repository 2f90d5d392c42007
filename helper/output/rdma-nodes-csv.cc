/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nodes-csv.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

const uint32_t NONE = std::numeric_limits<uint32_t>::max(); //!< no tier, no pod

/// \return each node's hop distance from the nearest host (NONE if unreachable)
std::vector<uint32_t>
Tiers(const RdmaTopologySpec& topo, const std::vector<std::vector<uint32_t>>& adj)
{
    std::vector<uint32_t> tier(topo.GetNNodes(), NONE);
    std::deque<uint32_t> todo;
    for (uint32_t n = 0; n < tier.size(); ++n)
    {
        if (!topo.isSwitch[n])
        {
            tier[n] = 0;
            todo.push_back(n);
        }
    }
    while (!todo.empty())
    {
        const uint32_t n = todo.front();
        todo.pop_front();
        for (uint32_t m : adj[n])
        {
            if (tier[m] == NONE)
            {
                tier[m] = tier[n] + 1;
                todo.push_back(m);
            }
        }
    }
    return tier;
}

/// \return each node's pod: its connected part without the top tier (NONE for the top tier)
std::vector<uint32_t>
Pods(const std::vector<std::vector<uint32_t>>& adj, const std::vector<uint32_t>& tier, uint32_t top)
{
    std::vector<uint32_t> pod(tier.size(), NONE);
    uint32_t pods = 0;
    for (uint32_t start = 0; start < tier.size(); ++start)
    {
        if (pod[start] != NONE || tier[start] >= top)
        {
            continue;
        }
        std::vector<uint32_t> stack{start};
        pod[start] = pods;
        while (!stack.empty())
        {
            const uint32_t n = stack.back();
            stack.pop_back();
            for (uint32_t m : adj[n])
            {
                if (pod[m] == NONE && tier[m] < top)
                {
                    pod[m] = pods;
                    stack.push_back(m);
                }
            }
        }
        ++pods;
    }
    return pod;
}

/// \return the name of switches of a tier (1..) in a fabric of `depth` switch tiers
std::string
SwitchName(uint32_t tier, uint32_t depth)
{
    static const std::vector<std::vector<std::string>> names{{"switch"},
                                                             {"leaf", "spine"},
                                                             {"edge", "agg", "core"}};
    if (tier == NONE || tier == 0 || depth == 0 || depth > names.size())
    {
        return "sw";
    }
    return names[depth - 1][tier - 1];
}

/// \return each node's neighbours \param topo the topology
std::vector<std::vector<uint32_t>>
Adjacency(const RdmaTopologySpec& topo)
{
    std::vector<std::vector<uint32_t>> adj(topo.GetNNodes());
    for (const auto& l : topo.links)
    {
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    return adj;
}

/// \return the fabric's depth: its highest tier \param tier each node's tier
uint32_t
Depth(const std::vector<uint32_t>& tier)
{
    uint32_t depth = 0;
    for (uint32_t t : tier)
    {
        depth = t == NONE ? depth : std::max(depth, t);
    }
    return depth;
}

/// \return each node's name (RdmaFormatNodesCsv's rule) \param topo the
/// topology \param tier each node's tier \param depth the highest tier
std::vector<std::string>
Names(const RdmaTopologySpec& topo, const std::vector<uint32_t>& tier, uint32_t depth)
{
    std::vector<uint32_t> counter(depth + 2, 0); // per tier (NONE counted last)
    std::vector<std::string> names(topo.GetNNodes());
    for (uint32_t id = 0; id < names.size(); ++id)
    {
        const uint32_t t = tier[id];
        const uint32_t slot = t == NONE ? depth + 1 : t;
        if (id < topo.nodeNames.size() && !topo.nodeNames[id].empty())
        {
            names[id] = topo.nodeNames[id];
        }
        else
        {
            names[id] = (topo.isSwitch[id] ? SwitchName(t, depth) : std::string("host")) +
                        std::to_string(counter[slot]++);
        }
    }
    return names;
}

} // namespace

std::vector<uint32_t>
RdmaNodeTiers(const RdmaTopologySpec& topo)
{
    return Tiers(topo, Adjacency(topo));
}

std::vector<std::string>
RdmaNodeNames(const RdmaTopologySpec& topo)
{
    const std::vector<uint32_t> tier = RdmaNodeTiers(topo);
    return Names(topo, tier, Depth(tier));
}

std::string
RdmaFormatNodesCsv(const RdmaTopologySpec& topo)
{
    const uint32_t n = topo.GetNNodes();
    const std::vector<std::vector<uint32_t>> adj = Adjacency(topo);
    const std::vector<uint32_t> tier = Tiers(topo, adj);
    const uint32_t depth = Depth(tier);
    const std::vector<uint32_t> pod = depth == 3 ? Pods(adj, tier, depth)
                                                 : std::vector<uint32_t>(n, NONE);
    const std::vector<std::string> names = Names(topo, tier, depth);
    std::ostringstream os;
    os << "id,kind,name,pod,tier\n";
    for (uint32_t id = 0; id < n; ++id)
    {
        const uint32_t t = tier[id];
        os << id << ',' << (topo.isSwitch[id] ? "switch" : "host") << ',' << names[id] << ',';
        if (pod[id] != NONE)
        {
            os << pod[id];
        }
        os << ',';
        if (t != NONE)
        {
            os << t;
        }
        os << '\n';
    }
    return os.str();
}

} // namespace ns3
