/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the module's point-to-point link (QbbNetDevice, QbbChannel,
 * QbbHelper): wire time and arrival times, saturated throughput, the
 * TxReady pull hook, real corruption by the receive error model, link
 * failure, the transmit queue limit, the standard receive path, and the
 * PCAP/ASCII files the helper writes.
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

/// EtherType of the test frames (IEEE local experimental).
constexpr uint16_t TEST_ETHERTYPE = 0x88B5;

/**
 * \brief A frame of exactly frameBytes bytes: Ethernet header, then the
 * sequence number (4 bytes, big-endian), then a pattern that depends on it.
 * \param src source MAC
 * \param dst destination MAC
 * \param frameBytes total bytes (at least 18)
 * \param seq sequence number
 * \return the frame
 */
Ptr<Packet>
MakeFrame(Mac48Address src, Mac48Address dst, uint32_t frameBytes, uint32_t seq)
{
    std::vector<uint8_t> payload(frameBytes - QbbNetDevice::ETHERNET_HEADER_BYTES);
    for (std::size_t i = 0; i < payload.size(); ++i)
    {
        payload[i] = static_cast<uint8_t>(seq * 31 + i * 7 + 1);
    }
    for (int i = 0; i < 4; ++i)
    {
        payload[i] = static_cast<uint8_t>(seq >> (24 - 8 * i));
    }
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    EthernetHeader eth(false);
    eth.SetSource(src);
    eth.SetDestination(dst);
    eth.SetLengthType(TEST_ETHERTYPE);
    p->AddHeader(eth);
    return p;
}

/// \return the sequence number MakeFrame wrote into a frame
uint32_t
FrameSeq(Ptr<const Packet> frame)
{
    uint8_t b[18];
    frame->CopyData(b, sizeof(b));
    return (uint32_t{b[14]} << 24) | (uint32_t{b[15]} << 16) | (uint32_t{b[16]} << 8) | b[17];
}

using rdmatest::Link;

/// A helper with the given line rate and propagation delay.
QbbHelper
MakeHelper(const std::string& rate, Time delay)
{
    QbbHelper h;
    h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
    h.SetChannelAttribute("Delay", TimeValue(delay));
    return h;
}

/// One received frame and when its last bit arrived.
struct Arrival
{
    Time t;        //!< arrival time
    Ptr<Packet> p; //!< the frame as passed up
};

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
        // Sizes in turn (the last two are kept): each still by the formula.
        const uint32_t sizes[] = {1000, 61, 1000, 61, 20, 1000, 20, 61, 1000};
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
        QbbHelper helper = MakeHelper(m_rate, m_delay);
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
        QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
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
        QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
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
        QbbHelper helper = MakeHelper(m_rate, MicroSeconds(1));
        Link link(helper);
        const uint32_t total = 400;
        uint32_t seq = 0;
        bool queueStayedEmpty = true;
        auto push = [&]() {
            queueStayedEmpty = queueStayedEmpty && link.a->GetTxQueueBytes() == 0;
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
        QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
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
            idleInHook = idleInHook && link.a->IsTxIdle() && link.a->GetTxQueueBytes() == 0;
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
            NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueueFrames(), 2, "one on the wire, two queued");
            NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueueBytes(), 2 * 1226, "queued bytes");
        });
        // B: one frame at 1 us -> call at 1.1 us; the port is busy at once.
        Simulator::Schedule(MicroSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(link.a->IsTxIdle(), true, "idle before");
            send();
            NS_TEST_EXPECT_MSG_EQ(link.a->IsTxIdle(), false, "busy right after SendFrame");
            NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueueBytes(), 0, "straight to the wire");
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
 * ReceiveErrorModel with rate 1: the raw-frame path gets a copy with exactly
 * one bit flipped, in the last CorruptTailBytes bytes and never in the
 * Ethernet header, the sent frame untouched; the standard path drops every
 * frame (PhyRxDrop, Drop CORRUPT); rate 0 changes nothing.
 */
class ErrorModelTestCase : public TestCase
{
  public:
    ErrorModelTestCase()
        : TestCase(
              "receive error model: real bit flip on the frame path, drop on the standard path")
    {
    }

