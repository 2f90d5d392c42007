/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The switches' equal-cost port policies, driven directly: ECMP, spraying,
// DRILL, LetFlow and adaptive routing against ports whose queues and PFC
// state the test sets.

#include "ns3/qbb-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>
#include <set>

using namespace ns3;

namespace
{

constexpr uint8_t DATA_CLASS = 3; //!< DSCP 26 -> class 3

/// A RoCEv2 SEND frame with DSCP 26 and the given UDP source port (the flow's entropy).
Ptr<Packet>
MakeFrame(uint16_t udpSrc,
          uint32_t payload = 1000,
          uint8_t opcode = RC_SEND_ONLY,
          Ipv4Address dst = Ipv4Address("10.0.0.2"))
{
    RoceFrame f;
    f.srcIpv4 = Ipv4Address("10.0.0.1");
    f.dstIpv4 = dst;
    f.dscp = 26;
    f.udpSrcPort = udpSrc;
    f.bth.SetOpcode(opcode);
    f.payload = Create<Packet>(opcode == RC_ACKNOWLEDGE ? 0 : payload);
    return f.BuildEthernetFrame();
}

/// A policy with n ports whose egress queues the test fills.
struct Ports
{
    std::vector<Ptr<QbbNetDevice>> ports; //!< the "switch" ports
    Ptr<RdmaLoadBalancer> lb;             //!< the policy under test
    RdmaRouteTable::Group group;          //!< every port

    /// \param typeId the policy \param n ports \param attrs attribute name, value pairs
    Ports(const std::string& typeId,
          uint32_t n,
          const std::vector<std::pair<std::string, std::string>>& attrs = {})
    {
        ObjectFactory f(typeId);
        for (const auto& [name, value] : attrs)
        {
            f.Set(name, StringValue(value));
        }
        lb = f.Create<RdmaLoadBalancer>();
        lb->AssignStreams(7);
        QbbHelper link;
        Ptr<Node> sw = CreateObject<Node>();
        for (uint32_t i = 0; i < n; ++i)
        {
            NetDeviceContainer d = link.Install(sw, CreateObject<Node>());
            ports.push_back(DynamicCast<QbbNetDevice>(d.Get(0)));
            ports.back()->GetTxQueue()->SetAttribute("MaxBytes", UintegerValue(1ULL << 32));
            lb->AddPort(ports.back());
            group.push_back(i);
        }
    }

    /// Put `frames` frames of class DATA_CLASS in port i's queue (nothing sends them).
    void Fill(uint32_t i, uint32_t frames)
    {
        for (uint32_t k = 0; k < frames; ++k)
        {
            QbbQueueItem item;
            item.frame = RdmaFrame::Wrap(MakeFrame(1000));
            item.cls = DATA_CLASS;
            ports[i]->GetTxQueue()->Enqueue(item);
        }
    }

    /// \return the port the policy picks for a frame of this entropy and opcode
    uint32_t Pick(uint16_t udpSrc,
                  uint8_t opcode = RC_SEND_ONLY,
                  Ipv4Address dst = Ipv4Address("10.0.0.2"))
    {
        RdmaFrameView view;
        NS_ABORT_UNLESS(view.Parse(MakeFrame(udpSrc, 1000, opcode, dst)));
        return lb->Select(group, view, 1);
    }
};

/// ECMP: a flow keeps its port, flows spread; no random stream.
class EcmpTestCase : public TestCase
{
  public:
    EcmpTestCase()
        : TestCase("Ecmp: a flow's frames take one port, flows spread over all, no draws")
    {
    }

  private:
    void DoRun() override
    {
        Ports p("ns3::RdmaEcmp", 4);
        std::set<uint32_t> used;
        for (uint16_t flow = 1; flow <= 64; ++flow)
        {
            const uint32_t port = p.Pick(flow);
            for (int k = 0; k < 5; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(p.Pick(flow), port, "the same flow, the same port");
            }
            used.insert(port);
        }
        NS_TEST_EXPECT_MSG_EQ(used.size(), 4u, "64 flows reach every port");
        NS_TEST_EXPECT_MSG_EQ(p.lb->AssignStreams(0), 0, "ECMP draws nothing");
        Simulator::Destroy();
    }
};

/// Spraying: every port, about equally, within one flow.
class SprayTestCase : public TestCase
{
  public:
    SprayTestCase()
        : TestCase("Spray: one flow's frames spread uniformly over the ports")
    {
    }

