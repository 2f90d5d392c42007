/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FCT_STATS_H
#define RDMA_FCT_STATS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rdma-flow.h"
#include "ns3/rdma-path-mtu.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The ideal flow completion time: the time a flow of `size` bytes
 * takes alone on an idle path,
 *
 *   ideal = baseRtt + wire_bytes x 8 / bottleneck,
 *   wire_bytes = size + ceil(size / payloadBytes) x overheadBytes.
 *
 * This is the HPCC simulator's formula (its fct.txt ideal_fct_ns; HPCC
 * paper, section 5) with the per-packet overhead of the wire modelled here:
 * with the defaults, a RoCEv2 packet of an RC WRITE/SEND carries at most
 * payloadBytes = the 1024-byte path MTU and costs 82 bytes more on the wire
 * (Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble and SFD 8,
 * inter-frame gap 12; IEEE 802.3, IBA Annex A17). The RETH of a WRITE's
 * first packet and the AETH of READ responses are left out, so the ideal
 * stays a lower bound. HPCC's own values are payloadBytes 1000 (its
 * PACKET_PAYLOAD_SIZE) and overheadBytes 48 (Hpcc()).
 *
 * baseRtt and the bottleneck rate come from the topology (the topology
 * helper computes them per host pair): baseRtt is the round trip of the
 * path without the flow's own transmission; HPCC takes 2 x the sum of the
 * propagation delays plus one payload's serialization per hop. A flow whose
 * packets cross no switch (two hosts on one link) has baseRtt = 2 x the
 * link's propagation delay.
 */
struct RdmaIdealFct
{
    uint32_t payloadBytes{RdmaPathMtu::DEFAULT_BYTES}; //!< payload bytes per packet (the path MTU)
    uint32_t overheadBytes{82};  //!< wire bytes per packet beyond the payload

    /**
     * \param size flow bytes
     * \param baseRtt base round-trip time of the path
     * \param bottleneck smallest link rate on the path
     * \return the ideal FCT (rounded down to the time resolution)
     */
    Time Compute(uint64_t size, Time baseRtt, DataRate bottleneck) const;
    /// \return HPCC's constants: payload 1000 bytes, 48 header bytes per packet
    static RdmaIdealFct Hpcc();
};

/// The path of a host pair, as the ideal FCT needs it.
struct RdmaPathInfo
{
    Time baseRtt;        //!< base round-trip time
    DataRate bottleneck; //!< smallest link rate on the path
};

/// Gives the path between a source and a destination host.
using RdmaPathFunction = std::function<RdmaPathInfo(uint32_t src, uint32_t dst)>;

/**
 * \ingroup rdma
 * \brief One flow's row of fct.csv / fct.txt.
 */
struct RdmaFctRecord
{
    RdmaFlow flow;                       //!< the flow
    bool completed{false};               //!< a completion arrived
    RdmaWcStatus status{IBV_WC_SUCCESS}; //!< its status (valid if completed)
    uint32_t qpn{0};                     //!< requester QP
    Time fct;                            //!< completion - start (valid if completed)
    Time ideal;                          //!< ideal FCT
    double slowdown{0};                  //!< RdmaSlowdown(fct, ideal) (if successful)
    bool noQp{false};                    //!< never posted: no QP (RdmaFlowResult::noQp)
    /// Unfinished (no completion by the run's end, not failed): its slowdown
    /// is at least (end - start) / ideal, floored at 1; else 0.
    double slowdownAtLeast{0};

    /// \return completed with IBV_WC_SUCCESS
    bool Succeeded() const;
    /// \return completed with an error status, or never posted for want of a QP
    bool Failed() const;
    /**
     * \return the status column: the completion's status name (e.g.
     * "IBV_WC_SUCCESS"), "NO_QP" (CreateQp failed: ENOMEM) or "INCOMPLETE"
     */
    std::string StatusName() const;
    /// \return no completion arrived and none can be missing for want of a QP:
    /// the flow was still running when the run ended
    bool Unfinished() const;
};

