/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaFrame, the frame as the fabric carries it: a compact frame is byte
// for byte the Packet RoceFrame::BuildEthernetFrame makes (so pcap, the MPI
// channel and every parser read the same frame), parses to the same fields,
// takes the switch's in-place edits (ECN CE, TTL, INT records) in its own
// bytes, and falls back to a wrapped Packet where it cannot hold the frame.

#include "rdma-test-hosts.h"

#include "ns3/boolean.h"
#include "ns3/int-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-frame-editor.h"
#include "ns3/rdma-frame-view.h"
#include "ns3/rdma-frame.h"
#include "ns3/rdma-int-codec.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-qp-memory.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <vector>

using namespace ns3;

namespace
{

/// A WRITE First of `payload` zero bytes (a verbs buffer nobody wrote).
RoceFrame
WriteFirst(uint32_t payload, bool zeros)
{
    RoceFrame f;
    f.srcMac = Mac48Address("02:00:00:00:00:01");
    f.dstMac = Mac48Address("02:00:00:00:00:02");
    f.hasVlan = true;
    f.vlan.SetPcp(3);
    f.srcIpv4 = Ipv4Address("10.0.0.1");
    f.dstIpv4 = Ipv4Address("10.0.0.2");
    f.ecn = 2; // ECT(0)
    f.ttl = 64;
    f.udpSrcPort = 0xC123;
    f.bth.SetOpcode(RC_RDMA_WRITE_FIRST);
    f.bth.SetDestQp(0x11);
    f.bth.SetPsn(0x123456);
    f.reth.SetVirtualAddress(0x1000);
    f.reth.SetRkey(7);
    f.reth.SetDmaLength(4096);
    f.payload = Create<Packet>(payload);
    f.payloadZeros = zeros;
    return f;
}

/// \return every byte of a payload (or of a Packet)
std::vector<uint8_t>
BytesOf(const RdmaPayload& p)
{
    std::vector<uint8_t> b(p.GetSize());
    NS_ABORT_UNLESS(p.CopyData(b.data(), b.size()) == b.size());
    return b;
}

/// \return every byte of a frame
std::vector<uint8_t>
BytesOf(const RdmaFrame& f)
{
    std::vector<uint8_t> b(f.GetSize());
    NS_ABORT_UNLESS(f.CopyData(b.data(), b.size()) == b.size());
    return b;
}

} // namespace

/**
 * \ingroup rdma-tests
 * \brief A compact frame holds the bytes BuildEthernetFrame makes (ICRC
 * included, IBA Annex A17.3.3), as a whole, as a prefix, as ToPacket's
 * Packet and in fragments, and parses to the same fields.
 */
class CompactFrameBytesTestCase : public TestCase
{
  public:
    CompactFrameBytesTestCase()
        : TestCase("a compact frame is BuildEthernetFrame's bytes")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t payload : {0U, 1U, 1000U, 1023U})
        {
            RoceFrame a = WriteFirst(payload, true);
            RoceFrame b = WriteFirst(payload, true);
            Ptr<Packet> packet = a.BuildEthernetFrame();
            Ptr<RdmaFrame> frame = b.BuildFrame();
            NS_TEST_ASSERT_MSG_EQ(frame->IsCompact(), true, "zero payload: compact");
            NS_TEST_ASSERT_MSG_EQ(frame->GetSize(), packet->GetSize(), "size");
            const std::vector<uint8_t> want = BytesOf(packet);
            NS_TEST_ASSERT_MSG_EQ((BytesOf(*frame) == want), true, "CopyData, whole frame");
            NS_TEST_ASSERT_MSG_EQ((BytesOf(frame->ToPacket()) == want), true, "ToPacket");
            uint8_t head[40];
            NS_TEST_ASSERT_MSG_EQ(frame->CopyData(head, sizeof(head)), 40, "prefix length");
            NS_TEST_ASSERT_MSG_EQ((std::vector<uint8_t>(head, head + 40) ==
                                   std::vector<uint8_t>(want.begin(), want.begin() + 40)),
                                  true,
                                  "prefix bytes");
            const uint32_t n = frame->GetSize();
            NS_TEST_ASSERT_MSG_EQ(frame->ReadIcrc(n), a.icrc, "the ICRC trailer");
            NS_TEST_ASSERT_MSG_EQ((BytesOf(frame->GetPayload(n - 8, 8)) ==
                                   std::vector<uint8_t>(want.end() - 8, want.end())),
                                  true,
                                  "a fragment across the zeros and the trailer");
            RoceFrame fromPacket;
            RoceFrame fromFrame;
            NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(packet, fromPacket, true),
                                  RoceFrame::OK,
                                  "the Packet parses");
            NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(*frame, fromFrame, true),
                                  RoceFrame::OK,
                                  "the compact frame parses, ICRC checked");
            NS_TEST_ASSERT_MSG_EQ(fromFrame.bth.GetPsn(), 0x123456, "PSN");
            NS_TEST_ASSERT_MSG_EQ(fromFrame.reth.GetRkey(), 7, "RETH");
            NS_TEST_ASSERT_MSG_EQ(fromFrame.icrc, fromPacket.icrc, "ICRC");
            NS_TEST_ASSERT_MSG_EQ(fromFrame.payload->GetSize(),
                                  fromPacket.payload->GetSize(),
                                  "payload length without pad");
            NS_TEST_ASSERT_MSG_EQ((BytesOf(fromFrame.payload) == BytesOf(fromPacket.payload)),
                                  true,
                                  "payload bytes (zeros)");
        }
    }
};

