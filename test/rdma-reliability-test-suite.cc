/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RC reliability (IBA 9.7.5-9.7.6, as Linux rxe runs it): one NAK
 * per gap naming the first missing PSN and retransmission from there
 * (go-back-N), selective repeat resending only what was lost, the local
 * ACK timeout, RNR NAKs and their retry budget, retry exhaustion with a
 * dead link, and random loss in both directions with every byte checked.
 */

#include "rdma-test-hosts.h"

#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/qbb-helper.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-module.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// A PacketTx record.
struct Tx
{
    uint8_t opcode;
    uint32_t psn;
    bool retransmission;
};

std::vector<Tx>*
TraceTx(Ptr<RdmaQueuePair> qp, std::vector<Tx>* out)
{
    qp->TraceConnectWithoutContext(
        "PacketTx",
        Callback<void, uint8_t, uint32_t, bool>([out](uint8_t op, uint32_t psn, bool re) {
            out->push_back({op, psn, re});
        }));
    return out;
}

Ptr<ReceiveListErrorModel>
DropNth(std::list<uint32_t> indices)
{
    auto em = CreateObject<ReceiveListErrorModel>();
    em->SetList(indices);
    return em;
}

/// Go-back-N: one loss -> one NAK naming it -> resend from it.
class GoBackNTestCase : public TestCase
{
  public:
    GoBackNTestCase()
        : TestCase("go-back-N: one NAK per gap, naming the first missing PSN; resend from it")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts h;
        std::vector<Tx> txA;
        std::vector<Tx> txB;
        TraceTx(h.qpA, &txA);
        TraceTx(h.qpB, &txB);
        h.SetReceiveErrorModel(1, DropNth({3})); // B loses the 4th request: PSN 3
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 10240, 4);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 10240); // PSNs 0..9
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, TwoHosts::VA_B, 10240, 4), true, "bytes");
        NS_TEST_EXPECT_MSG_EQ(h.nicB->GetStats().rxDrops[DROP_BAD_ICRC],
                              1,
                              "the corrupted frame failed its ICRC");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().nakSeqSent, 1, "exactly one NAK for the gap");
        uint32_t naks = 0;
        for (const Tx& t : txB)
        {
            if (t.opcode == RC_ACKNOWLEDGE && naks == 0 && t.psn == 3)
            {
                ++naks;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(naks, 1, "the NAK names PSN 3, the first missing");
        // A sent 0..9, then 3..9 again.
        std::vector<uint32_t> resent;
        for (const Tx& t : txA)
        {
            if (t.retransmission)
            {
                resent.push_back(t.psn);
            }
        }
        std::vector<uint32_t> expect = {3, 4, 5, 6, 7, 8, 9};
        NS_TEST_EXPECT_MSG_EQ((resent == expect), true, "retransmission restarts at PSN 3");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().outOfSequence, 6, "PSNs 4..9 dropped once");
        Simulator::Destroy();
    }
};

/// Selective repeat: one loss -> only that PSN is resent.
class SelectiveRepeatTestCase : public TestCase
{
  public:
    SelectiveRepeatTestCase()
        : TestCase("selective repeat (IRN): only the lost PSN is resent")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.lossRecovery = "ns3::RdmaSelectiveRepeat";
        TwoHosts h(o);
        std::vector<Tx> txA;
        TraceTx(h.qpA, &txA);
        h.SetReceiveErrorModel(1, DropNth({3}));
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 10240, 5);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 10240);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, TwoHosts::VA_B, 10240, 5), true, "bytes");
        std::vector<uint32_t> resent;
        for (const Tx& t : txA)
        {
            if (t.retransmission)
            {
                resent.push_back(t.psn);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(resent.size(), 1, "one retransmission");
        NS_TEST_EXPECT_MSG_EQ((resent.size() == 1 && resent[0] == 3), true, "of PSN 3");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().nakSeqSent, 6, "a SACK NAK per out-of-order PSN");
        Simulator::Destroy();
    }
};

