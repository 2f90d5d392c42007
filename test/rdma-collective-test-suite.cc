/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Collectives as schedules of RDMA WRITE-with-immediate operations
 * (RdmaCollectiveSchedule), checked without a network: the step and byte
 * counts each algorithm's paper gives, and that the dependencies the
 * schedule derives are enough: running the operations in any order that
 * honours them (random orders, seeded) leaves every rank with the
 * collective's result, counted per contributor so that a contribution
 * summed twice or missed fails. Then the engine (RdmaCollectiveRunner) on
 * a star of RDMA NICs: every WRITE lands once, collectives that run ahead
 * of their receiver are kept until it gets there, and the reduction costs
 * what the gamma term of the alpha-beta-gamma model says.
 */

#include "rdma-test-star.h"

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

using namespace ns3;

namespace
{

using Kind = RdmaCollectiveKind;
using Algorithm = RdmaCollectiveAlgorithm;

/// \return "all-reduce ring n=8 S=..." \param k kind \param a algorithm
/// \param n ranks \param s bytes \param c channels \param chunk chunk bytes
std::string
Describe(Kind k, Algorithm a, uint32_t n, uint64_t s, uint32_t c, uint64_t chunk)
{
    return std::string(RdmaCollectiveName(k)) + " " + RdmaCollectiveAlgorithmName(a) +
           " n=" + std::to_string(n) + " S=" + std::to_string(s) + " channels=" +
           std::to_string(c) + " chunk=" + std::to_string(chunk);
}

/**
 * Ring all-reduce (Patarasuk and Yuan, JPDC 2009): 2(n-1) steps, in each
 * every rank sends S/n (one segment) to its successor, 2(n-1)S/n in all;
 * ring all-gather and reduce-scatter: n-1 such steps; halving-doubling
 * (Thakur, Rabenseifner and Gropp 2005): 2 log2 n steps, S/2^(k+1) in
 * halving step k, 2(n-1)S/n in all; pairwise all-to-all: n-1 steps of S/n;
 * broadcast chain: n-1 hops of S.
 */
class StepCountTestCase : public TestCase
{
  public:
    StepCountTestCase()
        : TestCase("step and byte counts: ring all-reduce 2(n-1) steps of S over n per rank "
                   "(Patarasuk-Yuan), all-gather and reduce-scatter n-1, halving-doubling "
                   "2 log2 n (Thakur-Rabenseifner-Gropp), all-to-all n-1 of S over n, "
                   "broadcast n-1 hops")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2u, 3u, 8u, 16u})
        {
            const uint64_t s = 1200 * n; // S/n = 1200, one chunk per step
            const auto ring = RdmaCollectiveSchedule::Build(Kind::ALL_REDUCE,
                                                            Algorithm::RING,
                                                            n,
                                                            s,
                                                            1,
                                                            s);
            NS_TEST_ASSERT_MSG_EQ(ring.GetSteps(), 2 * (n - 1), "ring all-reduce steps");
            NS_TEST_ASSERT_MSG_EQ(ring.GetOps().size(), uint64_t(2 * (n - 1) * n), "one op each");
            for (const auto& op : ring.GetOps())
            {
                NS_TEST_ASSERT_MSG_EQ(op.bytes, s / n, "each step sends S/n");
                NS_TEST_ASSERT_MSG_EQ(op.dst, (op.src + 1) % n, "to the successor");
                NS_TEST_ASSERT_MSG_EQ(op.reduce, (op.step < n - 1), "reduce-scatter, then gather");
            }
            for (uint32_t r = 0; r < n; ++r)
            {
                NS_TEST_ASSERT_MSG_EQ(ring.GetBytesSent(r), 2 * (n - 1) * s / n, "2(n-1)S/n");
            }
            for (Kind k : {Kind::ALL_GATHER, Kind::REDUCE_SCATTER})
            {
                const auto half = RdmaCollectiveSchedule::Build(k, Algorithm::RING, n, s, 1, s);
                NS_TEST_ASSERT_MSG_EQ(half.GetSteps(), n - 1, RdmaCollectiveName(k));
                for (uint32_t r = 0; r < n; ++r)
                {
                    NS_TEST_ASSERT_MSG_EQ(half.GetBytesSent(r), (n - 1) * s / n, "(n-1)S/n");
                }
            }
            const auto a2a = RdmaCollectiveSchedule::Build(Kind::ALL_TO_ALL,
                                                           Algorithm::PAIRWISE,
                                                           n,
                                                           s,
                                                           1,
                                                           s);
            NS_TEST_ASSERT_MSG_EQ(a2a.GetSteps(), n - 1, "all-to-all steps");
            std::set<std::pair<uint32_t, uint32_t>> pairs;
            for (const auto& op : a2a.GetOps())
            {
                NS_TEST_ASSERT_MSG_EQ(op.dst, (op.src + op.step + 1) % n, "step k to r + k");
                NS_TEST_ASSERT_MSG_EQ(op.bytes, s / n, "S/n to each peer");
                pairs.emplace(op.src, op.dst);
            }
            NS_TEST_ASSERT_MSG_EQ(pairs.size(), uint64_t(n) * (n - 1), "every ordered pair once");
            const auto bcast = RdmaCollectiveSchedule::Build(Kind::BROADCAST,
                                                             Algorithm::RING,
                                                             n,
                                                             s,
                                                             1,
                                                             s / 4);
            NS_TEST_ASSERT_MSG_EQ(bcast.GetSteps(), n - 1, "broadcast hops");
            NS_TEST_ASSERT_MSG_EQ(bcast.GetBytesSent(0), s, "the root sends S");
            NS_TEST_ASSERT_MSG_EQ(bcast.GetBytesSent(n - 1), 0, "the chain's end sends nothing");
            NS_TEST_ASSERT_MSG_EQ(bcast.GetSends(0).size(), 4, "S in chunks of S/4");
            if ((n & (n - 1)) == 0)
            {
                const auto hd = RdmaCollectiveSchedule::Build(Kind::ALL_REDUCE,
                                                              Algorithm::HALVING_DOUBLING,
                                                              n,
                                                              s,
                                                              1,
                                                              s);
                uint32_t levels = 0;
                while ((1u << levels) < n)
                {
                    ++levels;
                }
                NS_TEST_ASSERT_MSG_EQ(hd.GetSteps(), 2 * levels, "2 log2 n steps");
                for (const auto& op : hd.GetOps())
                {
                    const uint32_t k = op.step < levels ? op.step : 2 * levels - 1 - op.step;
                    NS_TEST_ASSERT_MSG_EQ(op.bytes, (s >> (k + 1)), "S/2^(k+1)");
                }
                for (uint32_t r = 0; r < n; ++r)
                {
                    NS_TEST_ASSERT_MSG_EQ(hd.GetBytesSent(r), 2 * (n - 1) * s / n, "2(n-1)S/n");
                }
            }
        }
    }
};

