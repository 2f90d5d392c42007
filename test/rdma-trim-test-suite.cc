/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Packet trimming (QbbTrimmer): a frame the switch would drop is cut to its
 * headers, stays a valid RoCEv2 frame, and its receiver NAKs its PSN at once
 * (AethHeader::NAK_TRIMMED), so that its sender resends exactly it (NDP,
 * SIGCOMM 2017 section 3.1; UEC 1.0 packet trimming).
 */

#include "rdma-test-star.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/pointer.h"
#include "ns3/qbb-egress-queue.h"
#include "ns3/qbb-trimmer.h"
#include "ns3/rdma-frame-editor.h"
#include "ns3/rdma-frame-view.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-switch.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace ns3;
using rdmatest::Star;

namespace
{

/// \return a WRITE packet of 1024 payload bytes \param opcode its opcode \param vlan tagged
RoceFrame
Write(uint8_t opcode, bool vlan)
{
    RoceFrame f;
    f.srcMac = Mac48Address("02:00:00:00:00:01");
    f.dstMac = Mac48Address("02:00:00:00:00:02");
    f.hasVlan = vlan;
    f.vlan.SetPcp(3);
    f.srcIpv4 = Ipv4Address("10.0.0.1");
    f.dstIpv4 = Ipv4Address("10.0.0.2");
    f.dscp = 26;
    f.ecn = 2;
    f.udpSrcPort = 0xC123;
    f.bth.SetOpcode(opcode);
    f.bth.SetDestQp(0x11);
    f.bth.SetPsn(0xFFFFFE);
    f.reth.SetVirtualAddress(0x1000);
    f.reth.SetRkey(7);
    f.reth.SetDmaLength(4096);
    f.payload = RdmaPayload::Zeros(1024);
    return f;
}

/**
 * A trimmed frame is the same RoCEv2 packet without its payload: its
 * headers (a RETH where the opcode has one), a valid ICRC, the IP and UDP
 * lengths of what is left, the trimmer's DSCP and, tagged, its class as
 * the 802.1Q priority. A frame with no payload is not trimmed.
 */
class TrimFrameTestCase : public TestCase
{
  public:
    TrimFrameTestCase()
        : TestCase("trim: headers kept (58 bytes for a WRITE middle, 74 with a RETH, 62 tagged), "
                   "ICRC valid, DSCP 63, PSN kept; an ACK is not trimmed")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QbbTrimmer> trimmer = CreateObject<QbbTrimmer>();
        trimmer->SetAttribute("Classes", UintegerValue(1 << 3));
        NS_TEST_ASSERT_MSG_EQ(trimmer->Trims(3), true, "class 3 trimmed");
        NS_TEST_ASSERT_MSG_EQ(trimmer->Trims(7), false, "class 7 not");

        // Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 (+ RETH 16) + ICRC 4.
        const struct
        {
            uint8_t opcode;
            bool vlan;
            uint32_t bytes;
        } cases[] = {{RC_RDMA_WRITE_MIDDLE, false, 58},
                     {RC_RDMA_WRITE_FIRST, false, 74},
                     {RC_RDMA_WRITE_MIDDLE, true, 62}};

