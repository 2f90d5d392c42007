/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EXPERIMENT_SPEC_H
#define RDMA_EXPERIMENT_SPEC_H

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-collective-runner.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-flow.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-link-failures.h"
#include "ns3/rdma-slow-links.h"
#include "ns3/rdma-memory-estimate.h"
#include "ns3/rdma-partition.h"
#include "ns3/rdma-topology-spec.h"
#include "ns3/switch-ecn-params.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One experiment's configuration, checked whole: every key read,
 * every input file parsed, the workload drawn, before anything is built.
 *
 * The constructor reads the configuration in the order the checks have
 * always run (an HPCC simulator config.txt under it, the output folder,
 * sim.seed, the scheduler, the topology, cc.preset, the pcap nodes, the
 * ICRC mode, the workload, sim.stopTime, the transport, the congestion
 * control, the loss recovery, cache.mtt.PageBytes, with nic.pipeline each
 * cache's geometry and backing store, ECN, the memory it will take
 * against sim.maxMemory: RdmaMemoryEstimate, last the ranks: RdmaPartition; under mpirun the
 * ranks first, then the largest rank's part against sim.maxMemory), so that of two bad
 * keys the same one is reported as before the split. Each error is an RdmaConfigError naming the
 * file and line or the key and where its value came from (rdma-sim prints it and exits 2); nothing
 * is built or written before it. One check needs the built link and comes from the builder: a NIC
 * receive buffer too small for its link (RdmaHelper::Install).
 *
 * The one side effect: ns-3's seed is set (sim.seed, run 1) before the
 * workload is drawn, as the traffic generator draws when it is made.
 */
struct RdmaExperimentSpec
{
    /**
     * \brief Check a configuration.
     * \param config the merged configuration (copied; hpcc.config and
     *        cc.preset fill the copy's unset keys)
     * \param write whether the run writes its output folder (then
     *        output.dir must be a folder, empty unless force)
     * \param force write into a folder that is not empty
     * \throws RdmaConfigError on the first bad key or input
     */
    RdmaExperimentSpec(const RdmaConfig& config, bool write, bool force);

    /// \return the bytes of a full data frame: Ethernet, IPv4, UDP, BTH and
    /// ICRC around one path MTU of payload (58 bytes of headers)
    uint32_t GetFrameBytes() const;
    /// \return the bytes of an RC ACK: the same headers and an AETH (62)
    static uint32_t GetAckBytes();

    RdmaConfig config;               //!< with hpcc.config and cc.preset applied
    std::string outDir;              //!< output.dir
    uint64_t seed{1};                //!< sim.seed (>= 1)
    Time stopTime;                   //!< sim.stopTime, after the last arrival
    std::string scheduler;           //!< sim.scheduler, an ns-3 Scheduler TypeId
    Time qlenInterval;               //!< output.qlenInterval
    RdmaLinkParams tiers[3];         //!< host, fabric and core links
    RdmaTopologySpec topology;       //!< validated
    std::vector<uint32_t> pcapNodes; //!< output.pcapNodes, node ids
    std::vector<RdmaLinkFailure> linkFailures; //!< topology.failLinks and failNodes' links
    std::vector<RdmaSlowLink> slowLinks;       //!< topology.slowLinks
    Time routeConvergence;           //!< topology.routeConvergence
    bool verifyIcrc{false};          //!< NICs check the ICRC (forced on by lossy links)
    bool icrc{false};                //!< senders compute the ICRC (sim.icrc)
    int8_t trimmedDscp{-1};          //!< switch.trim.Dscp when switches trim, else -1
    std::vector<RdmaFlow> flows;     //!< the workload, host indices
    std::vector<RdmaJob> jobs;       //!< traffic.pattern = collective: the jobs (no flows)
    RdmaConnectionConfig connection; //!< the transport keys
    ObjectFactory congestionControl; //!< cc.algorithm with its set keys
    std::string lossRecovery;        //!< the RdmaLossRecovery TypeId name
    bool pipeline{false};            //!< nic.pipeline
    /// One NIC table's cache keys (nic.pipeline): attribute name and value.
    struct CacheKeys
    {
        std::vector<std::pair<std::string, std::string>> cache;  //!< cache.TABLE.*: NicCache
        std::vector<std::pair<std::string, std::string>> memory; //!< cache.TABLE.memory.*: NicMemory
    };

    std::vector<CacheKeys> caches;   //!< nic.pipeline: by RdmaNicTables::Table (else empty)
    bool baseRttSet{false};          //!< nic.BaseRtt set (else each NIC's is the longest path's)
    bool irnBdpSet{false};           //!< transport.irn.BdpBytes set (else the longest path's BDP)
    std::string rxBufferOrigin;      //!< where nic.rx.BufferBytes came from (for the builder's
                                     //!< error: a buffer too small for its link)
    bool census{false};              //!< sim.census
    std::string fastForward{"off"};  //!< sim.fastForward: off, on or check
    SwitchEcnParams ecn;             //!< RED marking; kmaxBytes 0: none
    uint32_t mtuBytes{RdmaPathMtu::DEFAULT_BYTES}; //!< the path MTU, bytes
    RdmaMemoryEstimate memory;       //!< what building it (on several ranks: the largest
                                     //!< rank's part) will take, within sim.maxMemory
    RdmaPartition partition;         //!< each node's rank (sim.ranks, sim.partition[Rule])
    /// What sim.maxMemory was checked against: "this run needs about X,
    /// within the limit of Y (source)", or the largest rank's part
    std::string memoryCheck;
    std::string mpiSync;             //!< sim.mpiSync (granted-time[-per-frame] or null-message)
    bool conga{false};               //!< switch.LoadBalancing = Conga (a two-tier leaf-spine)
    /// What the configuration earned short of an error, each printed to
    /// stderr ("rdma-sim: warning: ...") as it is found and listed in
    /// summary.json's warnings: keys set but not used (RdmaUnusedKeys, the
    /// job keys' own), hpcc.config's keys that are not modelled, a workload's notes.
    std::vector<std::string> warnings;

  private:
    /// \brief Record a warning and print it. \param w the warning
    void Warn(const std::string& w);

    // The constructor's steps, in the order it takes them; each
    // \throws RdmaConfigError on the first bad key it reads.

    /// \brief Read hpcc.config's HPCC simulator config.txt into the keys left
    /// unset (warnings for its unknown keys). \param c the configuration
    void ApplyHpccConfig(RdmaConfig& c);
    /**
     * \brief Fill outDir; refuse an output.dir that is not a folder, or not
     * empty without force, when the run writes.
     * \param c the configuration \param write the run writes \param force write into a full folder
     */
    void CheckOutputDir(const RdmaConfig& c, bool write, bool force);
    /// \brief Fill seed (and set ns-3's), stopTime, scheduler and qlenInterval.
    /// \param c the configuration
    void ReadRun(const RdmaConfig& c);
    /// \brief Fill pcapNodes, linkFailures, slowLinks and routeConvergence (the topology's).
    /// \param c the configuration
    void ReadCaptureAndFailures(const RdmaConfig& c);
    /// \brief Fill verifyIcrc (forced on by lossy links) and icrc (sim.icrc).
    /// \param c the configuration
    void ChooseIcrc(const RdmaConfig& c);
    /// \brief Fill jobs (traffic.pattern = collective) or flows, and refuse a
    /// sim.stopTime not after the last arrival. \param c the configuration
    void MakeTraffic(const RdmaConfig& c);
    /// \brief Warn when Poisson arrivals take their load from hosts whose
    /// links differ in rate (an HPCC topology file's). \param c the configuration
    void WarnMixedHostRates(const RdmaConfig& c);
    /// \brief Warn when ECN drives the run (DCQCN, DCTCP, NSCC, REPS) but
    /// ecn.kmin is at or above the switch buffer, so no frame is ever marked.
    /// \param c the configuration (ecn read)
    void WarnUnmarkable(const RdmaConfig& c);
    /// \brief Warn when the NICs' PCIe link (pcie keys) writes a full frame's
    /// payload slower than the hosts' links bring it in: receivers at line
    /// rate then fill their receive buffers and pause. \param c the configuration
    void WarnSlowPcie(const RdmaConfig& c);
    /// \brief Fill connection, mtuBytes, congestionControl, lossRecovery and
    /// irnBdpSet. \param c the configuration
    void ReadTransport(const RdmaConfig& c);
    /// \brief Fill pipeline, census, caches, baseRttSet and rxBufferOrigin;
    /// check cache.mtt.PageBytes and (nic.pipeline) the caches. \param c the configuration
    void ReadNic(const RdmaConfig& c);
    /// \brief Fill ecn (ecn.kmin <= ecn.kmax, ecn.pmax a probability).
    /// \param c the configuration
    void ReadEcn(const RdmaConfig& c);
    /**
     * \brief Check what several ranks refuse: a scheduler other than
     * RdmaEventScheduler, CONGA (CheckConga), a GPU split across ranks
     * (CheckJobRanks).
     * \param c the configuration
     */
    void CheckRanks(const RdmaConfig& c);
    /**
     * \brief Fill partition and mpiSync (sim.ranks, sim.partition,
     * sim.partitionRule, sim.mpiSync). The rule: a sim.partition file if
     * given, else sim.partitionRule; its auto is by-pod for fat-tree, by-tor
     * for leaf-spine (by leaf), by-server for rail, metis for HPCC topology
     * files and the other generators. One rank: everything on it, whatever
     * the rule.
     * \param c the configuration
     * \throws RdmaConfigError if sim.ranks is not the process count, with
     *         nic.pipeline on several ranks, by-pod without a fat-tree,
     *         by-server without a rail fabric, a rule and a file both given,
     *         or as RdmaPartition's rules
     */
    void MakePartition(const RdmaConfig& c);
    /**
     * \brief On several ranks: `memory` becomes the largest rank's part
     * (RdmaMemoryEstimate::CountPart), checked against sim.maxMemory.
     * \param c the configuration \throws RdmaConfigError
     */
    void CheckPartMemory(const RdmaConfig& c);
    /**
     * \brief Set conga, and check that CONGA can run: a two-tier
     * leaf-spine (RdmaCongaFabric::Describe) on one rank.
     * \param c the configuration
     * \throws RdmaConfigError naming switch.LoadBalancing otherwise
     */
    void CheckConga(const RdmaConfig& c);
    /**
     * \brief With several ranks, check that each job rank's NIC and
     * intra-server host are on one MPI rank (RdmaCollectiveRunner::SetFarHosts).
     * \param c the config \throws RdmaConfigError naming sim.partition or
     *        sim.partitionRule
     */
    void CheckJobRanks(const RdmaConfig& c) const;
};

} // namespace ns3

#endif /* RDMA_EXPERIMENT_SPEC_H */
