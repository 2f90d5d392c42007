/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * UEC 1.0's NSCC driven through its RdmaCcState without a network: each
 * quadrant of (delay against the target, ECN echo), the pending increase
 * applied every 8 MSS, quick adapt after a trimming NAK, and the window's
 * bounds, against values worked out by hand.
 *
 * The path is NSCC's reference network (100 Gb/s, 12 us; MSS 4,096 bytes),
 * so a = b = 1: FI = 5 MSS, alpha = 4 MSS / T, eta = 0.15 MSS, the largest
 * window 1.5 x 150,000 bytes. Every time is a whole nanosecond.
 */

#include "rdma-test-cc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/rdma-nscc.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr double MSS = 4096;        //!< bytes
constexpr double T = 12e-6;         //!< target = base RTT, seconds
constexpr double MAX_WND = 225000;  //!< 1.5 x 100 Gb/s x 12 us, bytes
constexpr double START = 100000;    //!< the window the cases start from
constexpr double ETA = 0.15 * 4096; //!< added once per base RTT by the pending increase

/// \return a state on the reference network
Ptr<RdmaCcState>
ReferenceState()
{
    return MakeState(DataRate("100Gbps"), MicroSeconds(12), 4096);
}

/**
 * \param start the initial window, bytes (0 = the largest)
 * \param ewma the delay average's weight
 * \return an NSCC instance
 */
Ptr<RdmaNscc>
MakeNscc(uint64_t start = static_cast<uint64_t>(START), double ewma = 0.0125)
{
    Ptr<RdmaNscc> cc = CreateObject<RdmaNscc>();
    cc->SetAttribute("InitialWindow", UintegerValue(start));
    cc->SetAttribute("DelayEwmaWeight", DoubleValue(ewma));
    return cc;
}

/// The constants and the two increases.
class NsccIncreaseTestCase : public TestCase
{
  public:
    NsccIncreaseTestCase()
        : TestCase("NSCC: largest window 1.5 BDP; fair, proportional and fast increase")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCcState> state = ReferenceState();
        Ptr<RdmaNscc> cc = MakeNscc(0);
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetMaxWindow(), MAX_WND, 1e-6, "1.5 x C x R");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 225000, "starts at the largest window");
        NS_TEST_EXPECT_MSG_EQ(cc->GetTarget(), MicroSeconds(12), "T = the base RTT");
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("100Gbps"), "not paced");
        NS_TEST_EXPECT_MSG_EQ(state->m_wholePacketWindow,
                              true,
                              "a packet starts only if all of it fits the window");

        state = ReferenceState();
        cc = MakeNscc();
        cc->Init(state);
        Simulator::Schedule(MicroSeconds(1), [&]() {
            // Delay 15 us >= T, no ECN: fair increase, pending until 8 MSS are
            // acknowledged (the 9th ACK), then W += 9 x 5 MSS x MSS / W.
            for (int i = 0; i < 8; ++i)
            {
                cc->OnAck(state, Ack(4096, MicroSeconds(27)));
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), START, 1e-9, "pending below 8 MSS");
            cc->OnAck(state, Ack(4096, MicroSeconds(27)));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      START + 9 * 5 * MSS * MSS / START,
                                      1e-6,
                                      "fair increase: FI x acked / W");
        });
        Simulator::Schedule(MicroSeconds(2), [&]() {
            // Delay 6 us < T: proportional, alpha x acked x (T - d).
            const double w = cc->GetCwnd();
            for (int i = 0; i < 9; ++i)
            {
                cc->OnAck(state, Ack(4096, MicroSeconds(18)));
            }
            const double pending = 9 * (4 * MSS / T) * MSS * 6e-6;
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      w + pending / w,
                                      1e-6,
                                      "proportional increase: 4 MSS / T x acked x (T - d)");
        });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            // Delay 0.5 us < 1 us: once more than a window is acknowledged so,
            // each ACK adds acked x 0.25.
            // Twice a window's worth: fast increase is on, and the pending
            // proportional increase of the ACKs before it has been applied.
            const double w = cc->GetCwnd();
            const int acks = 2 * static_cast<int>(w / MSS) + 9;
            for (int i = 0; i < acks; ++i)
            {
                cc->OnAck(state, Ack(4096, NanoSeconds(12500)));
            }
            const double passed = cc->GetCwnd();
            NS_TEST_EXPECT_MSG_GT(passed, w + (acks / 2) * 0.25 * MSS, "the increase started");
            cc->OnAck(state, Ack(4096, NanoSeconds(12500)));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      passed + 0.25 * MSS,
                                      1e-6,
                                      "fast increase: 0.25 x acked per ACK");
        });
        Simulator::Schedule(MicroSeconds(4), [&]() {
            for (int i = 0; i < 200; ++i)
            {
                cc->OnAck(state, Ack(4096, NanoSeconds(12500)));
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), MAX_WND, 1e-9, "never above 1.5 BDP");
            NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 225000, "window published");
        });
        Simulator::Run();
        Simulator::Destroy();
    }
};

