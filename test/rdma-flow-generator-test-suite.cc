/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Flow generators: Poisson arrivals at a target load (HPCC traffic_gen.py's
 * rule), incast, permutation, all-to-all, the operation mix, determinism.
 * Statistical checks state their bound (k standard deviations, computed
 * from the CDF or the binomial/multinomial model).
 */

#include "rdma-test-data.h"

#include "ns3/rdma-module.h"
#include "ns3/test.h"

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

using namespace ns3;

namespace
{

/// A CDF of the module's data/cdf folder.
RdmaFlowSizeCdf
Cdf(const std::string& name)
{
    return RdmaFlowSizeCdf::FromFile(rdmatest::DataPath("../../data/cdf/" + name));
}

/// Hosts 0 .. n-1.
std::vector<uint32_t>
Hosts(uint32_t n)
{
    std::vector<uint32_t> h(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        h[i] = i;
    }
    return h;
}

/// A generator on fixed streams.
Ptr<RdmaFlowGenerator>
Generator(int64_t stream)
{
    auto g = CreateObject<RdmaFlowGenerator>();
    g->AssignStreams(stream);
    return g;
}

/// Poisson arrivals: offered load, arrival count, destinations.
class PoissonLoadTestCase : public TestCase
{
  public:
    PoissonLoadTestCase()
        : TestCase("Poisson: offered bytes vs load x rate x time within 4 sigma of the compound "
                   "Poisson sum (traffic_gen.py rule), ~100k WebSearch flows")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowSizeCdf cdf = Cdf("WebSearch_distribution.txt");
        RdmaFlowGenerator::PoissonConfig c;
        c.hosts = Hosts(16);
        c.hostRate = DataRate("100Gbps");
        c.load = 0.3;
        c.start = Seconds(2);
        c.duration = Seconds(3);
        auto flows = Generator(1)->Poisson(c, cdf);
        // Mean gap avg x 8 / (rate x load): 1711250 x 8 / 30e9 = 456.33 us.
        double gap = cdf.GetMean() * 8 / (100e9 * 0.3);
        double lt = c.duration.GetSeconds() / gap; // arrivals per host in the window
        // traffic_gen.py emits an arrival only if the next one is in the
        // window too: E[max(K - 1, 0)] = lambda T - 1 + exp(-lambda T).
        double expectedFlows = 16 * (lt - 1 + std::exp(-lt));
        NS_TEST_EXPECT_MSG_EQ_TOL(double(flows.size()),
                                  expectedFlows,
                                  4 * std::sqrt(16 * lt),
                                  "flow count");
        double bytes = 0;
        std::map<uint32_t, uint32_t> perDst;
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const RdmaFlow& f = flows[i];
            bytes += f.size;
            perDst[f.dst]++;
            NS_TEST_ASSERT_MSG_NE(f.src, f.dst, "never to itself");
            NS_TEST_ASSERT_MSG_EQ(f.id, i, "ids in start order");
            NS_TEST_ASSERT_MSG_EQ(f.dport, 100, "background tag");
            NS_TEST_ASSERT_MSG_EQ((f.start >= c.start && f.start <= c.start + c.duration),
                                  true,
                                  "inside the window");
            if (i > 0)
            {
                NS_TEST_ASSERT_MSG_EQ((f.start >= flows[i - 1].start), true, "sorted");
            }
        }
        // Total bytes: a compound Poisson sum, variance N E[S^2]; the target is
        // load x rate x time per host (less the one arrival per host the rule drops).
        double e2 = 0;
        const auto& p = cdf.GetPoints();
        for (std::size_t i = 1; i < p.size(); ++i)
        {
            double a = p[i - 1].first;
            double b = p[i].first;
            e2 += (a * a + a * b + b * b) / 3 * (p[i].second - p[i - 1].second) / 100;
        }
        double expectedBytes = expectedFlows * cdf.GetMean();
        double sigma = std::sqrt(expectedFlows * e2);
        NS_TEST_EXPECT_MSG_EQ_TOL(bytes, expectedBytes, 4 * sigma, "offered bytes");
        double load = bytes * 8 / (16 * 100e9 * c.duration.GetSeconds());
        NS_TEST_EXPECT_MSG_EQ_TOL(load,
                                  0.3 * (lt - 1 + std::exp(-lt)) / lt,
                                  0.3 * 4 * sigma / expectedBytes,
                                  "offered load");
        // Destinations uniform: chi-square over 16 hosts (15 dof) below 37.7,
        // its p = 0.001 critical value.
        double chi2 = 0;
        double each = double(flows.size()) / 16;
        for (uint32_t h = 0; h < 16; ++h)
        {
            chi2 += (perDst[h] - each) * (perDst[h] - each) / each;
        }
        NS_TEST_EXPECT_MSG_LT(chi2, 37.7, "destination chi-square");
    }
};

