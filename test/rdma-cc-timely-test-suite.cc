/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TIMELY (Mittal et al., SIGCOMM 2015) driven through its RdmaCcState
 * without a network: the RTT-gradient rate rules against values worked out
 * by hand from the paper's Algorithm 1.
 *
 * Timers run on the Simulator; every case destroys it at the end. Every time
 * here is a whole nanosecond, so the values are exact whether the runner
 * keeps ns-3's default resolution or the module's picoseconds.
 */

#include "rdma-test-cc.h"

#include "ns3/rdma-timely.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// TIMELY: T_low, T_high, gradient rules, hyperactive increase, once per RTT.
class TimelyTestCase : public TestCase
{
  public:
    TimelyTestCase()
        : TestCase("TIMELY: T_low and T_high rules, RTT gradient, hyperactive increase")
    {
    }

  private:
    /**
     * \brief One RTT round: a packet sent and acknowledged with an RTT sample.
     * \param rtt the sample
     */
    void Round(Time rtt)
    {
        m_cc->OnSend(m_state, 1000);
        m_cc->OnAck(m_state, Ack(1000, rtt));
    }

    void DoRun() override
    {
        // 100 Gb/s: delta = 10 Mb/s per 10 Gb/s = 100 Mb/s.
        m_state = MakeState();
        m_cc = CreateObject<RdmaTimely>();
        m_cc->Init(m_state);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetAdditiveStep(), 100e6, 1e-6, "delta = 100 Mb/s");
        Round(MicroSeconds(600));
        NS_TEST_EXPECT_MSG_EQ(m_state->m_rate.Get(),
                              DataRate("100Gbps"),
                              "the first sample only sets prev_rtt");
        Round(MicroSeconds(600));
        double r = 100e9 * (1 - 0.8 * (1 - 500.0 / 600.0));
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state),
                                  r,
                                  2.0,
                                  "rtt > T_high: R = R (1 - beta (1 - T_high/rtt))");
        Round(MicroSeconds(40));
        r += 100e6;
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r, 2.0, "rtt < T_low: R = R + delta");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetRttDiff(),
                                  0.875 * -560e-6,
                                  1e-12,
                                  "rtt_diff = (1 - a) 0 + a (40 - 600) us");
        Round(MicroSeconds(100));
        r += 100e6;
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetRttDiff(),
                                  0.125 * -490e-6 + 0.875 * 60e-6,
                                  1e-12,
                                  "rtt_diff = -8.75 us");
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r, 2.0, "gradient <= 0: R = R + delta");
        Round(MicroSeconds(110));
        double diff = 0.125 * -8.75e-6 + 0.875 * 10e-6; // 7.65625 us
        r *= 1 - 0.8 * diff / 20e-6;
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state),
                                  r,
                                  2.0,
                                  "gradient > 0: R = R (1 - beta rtt_diff/minRTT)");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(), 0, "a decrease resets the count");

        // Five increases by delta, then hyperactive increase by N delta = 500 Mb/s.
        for (int i = 0; i < 5; ++i)
        {
            Round(MicroSeconds(40));
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r + 500e6, 2.0, "five increases of delta");
        Round(MicroSeconds(40));
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state),
                                  r + 1000e6,
                                  2.0,
                                  "sixth increase in a row: hyperactive, + 5 delta");
        // Once per RTT: an ACK that acknowledges nothing sent after the last update.
        m_cc->OnAck(m_state, Ack(0, MicroSeconds(40)));
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r + 1000e6, 2.0, "no update within the RTT");
        // The floor: two rounds at 100 ms cut to about 0.04 of the rate, below 10 Gb/s.
        m_cc->SetAttribute("MinRate", DataRateValue(DataRate("10Gbps")));
        Round(MilliSeconds(100));
        Round(MilliSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(m_state->m_rate.Get(), DataRate("10Gbps"), "rate >= MinRate");
        Simulator::Destroy();
    }

    Ptr<RdmaCcState> m_state; //!< the QP's state
    Ptr<RdmaTimely> m_cc;     //!< the algorithm
};

/// The rdma-cc-timely suite
class RdmaCcTimelyTestSuite : public TestSuite
{
  public:
    RdmaCcTimelyTestSuite()
        : TestSuite("rdma-cc-timely", UNIT)
    {
        AddTestCase(new TimelyTestCase, TestCase::QUICK);
    }
};

RdmaCcTimelyTestSuite g_rdmaCcTimelyTestSuite; //!< static instance

} // namespace
