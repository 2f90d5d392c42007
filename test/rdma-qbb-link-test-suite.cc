/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the module's point-to-point link (QbbNetDevice, QbbChannel,
 * QbbHelper) on time: wire time and arrival times, back-to-back frames,
 * saturated throughput, the TxReady pull hook, both directions at once and
 * the transmit queue limit. Faults are in rdma-qbb-link-faults, the link
 * under ns-3's own stack and trace files in rdma-qbb-link-stack.
 *
 * The expected times are chosen to be whole nanoseconds, so they are exact
 * whether the runner keeps ns-3's default nanosecond resolution or the
 * module's picoseconds.
 */

#include "rdma-test-data.h"
#include "rdma-test-link.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/node-container.h"
#include "ns3/pcap-file.h"
#include "ns3/pointer.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-helper.h"
#include "ns3/qbb-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// GetWireTime: (max(B, 60) + WireOverhead) * 8 / rate, WireOverhead 24 by default (IEEE 802.3).
class WireTimeTestCase : public TestCase
{
  public:
    WireTimeTestCase()
        : TestCase("wire time is (max(frame, 60) + WireOverhead (24) bytes) * 8 bits over "
                   "DataRate")
    {
    }

  private:
    void DoRun() override
    {
        auto dev = CreateObject<QbbNetDevice>();
        dev->SetDataRate(DataRate("100Gbps"));
        // (1226 + 24) * 8 = 10000 bits at 100 Gb/s.
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(1226), NanoSeconds(100), "1226 B at 100G");
        // Asked twice (the cached value) and after another size.
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(1226), NanoSeconds(100), "cached");
        dev->SetDataRate(DataRate("25Gbps"));
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(1226), NanoSeconds(400), "rate change seen");
        dev->SetDataRate(DataRate("1Gbps"));
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(1000), NanoSeconds(8192), "1000 B at 1G");
        // Below the 60-byte minimum the PHY pads: (60 + 24) * 8 = 672 bits.
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(20), NanoSeconds(672), "20 B padded");
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(60), NanoSeconds(672), "60 B minimum");
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(61), NanoSeconds(680), "61 B");
        // Sizes in turn, fewer and more than the kept six, found at every
        // place of the kept ones and evicted: each still by the formula.
        const uint32_t sizes[] = {1000, 61,  1000, 61, 20, 1000, 20,  61,  1000, 100,  200, 300,
                                  400,  500, 1000, 61, 20, 100,  600, 700, 61,   1000, 20,  700};
        for (uint32_t b : sizes)
        {
            NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(b),
                                  NanoSeconds((std::max<uint32_t>(b, 60) + 24) * 8),
                                  b << " B among others at 1G");
        }
        // The attribute reaches the same setter.
        dev->SetAttribute("DataRate", DataRateValue(DataRate("50Gbps")));
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(1226), NanoSeconds(200), "attribute");
        // WireOverhead 0 (how the HPCC simulator times a packet: its size
        // over the rate): the frame's bytes alone, still padded to 60; the
        // value cached for 1000 B with the 24 bytes is not reused.
        dev->SetDataRate(DataRate("1Gbps"));
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(1000), NanoSeconds(8192), "1000 B + 24 at 1G");
        dev->SetAttribute("WireOverhead", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(1000), NanoSeconds(8000), "1000 B alone at 1G");
        NS_TEST_EXPECT_MSG_EQ(dev->GetWireTime(20), NanoSeconds(480), "20 B padded to 60");
    }
};

/**
 * Back-to-back frames queued at t0 on an idle port: the n-th (n = 1..N)
 * arrives at exactly t0 + n * W + D, with W the wire time and D the delay.
 */
