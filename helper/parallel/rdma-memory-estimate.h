/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MEMORY_ESTIMATE_H
#define RDMA_MEMORY_ESTIMATE_H

#include "ns3/rdma-flow.h"
#include "ns3/rdma-topology-spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The memory one experiment will take, estimated before anything is
 * built from what it is made of, each item at a cost measured on rdma-sim
 * (peak resident set size of whole runs over several sizes, fitted; the
 * measurements, the fit and the command that reproduces them are in
 * doc/rdma.rst, "Memory").
 *
 * The items, and what each cost covers:
 * - base: the process (ns-3 and this library loaded, the configuration);
 * - hosts: a Node, its RdmaNic with its receive buffer, congestion control
 *   and loss-recovery factories, its verbs resources (PD, CQ, memory
 *   regions), its statistics;
 * - switches: a Node, an RdmaSwitch and its SwitchMmu;
 * - ports: a QbbNetDevice (each end of each link: 2 per link) with its
 *   per-class queues, its channel half, the switch's per-port state;
 * - routes: one forwarding entry per switch and destination host
 *   (switches x hosts: RdmaSwitch::AddRoute's table and RdmaRouteComputer's
 *   distance arrays), the term that grows fastest (5k^5/16 on a k-ary
 *   fat-tree), and their next hops (GetRouteHops: each in the switch's ECMP
 *   group and in the route computer);
 * - flows: each flow of the workload (its description, its result, its
 *   FCT record and output rows);
 * - QP pairs at once: the QP pairs (requester and responder QPs, their
 *   congestion control and loss recovery) open at the same time, counted as
 *   the largest number of flows that start at one instant (a permutation,
 *   an all-to-all or an incast round opens all of its QPs together);
 * - NIC pipelines (nic.pipeline only): each host's pipeline, PCIe link and
 *   QPC/MPT/MTT caches as built.
 *
 * Not in it: what grows with what the run does rather than what it is
 * made of: flows that overlap without starting together (Poisson arrivals:
 * about hosts x load / (1 - load) QP pairs open on average, far fewer than
 * the flows), the frames in flight and queued (bounded by the switch
 * buffers and NIC windows), cache lines as they fill, qlen.csv samples of
 * non-empty queues, PFC events.
 */
class RdmaMemoryEstimate
{
  public:
    /// Bytes per item, measured (doc/rdma.rst, "Memory").
    struct Costs
    {
        uint64_t base;     //!< the process, bytes
        uint64_t host;     //!< per host, bytes
        uint64_t sw;       //!< per switch, bytes
        uint64_t port;     //!< per device (2 per link), bytes
        uint64_t route;    //!< per (switch, destination host), bytes
        uint64_t routeHop; //!< per next hop of a route, bytes
        uint64_t flow;     //!< per flow, bytes
        uint64_t qpPair;   //!< per QP pair open at once, bytes
        uint64_t pipeline; //!< per NIC pipeline (nic.pipeline), bytes
    };

    /// What a run is made of.
    struct Counts
    {
        uint64_t hosts{0};         //!< hosts
        uint64_t switches{0};      //!< switches
        uint64_t links{0};         //!< full-duplex links (2 ports each)
        uint64_t routeHops{0};     //!< next hops of all routes (GetRouteHops)
        uint64_t flows{0};         //!< flows
        uint64_t qpPairsAtOnce{0}; //!< flows starting together (GetLargestStartGroup)
        uint64_t pipelines{0};     //!< NICs with a pipeline
    };

    /// One item of the estimate.
    struct Term
    {
        std::string name;   //!< "hosts", "switches", ...
        uint64_t count;     //!< how many
        uint64_t bytesEach; //!< cost of one, bytes
    };

    /// \return the measured costs
    static const Costs& GetMeasuredCosts();

    /**
     * \brief Count a run's items.
     * \param topology the validated topology
     * \param flows the workload
     * \param pipeline whether the NICs model their pipeline (nic.pipeline)
     * \return the counts
     */
    static Counts Count(const RdmaTopologySpec& topology,
                        const std::vector<RdmaFlow>& flows,
                        bool pipeline);

    /**
     * \brief Count one process's part of a distributed run: the hosts and
     * switches it simulates, the links it builds (RdmaTopologyHelper::BuildsLink)
     * with their routes, and every flow (each rank keeps the whole
     * workload's bookkeeping).
     * \param whole the whole run's counts (Count)
     * \param topology the validated topology
     * \param builtNode per node id, whether this part simulates it
     * \param builtLink per link, whether this part builds it
     * \return the counts (no NIC pipelines: refused on several ranks)
     */
    static Counts CountPart(const Counts& whole,
                            const RdmaTopologySpec& topology,
                            const std::vector<bool>& builtNode,
                            const std::vector<bool>& builtLink);

