/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-experiment-builder.h"

#include "rdma-conga-fabric.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"
#include "ns3/rdma-build-progress.h"
#include "ns3/rdma-interrupt.h"
#include "ns3/rdma-mpi.h"
#include "ns3/rdma-progress.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <csignal>
#include <memory>

namespace ns3
{

namespace
{
/// First random stream of the NICs (RdmaNic::AssignStreams), one per host:
/// clear of the topology's (from 1), the generators' (1000) and the runner's (2000).
constexpr int64_t NIC_STREAMS = int64_t(1) << 32;

/// The span RdmaExperimentBuilder::Simulate's progress line covers.
struct ProgressWindow
{
    Time first;               //!< the first arrival (flows) or job start
    Time end;                 //!< a tenth past the last arrival (flows), or sim.stopTime (jobs)
    uint64_t packetsExpected; //!< the flows' payload packets of a path MTU
};

/// \return the progress window of `spec`'s flows, or of its jobs given `jobs`
ProgressWindow
ProgressWindowOf(const RdmaExperimentSpec& spec, bool jobs)
{
    const std::vector<RdmaFlow>& flows = spec.flows;
    const uint32_t mtuBytes = spec.mtuBytes;
    ProgressWindow w;
    w.first = flows.empty() ? Time(0) : flows.front().start;
    Time lastStart = w.first;
    w.packetsExpected = 0;
    for (const auto& f : flows)
    {
        w.first = std::min(w.first, f.start);
        lastStart = std::max(lastStart, f.start);
        w.packetsExpected += std::max<uint64_t>(1, (f.size + mtuBytes - 1) / mtuBytes);
    }
    w.end = std::min(spec.stopTime, lastStart + (lastStart - w.first) / 10 + MicroSeconds(100));
    if (jobs)
    {
        // Jobs: progress by collectives, over the run to sim.stopTime.
        w.first = spec.jobs.front().start;
        for (const RdmaJob& j : spec.jobs)
        {
            w.first = std::min(w.first, j.start);
        }
        w.end = spec.stopTime;
    }
    return w;
}
} // namespace

void
RdmaExperimentBuilder::Abandon(const std::string& message)
{
    Simulator::Destroy();
    Config::Reset();
    throw RdmaConfigError(message);
}

RdmaExperimentBuilder::RdmaExperimentBuilder(const RdmaExperimentSpec& spec,
                                             bool write,
                                             std::ostream* progress,
                                             RdmaMemoryCensus* census)
    : m_spec(spec),
      m_write(write),
      m_census(census)
{
    // A progress line while large fabrics are built (the estimate's rule).
    RdmaBuildProgress building(spec.memory.IsLarge() ? progress : nullptr);
    if (spec.memory.IsLarge() || m_census)
    {
        m_topo.SetBuildProgress(
            [this, &building](const std::string& what, uint64_t done, uint64_t total) {
                building.Report(what, done, total);
                if (m_census && done == 0)
                {
                    EnterCensusPart(what);
                }
            });
    }
    ChooseSimulator();
    BuildFabric();
    BuildHosts();
    m_topo.SetBuildProgress(nullptr);
    building.Finish();
    StartFlows();
    StartJobs();
    m_stats = std::make_unique<RdmaStatsHelper>(m_topo);
    if (m_collectives)
    {
        m_collectives->SetCounters(m_stats.get()); // used only with FastForward
    }
    m_stats->StartQueueSampling(spec.qlenInterval,
                                spec.flows.empty() ? (spec.jobs.empty() ? Time(0)
                                                                        : spec.jobs.front().start)
                                                   : spec.flows.front().start,
                                spec.stopTime);
    if (m_census)
    {
        m_census->Close();
    }
}

void
RdmaExperimentBuilder::ChooseSimulator()
{
    if (m_spec.partition.ranks > 1)
    {
        // Before anything makes the simulator: ns-3 picks its
        // implementation (DistributedSimulatorImpl or
        // NullMessageSimulatorImpl) when it is first used.
        RdmaMpi::EnableSimulator(m_spec.mpiSync);
        m_topo.SetSystemIds(m_spec.partition.rankOf, RdmaMpi::GetRank());
    }
    else
    {
        // ns-3's sequential simulator with an IsExpired() right under
        // RdmaEventScheduler's order (with other schedulers it is ns-3's).
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    }
    Simulator::SetScheduler(ObjectFactory(m_spec.scheduler));
    NS_ABORT_MSG_UNLESS(Simulator::GetImplementation()->GetInstanceTypeId().GetName().rfind(
                            "ns3::Rdma",
                            0) == 0,
                        "RdmaExperimentBuilder: the simulator existed before the run chose it");
    m_spec.config.Apply(); // the keys' ns-3 defaults; everything else comes typed from the spec
    if (m_spec.verifyIcrc)
    {
        Config::SetDefault("ns3::RdmaNic::VerifyIcrc", BooleanValue(true));
    }
    Config::SetDefault("ns3::RdmaNic::ComputeIcrc", BooleanValue(m_spec.icrc));
    Config::SetDefault("ns3::RdmaNic::TrimmedDscp", IntegerValue(m_spec.trimmedDscp));
    // (Implied settings, INT for HPCC among them, are set keys by now: RdmaApplyImpliedSettings.)
}

void
RdmaExperimentBuilder::BuildFabric()
{
    for (uint32_t t = 0; t < 3; ++t)
    {
        m_topo.SetTierLink(t, m_spec.tiers[t]);
    }
    if (m_spec.ecn.kmaxBytes > 0)
    {
        m_topo.SetSwitchEcn(m_spec.ecn);
    }
    for (const RdmaSlowLink& s : m_spec.slowLinks)
    {
        m_topo.SlowLink(s.link, s.fromA, s.fromB, s.fraction);
    }
    m_topo.InstallFabric(m_spec.topology);
    if (m_spec.conga)
    {
        RdmaCongaFabric::Describe(m_spec.topology).Install(m_topo);
    }
    for (const RdmaLinkFailure& f : m_spec.linkFailures)
    {
        m_topo.ScheduleLinkFailure(f.link, f.at, m_spec.routeConvergence);
    }
    m_topo.AssignStreams(1);
    if (m_write)
    {
        try
        {
            m_pcap.Enable(m_topo, m_spec.pcapNodes);
        }
        catch (const std::runtime_error& e)
        {
            Abandon(std::string("output.pcapNodes: ") + e.what());
        }
    }
}

void
RdmaExperimentBuilder::BuildHosts()
{
    // The NICs' base RTT (HPCC's T) is the first to the last host's, the
    // longest path of the generated topologies (a rail fabric's: the first
    // to the last GPU's NIC; its NVLink ports, apart, take the same).
    const auto& servers = m_spec.topology.servers;
    const uint32_t nHosts = servers.count > 0 ? servers.GetGpus() : m_topo.GetNHosts();
    const Time baseRtt = nHosts > 1 ? m_topo.GetPaths().GetBaseRtt(0,
                                                        nHosts - 1,
                                                        m_spec.GetFrameBytes(),
                                                        RdmaExperimentSpec::GetAckBytes())
                                    : MicroSeconds(1);
    m_topo.SetRdmaHelper(MakeNicHelper(baseRtt));
    try
    {
        m_topo.InstallHosts();
    }
    catch (const std::invalid_argument& e)
    {
        Abandon(m_spec.rxBufferOrigin + ": nic.rx." + e.what());
    }
    // Each NIC's entropy draws (nic.Entropy packet or flowlet) from a stream
    // of its own, by host index: far above the topology's and the traffic's.
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        if (m_topo.GetNic(h))
        {
            m_topo.GetNic(h)->AssignStreams(NIC_STREAMS + h);
        }
    }
}

