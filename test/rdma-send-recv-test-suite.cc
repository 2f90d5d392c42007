/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Point-to-point transfers (ncclSend and ncclRecv, a Chakra trace's
 * COMM_SEND_NODE and COMM_RECV_NODE) as schedules of RDMA WRITEs
 * (RdmaCollectiveSchedule::PointToPoint): the operations and what each
 * waits for, nccl-tests' sendrecv as a collective, the shapes refused; then
 * on a star of RDMA NICs (RdmaCollectiveRunner): a rank with no transfer in
 * a step goes on at once and is not one of the step's ranks, and a rank
 * that forwards what it received sends only once it has landed.
 */

#include "rdma-test-data.h"
#include "rdma-test-star.h"

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>

using namespace ns3;

namespace
{

using Kind = RdmaCollectiveKind;
using Algorithm = RdmaCollectiveAlgorithm;
using Transfer = RdmaCollectiveSchedule::Transfer;
using rdmatest::StarJob;

/// \return a transfer \param src sender \param dst receiver \param bytes its size
/// \param after the transfers it comes after
Transfer
Xfer(uint32_t src, uint32_t dst, uint64_t bytes, std::vector<uint32_t> after = {})
{
    Transfer t;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.after = std::move(after);
    return t;
}

/// The operations of transfers: parts per channel, chunks, and the order.
class PointToPointTestCase : public TestCase
{
  public:
    PointToPointTestCase()
        : TestCase("PointToPoint: each transfer S over c per channel in chunks, a forwarded "
                   "transfer waits for every chunk of the one it forwards and for nothing "
                   "else; ranks without a transfer are not active")
    {
    }

  private:
    void DoRun() override
    {
        // 0 -> 1, then 1 forwards to 2; 2 channels of 1500 bytes, chunks of
        // at most 1000: two chunks of 750 per channel.
        const auto s =
            RdmaCollectiveSchedule::PointToPoint(4,
                                                 {Xfer(0, 1, 3000), Xfer(1, 2, 3000, {0})},
                                                 2,
                                                 1000);
        NS_TEST_EXPECT_MSG_EQ(RdmaCollectiveName(s.GetKind()), std::string("send-recv"), "kind");
        NS_TEST_EXPECT_MSG_EQ(RdmaCollectiveAlgorithmName(s.GetAlgorithm()),
                              std::string("direct"),
                              "algorithm");
        NS_TEST_ASSERT_MSG_EQ(s.GetOps().size(), 8u, "2 transfers x 2 channels x 2 chunks");
        NS_TEST_EXPECT_MSG_EQ(s.GetBytes(), 3000u, "the largest transfer");
        NS_TEST_EXPECT_MSG_EQ(s.GetActiveRanks(), 3u, "ranks 0, 1 and 2");
        NS_TEST_EXPECT_MSG_EQ(s.GetGroupRanks(), 3u, "nccl-tests' n: the active ranks");
        NS_TEST_EXPECT_MSG_EQ(s.IsActive(3), false, "rank 3 has nothing to do");
        NS_TEST_EXPECT_MSG_EQ(s.GetBytesSent(0), 3000u, "rank 0 sends its transfer");
        NS_TEST_EXPECT_MSG_EQ(s.GetBytesSent(1), 3000u, "rank 1 forwards it");
        NS_TEST_EXPECT_MSG_EQ(s.GetBytesSent(2), 0u, "rank 2 only receives");
        for (uint32_t i = 0; i < 8; ++i)
        {
            const auto& op = s.GetOps()[i];
            NS_TEST_EXPECT_MSG_EQ(op.bytes, 750u, "op " << i << ": a chunk of 750 bytes");
            NS_TEST_EXPECT_MSG_EQ(op.reduce, false, "nothing reduced");
            if (i < 4)
            {
                NS_TEST_EXPECT_MSG_EQ(op.src, 0u, "transfer 0 from rank 0");
                NS_TEST_EXPECT_MSG_EQ(s.GetDeps(i).size(), 0u, "transfer 0 waits for nothing");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(op.src, 1u, "transfer 1 from rank 1");
                std::vector<uint32_t> deps(s.GetDeps(i).begin(), s.GetDeps(i).end());
                NS_TEST_EXPECT_MSG_EQ((deps == std::vector<uint32_t>{0, 1, 2, 3}),
                                      true,
                                      "op " << i << " waits for every chunk of transfer 0");
            }
        }

        // nccl-tests' sendrecv: rank r sends S to r + 1, busbw = algbw.
        const auto ring =
            RdmaCollectiveSchedule::Build(Kind::SEND_RECV, Algorithm::DIRECT, 4, 4096, 1, 1024);
        NS_TEST_EXPECT_MSG_EQ(ring.GetActiveRanks(), 4u, "every rank");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(ring.GetBytesSent(r), 4096u, "each rank sends S");
            NS_TEST_EXPECT_MSG_EQ(ring.GetOps()[ring.GetSends(r).front()].dst,
                                  (r + 1) % 4,
                                  "to its successor");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(RdmaBusBandwidthFactor(Kind::SEND_RECV, 4), 1.0, 1e-12, "1");
    }
};

/// Transfers that cannot be a schedule are refused, naming the transfer.
class PointToPointErrorTestCase : public TestCase
{
  public:
    PointToPointErrorTestCase()
        : TestCase("PointToPoint refused: a rank sending to itself or out of range, fewer bytes "
                   "than channels, coming after a transfer not earlier or not to the sender")
    {
    }