/// Ring all-reduce's dependencies are the ring's: step k+1's chunk j at rank
/// r waits for step k's chunk j from r - 1, nothing else; channels and
/// chunks multiply the operations.
class RingDependencyTestCase : public TestCase
{
  public:
    RingDependencyTestCase()
        : TestCase("ring all-reduce: step k+1's chunk waits for step k's same chunk from the "
                   "predecessor (NCCL's ring pipeline)")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 5;
        const uint32_t channels = 2;
        const uint64_t s = 5 * 2 * 3 * 100; // 3 chunks of 100 per segment
        const auto ring =
            RdmaCollectiveSchedule::Build(Kind::ALL_REDUCE, Algorithm::RING, n, s, channels, 100);
        NS_TEST_ASSERT_MSG_EQ(ring.GetOps().size(), uint64_t(2 * (n - 1) * n * channels * 3),
                              "steps x ranks x channels x chunks");
        const auto& ops = ring.GetOps();
        for (uint32_t i = 0; i < ops.size(); ++i)
        {
            const auto deps = ring.GetDeps(i);
            if (ops[i].step == 0)
            {
                NS_TEST_ASSERT_MSG_EQ(deps.size(), 0, "step 0 sends the rank's own data");
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(deps.size(), 1, "one chunk to forward");
            const auto& d = ops[*deps.begin()];
            NS_TEST_ASSERT_MSG_EQ(d.dst, ops[i].src, "received by the sender");
            NS_TEST_ASSERT_MSG_EQ(d.src, (ops[i].src + n - 1) % n, "from the predecessor");
            NS_TEST_ASSERT_MSG_EQ(d.step + 1, ops[i].step, "in the step before");
            NS_TEST_ASSERT_MSG_EQ(d.offset, ops[i].offset, "the same chunk");
            NS_TEST_ASSERT_MSG_EQ(d.bytes, ops[i].bytes, "the same chunk");
            NS_TEST_ASSERT_MSG_EQ(d.channel, ops[i].channel, "on the same channel");
        }
    }
};

