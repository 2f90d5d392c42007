/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HPCC (Li et al., SIGCOMM 2019) driven through its RdmaCcState without a
 * network: Algorithm 1's utilization, window and rate from INT records
 * worked out by hand, and each record compared with the last one of its own
 * egress when a QP's packets take two paths.
 *
 * Timers run on the Simulator; every case destroys it at the end. Every time
 * here is a whole nanosecond, so the values are exact whether the runner
 * keeps ns-3's default resolution or the module's picoseconds.
 */

#include "rdma-test-cc.h"

#include "ns3/rdma-hpcc.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// HPCC: U from INT, the window rule of Algorithm 1, W_c once per RTT, fast reaction.
class HpccTestCase : public TestCase
{
  public:
    HpccTestCase()
        : TestCase("HPCC: U from INT, Algorithm 1 window rule, maxStage, fast reaction")
    {
    }

  private:
    /**
     * \brief Deliver an ACK of one MTU carrying one INT hop at 100 Gb/s.
     * \param ts the hop's timestamp
     * \param tx its cumulative bytes
     * \param q its queue length
     */
    void AckHop(Time ts, uint64_t tx, uint32_t q)
    {
        RdmaAckInfo ack = Ack(1000);
        ack.intHops.push_back(Hop(DataRate("100Gbps"), ts, tx, q));
        m_cc->OnAck(m_state, ack);
    }

    void DoRun() override
    {
        // 100 Gb/s, T = 10 us: W_init = 125000 B; W_AI = 40 Mb/s x 10 us = 50 B.
        m_state = MakeState();
        m_cc = CreateObject<RdmaHpcc>();
        m_cc->Init(m_state);
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 125000, "W_init = B x T");
        NS_TEST_EXPECT_MSG_EQ(m_state->m_rate.Get(), DataRate("100Gbps"), "line rate at start");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetWindowAi(), 50.0, 1e-9, "W_AI = 10 Mb/s x 4 x T");

        for (int i = 0; i < 3; ++i)
        {
            m_cc->OnSend(m_state, 1000);
        }
        AckHop(MicroSeconds(1), 0, 0); // first INT: recorded only
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 125000, "the first INT only records");

        // Fast reaction: qlen 0, txRate = B over 10 us: U_j = 1, U = 1.
        AckHop(MicroSeconds(11), 125000, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(), 1.0, 1e-12, "U = 0/(BT) + B/B = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetWindow(),
                                  125000 * 0.95 + 50,
                                  1e-6,
                                  "W = W_c/(U/eta) + W_AI = 118800");
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 118800, "window published");
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), 95.04e9, 1.0, "rate = W/T = 95.04 Gb/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                  125000.0,
                                  1e-9,
                                  "fast reaction leaves W_c");

        // Half the rate over 5 us: tau = T/2, U = 0.5 x 1 + 0.5 x 0.5 = 0.75 < eta.
        AckHop(MicroSeconds(16), 125000 + 31250, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.75,
                                  1e-12,
                                  "EWMA: U = (1 - tau/T) U + (tau/T) u");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetWindow(),
                                  125000.0,
                                  1e-9,
                                  "W = W_c + W_AI, capped at W_init");

        // The next ACK acknowledges data sent after the first INT: W_c is updated.
        m_cc->OnSend(m_state, 1000);
        AckHop(MicroSeconds(26), 156250 + 125000, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                  118800.0,
                                  1e-6,
                                  "once per RTT: W_c = W = 125000 x 0.95 + 50");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(), 0, "multiplicative step: incStage 0");

        // Five updates at U = 0.93 < eta: W_c + W_AI each, incStage 1..5.
        uint64_t tx = 281250;
        Time ts = MicroSeconds(26);
        for (int i = 1; i <= 5; ++i)
        {
            m_cc->OnSend(m_state, 1000);
            tx += 116250;
            ts += MicroSeconds(10);
            AckHop(ts, tx, 0);
            NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(), 0.93, 1e-9, "U = 0.93");
            NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                      118800.0 + 50 * i,
                                      1e-6,
                                      "U < eta: W_c = W_c + W_AI");
            NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(),
                                  static_cast<uint32_t>(i),
                                  "incStage counts additive steps");
        }
        // incStage = maxStage: the multiplicative rule even below eta.
        m_cc->OnSend(m_state, 1000);
        tx += 116250;
        ts += MicroSeconds(10);
        AckHop(ts, tx, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                  119050.0 * 0.95 / 0.93 + 50,
                                  1e-6,
                                  "incStage >= maxStage: W = W_c/(U/eta) + W_AI");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(), 0, "incStage reset");

        // Queue term with the smaller of two queue lengths; the largest hop wins.
        m_state = MakeState();
        m_cc = CreateObject<RdmaHpcc>();
        m_cc->Init(m_state);
        m_cc->OnSend(m_state, 1000);
        AckHop(Time(0), 0, 50000);
        AckHop(MicroSeconds(10), 0, 25000);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.2,
                                  1e-12,
                                  "U = min(25000, 50000) B / (100 Gb/s x 10 us) = 0.2");
        RdmaAckInfo first = Ack(0);
        first.intHops = {Hop(DataRate("100Gbps"), MicroSeconds(20), 0, 0),
                         Hop(DataRate("40Gbps"), MicroSeconds(20), 0, 10000)};
        m_cc->OnAck(m_state, first); // hop count changed: recorded only
        RdmaAckInfo second = Ack(0);
        second.intHops = {Hop(DataRate("100Gbps"), MicroSeconds(30), 62500, 0),
                          Hop(DataRate("40Gbps"), MicroSeconds(30), 50000, 20000)};
        m_cc->OnAck(m_state, second);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  1.2,
                                  1e-12,
                                  "U = max(0.5, 10000 B/(40 Gb/s x 10 us) + 40G/40G = 1.2)");
        Simulator::Destroy();
    }

    Ptr<RdmaCcState> m_state; //!< the QP's state
    Ptr<RdmaHpcc> m_cc;       //!< the algorithm
};

