/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The rank maps of distributed runs (RdmaPartition, doc/mpi.rst) and the
// merge of the ranks' outputs (RdmaRankShare): the rules' placements, the
// refusals of bad input, and pack/merge giving a sequential run's figures.

#include "rdma-test-data.h"

#include "ns3/rdma-collective-schedule.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-hpcc-topology-reader.h"
#include "ns3/rdma-memory-estimate.h"
#include "ns3/rdma-partition.h"
#include "ns3/rdma-rank-share.h"
#include "ns3/rdma-topology-helper.h"
#include "ns3/test.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return a fat tree of arity k with 1 us links
RdmaTopologySpec
FatTree(uint32_t k)
{
    RdmaLinkParams l;
    return RdmaTopologySpec::FatTree(k, l, l, l);
}

using rdmatest::ErrorOf;

/**
 * \brief Write a file.
 * \param path where
 * \param text what
 * \return path
 */
std::string
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
    return path;
}

/**
 * \ingroup rdma-tests
 * \brief Fat tree by pod: k = 4 on 2 ranks puts pods 0-1 (hosts 0-7, their
 * edge and aggregation switches) on rank 0, pods 2-3 on rank 1, and the 4
 * cores alternately; only aggregation-core links cross (8 of them).
 */
class FatTreeByPodTestCase : public TestCase
{
  public:
    FatTreeByPodTestCase()
        : TestCase("fat-tree k=4 on 2 ranks: by pod, cores spread")
    {
    }

  private:
    void DoRun() override
    {
        const RdmaTopologySpec t = FatTree(4);
        const RdmaPartition p = RdmaPartition::FatTreeByPod(t, 4, 2);
        // Node ids: hosts 0-15, edges 16-23, aggregations 24-31, cores 32-35.
        for (uint32_t h = 0; h < 16; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(p.rankOf[h], (h < 8 ? 0u : 1u), "host " << h);
        }
        for (uint32_t s = 16; s < 32; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(p.rankOf[s], ((s % 8) < 4 ? 0u : 1u), "switch " << s);
        }
        for (uint32_t c = 32; c < 36; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(p.rankOf[c], c % 2, "core " << c);
        }
        // Each aggregation switch has 2 core links; half of them cross.
        NS_TEST_EXPECT_MSG_EQ(p.crossLinks, 8u, "links between ranks");
        NS_TEST_EXPECT_MSG_EQ(p.lookahead, MicroSeconds(1), "the links' delay");
        NS_TEST_EXPECT_MSG_EQ(p.GetNodesPerRank()[0], 18u, "nodes on rank 0");
        // More ranks than pods: by ToR (8 edge switches), still balanced.
        const RdmaPartition q = RdmaPartition::FatTreeByPod(t, 4, 8);
        for (uint32_t h = 0; h < 16; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(q.rankOf[h], h / 2, "host " << h << " with its edge");
        }
    }
};

/**
 * What one rank builds (RdmaTopologyHelper::BuildsLink, RdmaTopologyHelper under
 * MPI) and the memory estimate of that part (RdmaMemoryEstimate::CountPart):
 * k=4 fat tree by pod on 2 ranks.
 */
class RankPartTestCase : public TestCase
{
  public:
    RankPartTestCase()
        : TestCase("a rank builds its hosts, its switches and the links with an end on it; "
                   "its estimate counts those")
    {
    }