/**
 * \ingroup rdma-tests
 * \brief Frames a compact record cannot hold stay Packets: real payload
 * bytes, and frames from Packets (Wrap shares the Packet).
 */
class WrappedFrameTestCase : public TestCase
{
  public:
    WrappedFrameTestCase()
        : TestCase("real payload bytes and Packets are wrapped, not copied")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrame f = WriteFirst(0, false);
        std::vector<uint8_t> data(512, 0xAB);
        f.payload = Create<Packet>(data.data(), data.size());
        Ptr<RdmaFrame> frame = f.BuildFrame();
        NS_TEST_ASSERT_MSG_EQ(frame->IsCompact(), false, "real bytes: wrapped");
        RoceFrame back;
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(*frame, back, true),
                              RoceFrame::OK,
                              "parses");
        NS_TEST_ASSERT_MSG_EQ((BytesOf(back.payload) == data), true, "payload bytes");
        Ptr<Packet> p = Create<Packet>(64);
        Ptr<RdmaFrame> w = RdmaFrame::Wrap(p);
        NS_TEST_ASSERT_MSG_EQ(PeekPointer(w->ToPacket()), PeekPointer(p), "the same Packet");
    }
};

/**
 * \ingroup rdma-tests
 * \brief The switch's edits land in a compact frame's own bytes, exactly
 * as in the Packet: ECN CE with the IPv4 checksum (RFC 3168, RFC 791),
 * the TTL (RFC 1624 incremental checksum) and an INT record.
 */
