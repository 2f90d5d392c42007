/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Remote access checks (IBA 10.6.3 and 9.7.5.2.x, as Linux rxe checks R_Keys):
 * a wrong R_Key, a VA outside the region, a missing access flag and a region
 * of another protection domain each get the remote access NAK; the
 * requester completes with IBV_WC_REM_ACCESS_ERR and flushes the rest; the
 * responder's QP enters ERR and flushes its receives; the target memory is
 * untouched.
 */

#include "rdma-test-hosts.h"

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// One kind of bad access.
class AccessErrorTestCase : public TestCase
{
  public:
    enum Kind
    {
        WRONG_RKEY,
        OUTSIDE_REGION,
        NO_REMOTE_WRITE,
        OTHER_PD,
        READ_WITHOUT_FLAG,
    };

    AccessErrorTestCase(Kind kind, std::string name)
        : TestCase(name),
          m_kind(kind)
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts h;
        const uint64_t B = TwoHosts::VA_B;
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 4096, 8);
        TwoHosts::Fill(h.mrB, B, 8192, 9); // what must stay untouched
        h.qpB->PostRecv(h.Recv(50, B + 0x10000, 64));
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 4096);
        w.remoteAddr = B;
        switch (m_kind)
        {
        case WRONG_RKEY:
            w.rkey = h.mrB->GetRkey() + 0x100;
            break;
        case OUTSIDE_REGION:
            w.remoteAddr = B + (1 << 20) - 2048; // the last 2048 bytes fall outside
            break;
        case NO_REMOTE_WRITE: {
            Ptr<RdmaMemoryRegion> ro =
                h.nicB->RegMr(h.pdB, B + (2 << 20), 8192, IBV_ACCESS_REMOTE_READ);
            w.rkey = ro->GetRkey();
            w.remoteAddr = B + (2 << 20);
            break;
        }
        case OTHER_PD: {
            Ptr<RdmaProtectionDomain> other = h.nicB->AllocPd();
            Ptr<RdmaMemoryRegion> mr =
                h.nicB->RegMr(other,
                              B + (2 << 20),
                              8192,
                              IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
            w.rkey = mr->GetRkey();
            w.remoteAddr = B + (2 << 20);
            break;
        }
        case READ_WITHOUT_FLAG: {
            Ptr<RdmaMemoryRegion> wo =
                h.nicB->RegMr(h.pdB,
                              B + (2 << 20),
                              8192,
                              IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
            w = h.Wr(IBV_WR_RDMA_READ, 1, TwoHosts::VA_A + 8192, 4096);
            w.rkey = wo->GetRkey();
            w.remoteAddr = B + (2 << 20);
            break;
        }
        }
        h.qpA->PostSend(w);
        h.qpA->PostSend(h.Wr(IBV_WR_SEND, 2, TwoHosts::VA_A, 64));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 2, "two requester completions");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status),
                              "IBV_WC_REM_ACCESS_ERR",
                              "bad request");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[1].status), "IBV_WC_WR_FLUSH_ERR", "flushed");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetState(), IBV_QPS_ERR, "requester in ERR");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetState(), IBV_QPS_ERR, "responder in ERR");
        NS_TEST_ASSERT_MSG_EQ(h.wcB.size(), 1, "the responder's receive completes");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcB[0].status), "IBV_WC_WR_FLUSH_ERR", "flushed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, B, 8192, 9), true, "target untouched");
        std::vector<uint8_t> tail(8, 0xEE);
        h.mrB->Read(B + (1 << 20) - 2048, tail.data(), 8);
        NS_TEST_EXPECT_MSG_EQ((tail[0] | tail[7]), 0, "region end untouched");
        Simulator::Destroy();
    }

    Kind m_kind;
};

/// The access-check suite.
class RdmaAccessTestSuite : public TestSuite
{
  public:
    RdmaAccessTestSuite()
        : TestSuite("rdma-access", SYSTEM)
    {
        AddTestCase(new AccessErrorTestCase(AccessErrorTestCase::WRONG_RKEY, "wrong R_Key"),
                    TestCase::QUICK);
        AddTestCase(new AccessErrorTestCase(AccessErrorTestCase::OUTSIDE_REGION,
                                            "VA range leaving the region"),
                    TestCase::QUICK);
        AddTestCase(new AccessErrorTestCase(AccessErrorTestCase::NO_REMOTE_WRITE,
                                            "WRITE to a region without remote write"),
                    TestCase::QUICK);
        AddTestCase(new AccessErrorTestCase(AccessErrorTestCase::OTHER_PD,
                                            "region of another protection domain"),
                    TestCase::QUICK);
        AddTestCase(new AccessErrorTestCase(AccessErrorTestCase::READ_WITHOUT_FLAG,
                                            "READ of a region without remote read"),
                    TestCase::QUICK);
    }
};

RdmaAccessTestSuite g_rdmaAccessTestSuite; //!< static instance

} // namespace
