/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-collective-memo.h"

#include <tuple>

namespace ns3
{

bool
RdmaCollectiveMemo::Key::operator<(const Key& o) const
{
    return std::tie(schedule, entries, cc) < std::tie(o.schedule, o.entries, o.cc);
}

const RdmaCollectiveMemo::Outcome*
RdmaCollectiveMemo::Begin(uint32_t job,
                          const Key& key,
                          Time first,
                          const RdmaStatsHelper::Counts& counts)
{
    const auto it = m_outcomes.find(key);
    if (it != m_outcomes.end())
    {
        return &it->second;
    }
    Recording& r = m_recordings[job];
    r.key = key;
    r.first = first;
    r.outcome = Outcome();
    r.outcome.done.assign(key.entries.size(), Time());
    r.outcome.counts = counts;
    r.clean = true;
    return nullptr;
}

void
RdmaCollectiveMemo::NotKeyed()
{
    ++m_stats.notKeyed;
}

void
RdmaCollectiveMemo::RankDone(uint32_t job, uint32_t rank, Time now)
{
    Recording& r = m_recordings.at(job);
    r.outcome.done.at(rank) = now - r.first;
}

void
RdmaCollectiveMemo::NextEntered(uint32_t job)
{
    m_recordings.at(job).clean = false;
}

void
RdmaCollectiveMemo::Finish(uint32_t job,
                           uint32_t lastSrc,
                           uint32_t lastDst,
                           Time lastLanded,
                           const RdmaStatsHelper::Counts& counts)
{
    const auto it = m_recordings.find(job);
    Recording& r = it->second;
    if (r.clean)
    {
        r.outcome.lastSrc = lastSrc;
        r.outcome.lastDst = lastDst;
        r.outcome.lastLanded = lastLanded - r.first;
        const RdmaStatsHelper::Counts atStart = r.outcome.counts;
        r.outcome.counts = counts;
        r.outcome.counts -= atStart;
        m_outcomes.emplace(r.key, r.outcome);
        ++m_stats.recorded;
    }
    else
    {
        ++m_stats.notKept;
    }
    m_recordings.erase(it);
}

void
RdmaCollectiveMemo::Replayed(Time cct, uint64_t bytes)
{
    ++m_stats.replayed;
    m_stats.skipped += cct;
    m_stats.skippedBytes += bytes;
}

void
RdmaCollectiveMemo::FastForwarded(Time time, uint64_t bytes)
{
    ++m_stats.steady;
    m_stats.steadySkipped += time;
    m_stats.skippedBytes += bytes;
}

bool
RdmaCollectiveMemo::IsRecording(uint32_t job) const
{
    return m_recordings.count(job) != 0;
}

const RdmaCollectiveMemo::Stats&
RdmaCollectiveMemo::GetStats() const
{
    return m_stats;
}

uint64_t
RdmaCollectiveMemo::GetSize() const
{
    return m_outcomes.size();
}

} // namespace ns3