class CompactFrameEditTestCase : public TestCase
{
  public:
    CompactFrameEditTestCase()
        : TestCase("switch edits of a compact frame equal those of the Packet")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrame a = WriteFirst(1000, true);
        RoceFrame b = WriteFirst(1000, true);
        IntHeader ih;
        Ptr<Packet> packet = a.BuildEthernetFrame(ih, IntHeader::UDP_PORT);
        Ptr<RdmaFrame> frame = b.BuildFrame(ih, IntHeader::UDP_PORT);
        NS_TEST_ASSERT_MSG_EQ(frame->IsCompact(), true, "INT frame: compact");
        Ptr<RdmaFrame> asPacket = RdmaFrame::Wrap(packet);
        RdmaFrameView view;
        NS_TEST_ASSERT_MSG_EQ(view.Parse(*frame), true, "view");
        for (RdmaFrame* f : {PeekPointer(frame), PeekPointer(asPacket)})
        {
            RdmaFrameEditor::DecrementTtl(*f, view);
            RdmaFrameEditor::MarkCe(*f, view);
            NS_TEST_ASSERT_MSG_EQ(RdmaFrameEditor::StampInt(*f, view, 0x0102030405060708ULL),
                                  true,
                                  "stamped");
        }
        NS_TEST_ASSERT_MSG_EQ(frame->IsCompact(), true, "edited in place");
        NS_TEST_ASSERT_MSG_EQ((BytesOf(*frame) == BytesOf(*asPacket)), true, "same bytes");
        RdmaFrameView after;
        NS_TEST_ASSERT_MSG_EQ(after.Parse(*frame), true, "view after");
        NS_TEST_ASSERT_MSG_EQ(after.GetTtl(), 63, "TTL decremented");
        NS_TEST_ASSERT_MSG_EQ(+after.GetEcn(), +RdmaFrameView::ECN_CE, "CE");
        RoceFrame parsed;
        IntHeader got;
        bool hasInt = false;
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrameWithInt(*frame, parsed, got, hasInt),
                              RoceFrame::OK,
                              "parses with INT");
        NS_TEST_ASSERT_MSG_EQ(hasInt, true, "INT header found");
        NS_TEST_ASSERT_MSG_EQ(got.GetNHops(), 1, "one record");
        // Rewriting past the head turns the frame into a Packet, same bytes.
        std::vector<uint8_t> all = BytesOf(*frame);
        all[all.size() - 5] = 0; // a payload byte: unchanged value
        frame->RewriteHead(all.data(), all.size() - 4);
        NS_TEST_ASSERT_MSG_EQ(frame->IsCompact(), false, "past the head: a Packet");
        NS_TEST_ASSERT_MSG_EQ((BytesOf(*frame) == BytesOf(*asPacket)), true, "bytes kept");
        // The stamping egress rides beside the record, in its slot, not in the bytes.
        const uint64_t egress = (8ULL << 32) | 3;
        std::vector<uint8_t> before = BytesOf(*frame);
        NS_TEST_ASSERT_MSG_EQ(RdmaFrameEditor::StampInt(*frame,
                                                        view.GetL4Offset() + 8,
                                                        0x0102030405060708ULL,
                                                        egress),
                              true,
                              "second record stamped");
        NS_TEST_ASSERT_MSG_EQ(frame->GetIntEgress()[0],
                              uint64_t{0},
                              "slot 0: stamped without an ID");
        NS_TEST_ASSERT_MSG_EQ(frame->GetIntEgress()[1], egress, "slot 1: its egress");
        NS_TEST_ASSERT_MSG_EQ(static_cast<std::size_t>(frame->GetSize()),
                              before.size(),
                              "the ID adds no byte");
    }
};

/**
 * \ingroup rdma-tests
 * \brief A compact record is as long as the head it holds: the 24-byte
 * fixed part, the head's bytes rounded up to 8, and the INT slots' egress
 * IDs (5 x 8 bytes) only in a frame with an INT header; records of one
 * size are reused.
 */
class FrameRecordSizeTestCase : public TestCase
{
  public:
    FrameRecordSizeTestCase()
        : TestCase("a compact record holds its head's bytes, not a fixed maximum")
    {
    }