/// A lost ACK is recovered by the local ACK timeout.
class AckTimeoutTestCase : public TestCase
{
  public:
    AckTimeoutTestCase()
        : TestCase("a lost ACK: local ACK timeout 4.096 us x 2^timeout, resend, re-ACK")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.timeout = 8; // 4.096 us x 256 = 1.048576 ms
        TwoHosts h(o);
        h.SetReceiveErrorModel(0, DropNth({0})); // A loses the only ACK
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 2048);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 1, "one completion");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetStats().timeouts, 1, "one timeout");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().duplicates, 2, "both PSNs arrive twice");
        Time t = h.wcA[0].completed - h.wcA[0].posted;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(t, MicroSeconds(1048), "completion after the timeout");
        NS_TEST_EXPECT_MSG_LT(t, MicroSeconds(1048 + 20), "and right after it");
        Simulator::Destroy();
    }
};

/// RNR: a SEND before the receive is posted waits the RNR timer, then succeeds.
class RnrTestCase : public TestCase
{
  public:
    RnrTestCase()
        : TestCase("RNR NAK with the responder's min_rnr_timer, then success")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.minRnrTimer = 14; // 1.28 ms (IBA Table 45)
        TwoHosts h(o);
        h.qpA->PostSend(h.Wr(IBV_WR_SEND, 1, TwoHosts::VA_A, 100));
        Simulator::Schedule(MicroSeconds(500),
                            [&h]() { h.qpB->PostRecv(h.Recv(7, TwoHosts::VA_B, 100)); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 1, "send completion");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().rnrNakSent, 1, "one RNR NAK");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(h.wcA[0].completed, MicroSeconds(1280), "waited 1.28 ms");
        NS_TEST_EXPECT_MSG_EQ(h.wcB.size(), 1, "received");
        Simulator::Destroy();
    }
};

/// rnr_retry = 0: the first RNR NAK ends the request with IBV_WC_RNR_RETRY_EXC_ERR.
class RnrExhaustedTestCase : public TestCase
{
  public:
    RnrExhaustedTestCase()
        : TestCase("RNR retries exhausted: IBV_WC_RNR_RETRY_EXC_ERR, QP in ERR, rest flushed")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.rnrRetry = 2;
        TwoHosts h(o);
        h.qpA->PostSend(h.Wr(IBV_WR_SEND, 1, TwoHosts::VA_A, 100));
        h.qpA->PostSend(h.Wr(IBV_WR_SEND, 2, TwoHosts::VA_A, 100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 2, "two completions");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status),
                              "IBV_WC_RNR_RETRY_EXC_ERR",
                              "first request");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[1].status), "IBV_WC_WR_FLUSH_ERR", "flushed");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().rnrNakSent, 3, "first try and two retries");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetState(), IBV_QPS_ERR, "requester in ERR");
        Simulator::Destroy();
    }
};

/// A link kept down: retries run out, the QP reports and flushes, no hang.
class LinkDownTestCase : public TestCase
{
  public:
    LinkDownTestCase()
        : TestCase("link kept down: IBV_WC_RETRY_EXC_ERR after retry_cnt timeouts, then flush")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.timeout = 8; // 1.048576 ms
        o.connection.retryCnt = 3;
        TwoHosts h(o);
        QbbHelper::ScheduleLinkDown(h.devices, MicroSeconds(1), Seconds(100));
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 65536);
        w.remoteAddr = TwoHosts::VA_B;
        Simulator::Schedule(MicroSeconds(2), [&h, w]() {
            h.qpA->PostSend(w);
            h.qpA->PostSend(h.Wr(IBV_WR_SEND, 2, TwoHosts::VA_A, 64));
        });
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 2, "both requests complete");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status), "IBV_WC_RETRY_EXC_ERR", "WRITE");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[1].status), "IBV_WC_WR_FLUSH_ERR", "SEND");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetStats().timeouts,
                              4,
                              "the first try and 3 retries time out");
        // First try + 3 retries, each ending with a 1.048576 ms timeout.
        Time t = h.wcA[0].completed;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(t, MicroSeconds(4 * 1048), "not before four timeouts");
        NS_TEST_EXPECT_MSG_LT(t, MicroSeconds(4 * 1048 + 100), "and right after the fourth");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetState(), IBV_QPS_ERR, "QP in ERR");
        Simulator::Destroy();
    }
};

