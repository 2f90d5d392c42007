/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC failure modes at the switch: the PFC watchdog (a NIC that keeps the
// switch paused) and deadlock detection (a routing loop).

#include "rdma-test-star.h"

#include "ns3/qbb-helper.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr uint8_t DATA_CLASS = 3; //!< DSCP 26 -> class 3 (lossless)

/// A receiver that holds a pause on the switch: the watchdog declares a storm.
class WatchdogTestCase : public TestCase
{
  public:
    explicit WatchdogTestCase(bool drop)
        : TestCase(std::string("PFC watchdog, action ") + (drop ? "Drop" : "Ignore") +
                   ": a receiver holding a pause is declared stormed DetectionTime after the "
                   "pause began, restored RestorationTime after its last pause, and every WRITE "
                   "completes"),
          m_drop(drop)
    {
    }

  private:
    void DoRun() override
    {
        const Time detection = MicroSeconds(50);
        const Time restoration = MicroSeconds(50);
        const Time release = MicroSeconds(300);
        Star::Options o;
        o.hosts = 2;
        o.connection.timeout = 10; // 4.2 ms
        const bool drop = m_drop;
        o.configure = [=](Ptr<RdmaSwitch> sw) {
            sw->GetWatchdog()->SetAttribute("DetectionTime", TimeValue(detection));
            sw->GetWatchdog()->SetAttribute("RestorationTime", TimeValue(restoration));
            sw->GetWatchdog()->SetAttribute("Action", StringValue(drop ? "Drop" : "Ignore"));
        };
        Star star(o);
        // The receiver's NIC stops draining: it pauses the switch, refreshing the
        // pause (6000 quanta = 30.72 us at 100 Gbps) until it lets go.
        star.hostPorts[1]->GetPfcController()->SetAttribute("PauseQuanta", UintegerValue(6000));
        star.hostPorts[1]->GetPfcController()->SetHold(DATA_CLASS, true);
        Simulator::Schedule(release,
                            [&star]() { star.hostPorts[1]->GetPfcController()->SetHold(DATA_CLASS, false); });
        Time pausedAt = Time::Max();
        star.switchPorts[1]->GetPfcController()->TraceConnectWithoutContext("PauseState",
            Callback<void, uint8_t, bool>([&pausedAt](uint8_t cls, bool paused) {
                if (cls == DATA_CLASS && paused && pausedAt == Time::Max())
                {
                    pausedAt = Simulator::Now();
                }
            }));
        Time stormAt;
        uint32_t stormPort = 99;
        Time pausedFor;
        star.sw->GetWatchdog()->TraceConnectWithoutContext(
            "Storm",
            Callback<void, uint32_t, uint8_t, Time>([&](uint32_t port, uint8_t, Time d) {
                stormAt = Simulator::Now();
                stormPort = port;
                pausedFor = d;
            }));
        Time restoreAt;
        star.sw->GetWatchdog()->TraceConnectWithoutContext(
            "Restore",
            Callback<void, uint32_t, uint8_t>(
                [&restoreAt](uint32_t, uint8_t) { restoreAt = Simulator::Now(); }));
        uint32_t deliveredWhilePaused = 0;
        star.hostPorts[1]->TraceConnectWithoutContext(
            "MacRx",
            Callback<void, Ptr<const Packet>>(
                [&](Ptr<const Packet>) { deliveredWhilePaused += Simulator::Now() < release; }));
        Ptr<RdmaQueuePair> qp = star.Connect(0, 1);
        const uint32_t writes = 4;
        for (uint32_t w = 0; w < writes; ++w)
        {
            star.PostWrite(qp, 0, 1, w, 64 * 1024);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(star.sw->GetWatchdog()->GetStormCount(), 1, "one storm");
        NS_TEST_ASSERT_MSG_EQ(stormPort, 1, "on the receiver's port");
        NS_TEST_ASSERT_MSG_EQ(stormAt, pausedAt + detection, "declared after DetectionTime");
        NS_TEST_ASSERT_MSG_EQ(pausedFor, detection, "paused for DetectionTime");
        // The last pause refresh is at most one refresh interval before the release.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(restoreAt, release - MicroSeconds(11), "restored after");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(restoreAt,
                                    release + 2 * restoration,
                                    "restored within two checks of the last pause");
        const RdmaSwitch::Stats& st = star.sw->GetStats();
        if (m_drop)
        {
            NS_TEST_ASSERT_MSG_GT(st.drops[DROP_PFC_STORM],
                                  0,
                                  "stormed frames dropped");
            NS_TEST_ASSERT_MSG_GT(qp->GetStats().retransmissions, 0, "the sender retransmitted");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(st.drops[DROP_PFC_STORM], 0, "nothing dropped");
            NS_TEST_ASSERT_MSG_GT(deliveredWhilePaused, 0, "frames sent despite the pause");
        }
        NS_TEST_ASSERT_MSG_EQ(star.Count(0, IBV_WC_SUCCESS), writes, "every WRITE completed");
        std::cout << "  storm at " << stormAt.As(Time::US) << " (pause at " << pausedAt.As(Time::US)
                  << "), restored at " << restoreAt.As(Time::US) << ", storm drops "
                  << st.drops[DROP_PFC_STORM] << ", delivered while paused "
                  << deliveredWhilePaused << std::endl;
        Simulator::Destroy();
    }

    bool m_drop; //!< action Drop (else Ignore)
};

/// Two switches, a host on each, a link between them.
struct TwoSwitches
{
    std::vector<Ptr<RdmaSwitch>> sw;      //!< s0, s1
    std::vector<Ptr<QbbNetDevice>> hosts; //!< host i on port 0 of switch i
    std::vector<Ptr<QbbNetDevice>> inner; //!< port 1 of s0 and s1 (the link between them)

    TwoSwitches()
    {
        QbbHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetChannelAttribute("Delay", TimeValue(NanoSeconds(1000)));
        std::vector<Ptr<Node>> nodes;
        for (int i = 0; i < 2; ++i)
        {
            nodes.push_back(CreateObject<Node>());
            sw.push_back(CreateObject<RdmaSwitch>());
            nodes.back()->AggregateObject(sw.back());
            sw.back()->GetMmu()->SetAttribute("BufferSize", UintegerValue(400000));
            sw.back()->GetWatchdog()->SetAttribute("Enabled", BooleanValue(false));
        }
        std::vector<Ptr<QbbNetDevice>> swSide;
        for (int i = 0; i < 2; ++i)
        {
            NetDeviceContainer d = link.Install(CreateObject<Node>(), nodes[i]);
            hosts.push_back(DynamicCast<QbbNetDevice>(d.Get(0)));
            swSide.push_back(DynamicCast<QbbNetDevice>(d.Get(1)));
        }
        NetDeviceContainer mid = link.Install(nodes[0], nodes[1]);
        inner = {DynamicCast<QbbNetDevice>(mid.Get(0)), DynamicCast<QbbNetDevice>(mid.Get(1))};
        for (int i = 0; i < 2; ++i)
        {
            swSide[i]->GetTxQueue()->SetAttribute("MaxBytes", UintegerValue(1ULL << 32));
            inner[i]->GetTxQueue()->SetAttribute("MaxBytes", UintegerValue(1ULL << 32));
            sw[i]->AddPort(swSide[i]);
            sw[i]->AddPort(inner[i]);
        }
    }

    /// Each host sends frames frames of 1000 bytes to dst at line rate.
    void Blast(Ipv4Address dst, uint32_t frames)
    {
        for (uint32_t h = 0; h < 2; ++h)
        {
            for (uint32_t i = 0; i < frames; ++i)
            {
                RoceFrame f;
                f.srcIpv4 = Ipv4Address(0x0A000001 + h);
                f.dstIpv4 = dst;
                f.dscp = 26;
                f.udpSrcPort = 0xC000 + i;
                f.bth.SetOpcode(RC_SEND_ONLY);
                f.payload = Create<Packet>(1000);
                hosts[h]->SendFrame(f.BuildEthernetFrame());
            }
        }
    }
};

/// A routing loop deadlocks the two switches; correct routes with a paused host do not.
class DeadlockTestCase : public TestCase
{
  public:
    explicit DeadlockTestCase(bool loop)
        : TestCase(loop ? "routing loop between two switches: the pause-wait cycle (s0 port 1, "
                          "s1 port 1, class 3) is reported"
                        : "loop-free routes with a receiver holding a pause: a chain of pauses, "
                          "no cycle reported"),
          m_loop(loop)
    {
    }

  private:
    void DoRun() override
    {
        TwoSwitches t;
        const Ipv4Address dst = m_loop ? Ipv4Address("10.0.0.99") : Ipv4Address("10.0.0.2");
        t.sw[0]->AddRoute(dst, 1);
        t.sw[1]->AddRoute(dst, m_loop ? 1 : 0); // the loop sends it back to s0
        if (!m_loop)
        {
            t.hosts[1]->GetPfcController()->SetHold(DATA_CLASS, true); // a congested receiver
        }
        t.Blast(dst, 1500);
        Ptr<RdmaDeadlockDetector> detector = CreateObject<RdmaDeadlockDetector>();
        detector->Start(t.sw, MicroSeconds(5));
        Simulator::Stop(MicroSeconds(400));
        Simulator::Run();
        std::vector<RdmaDeadlockDetector::Cycle> now = RdmaDeadlockDetector::FindCycles(t.sw);
        uint64_t pauses = t.inner[0]->GetPfcController()->GetStats().pauseRx[DATA_CLASS] +
                          t.inner[1]->GetPfcController()->GetStats().pauseRx[DATA_CLASS];
        NS_TEST_ASSERT_MSG_GT(pauses, 0, "the inter-switch link was paused");
        if (m_loop)
        {
            NS_TEST_ASSERT_MSG_EQ(detector->GetReported().size(), 1, "one cycle reported");
            const RdmaDeadlockDetector::Cycle& c = detector->GetReported()[0];
            NS_TEST_ASSERT_MSG_EQ(c.size(), 2, "two queues in the cycle");
            NS_TEST_ASSERT_MSG_EQ(c[0].switchIndex, 0, "s0 first");
            NS_TEST_ASSERT_MSG_EQ(c[0].port, 1, "s0 port 1");
            NS_TEST_ASSERT_MSG_EQ(c[1].switchIndex, 1, "then s1");
            NS_TEST_ASSERT_MSG_EQ(c[1].port, 1, "s1 port 1");
            NS_TEST_ASSERT_MSG_EQ(+c[0].cls, +DATA_CLASS, "class 3");
            NS_TEST_ASSERT_MSG_EQ(now.size(), 1, "still deadlocked at the end");
            std::cout << "  deadlock: nodes " << c[0].nodeId << " port " << c[0].port << " -> "
                      << c[1].nodeId << " port " << c[1].port << ", class " << +c[0].cls
                      << std::endl;
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(t.inner[0]->GetPfcController()->IsPaused(DATA_CLASS), true, "chain paused");
            NS_TEST_ASSERT_MSG_EQ(detector->GetReported().size(), 0, "no cycle");
            NS_TEST_ASSERT_MSG_EQ(now.size(), 0, "no cycle at the end");
        }
        Simulator::Destroy();
    }

    bool m_loop; //!< looped routes
};

} // namespace

/// The switch PFC failure-mode suite.
class RdmaSwitchPfcTestSuite : public TestSuite
{
  public:
    RdmaSwitchPfcTestSuite()
        : TestSuite("rdma-switch-pfc", SYSTEM)
    {
        AddTestCase(new WatchdogTestCase(true), TestCase::QUICK);
        AddTestCase(new WatchdogTestCase(false), TestCase::QUICK);
        AddTestCase(new DeadlockTestCase(true), TestCase::QUICK);
        AddTestCase(new DeadlockTestCase(false), TestCase::QUICK);
    }
};

static RdmaSwitchPfcTestSuite g_rdmaSwitchPfcTestSuite; //!< static instance