class BackToBackTimingTestCase : public TestCase
{
  public:
    /**
     * \param rate line rate
     * \param frameBytes frame size
     * \param delay channel delay
     * \param wire expected wire time W, a literal
     */
    BackToBackTimingTestCase(std::string rate, uint32_t frameBytes, Time delay, Time wire)
        : TestCase("back-to-back " + std::to_string(frameBytes) + " B frames at " + rate +
                   " arrive at t0 + n * W + D"),
          m_rate(rate),
          m_frameBytes(frameBytes),
          m_delay(delay),
          m_wire(wire)
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeLinkHelper(m_rate, m_delay);
        std::vector<Arrival> arrivals;
        std::vector<Ptr<Packet>> sent;
        {
            Link link(helper);
            link.b->SetFrameReceiveCallback(FrameCb([&](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                arrivals.push_back({Simulator::Now(), p});
            }));
            const uint32_t n = 6;
            // Burst 1 at t0 = 0, burst 2 at t0 = 20 us (the port is idle again).
            for (Time t0 : {Time(0), MicroSeconds(20)})
            {
                Simulator::Schedule(t0, [&, t0]() {
                    for (uint32_t i = 0; i < n; ++i)
                    {
                        Ptr<Packet> f = MakeFrame(link.macA, link.macB, m_frameBytes, sent.size());
                        sent.push_back(f);
                        NS_TEST_EXPECT_MSG_EQ(link.a->SendFrame(f), true, "accepted");
                    }
                });
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(arrivals.size(), 2 * n, "every frame arrives");
            for (uint32_t k = 0; k < 2 * n; ++k)
            {
                Time t0 = k < n ? Time(0) : MicroSeconds(20);
                Time expect = t0 + m_wire * static_cast<int64_t>(k % n + 1) + m_delay;
                NS_TEST_EXPECT_MSG_EQ(arrivals[k].t, expect, "arrival of frame " << k);
                NS_TEST_EXPECT_MSG_EQ(FrameSeq(arrivals[k].p), k, "order");
                // No per-hop copy: the receiver gets the object that was sent.
                NS_TEST_EXPECT_MSG_EQ((PeekPointer(arrivals[k].p) == PeekPointer(sent[k])),
                                      true,
                                      "same Ptr<Packet> as sent");
            }
            NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().txFrames, 2 * n, "tx frames");
            NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().txBytes, 2 * n * m_frameBytes, "tx bytes");
            NS_TEST_EXPECT_MSG_EQ(link.b->GetStats().rxFrames, 2 * n, "rx frames");
            NS_TEST_EXPECT_MSG_EQ(link.b->GetStats().rxBytes, 2 * n * m_frameBytes, "rx bytes");
            Simulator::Destroy();
        }
    }

    /// Frame callback type.
    using FrameCb = QbbNetDevice::FrameReceiveCallback;

    std::string m_rate;    //!< line rate
    uint32_t m_frameBytes; //!< frame size
    Time m_delay;          //!< channel delay
    Time m_wire;           //!< expected wire time
};

/**
 * The end of a transmission nobody waits for (no queued frame, no PFC frame,
 * no TxReady callback, no PhyTxEnd sink) is no event: n frames sent 10 us
 * apart on an idle port cost n send events and n arrival events, not 3n,
 * and the counters are exact all the same (settled when read). A frame
 * queued behind one on the wire still starts at its end.
 */
class LazyTxEndTestCase : public TestCase
{
  public:
    LazyTxEndTestCase()
        : TestCase("A transmission end nobody waits for is no event; counters stay exact")
    {
    }

