/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Faults of the module's point-to-point link (QbbNetDevice, QbbChannel):
 * real corruption by the receive error model, and a link that fails and
 * comes back.
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
        QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
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
            QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
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
        QbbHelper helper = MakeLinkHelper("100Gbps", d);
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

/// The rdma-qbb-link-faults suite.
class RdmaQbbLinkFaultsTestSuite : public TestSuite
{
  public:
    RdmaQbbLinkFaultsTestSuite()
        : TestSuite("rdma-qbb-link-faults", UNIT)
    {
        AddTestCase(new ErrorModelTestCase, TestCase::QUICK);
        AddTestCase(new LinkDownTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaQbbLinkFaultsTestSuite g_rdmaQbbLinkFaultsTestSuite;

} // namespace
