/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-experiment-report.h"

#include "rdma-fct-writer.h"
#include "rdma-interrupt.h"
#include "rdma-output-stage.h"

#include "ns3/simulator.h"

#include <csignal>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

// The build passes it (ns3-module/*.cmake, wscript).
#ifndef RDMA_NS3_VERSION
#define RDMA_NS3_VERSION "unknown"
#endif

namespace ns3
{

namespace
{

/// The module's version, reported in summary.json.
const char* const g_rdmaModuleVersion = "0.1.0";

/// \return peak resident set size of the process, MiB (RdmaMemoryCensus::PeakResidentBytes)
double
PeakRssMb()
{
    return RdmaMemoryCensus::PeakResidentBytes() / 1048576.0;
}

/// What the summaries say, gathered once.
struct Figures
{
    std::vector<RdmaSlowdownBucket> buckets;               //!< FCT slowdown by size
    RdmaStatsHelper::Totals totals;                        //!< fabric counters
    RdmaQueuePair::Stats qps;                              //!< every QP's counters, summed
    std::map<std::string, RdmaNicTables::Counters> caches; //!< by table, summed over NICs
    uint64_t flows{0};                                     //!< records
    uint64_t completed{0};                                 //!< flows done
    uint64_t failed{0};                                    //!< flows failed
    uint64_t events{0};                                    //!< simulator events
    double simSeconds{0};                                  //!< simulated time
    double wallSeconds{0};                                 //!< wall-clock time
    const RdmaMemoryCensus* census{nullptr};               //!< sim.census, or nullptr
};

/// \return a bucket's upper bound as text ("inf" for the last)
std::string
UpperBound(const RdmaSlowdownBucket& b)
{
    return b.maxSize == UINT64_MAX ? std::string("inf") : std::to_string(b.maxSize);
}

/// \return the share of lookups that hit, 0-1 (0 without lookups)
double
HitRate(const RdmaNicTables::Counters& k)
{
    const uint64_t lookups = k.hits + k.misses;
    return lookups ? double(k.hits) / lookups : 0.0;
}

/// \return summary.json's content (doc/rdma.rst, "Outputs")
std::string
SummaryJson(const RdmaExperimentSpec& spec, const Figures& f)
{
    const RdmaConfig& c = spec.config;
    nlohmann::ordered_json j;
    j["config"] = c.GetValues();
    j["seed"] = spec.seed;
    j["icrc_computed"] = spec.icrc;
    j["versions"] = {{"rdma", g_rdmaModuleVersion}, {"ns3", RDMA_NS3_VERSION}};
    j["wall_time_s"] = f.wallSeconds;
    j["sim_time_s"] = f.simSeconds;
    j["events"] = f.events;
    j["link_transmissions"] = f.totals.linkTransmissions;
    j["data_packets_delivered"] = f.totals.dataPacketsDelivered;
    j["peak_rss_mb"] = PeakRssMb();
    j["flows"] = {{"total", f.flows},
                  {"completed", f.completed},
                  {"failed", f.failed},
                  {"incomplete", f.flows - f.completed - f.failed}};
    nlohmann::ordered_json fs = nlohmann::ordered_json::object();
    for (const auto& b : f.buckets)
    {
        fs[std::to_string(b.minSize) + "-" + UpperBound(b)] = {
            {"lo", b.minSize},
            {"hi",
             b.maxSize == UINT64_MAX ? nlohmann::ordered_json(nullptr)
                                     : nlohmann::ordered_json(b.maxSize)},
            {"count", b.flows},
            {"p50", b.p50},
            {"p95", b.p95},
            {"p99", b.p99}};
    }
    j["fct_slowdown"] = fs;
    j["pfc"] = {{"pause_frames", f.totals.pfcPauseFrames},
                {"resume_frames", f.totals.pfcResumeFrames},
                {"pause_frames_from_hosts", f.totals.pfcPauseFramesFromHosts}};
    j["drops"] = f.totals.drops;
    j["retransmissions"] = f.totals.retransmissions;
    j["recovery"] = {{"policy", c.Get("transport.recovery")},
                     {"retransmissions", f.qps.retransmissions},
                     {"timeouts", f.qps.timeouts},
                     {"sequence_naks", f.qps.nakSeqSent}};
    j["ecn_marks"] = f.totals.ecnMarks;
    nlohmann::ordered_json cj = nlohmann::ordered_json::object();
    for (const auto& [table, k] : f.caches)
    {
        cj[table] = {{"hits", k.hits},
                     {"misses", k.misses},
                     {"evictions", k.evictions},
                     {"hit_rate", HitRate(k)}};
    }
    j["cache"] = cj;
    if (f.census)
    {
        nlohmann::ordered_json parts = nlohmann::ordered_json::array();
        for (const RdmaMemoryCensus::Part& p : f.census->GetParts())
        {
            parts.push_back({{"part", p.name},
                             {"bytes", p.bytes},
                             {"items", p.items},
                             {"item", p.item},
                             {"bytes_per_item", p.items ? p.bytes / p.items : 0}});
        }
        j["memory_census"] = {{"parts", parts},
                              {"total_bytes", f.census->GetTotalBytes()},
                              {"peak_rss_bytes", uint64_t(PeakRssMb() * 1048576.0)},
                              {"peak_frames_queued", f.census->GetPeakFramesQueued()},
                              {"peak_qps", f.census->GetPeakQps()}};
    }
    return j.dump(2) + "\n";
}

/// \return the readable summary, one line per element
std::vector<std::string>
SummaryText(const RdmaExperimentSpec& spec, const Figures& f)
{
    std::vector<std::string> text;
    text.push_back(
        "rdma-sim: " + spec.topology.name + ", " + std::to_string(spec.topology.GetNHosts()) +
        " hosts, " + std::to_string(spec.topology.GetNSwitches()) + " switches, " +
        spec.config.Get("traffic.pattern") + " traffic, seed " + std::to_string(spec.seed));
    text.push_back("flows: " + std::to_string(f.completed) + " of " + std::to_string(f.flows) +
                   " done, " + std::to_string(f.failed) + " failed");
    text.push_back("FCT slowdown by size (bytes): p50 / p95 / p99 (flows)");
    for (const auto& b : f.buckets)
    {
        std::ostringstream l;
        l.setf(std::ios::fixed);
        l.precision(2);
        l << "  " << b.minSize << " - " << UpperBound(b) << ": " << b.p50 << " / " << b.p95 << " / "
          << b.p99 << " (" << b.flows << ")";
        text.push_back(l.str());
    }
    std::ostringstream l2;
    l2 << "PFC pause frames " << f.totals.pfcPauseFrames;
    if (f.totals.pfcPauseFramesFromHosts > 0)
    {
        l2 << " (" << f.totals.pfcPauseFramesFromHosts << " from hosts)";
    }
    l2 << ", resumes " << f.totals.pfcResumeFrames << "; drops " << f.totals.drops
       << "; retransmissions " << f.totals.retransmissions << "; ECN marks " << f.totals.ecnMarks;
    text.push_back(l2.str());
    for (const auto& [table, k] : f.caches)
    {
        std::ostringstream l;
        l.setf(std::ios::fixed);
        l.precision(2);
        const uint64_t lookups = k.hits + k.misses;
        l << "cache " << table << ": " << k.hits << " hits, " << k.misses << " misses ("
          << (lookups ? 100.0 * k.hits / lookups : 0.0) << " % hits), " << k.evictions
          << " evictions";
        text.push_back(l.str());
    }
    std::ostringstream l3;
    l3.setf(std::ios::fixed);
    l3.precision(3);
    l3 << "simulated " << f.simSeconds * 1e3 << " ms in " << f.wallSeconds
       << " s wall: " << f.events / f.wallSeconds / 1e6 << " M events/s, "
       << f.totals.linkTransmissions / f.wallSeconds / 1e6 << " M link transmissions/s; peak RSS "
       << PeakRssMb() << " MiB";
    text.push_back(l3.str());
    if (f.census)
    {
        for (const std::string& line : f.census->Describe(uint64_t(PeakRssMb() * 1048576.0)))
        {
            text.push_back(line);
        }
    }
    text.push_back("outputs in " + spec.outDir + "/");
    return text;
}

} // namespace

RdmaExperimentReport::RdmaExperimentReport(const RdmaExperimentSpec& spec,
                                           const RdmaExperimentBuilder& sim,
                                           Time simEnd,
                                           std::chrono::steady_clock::time_point wallStart)
{
    const RdmaTopologyHelper& topo = sim.GetTopology();
    const Ptr<RdmaFlowRunner> runner = sim.GetRunner();
    // Each host pair's path once (RdmaTopologyHelper::GetPathFunction walks it).
    const RdmaPathFunction pathOf =
        topo.GetPathFunction(spec.GetFrameBytes(), RdmaExperimentSpec::GetAckBytes());
    std::map<std::pair<uint32_t, uint32_t>, RdmaPathInfo> paths;
    auto path = [&](uint32_t src, uint32_t dst) {
        auto [it, added] = paths.try_emplace(std::make_pair(src, dst));
        if (added)
        {
            it->second = pathOf(src, dst);
        }
        return it->second;
    };
    RdmaIdealFct model;
    model.payloadBytes = spec.mtuBytes;
    m_records = RdmaMakeFctRecords(runner->GetFlows(), runner->GetResults(), path, model);
    Figures f;
    f.buckets = RdmaSlowdownPercentiles(m_records);
    f.totals = sim.GetStats().GetTotals();
    // Cache counters per NIC and table (cache.csv), and summed per table.
    std::ostringstream cacheCsv;
    cacheCsv << "nic,table,hits,misses,evictions,write_backs,stall_ns\n";
    for (uint32_t h = 0; spec.pipeline && h < topo.GetNHosts(); ++h)
    {
        for (const auto& k : topo.GetNic(h)->GetPipeline()->GetTables()->GetCounters())
        {
            cacheCsv << h << ',' << k.table << ',' << k.hits << ',' << k.misses << ','
                     << k.evictions << ',' << k.writeBacks << ',' << k.stallTime.GetNanoSeconds()
                     << '\n';
            auto& sum = f.caches[k.table];
            sum.hits += k.hits;
            sum.misses += k.misses;
            sum.evictions += k.evictions;
        }
    }
    m_cacheCsv = cacheCsv.str();
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        f.qps += topo.GetNic(h)->GetQpStatsTotal();
    }
    f.events = Simulator::GetEventCount();
    f.census = sim.GetCensus();
    f.flows = m_records.size();
    for (const auto& r : m_records)
    {
        f.completed += r.Succeeded();
        f.failed += r.Failed();
    }
    f.simSeconds = simEnd.GetSeconds();
    f.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    m_summaryJson = SummaryJson(spec, f);
    m_summaryText = SummaryText(spec, f);
}