    /**
     * \brief The next hops of every switch's routes, counted without
     * computing a route: each switch holds one route per host with, taken
     * as, max(1, its links to other switches / 2) next hops. On a k-ary
     * fat-tree that is k^3/2 per host against the k^3/2 + k^2/4 of its
     * shortest paths (edge and aggregation switches: k/2 up to a remote
     * pod, cores: 1); on a leaf-spine L x S it is L x S against L x S + S; a
     * star's or a dumbbell's, 1 per route, is exact.
     * \param topology the topology
     * \param builtNode per node id, whether to count its routes (empty: every switch)
     * \return the count
     */
    static uint64_t GetRouteHops(const RdmaTopologySpec& topology,
                                 const std::vector<bool>& builtNode = {});

    /**
     * \name Counts of a generated fabric from its sizes alone
     * What Count gives for the topology RdmaTopologySpec's generator of the
     * same sizes builds (hosts, switches, links, route next hops; flows and
     * QP pairs 0), computed without building it, so that a fabric too large
     * for the machine is refused before anything is allocated. Sizes the
     * generator refuses give what the arithmetic gives (the generator
     * reports them).
     * @{
     */
    /// \param k the fat tree's arity \return its counts
    static Counts CountFatTree(uint64_t k);
    /// \param leaves leaves \param spines spines \param hostsPerLeaf hosts on each leaf
    /// \return the leaf-spine's counts
    static Counts CountLeafSpine(uint64_t leaves, uint64_t spines, uint64_t hostsPerLeaf);
    /// \param left hosts on one side \param right hosts on the other
    /// \return the dumbbell's counts
    static Counts CountDumbbell(uint64_t left, uint64_t right);
    /// \param hosts hosts on the one switch \return the star's counts
    static Counts CountStar(uint64_t hosts);
    /// @}

    /// \param flows a workload \return the largest number of its flows that
    /// start at one instant (0 for none)
    static uint64_t GetLargestStartGroup(const std::vector<RdmaFlow>& flows);

    /// An empty estimate (0 bytes).
    RdmaMemoryEstimate() = default;

    /**
     * \brief The estimate of a topology and workload at the measured costs.
     * \param topology the validated topology
     * \param flows the workload
     * \param pipeline whether the NICs model their pipeline (nic.pipeline)
     */
    RdmaMemoryEstimate(const RdmaTopologySpec& topology,
                       const std::vector<RdmaFlow>& flows,
                       bool pipeline);

    /**
     * \brief The estimate from counts and costs (the arithmetic alone).
     * \param counts what the run is made of \param costs bytes per item
     */
    RdmaMemoryEstimate(const Counts& counts, const Costs& costs);

    /// \return the items: base, hosts, switches, ports, routes, route next
    /// hops, flows, QP pairs at once, NIC pipelines, in that order
    const std::vector<Term>& GetTerms() const;

    /// \return the sum of count x bytesEach over the items, bytes (saturates at 2^64 - 1)
    uint64_t GetTotalBytes() const;

    /// \return the items as text: "8192 hosts x 9.00 KiB = 72.00 MiB, ..."
    /// (items with a count of 0 left out)
    std::string Describe() const;

    /**
     * \brief Whether construction is long enough to report its progress:
     * an estimate of at least 1 GiB (about ten seconds of building or
     * more on the machine of the measurements).
     * \return true if so
     */
    bool IsLarge() const;

  private:
    std::vector<Term> m_terms; //!< the items
};

/**
 * \ingroup rdma
 * \brief The memory the machine can give a new run: MemAvailable of
 * /proc/meminfo (Linux 3.14 and later: free memory plus what the kernel can
 * reclaim without swapping), else free physical pages
 * (sysconf(_SC_AVPHYS_PAGES) x the page size).
 * \return bytes (0 if neither is known)
 */
uint64_t RdmaAvailableMemory();

/**
 * \ingroup rdma
 * \brief The processes of this run on this machine, as the launcher says:
 * Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, MPICH's MPI_LOCALNRANKS, or
 * Slurm's srun (SLURM_STEP_TASKS_PER_NODE at SLURM_NODEID); with none of
 * them, every rank of the run (RdmaPartition::GetWorldSize: as if all were
 * on this machine). They share RdmaAvailableMemory().
 * \return the count (1 in a sequential run)
 */
uint32_t RdmaLocalRanks();

/**
 * \ingroup rdma
 * \brief Slurm's tasks on one node of a step, from its compressed list.
 * \param tasksPerNode SLURM_STEP_TASKS_PER_NODE's form: counts separated by
 *        commas, each repeated over (xN) nodes: "2(x3),1"
 * \param node the node's index in the step (SLURM_NODEID)
 * \return the node's tasks, 0 if the list does not parse or is too short
 */
uint32_t RdmaSlurmTasksOnNode(const std::string& tasksPerNode, uint32_t node);

} // namespace ns3

#endif // RDMA_MEMORY_ESTIMATE_H