  private:
    /// Result of one raw-path run.
    struct RawRun
    {
        std::vector<uint32_t> flippedBits; //!< bit index (byte * 8 + bit) per frame, or ~0
        uint32_t framesWithOneFlip{0};     //!< frames that differ in exactly one bit
        uint64_t rxCorrupt{0};             //!< device counter
        uint64_t rxFrames{0};              //!< device counter
        bool sentUntouched{true};          //!< sender's frames unchanged
        bool copies{true};                 //!< receiver got other objects than sent
    };

    /**
     * \brief Send 10 frames to a receiver with a rate-r error model and a frame callback.
     * \param rate error rate
     * \param tailBytes CorruptTailBytes
     * \param stream stream for AssignStreams, or -1 for none
     * \return what arrived
     */
    RawRun RunRaw(double rate, uint32_t tailBytes, int64_t stream)
    {
        RawRun r;
        QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
        helper.SetDeviceAttribute("CorruptTailBytes", UintegerValue(tailBytes));
        Link link(helper);
        if (stream >= 0)
        {
            QbbHelper::AssignStreams(link.devs, stream);
        }
        auto em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(rate));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        link.b->SetAttribute("ReceiveErrorModel", PointerValue(em));
        std::vector<Ptr<Packet>> sent;
        std::vector<std::vector<uint8_t>> sentBytes;
        for (uint32_t i = 0; i < 10; ++i)
        {
            sent.push_back(MakeFrame(link.macA, link.macB, 1226, i));
            sentBytes.push_back(ToBytes(sent.back()));
            link.a->SendFrame(sent.back());
        }
        link.b->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([&](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                uint32_t i = r.flippedBits.size();
                r.copies = r.copies && PeekPointer(p) != PeekPointer(sent.at(i));
                std::vector<uint8_t> got = ToBytes(p);
                uint32_t diffBits = 0;
                uint32_t where = ~0U;
                for (std::size_t k = 0; k < got.size() && got.size() == sentBytes[i].size(); ++k)
                {
                    uint8_t x = got[k] ^ sentBytes[i][k];
                    for (uint32_t bit = 0; bit < 8; ++bit)
                    {
                        if (x & (1U << bit))
                        {
                            ++diffBits;
                            where = k * 8 + bit;
                        }
                    }
                }
                r.framesWithOneFlip += (diffBits == 1 && got.size() == 1226) ? 1 : 0;
                r.flippedBits.push_back(diffBits == 1 ? where : ~0U);
            }));
        Simulator::Run();
        for (uint32_t i = 0; i < sent.size(); ++i)
        {
            r.sentUntouched = r.sentUntouched && ToBytes(sent[i]) == sentBytes[i];
        }
        r.rxCorrupt = link.b->GetStats().rxCorrupt;
        r.rxFrames = link.b->GetStats().rxFrames;
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        // Raw path, default CorruptTailBytes = 4: the bit lies in bytes 1222..1225.
        RawRun r = RunRaw(1.0, 4, -1);
        NS_TEST_ASSERT_MSG_EQ(r.flippedBits.size(), 10, "every frame delivered");
        NS_TEST_EXPECT_MSG_EQ(r.framesWithOneFlip, 10, "each differs in exactly one bit");
        for (uint32_t bit : r.flippedBits)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(bit / 8, 1226 - 4, "in the last 4 bytes");
            NS_TEST_EXPECT_MSG_LT(bit / 8, 1226, "inside the frame");
        }
        NS_TEST_EXPECT_MSG_EQ(r.rxCorrupt, 10, "corruptions counted");
        NS_TEST_EXPECT_MSG_EQ(r.rxFrames, 10, "corrupted copies are received frames");
        NS_TEST_EXPECT_MSG_EQ(r.sentUntouched, true, "the sent frames are not changed");
        NS_TEST_EXPECT_MSG_EQ(r.copies, true, "a corrupted frame is a copy");

        // Span covering the whole frame: never the 14-byte header; positions
        // spread; the same stream gives the same positions, another stream others.
        RawRun w1 = RunRaw(1.0, 100000, 7);
        RawRun w2 = RunRaw(1.0, 100000, 7);
        RawRun w3 = RunRaw(1.0, 100000, 8);
        NS_TEST_EXPECT_MSG_EQ(w1.framesWithOneFlip, 10, "one bit each (wide span)");
        std::set<uint32_t> positions(w1.flippedBits.begin(), w1.flippedBits.end());
        NS_TEST_EXPECT_MSG_GT(positions.size(), 5, "positions spread over the frame");
        for (uint32_t bit : w1.flippedBits)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(bit / 8, 14, "not in the Ethernet header");
        }
        NS_TEST_EXPECT_MSG_EQ((w1.flippedBits == w2.flippedBits), true, "same stream, same bits");
        NS_TEST_EXPECT_MSG_EQ((w1.flippedBits == w3.flippedBits),
                              false,
                              "other stream, other bits");

        // Rate 0: frames arrive unchanged (the comparison above can fail).
        RawRun clean = RunRaw(0.0, 4, -1);
        NS_TEST_EXPECT_MSG_EQ(clean.flippedBits.size(), 10, "delivered");
        NS_TEST_EXPECT_MSG_EQ(clean.framesWithOneFlip, 0, "no flipped bits");
        NS_TEST_EXPECT_MSG_EQ(clean.rxCorrupt, 0, "no corruption counted");
        NS_TEST_EXPECT_MSG_EQ(clean.copies, false, "undamaged frames are not copied");

        // Standard path.
        for (double rate : {1.0, 0.0})
        {
            QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
            Link link(helper);
            auto em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(rate));
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            link.b->SetReceiveErrorModel(em);
            uint32_t delivered = 0;
            uint32_t phyRxDrops = 0;
            uint32_t corruptDrops = 0;
            link.b->SetReceiveCallback(NetDevice::ReceiveCallback(
                [&](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t proto, const Address& from) {
                    ++delivered;
                    NS_TEST_EXPECT_MSG_EQ(proto, 0x0800, "EtherType");
                    NS_TEST_EXPECT_MSG_EQ(Mac48Address::ConvertFrom(from), link.macA, "source");
                    NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 500, "payload without header");
                    return true;
                }));
            link.b->TraceConnectWithoutContext(
                "PhyRxDrop",
                Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) { ++phyRxDrops; }));
            link.b->TraceConnectWithoutContext(
                "Drop",
                Callback<void, Ptr<const Packet>, RdmaDropReason>(
                    [&](Ptr<const Packet>, RdmaDropReason reason) {
                        corruptDrops += reason == DROP_CORRUPT ? 1 : 0;
                    }));
            for (int i = 0; i < 10; ++i)
            {
                link.a->Send(Create<Packet>(500), link.macB, 0x0800);
            }
            Simulator::Run();
            const uint32_t bad = rate > 0 ? 10 : 0;
            NS_TEST_EXPECT_MSG_EQ(delivered, 10 - bad, "standard path deliveries, rate " << rate);
            NS_TEST_EXPECT_MSG_EQ(phyRxDrops, bad, "PhyRxDrop, rate " << rate);
            NS_TEST_EXPECT_MSG_EQ(corruptDrops, bad, "Drop CORRUPT, rate " << rate);
            NS_TEST_EXPECT_MSG_EQ(link.b->GetStats().drops[DROP_CORRUPT],
                                  bad,
                                  "drop counter, rate " << rate);
            NS_TEST_EXPECT_MSG_EQ(link.b->GetStats().rxCorrupt, bad, "rxCorrupt, rate " << rate);
            Simulator::Destroy();
        }
    }
};