  private:
    void DoRun() override
    {
        const RdmaTopologySpec t = FatTree(4);
        const RdmaPartition p = RdmaPartition::FatTreeByPod(t, 4, 2);
        std::vector<uint32_t> builtOn(t.links.size(), 0);
        for (uint32_t r = 0; r < 2; ++r)
        {
            std::vector<bool> node(t.GetNNodes());
            for (uint32_t n = 0; n < node.size(); ++n)
            {
                node[n] = p.rankOf[n] == r;
            }
            std::vector<bool> link(t.links.size());
            for (uint32_t l = 0; l < link.size(); ++l)
            {
                link[l] = RdmaTopologyHelper::BuildsLink(p.rankOf, r, t.links[l]);
                builtOn[l] += link[l];
                NS_TEST_EXPECT_MSG_EQ(link[l],
                                      node[t.links[l].a] || node[t.links[l].b],
                                      "rank " << r << ", link " << l);
            }
            const auto c =
                RdmaMemoryEstimate::CountPart(RdmaMemoryEstimate::Count(t, {}, false), t, node, link);
            // 2 pods: their 8 hosts, 2 edge and 2 aggregation switches
            // each, and 2 of the 4 cores; the 8 host links of its pods, their
            // 8 edge-aggregation links, the 8 aggregation-core links of its
            // aggregation switches and 4 from the other pods' to its cores;
            // route next hops per host: 1 per edge, 2 per aggregation and per
            // core switch (GetRouteHops' rule), 16 hosts.
            NS_TEST_EXPECT_MSG_EQ(c.hosts, 8u, "rank " << r << ": hosts");
            NS_TEST_EXPECT_MSG_EQ(c.switches, 10u, "rank " << r << ": switches");
            NS_TEST_EXPECT_MSG_EQ(c.links, 28u, "rank " << r << ": links");
            NS_TEST_EXPECT_MSG_EQ(c.routeHops, (4u * 1 + 4 * 2 + 2 * 2) * 16, "route next hops");
        }
        for (uint32_t l = 0; l < t.links.size(); ++l)
        {
            NS_TEST_EXPECT_MSG_GT(builtOn[l], 0u, "link " << l << " built on some rank");
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaTopologyHelper::BuildsLink({}, 0, t.links.back()),
                              true,
                              "one rank builds every link");
    }
};

/**
 * \ingroup rdma-tests
 * \brief ToR blocks on the HPCC paper's fat tree (320 hosts under 20 ToRs
 * of 16): 2 ranks get 160 hosts each, 4 ranks 80; every host is on its
 * ToR's rank; a switch whose ToR neighbors are all on one rank (an
 * aggregation switch of a pod not cut) is on that rank too.
 */
class ByTorTestCase : public TestCase
{
  public:
    ByTorTestCase()
        : TestCase("HPCC fat tree: ToR blocks balanced by hosts")
    {
    }

  private:
    void DoRun() override
    {
        const RdmaTopologySpec t =
            RdmaHpccTopologyReader::ReadFile(rdmatest::DataPath("hpcc-fat.txt"));
        for (uint32_t ranks : {2u, 3u, 4u})
        {
            const RdmaPartition p = RdmaPartition::ByTor(t, ranks);
            std::vector<uint32_t> hosts(ranks, 0);
            std::vector<uint32_t> others(ranks, 0);
            for (uint32_t u = 0; u < t.GetNNodes(); ++u)
            {
                (t.isSwitch[u] ? others : hosts)[p.rankOf[u]] += 1;
            }
            for (uint32_t r = 0; r < ranks; ++r)
            {
                // Blocks of whole ToRs (16 hosts): within one ToR of the share.
                NS_TEST_EXPECT_MSG_LT(std::abs(int(hosts[r]) - int(320 / ranks)),
                                      16,
                                      ranks << " ranks: hosts on rank " << r);
            }
            std::vector<bool> tor(t.GetNNodes(), false);
            for (const auto& l : t.links)
            {
                if (!t.isSwitch[l.a])
                {
                    NS_TEST_EXPECT_MSG_EQ(p.rankOf[l.a], p.rankOf[l.b], "host " << l.a);
                    tor[l.b] = true;
                }
            }
            std::vector<std::set<uint32_t>> torRanks(t.GetNNodes());
            for (const auto& l : t.links)
            {
                if (tor[l.a] && t.isSwitch[l.b] && !tor[l.b])
                {
                    torRanks[l.b].insert(p.rankOf[l.a]);
                }
            }
            uint32_t aggs = 0;
            for (uint32_t u = 0; u < t.GetNNodes(); ++u)
            {
                if (torRanks[u].size() == 1)
                {
                    ++aggs;
                    NS_TEST_EXPECT_MSG_EQ(p.rankOf[u], *torRanks[u].begin(), "switch " << u);
                }
            }
            NS_TEST_EXPECT_MSG_GT(aggs, 0u, ranks << " ranks: no switch with one rank's ToRs");
        }
    }
};

