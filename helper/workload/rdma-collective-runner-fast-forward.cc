/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaCollectiveRunner's FastForward (doc/fast-forward.rst): collectives
// replayed from a state already simulated (RdmaCollectiveMemo), and the
// remainder of a steady ring collective computed (RdmaSteadyCollective).

#include "rdma-collective-runner.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCollectiveFastForward");

bool
RdmaCollectiveRunner::KnownEntry(const JobState& s, uint32_t r, uint64_t target, Time& at)
{
    const Rank& rank = s.ranks[r];
    if (!rank.endKnown || rank.item > target || !rank.early.empty())
    {
        return false;
    }
    at = rank.itemEnd;
    for (uint64_t i = rank.item + 1; i < target; ++i)
    {
        const RdmaJobItem& item = s.job.items[i % s.job.items.size()];
        if (item.collective)
        {
            return false;
        }
        at += item.GetCompute(r);
    }
    return true;
}

void
RdmaCollectiveRunner::BeginCollective(uint32_t j, uint32_t r)
{
    JobState& s = m_jobs[j];
    const Rank& first = s.ranks[r];
    const Time now = Simulator::Now();
    RdmaCollectiveMemo::Key key;
    key.schedule = s.job.items[first.item % s.job.items.size()].collective.get();
    if (key.schedule->GetActiveRanks() != s.ranks.size())
    {
        m_memo.NotKeyed(); // a replay ends every rank's part; some ranks have none
        return;
    }
    key.entries.resize(s.ranks.size());
    for (uint32_t k = 0; k < s.ranks.size(); ++k)
    {
        Time at = now;
        if (m_jobs.size() > 1 || m_memo.IsRecording(j) ||
            (k != r && !KnownEntry(s, k, first.item, at)))
        {
            m_memo.NotKeyed();
            return;
        }
        key.entries[k] = (at - now).GetTimeStep();
    }
    for (const Ptr<RdmaQpCc>& cc : s.senderCc)
    {
        key.cc.push_back(cc ? cc->GetState()->m_rate.Get().GetBitRate() : 0);
        key.cc.push_back(cc ? cc->GetState()->m_window.Get() : 0);
    }
    const RdmaCollectiveMemo::Outcome* outcome = m_memo.Begin(j, key, now, CountsNow());
    if (!outcome)
    {
        s.recordingSeq = first.seq;
        return;
    }
    NS_LOG_INFO("job " << j << ": collective " << first.seq << " replayed");
    s.replay = outcome;
    s.replaySeq = first.seq;
    s.replayFirst = now;
    for (uint32_t k = 0; k < s.ranks.size(); ++k)
    {
        Simulator::ScheduleWithContext(m_hosts[s.ranks[k].host].ids->GetNode(),
                                       outcome->done[k],
                                       &RdmaCollectiveRunner::ReplayDone,
                                       this,
                                       j,
                                       k);
    }
}

void
RdmaCollectiveRunner::ReplayDone(uint32_t j, uint32_t r)
{
    JobState& s = m_jobs[j];
    Rank& rank = s.ranks[r];
    if (s.failed)
    {
        return;
    }
    if (!rank.replaying)
    {
        rank.replayDone = true; // its entry is an event of this same time, still to run
        return;
    }
    rank.replaying = false;
    const RdmaCollectiveSchedule& c = Current(j, r);
    for (uint32_t op : c.GetRecvs(r))
    {
        m_landedBytes += c.GetOps()[op].bytes;
    }
    SteadyDone(j, r); // done as a computed remainder is
}

RdmaSteadyCollective*
RdmaCollectiveRunner::Watched(uint32_t j, uint32_t r)
{
    JobState& s = m_jobs[j];
    return s.steady && s.ranks[r].inCollective && s.ranks[r].seq == s.steadySeq ? s.steady.get()
                                                                                 : nullptr;
}

void
RdmaCollectiveRunner::CheckSteady(uint32_t j)
{
    JobState& s = m_jobs[j];
    if (!s.steady)
    {
        return; // the collective ended (CheckRankDone)
    }
    if (!s.frozen && s.steady->IsSteady())
    {
        NS_LOG_INFO("job " << j << ": collective " << s.steadySeq << " steady");
        s.frozen = true;
    }
    if (!s.frozen || s.planned || s.steady->GetInFlight() > 0)
    {
        return;
    }
    s.planned = true;
    s.frozenAt = Simulator::Now();
    std::vector<bool> inside(s.ranks.size());
    for (uint32_t k = 0; k < s.ranks.size(); ++k)
    {
        inside[k] = s.ranks[k].inCollective && s.ranks[k].seq == s.steadySeq;
    }
    s.plan = s.steady->Extrapolate(Simulator::Now(), inside);
    if (m_counters && m_landedBytes > s.steadyLanded)
    {
        // The remainder counts what the simulated part counted per byte landed.
        RdmaStatsHelper::Counts simulated = CountsNow();
        simulated -= s.steadyCounts;
        m_counters->Credit(
            simulated.Scaled(double(s.plan.bytes) / double(m_landedBytes - s.steadyLanded)));
    }
    m_landedBytes += s.plan.bytes;
    for (uint32_t k = 0; k < s.ranks.size(); ++k)
    {
        if (inside[k])
        {
            Simulator::ScheduleWithContext(m_hosts[s.ranks[k].host].ids->GetNode(),
                                           s.plan.done[k] - Simulator::Now(),
                                           &RdmaCollectiveRunner::SteadyDone,
                                           this,
                                           j,
                                           k);
        }
    }
}

RdmaStatsHelper::Counts
RdmaCollectiveRunner::CountsNow() const
{
    return m_counters ? m_counters->GetCounts() : RdmaStatsHelper::Counts();
}

void
RdmaCollectiveRunner::SetCounters(RdmaStatsHelper* counters)
{
    m_counters = counters;
}

void
RdmaCollectiveRunner::SteadyDone(uint32_t j, uint32_t r)
{
    JobState& s = m_jobs[j];
    if (s.failed)
    {
        return;
    }
    Rank& rank = s.ranks[r];
    rank.sendsLeft = 0;
    rank.recvsLeft = 0;
    CheckRankDone(j, r);
}

} // namespace ns3
