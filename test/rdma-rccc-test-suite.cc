/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RCCC, UEC 1.0's receiver credit (RdmaRcccSender, RdmaRcccPacer), by the
 * rules of UEC's reference model (uet-htsim's UecSrc::computePullTarget,
 * UecSink::pull, UecPullPacer::doNextEvent): the pull target a request
 * carries, credit and its wrap on the wire, speculation, and the pacer's
 * grants (at most CreditPerPull each, no more than asked, round robin, one
 * every CreditPerPull bytes' time at PullRate of the line rate, then slow
 * pulls up to the sender's maximum credit).
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/rdma-rccc.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

namespace
{

/// Quanta of `bytes` rounded up.
uint32_t
Quanta(uint64_t bytes)
{
    return static_cast<uint32_t>((bytes + RdmaRcccSender::QUANTUM_BYTES - 1) /
                                 RdmaRcccSender::QUANTUM_BYTES);
}

/// The sender's half: credit, the pull target, speculation.
class RcccSenderTestCase : public TestCase
{
  public:
    RcccSenderTestCase()
        : TestCase("rccc sender: speculative credit, pull target = min(backlog, max credit) - "
                   "credit, shared among active senders; credit unwraps modulo 2^24 quanta")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t max = 262926; // 1.5 x 100 Gb/s x 14.02 us
        const uint32_t mtu = 4150;
        RdmaRcccSender s;
        s.Init(max, mtu);
        NS_TEST_ASSERT_MSG_EQ(s.IsSpeculating(), true, "speculates at first");
        NS_TEST_ASSERT_MSG_EQ(s.GetCredit(), int64_t(max), "a window of speculative credit");
        // 2 MB to send, one packet out: it wants max credit, less what it holds.
        uint16_t t = s.OnSend(mtu, 2000000 - 4096, 0, 0, 1);
        NS_TEST_EXPECT_MSG_EQ(t, Quanta(max - (max - mtu)), "target: the credit spent");
        NS_TEST_EXPECT_MSG_EQ(s.GetCredit(), int64_t(max - mtu), "credit spent");
        // A sender CC's window caps what it asks for at window + MTU.
        // window + MTU is below the credit held: while speculating it still
        // asks for a packet's worth.
        t = s.OnSend(mtu, 2000000 - 8192, 0, 100000, 1);
        NS_TEST_EXPECT_MSG_EQ(t, Quanta(mtu), "at least one packet while speculating");
        // Shared among four active senders of the NIC.
        RdmaRcccSender four;
        four.Init(max, mtu);
        four.StopSpeculating();
        NS_TEST_EXPECT_MSG_EQ(four.GetCredit(), 0, "speculation over: its credit dropped");
        NS_TEST_EXPECT_MSG_EQ(four.CanSend(), false, "no credit, no packet");
        t = four.OnSend(mtu, 100000, 0, 0, 4);
        NS_TEST_EXPECT_MSG_EQ(t, Quanta((100000 + mtu) / 4), "a quarter of the demand");
        // Credit arrives cumulatively: 40 quanta, then a stale 30, then 100.
        NS_TEST_EXPECT_MSG_EQ(four.OnCredit(40), true, "credit grows");
        NS_TEST_EXPECT_MSG_EQ(four.GetCredit(),
                              int64_t(40 * RdmaRcccSender::QUANTUM_BYTES) - mtu,
                              "40 quanta, less the packet sent");
        NS_TEST_EXPECT_MSG_EQ(four.OnCredit(30), false, "an older credit frame");
        NS_TEST_EXPECT_MSG_EQ(four.OnCredit(100), true, "more");
        NS_TEST_EXPECT_MSG_EQ(four.GetCredit(),
                              int64_t(100 * RdmaRcccSender::QUANTUM_BYTES) - mtu,
                              "100 quanta granted in all");
        // The held credit never exceeds the maximum.
        NS_TEST_EXPECT_MSG_EQ(four.OnCredit(10000), true, "a large grant");
        NS_TEST_EXPECT_MSG_EQ(four.GetCredit(), int64_t(max), "capped at the maximum");
        // The PSN field wraps: a grant just past 2^24 quanta is forward.
        RdmaRcccSender w;
        w.Init(max, mtu);
        w.StopSpeculating();
        for (uint64_t pull = 8000000; pull <= RdmaRcccSender::PULL_MODULUS + 10;
             pull += 8000000)
        {
            w.OnSend(mtu, 0, 0, 0, 1);
            w.OnCredit(static_cast<uint32_t>(pull % RdmaRcccSender::PULL_MODULUS));
        }
        NS_TEST_EXPECT_MSG_EQ(w.OnCredit((RdmaRcccSender::PULL_MODULUS + 10) %
                                         RdmaRcccSender::PULL_MODULUS),
                              true,
                              "a grant past the wrap is new credit");
    }
};

/// The receiver's half: grants, their pace and order.
class RcccPacerTestCase : public TestCase
{
  public:
    RcccPacerTestCase()
        : TestCase("rccc pacer: 16 KiB grants at 0.99 of 100 Gbps, never past the target, "
                   "round robin; then slow pulls up to the maximum credit")
    {
    }

  private:
    /// One credit frame sent.
    struct Grant
    {
        Time at;       //!< when
        uint32_t qpn;  //!< to whom
        uint32_t pull; //!< cumulative quanta
    };

    void DoRun() override
    {
        std::vector<Grant> grants;
        Ptr<RdmaRcccPacer> pacer = CreateObject<RdmaRcccPacer>();
        const uint64_t max = 32768; // 64 quanta
        pacer->Setup(DataRate("100Gbps"),
                     max,
                     MakeCallback(
                         +[](std::vector<Grant>* g, uint32_t qpn, uint32_t pull) {
                             g->push_back({Simulator::Now(), qpn, pull});
                         })
                         .Bind(&grants));
        // QP 7 asks for 100 quanta (51,200 bytes), QP 9 for 40.
        pacer->OnRequest(7, 100);
        pacer->OnRequest(9, 40);
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        // 32 quanta (16 KiB) a grant, alternating: 7, 9, 7, 9 (9 has 8 left), 7, 7 (4 left).
        const std::vector<std::pair<uint32_t, uint32_t>> first = {
            {7, 32}, {9, 32}, {7, 64}, {9, 40}, {7, 96}, {7, 100}};
        NS_TEST_ASSERT_MSG_GT(grants.size(), first.size(), "grants");
        for (std::size_t i = 0; i < first.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(grants[i].qpn, first[i].first, "round robin, grant " << i);
            NS_TEST_EXPECT_MSG_EQ(grants[i].pull, first[i].second, "no more than asked " << i);
        }
        // Paced: each grant's bytes at 0.99 x 100 Gb/s before the next.
        const double perQuantum = 8.0 * RdmaRcccSender::QUANTUM_BYTES / (100e9 * 0.99);
        NS_TEST_EXPECT_MSG_EQ_TOL((grants[1].at - grants[0].at).GetSeconds(),
                                  32 * perQuantum,
                                  1e-9,
                                  "16 KiB at 99 Gbps: 1.324 us");
        NS_TEST_EXPECT_MSG_EQ_TOL((grants[4].at - grants[3].at).GetSeconds(),
                                  8 * perQuantum,
                                  1e-9,
                                  "the 8-quantum grant's time");
        // Then slow pulls, 32 quanta each, to the idle QPs until each is 64
        // quanta (the maximum credit) ahead of its target.
        uint32_t slow7 = 0;
        uint32_t slow9 = 0;
        for (std::size_t i = first.size(); i < grants.size(); ++i)
        {
            (grants[i].qpn == 7 ? slow7 : slow9) += 32;
        }
        NS_TEST_EXPECT_MSG_EQ(slow7, 64, "QP 7: slow credit up to the maximum");
        NS_TEST_EXPECT_MSG_EQ(slow9, 64, "QP 9 too");
        NS_TEST_EXPECT_MSG_EQ(pacer->GetStats().credits, grants.size(), "counted");
        NS_TEST_EXPECT_MSG_EQ(pacer->GetStats().slowCredits, 4, "four slow pulls");
        // A higher target later: served again, from where its grants stand.
        pacer->OnRequest(7, 200);
        grants.clear();
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(grants.empty(), false, "a new demand");
        NS_TEST_EXPECT_MSG_EQ(grants[0].pull, 164 + 32, "after the slow credit");
        pacer->Dispose();
        Simulator::Destroy();
    }
};


/// RCCC's receiver rate control for oversubscribed fabrics (htsim_uec's OversubscribedCC).
class RcccRateControlTestCase : public TestCase
{
  public:
    RcccRateControlTestCase()
        : TestCase("RCCC rate control: trimmed share cuts the rate (1 -> 0.8), a CE-marked "
                   "average above 0.3 cuts it by (g - 0.3) x 0.5 (-> 0.72), clean intervals "
                   "add 0.01 x 2^n (0.73, 0.75, 0.79), the minimum holds")
    {
    }

  private:
    void DoRun() override
    {
        RdmaRcccRateControl rc(0.5);
        double rate = 0;
        NS_TEST_EXPECT_MSG_EQ(rc.IsQuiet(), true, "nothing yet");
        rate = rc.Update();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, 1.0, 1e-12, "at most 1");
        auto arrive = [&rc](int whole, int marked, int trimmed) {
            for (int i = 0; i < whole; ++i)
            {
                rc.OnRequest(i < marked);
            }
            for (int i = 0; i < trimmed; ++i)
            {
                rc.OnTrimmed();
            }
        };
        arrive(8, 0, 2);
        NS_TEST_EXPECT_MSG_EQ(rc.IsQuiet(), false, "arrivals");
        rate = rc.Update();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, 0.8, 1e-12, "2 of 10 trimmed");
        arrive(10, 10, 0); // g = 0.5 x 0 + 0.5 x 1 = 0.5
        rate = rc.Update();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, 0.8 * (1 - 0.2 * 0.5), 1e-12, "MD");
        arrive(10, 0, 0); // g = 0.25: no cut
        rate = rc.Update();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, 0.73, 1e-12, "+0.01");
        rate = rc.Update();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, 0.75, 1e-12, "+0.02");
        rate = rc.Update();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, 0.79, 1e-12, "+0.04");
        arrive(0, 0, 10);
        rate = rc.Update();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, 0.5, 1e-12, "all trimmed: the minimum");
        // In the pacer: grants spaced by the rate once an interval (0.75-1.25 x
        // 1.5 base RTTs) has seen only trimmed headers.
        std::vector<Time> grants;
        Ptr<RdmaRcccPacer> pacer = CreateObject<RdmaRcccPacer>();
        pacer->SetAttribute("OversubscribedCc", BooleanValue(true));
        pacer->SetAttribute("OversubscribedMinRate", DoubleValue(0.5));
        pacer->SetBaseRtt(MicroSeconds(10));
        pacer->Setup(DataRate("100Gbps"),
                     1 << 20,
                     MakeCallback(+[](std::vector<Time>* g, uint32_t, uint32_t) {
                         g->push_back(Simulator::Now());
                     }).Bind(&grants));
        for (int i = 0; i < 10; ++i)
        {
            pacer->CountArrival(true, false);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(pacer->GetRate(), 1.0, 1e-12, "until the interval ends");
        double at20 = 0;
        Simulator::Schedule(MicroSeconds(19), [pacer]() { pacer->OnRequest(7, 1000); });
        // The first interval ends by 18.75 us, the second not before 22.5 us.
        Simulator::Schedule(MicroSeconds(20), [pacer, &at20]() { at20 = pacer->GetRate(); });
        Simulator::Stop(MicroSeconds(30));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(at20, 0.5, 1e-12, "cut to the minimum");
        NS_TEST_ASSERT_MSG_GT(grants.size(), 2u, "grants");
        // 16 KiB at 0.5 x 0.99 x 100 Gb/s: 2.648 us apart.
        NS_TEST_EXPECT_MSG_EQ_TOL((grants[2] - grants[1]).GetSeconds(),
                                  16384 * 8 / (0.5 * 0.99 * 100e9),
                                  1e-9,
                                  "half the pull rate");
        pacer->Dispose();
        Simulator::Destroy();
    }
};
/// The suite.
class RdmaRcccTestSuite : public TestSuite
{
  public:
    RdmaRcccTestSuite()
        : TestSuite("rdma-rccc", UNIT)
    {
        AddTestCase(new RcccSenderTestCase, TestCase::QUICK);
        AddTestCase(new RcccPacerTestCase, TestCase::QUICK);
        AddTestCase(new RcccRateControlTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
RdmaRcccTestSuite g_rdmaRcccTestSuite;

} // namespace
