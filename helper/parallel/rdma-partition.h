/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PARTITION_H
#define RDMA_PARTITION_H

#include "ns3/nstime.h"
#include "ns3/rdma-topology-spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Which rank (process) of a distributed simulation simulates each
 * node of a topology (ns-3's Node system id), by a rule users can see and
 * set (doc/mpi.rst, "Partitioning").
 *
 * Rules (sim.partitionRule, or a sim.partition file), all deterministic
 * (every rank computes the same map):
 * - fat-tree (FatTreeByPod): pod p (its hosts, edge and aggregation
 *   switches) on rank floor(p x ranks / k); core switch c on rank
 *   c mod ranks (cores spread). With more ranks than pods, ByTor.
 * - Metis, the default for HPCC topology files and the generators other
 *   than fat-tree and leaf-spine: METIS 5.1's balanced min-cut of the
 *   topology graph (see Metis).
 * - ByTor, for leaf-spine (by leaf): a ToR is a switch with a host link;
 *   each host is on its first switch's rank; the ToRs, in node-id order,
 *   are cut into ranks contiguous blocks of about equal host counts (block
 *   r ends at the first ToR where the hosts so far reach (r + 1) x hosts /
 *   ranks); the other switches, in node-id order, join the rank most of
 *   their already placed neighbors are on (an aggregation switch goes with
 *   its pod's ToRs), and on a tie (a core switch) the rank with the fewest
 *   such switches so far. A simple greedy cut, balanced by hosts; it does
 *   not minimize the links cut (Metis does).
 * - RailByServer, for rail-optimized fabrics (RdmaTopologySpec::Rail):
 *   server s (its GPUs' NICs and NVLink ports and its NVSwitch) on rank
 *   floor(s x ranks / servers); rail switch i on rank i mod ranks, spine p
 *   on rank p mod ranks. A GPU's two hosts share a rank (a collective
 *   rank's dependencies are completions at both), so links between ranks
 *   are NIC-rail and rail-spine links, never NVLink.
 * - FromFile: a user's map, "node rank" per line.
 *
 * Every map is checked (Check): at most as many ranks as nodes, every
 * rank number below ranks, and every link between two ranks with a delay
 * above 0 (the lookahead of conservative synchronization: a 0 delay would
 * let no rank run ahead). Errors are RdmaConfigError naming the key, file
 * and line or link.
 */
struct RdmaPartition
{
    uint32_t ranks{1};            //!< processes
    std::vector<uint32_t> rankOf; //!< rank of each node id
    std::string rule;             //!< the rule, for summary.json ("fat-tree by pod", ...)
    Time lookahead;               //!< smallest delay of a link between ranks (0: none)
    Time longestCrossDelay;       //!< largest delay of a link between ranks (0: none): the
                                  //!< longest any rank's window can be, each rank's
                                  //!< lookahead being the smallest delay of its own
    uint32_t crossLinks{0};       //!< links between two ranks

    /// \return everything on rank 0 \param spec the topology
    static RdmaPartition Single(const RdmaTopologySpec& spec);
    /**
     * \param spec a FatTree(k) topology (node ids as it numbers them)
     * \param k its arity
     * \param ranks processes (>= 1)
     * \return pods on ranks, cores spread; ByTor with more ranks than pods
     * \throws RdmaConfigError as Check
     */
    static RdmaPartition FatTreeByPod(const RdmaTopologySpec& spec, uint32_t k, uint32_t ranks);
    /**
     * \param spec any topology
     * \param ranks processes (>= 1)
     * \return ToR blocks balanced by hosts, other switches round-robin
     * \throws RdmaConfigError as Check, or if there are fewer ToRs than ranks
     */
    static RdmaPartition ByTor(const RdmaTopologySpec& spec, uint32_t ranks);
    /**
     * \param spec a Rail() topology (node ids as it numbers them)
     * \param ranks processes (>= 1)
     * \return servers in contiguous blocks, rails and spines round-robin
     * \throws RdmaConfigError if spec is not a rail fabric, with more ranks
     *         than servers, and as Check
     */
    static RdmaPartition RailByServer(const RdmaTopologySpec& spec, uint32_t ranks);
    /**
     * \brief The topology's balanced minimum cut by METIS 5.1's
     * METIS_PartGraphKway (Karypis and Kumar, SIAM J. Sci. Comput. 20(1),
     * 1998).
     *
     * The graph: each host is contracted into the switch it links to (its
     * ToR: a cut host link would carry every frame of the host across
     * ranks, so hosts stay on their ToR's rank), a host linked to no switch
     * is a vertex of its own; an edge per pair of linked vertices, weighted
     * by the sum of their links' rates in units of the slowest link's rate
     * (a cut fast link carries more frames between ranks, each an MPI
     * message). Two balance constraints per vertex (METIS's multi-
     * constraint partitioning), each within 1.03 of the mean (ubvec, METIS's
     * k-way default): its hosts (the flows' ends: the flow runner's and the
     * NICs' work) and its port capacity, the sum of the rates of the links
     * at its nodes in the same units (a packet-level simulator's events are
     * per frame per hop, so a node's work at full load follows the rate of
     * its ports; switches weigh nothing by host count alone). K-way for
     * every rank count: on the HPCC paper's fat tree at 2 ranks recursive
     * bisection finds the same cut (40 links, as ByTor). Deterministic:
     * METIS_OPTION_SEED fixed, so every rank computes the same map (with
     * the same libmetis).
     * \param spec any topology
     * \param ranks processes (>= 1)
     * \return the map; rule "metis ..., N links cut"
     * \throws RdmaConfigError naming the topology on a METIS error
     *         (METIS_ERROR_INPUT, _MEMORY, METIS_ERROR), fewer switches
     *         (with their hosts) than ranks, a rank left empty, weights
     *         beyond 32 bits, in a build without METIS (RDMA_NO_METIS:
     *         ns-3's static build, one rank only), and as Check
     */
    static RdmaPartition Metis(const RdmaTopologySpec& spec, uint32_t ranks);
    /**
     * \brief Read a map: "node rank" per line (node ids as pfc.csv's node
     * column), '#' starts a comment; every node exactly once.
     * \param path the file
     * \param spec the topology
     * \param ranks processes
     * \return the map
     * \throws RdmaConfigError "path:line: ..." on a bad line, an unknown or
     *         repeated node, a rank >= ranks, or nodes missing; and as Check
     */
    static RdmaPartition FromFile(const std::string& path,
                                  const RdmaTopologySpec& spec,
                                  uint32_t ranks);

    /**
     * \brief Check the map against the topology and fill lookahead and
     * crossLinks.
     * \param spec the topology
     * \throws RdmaConfigError on more ranks than nodes, a rank out of
     *         range, or a link of delay 0 between ranks
     */
    void Check(const RdmaTopologySpec& spec);

    /// \return nodes on each rank
    std::vector<uint32_t> GetNodesPerRank() const;

    /**
     * \brief Record the process's place among the ranks (set once MPI is
     * initialized: rdma-sim under mpirun; 0 of 1 otherwise).
     * \param rank this process's rank
     * \param size the number of ranks
     */
    static void SetWorld(uint32_t rank, uint32_t size);
    /// \return this process's rank (0 without MPI)
    static uint32_t GetWorldRank();
    /// \return the number of ranks (1 without MPI)
    static uint32_t GetWorldSize();
};

} // namespace ns3

#endif /* RDMA_PARTITION_H */