void
RdmaExperimentBuilder::StartFlows()
{
    if (m_census)
    {
        m_census->Enter("flow runner", m_spec.flows.size(), "flow");
    }
    m_runner = CreateObject<RdmaFlowRunner>();
    m_runner->SetHosts(Nics());
    m_runner->SetConnectionConfig(m_spec.connection);
    if (m_spec.partition.ranks > 1)
    {
        m_runner->SetFarHosts(FarHosts());
        CloseFarResponders();
    }
    try
    {
        m_runner->SetFlows(m_spec.flows);
        if (!m_spec.flows.empty() || m_spec.jobs.empty())
        {
            m_runner->SetAllDoneCallback(AllDoneCallback());
        }
        m_runner->AssignStreams(2000);
        m_runner->Start();
    }
    catch (const std::exception& e)
    {
        Abandon(std::string("traffic: ") + e.what());
    }
}

void
RdmaExperimentBuilder::CloseFarResponders()
{
    if (!RdmaMpi::CanSendNotices())
    {
        return; // null messages, ns-3's per-frame messages: kept to the end
    }
    // Due the longest delay of a link between ranks and a step after the
    // requester's completion: past the window it is sent in on any rank
    // (a rank's lookahead is the smallest delay of its own links between
    // ranks), so the responder's rank has not passed it.
    const Time after = m_spec.partition.longestCrossDelay + TimeStep(1);
    m_runner->SetFarCloseCallback(Callback<void, uint32_t, uint32_t>([this, after](uint32_t host,
                                                                                   uint32_t flow) {
        const uint32_t node = m_topo.GetHostIds(host)->GetNode();
        RdmaMpi::SendNotice(Simulator::Now() + after, node, m_spec.partition.rankOf[node], flow);
    }));
    RdmaMpi::SetNoticeHandler(MakeCallback(&RdmaFlowRunner::CloseResponder, m_runner));
}