  private:
    void DoRun() override
    {
        const auto error = [](std::vector<Transfer> transfers) {
            return rdmatest::ErrorOf<std::invalid_argument>(
                [&] { RdmaCollectiveSchedule::PointToPoint(3, transfers, 2, 1024); });
        };
        const std::vector<std::pair<std::vector<Transfer>, std::string>> cases{
            {{Xfer(1, 1, 64)},
             "send-recv: transfer 0 (rank 1 to rank 1): a rank sending to itself"},
            {{Xfer(0, 3, 64)}, "send-recv: transfer 0 (rank 0 to rank 3): a rank not below 3"},
            {{Xfer(0, 1, 1)},
             "send-recv: transfer 0 (rank 0 to rank 1): 1 bytes, fewer than the "
             "channels (2)"},
            {{Xfer(0, 1, 64, {1}), Xfer(1, 0, 64)},
             "send-recv: transfer 0 (rank 0 to rank 1): comes after transfer 1, which is not an "
             "earlier transfer to rank 0"},
            {{Xfer(0, 1, 64), Xfer(2, 1, 64, {0})},
             "send-recv: transfer 1 (rank 2 to rank 1): comes after transfer 0, which is not an "
             "earlier transfer to rank 2"},
        };
        for (const auto& [transfers, expected] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(error(transfers), expected, "refused");
        }
    }
};

/// \return a point-to-point step as a job item \param n ranks \param transfers its transfers
RdmaJobItem
Step(uint32_t n, std::vector<Transfer> transfers)
{
    RdmaJobItem item;
    item.collective = std::make_shared<const RdmaCollectiveSchedule>(
        RdmaCollectiveSchedule::PointToPoint(n, transfers, 1, 65536));
    return item;
}

/// \return a compute gap \param perRank each rank's time
RdmaJobItem
Gap(std::vector<Time> perRank)
{
    RdmaJobItem item;
    item.compute = *std::max_element(perRank.begin(), perRank.end());
    item.rankCompute = std::move(perRank);
    return item;
}

/**
 * A rank with nothing in a step is not one of its ranks: rank 2 comes to
 * the send at 0, ranks 0 and 1 after 10 us of compute; the send starts at
 * 10 us (its first rank's entry, as a collective's does) and has 2 ranks.
 */
class RunnerPassThroughTestCase : public TestCase
{
  public:
    RunnerPassThroughTestCase()
        : TestCase("runner: a rank with no transfer, or in no group of a grouped collective, "
                   "goes on at once; the record starts at its own ranks' entry and counts "
                   "them only")
    {
    }