  private:
    /**
     * Send n frames 10 us apart, each alone on the wire.
     * \param endSink whether a PhyTxEnd sink listens (it makes every end an event)
     * \return the events the simulator ran
     */
    uint64_t RunSpaced(bool endSink)
    {
        QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
        Link link(helper);
        std::vector<Time> arrivals;
        std::vector<Time> ends;
        link.b->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback(
            [&](Ptr<QbbNetDevice>, Ptr<Packet>) { arrivals.push_back(Simulator::Now()); }));
        if (endSink)
        {
            link.a->TraceConnectWithoutContext(
                "PhyTxEnd",
                Callback<void, Ptr<const Packet>>(
                    [&](Ptr<const Packet>) { ends.push_back(Simulator::Now()); }));
        }
        const uint32_t n = 10;
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(MicroSeconds(10 * i), [&link, i]() {
                link.a->SendFrame(MakeFrame(link.macA, link.macB, 1000, i));
            });
        }
        Simulator::Run();
        const Time wire = link.a->GetWireTime(1000);
        NS_TEST_EXPECT_MSG_EQ(arrivals.size(), n, "every frame arrives");
        NS_TEST_EXPECT_MSG_EQ(arrivals.back(), MicroSeconds(10 * (n - 1) + 1) + wire, "timing");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().txFrames, n, "every end counted");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().txBytes, uint64_t{n} * 1000, "bytes");
        NS_TEST_EXPECT_MSG_EQ(link.a->IsTxIdle(), true, "idle");
        if (endSink)
        {
            NS_TEST_EXPECT_MSG_EQ(ends.size(), n, "PhyTxEnd per frame");
            NS_TEST_EXPECT_MSG_EQ(ends.back(), MicroSeconds(10 * (n - 1)) + wire, "at the end");
        }
        const uint64_t events = Simulator::GetEventCount();
        Simulator::Destroy();
        return events;
    }

    void DoRun() override
    {
        const uint64_t lazy = RunSpaced(false);
        const uint64_t eager = RunSpaced(true);
        NS_TEST_EXPECT_MSG_EQ(eager - lazy, 10, "one end event per frame only when listened to");

        // Two frames at once: the second waits, so the first's end is an event.
        QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
        Link link(helper);
        std::vector<Time> arrivals;
        link.b->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback(
            [&](Ptr<QbbNetDevice>, Ptr<Packet>) { arrivals.push_back(Simulator::Now()); }));
        Simulator::Schedule(MicroSeconds(1), [&link]() {
            link.a->SendFrame(MakeFrame(link.macA, link.macB, 1000, 100));
            link.a->SendFrame(MakeFrame(link.macA, link.macB, 1000, 101));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), 2, "both arrive");
        NS_TEST_EXPECT_MSG_EQ(arrivals[1] - arrivals[0], link.a->GetWireTime(1000), "back to back");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().txFrames, 2, "counted");
        Simulator::Destroy();
    }
};

/**
 * A sender fed by the TxReady pull hook keeps the link busy: goodput in
 * frame bytes is DataRate * F / (F + 24), measured at the receiver between
 * the first and last arrival. Tolerance 0.2%: the wire time is rounded to
 * the time resolution per frame (81.92 ns -> 82 ns at nanosecond resolution
 * is 0.1%); leaving out the 24 bytes of overhead would be off by 2.4%
 * (1000 B) and 0.27% (9000 B).
 */
class SaturatedThroughputTestCase : public TestCase
{
  public:
    /**
     * \param rate line rate
     * \param frameBytes frame size
     */
    SaturatedThroughputTestCase(std::string rate, uint32_t frameBytes)
        : TestCase("saturated " + rate + " link with " + std::to_string(frameBytes) +
                   " B frames carries rate * F over (F + 24)"),
          m_rate(rate),
          m_frameBytes(frameBytes)
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeLinkHelper(m_rate, MicroSeconds(1));
        Link link(helper);
        const uint32_t total = 400;
        uint32_t seq = 0;
        bool queueStayedEmpty = true;
        auto push = [&]() {
            queueStayedEmpty = queueStayedEmpty && link.a->GetTxQueue()->GetBytes() == 0;
            if (seq < total)
            {
                link.a->SendFrame(MakeFrame(link.macA, link.macB, m_frameBytes, seq++));
            }
        };
        link.a->SetTxReadyCallback(Callback<void>(push));
        Time first;
        Time last;
        uint64_t frames = 0;
        link.b->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([&](Ptr<QbbNetDevice>, Ptr<Packet>) {
                (frames == 0 ? first : last) = Simulator::Now();
                ++frames;
            }));
        Simulator::Schedule(Time(0), push);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(frames, total, "all frames arrive");
        NS_TEST_EXPECT_MSG_EQ(queueStayedEmpty, true, "pull hook keeps the queue empty");
        const double rate = static_cast<double>(DataRate(m_rate).GetBitRate());
        const double measured = (frames - 1) * m_frameBytes * 8.0 / (last - first).GetSeconds();
        const double expected = rate * m_frameBytes / (m_frameBytes + 24.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(measured / expected, 1.0, 0.002, "goodput / expected");
        Simulator::Destroy();
    }

    std::string m_rate;    //!< line rate
    uint32_t m_frameBytes; //!< frame size
};

/// TxReady is called once each time the port goes idle with an empty queue.
class TxReadyTestCase : public TestCase
{
  public:
    TxReadyTestCase()
        : TestCase("TxReady pull hook: once per idle transition, from the end of transmission")
    {
    }

