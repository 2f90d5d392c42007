/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every RC operation between two hosts at 100 Gb/s, in data mode, with the
 * bytes each one placed checked: SEND (multi-packet, with immediate, with
 * invalidate), RDMA WRITE (with immediate), RDMA READ, COMPARE_SWAP and
 * FETCH_ADD, with PSNs that wrap past 2^24.
 */

#include "rdma-test-hosts.h"

#include "ns3/config.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// All operations, bytes and completions.
class AllOperationsTestCase : public TestCase
{
  public:
    AllOperationsTestCase()
        : TestCase("every operation places its bytes and completes, PSNs wrapping")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.psnA = 0xFFFFF0; // A's requests cross 2^24 after 16 PSNs
        o.connection.psnB = 0xFFFFFE;
        TwoHosts h(o);
        NS_TEST_ASSERT_MSG_EQ(h.connectResult, 0, "connected");
        const uint64_t A = TwoHosts::VA_A;
        const uint64_t B = TwoHosts::VA_B;
        TwoHosts::Fill(h.mrA, A, 0x10000, 1);
        TwoHosts::Fill(h.mrB, B + 0x40000, 0x2000, 2);
        h.mrB->WriteU64(B + 0x50000, 0x1111);
        Ptr<RdmaMemoryRegion> extra =
            h.nicB->RegMr(h.pdB,
                          0x90000000,
                          4096,
                          IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);

        std::vector<uint32_t> psns;
        h.qpA->TraceConnectWithoutContext(
            "PacketTx",
            Callback<void, uint8_t, uint32_t, bool>(
                [&psns](uint8_t, uint32_t psn, bool) { psns.push_back(psn); }));

        h.qpB->PostRecv(h.Recv(100, B, 3000));
        h.qpB->PostRecv(h.Recv(101, B + 0x1000, 200));
        h.qpB->PostRecv(h.Recv(102, B + 0x2000, 0));
        h.qpB->PostRecv(h.Recv(103, B + 0x3000, 64));

        h.qpA->PostSend(h.Wr(IBV_WR_SEND, 1, A, 3000)); // 3 packets
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 2, A, 5000);
        w.remoteAddr = B + 0x10000;
        h.qpA->PostSend(w);
        RdmaSendWr rd = h.Wr(IBV_WR_RDMA_READ, 3, A + 0x20000, 2500);
        rd.remoteAddr = B + 0x40000;
        h.qpA->PostSend(rd);
        RdmaSendWr si = h.Wr(IBV_WR_SEND_WITH_IMM, 4, A + 0x100, 100);
        si.immData = 0xdeadbeef;
        h.qpA->PostSend(si);
        RdmaSendWr wi = h.Wr(IBV_WR_RDMA_WRITE_WITH_IMM, 5, A + 0x200, 10);
        wi.remoteAddr = B + 0x20000;
        wi.immData = 0x12345678;
        h.qpA->PostSend(wi);
        RdmaSendWr cs = h.Wr(IBV_WR_ATOMIC_CMP_AND_SWP, 6, A + 0x30000, 8);
        cs.remoteAddr = B + 0x50000;
        cs.compareAdd = 0x1111;
        cs.swap = 0x2222;
        h.qpA->PostSend(cs);
        RdmaSendWr fa = h.Wr(IBV_WR_ATOMIC_FETCH_AND_ADD, 7, A + 0x30008, 8);
        fa.remoteAddr = B + 0x50000;
        fa.compareAdd = 5;
        h.qpA->PostSend(fa);
        RdmaSendWr inv = h.Wr(IBV_WR_SEND_WITH_INV, 8, A + 0x300, 64);
        inv.invalidateRkey = extra->GetRkey();
        h.qpA->PostSend(inv);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 8, "eight send completions");
        const RdmaWcOpcode ops[] = {IBV_WC_SEND,
                                    IBV_WC_RDMA_WRITE,
                                    IBV_WC_RDMA_READ,
                                    IBV_WC_SEND,
                                    IBV_WC_RDMA_WRITE,
                                    IBV_WC_COMP_SWAP,
                                    IBV_WC_FETCH_ADD,
                                    IBV_WC_SEND};
        for (uint32_t i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(h.wcA[i].wrId, i + 1, "completions in posting order");
            NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[i].status),
                                  "IBV_WC_SUCCESS",
                                  "wr " << i + 1);
            NS_TEST_EXPECT_MSG_EQ(h.wcA[i].opcode, ops[i], "opcode of wr " << i + 1);
        }
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, B, 3000, 1), true, "SEND bytes placed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, B + 0x10000, 5000, 1), true, "WRITE bytes");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrA, A + 0x20000, 2500, 2), true, "READ bytes");
        std::vector<uint8_t> untouched(8);
        h.mrB->Read(B + 0x10000 + 5000, untouched.data(), 8);
        NS_TEST_EXPECT_MSG_EQ((untouched[0] | untouched[7]), 0, "nothing past the WRITE");
        NS_TEST_EXPECT_MSG_EQ(h.mrB->ReadU64(B + 0x50000), 0x2227, "CMP_AND_SWP then FETCH_ADD +5");
        NS_TEST_EXPECT_MSG_EQ(h.mrA->ReadU64(A + 0x30000), 0x1111, "CMP_AND_SWP original value");
        NS_TEST_EXPECT_MSG_EQ(h.mrA->ReadU64(A + 0x30008), 0x2222, "FETCH_ADD original value");
        NS_TEST_EXPECT_MSG_EQ(extra->IsInvalidated(), true, "SEND with invalidate invalidated");

        NS_TEST_ASSERT_MSG_EQ(h.wcB.size(), 4, "four receive completions");
        NS_TEST_EXPECT_MSG_EQ(h.wcB[0].byteLen, 3000, "SEND length");
        NS_TEST_EXPECT_MSG_EQ(h.wcB[1].immData, 0xdeadbeef, "SEND immediate");
        NS_TEST_EXPECT_MSG_EQ(((h.wcB[1].wcFlags & RdmaWorkCompletion::IBV_WC_WITH_IMM) != 0),
                              true,
                              "WITH_IMM flag");
        NS_TEST_EXPECT_MSG_EQ(h.wcB[2].opcode, IBV_WC_RECV_RDMA_WITH_IMM, "WRITE with immediate");
        NS_TEST_EXPECT_MSG_EQ(h.wcB[2].immData, 0x12345678, "WRITE immediate");
        NS_TEST_EXPECT_MSG_EQ(h.wcB[3].invalidatedRkey, extra->GetRkey(), "invalidated R_Key");

        // Request PSNs: SEND 3, WRITE 5, READ 1 (standing for its 3 response
        // PSNs), then 5 single-packet requests: 0xFFFFF0 .. 0xFFFFFF.
        std::vector<uint32_t> expect = {0xFFFFF0,
                                        0xFFFFF1,
                                        0xFFFFF2,
                                        0xFFFFF3,
                                        0xFFFFF4,
                                        0xFFFFF5,
                                        0xFFFFF6,
                                        0xFFFFF7,
                                        0xFFFFF8,
                                        0xFFFFFB,
                                        0xFFFFFC,
                                        0xFFFFFD,
                                        0xFFFFFE,
                                        0xFFFFFF};
        NS_TEST_EXPECT_MSG_EQ((psns == expect), true, "request PSNs, the READ using 3");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetStats().retransmissions, 0, "no loss, no retransmission");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().duplicates, 0, "no duplicates");
        Simulator::Destroy();
    }
};