void
RdmaExperimentBuilder::StartJobs()
{
    if (m_spec.jobs.empty())
    {
        return;
    }
    m_collectives = CreateObject<RdmaCollectiveRunner>();
    m_collectives->SetHosts(Nics());
    m_collectives->SetConnectionConfig(m_spec.connection);
    if (m_spec.fastForward != "off" && m_spec.linkFailures.empty() && m_spec.flows.empty())
    {
        m_collectives->SetAttribute("FastForward", BooleanValue(true));
    }
    if (m_spec.partition.ranks > 1)
    {
        m_collectives->SetFarHosts(FarHosts());
    }
    try
    {
        for (const RdmaJob& job : m_spec.jobs)
        {
            m_collectives->AddJob(job);
        }
    }
    catch (const std::exception& e)
    {
        Abandon(std::string("traffic: ") + e.what());
    }
    m_collectives->SetAllDoneCallback(AllDoneCallback());
    try
    {
        m_collectives->Start();
    }
    catch (const std::exception& e)
    {
        Abandon(std::string("traffic: ") + e.what());
    }
}

std::vector<Ptr<RdmaNic>>
RdmaExperimentBuilder::Nics() const
{
    std::vector<Ptr<RdmaNic>> nics(m_topo.GetNHosts());
    for (uint32_t h = 0; h < nics.size(); ++h)
    {
        nics[h] = m_topo.GetNic(h);
    }
    return nics;
}

std::vector<Ptr<RdmaNicIds>>
RdmaExperimentBuilder::FarHosts() const
{
    std::vector<Ptr<RdmaNicIds>> far(m_topo.GetNHosts());
    for (uint32_t h = 0; h < far.size(); ++h)
    {
        far[h] = m_topo.GetNic(h) ? nullptr : m_topo.GetHostIds(h);
    }
    return far;
}

Callback<void>
RdmaExperimentBuilder::AllDoneCallback()
{
    ++m_busyRunners;
    auto called = std::make_shared<bool>(false);
    return Callback<void>([this, called]() {
        if (!*called)
        {
            *called = true;
            RunnerDone();
        }
    });
}

void
RdmaExperimentBuilder::RunnerDone()
{
    // Flows beside jobs: the run ends when both are done.
    if (--m_busyRunners > 0)
    {
        return;
    }
    if (m_spec.partition.ranks > 1)
    {
        // This rank's work is done; others may still need its nodes (their
        // ACKs, their transit), so it runs on to sim.stopTime, and the
        // run's end is the last rank's (RdmaMpi's report).
        m_localDone = Simulator::Now();
        return;
    }
    Simulator::Stop();
}

