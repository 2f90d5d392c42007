/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the topology generators, the HPCC topology reader, the route
 * computation (all shortest paths, ECMP groups) and RdmaTopologyHelper.
 *
 * Figures come from the topologies' definitions:
 * - k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k^3/4 hosts, k^2/2 edge,
 *   k^2/2 aggregation and k^2/4 core switches, every switch of radix k, 3k^3/4
 *   links; hosts under one edge switch are 2 links apart, in one pod 4, in
 *   different pods 6; an edge or aggregation switch has k/2 equal-cost
 *   uplinks toward another pod's host, so there are k/2 shortest paths
 *   between hosts of one pod under different edges and (k/2)^2 between pods.
 * - the HPCC simulator's files (test/data/hpcc-fat.txt and
 *   hpcc-topology.txt are upstream simulation/mix/fat.txt and topology.txt,
 *   alibaba-edu/High-Precision-Congestion-Control): counts from their own
 *   header lines, read by the test.
 */

#include "rdma-test-data.h"

#include "ns3/rdma-hpcc-topology-reader.h"
#include "ns3/rdma-route-computer.h"
#include "ns3/rdma-topology-spec.h"
#include "ns3/test.h"

#include <fstream>
#include <functional>
#include <sstream>
#include <string>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// 100 Gb/s, 1 us links.
RdmaLinkParams
Link100G()
{
    return RdmaLinkParams();
}

/// \return node degrees of a topology
std::vector<uint32_t>
Degrees(const RdmaTopologySpec& s)
{
    std::vector<uint32_t> d(s.GetNNodes(), 0);
    for (const auto& l : s.links)
    {
        ++d[l.a];
        ++d[l.b];
    }
    return d;
}

/// \return the message of the RdmaTopologyError f throws, or "" if none
std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const RdmaTopologyError& e)
    {
        return e.what();
    }
    return "";
}

/**
 * Fat-tree counts: hosts k^3/4, switches 5k^2/4, links 3k^3/4, every
 * switch of degree k and every host of degree 1.
 */
class FatTreeSpecTestCase : public TestCase
{
  public:
    /// \param k arity
    explicit FatTreeSpecTestCase(uint32_t k)
        : TestCase("fat-tree k=" + std::to_string(k) +
                   ": k^3 over 4 hosts, 5k^2 over 4 switches of radix k, 3k^3 over 4 links "
                   "(Al-Fares 2008)"),
          m_k(k)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t k = m_k;
        RdmaTopologySpec s = RdmaTopologySpec::FatTree(k, Link100G(), Link100G(), Link100G());
        s.Validate();
        NS_TEST_ASSERT_MSG_EQ(s.GetNHosts(), k * k * k / 4, "hosts");
        NS_TEST_ASSERT_MSG_EQ(s.GetNSwitches(), 5 * k * k / 4, "switches");
        NS_TEST_ASSERT_MSG_EQ(s.links.size(), 3 * k * k * k / 4, "links");
        std::vector<uint32_t> deg = Degrees(s);
        uint32_t tiers[3] = {0, 0, 0};
        for (const auto& l : s.links)
        {
            ++tiers[l.tier];
        }
        NS_TEST_ASSERT_MSG_EQ(tiers[0], k * k * k / 4, "host links");
        NS_TEST_ASSERT_MSG_EQ(tiers[1], k * (k / 2) * (k / 2), "edge-aggregation links");
        NS_TEST_ASSERT_MSG_EQ(tiers[2], k * (k / 2) * (k / 2), "aggregation-core links");
        for (uint32_t n = 0; n < s.GetNNodes(); ++n)
        {
            NS_TEST_ASSERT_MSG_EQ(deg[n], (s.isSwitch[n] ? k : 1u), "degree of node " << n);
        }
    }

    uint32_t m_k; //!< arity
};

/**
 * Fat-tree routes: BFS distance of every host pair equals the fat-tree
 * formula (2 / 4 / 6 links), the path GetPath() returns has that length,
 * every next hop is one link nearer, ECMP group sizes (edge and
 * aggregation: k/2 uplinks toward another pod) and path counts (k/2 within a
 * pod across edges, (k/2)^2 across pods).
 */
