/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// QbbEgressQueue units: drop reasons in order, the MMU's accounting through
// enqueue, dequeue and flush, ECN at enqueue and at dequeue, the bypass rule.

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

constexpr uint8_t LOSSLESS = 3; //!< SwitchMmu's default lossless class
constexpr uint8_t LOSSY = 1;    //!< a lossy class

/**
 * \param ecn the ECN field
 * \param payload payload bytes
 * \return a RoCEv2 frame item from ingress port 0, class LOSSLESS
 */
QbbQueueItem
MakeItem(uint8_t ecn, uint32_t payload, uint8_t cls = LOSSLESS)
{
    RoceFrame f;
    f.srcIpv4 = Ipv4Address("10.0.0.1");
    f.dstIpv4 = Ipv4Address("10.0.0.2");
    f.ecn = ecn;
    f.bth.SetOpcode(RC_SEND_ONLY);
    f.payload = Create<Packet>(payload);
    QbbQueueItem item;
    item.frame = f.BuildFrame();
    item.inPort = 0;
    item.cls = cls;
    item.ecn = ecn;
    item.ipOffset = RdmaWire::ETHERNET_HEADER_BYTES;
    return item;
}

/// \return the ECN field of a frame
uint8_t
EcnOf(const Ptr<RdmaFrame>& frame)
{
    RoceFrame r;
    NS_ABORT_UNLESS(RoceFrame::ParseEthernetFrame(*frame, r, true) == RoceFrame::OK);
    return r.ecn;
}

/**
 * MaxBytes first (QUEUE_FULL), then the MMU (a lossy class beyond its
 * dynamic threshold: INGRESS_LIMIT); dequeue and flush give the MMU its
 * bytes back, flush drops as FLUSHED; GetBytesByIngress splits by port.
 */
class QueueAccountingTestCase : public TestCase
{
  public:
    QueueAccountingTestCase()
        : TestCase("Egress queue: QUEUE_FULL before admission, INGRESS_LIMIT from the MMU, "
                   "bytes back to the MMU on dequeue and flush (PFC_STORM); the owner told "
                   "of each drop with the frame")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetAttribute("BufferSize", UintegerValue(400000));
        mmu->AddPort(DataRate("100Gbps"), MicroSeconds(1), 9018);
        mmu->AddPort(DataRate("100Gbps"), MicroSeconds(1), 9018);
        Ptr<QbbEgressQueue> q = CreateObject<QbbEgressQueue>();
        NS_TEST_EXPECT_MSG_EQ(q->CanBypass(), true, "no policy: a frame may skip the queue");
        q->SetAdmission(mmu);
        NS_TEST_EXPECT_MSG_EQ(q->CanBypass(), false, "admission to account");
        const uint32_t frame = MakeItem(0, 1000).Bytes();
        q->SetAttribute("MaxBytes", UintegerValue(3 * frame));
        std::vector<RdmaDropReason> drops;
        q->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, uint32_t, RdmaDropReason>(
                [&](Ptr<const Packet>, uint32_t, RdmaDropReason r) {
                    drops.push_back(r);
                }));
        std::vector<std::pair<const RdmaFrame*, uint32_t>> told; // the owner's callback
        std::vector<RdmaDropReason> toldWhy;
        q->SetDropCallback(QbbEgressQueue::DropCallback(
            [&](const RdmaFrame& f, uint32_t inPort, RdmaDropReason r) {
                told.emplace_back(&f, inPort);
                toldWhy.push_back(r);
            }));
        Ptr<RdmaFrame> fourth;
        for (uint32_t i = 0; i < 4; ++i)
        {
            QbbQueueItem item = MakeItem(0, 1000);
            item.inPort = i % 2;
            fourth = item.frame;
            q->Enqueue(item);
        }
        NS_TEST_EXPECT_MSG_EQ(drops.size(), 1, "the fourth does not fit");
        NS_TEST_EXPECT_MSG_EQ(told.size(), 1, "its owner is told");
        NS_TEST_EXPECT_MSG_EQ(told.at(0).first, PeekPointer(fourth), "with the frame itself");
        NS_TEST_EXPECT_MSG_EQ(told.at(0).second, 1, "and its ingress port");
        NS_TEST_EXPECT_MSG_EQ(drops.at(0), DROP_QUEUE_FULL, "QUEUE_FULL");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetBufferUsed(), 3 * frame, "three admitted");
        const std::vector<uint64_t> byPort = q->GetBytesByIngress(LOSSLESS, 2);
        NS_TEST_EXPECT_MSG_EQ(byPort[0], 2 * frame, "ports 0, 0");
        NS_TEST_EXPECT_MSG_EQ(byPort[1], frame, "port 1");
        QbbQueueItem out;
        NS_TEST_EXPECT_MSG_EQ(q->Dequeue(1U << LOSSLESS, out), false, "class paused");
        NS_TEST_EXPECT_MSG_EQ(q->Dequeue(0, out), true, "one leaves");
        NS_TEST_EXPECT_MSG_EQ(out.inPort, 0, "oldest first");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetBufferUsed(), 2 * frame, "its bytes released");
        NS_TEST_EXPECT_MSG_EQ(q->Flush(LOSSLESS), 2, "two flushed");
        NS_TEST_EXPECT_MSG_EQ(drops.back(), DROP_PFC_STORM, "flushed by the watchdog's action");
        NS_TEST_EXPECT_MSG_EQ((toldWhy == drops), true, "the owner hears every drop, as traced");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetBufferUsed(), 0, "buffer empty");
        NS_TEST_EXPECT_MSG_EQ(q->IsEmpty(), true, "queue empty");

        // A lossy class: the dynamic threshold Alpha x free shared pool
        // (Choudhury and Hahne) stops one ingress well before the pool is full.
        q->SetAttribute("MaxBytes", UintegerValue(100000000));
        uint32_t admitted = 0;
        while (q->Enqueue(MakeItem(0, 1000, LOSSY)))
        {
            ++admitted;
        }
        NS_TEST_EXPECT_MSG_EQ(drops.back(), DROP_INGRESS_LIMIT, "INGRESS_LIMIT");
        const uint64_t shared = mmu->GetSharedBytes(0, LOSSY);
        NS_TEST_EXPECT_MSG_LT(shared, mmu->GetSharedPoolSize() / 2, "well before the pool fills");
        NS_TEST_EXPECT_MSG_GT(shared + frame, mmu->GetXoffThreshold(), "the refused frame would cross it");
        NS_TEST_EXPECT_MSG_EQ(q->GetStats().enqueued, 3 + admitted, "enqueued count");
        NS_TEST_EXPECT_MSG_EQ(q->GetStats().drops[DROP_PFC_STORM], 2, "flush count");
        Simulator::Destroy();
    }
};

