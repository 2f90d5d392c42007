/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of multi-plane fabrics (RdmaTopologySpec::WithPlanes): P copies of
 * a k=4 fat tree's switches and switch links, each host with one link per
 * plane. Figures from the fat tree's definition (Al-Fares et al., SIGCOMM
 * 2008: k^3/4 hosts, 5k^2/4 switches, 3k^3/4 links, (k/2)^2 shortest paths
 * of 6 links between hosts of different pods) times the planes: a host is
 * not a transit node, so each plane adds its own paths and no path crosses
 * planes.
 */

#include "ns3/rdma-route-computer.h"
#include "ns3/rdma-topology-spec.h"
#include "ns3/test.h"

#include <functional>
#include <string>

using namespace ns3;

namespace
{

/// P copies of a k=4 fat tree: counts, node ids, host ports, routes.
class WithPlanesTestCase : public TestCase
{
  public:
    /// \param planes P
    explicit WithPlanesTestCase(uint32_t planes)
        : TestCase("k=4 fat tree x " + std::to_string(planes) +
                   " planes: switches and switch links copied, a host link per plane, "
                   "paths within a plane"),
          m_planes(planes)
    {
    }

  private:
    void DoRun() override
    {
        const RdmaLinkParams link;
        const RdmaTopologySpec one = RdmaTopologySpec::FatTree(4, link, link, link);
        const RdmaTopologySpec s = one.WithPlanes(m_planes);
        const uint32_t p = m_planes;
        NS_TEST_ASSERT_MSG_EQ(s.planes, p, "planes recorded");
        NS_TEST_ASSERT_MSG_EQ(s.GetNHosts(), 16u, "k^3/4 hosts, not copied");
        NS_TEST_ASSERT_MSG_EQ(s.GetNSwitches(), 20u * p, "5k^2/4 switches per plane");
        NS_TEST_ASSERT_MSG_EQ(s.links.size(), 48u * p, "3k^3/4 links per plane");
        s.Validate(); // a host with one link per plane is valid
        for (uint32_t i = 0; i < s.links.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s.links[i].plane, i / 48, "links plane-major");
        }
        // Host 15 is under edge switch index 7 (node 23); plane q's copy of
        // switch index i is node 36 + (q - 1) x 20 + i, and host port q is
        // on plane q.
        const RdmaRouteComputer routes(s);
        const auto& ports = routes.GetPorts(15);
        NS_TEST_ASSERT_MSG_EQ(ports.size(), p, "one port per plane");
        for (uint32_t q = 0; q < p; ++q)
        {
            const uint32_t edge = q == 0 ? 23u : 36 + (q - 1) * 20 + 7;
            NS_TEST_ASSERT_MSG_EQ(ports[q].peer, edge, "port " << q << "'s edge switch");
            NS_TEST_ASSERT_MSG_EQ(s.links[ports[q].link].plane, q, "port q on plane q");
        }
        // Hosts of different pods: 6 links apart, (k/2)^2 paths in each plane.
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(0, 15), 6u, "6 links between pods");
        NS_TEST_ASSERT_MSG_EQ(routes.CountPaths(0, 15), 4u * p, "4 paths per plane");
        for (uint32_t l : routes.GetPath(0, 15))
        {
            NS_TEST_ASSERT_MSG_EQ(s.links[l].plane, 0u, "a path stays in one plane");
        }
        // A plane-1 switch reaches host 15 only through plane 1's edge.
        if (p > 1)
        {
            NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(36 + 7, 15), 1u, "plane 1's edge");
            NS_TEST_ASSERT_MSG_EQ(routes.GetNNextHops(36 + 7, 15), 1u, "its host port only");
        }
    }

    uint32_t m_planes; //!< P
};

/// Bad plane counts and a copy of a copy are refused.
class BadPlanesTestCase : public TestCase
{
  public:
    BadPlanesTestCase()
        : TestCase("0 planes, more than 64, planes of planes, and a host short of a link are "
                   "refused")
    {
    }

  private:
    /// \return the message f throws, or ""
    static std::string ErrorOf(const std::function<void()>& f)
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

    void DoRun() override
    {
        const RdmaLinkParams link;
        const RdmaTopologySpec one = RdmaTopologySpec::Star(4, link);
        NS_TEST_ASSERT_MSG_NE(ErrorOf([&] { one.WithPlanes(0); }).find("0 planes: expected 1 to 64"),
                              std::string::npos, "0 planes");
        NS_TEST_ASSERT_MSG_NE(ErrorOf([&] { one.WithPlanes(65); }).find("65 planes"),
                              std::string::npos, "65 planes");
        const RdmaTopologySpec two = one.WithPlanes(2);
        NS_TEST_ASSERT_MSG_NE(ErrorOf([&] { two.WithPlanes(2); }).find("has 2 planes already"),
                              std::string::npos, "planes of planes");
        RdmaTopologySpec cut = two;
        cut.links.pop_back(); // host 3's plane-1 link
        NS_TEST_ASSERT_MSG_NE(ErrorOf([&] { cut.Validate(); }).find("host 3 has 1 links; a host "
                                                                     "needs one per plane (2)"),
                              std::string::npos, "a host short of a link");
        NS_TEST_ASSERT_MSG_EQ(one.WithPlanes(1).links.size(), one.links.size(), "1: itself");
    }
};

/// The multi-plane fabric tests.
class RdmaPlanesTestSuite : public TestSuite
{
  public:
    RdmaPlanesTestSuite()
        : TestSuite("rdma-planes", UNIT)
    {
        AddTestCase(new WithPlanesTestCase(1), TestCase::QUICK);
        AddTestCase(new WithPlanesTestCase(2), TestCase::QUICK);
        AddTestCase(new WithPlanesTestCase(4), TestCase::QUICK);
        AddTestCase(new BadPlanesTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
RdmaPlanesTestSuite g_rdmaPlanesTestSuite;

} // namespace