/// Same streams, same flows; another stream, other flows.
class DeterminismTestCase : public TestCase
{
  public:
    DeterminismTestCase()
        : TestCase("same streams give the same workload, another stream another")
    {
    }

  private:
    static std::vector<RdmaFlow> Make(int64_t stream)
    {
        auto g = Generator(stream);
        g->SetOperationMix(1, 1, 1);
        RdmaFlowGenerator::PoissonConfig c;
        c.hosts = Hosts(8);
        c.duration = MilliSeconds(10);
        auto a = g->Poisson(c, Cdf("AliStorage2019.txt"));
        RdmaFlowGenerator::PatternConfig p;
        p.hosts = Hosts(8);
        p.size = 1000;
        auto b = g->Permutation(p, uint32_t(a.size()));
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }

    static bool Same(const std::vector<RdmaFlow>& x, const std::vector<RdmaFlow>& y)
    {
        if (x.size() != y.size())
        {
            return false;
        }
        for (std::size_t i = 0; i < x.size(); ++i)
        {
            if (x[i].src != y[i].src || x[i].dst != y[i].dst || x[i].size != y[i].size ||
                x[i].start != y[i].start || x[i].op != y[i].op)
            {
                return false;
            }
        }
        return true;
    }

    void DoRun() override
    {
        auto a = Make(11);
        NS_TEST_ASSERT_MSG_GT(a.size(), 1000u, "a real workload");
        NS_TEST_EXPECT_MSG_EQ(Same(a, Make(11)), true, "same streams");
        NS_TEST_EXPECT_MSG_EQ(Same(a, Make(12)), false, "other streams");
    }
};

/// Incast rounds.
class IncastTestCase : public TestCase
{
  public:
    IncastTestCase()
        : TestCase("incast: fanIn distinct senders, never the receiver, same set every round")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowGenerator::IncastConfig c;
        c.receiver = 3;
        c.hosts = Hosts(16);
        c.fanIn = 8;
        c.size = 64000;
        c.repeats = 4;
        c.interval = MicroSeconds(50);
        c.start = MilliSeconds(1);
        auto flows = Generator(3)->Incast(c, 100);
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 32u, "8 senders x 4 rounds");
        std::set<uint32_t> firstRound;
        for (uint32_t i = 0; i < flows.size(); ++i)
        {
            const RdmaFlow& f = flows[i];
            uint32_t round = i / 8;
            NS_TEST_EXPECT_MSG_EQ(f.id, 100 + i, "ids from firstId");
            NS_TEST_EXPECT_MSG_EQ(f.dst, 3u, "into the receiver");
            NS_TEST_EXPECT_MSG_NE(f.src, 3u, "receiver never sends");
            NS_TEST_EXPECT_MSG_EQ(f.size, 64000u, "size");
            NS_TEST_EXPECT_MSG_EQ(f.dport, 200, "incast tag");
            NS_TEST_EXPECT_MSG_EQ(f.start,
                                  MilliSeconds(1) + MicroSeconds(50) * round,
                                  "round start");
            if (round == 0)
            {
                firstRound.insert(f.src);
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(f.src, flows[i % 8].src, "same senders each round");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(firstRound.size(), 8u, "distinct senders");
        // Listed senders are used as given.
        c.senders = {5, 6, 7};
        c.repeats = 1;
        auto listed = Generator(3)->Incast(c);
        NS_TEST_ASSERT_MSG_EQ(listed.size(), 3u, "three listed senders");
        NS_TEST_EXPECT_MSG_EQ(listed[2].src, 7u, "in order");
        // Errors name the parameter.
        c.senders.clear();
        c.fanIn = 16;
        std::string e;
        try
        {
            Generator(3)->Incast(c);
        }
        catch (const std::runtime_error& x)
        {
            e = x.what();
        }
        NS_TEST_EXPECT_MSG_EQ(
            e,
            "incast: expected fanIn in 1..15 (hosts other than the receiver), got 16",
            e);
    }
};

/// Permutations and all-to-all.
class PatternsTestCase : public TestCase
{
  public:
    PatternsTestCase()
        : TestCase("permutation: each host sends once and receives once, never to itself; "
                   "all-to-all: every ordered pair once")
    {
    }