const std::vector<RdmaFctRecord>&
RdmaExperimentReport::GetRecords() const
{
    return m_records;
}

const std::string&
RdmaExperimentReport::GetSummaryJson() const
{
    return m_summaryJson;
}

const std::vector<std::string>&
RdmaExperimentReport::GetSummaryText() const
{
    return m_summaryText;
}

void
RdmaExperimentReport::Write(const std::string& outDir, RdmaExperimentBuilder& sim) const
{
    RdmaOutputStage stage(outDir);
    try
    {
        stage.Open();
        stage.Write("fct.csv", RdmaFormatFctCsv(m_records));
        stage.Write("fct.txt", RdmaFormatHpccFctTxt(m_records));
        stage.Write("pfc.csv", sim.GetStats().FormatPfcCsv());
        stage.Write("qlen.csv", sim.GetStats().FormatQlenCsv());
        stage.Write("cache.csv", m_cacheCsv);
        stage.Write("summary.json", m_summaryJson);
        sim.GetPcap().Commit(stage.GetStageDir());
        if (const int signal = RdmaInterrupt::GetPending())
        {
            throw RdmaInterrupted(std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                      " while writing the outputs; nothing was written to " +
                                      outDir,
                                  signal);
        }
        stage.Commit();
    }
    catch (const RdmaInterrupted&)
    {
        throw;
    }
    catch (const std::runtime_error& e)
    {
        throw RdmaConfigError(std::string("output: ") + e.what());
    }
}

} // namespace ns3
