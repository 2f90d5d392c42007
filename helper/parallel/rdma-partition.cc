/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-partition.h"

#include "ns3/rdma-config.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

uint32_t g_worldRank = 0; //!< SetWorld's rank
uint32_t g_worldSize = 1; //!< SetWorld's size

/// \return the first switch each node links to (UINT32_MAX: none)
std::vector<uint32_t>
FirstSwitch(const RdmaTopologySpec& spec)
{
    std::vector<uint32_t> first(spec.GetNNodes(), UINT32_MAX);
    for (const auto& l : spec.links)
    {
        if (spec.isSwitch[l.b] && first[l.a] == UINT32_MAX)
        {
            first[l.a] = l.b;
        }
        if (spec.isSwitch[l.a] && first[l.b] == UINT32_MAX)
        {
            first[l.b] = l.a;
        }
    }
    return first;
}

/**
 * \brief Place the ToRs in node-id order in blocks of about equal hosts,
 * leaving at least one ToR for each rank still to fill.
 * \param tors the switches with hosts \param hostsOf hosts by switch node
 * \param hosts their total \param ranks the ranks \param rankOf receives the ToRs' ranks
 */
void
PlaceTors(const std::vector<uint32_t>& tors,
          const std::vector<uint32_t>& hostsOf,
          uint64_t hosts,
          uint32_t ranks,
          std::vector<uint32_t>& rankOf)
{
    uint64_t seen = 0;
    uint32_t rank = 0;
    for (uint32_t t = 0; t < tors.size(); ++t)
    {
        // Leave at least one ToR for each rank still to fill.
        const bool mustMove = tors.size() - t <= ranks - 1 - rank;
        if (rank + 1 < ranks && (seen * ranks >= (rank + 1) * hosts || mustMove) && seen > 0)
        {
            ++rank;
        }
        rankOf[tors[t]] = rank;
        seen += hostsOf[tors[t]];
    }
}

/**
 * \brief Place the other switches, in node-id order: with the rank most of
 * their placed neighbors are on (an aggregation switch with its ToRs); on a
 * tie (a core switch between pods), with the rank that has the fewest of
 * them so far, the lowest first.
 * \param spec the topology \param tors the switches with hosts, placed
 * \param hostsOf hosts by switch node \param ranks the ranks
 * \param rankOf the ToRs' ranks; receives the other switches'
 */
void
PlaceOtherSwitches(const RdmaTopologySpec& spec,
                   const std::vector<uint32_t>& tors,
                   const std::vector<uint32_t>& hostsOf,
                   uint32_t ranks,
                   std::vector<uint32_t>& rankOf)
{
    const uint32_t n = spec.GetNNodes();
    std::vector<std::vector<uint32_t>> neighbors(n);
    for (const auto& l : spec.links)
    {
        neighbors[l.a].push_back(l.b);
        neighbors[l.b].push_back(l.a);
    }
    std::vector<bool> placed(n, false);
    for (uint32_t t : tors)
    {
        placed[t] = true;
    }
    std::vector<uint32_t> others(ranks, 0);
    for (uint32_t u = 0; u < n; ++u)
    {
        if (!spec.isSwitch[u] || hostsOf[u] > 0)
        {
            continue;
        }
        std::vector<uint32_t> votes(ranks, 0);
        for (uint32_t v : neighbors[u])
        {
            votes[rankOf[v]] += placed[v];
        }
        uint32_t best = 0;
        for (uint32_t r = 1; r < ranks; ++r)
        {
            if (votes[r] > votes[best] || (votes[r] == votes[best] && others[r] < others[best]))
            {
                best = r;
            }
        }
        rankOf[u] = best;
        placed[u] = true;
        ++others[best];
    }
}

} // namespace

RdmaPartition
RdmaPartition::Single(const RdmaTopologySpec& spec)
{
    RdmaPartition p;
    p.rankOf.assign(spec.GetNNodes(), 0);
    p.rule = "single process";
    p.Check(spec);
    return p;
}

RdmaPartition
RdmaPartition::FatTreeByPod(const RdmaTopologySpec& spec, uint32_t k, uint32_t ranks)
{
    if (ranks > k)
    {
        return ByTor(spec, ranks);
    }
    const uint32_t half = k / 2;
    const uint32_t nHosts = k * k * k / 4;
    const uint32_t agg0 = nHosts + k * half;
    const uint32_t core0 = agg0 + k * half;
    RdmaPartition p;
    p.ranks = ranks;
    p.rule = "fat-tree by pod, cores round-robin";
    p.rankOf.assign(spec.GetNNodes(), 0);
    auto podRank = [&](uint32_t pod) { return uint32_t(uint64_t(pod) * ranks / k); };
    for (uint32_t u = 0; u < spec.GetNNodes(); ++u)
    {
        if (u < nHosts)
        {
            p.rankOf[u] = podRank(u / (half * half));
        }
        else if (u < agg0)
        {
            p.rankOf[u] = podRank((u - nHosts) / half);
        }
        else if (u < core0)
        {
            p.rankOf[u] = podRank((u - agg0) / half);
        }
        else
        {
            p.rankOf[u] = (u - core0) % ranks;
        }
    }
    p.Check(spec);
    return p;
}