/**
 * \ingroup rdma-tests
 * \brief METIS on the HPCC paper's fat tree (320 hosts under 20 ToRs of 16,
 * 100 Gb/s host links, 400 Gb/s switch links; RdmaPartition::Metis): every
 * node placed, every host on its ToR's rank, hosts and port capacity (the
 * links' rates at a rank's nodes, in 100 Gb/s units: 1920 in all) balanced
 * within the 1.03 tolerance given to METIS (ubvec), no more links cut than
 * ByTor's ToR blocks (doc/mpi.rst, "Partitioning": the counts measured; at 2
 * ranks both cut 40 with 10 ToRs a side: one pod is split, 8 of its
 * ToR-aggregation links and 2 of each of the 16 cores' 5 links cross),
 * and the same map when computed again (every rank computes it).
 */
class MetisTestCase : public TestCase
{
  public:
    MetisTestCase()
        : TestCase("HPCC fat tree: METIS's cut, hosts with their ToR, balanced")
    {
    }

  private:
    void DoRun() override
    {
        const RdmaTopologySpec t =
            RdmaHpccTopologyReader::ReadFile(rdmatest::DataPath("hpcc-fat.txt"));

        const struct
        {
            uint32_t ranks;
            uint32_t metisCut;
            uint32_t byTorCut;
        } cases[] = {{2, 40, 40}, {4, 60, 64}};

        for (const auto& c : cases)
        {
            const RdmaPartition p = RdmaPartition::Metis(t, c.ranks);
            NS_TEST_ASSERT_MSG_EQ(p.rankOf.size(), t.GetNNodes(), c.ranks << " ranks: every node");
            std::vector<uint32_t> hosts(c.ranks, 0);
            std::vector<uint64_t> capacity(c.ranks, 0);
            for (uint32_t u = 0; u < t.GetNNodes(); ++u)
            {
                NS_TEST_ASSERT_MSG_LT(p.rankOf[u], c.ranks, "node " << u);
                hosts[p.rankOf[u]] += t.isSwitch[u] ? 0 : 1;
            }
            for (const auto& l : t.links)
            {
                if (!t.isSwitch[l.a] || !t.isSwitch[l.b])
                {
                    NS_TEST_EXPECT_MSG_EQ(p.rankOf[l.a], p.rankOf[l.b], "host link " << l.where);
                }
                const uint64_t units = l.rate.GetBitRate() / 100000000000ULL;
                capacity[p.rankOf[l.a]] += units;
                capacity[p.rankOf[l.b]] += units;
            }
            for (uint32_t r = 0; r < c.ranks; ++r)
            {
                NS_TEST_EXPECT_MSG_LT_OR_EQ(hosts[r] * c.ranks,
                                            uint32_t(1.03 * 320),
                                            c.ranks << " ranks: hosts on rank " << r);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(capacity[r] * c.ranks,
                                            uint64_t(1.03 * 1920),
                                            c.ranks << " ranks: port capacity on rank " << r);
            }
            NS_TEST_EXPECT_MSG_EQ(p.crossLinks, c.metisCut, c.ranks << " ranks: METIS's cut");
            const RdmaPartition byTor = RdmaPartition::ByTor(t, c.ranks);
            NS_TEST_EXPECT_MSG_EQ(byTor.crossLinks, c.byTorCut, c.ranks << " ranks: ByTor's cut");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(p.crossLinks, byTor.crossLinks, c.ranks << " ranks");
            NS_TEST_EXPECT_MSG_NE(p.rule.find(std::to_string(c.metisCut) + " links cut"),
                                  std::string::npos,
                                  p.rule);
            const RdmaPartition again = RdmaPartition::Metis(t, c.ranks);
            NS_TEST_EXPECT_MSG_EQ((again.rankOf == p.rankOf), true, c.ranks << " ranks: again");
        }
    }
};