/**
 * A link down from 5.05 us to 8.05 us under a saturated sender (W = 100 ns,
 * D = 1 us; frame i is on the wire from i*W until its last bit arrives at
 * (i+1)*W + D). Frame i is lost iff that span meets the down interval:
 * i*W < 8.05 us and (i+1)*W + D > 5.05 us, i.e. i = 40..80. The others
 * arrive on time, the sender keeps transmitting and counts 41 LINK_DOWN drops.
 */
class LinkDownTestCase : public TestCase
{
  public:
    LinkDownTestCase()
        : TestCase("link down loses the frames on the wire, counts them, and link up resumes")
    {
    }

  private:
    void DoRun() override
    {
        const Time w = NanoSeconds(100);
        const Time d = MicroSeconds(1);
        QbbHelper helper = MakeHelper("100Gbps", d);
        Link link(helper);
        const uint32_t total = 120;
        uint32_t seq = 0;
        auto push = [&]() {
            if (seq < total)
            {
                link.a->SendFrame(MakeFrame(link.macA, link.macB, 1226, seq++));
            }
        };
        link.a->SetTxReadyCallback(Callback<void>(push));
        std::vector<Arrival> arrivals;
        link.b->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([&](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                arrivals.push_back({Simulator::Now(), p});
            }));
        uint32_t linkDownDropsA = 0;
        link.a->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, RdmaDropReason>(
                [&](Ptr<const Packet>, RdmaDropReason reason) {
                    linkDownDropsA += reason == DROP_LINK_DOWN ? 1 : 0;
                }));
        uint32_t changesA = 0;
        uint32_t changesB = 0;
        link.a->AddLinkChangeCallback(Callback<void>([&]() { ++changesA; }));
        link.b->AddLinkChangeCallback(Callback<void>([&]() { ++changesB; }));
        std::vector<bool> upProbes;
        for (Time t : {MicroSeconds(1), MicroSeconds(6), MicroSeconds(9)})
        {
            Simulator::Schedule(t, [&]() {
                upProbes.push_back(link.a->IsLinkUp() && link.b->IsLinkUp());
            });
        }
        QbbHelper::ScheduleLinkDown(link.devs, NanoSeconds(5050), NanoSeconds(8050));
        Simulator::Schedule(Time(0), push);
        Simulator::Run();

        std::vector<uint32_t> expectSeqs;
        for (uint32_t i = 0; i < total; ++i)
        {
            if (i < 40 || i > 80)
            {
                expectSeqs.push_back(i);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), expectSeqs.size(), "frames that arrive");
        for (std::size_t k = 0; k < arrivals.size(); ++k)
        {
            uint32_t i = expectSeqs[k];
            NS_TEST_EXPECT_MSG_EQ(FrameSeq(arrivals[k].p), i, "arrival " << k);
            NS_TEST_EXPECT_MSG_EQ(arrivals[k].t,
                                  w * static_cast<int64_t>(i + 1) + d,
                                  "time of " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().txFrames, total, "sender kept serializing");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().drops[DROP_LINK_DOWN],
                              41,
                              "LINK_DOWN drops counted by the sender");
        NS_TEST_EXPECT_MSG_EQ(linkDownDropsA, 41, "Drop trace, LINK_DOWN");
        NS_TEST_EXPECT_MSG_EQ(link.b->GetStats().drops[DROP_LINK_DOWN],
                              0,
                              "receiver");
        NS_TEST_EXPECT_MSG_EQ(link.b->GetStats().rxFrames, total - 41, "receiver count");
        NS_TEST_EXPECT_MSG_EQ(changesA, 2, "link change callbacks on a (down, up)");
        NS_TEST_EXPECT_MSG_EQ(changesB, 2, "link change callbacks on b (down, up)");
        NS_TEST_ASSERT_MSG_EQ(upProbes.size(), 3, "probes");
        NS_TEST_EXPECT_MSG_EQ(upProbes[0], true, "up at 1 us");
        NS_TEST_EXPECT_MSG_EQ(upProbes[1], false, "down at 6 us");
        NS_TEST_EXPECT_MSG_EQ(upProbes[2], true, "up at 9 us");
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
        QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
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
        QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
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
        NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueueBytes(), 3000, "queue bytes");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueueFrames(), 3, "queue frames");
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
        NS_TEST_EXPECT_MSG_EQ(link.a->GetTxQueueBytes(), 0, "empty at the end");
        Simulator::Destroy();
    }
};

