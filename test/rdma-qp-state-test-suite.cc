/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The RC QP state machine and verbs argument checks (IBA 10.3.1; the RC
 * rows of rdma-core's ibv_modify_qp(3)): legal transitions with their
 * required attributes,
 * refusals that change nothing, RESET discarding and ERR flushing work.
 */

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cerrno>

using namespace ns3;

namespace
{

const uint32_t INIT_MASK = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
const uint32_t RTR_MASK = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                          IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
const uint32_t RTS_MASK = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC |
                          IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_TIMEOUT;

/// A NIC without a port, one QP, completions collected.
struct Fixture
{
    Ptr<RdmaNic> nic = CreateObject<RdmaNic>();
    Ptr<RdmaProtectionDomain> pd = nic->AllocPd();
    Ptr<RdmaCompletionQueue> cq = nic->CreateCq(8);
    Ptr<RdmaMemoryRegion> mr = nic->RegMr(pd, 0x1000, 4096, IBV_ACCESS_LOCAL_WRITE);
    Ptr<RdmaQueuePair> qp;

    explicit Fixture(uint32_t maxSendWr = 4)
    {
        RdmaQueuePair::InitAttr init;
        init.pd = pd;
        init.sendCq = cq;
        init.recvCq = cq;
        init.maxSendWr = maxSendWr;
        init.maxRecvWr = 4;
        qp = nic->CreateQp(init);
    }

    RdmaQpAttr Attr(QpState state) const
    {
        RdmaQpAttr a;
        a.qpState = state;
        a.ahAttr.destGid = Ipv4Address("10.0.0.2");
        a.destQpNum = 0x222;
        a.pathMtu = IBV_MTU_4096;
        a.rqPsn = 0x10;
        a.sqPsn = 0x20;
        a.qpAccessFlags = IBV_ACCESS_REMOTE_WRITE;
        return a;
    }

    void ToRts()
    {
        qp->Modify(Attr(IBV_QPS_INIT), INIT_MASK);
        qp->Modify(Attr(IBV_QPS_RTR), RTR_MASK);
        qp->Modify(Attr(IBV_QPS_RTS), RTS_MASK);
    }

    RdmaSendWr Send(uint64_t id) const
    {
        RdmaSendWr wr;
        wr.wrId = id;
        wr.opcode = IBV_WR_SEND;
        wr.sgList.push_back({0x1000, 64, mr->GetLkey()});
        return wr;
    }
};

/// RESET -> INIT -> RTR -> RTS -> SQD -> RTS -> ERR -> RESET with exact masks.
class LegalPathTestCase : public TestCase
{
  public:
    LegalPathTestCase()
        : TestCase("legal transitions with their required attributes")
    {
    }

  private:
    void DoRun() override
    {
        Fixture f;
        NS_TEST_ASSERT_MSG_EQ(f.qp->GetState(), IBV_QPS_RESET, "created in RESET");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_INIT), INIT_MASK), 0, "RESET->INIT");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_INIT), INIT_MASK), 0, "INIT->INIT");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RTR), RTR_MASK), 0, "INIT->RTR");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Query().destQpNum, 0x222, "dest QPN applied");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RTS), RTS_MASK), 0, "RTR->RTS");
        NS_TEST_EXPECT_MSG_EQ(f.qp->GetState(), IBV_QPS_RTS, "RTS");
        RdmaQpAttr a = f.Attr(IBV_QPS_RTS);
        a.minRnrTimer = 12;
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(a, IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER), 0, "RTS->RTS");
        NS_TEST_EXPECT_MSG_EQ(+f.qp->Query().minRnrTimer, 12, "optional attribute applied");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_SQD), IBV_QP_STATE), 0, "RTS->SQD");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RTS), IBV_QP_STATE), 0, "SQD->RTS");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_ERR), IBV_QP_STATE), 0, "RTS->ERR");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RTS), IBV_QP_STATE), EINVAL, "ERR->RTS");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RESET), IBV_QP_STATE), 0, "ERR->RESET");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Query().destQpNum, 0, "RESET clears the attributes");
        Simulator::Destroy();
    }
};

/// Illegal transitions and wrong masks are refused with EINVAL and change nothing.
class RefusalTestCase : public TestCase
{
  public:
    RefusalTestCase()
        : TestCase("illegal transitions, missing or extra attributes, bad values")
    {
    }