  private:
    void DoRun() override
    {
        // WRITE First: Ethernet 14 + 802.1Q 4 + IPv4 20 + UDP 8 + BTH 12 + RETH 16.
        RoceFrame data = WriteFirst(1024, true);
        Ptr<RdmaFrame> frame = data.BuildFrame();
        NS_TEST_ASSERT_MSG_EQ(frame->GetHeadLength(), 74, "a data frame's head");
        NS_TEST_ASSERT_MSG_EQ(frame->GetSize(), 74 + 1024 + 4, "the frame");
        NS_TEST_ASSERT_MSG_EQ(frame->GetRecordBytes(), 16 + 80, "its record");
        // ACKNOWLEDGE: the same to the BTH, then an AETH (4).
        RoceFrame ack = WriteFirst(0, true);
        ack.bth.SetOpcode(RC_ACKNOWLEDGE);
        ack.payload = nullptr;
        Ptr<RdmaFrame> ackFrame = ack.BuildFrame();
        NS_TEST_ASSERT_MSG_EQ(ackFrame->IsCompact(), true, "an ACK is compact");
        NS_TEST_ASSERT_MSG_EQ(ackFrame->GetHeadLength(), 62, "an ACK's head");
        NS_TEST_ASSERT_MSG_EQ(ackFrame->GetRecordBytes(), 16 + 64, "an ACK's record");
        // With an INT header (42 bytes) the record keeps its slots' egress IDs.
        RoceFrame withInt = WriteFirst(1024, true);
        Ptr<RdmaFrame> intFrame = withInt.BuildFrame(IntHeader(), IntHeader::UDP_PORT);
        NS_TEST_ASSERT_MSG_EQ(intFrame->GetHeadLength(), 74 + IntHeader::SIZE, "head with INT");
        NS_TEST_ASSERT_MSG_EQ(intFrame->GetRecordBytes(),
                              16 + 120 + 8 * IntHeader::MAX_HOPS,
                              "record with INT slots");
        intFrame->GetIntEgress()[4] = 77;
        NS_TEST_ASSERT_MSG_EQ(intFrame->GetIntEgress()[4], 77, "slot 4 kept");
        NS_TEST_ASSERT_MSG_EQ(
            (BytesOf(*intFrame) ==
             BytesOf(withInt.BuildEthernetFrame(IntHeader(), IntHeader::UDP_PORT))),
            true,
            "the slots are beside the bytes");
        // A record given back is the next one of its size, and starts clean.
        const RdmaFrame* before = PeekPointer(intFrame);
        intFrame = nullptr;
        RoceFrame again = WriteFirst(1024, true);
        Ptr<RdmaFrame> reused = again.BuildFrame(IntHeader(), IntHeader::UDP_PORT);
        NS_TEST_ASSERT_MSG_EQ(reused->GetIntEgress()[4], 0, "a reused record's slots are cleared");
        NS_TEST_ASSERT_MSG_EQ(reused->GetCongaOverlay().srcLeaf,
                              RdmaCongaOverlay::NO_LEAF,
                              "no overlay until CONGA sets one");
        reused->GetCongaOverlay().ce = 5;
        NS_TEST_ASSERT_MSG_EQ(+reused->GetCongaOverlay().ce, 5, "the overlay kept beside it");
        if (before == PeekPointer(reused))
        {
            // Pooled (not under ASan): the overlay goes with the frame.
            reused = nullptr;
            RoceFrame third = WriteFirst(1024, true);
            Ptr<RdmaFrame> next = third.BuildFrame(IntHeader(), IntHeader::UDP_PORT);
            NS_TEST_ASSERT_MSG_EQ(+next->GetCongaOverlay().ce, 0, "an overlay per frame");
        }
    }
};

/**
 * \ingroup rdma-tests
 * \brief A payload of zeros is a length, not a Packet: what a gather from
 * memory not in data mode gives, what a compact frame parses to, and what
 * a WRITE and a READ between two NICs carry end to end (no ns-3 Packet is
 * constructed: Packet UIDs, which every new Packet takes from one counter,
 * do not advance).
 */
class ZeroPayloadWithoutPacketTestCase : public TestCase
{
  public:
    ZeroPayloadWithoutPacketTestCase()
        : TestCase("a zero payload is its length: no Packet at the QP, the NIC or the wire")
    {
    }

  private:
    /// \return the UID the next Packet gets
    static uint64_t NextPacketUid()
    {
        return Create<Packet>()->GetUid() + 1;
    }

    void DoRun() override
    {
        using rdmatest::TwoHosts;
        TwoHosts::Options o;
        o.dataMode = false; // buffers nobody wrote
        TwoHosts h(o);
        NS_TEST_ASSERT_MSG_EQ(h.connectResult, 0, "connected");

        // The QP's gather of 1000 bytes: a length.
        bool zeros = false;
        const uint64_t gatherUid = NextPacketUid();
        RdmaPayload gathered =
            h.qpA->GetMemory().Gather({{TwoHosts::VA_A, 4096, h.mrA->GetLkey()}}, 100, 1000, zeros);
        NS_TEST_ASSERT_MSG_EQ(NextPacketUid(), gatherUid + 1, "the gather made no Packet");
        NS_TEST_ASSERT_MSG_EQ(zeros, true, "zeros");
        NS_TEST_ASSERT_MSG_EQ(gathered.IsZeros(), true, "a run of zeros");
        NS_TEST_ASSERT_MSG_EQ(gathered.GetSize(), 1000, "its length");
        NS_TEST_ASSERT_MSG_EQ(bool(gathered.GetPacket()), false, "no Packet");

        // A compact frame parses to a payload of the same length, no Packet.
        RoceFrame f = WriteFirst(0, false);
        f.payload = gathered;
        Ptr<RdmaFrame> frame = f.BuildFrame();
        NS_TEST_ASSERT_MSG_EQ(frame->IsCompact(), true, "compact");
        RoceFrame parsed;
        const uint64_t parseUid = NextPacketUid();
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(*frame, parsed, false),
                              RoceFrame::OK,
                              "parses");
        NS_TEST_ASSERT_MSG_EQ(NextPacketUid(), parseUid + 1, "the parse made no Packet");
        NS_TEST_ASSERT_MSG_EQ(parsed.payload.IsZeros(), true, "parsed: a run of zeros");
        NS_TEST_ASSERT_MSG_EQ(parsed.payload.GetSize(), 1000, "parsed: without the pad");
        NS_TEST_ASSERT_MSG_EQ((BytesOf(parsed.payload) == std::vector<uint8_t>(1000, 0)),
                              true,
                              "its bytes read as zeros");