  private:
    void DoRun() override
    {
        // W = 100 ns per 1226-byte frame.
        QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
        Link link(helper);
        std::vector<Time> calls;
        uint32_t pushesLeft = 0;
        uint32_t seq = 0;
        bool idleInHook = true;
        auto send = [&]() {
            return link.a->SendFrame(MakeFrame(link.macA, link.macB, 1226, seq++));
        };
        link.a->SetTxReadyCallback(Callback<void>([&]() {
            calls.push_back(Simulator::Now());
            idleInHook = idleInHook && link.a->IsTxIdle() && link.a->GetTxQueue()->GetBytes() == 0;
            if (pushesLeft > 0)
            {
                --pushesLeft;
                send();
            }
        }));
        // A: three frames at 0 -> one call, when the third ends (300 ns).
        Simulator::Schedule(Time(0), [&]() {
            for (int i = 0; i < 3; ++i)
            {
                send();
            }
            NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueue()->GetFrames(), 2, "one on the wire, two queued");
            NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueue()->GetBytes(), 2 * 1226, "queued bytes");
        });
        // B: one frame at 1 us -> call at 1.1 us; the port is busy at once.
        Simulator::Schedule(MicroSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(link.a->IsTxIdle(), true, "idle before");
            send();
            NS_TEST_EXPECT_MSG_EQ(link.a->IsTxIdle(), false, "busy right after SendFrame");
            NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueue()->GetBytes(), 0, "straight to the wire");
        });
        // C: one frame at 2 us, the hook pushes one frame twice -> calls at
        // 2.1, 2.2 and 2.3 us.
        Simulator::Schedule(MicroSeconds(2), [&]() {
            pushesLeft = 2;
            send();
        });
        Simulator::Run();

        const std::vector<Time> expect = {NanoSeconds(300),
                                          NanoSeconds(1100),
                                          NanoSeconds(2100),
                                          NanoSeconds(2200),
                                          NanoSeconds(2300)};
        NS_TEST_ASSERT_MSG_EQ(calls.size(), expect.size(), "number of TxReady calls");
        for (std::size_t i = 0; i < expect.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(calls[i], expect[i], "TxReady call " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(idleInHook, true, "idle with an empty queue inside the hook");
        NS_TEST_EXPECT_MSG_EQ(link.b->GetStats().rxFrames, 7, "frames delivered");
        Simulator::Destroy();
    }
};

/**
 * Both directions at once, with transmissions started from inside receive
 * callbacks (as a NIC answers with ACKs): b echoes every frame it gets, and
 * on the first one a sends one more frame. W = 100 ns, D = 1 us. Frames
 * 0..3 leave a at 0..300 ns and reach b at (k+1)W + D = 1.1..1.4 us; the
 * extra frame leaves a at 1.1 us and reaches b at 2.2 us; each echo leaves b
 * when its frame arrives (b is idle by then) and reaches a W + D later:
 * 2.2, 2.3, 2.4, 2.5 us, and 3.3 us for the extra frame's echo.
 */
class BidirectionalTestCase : public TestCase
{
  public:
    BidirectionalTestCase()
        : TestCase("both directions, with frames sent from receive callbacks")
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
        Link link(helper);
        std::vector<std::pair<Time, uint32_t>> atB;
        std::vector<std::pair<Time, uint32_t>> atA;
        link.b->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([&](Ptr<QbbNetDevice> dev, Ptr<Packet> p) {
                const uint32_t seq = FrameSeq(p);
                atB.emplace_back(Simulator::Now(), seq);
                dev->SendFrame(MakeFrame(link.macB, link.macA, 1226, 1000 + seq));
                if (seq == 0)
                {
                    link.a->SendFrame(MakeFrame(link.macA, link.macB, 1226, 4));
                }
            }));
        link.a->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([&](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                atA.emplace_back(Simulator::Now(), FrameSeq(p));
            }));
        for (uint32_t i = 0; i < 4; ++i)
        {
            link.a->SendFrame(MakeFrame(link.macA, link.macB, 1226, i));
        }
        Simulator::Run();
        const std::vector<std::pair<Time, uint32_t>> expectB = {{NanoSeconds(1100), 0},
                                                                {NanoSeconds(1200), 1},
                                                                {NanoSeconds(1300), 2},
                                                                {NanoSeconds(1400), 3},
                                                                {NanoSeconds(2200), 4}};
        const std::vector<std::pair<Time, uint32_t>> expectA = {{NanoSeconds(2200), 1000},
                                                                {NanoSeconds(2300), 1001},
                                                                {NanoSeconds(2400), 1002},
                                                                {NanoSeconds(2500), 1003},
                                                                {NanoSeconds(3300), 1004}};
        NS_TEST_ASSERT_MSG_EQ(atB.size(), expectB.size(), "frames at b");
        NS_TEST_ASSERT_MSG_EQ(atA.size(), expectA.size(), "echoes at a");
        for (std::size_t i = 0; i < expectB.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(atB[i].first, expectB[i].first, "time at b " << i);
            NS_TEST_EXPECT_MSG_EQ(atB[i].second, expectB[i].second, "frame at b " << i);
            NS_TEST_EXPECT_MSG_EQ(atA[i].first, expectA[i].first, "time at a " << i);
            NS_TEST_EXPECT_MSG_EQ(atA[i].second, expectA[i].second, "echo at a " << i);
        }
        Simulator::Destroy();
    }
};