  private:
    void DoRun() override
    {
        Fixture f;
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RTR), RTR_MASK), EINVAL, "RESET->RTR");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_INIT), IBV_QP_STATE | IBV_QP_PORT),
                              EINVAL,
                              "RESET->INIT without PKEY_INDEX and ACCESS_FLAGS");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_INIT), INIT_MASK | IBV_QP_SQ_PSN),
                              EINVAL,
                              "RESET->INIT with SQ_PSN, which it does not allow");
        NS_TEST_EXPECT_MSG_EQ(f.qp->GetState(), IBV_QPS_RESET, "still RESET");
        f.qp->Modify(f.Attr(IBV_QPS_INIT), INIT_MASK);
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RTS), RTS_MASK), EINVAL, "INIT->RTS");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(f.Attr(IBV_QPS_RTR), RTR_MASK & ~IBV_QP_DEST_QPN),
                              EINVAL,
                              "INIT->RTR without DEST_QPN");
        RdmaQpAttr bad = f.Attr(IBV_QPS_RTR);
        bad.pathMtu = static_cast<RdmaMtu>(6);
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(bad, RTR_MASK), EINVAL, "path MTU code 6");
        bad = f.Attr(IBV_QPS_RTR);
        bad.rqPsn = 1u << 24;
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(bad, RTR_MASK), EINVAL, "RQ PSN of 25 bits");
        bad = f.Attr(IBV_QPS_RTR);
        bad.maxDestRdAtomic = 200;
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(bad, RTR_MASK), EINVAL, "max_dest_rd_atomic > limit");
        NS_TEST_EXPECT_MSG_EQ(f.qp->GetState(), IBV_QPS_INIT, "still INIT");
        NS_TEST_EXPECT_MSG_EQ(f.qp->Query().destQpNum, 0, "nothing applied");
        f.qp->Modify(f.Attr(IBV_QPS_RTR), RTR_MASK);
        bad = f.Attr(IBV_QPS_RTS);
        bad.retryCnt = 8;
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(bad, RTS_MASK), EINVAL, "retry_cnt is 3 bits");
        bad = f.Attr(IBV_QPS_RTS);
        bad.curQpState = IBV_QPS_INIT;
        NS_TEST_EXPECT_MSG_EQ(f.qp->Modify(bad, RTS_MASK | IBV_QP_CUR_STATE),
                              EINVAL,
                              "asserted current state is wrong");
        NS_TEST_EXPECT_MSG_EQ(f.qp->GetState(), IBV_QPS_RTR, "still RTR");
        Simulator::Destroy();
    }
};

/// PostSend/PostRecv argument errors, queue limits, ERR flushing, RESET discarding.
class PostingTestCase : public TestCase
{
  public:
    PostingTestCase()
        : TestCase("posting: EINVAL before RTS, ENOMEM when full, flush in ERR")
    {
    }

  private:
    void DoRun() override
    {
        Fixture f(2);
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostSend(f.Send(1)), EINVAL, "PostSend in RESET");
        RdmaRecvWr r;
        r.sgList.push_back({0x1000, 64, f.mr->GetLkey()});
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostRecv(r), EINVAL, "PostRecv in RESET");
        f.qp->Modify(f.Attr(IBV_QPS_INIT), INIT_MASK);
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostRecv(r), 0, "PostRecv in INIT");
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostSend(f.Send(1)), EINVAL, "PostSend in INIT");
        f.qp->Modify(f.Attr(IBV_QPS_RTR), RTR_MASK);
        f.qp->Modify(f.Attr(IBV_QPS_RTS), RTS_MASK);
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostSend(f.Send(1)), 0, "first");
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostSend(f.Send(2)), 0, "second");
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostSend(f.Send(3)), ENOMEM, "send queue of 2 is full");
        // Moving to ERR flushes the two sends and the receive.
        f.qp->Modify(f.Attr(IBV_QPS_ERR), IBV_QP_STATE);
        std::vector<RdmaWorkCompletion> wcs = f.cq->Poll(16);
        NS_TEST_ASSERT_MSG_EQ(wcs.size(), 3, "three flushed completions");
        for (const RdmaWorkCompletion& wc : wcs)
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(wc.status),
                                  "IBV_WC_WR_FLUSH_ERR",
                                  "flushed work request " << wc.wrId);
        }
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostSend(f.Send(4)), 0, "posting in ERR is accepted");
        wcs = f.cq->Poll(16);
        NS_TEST_EXPECT_MSG_EQ(
            (wcs.size() == 1 && wcs[0].wrId == 4 && wcs[0].status == IBV_WC_WR_FLUSH_ERR),
            true,
            "... and flushed at once");
        Simulator::Destroy();
    }
};

/// A local key that does not cover the buffer completes with IBV_WC_LOC_PROT_ERR.
class LocalProtectionTestCase : public TestCase
{
  public:
    LocalProtectionTestCase()
        : TestCase("a bad L_Key or range completes with IBV_WC_LOC_PROT_ERR")
    {
    }