RdmaExperimentBuilder::~RdmaExperimentBuilder() = default;

void
RdmaExperimentBuilder::EnterCensusPart(const std::string& what)
{
    // Each part of RdmaTopologyHelper's construction, with what it is made of.
    // Under MPI, what this rank builds (RdmaTopologyHelper).
    const RdmaTopologySpec& t = m_spec.topology;
    const uint64_t hosts = t.GetNHosts();
    uint64_t switches = 0;
    uint64_t hostsHere = 0;
    for (uint32_t u = 0; u < t.GetNNodes(); ++u)
    {
        switches += t.isSwitch[u] && m_topo.IsLocalNode(u);
        hostsHere += !t.isSwitch[u] && m_topo.IsLocalNode(u);
    }
    if (what == "links")
    {
        // A port for each end on this rank (the far end of a link between
        // ranks is its own rank's port).
        uint64_t ports = 0;
        for (const auto& l : t.links)
        {
            ports += m_topo.IsLocalNode(l.a) + m_topo.IsLocalNode(l.b);
        }
        m_census->Enter("links", ports, "port (device, egress queue, PFC, channel half)");
    }
    else if (what == "switches")
    {
        m_census->Enter("switches", switches, "switch (RdmaSwitch, MMU, per-port state)");
    }
    else if (what == "route tables")
    {
        m_census->Enter("route tables", switches * hosts, "route");
    }
    else if (what == "hosts")
    {
        m_census->Enter("hosts", hostsHere, "host (NIC, receive buffer, verbs, CC factories)");
    }
    else
    {
        m_census->Enter(what, 0, "");
    }
}

void
RdmaExperimentBuilder::SampleCensus(Time interval)
{
    Simulator::Schedule(interval, &RdmaExperimentBuilder::SampleCensus, this, interval);
    if (!m_census->IsGrowing())
    {
        return;
    }
    uint64_t frames = 0;
    const NetDeviceContainer& devices = m_topo.GetDevices();
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        frames += StaticCast<QbbNetDevice>(devices.Get(i))->GetTxQueue()->GetFrames();
    }
    uint64_t qps = 0;
    for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
    {
        qps += m_topo.GetNic(h) ? m_topo.GetNic(h)->GetNQps() : 0;
    }
    m_census->Sample(frames, qps);
}

const RdmaMemoryCensus*
RdmaExperimentBuilder::GetCensus() const
{
    return m_census;
}

RdmaHelper
RdmaExperimentBuilder::MakeNicHelper(Time baseRtt) const
{
    RdmaHelper rdma;
    if (!m_spec.baseRttSet)
    {
        rdma.SetNicAttribute("BaseRtt", TimeValue(baseRtt));
    }
    rdma.SetCongestionControl(m_spec.congestionControl);
    rdma.SetLossRecovery(ObjectFactory(m_spec.lossRecovery));
    rdma.SetPathMtu(m_spec.mtuBytes);
    if (m_spec.lossRecovery == "ns3::RdmaSelectiveRepeat" && !m_spec.irnBdpSet)
    {
        // IRN 3.2: the cap is the BDP of the longest path, at the host's rate.
        rdma.SetLossRecoveryBdp(baseRtt, m_spec.mtuBytes);
    }
    // The pipeline's defaults come from the nic.hw and pcie groups (Apply);
    // each table's keys go on its own cache and backing store.
    rdma.EnablePipeline(m_spec.pipeline);
    for (uint32_t t = 0; t < m_spec.caches.size(); ++t)
    {
        const auto table = static_cast<RdmaNicTables::Table>(t);
        for (const auto& [name, value] : m_spec.caches[t].cache)
        {
            rdma.SetCacheAttribute(table, name, StringValue(value));
        }
        for (const auto& [name, value] : m_spec.caches[t].memory)
        {
            rdma.SetCacheMemoryAttribute(table, name, StringValue(value));
        }
    }
    return rdma;
}

