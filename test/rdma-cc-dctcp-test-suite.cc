/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCTCP (Alizadeh et al., SIGCOMM 2010; RFC 8257) driven through its
 * RdmaCcState without a network: alpha's update and the window cut against
 * values worked out by hand.
 *
 * Timers run on the Simulator; every case destroys it at the end. Every time
 * here is a whole nanosecond, so the values are exact whether the runner
 * keeps ns-3's default resolution or the module's picoseconds.
 */

#include "rdma-test-cc.h"

#include "ns3/rdma-dctcp.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// DCTCP: alpha per window, cut once per window, one MTU per window, loss.
class DctcpTestCase : public TestCase
{
  public:
    DctcpTestCase()
        : TestCase("DCTCP: alpha per window of data, cut by alpha over 2, one MTU per window")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaDctcp> cc = CreateObject<RdmaDctcp>();
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 125000, "W starts at the BDP");
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("100Gbps"), "line rate");
        for (int i = 0; i < 4; ++i)
        {
            cc->OnSend(state, 1000);
        }
        cc->OnAck(state, Ack(1000));
        cc->OnAck(state, Ack(1000, Time(0), true));
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(),
                              62500,
                              "ECN echo: W = 125000 (1 - 1/2) with alpha 1");
        cc->OnAck(state, Ack(1000, Time(0), true));
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "at most one cut per window");
        cc->OnAck(state, Ack(1000));
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                  (1 - 1.0 / 16) * 1.0 + 0.5 / 16,
                                  1e-15,
                                  "half the window's bytes marked: alpha = 15/16 + 1/32");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "no increase in a marked window");

        // Unmarked data: each completed window adds one MTU and decays alpha.
        for (int i = 0; i < 4; ++i)
        {
            cc->OnSend(state, 1000);
        }
        cc->OnAck(state, Ack(1000)); // completes the window that ended at 4000 B
        double alpha = 0.96875 * 15 / 16;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-15, "F = 0: alpha (1-g)");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 63500, "W + 1 MTU");
        cc->OnAck(state, Ack(1000));
        cc->OnAck(state, Ack(1000));
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 63500, "no increase inside a window");
        cc->OnAck(state, Ack(1000));
        alpha *= 15.0 / 16;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-15, "alpha (1-g) again");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 64500, "W + 1 MTU per window");
        cc->OnSend(state, 1000);
        cc->OnAck(state, Ack(1000, Time(0), true));
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                  64500 * (1 - alpha / 2),
                                  1e-6,
                                  "a later mark cuts with the current alpha");

        // Loss: a NAK halves once per window, a timeout leaves one MTU.
        state = MakeState();
        cc = CreateObject<RdmaDctcp>();
        cc->Init(state);
        cc->OnSend(state, 1000);
        cc->OnSend(state, 1000);
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "NAK: W / 2");
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "one loss cut per window");
        cc->OnTimeout(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 1000, "timeout: one MTU");
        Simulator::Destroy();
    }
};

/// The rdma-cc-dctcp suite
class RdmaCcDctcpTestSuite : public TestSuite
{
  public:
    RdmaCcDctcpTestSuite()
        : TestSuite("rdma-cc-dctcp", UNIT)
    {
        AddTestCase(new DctcpTestCase, TestCase::QUICK);
    }
};

RdmaCcDctcpTestSuite g_rdmaCcDctcpTestSuite; //!< static instance

} // namespace