  private:
    void DoRun() override
    {
        Fixture f;
        f.ToRts();
        RdmaSendWr wr = f.Send(7);
        wr.sgList[0].addr = 0x1000 + 4090; // 64 bytes from here leave the region
        NS_TEST_EXPECT_MSG_EQ(f.qp->PostSend(wr), 0, "accepted; the NIC finds the error");
        RdmaSendWr ok = f.Send(8);
        f.qp->PostSend(ok);
        Simulator::Run();
        std::vector<RdmaWorkCompletion> wcs = f.cq->Poll(16);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(wcs.size(), 1, "a completion");
        NS_TEST_EXPECT_MSG_EQ(wcs[0].wrId, 7, "the bad request");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(wcs[0].status), "IBV_WC_LOC_PROT_ERR", "status");
        NS_TEST_EXPECT_MSG_EQ(f.qp->GetState(), IBV_QPS_ERR, "the QP is in ERR");
        Simulator::Destroy();
    }
};

/// A CQ overrun puts the CQ in error and the QP in ERR.
class CqOverrunTestCase : public TestCase
{
  public:
    CqOverrunTestCase()
        : TestCase("CQ overrun: the CqError trace fires and the QP enters ERR")
    {
    }

  private:
    void DoRun() override
    {
        Fixture f(64);
        f.cq->SetDepth(2);
        uint32_t errors = 0;
        f.cq->TraceConnectWithoutContext("CqError",
                                         Callback<void, const RdmaWorkCompletion&>(
                                             [&errors](const RdmaWorkCompletion&) { ++errors; }));
        f.ToRts();
        f.qp->Modify(f.Attr(IBV_QPS_ERR), IBV_QP_STATE);
        for (uint64_t i = 0; i < 3; ++i)
        {
            f.qp->PostSend(f.Send(i));
        }
        NS_TEST_EXPECT_MSG_EQ(errors, 1, "third completion overran a CQ of 2");
        NS_TEST_EXPECT_MSG_EQ(f.cq->IsInError(), true, "CQ in error");
        NS_TEST_EXPECT_MSG_EQ(f.cq->GetSize(), 2, "two completions kept");
        Simulator::Destroy();
    }
};

/// The QP state-machine suite.

/// The path MTU's rule and codes (RdmaPathMtu).
class PathMtuTestCase : public TestCase
{
  public:
    PathMtuTestCase()
        : TestCase("path MTU: 256-4096 in powers of two, codes 1-5 (ibv_mtu), default 1024, "
                   "an HPCC payload read as the nearest")
    {
    }

  private:
    void DoRun() override
    {
        for (uint64_t bytes : {256, 512, 1024, 2048, 4096})
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaPathMtu::IsValidBytes(bytes), true, bytes);
            NS_TEST_EXPECT_MSG_EQ(RdmaMtuBytes(RdmaPathMtu::FromBytes(bytes)), bytes, bytes);
        }
        for (uint64_t bytes : {0, 128, 1000, 1500, 3072, 8192, 9000})
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaPathMtu::IsValidBytes(bytes), false, bytes);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaPathMtu::FromBytes(4096), IBV_MTU_4096, "code 5");
        NS_TEST_EXPECT_MSG_EQ(RdmaMtuBytes(RdmaPathMtu::DEFAULT),
                              RdmaPathMtu::DEFAULT_BYTES,
                              "the default's code and bytes agree");
        NS_TEST_EXPECT_MSG_EQ(RdmaQpAttr().pathMtu, RdmaPathMtu::DEFAULT, "a QP's default");
        NS_TEST_EXPECT_MSG_EQ(RdmaPathMtu::NearestBytes(1000), 1024u, "HPCC's payload");
        NS_TEST_EXPECT_MSG_EQ(RdmaPathMtu::NearestBytes(1), 256u, "below the smallest");
        NS_TEST_EXPECT_MSG_EQ(RdmaPathMtu::NearestBytes(9000), 4096u, "above the largest");
        NS_TEST_EXPECT_MSG_EQ(RdmaPathMtu::NearestBytes(384), 512u, "a tie goes up");
    }
};

class RdmaQpStateTestSuite : public TestSuite
{
  public:
    RdmaQpStateTestSuite()
        : TestSuite("rdma-qp-state", UNIT)
    {
        AddTestCase(new LegalPathTestCase, TestCase::QUICK);
        AddTestCase(new RefusalTestCase, TestCase::QUICK);
        AddTestCase(new PostingTestCase, TestCase::QUICK);
        AddTestCase(new PathMtuTestCase, TestCase::QUICK);
        AddTestCase(new LocalProtectionTestCase, TestCase::QUICK);
        AddTestCase(new CqOverrunTestCase, TestCase::QUICK);
    }
};

RdmaQpStateTestSuite g_rdmaQpStateTestSuite; //!< static instance

} // namespace