/**
 * ECN with a marker that marks any queued byte (Kmin 0, Kmax 1): at enqueue
 * a frame is marked when bytes are ahead of it (all but the first); at
 * dequeue when bytes are behind it (all but the last). Not-ECT frames are
 * never marked (RFC 3168 section 5).
 */
class QueueEcnTestCase : public TestCase
{
  public:
    /// \param atDequeue where the marker looks
    explicit QueueEcnTestCase(bool atDequeue)
        : TestCase(std::string("Egress queue ECN at ") + (atDequeue ? "dequeue" : "enqueue") +
                   ": marks on the bytes " + (atDequeue ? "behind" : "ahead") +
                   ", never a not-ECT frame"),
          m_atDequeue(atDequeue)
    {
    }

  private:
    bool m_atDequeue; //!< where the marker looks

    void DoRun() override
    {
        Ptr<QbbEgressQueue> q = CreateObject<QbbEgressQueue>();
        Ptr<RdmaEcnMarker> marker = CreateObject<RdmaEcnMarker>();
        SwitchEcnParams any;
        any.kminBytes = 0;
        any.kmaxBytes = 1;
        any.pmax = 1;
        marker->SetParams(LOSSLESS, any);
        q->SetEcnMarker(marker, m_atDequeue);
        std::vector<uint64_t> markedAt;
        q->TraceConnectWithoutContext(
            "Mark",
            Callback<void, uint8_t, uint64_t, RdmaEcnMarker::MarkReason>(
                [&](uint8_t, uint64_t bytes, RdmaEcnMarker::MarkReason r) {
                    markedAt.push_back(bytes);
                    NS_TEST_EXPECT_MSG_EQ(r, RdmaEcnMarker::FORCED_MARK, "q >= Kmax: forced");
                }));
        const uint32_t n = 4;
        for (uint32_t i = 0; i < n; ++i)
        {
            q->Enqueue(MakeItem(i == 1 ? 0 : 2, 500)); // the second is not ECT
        }
        const uint32_t frame = MakeItem(2, 500).Bytes();
        std::vector<uint8_t> ecn;
        QbbQueueItem out;
        while (q->Dequeue(0, out))
        {
            ecn.push_back(EcnOf(out.frame));
        }
        const std::vector<uint8_t> expect =
            m_atDequeue ? std::vector<uint8_t>{3, 0, 3, 2} : std::vector<uint8_t>{2, 0, 3, 3};
        NS_TEST_EXPECT_MSG_EQ((ecn == expect), true, "ECN fields in departure order");
        const std::vector<uint64_t> bytes =
            m_atDequeue ? std::vector<uint64_t>{3 * frame, frame}
                        : std::vector<uint64_t>{2 * frame, 3 * frame};
        NS_TEST_EXPECT_MSG_EQ((markedAt == bytes), true, "queue bytes of each mark");
        NS_TEST_EXPECT_MSG_EQ(q->GetStats().marks, 2, "two marks");
        Simulator::Destroy();
    }
};