class FatTreeRoutesTestCase : public TestCase
{
  public:
    /// \param k arity
    explicit FatTreeRoutesTestCase(uint32_t k)
        : TestCase("fat-tree k=" + std::to_string(k) +
                   " routes: distances 2, 4, 6; k over 2 uplinks per group; (k over 2)^2 paths "
                   "across pods; the same after ReleaseRows"),
          m_k(k)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t k = m_k;
        const uint32_t half = k / 2;
        const uint32_t nHosts = k * k * k / 4;
        const uint32_t perPod = half * half;
        RdmaTopologySpec s = RdmaTopologySpec::FatTree(k, Link100G(), Link100G(), Link100G());
        RdmaRouteComputer r(s);
        NS_TEST_ASSERT_MSG_EQ(r.GetNHosts(), nHosts, "hosts");
        const uint32_t edge0 = nHosts;
        const uint32_t agg0 = edge0 + k * half;
        const uint32_t core0 = agg0 + k * half;
        for (uint32_t a = 0; a < nHosts; ++a)
        {
            for (uint32_t b = 0; b < nHosts; ++b)
            {
                uint32_t expect = 0;
                uint64_t paths = 1;
                if (a == b)
                {
                    expect = 0;
                }
                else if (a / half == b / half)
                {
                    expect = 2;
                }
                else if (a / perPod == b / perPod)
                {
                    expect = 4;
                    paths = half;
                }
                else
                {
                    expect = 6;
                    paths = uint64_t(half) * half;
                }
                NS_TEST_ASSERT_MSG_EQ(r.GetDistance(a, b), expect, "distance " << a << "->" << b);
                NS_TEST_ASSERT_MSG_EQ(r.GetPath(a, b).size(), expect, "path " << a << "->" << b);
                NS_TEST_ASSERT_MSG_EQ(r.CountPaths(a, b), paths, "paths " << a << "->" << b);
            }
        }
        // Every next hop is one link nearer the destination, for every node.
        for (uint32_t d = 0; d < nHosts; ++d)
        {
            for (uint32_t u = 0; u < s.GetNNodes(); ++u)
            {
                for (uint32_t i = 0; i < r.GetNNextHops(u, d); ++i)
                {
                    const auto& p = r.GetPorts(u)[r.GetNextHop(u, d, i)];
                    NS_TEST_ASSERT_MSG_EQ(r.GetDistance(p.peer, d) + 1,
                                          r.GetDistance(u, d),
                                          "next hop of " << u << " toward " << d);
                }
            }
        }
        // ECMP groups toward host 0 (pod 0, edge 0).
        const uint32_t otherPodEdge = edge0 + half; // pod 1's first edge switch
        const uint32_t samePodEdge = edge0 + 1;     // pod 0's second edge switch
        const uint32_t otherPodAgg = agg0 + half;   // pod 1's first aggregation switch
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(otherPodEdge, 0),
                              half,
                              "edge, inter-pod: k/2 uplinks");
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(samePodEdge, 0), half, "edge, intra-pod: k/2 uplinks");
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(otherPodAgg, 0), half, "aggregation: k/2 cores");
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(agg0, 0), 1, "aggregation in the pod: one edge");
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(edge0, 0), 1, "own edge: the host port");
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(core0, 0), 1, "core: one aggregation switch");
        // An uplink group holds exactly the ports toward aggregation switches.
        for (uint32_t i = 0; i < half; ++i)
        {
            const uint32_t peer = r.GetPorts(otherPodEdge)[r.GetNextHop(otherPodEdge, 0, i)].peer;
            NS_TEST_ASSERT_MSG_EQ((peer >= agg0 + half && peer < agg0 + 2 * half), true, "uplink");
        }
        // Rows given back (as after installing the routes): the same
        // answers, each destination's row computed again when asked.
        r.ReleaseRows();
        NS_TEST_ASSERT_MSG_EQ(r.GetDistance(0, nHosts - 1), 6, "distance after ReleaseRows");
        NS_TEST_ASSERT_MSG_EQ(r.GetPath(nHosts - 1, 0).size(), 6, "path after ReleaseRows");
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(otherPodEdge, 0), half, "group after ReleaseRows");
    }

    uint32_t m_k; //!< arity
};

/// Leaf-spine counts and the oversubscription ratio of the derived uplink rate.
class LeafSpineSpecTestCase : public TestCase
{
  public:
    LeafSpineSpecTestCase()
        : TestCase(
              "leaf-spine 4x2x8: counts, 2 paths, uplink = 8 x 100G over (2 spines x 2) for 2:1")
    {
    }