RdmaPartition
RdmaPartition::ByTor(const RdmaTopologySpec& spec, uint32_t ranks)
{
    const uint32_t n = spec.GetNNodes();
    const std::vector<uint32_t> first = FirstSwitch(spec);
    std::vector<uint32_t> hostsOf(n, 0);
    for (uint32_t u = 0; u < n; ++u)
    {
        if (!spec.isSwitch[u] && first[u] != UINT32_MAX)
        {
            ++hostsOf[first[u]];
        }
    }
    std::vector<uint32_t> tors;
    uint64_t hosts = 0;
    for (uint32_t u = 0; u < n; ++u)
    {
        if (spec.isSwitch[u] && hostsOf[u] > 0)
        {
            tors.push_back(u);
            hosts += hostsOf[u];
        }
    }
    RdmaPartition p;
    p.ranks = ranks;
    p.rule = "ToR blocks balanced by hosts, other switches with most of their neighbors";
    if (ranks > n)
    {
        p.rankOf.assign(n, 0);
        p.Check(spec); // throws: more ranks than nodes
    }
    if (ranks > tors.size())
    {
        throw RdmaConfigError("sim.ranks = " + std::to_string(ranks) + ": " + spec.name +
                              " has " + std::to_string(tors.size()) +
                              " switches with hosts (ToRs), the unit the partition rule "
                              "places; give at most that many ranks or a sim.partition file");
    }
    p.rankOf.assign(n, 0);
    PlaceTors(tors, hostsOf, hosts, ranks, p.rankOf);
    PlaceOtherSwitches(spec, tors, hostsOf, ranks, p.rankOf);
    uint32_t loose = 0;
    for (uint32_t u = 0; u < n; ++u)
    {
        if (!spec.isSwitch[u])
        {
            p.rankOf[u] = first[u] != UINT32_MAX ? p.rankOf[first[u]] : loose++ % ranks;
        }
    }
    p.Check(spec);
    return p;
}

RdmaPartition
RdmaPartition::RailByServer(const RdmaTopologySpec& spec, uint32_t ranks)
{
    const uint32_t servers = spec.servers.count;
    const uint32_t gpus = spec.servers.GetGpus();
    const uint32_t perServer = spec.servers.gpusPerServer;
    if (servers == 0)
    {
        throw RdmaConfigError("sim.partitionRule = by-server: " + spec.name +
                              " is not a rail fabric (topology.type = rail)");
    }
    if (ranks > servers)
    {
        throw RdmaConfigError("sim.ranks = " + std::to_string(ranks) + ": " + spec.name + " has " +
                              std::to_string(servers) +
                              " servers, the unit the partition rule places; give at most that "
                              "many ranks or a sim.partition file");
    }
    RdmaPartition p;
    p.ranks = ranks;
    p.rule = "rail fabric by server, rails and spines round-robin";
    p.rankOf.assign(spec.GetNNodes(), 0);
    auto serverRank = [&](uint32_t server) { return uint32_t(uint64_t(server) * ranks / servers); };
    // Node ids (RdmaTopologySpec::Rail): NICs, NVLink ports, rails, NVSwitches, spines.
    const uint32_t rail0 = 2 * gpus;
    const uint32_t nvswitch0 = rail0 + perServer;
    const uint32_t spine0 = nvswitch0 + servers;
    for (uint32_t u = 0; u < spec.GetNNodes(); ++u)
    {
        if (u < rail0)
        {
            p.rankOf[u] = serverRank((u % gpus) / perServer);
        }
        else if (u < nvswitch0)
        {
            p.rankOf[u] = (u - rail0) % ranks;
        }
        else if (u < spine0)
        {
            p.rankOf[u] = serverRank(u - nvswitch0);
        }
        else
        {
            p.rankOf[u] = (u - spine0) % ranks;
        }
    }
    p.Check(spec);
    return p;
}