  private:
    void DoRun() override
    {
        auto g = Generator(5);
        RdmaFlowGenerator::PatternConfig c;
        c.hosts = Hosts(16);
        c.size = 2000000;
        std::set<std::vector<uint32_t>> seen;
        for (int run = 0; run < 50; ++run)
        {
            auto flows = g->Permutation(c);
            NS_TEST_ASSERT_MSG_EQ(flows.size(), 16u, "one flow per host");
            std::set<uint32_t> dsts;
            std::vector<uint32_t> map;
            for (uint32_t i = 0; i < 16; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(flows[i].src, i, "host order");
                NS_TEST_ASSERT_MSG_NE(flows[i].dst, i, "no fixed point");
                dsts.insert(flows[i].dst);
                map.push_back(flows[i].dst);
            }
            NS_TEST_ASSERT_MSG_EQ(dsts.size(), 16u, "each host receives once");
            seen.insert(map);
        }
        // 16! / e derangements: 50 draws repeating one would mean a broken stream.
        NS_TEST_EXPECT_MSG_EQ(seen.size(), 50u, "50 different permutations");
        c.hosts = Hosts(8);
        auto all = g->AllToAll(c);
        NS_TEST_ASSERT_MSG_EQ(all.size(), 56u, "8 x 7");
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        for (const RdmaFlow& f : all)
        {
            NS_TEST_EXPECT_MSG_NE(f.src, f.dst, "no self pair");
            pairs.insert({f.src, f.dst});
        }
        NS_TEST_EXPECT_MSG_EQ(pairs.size(), 56u, "each ordered pair once");
        c.hosts = {1};
        bool threw = false;
        try
        {
            g->AllToAll(c);
        }
        catch (const std::runtime_error& e)
        {
            threw = std::string(e.what()) == "all-to-all: expected at least 2 hosts, got 1";
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "one host is refused");
    }
};

/// Operation mix fractions.
class OpMixTestCase : public TestCase
{
  public:
    OpMixTestCase()
        : TestCase(
              "operation mix 2:1:1 gives WRITE, READ and SEND fractions within 4 binomial sigma")
    {
    }

  private:
    void DoRun() override
    {
        auto g = Generator(9);
        g->SetOperationMix(2, 1, 1);
        RdmaFlowGenerator::PatternConfig c;
        c.hosts = Hosts(64);
        c.size = 1000;
        auto flows = g->AllToAll(c);
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 4032u, "64 x 63");
        double n = flows.size();
        std::map<RdmaFlowOp, double> count;
        for (const RdmaFlow& f : flows)
        {
            count[f.op]++;
        }
        for (auto [op, p] : {std::make_pair(RdmaFlowOp::WRITE, 0.5),
                             {RdmaFlowOp::READ, 0.25},
                             {RdmaFlowOp::SEND, 0.25}})
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(count[op] / n,
                                      p,
                                      4 * std::sqrt(p * (1 - p) / n),
                                      RdmaFlowOpName(op));
        }
        bool threw = false;
        try
        {
            g->SetOperationMix(0, 0, 0);
        }
        catch (const std::runtime_error&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "an empty mix is refused");
        // Merge: sorted by start, ids renumbered.
        RdmaFlowGenerator::PatternConfig late = c;
        late.hosts = Hosts(4);
        late.start = MicroSeconds(5);
        RdmaFlowGenerator::PatternConfig early = late;
        early.start = MicroSeconds(1);
        auto merged = RdmaFlowGenerator::Merge({g->AllToAll(late), g->Permutation(early)});
        NS_TEST_ASSERT_MSG_EQ(merged.size(), 16u, "12 + 4");
        NS_TEST_EXPECT_MSG_EQ(merged[0].start, MicroSeconds(1), "earliest first");
        NS_TEST_EXPECT_MSG_EQ(merged[4].start, MicroSeconds(5), "then the later part");
        NS_TEST_EXPECT_MSG_EQ(merged[15].id, 15u, "renumbered");
    }
};

} // namespace

/// The flow-generator suite.
class RdmaFlowGeneratorTestSuite : public TestSuite
{
  public:
    RdmaFlowGeneratorTestSuite()
        : TestSuite("rdma-flow-generator", UNIT)
    {
        AddTestCase(new PoissonLoadTestCase, TestCase::QUICK);
        AddTestCase(new DeterminismTestCase, TestCase::QUICK);
        AddTestCase(new IncastTestCase, TestCase::QUICK);
        AddTestCase(new PatternsTestCase, TestCase::QUICK);
        AddTestCase(new OpMixTestCase, TestCase::QUICK);
    }
};

static RdmaFlowGeneratorTestSuite g_rdmaFlowGeneratorTestSuite; //!< registers the suite