        for (const auto& c : cases)
        {
            RoceFrame w = Write(c.opcode, c.vlan);
            Ptr<RdmaFrame> whole = w.BuildFrame();
            Ptr<RdmaFrame> trimmed = trimmer->Trim(*whole);
            NS_TEST_ASSERT_MSG_NE(trimmed, nullptr, "trimmed");
            NS_TEST_EXPECT_MSG_EQ(trimmed->GetSize(), c.bytes, "headers and ICRC only");
            RoceFrame back;
            NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(*trimmed, back, true),
                                  RoceFrame::OK,
                                  "a valid RoCEv2 frame, its ICRC recomputed");
            NS_TEST_EXPECT_MSG_EQ(back.dscp, 63, "marked by its DSCP");
            NS_TEST_EXPECT_MSG_EQ(back.ecn, 2, "ECN kept");
            NS_TEST_EXPECT_MSG_EQ(back.bth.GetPsn(), 0xFFFFFE, "PSN kept");
            NS_TEST_EXPECT_MSG_EQ(back.bth.GetOpcode(), c.opcode, "opcode kept");
            NS_TEST_EXPECT_MSG_EQ((back.payload ? back.payload->GetSize() : 0), 0, "no payload");
            if (c.vlan)
            {
                NS_TEST_EXPECT_MSG_EQ(+back.vlan.GetPcp(), 7, "priority: TrimClass");
            }
            if (c.opcode == RC_RDMA_WRITE_FIRST)
            {
                NS_TEST_EXPECT_MSG_EQ(back.reth.GetDmaLength(), 4096, "RETH kept");
            }
            NS_TEST_EXPECT_MSG_EQ(trimmer->Trim(*trimmed), nullptr, "nothing left to cut");
        }
        RoceFrame ack = Write(RC_ACKNOWLEDGE, false);
        ack.payload = RdmaPayload();
        NS_TEST_EXPECT_MSG_EQ(trimmer->Trim(*ack.BuildFrame()), nullptr, "an ACK is not trimmed");
    }
};

/**
 * A compact frame is trimmed by rewriting its head's bytes; a wrapped one
 * (a Packet) by parsing it and building it again without its payload. The
 * two must give the same bytes, for every header layout a fabric carries
 * and after a switch's in-flight edits (CE mark, TTL).
 */