/// Messages wrap the PSN space in the middle of a message.
class PsnWrapTestCase : public TestCase
{
  public:
    PsnWrapTestCase()
        : TestCase("a message crossing PSN 2^24 - 1 -> 0")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.psnA = 0xFFFFFE;
        TwoHosts h(o);
        std::vector<uint32_t> psns;
        h.qpA->TraceConnectWithoutContext(
            "PacketTx",
            Callback<void, uint8_t, uint32_t, bool>(
                [&psns](uint8_t, uint32_t psn, bool) { psns.push_back(psn); }));
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 4096, 9);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 4096);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        std::vector<uint32_t> expect = {0xFFFFFE, 0xFFFFFF, 0, 1};
        NS_TEST_EXPECT_MSG_EQ((psns == expect), true, "PSNs 2^24-2, 2^24-1, 0, 1");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, TwoHosts::VA_B, 4096, 9), true, "bytes");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().outOfSequence, 0, "wrap is in sequence");
        Simulator::Destroy();
    }
};

/// max_rd_atomic = 1: a READ starts only after the previous one completed.
class MaxRdAtomicTestCase : public TestCase
{
  public:
    MaxRdAtomicTestCase()
        : TestCase("max_rd_atomic = 1 keeps one READ outstanding (IBA 9.7.7.2.2)")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.maxRdAtomic = 1;
        TwoHosts h(o);
        std::vector<Time> requests;
        h.qpA->TraceConnectWithoutContext(
            "PacketTx",
            Callback<void, uint8_t, uint32_t, bool>([&requests](uint8_t op, uint32_t, bool) {
                if (op == RC_RDMA_READ_REQUEST)
                {
                    requests.push_back(Simulator::Now());
                }
            }));
        for (uint64_t i = 0; i < 3; ++i)
        {
            RdmaSendWr r = h.Wr(IBV_WR_RDMA_READ, i, TwoHosts::VA_A + i * 4096, 4096);
            r.remoteAddr = TwoHosts::VA_B;
            h.qpA->PostSend(r);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 3, "three READs completed");
        NS_TEST_ASSERT_MSG_EQ(requests.size(), 3, "three READ requests");
        for (uint32_t i = 1; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(requests[i],
                                        h.wcA[i - 1].completed,
                                        "READ " << i << " waits for READ " << i - 1);
        }
        Simulator::Destroy();
    }
};