/**
 * PFC controller: a hold sends PauseQuanta at once and refreshes it
 * RefreshMargin before it would expire (802.1Qbb leaves the refresh to the
 * implementation); a received frame pauses the enabled classes for quanta x
 * 512 bit times (802.1Q-2018 36.1.3.3) and not the others.
 */
class PfcControllerTestCase : public TestCase
{
  public:
    PfcControllerTestCase()
        : TestCase("PFC controller: hold and refresh times, received pause times per class")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QbbPfcController> tx = CreateObject<QbbPfcController>();
        Ptr<QbbPfcController> rx = CreateObject<QbbPfcController>();
        rx->SetAttribute("RxEnable", UintegerValue(0xFF & ~(1U << 5)));
        const DataRate rate("100Gbps");
        tx->SetDataRate(rate);
        rx->SetDataRate(rate);
        tx->SetAttribute("PauseQuanta", UintegerValue(1000)); // 5.12 us at 100 Gb/s
        tx->SetAttribute("RefreshMargin", TimeValue(MicroSeconds(1)));
        std::vector<Time> sent;
        // The "port": sends the pending frame when asked, delivers it to rx.
        tx->SetTransmitCallback(Callback<void>([&]() {
            if (tx->HasPendingFrame())
            {
                sent.push_back(Simulator::Now());
                rx->Receive(tx->BuildFrame(Mac48Address("02:00:00:00:00:01")));
            }
        }));
        tx->SetHold(3, true);
        tx->SendPause(5, 1000);
        Simulator::Schedule(MicroSeconds(10), [&]() { tx->SetHold(3, false); });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            NS_TEST_EXPECT_MSG_EQ(rx->IsPaused(3), true, "class 3 paused");
            NS_TEST_EXPECT_MSG_EQ(rx->IsPaused(5), false, "class 5 not in RxEnable");
        });
        Simulator::Run();
        // Refreshes at 5.12 - 1 = 4.12 us intervals until the release at 10 us.
        const std::vector<Time> expect = {Time(0),
                                          Time(0),
                                          NanoSeconds(4120),
                                          NanoSeconds(8240),
                                          MicroSeconds(10)};
        NS_TEST_EXPECT_MSG_EQ((sent == expect), true, "pause, pause, refresh x2, XON");
        NS_TEST_EXPECT_MSG_EQ(rx->GetStats().pauseRx[3], 3, "three pauses of class 3");
        NS_TEST_EXPECT_MSG_EQ(rx->GetStats().resumeRx[3], 1, "one XON");
        NS_TEST_EXPECT_MSG_EQ(rx->GetStats().pauseRx[5], 1, "class 5 counted though ignored");
        NS_TEST_EXPECT_MSG_EQ(rx->GetPausedTime(3), MicroSeconds(10), "paused until the XON");
        NS_TEST_EXPECT_MSG_EQ(rx->GetPausedTime(5), Time(0), "never paused");
        Simulator::Destroy();
    }
};

} // namespace

/// The egress queue and PFC controller unit suite.
class RdmaEgressQueueTestSuite : public TestSuite
{
  public:
    RdmaEgressQueueTestSuite()
        : TestSuite("rdma-egress-queue", UNIT)
    {
        AddTestCase(new QueueAccountingTestCase, TestCase::QUICK);
        AddTestCase(new QueueEcnTestCase(false), TestCase::QUICK);
        AddTestCase(new QueueEcnTestCase(true), TestCase::QUICK);
        AddTestCase(new PfcControllerTestCase, TestCase::QUICK);
    }
};

/// Static instance: registers the suite.
static RdmaEgressQueueTestSuite g_rdmaEgressQueueTestSuite;
