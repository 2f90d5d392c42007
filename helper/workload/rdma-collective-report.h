/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_COLLECTIVE_REPORT_H
#define RDMA_COLLECTIVE_REPORT_H

#include "rdma-collective-runner.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \return collectives.csv: one row per collective of each iteration of
 * each job that a rank entered, in job, iteration and item order:
 * job,iteration,item,group,layer,collective,algorithm,bytes,ranks,channels,
 * chunk_bytes,start_ns,end_ns,cct_ns,algbw_gbps,busbw_gbps,busbw_GBps,
 * slowest_src,slowest_dst,slowest_pair_ns,status. group and layer are a
 * workload file's (RdmaJobItem: TP, DP, EP or DP_EP, and "<layer> fwd|ig|wg";
 * empty for job.sequence); bytes is nccl-tests' size; algbw = bytes x 8 /
 * CCT and busbw = algbw x RdmaBusBandwidthFactor (nccl-tests'
 * definitions), in Gbit/s so that they compare with link rates, and busbw
 * also in GB/s as nccl-tests prints it (busbw_GBps = busbw_gbps / 8); the
 * slowest pair is the sender and receiver rank of the WRITE that landed
 * last (RdmaCollectiveRecord::lastSrc) and when, from start; status is
 * done, failed or incomplete (then end, CCT, the bandwidths and the pair
 * are empty).
 * \param records the runner's records (RdmaCollectiveRunner::GetCollectiveRecords)
 * \param jobs the jobs they ran (each record's item's group and layer)
 */
std::string RdmaFormatCollectivesCsv(const std::vector<RdmaCollectiveRecord>& records,
                                     const std::vector<RdmaJob>& jobs);

/**
 * \ingroup rdma
 * \return jobs.csv: one row per iteration of each job:
 * job,iteration,ranks,start_ns,end_ns,time_ns,compute_ns,comm_ns,
 * exposed_comm_share,status; comm = time - compute (the model does not
 * overlap them), exposed_comm_share = comm / time; status done or
 * incomplete (then end and the times are empty).
 * \param iterations the runner's records (RdmaCollectiveRunner::GetIterationRecords)
 * \param jobs the jobs (for their ranks)
 */
std::string RdmaFormatJobsCsv(const std::vector<RdmaIterationRecord>& iterations,
                              const std::vector<RdmaJob>& jobs);

/**
 * \ingroup rdma
 * \brief The collectives of one kind, algorithm, size and rank count,
 * over every job and iteration: what summary.json's collectives block and
 * the printed summary give.
 */
struct RdmaCollectiveGroup
{
    std::string collective; //!< its name
    std::string algorithm;  //!< its algorithm
    uint64_t bytes{0};      //!< nccl-tests' size
    uint32_t ranks{0};      //!< n
    uint32_t done{0};       //!< completed
    uint32_t notDone{0};    //!< failed or incomplete
    double cctMeanNs{0};    //!< mean CCT of those done
    double cctP50Ns{0};     //!< median (nearest rank)
    double cctP99Ns{0};     //!< 99th percentile (nearest rank)
    double cctMaxNs{0};     //!< largest
    double algBwGbps{0};    //!< mean algbw
    double busBwGbps{0};    //!< mean busbw
};

/**
 * \return the groups, in the order of their first record
 * \param records the runner's records
 */
std::vector<RdmaCollectiveGroup> RdmaGroupCollectives(
    const std::vector<RdmaCollectiveRecord>& records);

/**
 * \ingroup rdma
 * \brief One job's iterations, summed up.
 */
struct RdmaJobFigures
{
    uint32_t job{0};                //!< index
    uint32_t ranks{0};              //!< ranks
    uint32_t iterations{0};         //!< iterations it was to run
    uint32_t done{0};               //!< iterations completed
    double iterationMeanNs{0};      //!< mean iteration time of those done
    double iterationMaxNs{0};       //!< largest
    double exposedCommShare{0};     //!< mean of comm / time
};

/**
 * \return one entry per job \param iterations the runner's records
 * \param jobs the jobs
 */
std::vector<RdmaJobFigures> RdmaSumJobs(const std::vector<RdmaIterationRecord>& iterations,
                                        const std::vector<RdmaJob>& jobs);

/// \return the records every rank finished \param records collective records
uint64_t RdmaCountCompleted(const std::vector<RdmaCollectiveRecord>& records);

/// \return the jobs in which a WRITE failed (a record marked failed)
/// \param records collective records
uint64_t RdmaCountFailedJobs(const std::vector<RdmaCollectiveRecord>& records);

/**
 * \return the printed summary's lines for the collectives and jobs
 * \param groups RdmaGroupCollectives \param jobs RdmaSumJobs
 * \param total collectives to run \param done collectives completed
 */
std::vector<std::string> RdmaCollectiveSummaryText(const std::vector<RdmaCollectiveGroup>& groups,
                                                   const std::vector<RdmaJobFigures>& jobs,
                                                   uint64_t total,
                                                   uint64_t done);

} // namespace ns3

#endif // RDMA_COLLECTIVE_REPORT_H