/**
 * The standard NetDevice path: Send adds the Ethernet header and pads to 46
 * payload bytes; the receiver strips the header and classifies the
 * destination; a frame callback replaces the standard callbacks; sizes
 * beyond Mtu are refused.
 */
class StandardPathTestCase : public TestCase
{
  public:
    StandardPathTestCase()
        : TestCase("NetDevice Send and receive path, packet types, frame callback, Mtu")
    {
    }

  private:
    /// One standard-path delivery.
    struct Rx
    {
        bool promisc;               //!< from the promiscuous callback
        uint32_t size;              //!< payload bytes
        uint16_t protocol;          //!< EtherType
        NetDevice::PacketType type; //!< promiscuous only
        std::vector<uint8_t> bytes; //!< payload
    };

    void DoRun() override
    {
        QbbHelper helper = MakeHelper("100Gbps", MicroSeconds(1));
        Link link(helper);
        std::vector<Rx> rx;
        link.b->SetReceiveCallback(NetDevice::ReceiveCallback(
            [&](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t proto, const Address&) {
                rx.push_back({false, p->GetSize(), proto, NetDevice::PACKET_HOST, ToBytes(p)});
                return true;
            }));
        link.b->SetPromiscReceiveCallback(
            NetDevice::PromiscReceiveCallback([&](Ptr<NetDevice>,
                                                  Ptr<const Packet> p,
                                                  uint16_t proto,
                                                  const Address&,
                                                  const Address&,
                                                  NetDevice::PacketType type) {
                rx.push_back({true, p->GetSize(), proto, type, ToBytes(p)});
                return true;
            }));
        std::vector<uint8_t> small = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        Simulator::Schedule(Time(0), [&]() { link.a->Send(ToPacket(small), link.macB, 0x0800); });
        Simulator::Schedule(MicroSeconds(5), [&]() {
            link.a->Send(Create<Packet>(100), Mac48Address::GetBroadcast(), 0x0806);
        });
        Simulator::Schedule(MicroSeconds(10), [&]() {
            link.a->Send(Create<Packet>(100), Mac48Address("02:00:00:00:00:99"), 0x86DD);
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rx.size(), 5, "2 + 2 + 1 callbacks");
        // Unicast to b: promiscuous (HOST) then standard.
        NS_TEST_EXPECT_MSG_EQ(rx[0].promisc, true, "promisc first");
        NS_TEST_EXPECT_MSG_EQ(rx[0].type, NetDevice::PACKET_HOST, "HOST");
        NS_TEST_EXPECT_MSG_EQ(rx[1].promisc, false, "then standard");
        NS_TEST_EXPECT_MSG_EQ(rx[1].protocol, 0x0800, "EtherType");
        NS_TEST_EXPECT_MSG_EQ(rx[1].size, 46, "padded to the Ethernet minimum");
        NS_TEST_EXPECT_MSG_EQ(
            (std::vector<uint8_t>(rx[1].bytes.begin(), rx[1].bytes.begin() + 10) == small),
            true,
            "payload bytes");
        NS_TEST_EXPECT_MSG_EQ(rx[2].type, NetDevice::PACKET_BROADCAST, "BROADCAST");
        NS_TEST_EXPECT_MSG_EQ(rx[3].promisc, false, "broadcast goes up");
        NS_TEST_EXPECT_MSG_EQ(rx[3].protocol, 0x0806, "ARP EtherType");
        NS_TEST_EXPECT_MSG_EQ(rx[3].size, 100, "not padded");
        NS_TEST_EXPECT_MSG_EQ(rx[4].promisc, true, "other host: promiscuous only");
        NS_TEST_EXPECT_MSG_EQ(rx[4].type, NetDevice::PACKET_OTHERHOST, "OTHERHOST");
        NS_TEST_EXPECT_MSG_EQ(rx[4].protocol, 0x86DD, "EtherType");

        // The frame callback replaces the standard ones and gets the whole frame.
        rx.clear();
        std::vector<std::vector<uint8_t>> frames;
        link.b->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback(
            [&](Ptr<QbbNetDevice>, Ptr<Packet> p) { frames.push_back(ToBytes(p)); }));
        Simulator::Schedule(Time(0),
                            [&]() { link.a->Send(Create<Packet>(100), link.macB, 0x0800); });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rx.size(), 0, "standard callbacks not called");
        NS_TEST_ASSERT_MSG_EQ(frames.size(), 1, "frame callback called");
        NS_TEST_ASSERT_MSG_EQ(frames[0].size(), 114, "header + payload");
        uint8_t macB[6];
        link.macB.CopyTo(macB);
        NS_TEST_EXPECT_MSG_EQ((std::vector<uint8_t>(frames[0].begin(), frames[0].begin() + 6) ==
                               std::vector<uint8_t>(macB, macB + 6)),
                              true,
                              "destination MAC first");
        NS_TEST_EXPECT_MSG_EQ(frames[0][12] * 256 + frames[0][13], 0x0800, "EtherType");

