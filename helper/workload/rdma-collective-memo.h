/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_COLLECTIVE_MEMO_H
#define RDMA_COLLECTIVE_MEMO_H

#include "ns3/nstime.h"
#include "ns3/rdma-collective-schedule.h"
#include "ns3/rdma-stats-helper.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The outcomes of collectives already simulated, by the state they
 * started from, so that one that starts again from the same state is
 * replayed instead of simulated (memoization of repeated contention
 * episodes: Long et al., "Supercharging Packet-level Network Simulation of
 * Large Model Training via Memoization and Fast-Forwarding", NSDI'26).
 *
 * "The same state" (Key) is: the same schedule (the same object: a job's
 * items share one schedule per distinct collective and group), each rank
 * entering it at the same offset from the first rank's entry, and every
 * sending QP of the job at the same congestion-control rate and window.
 * What the key leaves out, and what a replay therefore gets wrong, is the
 * state the key does not name: an algorithm's internal variables (DCQCN's
 * alpha, HPCC's reference window), the NIC caches' contents, and control
 * frames still on the wire when the collective starts. RdmaCollectiveRunner
 * measures where a collective may be keyed at all (its FastForward
 * attribute); sim.fastForward=check shows the error on the user's case.
 */
class RdmaCollectiveMemo
{
  public:
    /// What a collective started from.
    struct Key
    {
        const RdmaCollectiveSchedule* schedule{nullptr}; //!< the collective
        std::vector<int64_t> entries; //!< per rank: its entry after the first rank's, time steps
        std::vector<uint64_t> cc; //!< per sending QP of the job: rate (bit/s) and window (bytes)

        /// \param o another key \return whether this one orders before it
        bool operator<(const Key& o) const;
    };

    /// What it came to, as offsets from the first rank's entry.
    struct Outcome
    {
        std::vector<Time> done; //!< per rank: when it was done
        uint32_t lastSrc{0};    //!< the pair whose WRITE landed last: sender rank
        uint32_t lastDst{0};    //!< its receiver rank
        Time lastLanded;        //!< when it landed
        RdmaStatsHelper::Counts counts; //!< what it counted (frames, bytes, marks, ...)
    };

    /// What was skipped and why (summary.json's fast_forward block).
    struct Stats
    {
        uint64_t replayed{0};     //!< collectives replayed
        uint64_t recorded{0};     //!< collectives simulated and kept
        uint64_t notKept{0};      //!< simulated from a key, not kept: the next began first
        uint64_t notKeyed{0};     //!< simulated: a rank's entry was not known at the first's
        Time skipped;             //!< the replayed collectives' CCTs, summed
        uint64_t skippedBytes{0}; //!< the payload bytes they (and the steady ones') would have landed
        uint64_t steady{0};       //!< collectives whose steady remainder was computed
        Time steadySkipped;       //!< their time from the computation to their end, summed
    };

    /**
     * \brief A collective starts from a known state: its outcome if one is
     * kept (the caller replays it), else null and it is recorded.
     * \param job the job \param key the state \param first the first rank's entry
     * \param counts the run's counters then (RdmaStatsHelper::GetCounts; empty: none kept)
     * \return the outcome to replay, or null
     */
    const Outcome* Begin(uint32_t job,
                         const Key& key,
                         Time first,
                         const RdmaStatsHelper::Counts& counts);
    /// A collective starts from a state not known (it is simulated, not kept).
    void NotKeyed();
    /**
     * \brief A rank of the job's recorded collective is done.
     * \param job the job \param rank the rank \param now when
     */
    void RankDone(uint32_t job, uint32_t rank, Time now);
    /// A rank of the job entered the collective after the recorded one
    /// before that was over: the record is not kept. \param job the job
    void NextEntered(uint32_t job);
    /**
     * \brief The job's collective is over (every rank done): keep its record.
     * \param job the job \param lastSrc \param lastDst \param lastLanded the
     * pair whose WRITE landed last, and when (absolute)
     * \param counts the run's counters now (as given to Begin)
     */
    void Finish(uint32_t job,
                uint32_t lastSrc,
                uint32_t lastDst,
                Time lastLanded,
                const RdmaStatsHelper::Counts& counts);
    /**
     * \brief A replayed collective is over.
     * \param cct its CCT \param bytes its payload bytes
     */
    void Replayed(Time cct, uint64_t bytes);
    /**
     * \brief A collective's remainder was computed, not simulated (RdmaSteadyCollective).
     * \param time from the computation to its end \param bytes the payload bytes not simulated
     */
    void FastForwarded(Time time, uint64_t bytes);
    /// \return whether the job has a collective being recorded \param job the job
    bool IsRecording(uint32_t job) const;
    /// \return the counts
    const Stats& GetStats() const;
    /// \return outcomes kept
    uint64_t GetSize() const;

  private:
    /// A collective being simulated to be kept.
    struct Recording
    {
        Key key;              //!< its start
        Time first;           //!< the first rank's entry
        Outcome outcome;      //!< as it comes (counts: those at its start)
        bool clean{true};     //!< no rank entered the next collective before it was over
    };

    std::map<Key, Outcome> m_outcomes;          //!< by start
    std::map<uint32_t, Recording> m_recordings; //!< by job
    Stats m_stats;                              //!< counts
};

} // namespace ns3

#endif // RDMA_COLLECTIVE_MEMO_H