/// More READs than the responder's max_dest_rd_atomic: the invalid request NAK.
class MaxDestRdAtomicTestCase : public TestCase
{
  public:
    MaxDestRdAtomicTestCase()
        : TestCase("over max_dest_rd_atomic: NAK invalid request, IBV_WC_REM_INV_REQ_ERR")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.connection.maxRdAtomic = 4;     // the requester may send 4 ...
        o.connection.maxDestRdAtomic = 1; // ... the responder holds 1
        TwoHosts h(o);
        for (uint64_t i = 0; i < 4; ++i)
        {
            RdmaSendWr r = h.Wr(IBV_WR_RDMA_READ, i, TwoHosts::VA_A + i * 65536, 65536);
            r.remoteAddr = TwoHosts::VA_B;
            h.qpA->PostSend(r);
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_REM_INV_REQ_ERR),
                              1,
                              "one refused READ");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetState(), IBV_QPS_ERR, "responder in ERR");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetState(), IBV_QPS_ERR, "requester in ERR");
        Simulator::Destroy();
    }
};

/// AckReq at the end of each message and every AckReqInterval packets.
class SendQueueWrapTestCase : public TestCase
{
  public:
    SendQueueWrapTestCase()
        : TestCase("RdmaSendQueue: a request's PSNs are found across the 24-bit wrap (IBA 9.7.1); "
                   "requests not yet sent are not")
    {
    }

  private:
    void DoRun() override
    {
        RdmaSendQueue sq;
        sq.Start((1u << 24) + 0xFFFFFE); // taken modulo 2^24
        NS_TEST_ASSERT_MSG_EQ(sq.state.una, 0xFFFFFEu, "sq_psn modulo 2^24");
        RdmaSendWqe a;
        a.assigned = true;
        a.firstPsn = 0xFFFFFE;
        a.packets = 4; // 0xFFFFFE, 0xFFFFFF, 0, 1
        RdmaSendWqe b;
        b.packets = 2; // not yet sent
        sq.wqes.push_back(a);
        sq.wqes.push_back(b);
        NS_TEST_ASSERT_MSG_EQ(sq.wqes.front().LastPsn(), 1u, "last PSN wraps");
        NS_TEST_ASSERT_MSG_EQ(sq.FindByPsn(0xFFFFFF), &sq.wqes.front(), "before the wrap");
        NS_TEST_ASSERT_MSG_EQ(sq.FindByPsn(1), &sq.wqes.front(), "after the wrap");
        NS_TEST_ASSERT_MSG_EQ(sq.FindByPsn(2), nullptr, "past it: b has no PSNs yet");
        NS_TEST_ASSERT_MSG_EQ(sq.FirstUnassigned(), &sq.wqes.back(), "b is the next to send");
        sq.Clear();
        NS_TEST_ASSERT_MSG_EQ(sq.wqes.empty(), true, "cleared");
    }
};

class AckReqIntervalTestCase : public TestCase
{
  public:
    AckReqIntervalTestCase()
        : TestCase("AckReq every AckReqInterval packets and on the last: cumulative ACKs")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::AckReqInterval", UintegerValue(4));
        TwoHosts h;
        Config::SetDefault("ns3::RdmaQueuePair::AckReqInterval", UintegerValue(64));
        std::vector<uint32_t> acks;
        h.qpB->TraceConnectWithoutContext(
            "PacketTx",
            Callback<void, uint8_t, uint32_t, bool>([&acks](uint8_t op, uint32_t psn, bool) {
                if (op == RC_ACKNOWLEDGE)
                {
                    acks.push_back(psn);
                }
            }));
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 10 * 1024); // PSNs 0..9
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        std::vector<uint32_t> expect = {3, 7, 9}; // the 4th, the 8th, the last
        NS_TEST_EXPECT_MSG_EQ((acks == expect), true, "ACKs for PSNs 3, 7 and 9");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 1, "completed");
        Simulator::Destroy();
    }
};

/// The transport suite.
class RdmaTransportTestSuite : public TestSuite
{
  public:
    RdmaTransportTestSuite()
        : TestSuite("rdma-transport", SYSTEM)
    {
        AddTestCase(new AllOperationsTestCase, TestCase::QUICK);
        AddTestCase(new PsnWrapTestCase, TestCase::QUICK);
        AddTestCase(new MaxRdAtomicTestCase, TestCase::QUICK);
        AddTestCase(new AckReqIntervalTestCase, TestCase::QUICK);
        AddTestCase(new SendQueueWrapTestCase, TestCase::QUICK);
        AddTestCase(new MaxDestRdAtomicTestCase, TestCase::QUICK);
    }
};

RdmaTransportTestSuite g_rdmaTransportTestSuite; //!< static instance

} // namespace