/// Frames beyond the egress queue's MaxBytes are dropped with QUEUE_FULL.
class QueueLimitTestCase : public TestCase
{
  public:
    QueueLimitTestCase()
        : TestCase("Egress queue MaxBytes: frames that do not fit are dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
        helper.SetQueueAttribute("MaxBytes", UintegerValue(3000));
        Link link(helper);
        std::vector<uint32_t> got;
        link.b->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback(
            [&](Ptr<QbbNetDevice>, Ptr<Packet> p) { got.push_back(FrameSeq(p)); }));
        uint32_t fullDrops = 0;
        link.a->GetTxQueue()->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, uint32_t, RdmaDropReason>(
                [&](Ptr<const Packet>, uint32_t, RdmaDropReason reason) {
                    fullDrops += reason == DROP_QUEUE_FULL ? 1 : 0;
                }));
        std::vector<bool> accepted;
        for (uint32_t i = 0; i < 10; ++i)
        {
            accepted.push_back(link.a->SendFrame(MakeFrame(link.macA, link.macB, 1000, i)));
        }
        // One frame on the wire (not counted), three of 1000 B fill 3000 B.
        NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueue()->GetBytes(), 3000, "queue bytes");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueue()->GetFrames(), 3, "queue frames");
        for (uint32_t i = 0; i < 10; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(accepted[i], (i < 4), "SendFrame result " << i);
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueue()->GetStats().drops[DROP_QUEUE_FULL],
                              6,
                              "QUEUE_FULL count");
        NS_TEST_EXPECT_MSG_EQ(fullDrops, 6, "Drop trace");
        NS_TEST_ASSERT_MSG_EQ(got.size(), 4, "frames delivered");
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(got[i], i, "the first four");
        }
        NS_TEST_EXPECT_MSG_EQ(link.a->IsTxIdle(), true, "idle at the end");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueue()->GetBytes(), 0, "empty at the end");
        Simulator::Destroy();
    }
};

/// The rdma-qbb-link suite.
class RdmaQbbLinkTestSuite : public TestSuite
{
  public:
    RdmaQbbLinkTestSuite()
        : TestSuite("rdma-qbb-link", UNIT)
    {
        AddTestCase(new WireTimeTestCase, TestCase::QUICK);
        AddTestCase(new LazyTxEndTestCase, TestCase::QUICK);
        AddTestCase(
            new BackToBackTimingTestCase("100Gbps", 1226, MicroSeconds(1), NanoSeconds(100)),
            TestCase::QUICK);
        // Six frames on a 10 us cable at once: more than a wire holds inside
        // itself (QbbWire's four), the rest in its FIFO, arrivals unchanged.
        AddTestCase(
            new BackToBackTimingTestCase("100Gbps", 1226, MicroSeconds(10), NanoSeconds(100)),
            TestCase::QUICK);
        AddTestCase(new BackToBackTimingTestCase("1Gbps", 40, NanoSeconds(250), NanoSeconds(672)),
                    TestCase::QUICK);
        AddTestCase(new SaturatedThroughputTestCase("100Gbps", 1000), TestCase::QUICK);
        AddTestCase(new SaturatedThroughputTestCase("25Gbps", 9000), TestCase::QUICK);
        AddTestCase(new TxReadyTestCase, TestCase::QUICK);
        AddTestCase(new BidirectionalTestCase, TestCase::QUICK);
        AddTestCase(new QueueLimitTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaQbbLinkTestSuite g_rdmaQbbLinkTestSuite;

} // namespace