RdmaPartition
RdmaPartition::FromFile(const std::string& path, const RdmaTopologySpec& spec, uint32_t ranks)
{
    std::ifstream in(path);
    if (!in)
    {
        throw RdmaConfigError("sim.partition: cannot read " + path);
    }
    const uint32_t n = spec.GetNNodes();
    RdmaPartition p;
    p.ranks = ranks;
    p.rule = "file " + path;
    p.rankOf.assign(n, UINT32_MAX);
    std::vector<uint32_t> lineOf(n, 0);
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        const std::string where = path + ":" + std::to_string(lineNo) + ": ";
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string nodeText;
        std::string rankText;
        std::string extra;
        if (!(words >> nodeText))
        {
            continue;
        }
        if (!(words >> rankText) || (words >> extra))
        {
            throw RdmaConfigError(where + "expected 'node rank', got '" + line + "'");
        }
        auto number = [&](const std::string& text, const char* what) {
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
                text.size() > 9)
            {
                throw RdmaConfigError(where + what + " '" + text + "' is not a number");
            }
            return uint32_t(std::stoul(text));
        };
        const uint32_t node = number(nodeText, "node");
        const uint32_t rank = number(rankText, "rank");
        if (node >= n)
        {
            throw RdmaConfigError(where + "node " + nodeText + " is not in " + spec.name +
                                  " (node ids 0-" + std::to_string(n - 1) + ")");
        }
        if (p.rankOf[node] != UINT32_MAX)
        {
            throw RdmaConfigError(where + "node " + nodeText + " placed already at line " +
                                  std::to_string(lineOf[node]));
        }
        if (rank >= ranks)
        {
            throw RdmaConfigError(where + "rank " + rankText + " but the run has " +
                                  std::to_string(ranks) + " ranks (0-" +
                                  std::to_string(ranks - 1) + ")");
        }
        p.rankOf[node] = rank;
        lineOf[node] = lineNo;
    }
    uint32_t missing = 0;
    std::string first;
    for (uint32_t u = 0; u < n; ++u)
    {
        if (p.rankOf[u] == UINT32_MAX)
        {
            first = first.empty() ? std::to_string(u) : first;
            ++missing;
        }
    }
    if (missing > 0)
    {
        throw RdmaConfigError(path + ": " + std::to_string(missing) + " of " +
                              std::to_string(n) + " nodes have no rank (the first: node " +
                              first + ")");
    }
    p.Check(spec);
    return p;
}

void
RdmaPartition::Check(const RdmaTopologySpec& spec)
{
    const uint32_t n = spec.GetNNodes();
    if (ranks > n)
    {
        throw RdmaConfigError("sim.ranks = " + std::to_string(ranks) + ": more ranks than the " +
                              std::to_string(n) + " nodes of " + spec.name);
    }
    if (rankOf.size() != n)
    {
        throw RdmaConfigError("partition: " + std::to_string(rankOf.size()) + " entries for " +
                              std::to_string(n) + " nodes");
    }
    for (uint32_t u = 0; u < n; ++u)
    {
        if (rankOf[u] >= ranks)
        {
            throw RdmaConfigError("partition: node " + std::to_string(u) + " on rank " +
                                  std::to_string(rankOf[u]) + " of " + std::to_string(ranks));
        }
    }
    lookahead = Time(0);
    longestCrossDelay = Time(0);
    crossLinks = 0;
    for (const auto& l : spec.links)
    {
        if (rankOf[l.a] == rankOf[l.b])
        {
            continue;
        }
        if (!l.delay.IsStrictlyPositive())
        {
            throw RdmaConfigError(
                (l.where.empty() ? std::string("topology") : l.where) + ": the link " +
                std::to_string(l.a) + "-" + std::to_string(l.b) + " joins ranks " +
                std::to_string(rankOf[l.a]) + " and " + std::to_string(rankOf[l.b]) +
                " with a delay of 0: no lookahead, the ranks could not run in parallel "
                "(give it a delay or put both ends on one rank, sim.partition)");
        }
        lookahead = crossLinks == 0 ? l.delay : std::min(lookahead, l.delay);
        longestCrossDelay = std::max(longestCrossDelay, l.delay);
        ++crossLinks;
    }
}

std::vector<uint32_t>
RdmaPartition::GetNodesPerRank() const
{
    std::vector<uint32_t> count(ranks, 0);
    for (uint32_t r : rankOf)
    {
        ++count[r];
    }
    return count;
}

void
RdmaPartition::SetWorld(uint32_t rank, uint32_t size)
{
    g_worldRank = rank;
    g_worldSize = size;
}

uint32_t
RdmaPartition::GetWorldRank()
{
    return g_worldRank;
}

uint32_t
RdmaPartition::GetWorldSize()
{
    return g_worldSize;
}

} // namespace ns3