/**
 * HPCC with a QP's packets over two paths: slot 0's record comes from
 * egress A or egress B in turn. Each record is compared with the last one
 * of its own egress (Algorithm 1's per-hop differences need the same
 * link), never with the other path's.
 */
class HpccPerEgressTestCase : public TestCase
{
  public:
    HpccPerEgressTestCase()
        : TestCase("HPCC: INT records compared per egress when packets take several paths")
    {
    }

  private:
    /**
     * \brief Deliver an ACK carrying one INT hop at 100 Gb/s from one egress.
     * \param egress the egress that wrote it
     * \param ts its timestamp
     * \param tx its cumulative bytes
     */
    void AckFrom(uint64_t egress, Time ts, uint64_t tx)
    {
        RdmaAckInfo ack = Ack(1000);
        RdmaIntHop hop = Hop(DataRate("100Gbps"), ts, tx, 0);
        hop.egressId = egress;
        ack.intHops.push_back(hop);
        m_cc->OnAck(m_state, ack);
    }

    void DoRun() override
    {
        // 100 Gb/s, T = 10 us (B x T = 125000 B). Egress B has sent far more
        // (other flows) than egress A: a difference across them is no rate.
        const uint64_t a = (1ULL << 32) | 1;
        const uint64_t b = (2ULL << 32) | 1;
        const uint64_t bBase = 1000000000;
        m_state = MakeState();
        m_cc = CreateObject<RdmaHpcc>();
        m_cc->Init(m_state);
        m_cc->OnSend(m_state, 1000);
        AckFrom(a, MicroSeconds(0), 0); // first INT: recorded only
        AckFrom(b, MicroSeconds(5), bBase);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  1.0,
                                  1e-12,
                                  "B's first record has no reference: U stays at its start");
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 125000, "no measurement, W = W_init");
        // A at half rate over T: tau = T, U = u_A = 62500 x 8 / 10 us / 100 Gb/s = 0.5.
        AckFrom(a, MicroSeconds(10), 62500);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.5,
                                  1e-12,
                                  "A compared with A's previous record: U = 0.5");
        // B at 0.9 of its rate over T: U = 0.9.
        AckFrom(b, MicroSeconds(15), bBase + 112500);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.9,
                                  1e-12,
                                  "B compared with B's previous record: U = 0.9");
        Simulator::Destroy();
    }

    Ptr<RdmaCcState> m_state; //!< the QP's state
    Ptr<RdmaHpcc> m_cc;       //!< the algorithm
};

/// The rdma-cc-hpcc suite
class RdmaCcHpccTestSuite : public TestSuite
{
  public:
    RdmaCcHpccTestSuite()
        : TestSuite("rdma-cc-hpcc", UNIT)
    {
        AddTestCase(new HpccTestCase, TestCase::QUICK);
        AddTestCase(new HpccPerEgressTestCase, TestCase::QUICK);
    }
};

RdmaCcHpccTestSuite g_rdmaCcHpccTestSuite; //!< static instance

} // namespace
