/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Swift (Kumar et al., SIGCOMM 2020) driven through its RdmaCcState without
 * a network: the target delay with its hop and flow scaling, additive
 * increase and multiplicative decrease, against values worked out by hand.
 *
 * Timers run on the Simulator; every case destroys it at the end. Every time
 * here is a whole nanosecond, so the values are exact whether the runner
 * keeps ns-3's default resolution or the module's picoseconds.
 */

#include "rdma-test-cc.h"

#include "ns3/double.h"
#include "ns3/rdma-swift.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Swift: target delay, AI, MD bounded by max_mdf once per RTT, pacing, host window.
class SwiftTestCase : public TestCase
{
  public:
    SwiftTestCase()
        : TestCase("Swift: target, AI below it, MD once per RTT bounded by max_mdf, pacing")
    {
    }

  private:
    /**
     * \param cwnd a window, packets
     * \return the flow-scaling delay for the default attributes, seconds
     * (fs_range 125 us, fs_min_cwnd 0.1, fs_max_cwnd 100)
     */
    static double Fs(double cwnd)
    {
        double a = 125e-6 / (1 / std::sqrt(0.1) - 1 / std::sqrt(100.0));
        double b = -a / std::sqrt(100.0);
        return std::max(0.0, std::min(a / std::sqrt(cwnd) + b, 125e-6));
    }

    /**
     * \brief An ACK of one MTU.
     * \param rtt its RTT sample
     * \param hops switch hops
     * \param remote the host delay
     * \return the ACK
     */
    static RdmaAckInfo SwiftAck(Time rtt, uint32_t hops, Time remote = Time(0))
    {
        RdmaAckInfo ack = Ack(1000, rtt);
        ack.hops = hops;
        ack.remoteDelay = remote;
        return ack;
    }

    void DoRun() override
    {
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaSwift> cc = CreateObject<RdmaSwift>();
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 125.0, 1e-9, "cwnd starts at the BDP");
        NS_TEST_EXPECT_MSG_EQ(cc->GetFlowScalingDelay(100), Time(0), "fs(fs_max_cwnd) = 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetFlowScalingDelay(0.1).GetSeconds(),
                                  125e-6,
                                  1e-12,
                                  "fs(fs_min_cwnd) = fs_range");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetFlowScalingDelay(1).GetSeconds(),
                                  112.5e-6 / (std::sqrt(10.0) - 0.1),
                                  1e-9,
                                  "fs(1) = a (1 - 1/sqrt(100)) = 36.74 us");
        NS_TEST_EXPECT_MSG_EQ(cc->GetFabricTarget(3),
                              MicroSeconds(28),
                              "target = base 25 us + 3 hops x 1 us + fs(125) = 0");

        Simulator::Schedule(Time(0), [&]() {
            cc->OnAck(state, SwiftAck(MicroSeconds(20), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      125 + 1.0 / 125,
                                      1e-9,
                                      "delay < target: cwnd += ai x acked / cwnd");
            NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 125008, "window = cwnd x MTU");
            cc->OnAck(state, SwiftAck(MicroSeconds(100), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      (125 + 1.0 / 125) * 0.5,
                                      1e-9,
                                      "1 - beta (100-28)/100 = 0.424 < 1 - max_mdf: cut by 0.5");
            cc->OnAck(state, SwiftAck(MicroSeconds(100), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      (125 + 1.0 / 125) * 0.5,
                                      1e-9,
                                      "at most one decrease per RTT");
        });
        Simulator::Schedule(MicroSeconds(100), [&]() {
            double w = (125 + 1.0 / 125) * 0.5;
            double target = 25e-6 + 3e-6 + Fs(w);
            cc->OnAck(state, SwiftAck(MicroSeconds(40), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      w * (1 - 0.8 * (40e-6 - target) / 40e-6),
                                      1e-9,
                                      "one RTT later: cwnd (1 - beta (delay - target)/delay)");
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("100Gbps"), "no pacing >= 1");
        });
        // Host delay over its target: the host window decides.
        Simulator::Schedule(MicroSeconds(300), [&]() {
            double fabric = cc->GetFabricCwnd();
            cc->OnAck(state, SwiftAck(MicroSeconds(50), 3, MicroSeconds(30)));
            double fabricAfter = fabric + 1 / fabric;
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetFabricCwnd(),
                                      fabricAfter,
                                      1e-9,
                                      "fabric delay 20 us < target: AI");
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetHostCwnd(),
                                      fabricAfter * (1 - 0.8 * 10.0 / 30.0),
                                      1e-9,
                                      "host delay 30 us > 20 us: cwnd (1 - beta 10/30)");
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      cc->GetHostCwnd(),
                                      1e-12,
                                      "cwnd = min(fabric, host)");
        });
        Simulator::Run();
        Simulator::Destroy();

        // Below one packet: paced at cwnd x MTU / RTT.
        state = MakeState();
        cc = CreateObject<RdmaSwift>();
        cc->SetAttribute("InitialCwnd", DoubleValue(0.5));
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 500, "window 0.5 x MTU");
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                              DataRate("400Mbps"),
                              "pacing: 0.5 x 1000 B / base RTT 10 us = 400 Mb/s");
        RdmaAckInfo small = SwiftAck(MicroSeconds(20), 0);
        small.ackedBytes = 100;
        cc->OnAck(state, small);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                  0.6,
                                  1e-12,
                                  "cwnd < 1: cwnd += ai x acked (0.1 packet)");
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 240e6, 1.0, "pacing: 0.6 x 1000 B / RTT 20 us");

        // Loss: a NAK cuts by max_mdf; repeated timeouts reset to MinCwnd.
        state = MakeState();
        cc = CreateObject<RdmaSwift>();
        cc->Init(state);
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 62.5, 1e-9, "NAK: cwnd (1 - max_mdf)");
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 62.5, 1e-9, "once per RTT");
        for (int i = 0; i < 5; ++i)
        {
            cc->OnTimeout(state);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 0.001, 1e-12, "5 timeouts: MinCwnd");
        Simulator::Destroy();
    }
};

/// The rdma-cc-swift suite
class RdmaCcSwiftTestSuite : public TestSuite
{
  public:
    RdmaCcSwiftTestSuite()
        : TestSuite("rdma-cc-swift", UNIT)
    {
        AddTestCase(new SwiftTestCase, TestCase::QUICK);
    }
};

RdmaCcSwiftTestSuite g_rdmaCcSwiftTestSuite; //!< static instance

} // namespace