/// Multiplicative decrease, the ECN quadrant below T, and the target with trimming.
class NsccDecreaseTestCase : public TestCase
{
  public:
    NsccDecreaseTestCase()
        : TestCase("NSCC: ECN above T cuts by max(1 - 0.8 (D - T) over D, 0.5) once per base RTT")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCcState> state = ReferenceState();
        Ptr<RdmaNscc> cc = MakeNscc(static_cast<uint64_t>(START), 1.0); // D = the last sample
        cc->Init(state);
        Simulator::Schedule(MicroSeconds(20), [&]() {
            cc->OnAck(state, Ack(4096, MicroSeconds(36), true));
            NS_TEST_EXPECT_MSG_EQ(cc->GetAverageDelay(), MicroSeconds(24), "D = 24 us");
            // The first base RTT has passed: the pending increase also adds eta.
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      START * (1 - 0.8 * 12.0 / 24.0) + ETA,
                                      1e-6,
                                      "W x (1 - 0.8 x 12/24) = 0.6 W, then + eta");
            cc->OnAck(state, Ack(4096, MicroSeconds(36), true));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      0.6 * START + ETA,
                                      1e-6,
                                      "once per base RTT");
        });
        Simulator::Schedule(MicroSeconds(33), [&]() {
            cc->OnAck(state, Ack(4096, MicroSeconds(112), true));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      (0.6 * START + ETA) * 0.5 + ETA,
                                      1e-6,
                                      "D = 100 us: 1 - 0.8 x 88/100 < 0.5, so halved");
            const double w = cc->GetCwnd();
            cc->OnAck(state, Ack(4096, MicroSeconds(17), true));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), w, 1e-9, "ECN below T: no change");
        });
        Simulator::Run();
        Simulator::Destroy();

        state = ReferenceState();
        cc = MakeNscc();
        cc->SetAttribute("TargetBaseRtts", DoubleValue(0.75));
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ(cc->GetTarget(), MicroSeconds(9), "T = 0.75 x 12 us");
    }
};

/// Trimming NAKs: quick adapt, the NAKs it then ignores, and the plain cut.
class NsccTrimTestCase : public TestCase
{
  public:
    NsccTrimTestCase()
        : TestCase("NSCC: a trimming NAK quick-adapts W to the bytes acknowledged in the period")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCcState> state = ReferenceState();
        Ptr<RdmaNscc> cc = MakeNscc();
        cc->Init(state);
        Simulator::Schedule(MicroSeconds(1), [&]() {
            // The first ACK opens the first period (it ends at 1 + 12 + 12 us).
            cc->OnAck(state, Ack(4096, MicroSeconds(20)));
        });
        Simulator::Schedule(MicroSeconds(5), [&]() {
            const double w = cc->GetCwnd();
            cc->OnTrimNak(state, 4096);
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), w - 4096, 1e-6, "in the period: W - bytes");
            for (int i = 0; i < 3; ++i)
            {
                cc->OnAck(state, Ack(4096, MicroSeconds(20)));
            }
        });
        Simulator::Schedule(MicroSeconds(30), [&]() {
            state->m_bytesInFlight = 50000;
            cc->OnTrimNak(state, 4096);
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      3 * 4096.0,
                                      1e-9,
                                      "quick adapt: W = the 3 x 4096 bytes acknowledged");
            NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 12288, "window published");
            cc->OnTrimNak(state, 4096);
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      3 * 4096.0,
                                      1e-9,
                                      "NAKs of what was in flight then are not counted again");
        });
        Simulator::Run();
        Simulator::Destroy();

        // Without quick adapt, each NAK takes its bytes, down to one MSS; a
        // timeout takes what was in flight.
        state = ReferenceState();
        cc = MakeNscc(20000);
        cc->SetAttribute("QuickAdapt", BooleanValue(false));
        cc->Init(state);
        for (int i = 0; i < 3; ++i)
        {
            cc->OnTrimNak(state, 4096);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 20000 - 3 * 4096.0, 1e-9, "3 NAKs");
        cc->OnTrimNak(state, 4096);
        cc->OnTrimNak(state, 4096);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), MSS, 1e-9, "at least one MSS");
        state = ReferenceState();
        cc = MakeNscc(60000);
        cc->Init(state);
        cc->OnSend(state, 4096);
        cc->OnSend(state, 4096);
        cc->OnTimeout(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 60000 - 8192.0, 1e-9, "timeout: W - in flight");
        Simulator::Destroy();
    }
};

/// The rdma-cc-nscc suite
class RdmaCcNsccTestSuite : public TestSuite
{
  public:
    RdmaCcNsccTestSuite()
        : TestSuite("rdma-cc-nscc", UNIT)
    {
        AddTestCase(new NsccIncreaseTestCase, TestCase::QUICK);
        AddTestCase(new NsccDecreaseTestCase, TestCase::QUICK);
        AddTestCase(new NsccTrimTestCase, TestCase::QUICK);
    }
};

RdmaCcNsccTestSuite g_rdmaCcNsccTestSuite; //!< static instance

} // namespace