/// NCCL's double binary tree (trees.cc): tree 1 mirrors tree 0 for even n,
/// so every rank is inside one tree and a leaf of the other; each rank has
/// at most two children.
class DoubleTreeTestCase : public TestCase
{
  public:
    DoubleTreeTestCase()
        : TestCase("double binary tree (Sanders-Speck-Traeff; NCCL trees.cc): at most 2 "
                   "children, even n: each rank inside exactly one tree; 2(n-1)S bytes on the "
                   "wire as the ring")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2u, 5u, 8u, 14u, 16u})
        {
            const uint64_t s = 64 * n;
            const auto t = RdmaCollectiveSchedule::Build(Kind::ALL_REDUCE,
                                                         Algorithm::TREE,
                                                         n,
                                                         s,
                                                         1,
                                                         s);
            // Up-phase operations (reduce) of each tree half: child -> parent.
            std::vector<uint32_t> children[2];
            std::vector<uint32_t> parents[2];
            for (int h = 0; h < 2; ++h)
            {
                children[h].assign(n, 0);
                parents[h].assign(n, 0);
            }
            uint64_t wire = 0;
            for (const auto& op : t.GetOps())
            {
                wire += op.bytes;
                if (op.reduce)
                {
                    const int h = op.offset == 0 ? 0 : 1;
                    ++children[h][op.dst];
                    ++parents[h][op.src];
                }
            }
            NS_TEST_ASSERT_MSG_EQ(wire, 2 * uint64_t(n - 1) * s, "2(n-1)S on the wire");
            for (int h = 0; h < 2; ++h)
            {
                uint32_t roots = 0;
                for (uint32_t r = 0; r < n; ++r)
                {
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(children[h][r], 2, "binary");
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(parents[h][r], 1, "one parent");
                    roots += parents[h][r] == 0;
                }
                NS_TEST_ASSERT_MSG_EQ(roots, 1, "one root per tree");
            }
            if (n % 2 == 0)
            {
                for (uint32_t r = 0; r < n; ++r)
                {
                    const bool inner0 = children[0][r] > 0;
                    const bool inner1 = children[1][r] > 0;
                    NS_TEST_ASSERT_MSG_NE(inner0,
                                          inner1,
                                          "rank " << r << " of " << n
                                                  << " is inside exactly one tree");
                }
            }
        }
    }
};

/**
 * Runs a schedule without a network: operations in a random order that
 * honours the dependencies; each rank's buffer counts, per byte, how many
 * times each rank's data is in it (a reduce adds the sender's counts, a
 * plain WRITE replaces them). The result must be the collective's.
 */
class DataFlowTestCase : public TestCase
{
  public:
    /// \param k kind \param a algorithm \param n ranks \param s bytes
    /// \param channels channels \param chunk chunk bytes
    DataFlowTestCase(Kind k, Algorithm a, uint32_t n, uint64_t s, uint32_t channels, uint64_t chunk)
        : TestCase("dependencies suffice, any order: " + Describe(k, a, n, s, channels, chunk)),
          m_kind(k),
          m_algorithm(a),
          m_ranks(n),
          m_bytes(s),
          m_channels(channels),
          m_chunk(chunk)
    {
    }