/**
 * \ingroup rdma-tests
 * \brief Refusals: more ranks than nodes, more ranks than ToRs (or, for
 * METIS, switches), a link of
 * delay 0 between ranks, and a partition file that names an unknown node,
 * places one twice, gives a rank out of range or misses nodes.
 */
class BadPartitionTestCase : public TestCase
{
  public:
    BadPartitionTestCase()
        : TestCase("bad partitions are refused, naming the reason")
    {
    }

  private:
    void DoRun() override
    {
        RdmaLinkParams l;
        const RdmaTopologySpec star = RdmaTopologySpec::Star(3, l); // 4 nodes
        NS_TEST_EXPECT_MSG_NE(
            ErrorOf([&] { RdmaPartition::ByTor(star, 5); }).find("more ranks than the 4 nodes"),
            std::string::npos,
            "ranks > nodes");
        NS_TEST_EXPECT_MSG_NE(
            ErrorOf([&] { RdmaPartition::ByTor(star, 2); }).find("1 switches with hosts"),
            std::string::npos,
            "ranks > ToRs");
        NS_TEST_EXPECT_MSG_NE(ErrorOf([&] {
                                  RdmaPartition::Metis(star, 2);
                              }).find("1 switches (each with its hosts)"),
                              std::string::npos,
                              "METIS: ranks > switches");
        RdmaLinkParams zero;
        zero.delay = Time(0);
        const RdmaTopologySpec instant = RdmaTopologySpec::Star(3, zero);
        const std::string map =
            WriteFile(CreateTempDirFilename("map.txt"), "0 0\n1 0\n2 1\n3 0 # the switch\n");
        NS_TEST_EXPECT_MSG_NE(
            ErrorOf([&] { RdmaPartition::FromFile(map, instant, 2); }).find("delay of 0"),
            std::string::npos,
            "zero delay between ranks");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { RdmaPartition::FromFile(map, star, 2); }),
                              "",
                              "the same map with 1 us links");
        const RdmaPartition ok = RdmaPartition::FromFile(map, star, 2);
        NS_TEST_EXPECT_MSG_EQ(ok.rankOf[2], 1u, "node 2 as the file says");
        NS_TEST_EXPECT_MSG_EQ(ok.crossLinks, 1u, "one link crosses");

        const struct
        {
            const char* text;
            const char* reason;
        } bad[] = {
            {"0 0\n1 0\n9 1\n3 0\n", ":3: node 9 is not in"},
            {"0 0\n1 0\n1 1\n3 0\n", ":3: node 1 placed already at line 2"},
            {"0 0\n1 0\n2 2\n3 0\n", ":3: rank 2 but the run has 2 ranks"},
            {"0 0\n1 0\n3 0\n", "1 of 4 nodes have no rank (the first: node 2)"},
            {"0 0 0\n", ":1: expected 'node rank'"},
            {"0 x\n", ":1: rank 'x' is not a number"},
        };

        uint32_t n = 0;
        for (const auto& b : bad)
        {
            const std::string file =
                WriteFile(CreateTempDirFilename("bad-" + std::to_string(n++) + ".txt"), b.text);
            const std::string e = ErrorOf([&] { RdmaPartition::FromFile(file, star, 2); });
            NS_TEST_EXPECT_MSG_NE(e.find(b.reason), std::string::npos, "got: " << e);
            std::remove(file.c_str());
        }
        std::remove(map.c_str());
    }
};

/**
 * \ingroup rdma-tests
 * \brief RdmaRankShare: a share read back equals what was packed, and the
 * merge takes each flow's result from its owner, sums the counters and
 * orders qlen rows by time, node, port and class (a sequential sampler's
 * order) and pfc rows by time.
 */