  private:
    void DoRun() override
    {
        {
            RdmaJob job;
            job.items.push_back(Gap({MicroSeconds(10), MicroSeconds(10), Time(0)}));
            job.items.push_back(Step(3, {Xfer(0, 1, 1 << 20)}));
            StarJob run(3, job);
            NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one send");
            const RdmaCollectiveRecord& r = run.records[0];
            NS_TEST_EXPECT_MSG_EQ(r.completed, true, "done");
            NS_TEST_EXPECT_MSG_EQ(r.start, MicroSeconds(10), "started when its ranks came to it");
            NS_TEST_EXPECT_MSG_EQ(r.ranksEntered, 2u, "its two ranks entered");
            NS_TEST_EXPECT_MSG_EQ(r.ranksDone, 2u, "its two ranks done");
            NS_TEST_EXPECT_MSG_EQ(r.lastSrc, 0u, "from rank 0");
            NS_TEST_EXPECT_MSG_EQ(r.lastDst, 1u, "to rank 1");
            NS_TEST_EXPECT_MSG_EQ(run.runner->GetLandedBytes(), uint64_t(1) << 20, "landed once");
            NS_TEST_ASSERT_MSG_EQ(run.iterations.size(), 1u, "one iteration");
            NS_TEST_EXPECT_MSG_EQ(run.iterations[0].completed, true, "every rank finished it");
            NS_TEST_EXPECT_MSG_EQ(run.iterations[0].end, r.end, "ending with the send");
        }

        // The same for a collective whose groups leave a rank out (a
        // Grouped schedule): rank 2, in no group, came to it first and
        // used to set its start and count among its ranks.
        RdmaJob grouped;
        grouped.items.push_back(Gap({MicroSeconds(10), MicroSeconds(10), Time(0)}));
        RdmaJobItem ar;
        ar.collective = std::make_shared<const RdmaCollectiveSchedule>(
            RdmaCollectiveSchedule::Grouped(RdmaCollectiveSchedule::Build(Kind::ALL_REDUCE,
                                                                          Algorithm::RING,
                                                                          2,
                                                                          1 << 20,
                                                                          1,
                                                                          65536),
                                            {{0, 1}},
                                            3));
        grouped.items.push_back(ar);
        StarJob g(3, grouped);
        NS_TEST_ASSERT_MSG_EQ(g.records.size(), 1u, "one all-reduce");
        NS_TEST_EXPECT_MSG_EQ(g.records[0].start, MicroSeconds(10), "its group's entry");
        NS_TEST_EXPECT_MSG_EQ(g.records[0].ranksDone, 2u, "its group's two ranks");
        NS_TEST_EXPECT_MSG_EQ(g.records[0].completed, true, "done");
    }
};

/**
 * Store and forward: rank 1 forwards what rank 0 sent it only once all of
 * it has landed, so the two hops take twice one hop's time (the star's
 * links are idle: each hop is the same transfer over the same path length).
 */
class RunnerForwardTestCase : public TestCase
{
  public:
    RunnerForwardTestCase()
        : TestCase("runner: a forwarded transfer waits for the one it forwards: two hops "
                   "of 1 MiB take twice one hop, within 2 %")
    {
    }

  private:
    void DoRun() override
    {
        Time one;
        {
            RdmaJob job;
            job.items.push_back(Step(3, {Xfer(0, 1, 1 << 20)}));
            StarJob run(3, job);
            NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one hop");
            one = run.records[0].GetCct();
        }
        RdmaJob job;
        job.items.push_back(Step(3, {Xfer(0, 1, 1 << 20), Xfer(1, 2, 1 << 20, {0})}));
        StarJob run(3, job);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1u, "one step");
        const RdmaCollectiveRecord& r = run.records[0];
        NS_TEST_EXPECT_MSG_EQ(r.ranksDone, 3u, "three ranks");
        NS_TEST_EXPECT_MSG_EQ(r.lastDst, 2u, "the last to land is the forwarded one");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.GetCct().GetSeconds(),
                                  2 * one.GetSeconds(),
                                  0.02 * 2 * one.GetSeconds(),
                                  "two hops, one after the other");
    }
};

/// Point-to-point schedules and their runs.
class RdmaSendRecvTestSuite : public TestSuite
{
  public:
    RdmaSendRecvTestSuite()
        : TestSuite("rdma-send-recv", UNIT)
    {
        AddTestCase(new PointToPointTestCase(), TestCase::QUICK);
        AddTestCase(new PointToPointErrorTestCase(), TestCase::QUICK);
        AddTestCase(new RunnerPassThroughTestCase(), TestCase::QUICK);
        AddTestCase(new RunnerForwardTestCase(), TestCase::QUICK);
    }
};

RdmaSendRecvTestSuite g_rdmaSendRecvTestSuite; //!< static instance

} // namespace