        // A 64 kB WRITE and a 64 kB READ, end to end.
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 65536);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        RdmaSendWr r = h.Wr(IBV_WR_RDMA_READ, 2, TwoHosts::VA_A + 65536, 65536);
        r.remoteAddr = TwoHosts::VA_B + 65536;
        h.qpA->PostSend(r);
        const uint64_t runUid = NextPacketUid();
        Simulator::Run();
        const uint64_t made = NextPacketUid() - runUid - 1;
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 2, "both completed");
        NS_TEST_ASSERT_MSG_EQ(made, 0, "Packets made for 64 kB written and 64 kB read");
    }
};

/**
 * \ingroup rdma-tests
 * \brief A payload of zeros carried as its length still writes zeros where
 * the receiver's memory keeps bytes: a SEND (scattered) and a WRITE from a
 * host whose memory is not in data mode to one whose memory is.
 */
class ZeroPayloadIntoDataModeTestCase : public TestCase
{
  public:
    ZeroPayloadIntoDataModeTestCase()
        : TestCase("a zero payload writes zeros into memory that keeps bytes")
    {
    }

  private:
    void DoRun() override
    {
        using rdmatest::TwoHosts;
        TwoHosts::Options o;
        o.dataMode = false;
        o.setupB = [](Ptr<RdmaNic> nic) { nic->SetAttribute("DataMode", BooleanValue(true)); };
        TwoHosts h(o);
        NS_TEST_ASSERT_MSG_EQ(h.connectResult, 0, "connected");
        const uint64_t B = TwoHosts::VA_B;
        TwoHosts::Fill(h.mrB, B, 0x4000, 5);
        h.qpB->PostRecv(h.Recv(100, B, 3000));
        h.qpA->PostSend(h.Wr(IBV_WR_SEND, 1, TwoHosts::VA_A, 3000));
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 2, TwoHosts::VA_A, 5000);
        w.remoteAddr = B + 0x2000;
        h.qpA->PostSend(w);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 2, "both completed");
        std::vector<uint8_t> got(0x4000);
        h.mrB->Read(B, got.data(), got.size());
        const auto zeros = [&got](uint64_t from, uint64_t to) {
            return std::all_of(got.begin() + from, got.begin() + to, [](uint8_t b) {
                return b == 0;
            });
        };
        NS_TEST_EXPECT_MSG_EQ(zeros(0, 3000), true, "the SEND's 3000 bytes are zeros");
        NS_TEST_EXPECT_MSG_EQ(zeros(0x2000, 0x2000 + 5000), true, "the WRITE's 5000 are zeros");
        NS_TEST_EXPECT_MSG_EQ(zeros(3000, 0x2000), false, "the bytes between are kept");
    }
};

/**
 * \ingroup rdma-tests
 * \brief The suite.
 */
class RdmaFrameTestSuite : public TestSuite
{
  public:
    RdmaFrameTestSuite()
        : TestSuite("rdma-frame", UNIT)
    {
        AddTestCase(new CompactFrameBytesTestCase, TestCase::QUICK);
        AddTestCase(new WrappedFrameTestCase, TestCase::QUICK);
        AddTestCase(new CompactFrameEditTestCase, TestCase::QUICK);
        AddTestCase(new FrameRecordSizeTestCase, TestCase::QUICK);
        AddTestCase(new ZeroPayloadWithoutPacketTestCase, TestCase::QUICK);
        AddTestCase(new ZeroPayloadIntoDataModeTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static RdmaFrameTestSuite g_rdmaFrameTestSuite;