  private:
    void DoRun() override
    {
        const auto sched = RdmaCollectiveSchedule::Build(m_kind,
                                                         m_algorithm,
                                                         m_ranks,
                                                         m_bytes,
                                                         m_channels,
                                                         m_chunk);
        const uint32_t n = m_ranks;
        const uint64_t s = m_bytes;
        const auto& ops = sched.GetOps();
        // Which segment each byte belongs to (ring segments, per channel part).
        std::vector<uint32_t> segmentOf(s);
        for (uint32_t c = 0; c < m_channels; ++c)
        {
            const uint64_t partAt = c * (s / m_channels) + std::min<uint64_t>(c, s % m_channels);
            const uint64_t part = s / m_channels + (c < s % m_channels ? 1 : 0);
            for (uint32_t g = 0; g < n; ++g)
            {
                const uint64_t at = g * (part / n) + std::min<uint64_t>(g, part % n);
                const uint64_t len = part / n + (g < part % n ? 1 : 0);
                for (uint64_t b = 0; b < len; ++b)
                {
                    segmentOf[partAt + at + b] = g;
                }
            }
        }
        for (uint32_t seed = 1; seed <= 3; ++seed)
        {
            // counts[rank][byte * n + contributor]
            std::vector<std::vector<uint8_t>> counts(n, std::vector<uint8_t>(s * n, 0));
            for (uint32_t r = 0; r < n; ++r)
            {
                for (uint64_t b = 0; b < s; ++b)
                {
                    const bool own = m_kind == Kind::ALL_GATHER ? segmentOf[b] == r
                                     : m_kind == Kind::BROADCAST ? r == 0
                                                                 : true;
                    counts[r][b * n + r] = own ? 1 : 0;
                }
            }
            std::vector<uint32_t> waiting(ops.size());
            std::vector<uint32_t> ready;
            for (uint32_t i = 0; i < ops.size(); ++i)
            {
                waiting[i] = sched.GetDeps(i).size();
                if (waiting[i] == 0)
                {
                    ready.push_back(i);
                }
            }
            std::mt19937 rng(seed);
            uint32_t done = 0;
            while (!ready.empty())
            {
                std::uniform_int_distribution<std::size_t> pick(0, ready.size() - 1);
                const std::size_t at = pick(rng);
                const uint32_t i = ready[at];
                ready.erase(ready.begin() + at);
                const auto& op = ops[i];
                for (uint64_t b = op.offset; b < op.offset + op.bytes; ++b)
                {
                    for (uint32_t q = 0; q < n; ++q)
                    {
                        uint8_t& to = counts[op.dst][b * n + q];
                        const uint8_t from = counts[op.src][b * n + q];
                        to = op.reduce ? uint8_t(to + from) : from;
                    }
                }
                ++done;
                for (uint32_t d : sched.GetDependents(i))
                {
                    if (--waiting[d] == 0)
                    {
                        ready.push_back(d);
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(done, ops.size(), "every operation ran (no cycle)");
            for (uint32_t r = 0; r < n; ++r)
            {
                for (uint64_t b = 0; b < s; ++b)
                {
                    const bool mine = m_kind != Kind::REDUCE_SCATTER || segmentOf[b] == (r + 1) % n;
                    if (!mine)
                    {
                        continue;
                    }
                    for (uint32_t q = 0; q < n; ++q)
                    {
                        const uint8_t want = m_kind == Kind::ALL_GATHER ? segmentOf[b] == q
                                             : m_kind == Kind::BROADCAST ? q == 0
                                                                         : 1;
                        NS_TEST_ASSERT_MSG_EQ(unsigned(counts[r][b * n + q]),
                                              unsigned(want),
                                              "rank " << r << " byte " << b << " holds rank " << q
                                                      << "'s data " << unsigned(counts[r][b * n + q])
                                                      << " times (seed " << seed << ")");
                    }
                }
            }
        }
    }

    Kind m_kind;              //!< collective
    Algorithm m_algorithm;    //!< algorithm
    uint32_t m_ranks;         //!< n
    uint64_t m_bytes;         //!< S
    uint32_t m_channels;      //!< channels
    uint64_t m_chunk;         //!< chunk bytes
};

/// Bad shapes are refused with the reason.
class ScheduleErrorTestCase : public TestCase
{
  public:
    ScheduleErrorTestCase()
        : TestCase("refused: an algorithm the collective has not, halving-doubling on 6 ranks, "
                   "fewer bytes than ranks x channels, one rank")
    {
    }

  private:
    void DoRun() override
    {
        const auto error = [](Kind k, Algorithm a, uint32_t n, uint64_t s, uint32_t c) {
            try
            {
                RdmaCollectiveSchedule::Build(k, a, n, s, c, 1024);
            }
            catch (const std::invalid_argument& e)
            {
                return std::string(e.what());
            }
            return std::string();
        };
        NS_TEST_EXPECT_MSG_NE(error(Kind::ALL_TO_ALL, Algorithm::RING, 4, 4096, 1)
                                  .find("no such algorithm for all-to-all: expected pairwise"),
                              std::string::npos,
                              "all-to-all has no ring");
        NS_TEST_EXPECT_MSG_NE(error(Kind::ALL_REDUCE, Algorithm::HALVING_DOUBLING, 6, 4096, 1)
                                  .find("power-of-two"),
                              std::string::npos,
                              "halving-doubling needs 2^k ranks");
        NS_TEST_EXPECT_MSG_NE(error(Kind::ALL_REDUCE, Algorithm::RING, 8, 15, 2)
                                  .find("at least ranks x channels = 16 bytes"),
                              std::string::npos,
                              "a byte per rank and channel");
        NS_TEST_EXPECT_MSG_NE(error(Kind::BROADCAST, Algorithm::RING, 1, 4096, 1)
                                  .find("at least 2 ranks"),
                              std::string::npos,
                              "one rank");
    }
};

/// nccl-tests' bus bandwidth factors (doc/PERFORMANCE.md).
class BusBandwidthTestCase : public TestCase
{
  public:
    BusBandwidthTestCase()
        : TestCase("busbw factors (nccl-tests PERFORMANCE.md): 2(n-1) over n all-reduce, "
                   "(n-1) over n all-gather, reduce-scatter, all-to-all, 1 broadcast")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ_TOL(RdmaBusBandwidthFactor(Kind::ALL_REDUCE, 8), 1.75, 1e-12, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(RdmaBusBandwidthFactor(Kind::ALL_GATHER, 8), 0.875, 1e-12, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(RdmaBusBandwidthFactor(Kind::REDUCE_SCATTER, 4), 0.75, 1e-12, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(RdmaBusBandwidthFactor(Kind::ALL_TO_ALL, 2), 0.5, 1e-12, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(RdmaBusBandwidthFactor(Kind::BROADCAST, 16), 1.0, 1e-12, "");
    }
};

/// The schedule suite: no network.
class RdmaCollectiveScheduleTestSuite : public TestSuite
{
  public:
    RdmaCollectiveScheduleTestSuite()
        : TestSuite("rdma-collective-schedule", UNIT)
    {
        AddTestCase(new StepCountTestCase(), TestCase::QUICK);
        AddTestCase(new RingDependencyTestCase(), TestCase::QUICK);
        AddTestCase(new DoubleTreeTestCase(), TestCase::QUICK);
        AddTestCase(new BusBandwidthTestCase(), TestCase::QUICK);
        AddTestCase(new ScheduleErrorTestCase(), TestCase::QUICK);
        // Uneven sizes, several chunks and channels.
        AddTestCase(new DataFlowTestCase(Kind::ALL_REDUCE, Algorithm::RING, 5, 203, 2, 7),
                    TestCase::QUICK);
        AddTestCase(new DataFlowTestCase(Kind::ALL_REDUCE, Algorithm::TREE, 7, 203, 2, 9),
                    TestCase::QUICK);
        AddTestCase(new DataFlowTestCase(Kind::ALL_REDUCE, Algorithm::TREE, 8, 160, 1, 6),
                    TestCase::QUICK);
        AddTestCase(new DataFlowTestCase(Kind::ALL_REDUCE,
                                         Algorithm::HALVING_DOUBLING,
                                         8,
                                         203,
                                         2,
                                         5),
                    TestCase::QUICK);
        AddTestCase(new DataFlowTestCase(Kind::ALL_GATHER, Algorithm::RING, 6, 131, 1, 4),
                    TestCase::QUICK);
        AddTestCase(new DataFlowTestCase(Kind::REDUCE_SCATTER, Algorithm::RING, 6, 131, 3, 4),
                    TestCase::QUICK);
        AddTestCase(new DataFlowTestCase(Kind::BROADCAST, Algorithm::RING, 6, 131, 2, 8),
                    TestCase::QUICK);
    }
};

RdmaCollectiveScheduleTestSuite g_rdmaCollectiveScheduleTestSuite; //!< static instance

using rdmatest::StarJob;

/// \return a shared schedule \param k kind \param a algorithm \param n ranks
/// \param s bytes \param c channels \param chunk chunk bytes
std::shared_ptr<const RdmaCollectiveSchedule>
Schedule(Kind k, Algorithm a, uint32_t n, uint64_t s, uint32_t c, uint64_t chunk)
{
    return std::make_shared<const RdmaCollectiveSchedule>(
        RdmaCollectiveSchedule::Build(k, a, n, s, c, chunk));
}

/// Every WRITE of every collective lands once and every rank finishes each
/// collective and iteration, in order.
class RunnerCompletesTestCase : public TestCase
{
  public:
    RunnerCompletesTestCase()
        : TestCase("runner: an iteration of ring all-reduce, compute, all-to-all and tree "
                   "all-reduce, 3 times on 6 ranks: every WRITE lands once, every collective "
                   "and iteration done in order")
    {
    }

  private:
    void DoRun() override
    {
        RdmaJob job;
        job.iterations = 3;
        job.items.push_back({Schedule(Kind::ALL_REDUCE, Algorithm::RING, 6, 600000, 2, 65536), {}, {}, {}});
        job.items.push_back({nullptr, MicroSeconds(20), {}, {}});
        job.items.push_back({Schedule(Kind::ALL_TO_ALL, Algorithm::PAIRWISE, 6, 60000, 1, 4096), {}, {}, {}});
        job.items.push_back({Schedule(Kind::ALL_REDUCE, Algorithm::TREE, 6, 300000, 1, 32768), {}, {}, {}});
        StarJob run(6, job);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 9, "3 collectives x 3 iterations");
        NS_TEST_ASSERT_MSG_EQ(run.runner->GetCompletedCount(), 9, "all done");
        NS_TEST_ASSERT_MSG_EQ(run.runner->GetLandedBytes(), run.runner->GetTotalBytes(),
                              "every WRITE landed once");
        Time previous(0);
        for (const auto& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.completed, true, "collective " << r.item << " done");
            NS_TEST_ASSERT_MSG_EQ(r.ranksDone, 6, "every rank");
            NS_TEST_ASSERT_MSG_GT(r.end, r.start, "it took time");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r.end, previous, "in order");
            previous = r.end;
        }
        NS_TEST_ASSERT_MSG_EQ(run.iterations.size(), 3, "3 iterations");
        for (const auto& it : run.iterations)
        {
            NS_TEST_ASSERT_MSG_EQ(it.completed, true, "iteration done");
            NS_TEST_ASSERT_MSG_EQ(it.compute, MicroSeconds(20), "its compute");
            NS_TEST_ASSERT_MSG_GT(it.GetTime(), MicroSeconds(20), "longer than its compute");
        }
        // The receivers' QPs: one completion per WRITE, none refused (RNR).
        uint64_t rnr = 0;
        for (const auto& nic : run.star->nics)
        {
            rnr += nic->GetQpStatsTotal().rnrNakSent;
        }
        NS_TEST_ASSERT_MSG_EQ(rnr, 0, "receives kept posted");
    }
};

/// A broadcast root has nothing to wait for: it runs collectives ahead of
/// the chain, whose WRITEs reach ranks still forwarding an earlier one.
class RunnerEarlyArrivalTestCase : public TestCase
{
  public:
    RunnerEarlyArrivalTestCase()
        : TestCase("runner: 20 broadcasts back to back, the root ahead of the chain: WRITEs for "
                   "a later collective wait for their rank, every broadcast done")
    {
    }

  private:
    void DoRun() override
    {
        RdmaJob job;
        job.iterations = 20;
        job.items.push_back({Schedule(Kind::BROADCAST, Algorithm::RING, 5, 200000, 1, 8192), {}, {}, {}});
        StarJob run(5, job);
        NS_TEST_ASSERT_MSG_EQ(run.runner->GetCompletedCount(), 20, "all done");
        NS_TEST_ASSERT_MSG_EQ(run.runner->GetLandedBytes(), run.runner->GetTotalBytes(), "landed");
        bool overlap = false;
        for (std::size_t i = 1; i < run.records.size(); ++i)
        {
            overlap = overlap || run.records[i].start < run.records[i - 1].end;
        }
        NS_TEST_ASSERT_MSG_EQ(overlap, true, "a broadcast started before the previous ended");
    }
};

/**
 * The reduction (Thakur, Rabenseifner and Gropp 2005, the gamma term): a
 * ring all-reduce reduces (n-1) chunks of S/n per rank one after another,
 * so with one WRITE per step its CCT grows by (n-1) S/n x 8 / ReduceRate
 * when the rate drops.
 */
class RunnerReductionTestCase : public TestCase
{
  public:
    RunnerReductionTestCase()
        : TestCase("runner: ring all-reduce CCT grows by the gamma term (n-1) S over n at "
                   "ReduceRate (Thakur-Rabenseifner-Gropp), within 1 %")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t s = 4 * 100000;
        RdmaJob job;
        job.items.push_back({Schedule(Kind::ALL_REDUCE, Algorithm::RING, n, s, 1, s / n), {}, {}, {}});
        Time fast;
        Time slow;
        {
            StarJob run(n, job, "100000Gbps");
            fast = run.records.at(0).GetCct();
        }
        {
            StarJob run(n, job, "10Gbps");
            slow = run.records.at(0).GetCct();
        }
        const double gamma = (n - 1) * double(s / n) * 8 / 10e9 - (n - 1) * double(s / n) * 8 / 100e12;
        NS_TEST_EXPECT_MSG_EQ_TOL((slow - fast).GetSeconds(), gamma, gamma * 0.01, "gamma term");
    }
};

/// \return whether two runs' records say the same: start, end, the last pair and its landing
/// \param a one run's \param b the other's
bool
SameRecords(const std::vector<RdmaCollectiveRecord>& a, const std::vector<RdmaCollectiveRecord>& b)
{
    if (a.size() != b.size())
    {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        if (a[i].start != b[i].start || a[i].end != b[i].end || a[i].lastSrc != b[i].lastSrc ||
            a[i].lastDst != b[i].lastDst || a[i].lastLanded != b[i].lastLanded ||
            a[i].completed != b[i].completed)
        {
            return false;
        }
    }
    return true;
}

/**
 * FastForward (RdmaCollectiveMemo): an iteration of ring all-reduce and a
 * compute gap, 5 times on a star. Every rank of a ring finishes at once, so
 * each all-reduce starts with every rank entering at once and every QP at
 * line rate: the first iteration is simulated and kept, the other four
 * replayed, with the records of a run that simulates all five.
 */
class RunnerFastForwardTestCase : public TestCase
{
  public:
    RunnerFastForwardTestCase()
        : TestCase("runner: FastForward replays the 4 repeats of a ring all-reduce from the "
                   "same state; records equal a run without it, the bytes counted as landed")
    {
    }

  private:
    void DoRun() override
    {
        RdmaJob job;
        job.iterations = 5;
        job.items.push_back({Schedule(Kind::ALL_REDUCE, Algorithm::RING, 4, 400000, 1, 65536), {}, {}, {}});
        job.items.push_back({nullptr, MicroSeconds(20), {}, {}});
        std::vector<RdmaCollectiveRecord> simulated;
        Time jobEnd;
        {
            StarJob run(4, job);
            simulated = run.records;
            jobEnd = run.iterations.at(4).end;
            NS_TEST_ASSERT_MSG_EQ(run.runner->GetFastForwardStats().replayed, 0, "off: none");
        }
        StarJob run(4, job, "4000Gbps", true);
        const RdmaCollectiveMemo::Stats& ff = run.runner->GetFastForwardStats();
        NS_TEST_ASSERT_MSG_EQ(ff.recorded, 1, "the first kept");
        NS_TEST_ASSERT_MSG_EQ(ff.replayed, 4, "the four repeats replayed");
        NS_TEST_ASSERT_MSG_EQ(ff.skippedBytes, 4 * run.runner->GetTotalBytes() / 5, "their bytes");
        NS_TEST_ASSERT_MSG_EQ(ff.skipped, 4 * simulated.at(0).GetCct(), "their CCTs");
        NS_TEST_ASSERT_MSG_EQ(SameRecords(run.records, simulated), true, "the same records");
        NS_TEST_ASSERT_MSG_EQ(run.runner->GetLandedBytes(), run.runner->GetTotalBytes(),
                              "replayed WRITEs count as landed");
        NS_TEST_ASSERT_MSG_EQ(run.iterations.at(4).end, jobEnd, "the job's end");
    }
};

/**
 * A broadcast root runs collectives ahead of the chain (RunnerEarlyArrival):
 * each broadcast starts while ranks are still inside the one before, so
 * none has a known start and none is replayed; the results are those of a
 * run without FastForward.
 */
class RunnerFastForwardOverlapTestCase : public TestCase
{
  public:
    RunnerFastForwardOverlapTestCase()
        : TestCase("runner: FastForward replays nothing whose ranks' entries are not known "
                   "(broadcasts that overlap); records equal a run without it")
    {
    }

  private:
    void DoRun() override
    {
        RdmaJob job;
        job.iterations = 20;
        job.items.push_back({Schedule(Kind::BROADCAST, Algorithm::RING, 5, 200000, 1, 8192), {}, {}, {}});
        std::vector<RdmaCollectiveRecord> simulated;
        {
            StarJob run(5, job);
            simulated = run.records;
        }
        StarJob run(5, job, "4000Gbps", true);
        const RdmaCollectiveMemo::Stats& ff = run.runner->GetFastForwardStats();
        NS_TEST_ASSERT_MSG_EQ(ff.replayed, 0, "nothing replayed");
        NS_TEST_ASSERT_MSG_EQ(ff.recorded + ff.notKept + ff.notKeyed, 20, "each accounted for");
        NS_TEST_ASSERT_MSG_EQ(SameRecords(run.records, simulated), true, "the same records");
    }
};

/**
 * FastForward through a steady state (RdmaSteadyCollective): a ring
 * all-reduce of 8 MiB in 64 KiB chunks on a star of 4 hosts lands 192
 * chunks per rank, one every 64 KiB at the port's payload rate once the
 * ring is full, so after 16 landings of one rate its remainder is computed:
 * the CCT is the simulated one within 0.1 %, and every byte counts as landed.
 */
class RunnerSteadyTestCase : public TestCase
{
  public:
    RunnerSteadyTestCase()
        : TestCase("runner: FastForward computes a steady ring all-reduce's remainder; CCT "
                   "within 0.1 % of simulating it, the bytes counted as landed")
    {
    }

  private:
    void DoRun() override
    {
        RdmaJob job;
        job.items.push_back(
            {Schedule(Kind::ALL_REDUCE, Algorithm::RING, 4, 8 << 20, 1, 65536), {}, {}, {}});
        Time simulated;
        {
            StarJob run(4, job);
            simulated = run.records.at(0).GetCct();
        }
        StarJob run(4, job, "4000Gbps", true);
        const RdmaCollectiveMemo::Stats& ff = run.runner->GetFastForwardStats();
        NS_TEST_ASSERT_MSG_EQ(ff.steady, 1, "steady");
        NS_TEST_ASSERT_MSG_GT(ff.steadySkipped, simulated / 2, "most of it computed");
        NS_TEST_ASSERT_MSG_EQ(run.records.at(0).completed, true, "done");
        NS_TEST_EXPECT_MSG_EQ_TOL(run.records.at(0).GetCct().GetSeconds(),
                                  simulated.GetSeconds(),
                                  simulated.GetSeconds() * 1e-3,
                                  "the simulated CCT");
        NS_TEST_ASSERT_MSG_EQ(run.runner->GetLandedBytes(), run.runner->GetTotalBytes(),
                              "every byte landed");
        // Watched: rings (each rank hears one rank); not a tree (a parent and two children).
        NS_TEST_ASSERT_MSG_EQ(RdmaSteadyCollective::IsStream(*job.items[0].collective), true,
                              "a ring is one stream per rank");
        NS_TEST_ASSERT_MSG_EQ(
            RdmaSteadyCollective::IsStream(*Schedule(Kind::ALL_REDUCE, Algorithm::TREE, 7, 1 << 20, 1, 65536)),
            false,
            "a tree is not");
    }
};

/// The engine suite: collectives on a star of RDMA NICs.
class RdmaCollectiveRunnerTestSuite : public TestSuite
{
  public:
    RdmaCollectiveRunnerTestSuite()
        : TestSuite("rdma-collective-runner", SYSTEM)
    {
        AddTestCase(new RunnerCompletesTestCase(), TestCase::QUICK);
        AddTestCase(new RunnerEarlyArrivalTestCase(), TestCase::QUICK);
        AddTestCase(new RunnerReductionTestCase(), TestCase::QUICK);
        AddTestCase(new RunnerFastForwardTestCase(), TestCase::QUICK);
        AddTestCase(new RunnerFastForwardOverlapTestCase(), TestCase::QUICK);
        AddTestCase(new RunnerSteadyTestCase(), TestCase::QUICK);
    }
};

RdmaCollectiveRunnerTestSuite g_rdmaCollectiveRunnerTestSuite; //!< static instance

} // namespace