class RankShareTestCase : public TestCase
{
  public:
    RankShareTestCase()
        : TestCase("rank shares pack, unpack and merge")
    {
    }

  private:
    void DoRun() override
    {
        RdmaRankShare a;
        a.localDone = PicoSeconds(2001234567);
        a.allDone = true;
        a.events = 10;
        a.totals.linkTransmissions = 5;
        a.qps.packetsSent = 7;
        a.flows = {0, 2};
        a.results.resize(2);
        a.results[0].completed = true;
        a.results[0].completion = PicoSeconds(1500);
        a.results[0].qpn = 0x101;
        a.results[1].noQp = true;
        a.pfcRows = "100,20,1,3,pause,switch\n";
        a.qlenRows = "10,20,1,3,500\n20,20,1,3,100\n";
        RdmaRankShare b;
        b.localDone = PicoSeconds(1000);
        b.allDone = true;
        b.events = 5;
        b.totals.linkTransmissions = 6;
        b.flows = {1};
        b.results.resize(1);
        b.results[0].completed = true;
        b.results[0].completion = PicoSeconds(900);
        b.pfcRows = "50,30,2,3,pause,switch\n";
        b.qlenRows = "10,18,0,3,42\n";
        const RdmaRankShare a2 = RdmaRankShare::Unpack(a.Pack());
        NS_TEST_EXPECT_MSG_EQ(a2.Pack(), a.Pack(), "pack, unpack, pack");
        NS_TEST_EXPECT_MSG_EQ(a2.results[0].completion, PicoSeconds(1500), "completion");
        std::vector<RdmaFlowResult> results;
        const RdmaRankShare m =
            RdmaRankShare::Merge({a2, RdmaRankShare::Unpack(b.Pack())}, 3, results);
        NS_TEST_EXPECT_MSG_EQ(results[0].qpn, 0x101u, "flow 0 from rank 0");
        NS_TEST_EXPECT_MSG_EQ(results[1].completion, PicoSeconds(900), "flow 1 from rank 1");
        NS_TEST_EXPECT_MSG_EQ(results[2].noQp, true, "flow 2 from rank 0");
        NS_TEST_EXPECT_MSG_EQ(m.totals.linkTransmissions, 11u, "summed counters");
        NS_TEST_EXPECT_MSG_EQ(m.qps.packetsSent, 7u, "summed QP counters");
        NS_TEST_EXPECT_MSG_EQ(m.events, 15u, "summed events");
        NS_TEST_EXPECT_MSG_EQ(m.localDone, PicoSeconds(2001234567), "the last rank's end");
        NS_TEST_EXPECT_MSG_EQ(m.qlenRows,
                              "10,18,0,3,42\n10,20,1,3,500\n20,20,1,3,100\n",
                              "qlen rows by time, node, port, class");
        NS_TEST_EXPECT_MSG_EQ(m.pfcRows,
                              "50,30,2,3,pause,switch\n100,20,1,3,pause,switch\n",
                              "pfc rows by time");
        NS_TEST_EXPECT_MSG_EQ(RdmaRankShare::RowsUntil(m.qlenRows, 10),
                              "10,18,0,3,42\n10,20,1,3,500\n",
                              "rows up to the end");
    }
};

/**
 * \ingroup rdma-tests
 * \brief Collective and iteration records of two ranks (RdmaRankShare):
 * packed and read back whole; merged per (job, iteration, item) with the
 * earlier start, the later end, the ranks summed (done once all are), and
 * of two last landings at one time the one with the larger event key (the
 * one a sequential run runs last); a record one rank alone has stays as it
 * is but not done.
 */
class RankShareCollectivesTestCase : public TestCase
{
  public:
    RankShareCollectivesTestCase()
        : TestCase("rank shares merge collective and iteration records")
    {
    }