class TrimCompactTestCase : public TestCase
{
  public:
    TrimCompactTestCase()
        : TestCase("trim: a compact frame's head rewritten in place gives, byte for byte, the "
                   "frame parsed and built again (IPv4 and IPv6, tagged or not, RETH, ImmDt, "
                   "AETH, every pad, CE-marked, TTL decremented)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QbbTrimmer> trimmer = CreateObject<QbbTrimmer>();
        trimmer->SetAttribute("Classes", UintegerValue(0xFF));
        trimmer->SetAttribute("Dscp", UintegerValue(46));
        trimmer->SetAttribute("TrimClass", UintegerValue(6));
        uint32_t compared = 0;
        for (bool ipv6 : {false, true})
        {
            for (bool vlan : {false, true})
            {
                for (uint8_t opcode : {RC_RDMA_WRITE_MIDDLE,
                                       RC_RDMA_WRITE_FIRST,
                                       RC_SEND_LAST_WITH_IMMEDIATE,
                                       RC_RDMA_READ_RESPONSE_LAST})
                {
                    for (uint32_t payload : {1U, 2U, 3U, 1024U})
                    {
                        for (bool edited : {false, true})
                        {
                            RoceFrame w = Write(opcode, vlan);
                            w.ipv6 = ipv6;
                            w.srcIpv6 = Ipv6Address("fd00::1");
                            w.dstIpv6 = Ipv6Address("fd00::2");
                            w.flowLabel = 0xABCDE;
                            w.ttl = 17;
                            w.ipId = 0x4321;
                            w.immDt.SetImmediateData(0x01020304);
                            w.aeth.SetMsn(9);
                            w.payload = RdmaPayload::Zeros(payload);
                            Ptr<RdmaFrame> compact = w.BuildFrame();
                            NS_TEST_ASSERT_MSG_EQ(compact->IsCompact(), true, "compact");
                            Ptr<RdmaFrame> wrapped = RdmaFrame::Wrap(w.BuildEthernetFrame());
                            if (edited)
                            {
                                for (Ptr<RdmaFrame> f : {compact, wrapped})
                                {
                                    RdmaFrameView view;
                                    view.Parse(*f);
                                    RdmaFrameEditor::MarkCe(*f, view);
                                    view.Parse(*f); // the view's bytes are a copy
                                    RdmaFrameEditor::DecrementTtl(*f, view);
                                }
                            }
                            Ptr<RdmaFrame> a = trimmer->Trim(*compact);
                            Ptr<RdmaFrame> b = trimmer->Trim(*wrapped);
                            NS_TEST_ASSERT_MSG_NE(a, nullptr, "trimmed");
                            NS_TEST_ASSERT_MSG_NE(b, nullptr, "trimmed");
                            NS_TEST_ASSERT_MSG_EQ(a->GetSize(), b->GetSize(), "size");
                            std::vector<uint8_t> ab(a->GetSize());
                            std::vector<uint8_t> bb(b->GetSize());
                            a->CopyData(ab.data(), ab.size());
                            b->CopyData(bb.data(), bb.size());
                            for (std::size_t i = 0; i < ab.size(); ++i)
                            {
                                NS_TEST_ASSERT_MSG_EQ(+ab[i],
                                                      +bb[i],
                                                      "byte " << i << ", ipv6 " << ipv6 << ", vlan "
                                                              << vlan << ", opcode " << +opcode
                                                              << ", payload " << payload
                                                              << ", edited " << edited);
                            }
                            RoceFrame back;
                            NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(*a, back, true),
                                                  RoceFrame::OK,
                                                  "valid, ICRC checked");
                            NS_TEST_EXPECT_MSG_EQ(+back.dscp, 46, "Dscp");
                            NS_TEST_EXPECT_MSG_EQ(+back.ecn, (edited ? 3 : 2), "ECN kept");
                            NS_TEST_EXPECT_MSG_EQ(+back.ttl, (edited ? 16 : 17), "TTL kept");
                            NS_TEST_EXPECT_MSG_EQ(trimmer->Trim(*a), nullptr, "nothing to cut");
                            ++compared;
                        }
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(compared, 128u, "every layout");
    }
};

/**
 * Which frame a full queue cuts (QueuedVictimProbability): the arriving one
 * (0, the default), or the newest queued frame of its class (1; htsim's
 * CompositeQueue does so with probability 0.5), the arriving frame taking
 * its place. A queue of three frames gets a fourth; strict priority sends
 * the trimmed headers first.
 */
class TrimVictimTestCase : public TestCase
{
  public:
    TrimVictimTestCase()
        : TestCase("trim: a full queue cuts the arriving frame, or with QueuedVictimProbability "
                   "its newest queued one; at 0.5 about half the time")
    {
    }

  private:
    /// \return PSNs in the order they leave, trimmed ones negative, after
    /// four arrivals at a queue of three \param p the probability
    static std::vector<int> Order(double p)
    {
        Ptr<QbbTrimmer> trimmer = CreateObject<QbbTrimmer>();
        trimmer->SetAttribute("Classes", UintegerValue(1 << 3));
        trimmer->SetAttribute("QueuedVictimProbability", DoubleValue(p));
        Ptr<QbbEgressQueue> q = CreateObject<QbbEgressQueue>();
        const uint32_t bytes = Write(RC_RDMA_WRITE_MIDDLE, false).BuildFrame()->GetSize();
        q->SetAttribute("MaxBytes", UintegerValue(3 * bytes));
        q->SetTrimmer(trimmer);
        for (uint32_t psn = 1; psn <= 4; ++psn)
        {
            RoceFrame w = Write(RC_RDMA_WRITE_MIDDLE, false);
            w.bth.SetPsn(psn);
            QbbQueueItem item;
            item.frame = w.BuildFrame();
            item.cls = 3;
            q->Enqueue(std::move(item));
        }
        std::vector<int> order;
        QbbQueueItem out;
        while (q->Dequeue(0, out))
        {
            RoceFrame f;
            RoceFrame::ParseEthernetFrame(*out.frame, f, false);
            const int psn = static_cast<int>(f.bth.GetPsn());
            order.push_back(f.payload && f.payload->GetSize() > 0 ? psn : -psn);
        }
        return order;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ((Order(0) == std::vector<int>{-4, 1, 2, 3}),
                              true,
                              "the arriving PSN 4 is cut");
        NS_TEST_EXPECT_MSG_EQ((Order(1) == std::vector<int>{-3, 1, 2, 4}),
                              true,
                              "the newest queued PSN 3 is cut, PSN 4 queued in its place");
        // At 0.5: 200 arrivals at a full queue, each cutting one frame.
        Ptr<QbbTrimmer> trimmer = CreateObject<QbbTrimmer>();
        trimmer->SetAttribute("Classes", UintegerValue(1 << 3));
        trimmer->SetAttribute("QueuedVictimProbability", DoubleValue(0.5));
        NS_TEST_ASSERT_MSG_EQ(trimmer->AssignStreams(7), 1, "one stream for the draws");
        uint32_t queued = 0;
        for (int i = 0; i < 200; ++i)
        {
            queued += trimmer->CutQueued() ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_GT(queued, 70, "about half cut a queued frame");
        NS_TEST_EXPECT_MSG_LT(queued, 130, "about half the arriving one");
        trimmer->SetAttribute("QueuedVictimProbability", DoubleValue(0));
        NS_TEST_EXPECT_MSG_EQ(trimmer->AssignStreams(7), 0, "no stream without draws");
    }
};

/**
 * Two senders WRITE 64 KiB messages to one receiver through a switch whose
 * 64 KiB buffer cannot hold both at line rate, PFC off, no congestion
 * control, class 3 trimmed. No frame is dropped and no timeout fires; with
 * selective repeat every PSN is sent once plus once per time it was
 * trimmed (exactly the trimmed PSNs are resent, nothing twice), with
 * go-back-N the trimmed ones are among those resent; every WRITE completes.
 * The 64 KiB are the shared buffer's, or the receiver port queue's MaxBytes
 * (the trimmed headers then need their own budget beside the full queue:
 * before they had it, every one of them was dropped).
 */
class TrimIncastTestCase : public TestCase
{
  public:
    TrimIncastTestCase(bool selective, bool queueLimit)
        : TestCase(std::string("trim: 2-to-1 incast, 64 KiB ") +
                   (queueLimit ? "port queue (MaxBytes)" : "shared buffer") + ", PFC off, " +
                   (selective ? "selective repeat: exactly the trimmed PSNs resent, each once "
                                "per trim"
                              : "go-back-N: the trimmed PSNs among those resent") +
                   "; no drop, no timeout, every WRITE completes"),
          m_selective(selective),
          m_queueLimit(queueLimit)
    {
    }

  private:
    void DoRun() override
    {
        Star::Options o;
        o.hosts = 3;
        o.connection.timeout = 14; // 67 ms: a timeout would show in the counters
        o.connection.pathMtu = IBV_MTU_1024;
        o.configure = [this](Ptr<RdmaSwitch> sw) {
            if (!m_queueLimit)
            {
                sw->GetMmu()->SetAttribute("BufferSize", UintegerValue(64 * 1024));
            }
            sw->GetMmu()->SetAttribute("PfcEnabled", BooleanValue(false));
            sw->GetTrimmer()->SetAttribute("Classes", UintegerValue(1 << 3));
        };
        Star star(o);
        const uint32_t rx = 2;
        if (m_queueLimit)
        {
            // 60 WRITE-middle frames (1,082 bytes): a full queue has no room
            // left for a header.
            star.switchPorts[rx]->GetTxQueue()->SetAttribute("MaxBytes",
                                                              UintegerValue(60 * 1082));
        }
        for (const Ptr<RdmaNic>& nic : star.nics)
        {
            nic->SetAttribute("TrimmedDscp", IntegerValue(63));
            if (m_selective)
            {
                nic->SetQpAttribute("LossRecovery",
                                    PointerValue(CreateObject<RdmaSelectiveRepeat>()));
            }
        }
        const uint32_t writes = 8;
        std::vector<Ptr<RdmaQueuePair>> qps;
        for (uint32_t s = 0; s < 2; ++s)
        {
            qps.push_back(star.Connect(s, rx));
            for (uint32_t w = 0; w < writes; ++w)
            {
                NS_TEST_ASSERT_MSG_EQ(star.PostWrite(qps.back(), s, rx, w, 64 * 1024), 0, "post");
            }
        }
        // (sender, PSN) -> times trimmed at the receiver's port; times sent.
        using Key = std::pair<uint32_t, uint32_t>;
        std::map<Key, uint32_t> trimmed;
        std::map<Key, uint32_t> sent;
        const auto key = [](Ptr<const Packet> p, Key& k) {
            RoceFrame f;
            if (RoceFrame::ParseEthernetFrame(p, f, false) != RoceFrame::OK ||
                f.bth.GetOpcode() == RC_ACKNOWLEDGE)
            {
                return false;
            }
            k = {f.srcIpv4.Get(), f.bth.GetPsn()};
            return true;
        };
        star.switchPorts[rx]->GetTxQueue()->TraceConnectWithoutContext(
            "Trim",
            Callback<void, Ptr<const Packet>, uint8_t>([&](Ptr<const Packet> p, uint8_t cls) {
                Key k;
                NS_TEST_EXPECT_MSG_EQ(+cls, 3, "trimmed from the data class");
                if (key(p, k))
                {
                    ++trimmed[k];
                }
            }));
        for (uint32_t s = 0; s < 2; ++s)
        {
            star.hostPorts[s]->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                    Key k;
                    if (key(p, k))
                    {
                        ++sent[k];
                    }
                }));
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        const RdmaSwitch::Stats st = star.sw->GetStats();
        NS_TEST_ASSERT_MSG_GT(st.trimmed, 20, "the incast trims");
        NS_TEST_EXPECT_MSG_EQ(
            st.trimmed,
            [&] {
                uint64_t n = 0;
                for (const auto& [k, t] : trimmed)
                {
                    n += t;
                }
                return n;
            }(),
            "each trim traced once");
        NS_TEST_EXPECT_MSG_EQ(st.drops.Total(), 0, "nothing dropped");
        NS_TEST_EXPECT_MSG_EQ(star.Count(0, IBV_WC_SUCCESS), writes, "sender 0's WRITEs complete");
        NS_TEST_EXPECT_MSG_EQ(star.Count(1, IBV_WC_SUCCESS), writes, "sender 1's WRITEs complete");
        uint64_t naks = 0;
        for (uint32_t s = 0; s < 2; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(qps[s]->GetStats().timeouts, 0, "no timeout");
            naks += qps[s]->GetStats().nakTrimReceived;
        }
        NS_TEST_EXPECT_MSG_GT(naks, 0, "trimmed-packet NAKs reached the senders");
        for (const auto& [k, times] : sent)
        {
            const auto t = trimmed.find(k);
            const uint32_t trims = t == trimmed.end() ? 0 : t->second;
            if (m_selective)
            {
                NS_TEST_EXPECT_MSG_EQ(times,
                                      1 + trims,
                                      "PSN " << k.second << ": once, and again per trim");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(times,
                                      trims,
                                      "PSN " << k.second << ": resent after each trim");
            }
        }
        Simulator::Destroy();
    }

    bool m_selective;  //!< selective repeat (else go-back-N)
    bool m_queueLimit; //!< the port queue's MaxBytes binds (else the shared buffer)
};

/// The suite.
class RdmaTrimTestSuite : public TestSuite
{
  public:
    RdmaTrimTestSuite()
        : TestSuite("rdma-trim", UNIT)
    {
        AddTestCase(new TrimFrameTestCase(), TestCase::QUICK);
        AddTestCase(new TrimCompactTestCase(), TestCase::QUICK);
        AddTestCase(new TrimVictimTestCase(), TestCase::QUICK);
        AddTestCase(new TrimIncastTestCase(true, false), TestCase::QUICK);
        AddTestCase(new TrimIncastTestCase(false, false), TestCase::QUICK);
        AddTestCase(new TrimIncastTestCase(true, true), TestCase::QUICK);
    }
};

RdmaTrimTestSuite g_rdmaTrimTestSuite; //!< static instance

} // namespace
