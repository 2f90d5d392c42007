/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_RANK_SHARE_H
#define RDMA_RANK_SHARE_H

#include "ns3/nstime.h"
#include "ns3/rdma-collective-runner.h"
#include "ns3/rdma-flow.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-stats-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What one rank of a distributed run contributes to the outputs
 * (doc/mpi.rst, "Outputs"), packed as text for RdmaMpi::Gather and merged
 * at rank 0 into what a sequential run reports.
 *
 * A rank's nodes are the only ones that do anything there (the others are
 * inert copies), so its counters are its nodes' and the sums over ranks are
 * the run's; its pfc.csv and qlen.csv rows are its nodes' (a remote port's
 * queue is always empty, so Sample() records none). A flow's result is the
 * requester's rank's (where its completion arrives). A collective's and a
 * training iteration's records are the rank's job ranks' part
 * (RdmaCollectiveRunner::SetFarHosts), merged record by record.
 */
struct RdmaRankShare
{
    Time localDone;                  //!< this rank's flows all done (0: none or not all)
    bool allDone{false};             //!< this rank's flows all completed or failed
    uint64_t events{0};              //!< simulator events executed here
    double wallSeconds{0};           //!< wall time of the run here
    RdmaStatsHelper::Totals totals;  //!< fabric counters of its nodes
    RdmaQueuePair::Stats qps;        //!< its NICs' QP counters
    std::vector<uint32_t> flows;     //!< indices of the flows it owns (requester here)
    std::vector<RdmaFlowResult> results; //!< their results, same order
    std::string pfcRows;             //!< pfc.csv rows (no header)
    std::string qlenRows;            //!< qlen.csv rows (no header)
    /// Its job ranks' part of every collective one of them entered
    /// (RdmaCollectiveRunner::GetCollectiveRecords; schedules not packed)
    std::vector<RdmaCollectiveRecord> collectives;
    /// Its job ranks' part of every iteration one of them started
    std::vector<RdmaIterationRecord> iterations;

    /// \return the share as text (Unpack reads it back)
    std::string Pack() const;
    /**
     * \param text a Pack() result
     * \return the share
     * \throws std::runtime_error on text Pack did not write
     */
    static RdmaRankShare Unpack(const std::string& text);

    /**
     * \brief Merge every rank's share.
     * \param shares by rank
     * \param nFlows flows in the workload
     * \param[out] results one per flow, from its owner's share (default for
     *             flows no share owns)
     * \param jobs the training jobs (RdmaCollectiveRunner::GetJobs), whose
     *             schedules the merged collective records point to
     * \return the sums (counters, QP stats, events), pfc and qlen rows
     *         merged in time order (qlen: by time, node, port, class, the
     *         order of a sequential run's sampler); localDone the latest;
     *         allDone if every rank's is; wallSeconds the longest; the
     *         collective and iteration records of every share merged
     *         (RdmaCollectiveRecord::Merge, RdmaIterationRecord::Merge), by
     *         job, iteration and item as a sequential runner lists them
     */
    static RdmaRankShare Merge(const std::vector<RdmaRankShare>& shares,
                               uint32_t nFlows,
                               std::vector<RdmaFlowResult>& results,
                               const std::vector<RdmaJob>& jobs = {});

    /**
     * \param rows CSV rows whose first field is a time in ns
     * \param endNs the last time kept
     * \return the rows at or before endNs
     */
    static std::string RowsUntil(const std::string& rows, uint64_t endNs);
};

} // namespace ns3

#endif /* RDMA_RANK_SHARE_H */