  private:
    void DoRun() override
    {
        Ports p("ns3::RdmaSpray", 4);
        std::map<uint32_t, uint32_t> count;
        for (int k = 0; k < 4000; ++k)
        {
            ++count[p.Pick(42)];
        }
        NS_TEST_ASSERT_MSG_EQ(count.size(), 4u, "every port");
        for (const auto& [port, n] : count)
        {
            // Binomial(4000, 1/4): mean 1000, sd 27; 150 is more than 5 sd.
            NS_TEST_EXPECT_MSG_LT(std::abs(int(n) - 1000), 150, "port " << port);
        }
        Simulator::Destroy();
    }
};

/// A policy's random variable is made at its first draw, on the stream
/// AssignStreams gave: the draws do not depend on what was made before it.
class StreamAtFirstDrawTestCase : public TestCase
{
  public:
    StreamAtFirstDrawTestCase()
        : TestCase("Spray: AssignStreams' stream decides the draws, made at the first draw or not")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint32_t> first;
        std::vector<uint32_t> second;
        {
            Ports p("ns3::RdmaSpray", 4); // AssignStreams(7) before any draw
            for (int k = 0; k < 64; ++k)
            {
                first.push_back(p.Pick(42));
            }
        }
        {
            // Other random variables made in between take automatic streams.
            std::vector<Ptr<UniformRandomVariable>> others(5);
            for (auto& u : others)
            {
                u = CreateObject<UniformRandomVariable>();
                u->GetValue();
            }
            Ports p("ns3::RdmaSpray", 4);
            for (int k = 0; k < 64; ++k)
            {
                second.push_back(p.Pick(42));
            }
        }
        NS_TEST_EXPECT_MSG_EQ((first == second), true, "stream 7's draws, both times");
        // And they are stream 7's: a uniform variable on it draws the same ports.
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        uint32_t same = 0;
        for (uint32_t port : first)
        {
            same += (u->GetInteger(0, 3) == port);
        }
        NS_TEST_EXPECT_MSG_EQ(same, 64u, "Spray draws GetInteger(0, ports - 1) on stream 7");
        Simulator::Destroy();
    }
};

/// DRILL: the shorter queue, found by sampling and kept by memory.
class DrillTestCase : public TestCase
{
  public:
    DrillTestCase()
        : TestCase("Drill: d=2 distinct samples and m=1 memory take the shorter of two queues; "
                   "d=2, m=0 never the longest of three; d=1, m=0 is a random choice; with "
                   "ControlByHash, ACKs keep the flow hash's port")
    {
    }

  private:
    void DoRun() override
    {
        Ports p("ns3::RdmaDrill", 2);
        p.Fill(0, 10);
        p.Fill(1, 1);
        uint32_t shorter = 0;
        for (int k = 0; k < 200; ++k)
        {
            const uint32_t port = p.Pick(k);
            shorter += port == 1;
            if (k >= 100)
            {
                NS_TEST_ASSERT_MSG_EQ(port, 1u, "once seen, the shorter queue is remembered");
            }
        }
        // Two distinct samples of two ports see both: always the shorter.
        NS_TEST_EXPECT_MSG_EQ(shorter, 200u, "the shorter queue");

        Ports three("ns3::RdmaDrill", 3, {{"Samples", "2"}, {"Memory", "0"}});
        three.Fill(0, 10);
        three.Fill(1, 5);
        three.Fill(2, 1);
        uint32_t longest = 0;
        for (int k = 0; k < 900; ++k)
        {
            longest += three.Pick(k) == 0;
        }
        // Drawn with replacement, both samples would be port 0 one time in 9.
        NS_TEST_EXPECT_MSG_EQ(longest, 0u, "two distinct samples always hold a shorter queue");

        Ports control("ns3::RdmaDrill", 4, {{"ControlByHash", "true"}});
        control.Fill(0, 10);
        control.Fill(1, 10);
        control.Fill(2, 10);
        std::set<uint32_t> ackPorts;
        std::set<uint32_t> hashPorts;
        Ports ecmp("ns3::RdmaEcmp", 4);
        for (int k = 0; k < 30; ++k)
        {
            control.Pick(k); // DRILL finds and remembers the empty queue (P miss 2^-30)
        }
        for (uint16_t flow = 1; flow <= 32; ++flow)
        {
            const uint32_t port = control.Pick(flow, RC_ACKNOWLEDGE);
            NS_TEST_EXPECT_MSG_EQ(port, ecmp.Pick(flow, RC_ACKNOWLEDGE), "the ECMP port");
            NS_TEST_EXPECT_MSG_EQ(control.Pick(flow, RC_ACKNOWLEDGE), port, "every time");
            ackPorts.insert(port);
            NS_TEST_EXPECT_MSG_EQ(control.Pick(flow), 3u, "data still to the short queue");
        }
        NS_TEST_EXPECT_MSG_GT(ackPorts.size(), 1u, "ACKs of 32 flows spread by the hash");

        // One sample, one remembered port: per group, a destination never
        // seen takes the port found for another; per destination it starts
        // from a coin flip.
        for (const bool perDst : {false, true})
        {
            Ports m("ns3::RdmaDrill",
                    2,
                    {{"Samples", "1"},
                     {"Memory", "1"},
                     {"MemoryPerDestination", perDst ? "true" : "false"}});
            m.Fill(0, 10);
            m.Fill(1, 1);
            for (int k = 0; k < 40; ++k)
            {
                m.Pick(k); // 10.0.0.2 finds port 1 (P miss 2^-40)
            }
            uint32_t longer = 0;
            for (uint32_t d = 0; d < 400; ++d)
            {
                longer += m.Pick(1, RC_SEND_ONLY, Ipv4Address(0x0b000000 + d)) == 0;
            }
            if (perDst)
            {
                // Binomial(400, 1/2): sd 10.
                NS_TEST_EXPECT_MSG_GT(longer, 150u, "a new destination's first sample");
                NS_TEST_EXPECT_MSG_LT(longer, 250u, "a new destination's first sample");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(longer, 0u, "the group's memory holds port 1");
            }
        }

        Ports q("ns3::RdmaDrill", 2, {{"Samples", "1"}, {"Memory", "0"}});
        q.Fill(0, 10);
        q.Fill(1, 1);
        uint32_t random = 0;
        for (int k = 0; k < 400; ++k)
        {
            random += q.Pick(k) == 1;
        }
        // One sample, no memory: Binomial(400, 1/2), sd 10.
        NS_TEST_EXPECT_MSG_GT(random, 150u, "a random choice");
        NS_TEST_EXPECT_MSG_LT(random, 250u, "a random choice");
        Simulator::Destroy();
    }
};

