/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaPartition::Metis: the topology's balanced min-cut by METIS 5.1
// (Karypis and Kumar, "A Fast and High Quality Multilevel Scheme for
// Partitioning Irregular Graphs", SIAM J. Sci. Comput. 20(1), 1998; the
// METIS 5.1 manual, METIS_PartGraphKway).

#include "rdma-partition.h"

#include "ns3/rdma-config.h"

#ifndef RDMA_NO_METIS
#include <metis.h>
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace ns3
{

#ifdef RDMA_NO_METIS

// ns-3's static build without a static libmetis (ns3-module/find-metis.cmake):
// one rank only, so the partition is never computed; refuse if asked.
RdmaPartition
RdmaPartition::Metis(const RdmaTopologySpec& spec, uint32_t /* ranks */)
{
    throw RdmaConfigError("sim.partitionRule = metis: " + spec.name +
                          ": this build has no METIS (ns-3's static build links archives "
                          "only and libmetis-dev has none); use the MPI build (make mpi)");
}

#else

namespace
{

/// METIS_OPTION_SEED: any fixed value makes the map the same on every rank.
constexpr idx_t METIS_SEED = 1;

/// The load imbalance tolerance of each constraint (ubvec): 1.03, METIS's
/// own default for k-way (METIS_OPTION_UFACTOR 30, in thousandths).
constexpr real_t METIS_IMBALANCE = 1.03;

/// \return METIS's error code as its name
std::string
MetisError(int status)
{
    switch (status)
    {
    case METIS_ERROR_INPUT:
        return "METIS_ERROR_INPUT (erroneous input or options)";
    case METIS_ERROR_MEMORY:
        return "METIS_ERROR_MEMORY (out of memory)";
    default:
        return "METIS_ERROR (" + std::to_string(status) + ")";
    }
}

/// The graph METIS partitions: one vertex per switch with its hosts, CSR.
struct MetisGraph
{
    std::vector<uint32_t> vertexOf; //!< per node id: its vertex
    std::vector<idx_t> xadj;        //!< CSR offsets
    std::vector<idx_t> adjncy;      //!< CSR neighbors
    std::vector<idx_t> vwgt;        //!< 2 per vertex: hosts, port capacity
    std::vector<idx_t> adjwgt;      //!< per CSR entry: the links' capacity
    idx_t nvtxs{0};                 //!< vertices
};

/// \return rate in units of unit (at least 1)
int64_t
Units(const DataRate& rate, uint64_t unit)
{
    return std::max<int64_t>(1, std::llround(double(rate.GetBitRate()) / double(unit)));
}

/**
 * \brief Contract each host into the switch it links to (a host-switch link
 * cut would be pure overhead: the host's every frame would cross) and weigh
 * vertices and edges.
 * \param spec the topology
 * \return the graph
 */
MetisGraph
BuildGraph(const RdmaTopologySpec& spec)
{
    const uint32_t n = spec.GetNNodes();
    MetisGraph g;
    g.vertexOf.assign(n, UINT32_MAX);
    // A host's vertex is its switch's; a host linked to a host only is
    // a vertex of its own.
    std::vector<uint32_t> owner(n);
    for (uint32_t u = 0; u < n; ++u)
    {
        owner[u] = u;
    }
    uint64_t unit = std::numeric_limits<uint64_t>::max();
    for (const auto& l : spec.links)
    {
        unit = std::min(unit, l.rate.GetBitRate());
        if (!spec.isSwitch[l.a] && spec.isSwitch[l.b])
        {
            owner[l.a] = l.b;
        }
        else if (spec.isSwitch[l.a] && !spec.isSwitch[l.b])
        {
            owner[l.b] = l.a;
        }
    }
    std::vector<uint32_t> vertexNode;
    for (uint32_t u = 0; u < n; ++u)
    {
        if (owner[u] == u)
        {
            g.vertexOf[u] = uint32_t(vertexNode.size());
            vertexNode.push_back(u);
        }
    }
    for (uint32_t u = 0; u < n; ++u)
    {
        g.vertexOf[u] = g.vertexOf[owner[u]];
    }
    g.nvtxs = idx_t(vertexNode.size());
    std::vector<int64_t> weight(2 * vertexNode.size(), 0);
    std::vector<std::map<uint32_t, int64_t>> edges(vertexNode.size());
    for (uint32_t u = 0; u < n; ++u)
    {
        weight[2 * g.vertexOf[u]] += spec.isSwitch[u] ? 0 : 1;
    }
    for (const auto& l : spec.links)
    {
        const int64_t c = Units(l.rate, unit);
        const uint32_t va = g.vertexOf[l.a];
        const uint32_t vb = g.vertexOf[l.b];
        weight[2 * va + 1] += c;
        weight[2 * vb + 1] += c;
        if (va != vb)
        {
            edges[va][vb] += c;
            edges[vb][va] += c;
        }
    }
    const int64_t limit = std::numeric_limits<idx_t>::max() / 2;
    auto checked = [&](int64_t x) {
        if (x > limit)
        {
            throw RdmaConfigError("sim.partitionRule = metis: " + spec.name +
                                  ": link rates too far apart for METIS's 32-bit weights");
        }
        return idx_t(x);
    };
    int64_t total = 0;
    for (int64_t w : weight)
    {
        total += w;
    }
    checked(total);
    g.xadj.push_back(0);
    for (uint32_t v = 0; v < vertexNode.size(); ++v)
    {
        g.vwgt.push_back(idx_t(weight[2 * v]));
        g.vwgt.push_back(idx_t(weight[2 * v + 1]));
        for (const auto& [w, c] : edges[v])
        {
            g.adjncy.push_back(idx_t(w));
            g.adjwgt.push_back(checked(c));
        }
        g.xadj.push_back(idx_t(g.adjncy.size()));
    }
    return g;
}

} // namespace

RdmaPartition
RdmaPartition::Metis(const RdmaTopologySpec& spec, uint32_t ranks)
{
    const uint32_t n = spec.GetNNodes();
    RdmaPartition p;
    p.ranks = ranks;
    p.rankOf.assign(n, 0);
    if (ranks > n)
    {
        p.Check(spec); // throws: more ranks than nodes
    }
    MetisGraph g = BuildGraph(spec);
    if (uint32_t(g.nvtxs) < ranks)
    {
        throw RdmaConfigError("sim.ranks = " + std::to_string(ranks) + ": " + spec.name + " has " +
                              std::to_string(g.nvtxs) +
                              " switches (each with its hosts), the unit METIS places; give at "
                              "most that many ranks or a sim.partition file");
    }
    p.rule = "metis k-way, hosts with their switch, balanced by hosts and port capacity";
    if (ranks > 1)
    {
        idx_t options[METIS_NOPTIONS];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = METIS_SEED;
        options[METIS_OPTION_NUMBERING] = 0;
        idx_t ncon = 2;
        idx_t nparts = idx_t(ranks);
        std::vector<real_t> ubvec(ncon, METIS_IMBALANCE);
        idx_t objval = 0;
        std::vector<idx_t> part(g.nvtxs, 0);
        const int status = METIS_PartGraphKway(&g.nvtxs,
                                               &ncon,
                                               g.xadj.data(),
                                               g.adjncy.data(),
                                               g.vwgt.data(),
                                               nullptr,
                                               g.adjwgt.data(),
                                               &nparts,
                                               nullptr,
                                               ubvec.data(),
                                               options,
                                               &objval,
                                               part.data());
        if (status != METIS_OK)
        {
            throw RdmaConfigError("sim.partitionRule = metis: " + spec.name + ": " +
                                  MetisError(status));
        }
        for (uint32_t u = 0; u < n; ++u)
        {
            p.rankOf[u] = uint32_t(part[g.vertexOf[u]]);
        }
        const std::vector<uint32_t> count = p.GetNodesPerRank();
        for (uint32_t r = 0; r < ranks; ++r)
        {
            if (count[r] == 0)
            {
                throw RdmaConfigError("sim.partitionRule = metis: " + spec.name +
                                      ": METIS left rank " + std::to_string(r) +
                                      " empty; give fewer ranks or a sim.partition file");
            }
        }
    }
    p.Check(spec);
    p.rule += ", " + std::to_string(p.crossLinks) + " links cut";
    return p;
}

#endif // RDMA_NO_METIS

} // namespace ns3