/**
 * \param fct measured FCT
 * \param ideal ideal FCT (> 0)
 * \return fct / ideal, floored at 1 (the HPCC analysis scripts' convention)
 */
double RdmaSlowdown(Time fct, Time ideal);

/**
 * \brief Join flows with their results into FCT records.
 * \param flows the flows
 * \param results their results, same order and length
 * \param path the path of each (src, dst)
 * \param model the ideal-FCT constants
 * \param end when the run ended: an unfinished flow's slowdown is at least
 *        (end - start) / ideal (RdmaFctRecord::slowdownAtLeast)
 * \return one record per flow, in the flows' order
 */
std::vector<RdmaFctRecord> RdmaMakeFctRecords(const std::vector<RdmaFlow>& flows,
                                              const std::vector<RdmaFlowResult>& results,
                                              const RdmaPathFunction& path,
                                              const RdmaIdealFct& model,
                                              Time end = Time(0));

/**
 * \brief The p-th percentile by nearest rank: the ceil(p x n)-th smallest
 * value (p = 0 gives the smallest).
 * \param sorted values sorted ascending (not empty)
 * \param p fraction in [0, 1]
 * \return the value
 */
double RdmaPercentile(const std::vector<double>& sorted, double p);

/// Slowdown percentiles of the flows in one size range.
struct RdmaSlowdownBucket
{
    uint64_t minSize{0}; //!< smallest size in the bucket, bytes
    uint64_t maxSize{0}; //!< first size above it (exclusive), bytes
    uint32_t flows{0};   //!< successful flows in it
    /// median slowdown; NaN if the bucket has no flows (nothing was measured)
    double p50{std::numeric_limits<double>::quiet_NaN()};
    double p95{std::numeric_limits<double>::quiet_NaN()}; //!< 95th percentile (NaN: no flows)
    double p99{std::numeric_limits<double>::quiet_NaN()}; //!< 99th percentile (NaN: no flows)
    /// flows in it still running when the run ended (left out of the percentiles above)
    uint32_t unfinished{0};
    /// the smallest of their slowdown lower bounds: each is at least this (NaN: none)
    double unfinishedAtLeast{std::numeric_limits<double>::quiet_NaN()};
    /// Lower bounds on the percentiles of every flow that did not fail, the
    /// unfinished at their lower bounds (NaN without unfinished flows): the
    /// percentiles the run would show had it run until they finished are at
    /// least these.
    double p50AtLeast{std::numeric_limits<double>::quiet_NaN()};
    double p95AtLeast{std::numeric_limits<double>::quiet_NaN()}; //!< as p50AtLeast
    double p99AtLeast{std::numeric_limits<double>::quiet_NaN()}; //!< as p50AtLeast

    /// \return whether any flow was measured (else the percentiles are NaN)
    bool HasFlows() const
    {
        return flows > 0;
    }
};

/// Default bucket edges in bytes: <10 KB, 10-100 KB, 100 KB-1 MB, 1-10 MB, >= 10 MB.
std::vector<uint64_t> RdmaDefaultSizeBuckets();

/**
 * \brief Slowdown percentiles (nearest rank) per flow-size bucket, over the
 * flows that completed successfully; with the unfinished flows counted and
 * their lower bounds (RdmaSlowdownBucket::unfinished, p99AtLeast).
 * \param records the records
 * \param edges increasing bucket boundaries: bucket k holds sizes in
 *        [edges[k], edges[k+1]); the last bucket is [edges.back(), inf)
 * \return one bucket per edge (empty buckets included, with flows = 0)
 */
std::vector<RdmaSlowdownBucket> RdmaSlowdownPercentiles(
    const std::vector<RdmaFctRecord>& records,
    const std::vector<uint64_t>& edges = RdmaDefaultSizeBuckets());

} // namespace ns3

#endif // RDMA_FCT_STATS_H