/// A link down for a while and up again: timeouts bridge the gap.
class LinkFlapTestCase : public TestCase
{
  public:
    LinkFlapTestCase()
        : TestCase("link down 2 ms then up: the transfer resumes after timeouts")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.timeout = 8; // 1.048576 ms
        TwoHosts h(o);
        QbbHelper::ScheduleLinkDown(h.devices, MicroSeconds(10), MilliSeconds(2));
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 1 << 20, 11);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 1 << 20);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(h.qpA->GetStats().timeouts, 1, "timed out while down");
        NS_TEST_EXPECT_MSG_GT(h.wcA[0].completed,
                              MilliSeconds(2),
                              "finished after the link came up");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, TwoHosts::VA_B, 1 << 20, 11), true, "bytes");
        Simulator::Destroy();
    }
};

/// Random loss both ways: every message completes once, every byte is right.
class RandomLossTestCase : public TestCase
{
  public:
    RandomLossTestCase(std::string policy, double rate)
        : TestCase("random loss " + std::to_string(rate * 100).substr(0, 4) + " % both ways, " +
                   policy + ": all complete, every byte exactly once"),
          m_policy(policy),
          m_rate(rate)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        RngSeedManager::SetRun(1);
        TwoHosts::Options o;
        o.lossRecovery = m_policy;
        o.connection.timeout = 6; // 262 us: losses of a message's last packet recover fast
        o.regionBytes = 4 << 20;
        TwoHosts h(o);
        for (uint32_t host = 0; host < 2; ++host)
        {
            auto em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(m_rate);
            em->AssignStreams(100 + host);
            h.SetReceiveErrorModel(host, em);
        }
        const uint64_t A = TwoHosts::VA_A;
        const uint64_t B = TwoHosts::VA_B;
        const uint32_t writes = 16;
        const uint32_t sends = 16;
        const uint32_t reads = 8;
        const uint32_t adds = 32;
        TwoHosts::Fill(h.mrA, A, 1 << 20, 3);
        TwoHosts::Fill(h.mrB, B + (2 << 20), 1 << 20, 6);
        uint64_t wrId = 0;
        for (uint32_t i = 0; i < sends; ++i)
        {
            h.qpB->PostRecv(h.Recv(1000 + i, B + (1 << 20) + i * 8192, 8192));
        }
        for (uint32_t i = 0; i < writes + sends + reads + adds; ++i)
        {
            uint32_t k = i % 4;
            if (k == 0 && i / 4 < writes)
            {
                RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, ++wrId, A + (i / 4) * 16384, 16384);
                w.remoteAddr = B + (i / 4) * 16384;
                h.qpA->PostSend(w);
            }
            else if (k == 1 && i / 4 < sends)
            {
                h.qpA->PostSend(h.Wr(IBV_WR_SEND, ++wrId, A + (i / 4) * 4096, 4096));
            }
            else if (k == 2 && i / 4 < reads)
            {
                RdmaSendWr r = h.Wr(IBV_WR_RDMA_READ, ++wrId, A + (2 << 20) + (i / 4) * 8192, 8192);
                r.remoteAddr = B + (2 << 20) + (i / 4) * 8192;
                h.qpA->PostSend(r);
            }
            else
            {
                RdmaSendWr f =
                    h.Wr(IBV_WR_ATOMIC_FETCH_AND_ADD, ++wrId, A + (3 << 20) + (i % 64) * 8, 8);
                f.remoteAddr = B + (3 << 20);
                f.compareAdd = 1;
                h.qpA->PostSend(f);
            }
        }
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(h.wcA.size(), wrId, "a completion per request");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), wrId, "all succeeded");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcB, IBV_WC_SUCCESS),
                              sends,
                              "every SEND received once");
        // Each WRITE copied A's pattern region [i*16K, (i+1)*16K) into B.
        std::vector<uint8_t> a(16384);
        std::vector<uint8_t> b(16384);
        uint32_t badWrites = 0;
        for (uint32_t i = 0; i < writes; ++i)
        {
            h.mrA->Read(A + i * 16384, a.data(), a.size());
            h.mrB->Read(B + i * 16384, b.data(), b.size());
            badWrites += (a != b);
        }
        NS_TEST_EXPECT_MSG_EQ(badWrites, 0, "every WRITE's bytes placed");
        uint32_t badSends = 0;
        for (uint32_t i = 0; i < h.wcB.size(); ++i)
        {
            // SENDs arrive in order and consume the receives in order.
            uint32_t slot = h.wcB[i].wrId - 1000;
            h.mrA->Read(A + i * 4096, a.data(), 4096);
            h.mrB->Read(B + (1 << 20) + slot * 8192, b.data(), 4096);
            badSends +=
                !std::equal(a.begin(), a.begin() + 4096, b.begin()) || h.wcB[i].byteLen != 4096;
        }
        NS_TEST_EXPECT_MSG_EQ(badSends, 0, "every SEND's bytes placed, in order");
        std::vector<uint8_t> ra(8192);
        std::vector<uint8_t> rb(8192);
        uint32_t badReads = 0;
        for (uint32_t i = 0; i < reads; ++i)
        {
            h.mrA->Read(A + (2 << 20) + i * 8192, ra.data(), 8192);
            h.mrB->Read(B + (2 << 20) + i * 8192, rb.data(), 8192);
            badReads += (ra != rb);
        }
        NS_TEST_EXPECT_MSG_EQ(badReads, 0, "every READ's bytes placed");
        NS_TEST_EXPECT_MSG_EQ(h.mrB->ReadU64(B + (3 << 20)),
                              adds,
                              "each FETCH_ADD executed exactly once");
        uint64_t lost = 0;
        for (uint32_t host = 0; host < 2; ++host)
        {
            lost += DynamicCast<QbbNetDevice>(h.devices.Get(host))->GetStats().rxCorrupt;
        }
        uint64_t repaired = h.qpA->GetStats().retransmissions + h.qpA->GetStats().timeouts;
        NS_TEST_EXPECT_MSG_EQ((lost == 0 || repaired > 0),
                              true,
                              "losses were repaired by resending");
        Simulator::Destroy();
    }

    std::string m_policy;
    double m_rate;
};

/// The reliability suite.
class RdmaReliabilityTestSuite : public TestSuite
{
  public:
    RdmaReliabilityTestSuite()
        : TestSuite("rdma-reliability", SYSTEM)
    {
        AddTestCase(new GoBackNTestCase, TestCase::QUICK);
        AddTestCase(new SelectiveRepeatTestCase, TestCase::QUICK);
        AddTestCase(new AckTimeoutTestCase, TestCase::QUICK);
        AddTestCase(new RnrTestCase, TestCase::QUICK);
        AddTestCase(new RnrExhaustedTestCase, TestCase::QUICK);
        AddTestCase(new LinkDownTestCase, TestCase::QUICK);
        AddTestCase(new LinkFlapTestCase, TestCase::QUICK);
        for (const char* policy : {"ns3::RdmaGoBackN", "ns3::RdmaSelectiveRepeat"})
        {
            for (double rate : {0.001, 0.01, 0.05})
            {
                AddTestCase(new RandomLossTestCase(policy, rate), TestCase::QUICK);
            }
        }
    }
};

RdmaReliabilityTestSuite g_rdmaReliabilityTestSuite; //!< static instance

} // namespace