        // Sizes: Mtu 9000 payload; SendFrame allows 14 + 9000 + 4 bytes.
        NS_TEST_EXPECT_MSG_EQ(link.a->GetMtu(), 9000, "default Mtu");
        NS_TEST_EXPECT_MSG_EQ(link.a->Send(Create<Packet>(9001), link.macB, 0x0800),
                              false,
                              "payload beyond Mtu");
        NS_TEST_EXPECT_MSG_EQ(link.a->SendFrame(MakeFrame(link.macA, link.macB, 9019, 0)),
                              false,
                              "frame beyond Mtu + 18");
        NS_TEST_EXPECT_MSG_EQ(link.a->SendFrame(Create<Packet>(13)),
                              false,
                              "shorter than a header");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().drops[DROP_BAD_SIZE], 3, "BAD_SIZE");
        NS_TEST_EXPECT_MSG_EQ(link.a->SendFrame(MakeFrame(link.macA, link.macB, 9018, 0)),
                              true,
                              "a tagged jumbo frame fits");
        NS_TEST_EXPECT_MSG_EQ(link.a->Send(Create<Packet>(9000), link.macB, 0x0800),
                              true,
                              "an Mtu payload fits");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(frames.size(), 3, "both delivered");
        Simulator::Destroy();
    }
};

