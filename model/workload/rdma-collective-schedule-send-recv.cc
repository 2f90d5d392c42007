/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaCollectiveSchedule's point-to-point transfers (kind SEND_RECV): a
// group of ncclSend and ncclRecv calls as one schedule.

#include "rdma-collective-schedule.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

RdmaCollectiveSchedule
RdmaCollectiveSchedule::PointToPoint(uint32_t ranks,
                                     const std::vector<Transfer>& transfers,
                                     uint32_t channels,
                                     uint64_t chunkBytes)
{
    if (ranks < 2 || channels < 1 || chunkBytes < 1 || transfers.empty())
    {
        throw std::invalid_argument("send-recv: expected at least 2 ranks, 1 channel, 1 byte "
                                    "per chunk and 1 transfer");
    }
    uint64_t largest = 0;
    for (std::size_t t = 0; t < transfers.size(); ++t)
    {
        const Transfer& x = transfers[t];
        const std::string name = "send-recv: transfer " + std::to_string(t) + " (rank " +
                                 std::to_string(x.src) + " to rank " + std::to_string(x.dst) +
                                 "): ";
        if (x.src >= ranks || x.dst >= ranks || x.src == x.dst)
        {
            throw std::invalid_argument(name + (x.src == x.dst
                                                    ? "a rank sending to itself"
                                                    : "a rank not below " + std::to_string(ranks)));
        }
        if (x.bytes < channels)
        {
            throw std::invalid_argument(name + std::to_string(x.bytes) +
                                        " bytes, fewer than the channels (" +
                                        std::to_string(channels) + ")");
        }
        for (uint32_t a : x.after)
        {
            if (a >= t || transfers[a].dst != x.src)
            {
                throw std::invalid_argument(name + "comes after transfer " + std::to_string(a) +
                                            ", which is not an earlier transfer to rank " +
                                            std::to_string(x.src));
            }
        }
        largest = std::max(largest, x.bytes);
    }
    RdmaCollectiveSchedule s(RdmaCollectiveKind::SEND_RECV,
                             RdmaCollectiveAlgorithm::DIRECT,
                             ranks,
                             largest,
                             channels,
                             chunkBytes);
    // Each transfer's operations, first and count; its step is one past the
    // latest step of the transfers it comes after.
    std::vector<std::pair<uint32_t, uint32_t>> opsOf(transfers.size());
    std::vector<uint32_t> stepOf(transfers.size(), 0);
    for (std::size_t t = 0; t < transfers.size(); ++t)
    {
        const Transfer& x = transfers[t];
        for (uint32_t a : x.after)
        {
            stepOf[t] = std::max(stepOf[t], stepOf[a] + 1);
        }
        const auto first = static_cast<uint32_t>(s.m_ops.size());
        for (uint32_t c = 0; c < channels; ++c)
        {
            const auto [at, length] = Part(x.bytes, channels, c);
            s.AddRange(x.src, x.dst, c, stepOf[t], at, length, false);
        }
        opsOf[t] = {first, static_cast<uint32_t>(s.m_ops.size()) - first};
        for (uint32_t a : x.after)
        {
            for (uint32_t i = first; i < first + opsOf[t].second; ++i)
            {
                for (uint32_t d = opsOf[a].first; d < opsOf[a].first + opsOf[a].second; ++d)
                {
                    s.m_extraDeps.emplace_back(i, d);
                }
            }
        }
    }
    s.m_depsGiven = true; // the transfers' order, not their byte ranges
    s.Finish();
    s.m_groupRanks = s.m_activeRanks;
    return s;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::SendRecvRing(uint32_t ranks,
                                     uint64_t bytes,
                                     uint32_t channels,
                                     uint64_t chunkBytes)
{
    std::vector<Transfer> transfers(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        transfers[r].src = r;
        transfers[r].dst = (r + 1) % ranks;
        transfers[r].bytes = bytes;
    }
    return PointToPoint(ranks, transfers, channels, chunkBytes);
}

uint32_t
RdmaCollectiveSchedule::GetActiveRanks() const
{
    return m_activeRanks;
}

bool
RdmaCollectiveSchedule::IsActive(uint32_t rank) const
{
    return !m_sends[rank].empty() || !m_recvs[rank].empty();
}

} // namespace ns3