  private:
    void DoRun() override
    {
        RdmaLinkParams fabric;
        fabric.rate = DataRate("400Gbps");
        RdmaTopologySpec s = RdmaTopologySpec::LeafSpine(4, 2, 8, Link100G(), fabric, 2.0);
        s.Validate();
        NS_TEST_ASSERT_MSG_EQ(s.GetNHosts(), 32, "hosts");
        NS_TEST_ASSERT_MSG_EQ(s.GetNSwitches(), 6, "switches");
        NS_TEST_ASSERT_MSG_EQ(s.links.size(), 32 + 4 * 2, "links");
        const DataRate up = s.links.back().rate;
        NS_TEST_ASSERT_MSG_EQ(up.GetBitRate(), 200000000000ULL, "uplink rate for 2:1");
        // Oversubscription = host capacity / uplink capacity of a leaf.
        NS_TEST_ASSERT_MSG_EQ_TOL(8.0 * 100e9 / (2.0 * up.GetBitRate()), 2.0, 1e-12, "ratio");
        RdmaTopologySpec plain = RdmaTopologySpec::LeafSpine(4, 2, 8, Link100G(), fabric, 0);
        NS_TEST_ASSERT_MSG_EQ(plain.links.back().rate, DataRate("400Gbps"), "0: fabric rate");
        RdmaRouteComputer r(s);
        NS_TEST_ASSERT_MSG_EQ(r.GetDistance(0, 1), 2, "same leaf");
        NS_TEST_ASSERT_MSG_EQ(r.GetDistance(0, 31), 4, "other leaf");
        NS_TEST_ASSERT_MSG_EQ(r.CountPaths(0, 31), 2, "one path per spine");
        NS_TEST_ASSERT_MSG_EQ(r.GetNNextHops(32, 31), 2, "leaf 0 toward leaf 3: both spines");
    }
};

/// Dumbbell and star counts; their hosts reach each other.
class DumbbellStarSpecTestCase : public TestCase
{
  public:
    DumbbellStarSpecTestCase()
        : TestCase("dumbbell 3x2 and star 17: counts and distances")
    {
    }

  private:
    void DoRun() override
    {
        RdmaLinkParams neck;
        neck.rate = DataRate("10Gbps");
        RdmaTopologySpec d = RdmaTopologySpec::Dumbbell(3, 2, Link100G(), neck);
        d.Validate();
        NS_TEST_ASSERT_MSG_EQ(d.GetNHosts(), 5, "dumbbell hosts");
        NS_TEST_ASSERT_MSG_EQ(d.GetNSwitches(), 2, "dumbbell switches");
        NS_TEST_ASSERT_MSG_EQ(d.links.size(), 6, "dumbbell links");
        RdmaRouteComputer rd(d);
        NS_TEST_ASSERT_MSG_EQ(rd.GetDistance(0, 1), 2, "same side");
        NS_TEST_ASSERT_MSG_EQ(rd.GetDistance(0, 4), 3, "across the bottleneck");
        NS_TEST_ASSERT_MSG_EQ(rd.GetPath(0, 4)[1], 5, "the bottleneck is link 5");
        RdmaTopologySpec s = RdmaTopologySpec::Star(17, Link100G());
        s.Validate();
        NS_TEST_ASSERT_MSG_EQ(s.GetNHosts(), 17, "star hosts");
        NS_TEST_ASSERT_MSG_EQ(s.GetNSwitches(), 1, "star switch");
        NS_TEST_ASSERT_MSG_EQ(s.links.size(), 17, "star links");
        RdmaRouteComputer rs(s);
        NS_TEST_ASSERT_MSG_EQ(rs.GetDistance(3, 16), 2, "star distance");
        NS_TEST_ASSERT_MSG_EQ(rs.GetNextHop(17, 16, 0), 16, "switch port 16 reaches host 16");
    }
};

/// Bad generator parameters and inconsistent node lists are refused by name.
class BadSpecTestCase : public TestCase
{
  public:
    BadSpecTestCase()
        : TestCase("bad generator parameters and node lists are refused with a message")
    {
    }