  private:
    /// \return a record of job 0, iteration `it`, item 0, with 2 of 4 ranks
    /// done \param it iteration \param start entered \param end last done
    /// \param src sender of the last landing \param landed its time \param key its event key
    static RdmaCollectiveRecord Half(uint32_t it,
                                     Time start,
                                     Time end,
                                     uint32_t src,
                                     Time landed,
                                     uint64_t key)
    {
        RdmaCollectiveRecord r;
        r.iteration = it;
        r.start = start;
        r.started = true;
        r.end = end;
        r.ranksEntered = 2;
        r.ranksDone = 2;
        r.lastSrc = src;
        r.lastDst = (src + 1) % 4;
        r.lastLanded = landed;
        r.lastKey = key;
        return r;
    }

    void DoRun() override
    {
        RdmaJob job;
        job.hosts = {0, 1, 2, 3};
        auto ring = std::make_shared<RdmaCollectiveSchedule>(
            RdmaCollectiveSchedule::RingAllReduce(4, 4096, 1, 1024));
        ring->Finish();
        job.items.push_back({ring, Time(0), {}, {}});
        job.iterations = 3;
        RdmaRankShare a;
        RdmaRankShare b;
        // Iteration 0: b's last landing is later; iteration 1: both at
        // 1900 ns, a's event key larger.
        a.collectives = {Half(0, NanoSeconds(10), NanoSeconds(1000), 0, NanoSeconds(800), 7),
                         Half(1, NanoSeconds(1000), NanoSeconds(2000), 1, NanoSeconds(1900), 9),
                         Half(2, NanoSeconds(2000), NanoSeconds(0), 0, NanoSeconds(0), 0)};
        a.collectives[2].ranksDone = 0;
        b.collectives = {Half(0, NanoSeconds(5), NanoSeconds(990), 2, NanoSeconds(850), 3),
                         Half(1, NanoSeconds(1001), NanoSeconds(1950), 3, NanoSeconds(1900), 8)};
        RdmaIterationRecord ia;
        ia.ranks = 4;
        ia.start = NanoSeconds(10);
        ia.end = NanoSeconds(1000);
        ia.ranksDone = 2;
        ia.started = true;
        ia.compute = NanoSeconds(77);
        RdmaIterationRecord ib = ia;
        ib.start = NanoSeconds(5);
        ib.end = NanoSeconds(1010);
        a.iterations = {ia};
        b.iterations = {ib};
        const RdmaRankShare a2 = RdmaRankShare::Unpack(a.Pack());
        NS_TEST_EXPECT_MSG_EQ(a2.Pack(), a.Pack(), "pack, unpack, pack");
        NS_TEST_EXPECT_MSG_EQ(a2.collectives[1].lastKey, 9u, "the event key travels");
        std::vector<RdmaFlowResult> results;
        const RdmaRankShare m =
            RdmaRankShare::Merge({a2, RdmaRankShare::Unpack(b.Pack())}, 0, results, {job});
        NS_TEST_ASSERT_MSG_EQ(m.collectives.size(), 3u, "one record per iteration");
        const RdmaCollectiveRecord& c0 = m.collectives[0];
        NS_TEST_EXPECT_MSG_EQ(c0.start, NanoSeconds(5), "the first entry");
        NS_TEST_EXPECT_MSG_EQ(c0.end, NanoSeconds(1000), "the last rank done");
        NS_TEST_EXPECT_MSG_EQ(c0.completed, true, "4 of 4 ranks done");
        NS_TEST_EXPECT_MSG_EQ(c0.GetCct(), NanoSeconds(995), "CCT");
        NS_TEST_EXPECT_MSG_EQ(c0.lastSrc, 2u, "the later landing");
        NS_TEST_EXPECT_MSG_EQ(c0.schedule, ring, "the job's schedule");
        NS_TEST_EXPECT_MSG_EQ(m.collectives[1].lastSrc, 1u, "a tie: the larger key");
        NS_TEST_EXPECT_MSG_EQ(m.collectives[1].lastDst, 2u, "a tie: the larger key's pair");
        NS_TEST_EXPECT_MSG_EQ(m.collectives[2].completed, false, "2 ranks entered, none done");
        NS_TEST_EXPECT_MSG_EQ(m.collectives[2].start, NanoSeconds(2000), "one rank's start");
        NS_TEST_ASSERT_MSG_EQ(m.iterations.size(), 1u, "one iteration");
        NS_TEST_EXPECT_MSG_EQ(m.iterations[0].start, NanoSeconds(5), "the first start");
        NS_TEST_EXPECT_MSG_EQ(m.iterations[0].end, NanoSeconds(1010), "the last end");
        NS_TEST_EXPECT_MSG_EQ(m.iterations[0].completed, true, "4 of 4 ranks done");
        NS_TEST_EXPECT_MSG_EQ(m.iterations[0].compute, NanoSeconds(77), "its compute");
    }
};

