/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EXPERIMENT_BUILDER_H
#define RDMA_EXPERIMENT_BUILDER_H

#include "rdma-experiment-spec.h"

#include "ns3/rdma-collective-runner.h"
#include "ns3/rdma-flow-runner.h"
#include "ns3/rdma-memory-census.h"
#include "ns3/rdma-pcap-output.h"
#include "ns3/rdma-stats-helper.h"
#include "ns3/rdma-topology-helper.h"

#include <iosfwd>
#include <memory>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The simulation of one checked experiment, built through the same
 * helpers a user script takes: RdmaTopologyHelper for the fabric (with the
 * switches' ECN marking, SetSwitchEcn) and RdmaHelper for every NIC (base
 * RTT, congestion control, loss recovery, pipeline and caches), then the
 * workload (RdmaFlowRunner; with jobs, RdmaCollectiveRunner), the
 * statistics (RdmaStatsHelper) and, when
 * output is written, the pcap captures (RdmaPcapOutput).
 *
 * The model attributes are the configuration's attribute keys applied as
 * defaults (RdmaConfig::Apply), with three rules of the experiment's own
 * for keys left at their defaults: NICs check the ICRC on lossy fabrics,
 * HPCC turns INT on in NICs and switches, and NICs take the switches'
 * lossless classes (pfc.*). Each NIC's BaseRtt is the base RTT from the
 * first to the last host (the longest path of the generated topologies),
 * and IRN's window cap is that path's bandwidth-delay product (IRN,
 * section 3.2), each unless set.
 *
 * With several ranks (spec.partition, doc/mpi.rst) ns-3's parallel simulator
 * is enabled first (RdmaMpi::EnableSimulator), every node is made with its
 * rank as system id (links between ranks: QbbRemoteChannel), another
 * rank's hosts get no NIC here (RdmaTopologyHelper::GetHostIds), the
 * runners post this rank's ends only (RdmaFlowRunner::SetFarHosts) and run
 * this rank's job ranks only (RdmaCollectiveRunner::SetFarHosts), and a rank
 * whose flows or job ranks are done runs on to sim.stopTime, recording when
 * (GetLocalDoneTime), since other ranks' frames may still cross its nodes.
 *
 * The ICRC setting is process-wide: the caller's comes back when this
 * object goes. A construction error ends the simulation (Simulator::Destroy,
 * Config::Reset) before it is thrown.
 */
class RdmaExperimentBuilder
{
  public:
    /**
     * \brief Build the simulation.
     * \param spec the checked experiment (must outlive this object)
     * \param write the run writes its output folder: the pcap captures
     *        (output.pcapNodes) are on, an interrupt names the folder
     * \param progress where the construction's progress line goes when
     *        the spec's memory estimate is large (RdmaMemoryEstimate::IsLarge;
     *        RdmaBuildProgress); nullptr: none
     * \param census measures the heap each part of the construction takes
     *        and samples the run's (sim.census; must outlive this object);
     *        nullptr: none
     * \throws RdmaConfigError if a NIC's receive buffer cannot work on its
     * link, a capture file cannot be made or the runner refuses the workload
     */
    RdmaExperimentBuilder(const RdmaExperimentSpec& spec,
                          bool write,
                          std::ostream* progress = nullptr,
                          RdmaMemoryCensus* census = nullptr);
    ~RdmaExperimentBuilder();
    RdmaExperimentBuilder(const RdmaExperimentBuilder&) = delete;
    RdmaExperimentBuilder& operator=(const RdmaExperimentBuilder&) = delete;

    /**
     * \brief Run the simulation to sim.stopTime or the last flow's end,
     * reporting progress (and polling for SIGINT and SIGTERM) from the
     * first arrival.
     * \param progress where the progress line goes (nullptr: none)
     * \return the simulated time at the end
     * \throws RdmaInterrupted on SIGINT or SIGTERM (the simulation ended)
     */
    Time Simulate(std::ostream* progress);

    /// \return when this rank's flows, or its job ranks, were all done
    /// (several ranks; 0 if it has none or they did not finish)
    Time GetLocalDoneTime() const;
    /// \return the fabric
    const RdmaTopologyHelper& GetTopology() const;
    /// \return the workload's runner
    Ptr<RdmaFlowRunner> GetRunner() const;
    /// \return the jobs' runner (traffic.pattern = collective), or null
    Ptr<RdmaCollectiveRunner> GetCollectiveRunner() const;
    /// \return the statistics
    const RdmaStatsHelper& GetStats() const;
    /// \return the census, or nullptr (sim.census off)
    const RdmaMemoryCensus* GetCensus() const;
    /// \return the captures (none unless write)
    RdmaPcapOutput& GetPcap();

  private:
    // The constructor's steps, in their order.

    /// Set the ICRC mode, the simulator (sequential or distributed) and its
    /// scheduler, and the keys' ns-3 defaults (RdmaConfig::Apply).
    void ChooseSimulator();
    /// Build the links and switches, CONGA's overlay, the link failures and
    /// the pcap captures (when written).
    void BuildFabric();
    /// Install the NICs, with the base RTT of the longest path, and their streams.
    void BuildHosts();
    /// Make the flow runner (this rank's hosts when distributed) and start it.
    void StartFlows();
    /// With granted-time batches, have the flow runner close a far
    /// responder's QP on its rank after its requester's completion here
    /// (RdmaFlowRunner::SetFarCloseCallback, RdmaMpi::SendNotice).
    void CloseFarResponders();
    /// Make the collective runner with spec.jobs (this rank's job ranks when
    /// distributed) and start it (none: nothing).
    void StartJobs();
    /// \return per host index, its NIC (null: another rank's host)
    std::vector<Ptr<RdmaNic>> Nics() const;
    /// \return per host index, null where this rank simulates the host, else
    /// its ids (RdmaTopologyHelper::GetHostIds; several ranks)
    std::vector<Ptr<RdmaNicIds>> FarHosts() const;
    /// \return what a runner calls when its work here is done: once every
    /// runner with work (flows, jobs) has called, stop the simulation, or with
    /// several ranks record when (GetLocalDoneTime)
    Callback<void> AllDoneCallback();
    /// \brief One runner's work here is done (AllDoneCallback).
    void RunnerDone();
    /// \return the NIC helper for this experiment \param baseRtt the NICs' base RTT
    RdmaHelper MakeNicHelper(Time baseRtt) const;
    /**
     * \brief Open a census part when the topology helper starts one.
     * \param what the part, as the topology helper names it
     */
    void EnterCensusPart(const std::string& what);
    /// Sample the census (frames queued, QPs open) and schedule the next sample.
    /// \param interval time between samples
    void SampleCensus(Time interval);
    /// \brief End the simulation and throw. \param message the error
    [[noreturn]] static void Abandon(const std::string& message);

    const RdmaExperimentSpec& m_spec;         //!< the experiment
    const bool m_write;                       //!< the outputs are written
    RdmaTopologyHelper m_topo;                //!< the fabric
    RdmaPcapOutput m_pcap;                    //!< the captures
    Ptr<RdmaFlowRunner> m_runner;             //!< the workload
    Ptr<RdmaCollectiveRunner> m_collectives;  //!< the jobs, or null
    std::unique_ptr<RdmaStatsHelper> m_stats; //!< after the runner started
    RdmaMemoryCensus* m_census;               //!< sim.census, or nullptr
    Time m_localDone;                         //!< several ranks: local work all done
    uint32_t m_busyRunners{0};                //!< runners whose work is not done
};

} // namespace ns3

#endif /* RDMA_EXPERIMENT_BUILDER_H */