  private:
    void DoRun() override
    {
        RdmaLinkParams p;
        std::string e = ErrorOf([&] { RdmaTopologySpec::FatTree(5, p, p, p); });
        NS_TEST_ASSERT_MSG_NE(e.find("k = 5 must be even"), std::string::npos, e);
        e = ErrorOf([&] { RdmaTopologySpec::LeafSpine(2, 0, 4, p, p, 1); });
        NS_TEST_ASSERT_MSG_NE(e.find("leaf-spine"), std::string::npos, e);
        e = ErrorOf([&] { RdmaTopologySpec::LeafSpine(2, 2, 4, p, p, -1); });
        NS_TEST_ASSERT_MSG_NE(e.find("oversubscription"), std::string::npos, e);
        e = ErrorOf([&] { RdmaTopologySpec::Star(1, p); });
        NS_TEST_ASSERT_MSG_NE(e.find("two hosts"), std::string::npos, e);
        RdmaTopologySpec s = RdmaTopologySpec::Star(2, p);
        s.links[1].errorRate = 2;
        e = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_NE(e.find("star 2: link 1: error rate 2"), std::string::npos, e);
        // Each of the link checks, with the link named.
        const auto linkError = [&](const std::function<void(RdmaTopologySpec::Link&)>& edit) {
            RdmaTopologySpec t = RdmaTopologySpec::Star(2, p);
            edit(t.links[0]);
            return ErrorOf([&] { t.Validate(); });
        };
        e = linkError([](RdmaTopologySpec::Link& l) { l.b = 7; });
        NS_TEST_ASSERT_MSG_EQ(e, "star 2: link 0: node 7 does not exist (3 nodes, ids 0-2)", e);
        e = linkError([](RdmaTopologySpec::Link& l) { l.b = l.a; });
        NS_TEST_ASSERT_MSG_NE(e.find("star 2: link 0: links node "), std::string::npos, e);
        NS_TEST_ASSERT_MSG_NE(e.find(" to itself"), std::string::npos, e);
        e = linkError([](RdmaTopologySpec::Link& l) { l.rate = DataRate(0); });
        NS_TEST_ASSERT_MSG_EQ(e, "star 2: link 0: rate must be above 0 bit/s", e);
        e = linkError([](RdmaTopologySpec::Link& l) { l.delay = NanoSeconds(-1); });
        NS_TEST_ASSERT_MSG_EQ(e, "star 2: link 0: delay must not be negative", e);
        e = linkError([](RdmaTopologySpec::Link& l) { l.errorRate = 1.5; });
        NS_TEST_ASSERT_MSG_EQ(e,
                              "star 2: link 0: error rate 1.5 is not a probability in [0, 1]",
                              e);
        s = RdmaTopologySpec::Star(2, p);
        s.AddLink(0, 2, p, 0); // host 0 now dual-homed
        e = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_NE(e.find("host 0 has 2 links"), std::string::npos, e);
    }
};

/// \return the three header counts of a topology file
std::vector<uint32_t>
HeaderCounts(const std::string& path)
{
    std::ifstream in(path);
    std::vector<uint32_t> v(3, 0);
    in >> v[0] >> v[1] >> v[2];
    return v;
}

/// \return the node, switch and link counts of a topology, as its file's header puts them
std::vector<uint32_t>
SpecCounts(const RdmaTopologySpec& s)
{
    return {s.GetNNodes(), s.GetNSwitches(), uint32_t(s.links.size())};
}

/**
 * The HPCC paper's fat-tree file: node, switch and link counts equal its
 * header; the rates and delays FORMATS.md gives (host links 100 Gb/s,
 * switch links 400 Gb/s, 1000 ns); every host reaches every other.
 */
class HpccFatFileTestCase : public TestCase
{
  public:
    HpccFatFileTestCase()
        : TestCase("HPCC fat.txt: counts from its header line, rates, delays, reachability")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = DataPath("hpcc-fat.txt");
        std::vector<uint32_t> header = HeaderCounts(path);
        NS_TEST_ASSERT_MSG_EQ(header[0], 376, "header read");
        RdmaTopologySpec s = RdmaHpccTopologyReader::ReadFile(path);
        s.Validate();
        NS_TEST_ASSERT_MSG_EQ((SpecCounts(s) == header), true, "nodes, switches, links");
        NS_TEST_ASSERT_MSG_EQ(s.GetNHosts(), header[0] - header[1], "hosts");
        for (const auto& l : s.links)
        {
            const bool hostLink = !s.isSwitch[l.a] || !s.isSwitch[l.b];
            NS_TEST_ASSERT_MSG_EQ(l.rate, DataRate(hostLink ? "100Gbps" : "400Gbps"), l.where);
            NS_TEST_ASSERT_MSG_EQ(l.delay, NanoSeconds(1000), l.where);
            NS_TEST_ASSERT_MSG_EQ(l.errorRate, 0, l.where);
        }
        NS_TEST_ASSERT_MSG_EQ(s.links[0].where, path + ":3", "origin of the first link");
        RdmaRouteComputer r(s);
        uint32_t longest = 0;
        for (uint32_t a = 0; a < r.GetNHosts(); a += 7)
        {
            for (uint32_t b = 0; b < r.GetNHosts(); ++b)
            {
                NS_TEST_ASSERT_MSG_NE(r.GetDistance(r.GetHostNode(a), b),
                                      RdmaRouteComputer::UNREACHABLE,
                                      a << "->" << b);
                longest = std::max(longest, r.GetDistance(r.GetHostNode(a), b));
            }
        }
        // FORMATS.md: "The longest path has 5 switch hops" = 6 links.
        NS_TEST_ASSERT_MSG_EQ(longest, 6, "longest host-to-host path, links");
    }
};