/**
 * The helper's PCAP files read back with ns-3's PcapFile: link type 1
 * (Ethernet), the sender's file holds each frame when its first bit left
 * (k * W), the receiver's when its last bit arrived ((k + 1) * W + D), byte
 * for byte. The ASCII file has the "+", "-", "r" and "d" lines.
 */
class TraceFilesTestCase : public TestCase
{
  public:
    TraceFilesTestCase()
        : TestCase("helper PCAP (Ethernet link type, frames as sent and received) and ASCII files")
    {
    }

  private:
    /**
     * \brief Read a pcap file and check its frames.
     * \param path the file
     * \param frames the frames expected, in order
     * \param times their expected timestamps
     */
    void CheckPcap(const std::string& path,
                   const std::vector<std::vector<uint8_t>>& frames,
                   const std::vector<Time>& times)
    {
        PcapFile in;
        in.Open(path, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(in.Fail(), false, "pcap " << path << " opens");
        NS_TEST_EXPECT_MSG_EQ(in.GetDataLinkType(), 1, "DLT_EN10MB in " << path);
        std::vector<uint8_t> buf(65536);
        for (std::size_t i = 0; i < frames.size(); ++i)
        {
            uint32_t sec = 0;
            uint32_t frac = 0;
            uint32_t incl = 0;
            uint32_t orig = 0;
            uint32_t readLen = 0;
            in.Read(buf.data(), buf.size(), sec, frac, incl, orig, readLen);
            NS_TEST_ASSERT_MSG_EQ(in.Fail(), false, path << " record " << i);
            uint64_t ns = uint64_t{sec} * 1000000000ULL +
                          (in.IsNanoSecMode() ? frac : uint64_t{frac} * 1000ULL);
            NS_TEST_EXPECT_MSG_EQ(ns, static_cast<uint64_t>(times[i].GetNanoSeconds()), path << " time " << i);
            NS_TEST_EXPECT_MSG_EQ(orig, frames[i].size(), path << " length " << i);
            NS_TEST_EXPECT_MSG_EQ(
                (std::vector<uint8_t>(buf.begin(), buf.begin() + incl) == frames[i]),
                true,
                path << " bytes " << i);
        }
        uint32_t sec = 0;
        uint32_t frac = 0;
        uint32_t incl = 0;
        uint32_t orig = 0;
        uint32_t readLen = 0;
        in.Read(buf.data(), buf.size(), sec, frac, incl, orig, readLen);
        NS_TEST_EXPECT_MSG_EQ(in.Eof(), true, path << " has no more records");
    }

    void DoRun() override
    {
        const std::string prefix = CreateTempDirFilename("rdma-qbb-link");
        const Time w = NanoSeconds(100);
        const Time d = MicroSeconds(1);
        std::vector<std::vector<uint8_t>> sent;
        std::string pcapA;
        std::string pcapB;
        std::string asciiA;
        std::string asciiB;
        {
            QbbHelper helper = MakeHelper("100Gbps", d);
            helper.SetQueueAttribute("MaxBytes", UintegerValue(3 * 1226));
            Link link(helper);
            helper.EnablePcap(prefix, link.devs);
            helper.EnableAscii(prefix, link.devs);
            auto name = [&](Ptr<NetDevice> dev, const char* ext) {
                std::ostringstream oss;
                oss << prefix << "-" << dev->GetNode()->GetId() << "-" << dev->GetIfIndex() << ext;
                return oss.str();
            };
            pcapA = name(link.a, ".pcap");
            pcapB = name(link.b, ".pcap");
            asciiA = name(link.a, ".tr");
            asciiB = name(link.b, ".tr");
            link.b->SetFrameReceiveCallback(
                QbbNetDevice::FrameReceiveCallback([](Ptr<QbbNetDevice>, Ptr<Packet>) {}));
            // 5 frames: 1 on the wire + 3 queued are sent, the 5th is dropped.
            for (uint32_t i = 0; i < 5; ++i)
            {
                Ptr<Packet> f = MakeFrame(link.macA, link.macB, 1226, i);
                if (link.a->SendFrame(f))
                {
                    sent.push_back(ToBytes(f));
                }
            }
            Simulator::Run();
            Simulator::Destroy();
        } // devices and their trace files are released here

        NS_TEST_ASSERT_MSG_EQ(sent.size(), 4, "four frames accepted");
        std::vector<Time> txTimes;
        std::vector<Time> rxTimes;
        for (int64_t k = 0; k < 4; ++k)
        {
            txTimes.push_back(w * k);
            rxTimes.push_back(w * (k + 1) + d);
        }
        CheckPcap(pcapA, sent, txTimes);
        CheckPcap(pcapB, sent, rxTimes);

        auto countLines = [](const std::string& path, char kind, const std::string& needle) {
            std::ifstream in(path);
            std::string line;
            uint32_t n = 0;
            while (std::getline(in, line))
            {
                if (!line.empty() && line[0] == kind && line.find(needle) != std::string::npos)
                {
                    ++n;
                }
            }
            return n;
        };
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiA, '+', ""), 5, "+ lines (MacTx)");
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiA, '-', ""), 4, "- lines (PhyTxBegin)");
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiA, 'd', "reason=QUEUE_FULL"), 1, "d line");
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiB, 'r', ""), 4, "r lines (MacRx)");
        for (const std::string& f : {pcapA, pcapB, asciiA, asciiB})
        {
            std::remove(f.c_str());
        }
    }
};

/// The suite.
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
        AddTestCase(new ErrorModelTestCase, TestCase::QUICK);
        AddTestCase(new BidirectionalTestCase, TestCase::QUICK);
        AddTestCase(new LinkDownTestCase, TestCase::QUICK);
        AddTestCase(new QueueLimitTestCase, TestCase::QUICK);
        AddTestCase(new StandardPathTestCase, TestCase::QUICK);
        // Last: ASCII tracing turns on packet printing for the process.
        AddTestCase(new TraceFilesTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaQbbLinkTestSuite g_rdmaQbbLinkTestSuite;

} // namespace
