/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-fct-stats.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

Time
RdmaIdealFct::Compute(uint64_t size, Time baseRtt, DataRate bottleneck) const
{
    NS_ABORT_MSG_IF(payloadBytes == 0 || bottleneck.GetBitRate() == 0,
                    "RdmaIdealFct: payloadBytes and the bottleneck rate must be > 0");
    uint64_t packets = (size + payloadBytes - 1) / payloadBytes;
    auto bits = static_cast<unsigned __int128>(size + packets * overheadBytes) * 8;
    // Serialization in the simulator's time unit, exact integer arithmetic.
    auto unitsPerSecond =
        static_cast<unsigned __int128>(Time::FromInteger(1, Time::S).GetTimeStep());
    auto steps = bits * unitsPerSecond / bottleneck.GetBitRate();
    return baseRtt + TimeStep(static_cast<uint64_t>(steps));
}

RdmaIdealFct
RdmaIdealFct::Hpcc()
{
    return RdmaIdealFct{1000, 48};
}

bool
RdmaFctRecord::Succeeded() const
{
    return completed && status == IBV_WC_SUCCESS;
}

bool
RdmaFctRecord::Failed() const
{
    return (completed && !Succeeded()) || noQp;
}

bool
RdmaFctRecord::Unfinished() const
{
    return !completed && !noQp;
}

std::string
RdmaFctRecord::StatusName() const
{
    if (noQp)
    {
        return "NO_QP";
    }
    return completed ? RdmaWcStatusName(status) : std::string("INCOMPLETE");
}

double
RdmaSlowdown(Time fct, Time ideal)
{
    NS_ABORT_MSG_IF(!ideal.IsStrictlyPositive(), "RdmaSlowdown: the ideal FCT must be > 0");
    return std::max(1.0, double(fct.GetTimeStep()) / double(ideal.GetTimeStep()));
}

std::vector<RdmaFctRecord>
RdmaMakeFctRecords(const std::vector<RdmaFlow>& flows,
                   const std::vector<RdmaFlowResult>& results,
                   const RdmaPathFunction& path,
                   const RdmaIdealFct& model,
                   Time end)
{
    NS_ABORT_MSG_IF(flows.size() != results.size(),
                    "RdmaMakeFctRecords: " << flows.size() << " flows but " << results.size()
                                           << " results");
    std::vector<RdmaFctRecord> records(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        RdmaFctRecord& r = records[i];
        r.flow = flows[i];
        r.completed = results[i].completed;
        r.status = results[i].status;
        r.qpn = results[i].qpn;
        r.noQp = results[i].noQp;
        RdmaPathInfo p = path(flows[i].src, flows[i].dst);
        r.ideal = model.Compute(flows[i].size, p.baseRtt, p.bottleneck);
        if (r.completed)
        {
            r.fct = results[i].completion - flows[i].start;
        }
        if (r.Succeeded())
        {
            r.slowdown = RdmaSlowdown(r.fct, r.ideal);
        }
        else if (r.Unfinished())
        {
            r.slowdownAtLeast = RdmaSlowdown(std::max(Time(0), end - flows[i].start), r.ideal);
        }
    }
    return records;
}

double
RdmaPercentile(const std::vector<double>& sorted, double p)
{
    NS_ABORT_MSG_IF(sorted.empty(), "RdmaPercentile: no values");
    auto rank = static_cast<std::size_t>(std::ceil(p * sorted.size() - 1e-9));
    return sorted[rank == 0 ? 0 : std::min(rank, sorted.size()) - 1];
}

std::vector<uint64_t>
RdmaDefaultSizeBuckets()
{
    return {0, 10000, 100000, 1000000, 10000000};
}

std::vector<RdmaSlowdownBucket>
RdmaSlowdownPercentiles(const std::vector<RdmaFctRecord>& records,
                        const std::vector<uint64_t>& edges)
{
    NS_ABORT_MSG_IF(edges.empty() || !std::is_sorted(edges.begin(), edges.end()),
                    "RdmaSlowdownPercentiles: bucket edges must be increasing");
    std::vector<std::vector<double>> values(edges.size());
    std::vector<std::vector<double>> atLeast(edges.size()); // the unfinished' lower bounds
    for (const RdmaFctRecord& r : records)
    {
        if ((r.Succeeded() || r.Unfinished()) && r.flow.size >= edges.front())
        {
            auto k = std::upper_bound(edges.begin(), edges.end(), r.flow.size) - edges.begin() - 1;
            (r.Succeeded() ? values[k] : atLeast[k])
                .push_back(r.Succeeded() ? r.slowdown : r.slowdownAtLeast);
        }
    }
    std::vector<RdmaSlowdownBucket> buckets(edges.size());
    for (std::size_t k = 0; k < edges.size(); ++k)
    {
        RdmaSlowdownBucket& b = buckets[k];
        b.minSize = edges[k];
        b.maxSize = k + 1 < edges.size() ? edges[k + 1] : std::numeric_limits<uint64_t>::max();
        b.flows = static_cast<uint32_t>(values[k].size());
        if (!values[k].empty())
        {
            std::sort(values[k].begin(), values[k].end());
            b.p50 = RdmaPercentile(values[k], 0.50);
            b.p95 = RdmaPercentile(values[k], 0.95);
            b.p99 = RdmaPercentile(values[k], 0.99);
        }
        b.unfinished = static_cast<uint32_t>(atLeast[k].size());
        if (!atLeast[k].empty())
        {
            b.unfinishedAtLeast = *std::min_element(atLeast[k].begin(), atLeast[k].end());
            std::vector<double> all = values[k];
            all.insert(all.end(), atLeast[k].begin(), atLeast[k].end());
            std::sort(all.begin(), all.end());
            b.p50AtLeast = RdmaPercentile(all, 0.50);
            b.p95AtLeast = RdmaPercentile(all, 0.95);
            b.p99AtLeast = RdmaPercentile(all, 0.99);
        }
    }
    return buckets;
}

} // namespace ns3