/**
 * The HPCC single-switch file declares 65 links and holds 256: only 65
 * are read (as the HPCC simulator reads it), and the reader says where the
 * unread text starts; node ids that are not switches are hosts.
 */
class HpccShortHeaderTestCase : public TestCase
{
  public:
    HpccShortHeaderTestCase()
        : TestCase("HPCC topology.txt: the 65 declared links are read, the rest reported unread")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = DataPath("hpcc-topology.txt");
        std::vector<uint32_t> header = HeaderCounts(path);
        std::ifstream in(path);
        uint32_t ignored = 0;
        RdmaTopologySpec s = RdmaHpccTopologyReader::Parse(in, path, &ignored);
        s.Validate();
        NS_TEST_ASSERT_MSG_EQ((SpecCounts(s) == header), true, "nodes, switches, links");
        NS_TEST_ASSERT_MSG_EQ(s.isSwitch[0], true, "node 0 is the switch");
        NS_TEST_ASSERT_MSG_EQ(ignored, 3 + header[2], "first unread line");
        NS_TEST_ASSERT_MSG_EQ(s.links[0].delay, NanoSeconds(1000), "0.001ms");
        RdmaRouteComputer r(s);
        NS_TEST_ASSERT_MSG_EQ(r.GetHostNode(0), 1, "host index 0 is node 1");
    }
};

/**
 * Malformed topology files: each error names the file and the line and
 * says what was expected.
 */
class HpccBadFileTestCase : public TestCase
{
  public:
    HpccBadFileTestCase()
        : TestCase("bad HPCC topology files: errors name file, line and what was expected")
    {
    }

  private:
    /// Parse text and check the message holds each of the fragments.
    void Expect(const std::string& text, const std::vector<std::string>& fragments)
    {
        std::string e = ErrorOf([&] {
            std::istringstream in(text);
            RdmaHpccTopologyReader::Parse(in, "bad.txt");
        });
        NS_TEST_EXPECT_MSG_EQ(e.empty(), false, "no error for:\n" << text);
        for (const auto& f : fragments)
        {
            NS_TEST_EXPECT_MSG_NE(e.find(f), std::string::npos, "'" << f << "' not in: " << e);
        }
    }

    void DoRun() override
    {
        const std::string ok = "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n";
        Expect("four 1 3\n", {"bad.txt:1:", "expected <N_nodes>", "got 'four'"});
        Expect("4 5 3\n", {"bad.txt:1:", "<N_switches> (at most N_nodes = 4)", "got '5'"});
        Expect("4 2 3\n3\n", {"bad.txt:2:", "switch id 2 of 2", "got end of file"});
        Expect("4 1 3\n9\n", {"bad.txt:2:", "switch id 1 of 1 (a node id 0-3)", "got '9'"});
        Expect("4 2 3\n3 3\n", {"bad.txt:2:", "switch id 3 is listed twice"});
        Expect(ok + "2 7 100Gbps 1000ns 0\n", {"bad.txt:5:", "link 3 of 3: <b>", "got '7'"});
        Expect(ok + "2 3 100Gbsp 1000ns 0\n", {"bad.txt:5:", "<rate>", "got '100Gbsp'"});
        Expect(ok + "2 3 100Gbps 1000 0\n", {"bad.txt:5:", "<delay>", "got '1000'"});
        Expect(ok + "2 3 100Gbps 1us 1.5\n", {"bad.txt:5:", "<error_rate>", "got '1.5'"});
        Expect(ok + "2 2 100Gbps 1us 0\n", {"bad.txt:5:", "joins node 2 to itself"});
        Expect(ok, {"bad.txt:4:", "link 3 of 3: <a>", "got end of file"});
        Expect(ok + "2 3 100Gbps 1us\n\n", {"bad.txt:6:", "<error_rate>", "end of file"});
        std::string e = ErrorOf([] { RdmaHpccTopologyReader::ReadFile("/nonexistent/t.txt"); });
        NS_TEST_ASSERT_MSG_NE(e.find("/nonexistent/t.txt: cannot open"), std::string::npos, e);
        // The good file parses; Validate refuses a host without its link.
        std::istringstream in(ok + "2 3 100Gbps 1us 0\n");
        RdmaTopologySpec s = RdmaHpccTopologyReader::Parse(in, "ok.txt");
        s.Validate();
        s.links.pop_back();
        e = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_NE(e.find("ok.txt: host 2 has 0 links"), std::string::npos, e);
    }
};