/**
 * \ingroup rdma-tests
 * \brief Rail fabric by server: 4 servers of 2 GPUs on 2 ranks put servers
 * 0-1 (their NICs, NVLink ports and NVSwitches) on rank 0, servers 2-3 on
 * rank 1, rails and spines alternately: every GPU's two hosts share a rank,
 * no NVLink crosses; 4 NIC-rail links and 4 of the 8 rail-spine links do.
 * Not a rail fabric, or more ranks than servers: refused.
 */
class RailByServerTestCase : public TestCase
{
  public:
    RailByServerTestCase()
        : TestCase("rail fabric by server")
    {
    }

  private:
    void DoRun() override
    {
        RdmaLinkParams l;
        const RdmaTopologySpec rail = RdmaTopologySpec::Rail(4, 2, 4, l, l, l);
        const RdmaPartition p = RdmaPartition::RailByServer(rail, 2);
        const auto& servers = rail.servers;
        for (uint32_t g = 0; g < servers.GetGpus(); ++g)
        {
            const uint32_t want = servers.GetServer(g) < 2 ? 0 : 1;
            NS_TEST_EXPECT_MSG_EQ(p.rankOf[g], want, "NIC of GPU " << g);
            NS_TEST_EXPECT_MSG_EQ(p.rankOf[servers.GetIntraHost(g)], want, "its NVLink port");
        }
        uint32_t nicLinks = 0;
        uint32_t fabricLinks = 0;
        for (const auto& link : rail.links)
        {
            if (p.rankOf[link.a] != p.rankOf[link.b])
            {
                NS_TEST_EXPECT_MSG_NE(link.tier, 2u, "no NVLink crosses");
                (link.tier == 0 ? nicLinks : fabricLinks) += 1;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(nicLinks, 4u, "NIC-rail links across");
        NS_TEST_EXPECT_MSG_EQ(fabricLinks, 4u, "rail-spine links across");
        NS_TEST_EXPECT_MSG_EQ(p.crossLinks, 8u, "links across");
        NS_TEST_EXPECT_MSG_NE(
            ErrorOf([&] { RdmaPartition::RailByServer(rail, 5); }).find("has 4 servers"),
            std::string::npos,
            "more ranks than servers");
        NS_TEST_EXPECT_MSG_NE(
            ErrorOf([&] { RdmaPartition::RailByServer(FatTree(4), 2); }).find("not a rail fabric"),
            std::string::npos,
            "a fat tree");
    }
};

/**
 * \ingroup rdma-tests
 * \brief The suite.
 */
class PartitionTestSuite : public TestSuite
{
  public:
    PartitionTestSuite()
        : TestSuite("rdma-partition", UNIT)
    {
        AddTestCase(new FatTreeByPodTestCase, TestCase::QUICK);
        AddTestCase(new RankPartTestCase, TestCase::QUICK);
        AddTestCase(new ByTorTestCase, TestCase::QUICK);
        AddTestCase(new MetisTestCase, TestCase::QUICK);
        AddTestCase(new BadPartitionTestCase, TestCase::QUICK);
        AddTestCase(new RankShareTestCase, TestCase::QUICK);
        AddTestCase(new RankShareCollectivesTestCase, TestCase::QUICK);
        AddTestCase(new RailByServerTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
PartitionTestSuite g_partitionTestSuite;

} // namespace