/// LetFlow: a gap below the timeout keeps the port, a gap above may move it.
class LetFlowTestCase : public TestCase
{
  public:
    LetFlowTestCase()
        : TestCase("LetFlow: frames closer than FlowletTimeout keep their port; after a longer "
                   "gap the flow moves")
    {
    }

  private:
    void DoRun() override
    {
        Ports p("ns3::RdmaLetFlow", 4, {{"FlowletTimeout", "100us"}});
        std::vector<uint32_t> close;
        std::vector<uint32_t> apart;
        // 50 frames 99 us apart (one flowlet), then 40 frames 101 us apart (40 flowlets).
        for (int k = 0; k < 50; ++k)
        {
            Simulator::Schedule(MicroSeconds(99) * k, [&]() { close.push_back(p.Pick(7)); });
        }
        const Time second = MicroSeconds(99) * 50 + MicroSeconds(500);
        for (int k = 0; k < 40; ++k)
        {
            Simulator::Schedule(second + MicroSeconds(101) * k,
                                [&]() { apart.push_back(p.Pick(7)); });
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(close.size(), 50u, "all sent");
        for (uint32_t port : close)
        {
            NS_TEST_EXPECT_MSG_EQ(port, close.front(), "one flowlet, one port");
        }
        uint32_t moves = 0;
        for (std::size_t k = 1; k < apart.size(); ++k)
        {
            moves += apart[k] != apart[k - 1];
        }
        // Each new flowlet draws one of 4 ports: it moves with P = 3/4 (39 chances).
        NS_TEST_EXPECT_MSG_GT(moves, 15u, "new flowlets move");
        Simulator::Destroy();
    }
};

/// Adaptive routing: the least-loaded port that is not paused.
class AdaptiveTestCase : public TestCase
{
  public:
    AdaptiveTestCase()
        : TestCase("Adaptive: the least-loaded port; a paused one is skipped unless all are; "
                   "ties shared")
    {
    }

  private:
    void DoRun() override
    {
        Ports p("ns3::RdmaAdaptiveRouting", 3);
        std::set<uint32_t> idle;
        for (int k = 0; k < 60; ++k)
        {
            idle.insert(p.Pick(9));
        }
        NS_TEST_EXPECT_MSG_EQ(idle.size(), 3u, "empty queues tie: all shared");
        p.Fill(0, 5);
        p.Fill(1, 2);
        p.Fill(2, 3);
        NS_TEST_EXPECT_MSG_EQ(p.Pick(9), 1u, "the least loaded");
        // Port 1's peer pauses class 3: port 2 is the least loaded that may send.
        Ptr<QbbPfcController> peer = CreateObject<QbbPfcController>();
        peer->SetDataRate(DataRate("100Gbps"));
        Ptr<QbbPfcController> rx = p.ports[1]->GetPfcController();
        peer->SetTransmitCallback(Callback<void>([&]() {
            if (peer->HasPendingFrame())
            {
                rx->Receive(peer->BuildFrame(Mac48Address("02:00:00:00:00:09")));
            }
        }));
        peer->SendPause(DATA_CLASS, 0xFFFF);
        NS_TEST_ASSERT_MSG_EQ(rx->IsPaused(DATA_CLASS), true, "port 1 paused");
        NS_TEST_EXPECT_MSG_EQ(p.Pick(9), 2u, "the paused port is skipped");
        Simulator::Destroy();
    }
};

/// The suite.
class RdmaLoadBalancerTestSuite : public TestSuite
{
  public:
    RdmaLoadBalancerTestSuite()
        : TestSuite("rdma-load-balancer", UNIT)
    {
        AddTestCase(new EcmpTestCase, TestCase::QUICK);
        AddTestCase(new SprayTestCase, TestCase::QUICK);
        AddTestCase(new StreamAtFirstDrawTestCase, TestCase::QUICK);
        AddTestCase(new DrillTestCase, TestCase::QUICK);
        AddTestCase(new LetFlowTestCase, TestCase::QUICK);
        AddTestCase(new AdaptiveTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
RdmaLoadBalancerTestSuite g_rdmaLoadBalancerTestSuite;

} // namespace