Time
RdmaExperimentBuilder::Simulate(std::ostream* progressStream)
{
    const std::vector<RdmaFlow>& flows = m_spec.flows;
    // Progress (and the interrupt poll) from the first arrival; the data a
    // run delivers is counted in payload packets of a path MTU.
    const ProgressWindow window = ProgressWindowOf(m_spec, bool(m_collectives));
    const Time firstStart = window.first;
    const Time progressEnd = window.end;
    const uint64_t packetsExpected = window.packetsExpected;
    const Time stopTime = m_spec.stopTime;
    auto measure = [&]() {
        RdmaProgress::Work w;
        if (m_collectives)
        {
            w.what = flows.empty() ? "collectives" : "collectives and flows";
            w.flowsDone = m_collectives->GetCompletedCount() + m_collectives->GetFailedCount();
            w.flowsTotal = m_collectives->GetCollectiveCount();
            const uint64_t total = m_collectives->GetTotalBytes();
            w.delivered = total ? double(m_collectives->GetLandedBytes()) / total : 1.0;
            if (flows.empty())
            {
                return w;
            }
        }
        w.flowsDone += m_runner->GetCompletedCount() + m_runner->GetFailedCount();
        w.flowsTotal += flows.size();
        // Each PSN's payload once: resent copies are not more data delivered
        // (beside jobs: the jobs' packets count too, so it is only a guide).
        uint64_t delivered = 0;
        for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
        {
            delivered +=
                m_topo.GetNic(h) ? m_topo.GetNic(h)->GetQpStatsTotal().payloadPacketsPlaced : 0;
        }
        const double flowShare =
            packetsExpected ? std::min(1.0, double(delivered) / packetsExpected) : 1.0;
        // Beside jobs: the lesser of the two shares, the part still to come.
        w.delivered = m_collectives ? std::min(w.delivered, flowShare) : flowShare;
        return w;
    };
    // A thousand checks over the arrivals, and at most one a microsecond:
    // past the arrivals the checks go on at the same step until the run
    // stops, and a step of 100 ns (one flow, 100 us of arrivals) cost a
    // small run 1,760 events, 3 % of its instructions. A microsecond is a
    // few frames per link, so a signal still stops the run at once.
    RdmaProgress progress(progressStream,
                          firstStart,
                          std::max(MicroSeconds(1), (progressEnd - firstStart) / 1000),
                          measure);
    progress.Start();
    if (m_census)
    {
        // As often as the progress line: 1000 samples over the arrivals.
        const Time interval = std::max(NanoSeconds(1), (progressEnd - firstStart) / 1000);
        Simulator::Schedule(firstStart - Simulator::Now(),
                            &RdmaExperimentBuilder::SampleCensus,
                            this,
                            interval);
    }

    Simulator::Stop(stopTime);
    Simulator::Run();
    progress.Stop();
    if (const int signal = progress.GetInterrupt())
    {
        const double at = Simulator::Now().GetSeconds() * 1e3;
        Simulator::Destroy();
        Config::Reset();
        throw RdmaInterrupted(std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                  ": stopped at " + std::to_string(at) +
                                  " ms simulated; nothing was written" +
                                  (m_write ? " to " + m_spec.outDir : std::string()),
                              signal);
    }
    if (m_collectives && !m_collectives->GetError().empty())
    {
        Abandon("traffic: " + m_collectives->GetError());
    }
    return Simulator::Now();
}

Time
RdmaExperimentBuilder::GetLocalDoneTime() const
{
    return m_localDone;
}

const RdmaTopologyHelper&
RdmaExperimentBuilder::GetTopology() const
{
    return m_topo;
}

Ptr<RdmaFlowRunner>
RdmaExperimentBuilder::GetRunner() const
{
    return m_runner;
}

Ptr<RdmaCollectiveRunner>
RdmaExperimentBuilder::GetCollectiveRunner() const
{
    return m_collectives;
}

const RdmaStatsHelper&
RdmaExperimentBuilder::GetStats() const
{
    return *m_stats;
}

RdmaPcapOutput&
RdmaExperimentBuilder::GetPcap()
{
    return m_pcap;
}

} // namespace ns3
