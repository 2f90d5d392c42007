/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-experiment-report.h"

#include "ns3/rdma-collective-report.h"
#include "ns3/rdma-fct-writer.h"
#include "ns3/rdma-interrupt.h"
#include "ns3/rdma-mpi.h"
#include "ns3/rdma-nodes-csv.h"
#include "ns3/rdma-output-stage.h"
#include "ns3/rdma-rank-share.h"
#include "ns3/rdma-value-check.h"
#include "ns3/rdma-version.h"
#include "ns3/simulator.h"

#include <csignal>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ns3
{

namespace
{

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
    uint32_t qpcEntryBytes{0};                             //!< with a pipeline: a QPC entry's bytes
    const RdmaMemoryCensus* census{nullptr};               //!< sim.census, or nullptr
    nlohmann::ordered_json mpi;                            //!< several ranks: their figures
    bool jobs{false};                                      //!< traffic.pattern = collective
    std::vector<RdmaCollectiveGroup> collectiveGroups;     //!< with jobs
    std::vector<RdmaJobFigures> jobFigures;                //!< with jobs
    uint64_t collectives{0};                               //!< with jobs: to run
    uint64_t collectivesDone{0};                           //!< with jobs: completed
    uint64_t collectivesFailed{0};                         //!< with jobs: failed
    uint64_t collectivesNotRun{0};                         //!< with jobs: after a failed one
    std::vector<RdmaCollectiveRecord> failures;            //!< with jobs: the failed collectives
    std::vector<RdmaStatsHelper::TierLoad> tierLoads;      //!< one rank: links' load by tier
    RdmaCollectiveMemo::Stats fastForward;                 //!< with jobs: what was replayed
    std::vector<RdmaNicPorts::Stats> planes;               //!< multi-plane: NIC ports' sums by plane
    uint64_t rcccCredits{0};                               //!< RCCC credit frames the NICs sent
    uint64_t rcccCreditsReceived{0};                       //!< and received for a QP
    uint64_t rcccCreditsToGoneQps{0};                      //!< and for a QP destroyed
};

/// \return x, or null where nothing was measured \param measured whether it was \param x it
nlohmann::ordered_json
Measured(bool measured, double x)
{
    return measured ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}

/// \return summary.json's collectives block (doc/rdma.rst, "Collectives and jobs")
/// \param f the figures
nlohmann::ordered_json
CollectivesJson(const Figures& f)
{
    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (const auto& g : f.collectiveGroups)
    {
        const auto value = [&g](double x) { return Measured(g.done > 0, x); };
        groups.push_back({{"collective", g.collective},
                          {"algorithm", g.algorithm},
                          {"bytes", g.bytes},
                          {"ranks", g.ranks},
                          {"done", g.done},
                          {"not_done", g.notDone},
                          {"cct_ns", {{"mean", value(g.cctMeanNs)},
                                      {"p50", value(g.cctP50Ns)},
                                      {"p99", value(g.cctP99Ns)},
                                      {"max", value(g.cctMaxNs)}}},
                          {"algbw_gbps", value(g.algBwGbps)},
                          {"busbw_gbps", value(g.busBwGbps)}});
    }
    nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
    for (const auto& j : f.jobFigures)
    {
        const auto value = [&j](double x) { return Measured(j.done > 0, x); };
        jobs.push_back({{"job", j.job},
                        {"ranks", j.ranks},
                        {"iterations", j.iterations},
                        {"iterations_done", j.done},
                        {"iteration_time_ns", {{"mean", value(j.iterationMeanNs)},
                                               {"max", value(j.iterationMaxNs)}}},
                        {"exposed_comm_share", value(j.exposedCommShare)}});
    }
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    for (const auto& r : f.failures)
    {
        failures.push_back({{"job", r.job},
                            {"iteration", r.iteration},
                            {"item", r.item},
                            {"rank", r.failedRank},
                            {"host", r.failedHost},
                            {"at_ns", r.failedAt.GetNanoSeconds()},
                            {"status", RdmaWcStatusName(r.failedStatus)}});
    }
    return {{"total", f.collectives},
            {"completed", f.collectivesDone},
            {"failed", f.collectivesFailed},
            {"failures", failures},
            {"not_run", f.collectivesNotRun},
            {"incomplete",
             f.collectives - f.collectivesDone - f.collectivesFailed - f.collectivesNotRun},
            {"by_size", groups},
            {"jobs", jobs}};
}

/// \return a bucket's upper bound as text ("inf" for the last)
std::string
UpperBound(const RdmaSlowdownBucket& b)
{
    return b.maxSize == UINT64_MAX ? std::string("inf") : std::to_string(b.maxSize);
}

/// \return a bucket's percentile for summary.json: null when the bucket has
/// no flows (nothing was measured, so no number is written)
nlohmann::ordered_json
Percentile(const RdmaSlowdownBucket& b, double value)
{
    return b.HasFlows() ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

/// \return the share of lookups that hit, 0-1 (0 without lookups)
double
HitRate(const RdmaNicTables::Counters& k)
{
    const uint64_t lookups = k.hits + k.misses;
    return lookups ? double(k.hits) / lookups : 0.0;
}

/// \return a reorder-depth histogram as {bin name: count} (RdmaQueuePair::Stats bins)
nlohmann::ordered_json
DepthHistogram(const uint64_t* bins, bool time)
{
    nlohmann::ordered_json h = nlohmann::ordered_json::object();
    for (uint32_t b = 0; b < RdmaQueuePair::Stats::REORDER_BINS; ++b)
    {
        h[RdmaQueuePair::Stats::BinName(b, time)] = bins[b];
    }
    return h;
}

/**
 * \brief Where the resent packets' extra copies went. A resend of a PSN
 * whose earlier copy was not lost makes one copy too many (the resend, or
 * the original it overtook); that copy reaches a responder that has the
 * PSN (spurious), or a QP already gone (its message done), or is still on
 * its way when the run ends. A resend of a lost copy makes none. So
 * resent = spurious + to gone QPs + in flight + the resends that
 * replaced losses; the last two are the remainder, and with no frame lost
 * in the fabric it is all in flight.
 * \param f the figures \return summary.json's reordering.resent
 */
nlohmann::ordered_json
ResentJson(const Figures& f)
{
    const auto& q = f.qps;
    const uint64_t accounted = q.spuriousRetransmissions + f.totals.requestsToGoneQps;
    const int64_t rest = int64_t(q.retransmissions) - int64_t(accounted);
    return {{"packets", q.retransmissions},
            {"spurious", q.spuriousRetransmissions},
            {"after_qp_gone", f.totals.requestsToGoneQps},
            {"lost_in_fabric", f.totals.dropsOnLinks + f.totals.dropsInSwitches},
            {"trimmed_in_fabric", f.totals.trimmed},
            {"in_flight_or_replacing_losses", rest}};
}

/// \return the reordering block of summary.json (doc/rdma.rst, "Many paths")
nlohmann::ordered_json
ReorderingJson(const RdmaExperimentSpec& spec, const Figures& f)
{
    const RdmaQueuePair::Stats& q = f.qps;
    const auto mean = [&q](double sum) {
        return q.latePackets ? nlohmann::ordered_json(sum / q.latePackets)
                             : nlohmann::ordered_json(nullptr);
    };
    nlohmann::ordered_json r = {{"entropy", spec.config.Get("nic.Entropy")},
                                {"out_of_order_arrivals", q.outOfSequence},
                                {"late_packets", q.latePackets},
                                {"depth_packets",
                                 {{"mean", mean(double(q.lateDepthPackets))},
                                  {"histogram", DepthHistogram(q.lateDepthPacketsBins, false)}}},
                                {"depth_us",
                                 {{"mean", mean(q.lateDepthNs / 1e3)},
                                  {"histogram", DepthHistogram(q.lateDepthTimeBins, true)}}},
                                {"retransmitted_packets", q.retransmissions},
                                {"spurious_retransmissions", q.spuriousRetransmissions},
                                {"resent", ResentJson(f)}};
    if (f.qpcEntryBytes > 0)
    {
        r["qpc_entry_bytes"] = f.qpcEntryBytes;
    }
    return r;
}

/// \return summary.json's fct_slowdown: each size bucket's count and percentiles
nlohmann::ordered_json
SlowdownJson(const Figures& f)
{
    nlohmann::ordered_json fs = nlohmann::ordered_json::object();
    for (const auto& b : f.buckets)
    {
        fs[std::to_string(b.minSize) + "-" + UpperBound(b)] = {
            {"lo", b.minSize},
            {"hi",
             b.maxSize == UINT64_MAX ? nlohmann::ordered_json(nullptr)
                                     : nlohmann::ordered_json(b.maxSize)},
            {"count", b.flows},
            {"p50", Percentile(b, b.p50)},
            {"p95", Percentile(b, b.p95)},
            {"p99", Percentile(b, b.p99)},
            {"unfinished", b.unfinished}};
        if (b.unfinished > 0)
        {
            auto& o = fs[std::to_string(b.minSize) + "-" + UpperBound(b)];
            o["unfinished_slowdown_at_least"] = b.unfinishedAtLeast;
            o["with_unfinished_at_least"] = {{"p50", b.p50AtLeast},
                                             {"p95", b.p95AtLeast},
                                             {"p99", b.p99AtLeast}};
        }
    }
    return fs;
}

/// \return summary.json's link_load: each tier's bytes and utilisation
nlohmann::ordered_json
LinkLoadJson(const Figures& f)
{
    nlohmann::ordered_json lj = nlohmann::ordered_json::object();
    for (const auto& t : f.tierLoads)
    {
        lj["tier" + std::to_string(t.tier)] = {{"directions", t.directions},
                                               {"tx_bytes", t.txBytes},
                                               {"utilisation", t.utilisation},
                                               {"max_utilisation", t.maxUtilisation}};
    }
    return lj;
}

/// \return summary.json's cache: each NIC table's hits, misses and evictions
nlohmann::ordered_json
CacheJson(const Figures& f)
{
    nlohmann::ordered_json cj = nlohmann::ordered_json::object();
    for (const auto& [table, k] : f.caches)
    {
        cj[table] = {{"hits", k.hits},
                     {"misses", k.misses},
                     {"evictions", k.evictions},
                     {"hit_rate", HitRate(k)}};
    }
    return cj;
}

/// \return summary.json's memory_census \param census the census (sim.census)
nlohmann::ordered_json
CensusJson(const RdmaMemoryCensus& census)
{
    nlohmann::ordered_json parts = nlohmann::ordered_json::array();
    for (const RdmaMemoryCensus::Part& p : census.GetParts())
    {
        parts.push_back({{"part", p.name},
                         {"bytes", p.bytes},
                         {"items", p.items},
                         {"item", p.item},
                         {"bytes_per_item", p.items ? p.bytes / p.items : 0}});
    }
    return {{"parts", parts},
            {"total_bytes", census.GetTotalBytes()},
            {"peak_rss_bytes", uint64_t(PeakRssMb() * 1048576.0)},
            {"peak_frames_queued", census.GetPeakFramesQueued()},
            {"peak_qps", census.GetPeakQps()}};
}

/**
 * \return the warning a run earns when its retransmission timer fired though
 * no frame was lost (the copies that reach a QP already gone are not losses:
 * they are resends themselves; nor, for go-back-N, discarded by a responder
 * for arriving out of sequence), so the RTO is below the fabric's RTT, which
 * PFC lets queues stretch; or "" \param spec the run \param f its figures.
 * IRN's RTO_high is "an estimate of the maximum RTT" (SIGCOMM 2018, section
 * 3.1); go-back-N's timer is the local ACK timeout (IBA 9.7.6.1.3).
 */
std::string
SpuriousTimeoutWarning(const RdmaExperimentSpec& spec, const Figures& f)
{
    // Go-back-N's responder discards what arrives out of sequence: a loss
    // that no drop counter shows, so a timeout there need not be early.
    const bool irn = spec.config.Get("transport.recovery") == "irn";
    if (f.qps.timeouts == 0 || f.totals.drops != f.totals.dropsToGoneQps ||
        (!irn && f.qps.outOfSequence > 0))
    {
        return "";
    }
    std::ostringstream w;
    if (f.totals.trimmed > 0 && f.qps.spuriousRetransmissions == 0)
    {
        // Trimmed frames lost their payload, and each was NAKed and resent at
        // once: with nothing resent to a responder that had it, the timer was
        // not early, and a longer one would not help.
        w << f.qps.timeouts << " retransmission timeouts with no frame dropped but "
          << f.totals.trimmed << " trimmed, and no packet resent to a responder that had it: "
          << "the timer was not early; a QP had something unacknowledged and nothing it "
          << "could send until it fired (its window full, or its resends trimmed again)";
        return w.str();
    }
    w << f.qps.timeouts << " retransmission timeouts though no frame was lost ("
      << f.qps.retransmissions << " packets resent, " << f.qps.spuriousRetransmissions
      << " of them to a responder that had them): the timer is shorter than this fabric's "
      << "round trip; raise "
      << (irn ? "transport.irn.RtoHigh (and RtoLow) above the largest RTT (IRN, SIGCOMM 2018 3.1)"
              : "transport.timeout (local ACK timeout 4.096 us x 2^timeout, IBA 9.7.6.1.3)");
    return w.str();
}

/**
 * \return the warning a run earns when flows or collectives were still
 * running at its end (sim.stopTime): the percentiles leave them out, and
 * they are the tail; or "" \param spec the run \param f its figures
 */
std::string
UnfinishedWarning(const RdmaExperimentSpec& spec, const Figures& f)
{
    const uint64_t flows = f.flows - f.completed - f.failed;
    const uint64_t collectives =
        f.collectives - f.collectivesDone - f.collectivesFailed - f.collectivesNotRun;
    if (flows == 0 && collectives == 0)
    {
        return "";
    }
    std::ostringstream w;
    w.setf(std::ios::fixed);
    w.precision(3);
    if (collectives > 0)
    {
        w << collectives << " of " << f.collectives << " collectives" << (flows > 0 ? " and " : "");
    }
    if (flows > 0)
    {
        w << flows << " of " << f.flows << " flows";
    }
    w << " were still running when the run ended at " << f.simSeconds * 1e3 << " ms ("
      << spec.config.GetOrigin("sim.stopTime")
      << ": sim.stopTime = " << spec.config.Get("sim.stopTime") << "): ";
    if (collectives > 0)
    {
        w << "their completion times are not in the figures above" << (flows > 0 ? "; " : "");
    }
    if (flows > 0)
    {
        w << "the slowdown percentiles leave the flows out and they are the tail; each size "
             "bucket counts them, with the lower bound of their slowdowns (time so far over the "
             "ideal) and of the percentiles with them (summary.json fct_slowdown: unfinished, "
             "unfinished_slowdown_at_least, with_unfinished_at_least)";
    }
    w << "; a later sim.stopTime measures them";
    return w.str();
}

/**
 * \return the warning a run earns when a job stopped at a failed collective
 * (a WRITE completed in error): the collectives after it in its job were
 * never run, and no later sim.stopTime runs them; or "" \param f its figures
 */
std::string
FailedJobsWarning(const Figures& f)
{
    if (!f.jobs || f.collectivesFailed == 0)
    {
        return "";
    }
    std::ostringstream w;
    w << f.collectivesFailed << " of " << f.collectives << " collectives failed (a WRITE "
      << "completed in error, such as IBV_WC_RETRY_EXC_ERR across a failed link: its job "
      << "stopped there) and " << f.collectivesNotRun << " others of their jobs did not finish "
      << "(after them, or under way when the job stopped): no later sim.stopTime runs them; "
      << "collectives.csv marks the failed ones";
    for (const auto& r : f.failures)
    {
        w << "; job " << r.job << " stopped at " << r.failedAt.GetNanoSeconds() / 1e6
          << " ms, iteration " << r.iteration << " item " << r.item << ": rank "
          << r.failedRank << " (host " << r.failedHost << ") saw "
          << RdmaWcStatusName(r.failedStatus);
    }
    return w.str();
}

/// \return every warning the run's results earn, without the "warning: "
/// prefix \param spec the run \param f its figures
std::vector<std::string>
RunWarnings(const RdmaExperimentSpec& spec, const Figures& f)
{
    std::vector<std::string> warnings;
    for (const std::string& w :
         {UnfinishedWarning(spec, f), FailedJobsWarning(f), SpuriousTimeoutWarning(spec, f)})
    {
        if (!w.empty())
        {
            warnings.push_back(w);
        }
    }
    return warnings;
}

/// \return summary.json's content (doc/rdma.rst, "Outputs")
std::string
SummaryJson(const RdmaExperimentSpec& spec, const Figures& f)
{
    const RdmaConfig& c = spec.config;
    // Room for every member first: an ordered_json object is a vector whose
    // members are copied, not moved, when it grows (their keys are const),
    // and the config member holds hundreds of keys.
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j.get_ref<nlohmann::ordered_json::object_t&>().reserve(64);
    // Times and rates in the units a reader reads ("500us", not "+5e+08ps").
    std::map<std::string, std::string> values;
    for (const auto& k : c.GetKeys())
    {
        values[k.name] = RdmaValueText(k.checker, c.Get(k.name));
    }
    // Appended in the map's (sorted, unique) order: an ordered_json object
    // looks each key up among those before it when given a whole map.
    nlohmann::ordered_json config = nlohmann::ordered_json::object();
    auto& members = config.get_ref<nlohmann::ordered_json::object_t&>();
    members.reserve(values.size());
    for (auto& [name, text] : values)
    {
        members.emplace_back(name, std::move(text));
    }
    j["config"] = std::move(config);
    j["seed"] = spec.seed;
    j["icrc_computed"] = spec.icrc;
    j["versions"] = {{"rdma", RdmaModuleVersion()}, {"ns3", RdmaNs3Version()}};
    j["wall_time_s"] = f.wallSeconds;
    j["sim_time_s"] = f.simSeconds;
    j["events"] = f.events;
    j["link_transmissions"] = f.totals.linkTransmissions;
    j["data_packets_delivered"] = f.totals.dataPacketsDelivered;
    j["data_packets_placed"] = f.qps.payloadPacketsPlaced; // each PSN once: no resent copies
    j["peak_rss_mb"] = PeakRssMb();
    j["flows"] = {{"total", f.flows},
                  {"completed", f.completed},
                  {"failed", f.failed},
                  {"incomplete", f.flows - f.completed - f.failed}};
    j["fct_slowdown"] = SlowdownJson(f);
    j["pfc"] = {{"pause_frames", f.totals.pfcPauseFrames},
                {"resume_frames", f.totals.pfcResumeFrames},
                {"pause_frames_from_hosts", f.totals.pfcPauseFramesFromHosts}};
    j["drops"] = f.totals.drops;
    j["drops_where"] = {{"links", f.totals.dropsOnLinks},
                        {"switches", f.totals.dropsInSwitches},
                        {"nics", f.totals.dropsAtNics},
                        {"nics_to_gone_qps", f.totals.dropsToGoneQps}};
    j["retransmissions"] = f.totals.retransmissions;
    if (f.planes.size() > 1)
    {
        nlohmann::ordered_json planes = nlohmann::ordered_json::array();
        for (const RdmaNicPorts::Stats& p : f.planes)
        {
            planes.push_back({{"nic_tx_frames", p.txFrames},
                              {"nic_tx_bytes", p.txBytes},
                              {"nic_rx_frames", p.rxFrames},
                              {"nic_rx_bytes", p.rxBytes}});
        }
        j["planes"] = planes;
    }
    if (spec.trimmedDscp >= 0)
    {
        j["trimming"] = {{"trimmed_frames", f.totals.trimmed},
                         {"trimmed_received", f.qps.trimmedReceived},
                         {"trim_naks", f.qps.nakTrimSent}};
    }
    if (c.GetBool("cc.rccc.Enabled"))
    {
        j["rccc"] = {{"credits_sent", f.rcccCredits},
                     {"credits_received", f.rcccCreditsReceived},
                     {"credits_to_gone_qps", f.rcccCreditsToGoneQps}};
    }
    j["recovery"] = {{"policy", c.Get("transport.recovery")},
                     {"retransmissions", f.qps.retransmissions},
                     {"timeouts", f.qps.timeouts},
                     {"sequence_naks", f.qps.nakSeqSent}};
    nlohmann::ordered_json warnings = spec.warnings;
    for (const std::string& w : RunWarnings(spec, f))
    {
        warnings.push_back(w);
    }
    if (!warnings.empty())
    {
        j["warnings"] = warnings;
    }
    j["reordering"] = ReorderingJson(spec, f);
    j["ecn_marks"] = f.totals.ecnMarks;
    if (!f.tierLoads.empty())
    {
        j["link_load"] = LinkLoadJson(f);
    }
    j["cache"] = CacheJson(f);
    if (f.jobs)
    {
        j["collectives"] = CollectivesJson(f);
    }
    if (spec.fastForward != "off")
    {
        j["fast_forward"] = {{"mode", spec.fastForward},
                             {"collectives_replayed", f.fastForward.replayed},
                             {"collectives_recorded", f.fastForward.recorded},
                             {"collectives_not_kept", f.fastForward.notKept},
                             {"collectives_not_keyed", f.fastForward.notKeyed},
                             {"skipped_ns", f.fastForward.skipped.GetNanoSeconds()},
                             {"collectives_steady", f.fastForward.steady},
                             {"steady_skipped_ns", f.fastForward.steadySkipped.GetNanoSeconds()},
                             {"skipped_bytes", f.fastForward.skippedBytes}};
    }
    if (f.census)
    {
        j["memory_census"] = CensusJson(*f.census);
    }
    if (!f.mpi.is_null())
    {
        j["mpi"] = f.mpi;
    }
    return j.dump(2) + "\n";
}

/// \return the summary's line of one size bucket: p50 / p95 / p99 (flows)
std::string
BucketLine(const RdmaSlowdownBucket& b)
{
    std::ostringstream l;
    l.setf(std::ios::fixed);
    l.precision(2);
    l << "  " << b.minSize << " - " << UpperBound(b) << ": ";
    if (b.HasFlows())
    {
        l << b.p50 << " / " << b.p95 << " / " << b.p99;
    }
    else
    {
        l << "n/a / n/a / n/a";
    }
    l << " (" << b.flows << ")";
    if (b.unfinished > 0)
    {
        l << "; " << b.unfinished << " unfinished, slowdown >= " << b.unfinishedAtLeast
          << " each; with them p50 / p95 / p99 >= " << b.p50AtLeast << " / " << b.p95AtLeast
          << " / " << b.p99AtLeast;
    }
    return l.str();
}

/// \return the summary's line of PFC frames, drops (by where), retransmissions and ECN marks
std::string
PfcAndDropsLine(const Figures& f)
{
    std::ostringstream l2;
    l2 << "PFC pause frames " << f.totals.pfcPauseFrames;
    if (f.totals.pfcPauseFramesFromHosts > 0)
    {
        l2 << " (" << f.totals.pfcPauseFramesFromHosts << " from hosts)";
    }
    l2 << ", resumes " << f.totals.pfcResumeFrames << "; drops " << f.totals.drops;
    if (f.totals.drops > 0)
    {
        l2 << " (links " << f.totals.dropsOnLinks << ", switches " << f.totals.dropsInSwitches
           << ", NICs " << f.totals.dropsAtNics;
        if (f.totals.dropsToGoneQps > 0)
        {
            l2 << ", of them " << f.totals.dropsToGoneQps << " copies after their QP was gone";
        }
        l2 << ")";
    }
    if (f.totals.trimmed > 0)
    {
        l2 << "; trimmed " << f.totals.trimmed;
    }
    l2
       << "; retransmissions " << f.totals.retransmissions << "; ECN marks " << f.totals.ecnMarks;
    return l2.str();
}

/// \return the summary's reordering line \param q the QPs' counters, summed
/// \param t the fabric's counters
std::string
ReorderingLine(const RdmaQueuePair::Stats& q, const RdmaStatsHelper::Totals& t)
{
    std::ostringstream l;
    l.setf(std::ios::fixed);
    l.precision(1);
    l << "reordering: " << q.outOfSequence << " requests out of order, " << q.latePackets
      << " late";
    if (q.latePackets > 0)
    {
        l << " (mean depth " << double(q.lateDepthPackets) / q.latePackets << " packets, "
          << q.lateDepthNs / 1e3 / q.latePackets << " us)";
    }
    l << "; " << q.retransmissions << " retransmitted, " << q.spuriousRetransmissions
      << " spurious";
    if (q.retransmissions > 0)
    {
        // ResentJson's classification of the extra copies.
        const int64_t rest = int64_t(q.retransmissions) - int64_t(q.spuriousRetransmissions) -
                             int64_t(t.requestsToGoneQps);
        l << " (a copy of the PSN had arrived), " << t.requestsToGoneQps
          << " after their QP was gone, " << rest;
        // A trimmed frame lost its payload as a dropped one lost all of it:
        // the resends that replace them are among the rest.
        const uint64_t lost = t.dropsOnLinks + t.dropsInSwitches;
        if (lost + t.trimmed == 0)
        {
            l << " in flight at the end (no frame lost or trimmed)";
        }
        else
        {
            l << " in flight at the end or replacing the " << lost << " frames lost and "
              << t.trimmed << " trimmed";
        }
    }
    return l.str();
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
    if (f.jobs)
    {
        for (const std::string& line : RdmaCollectiveSummaryText(f.collectiveGroups,
                                                                 f.jobFigures,
                                                                 f.collectives,
                                                                 f.collectivesDone))
        {
            text.push_back(line);
        }
        if (spec.fastForward != "off")
        {
            std::ostringstream l;
            l.setf(std::ios::fixed);
            l.precision(3);
            l << "fast-forward: " << f.fastForward.replayed << " of " << f.collectives
              << " collectives replayed, " << f.fastForward.skipped.GetSeconds() * 1e3
              << " ms of their time not simulated; " << f.fastForward.steady
              << " steady, their last " << f.fastForward.steadySkipped.GetSeconds() * 1e3
              << " ms computed (doc/fast-forward.rst)";
            text.push_back(l.str());
        }
    }
    if (!f.jobs || f.flows > 0)
    {
        // Flows, or flows beside the jobs (traffic.background).
        text.push_back(std::string(f.jobs ? "flows beside the jobs: " : "flows: ") +
                       std::to_string(f.completed) + " of " + std::to_string(f.flows) + " done, " +
                       std::to_string(f.failed) + " failed");
        text.push_back("FCT slowdown by size (bytes): p50 / p95 / p99 (flows)");
        for (const auto& b : f.buckets)
        {
            text.push_back(BucketLine(b));
        }
    }
    text.push_back(PfcAndDropsLine(f));
    if (f.planes.size() > 1)
    {
        // What each plane carried: a plane that failed shows here.
        std::ostringstream l;
        l.setf(std::ios::fixed);
        l.precision(1);
        l << "planes: the NICs sent";
        for (std::size_t p = 0; p < f.planes.size(); ++p)
        {
            l << (p == 0 ? " " : ", ") << f.planes[p].txBytes / 1e6 << " MB";
        }
        l << " on planes 0-" << f.planes.size() - 1;
        text.push_back(l.str());
    }
    if (f.qps.outOfSequence > 0 || f.qps.spuriousRetransmissions > 0)
    {
        text.push_back(ReorderingLine(f.qps, f.totals));
    }
    for (const std::string& w : RunWarnings(spec, f))
    {
        text.push_back("warning: " + w);
    }
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

namespace
{

/**
 * \return the QPs open on this rank's NICs (those of the hosts it
 * simulates) now
 */
uint64_t
QpsOpen(const RdmaTopologyHelper& topo)
{
    uint64_t qps = 0;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        qps += topo.GetNic(h) ? topo.GetNic(h)->GetNQps() : 0;
    }
    return qps;
}

/**
 * \return the frames rank `me`'s devices sent on links to other ranks
 * (sent in granted-time windows' batches, or as messages of their own)
 */
uint64_t
FramesToOtherRanks(const RdmaTopologyHelper& topo, const RdmaPartition& part, uint32_t me)
{
    uint64_t sentAcross = 0;
    for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
    {
        const auto& link = topo.GetLink(l);
        if (part.rankOf[link.a] != part.rankOf[link.b] &&
            (part.rankOf[link.a] == me || part.rankOf[link.b] == me))
        {
            sentAcross += (part.rankOf[link.a] == me ? link.deviceA : link.deviceB)
                              ->GetStats()
                              .txFrames;
        }
    }
    return sentAcross;
}

/**
 * \brief MergeRanks' step at rank 0: every rank's packed share (RdmaRankShare,
 * then "sent N switches S ports P messages M windows W": FramesToOtherRanks,
 * the switches and ports the rank built, and the MPI messages of frames it
 * sent in its granted-time windows, RdmaMpi::GetWindowCounters) unpacked
 * into `shares`.
 * \return the summary's mpi.per_rank rows, one per rank
 */
nlohmann::ordered_json
UnpackShares(const std::vector<std::string>& parts,
             const RdmaPartition& part,
             std::vector<RdmaRankShare>& shares)
{
    nlohmann::ordered_json perRank = nlohmann::ordered_json::array();
    for (uint32_t r = 0; r < parts.size(); ++r)
    {
        const std::size_t at = parts[r].rfind("sent ");
        shares.push_back(RdmaRankShare::Unpack(parts[r].substr(0, at)));
        const RdmaRankShare& s = shares.back();
        std::istringstream tail(parts[r].substr(at));
        std::string word;
        uint64_t sent = 0;
        uint64_t switches = 0;
        uint64_t ports = 0;
        uint64_t messages = 0;
        uint64_t windows = 0;
        uint64_t qpsOpen = 0;
        tail >> word >> sent >> word >> switches >> word >> ports >> word >> messages >> word >>
            windows >> word >> qpsOpen;
        perRank.push_back({{"rank", r},
                           {"nodes", part.GetNodesPerRank()[r]},
                           {"flows", s.flows.size()},
                           {"events", s.events},
                           {"wall_time_s", s.wallSeconds},
                           {"flows_done_s", s.localDone.GetSeconds()},
                           {"frames_sent_to_other_ranks", sent},
                           {"mpi_messages_sent", messages},
                           {"windows", windows},
                           {"switches_built", switches},
                           {"ports_built", ports},
                           {"qps_open_at_end", qpsOpen}});
    }
    return perRank;
}

/// \return the summary's mpi object: the partition, its lookahead and `perRank`
nlohmann::ordered_json
MpiJson(const RdmaExperimentSpec& spec, const nlohmann::ordered_json& perRank)
{
    const RdmaPartition& part = spec.partition;
    return {{"ranks", part.ranks},
            {"sync", spec.mpiSync},
            {"partition", part.rule},
            {"links_between_ranks", part.crossLinks},
            {"lookahead_ns", part.lookahead.GetNanoSeconds()},
            {"windows_at_most",
             part.lookahead.IsStrictlyPositive()
                 ? uint64_t(spec.stopTime.GetTimeStep() / part.lookahead.GetTimeStep())
                 : 0},
            {"per_rank", perRank}};
}

/**
 * \brief Several ranks: gather every rank's share at rank 0 and merge it
 * into the figures, results and rows of a sequential run (RdmaRankShare).
 * \param spec the experiment
 * \param sim the simulation
 * \param wallStart when the run started
 * \param simEnd the simulated time at the end here
 * \param f this rank's figures; at rank 0, the run's
 * \param results this rank's flow results; at rank 0, the run's
 * \param pfcCsv this rank's pfc.csv; at rank 0, the run's
 * \param qlenCsv this rank's qlen.csv; at rank 0, the run's
 * \param collectives this rank's job ranks' part of the collective records;
 *        at rank 0, the run's
 * \param iterations the same for the iteration records
 * \return the run's end: the last rank's done time (rank 0)
 */
Time
MergeRanks(const RdmaExperimentSpec& spec,
           const RdmaExperimentBuilder& sim,
           std::chrono::steady_clock::time_point wallStart,
           Time simEnd,
           Figures& f,
           std::vector<RdmaFlowResult>& results,
           std::string& pfcCsv,
           std::string& qlenCsv,
           std::vector<RdmaCollectiveRecord>& collectives,
           std::vector<RdmaIterationRecord>& iterations)
{
    const RdmaTopologyHelper& topo = sim.GetTopology();
    const std::vector<RdmaFlow>& flows = sim.GetRunner()->GetFlows();
    const RdmaPartition& part = spec.partition;
    const uint32_t me = RdmaMpi::GetRank();
    auto rankOfHost = [&](uint32_t h) { return part.rankOf[topo.GetHost(h)->GetId()]; };
    RdmaRankShare mine;
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const uint32_t requester = flows[i].op == RdmaFlowOp::READ ? flows[i].dst : flows[i].src;
        if (rankOfHost(requester) == me)
        {
            mine.flows.push_back(i);
            mine.results.push_back(results[i]);
        }
    }
    const Ptr<RdmaCollectiveRunner> jobs = sim.GetCollectiveRunner();
    // Nothing left here: no flows or job ranks, or they are done.
    mine.allDone = sim.GetLocalDoneTime().IsStrictlyPositive() ||
                   (mine.flows.empty() && (!jobs || jobs->IsAllDone()));
    mine.collectives = collectives;
    mine.iterations = iterations;
    mine.localDone = sim.GetLocalDoneTime();
    mine.events = f.events;
    mine.totals = f.totals;
    mine.qps = f.qps;
    mine.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const auto body = [](const std::string& csv) { return csv.substr(csv.find('\n') + 1); };
    mine.pfcRows = body(pfcCsv);
    mine.qlenRows = body(qlenCsv);
    const RdmaMpi::WindowCounters window = RdmaMpi::GetWindowCounters();
    std::string packed =
        mine.Pack() + "sent " + std::to_string(FramesToOtherRanks(topo, part, me)) + " switches " +
        std::to_string(topo.GetNSwitchesBuilt()) + " ports " +
        std::to_string(topo.GetDevices().GetN()) + " messages " +
        std::to_string(window.messagesSent) + " windows " + std::to_string(window.windows) +
        " qps " + std::to_string(QpsOpen(topo)) + "\n";
    const std::vector<std::string> parts = RdmaMpi::Gather(packed);
    if (parts.empty())
    {
        return simEnd; // not rank 0: it writes nothing
    }
    std::vector<RdmaRankShare> shares;
    const nlohmann::ordered_json perRank = UnpackShares(parts, part, shares);
    const RdmaRankShare all = RdmaRankShare::Merge(shares,
                                                   flows.size(),
                                                   results,
                                                   jobs ? jobs->GetJobs() : std::vector<RdmaJob>());
    collectives = all.collectives;
    iterations = all.iterations;
    // A sequential run stops when the last flow is done; the ranks ran on
    // to sim.stopTime (each serves the others' flows), so the run's end is
    // the last rank's done time and later rows are dropped.
    if (all.allDone && all.localDone.IsStrictlyPositive())
    {
        simEnd = all.localDone;
    }
    const uint64_t endNs = uint64_t(simEnd.GetNanoSeconds());
    pfcCsv = pfcCsv.substr(0, pfcCsv.find('\n') + 1) + RdmaRankShare::RowsUntil(all.pfcRows, endNs);
    qlenCsv =
        qlenCsv.substr(0, qlenCsv.find('\n') + 1) + RdmaRankShare::RowsUntil(all.qlenRows, endNs);
    f.totals = all.totals;
    f.qps = all.qps;
    f.events = all.events;
    f.mpi = MpiJson(spec, perRank);
    return simEnd;
}

} // namespace

namespace
{

/**
 * \return each flow's FCT record, against its path's ideal FCT (each host
 * pair's path walked once: RdmaFabricPaths::GetPathFunction)
 * \param spec the experiment \param topo the fabric \param flows the flows
 * \param results their results \param end the run's end (the unfinished
 * flows' lower bounds)
 */
std::vector<RdmaFctRecord>
FctRecords(const RdmaExperimentSpec& spec,
           const RdmaTopologyHelper& topo,
           const std::vector<RdmaFlow>& flows,
           const std::vector<RdmaFlowResult>& results,
           Time end)
{
    const RdmaPathFunction pathOf =
        topo.GetPaths().GetPathFunction(spec.GetFrameBytes(), RdmaExperimentSpec::GetAckBytes());
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
    return RdmaMakeFctRecords(flows, results, path, model, end);
}

/**
 * \return cache.csv: the cache counters per NIC and table (nic.pipeline)
 * \param spec the experiment \param topo the fabric
 * \param f receives them summed per table, and the QPC entry's bytes
 */
std::string
CacheCounters(const RdmaExperimentSpec& spec, const RdmaTopologyHelper& topo, Figures& f)
{
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
    if (spec.pipeline && topo.GetNHosts() > 0)
    {
        f.qpcEntryBytes = topo.GetNic(0)->GetPipeline()->GetTables()->GetQpcEntryBytes();
    }
    return cacheCsv.str();
}

} // namespace

RdmaExperimentReport::RdmaExperimentReport(const RdmaExperimentSpec& spec,
                                           const RdmaExperimentBuilder& sim,
                                           Time simEnd,
                                           std::chrono::steady_clock::time_point wallStart)
{
    const RdmaTopologyHelper& topo = sim.GetTopology();
    const Ptr<RdmaFlowRunner> runner = sim.GetRunner();
    Figures f;
    f.totals = sim.GetStats().GetTotals();
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        if (topo.GetNic(h)) // null: another rank's host
        {
            f.qps += topo.GetNic(h)->GetQpStatsTotal();
            f.rcccCredits += topo.GetNic(h)->GetStats().rcccCreditsSent;
            f.rcccCreditsReceived += topo.GetNic(h)->GetStats().rcccCreditsReceived;
            f.rcccCreditsToGoneQps += topo.GetNic(h)->GetStats().rcccCreditsToGoneQps;
            const RdmaNicPorts& ports = topo.GetNic(h)->GetPorts();
            f.planes.resize(ports.GetN());
            for (uint32_t p = 0; p < ports.GetN(); ++p)
            {
                f.planes[p].txFrames += ports.GetStats(p).txFrames;
                f.planes[p].txBytes += ports.GetStats(p).txBytes;
                f.planes[p].rxFrames += ports.GetStats(p).rxFrames;
                f.planes[p].rxBytes += ports.GetStats(p).rxBytes;
            }
        }
    }
    f.qps += sim.GetStats().GetCredit().qps; // what skipped parts counted (sim.fastForward)
    f.events = Simulator::GetEventCount();
    f.census = sim.GetCensus();
    m_pfcCsv = sim.GetStats().FormatPfcCsv();
    m_qlenCsv = sim.GetStats().FormatQlenCsv();
    m_nodesCsv = RdmaFormatNodesCsv(spec.topology);
    std::vector<RdmaFlowResult> results = runner->GetResults();
    const Ptr<RdmaCollectiveRunner> jobs = sim.GetCollectiveRunner();
    if (jobs)
    {
        m_collectives = jobs->GetCollectiveRecords();
        m_iterations = jobs->GetIterationRecords();
    }
    if (spec.partition.ranks > 1)
    {
        simEnd = MergeRanks(spec,
                            sim,
                            wallStart,
                            simEnd,
                            f,
                            results,
                            m_pfcCsv,
                            m_qlenCsv,
                            m_collectives,
                            m_iterations);
    }
    m_records = FctRecords(spec, topo, runner->GetFlows(), results, simEnd);
    f.buckets = RdmaSlowdownPercentiles(m_records);
    m_cacheCsv = CacheCounters(spec, topo, f);
    f.flows = m_records.size();
    for (const auto& r : m_records)
    {
        f.completed += r.Succeeded();
        f.failed += r.Failed();
    }
    if (jobs)
    {
        f.jobs = true;
        m_collectivesCsv = RdmaFormatCollectivesCsv(m_collectives, jobs->GetJobs());
        m_jobsCsv = RdmaFormatJobsCsv(m_iterations, jobs->GetJobs());
        f.collectiveGroups = RdmaGroupCollectives(m_collectives);
        f.jobFigures = RdmaSumJobs(m_iterations, jobs->GetJobs());
        f.collectives = jobs->GetCollectiveCount();
        f.collectivesDone = jobs->GetCompletedCount();
        f.collectivesFailed = jobs->GetFailedCount();
        f.collectivesNotRun = jobs->GetNotRunCount();
        f.fastForward = jobs->GetFastForwardStats();
        for (const auto& r : m_collectives)
        {
            if (r.failed)
            {
                f.failures.push_back(r);
            }
        }
        if (spec.partition.ranks > 1)
        {
            // The runner's counts are this rank's; the merged records the run's.
            f.collectivesDone = RdmaCountCompleted(m_collectives);
            f.collectivesFailed = RdmaCountFailedJobs(m_collectives);
        }
    }
    f.simSeconds = simEnd.GetSeconds();
    if (spec.partition.ranks <= 1 && f.simSeconds > 0)
    {
        f.tierLoads = sim.GetStats().GetTierLoads(RdmaNodeTiers(spec.topology), f.simSeconds);
    }
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

const std::vector<RdmaCollectiveRecord>&
RdmaExperimentReport::GetCollectiveRecords() const
{
    return m_collectives;
}

const std::vector<RdmaIterationRecord>&
RdmaExperimentReport::GetIterationRecords() const
{
    return m_iterations;
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
        stage.Write("pfc.csv", m_pfcCsv);
        stage.Write("qlen.csv", m_qlenCsv);
        stage.Write("cache.csv", m_cacheCsv);
        stage.Write("nodes.csv", m_nodesCsv);
        if (!m_collectivesCsv.empty())
        {
            stage.Write("collectives.csv", m_collectivesCsv);
            stage.Write("jobs.csv", m_jobsCsv);
        }
        stage.Write("summary.json", m_summaryJson);
        sim.GetPcap().Commit(stage.GetStageDir());
        if (const int signal = RdmaInterrupt::GetPending())
        {
            throw RdmaInterrupted(std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                      " while writing the outputs; nothing was written to " +
                                      outDir,
                                  signal);
        }
        // A run replaces an earlier run's outputs as a set: collectives.csv
        // of a collective run does not stay beside a flow run's summary.json.
        stage.Commit({"fct.csv",
                      "fct.txt",
                      "pfc.csv",
                      "qlen.csv",
                      "cache.csv",
                      "nodes.csv",
                      "collectives.csv",
                      "jobs.csv",
                      "summary.json",
                      "pcap/*.pcap"});
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