/// Time and rate strings as ns-3 spells them, read without aborting.
class ParseUnitsTestCase : public TestCase
{
  public:
    ParseUnitsTestCase()
        : TestCase("time and rate strings: 0.001ms = 1000ns, 25Gbps, refusals")
    {
    }

  private:
    void DoRun() override
    {
        Time t;
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseTime("0.001ms", &t), true, "ms");
        NS_TEST_ASSERT_MSG_EQ(t, NanoSeconds(1000), "0.001ms");
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseTime("1000ns", &t), true, "ns");
        NS_TEST_ASSERT_MSG_EQ(t, MicroSeconds(1), "1000ns");
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseTime("2us", &t), true, "us");
        NS_TEST_ASSERT_MSG_EQ(t, NanoSeconds(2000), "2us");
        // Times beyond Time::Max() (2^63 units of the resolution: about 106.75
        // days at ps, 292 years at ns) are refused: their conversion to
        // int64x64_t was undefined (found by fuzz-hpcc-topology).
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseTime("100d", &t), true, "100 days");
        NS_TEST_ASSERT_MSG_EQ(t, Days(100), "100d");
        const std::string twiceMax = std::to_string(Time::Max().GetSeconds() * 2) + "s";
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseTime(twiceMax, &t), false, twiceMax);
        for (const char* bad : {"1000",
                                "ns",
                                "-1ns",
                                "1 ns",
                                "1nss",
                                "0x10ns",
                                "nan",
                                "5555555555555555555555555555555ms",
                                "1e400s"})
        {
            NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseTime(bad, &t), false, bad);
        }
        DataRate r;
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseRate("25Gbps", &r), true, "Gbps");
        NS_TEST_ASSERT_MSG_EQ(r.GetBitRate(), 25000000000ULL, "25Gbps");
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseRate("12.5Gb/s", &r), true, "Gb/s");
        NS_TEST_ASSERT_MSG_EQ(r.GetBitRate(), 12500000000ULL, "12.5Gb/s");
        NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseRate("1MBps", &r), true, "MBps");
        NS_TEST_ASSERT_MSG_EQ(r.GetBitRate(), 8000000ULL, "1MBps");
        for (const char* bad : {"100", "Gbps", "100Gbsp", "100Tbps", "-5Gbps"})
        {
            NS_TEST_ASSERT_MSG_EQ(RdmaHpccTopologyReader::ParseRate(bad, &r), false, bad);
        }
    }
};

} // namespace

/// The topology and routing suite.
class RdmaTopologyTestSuite : public TestSuite
{
  public:
    RdmaTopologyTestSuite()
        : TestSuite("rdma-topology", UNIT)
    {
        AddTestCase(new FatTreeSpecTestCase(4), TestCase::QUICK);
        AddTestCase(new FatTreeSpecTestCase(8), TestCase::QUICK);
        AddTestCase(new FatTreeRoutesTestCase(4), TestCase::QUICK);
        AddTestCase(new FatTreeRoutesTestCase(8), TestCase::QUICK);
        AddTestCase(new LeafSpineSpecTestCase, TestCase::QUICK);
        AddTestCase(new DumbbellStarSpecTestCase, TestCase::QUICK);
        AddTestCase(new BadSpecTestCase, TestCase::QUICK);
        AddTestCase(new HpccFatFileTestCase, TestCase::QUICK);
        AddTestCase(new HpccShortHeaderTestCase, TestCase::QUICK);
        AddTestCase(new HpccBadFileTestCase, TestCase::QUICK);
        AddTestCase(new ParseUnitsTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static RdmaTopologyTestSuite g_rdmaTopologyTestSuite;
