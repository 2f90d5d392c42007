/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Bad frames are detected and reported, never read past: corrupted bytes
 * (caught by the ICRC unless they lie in a field the ICRC masks), every
 * truncation, unknown opcodes and bad pad counts.
 */

#include "rdma-test-data.h"

#include "ns3/ethernet-header.h"
#include "ns3/rdma-module.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

std::vector<RoceVector>
LoadVectors(std::string& error)
{
    return ReadRoceVectors(DataPath("roce-vectors.txt"), error);
}

RoceFrame::ParseStatus
Parse(const std::vector<uint8_t>& bytes, RoceFrame& f)
{
    return RoceFrame::ParseEthernetFrame(ToPacket(bytes), f);
}

/**
 * Offsets (within the frame) of the bytes the ICRC does not cover or masks
 * (IBA A17.3.3): Ethernet and 802.1Q headers, IPv4 TOS/TTL/checksum (IPv6
 * traffic class, flow label, hop limit), UDP checksum, BTH byte 4.
 */
bool
IsIcrcInvariantExempt(uint32_t offset, uint32_t l2, bool ipv6)
{
    if (offset < l2)
    {
        return true;
    }
    uint32_t o = offset - l2;
    uint32_t udp = ipv6 ? 40 : 20;
    if (ipv6)
    {
        if (o <= 3 || o == 7)
        {
            return true; // o == 0 only for its low nibble; handled by the caller
        }
    }
    else if (o == 1 || o == 8 || o == 10 || o == 11)
    {
        return true;
    }
    return o == udp + 6 || o == udp + 7 || o == udp + 8 + 4;
}

/**
 * Every single-bit flip of every vector is reported as a non-OK status,
 * except flips in the masked fields and the L2 header, which must leave the
 * packet valid.
 */
class CorruptionTestCase : public TestCase
{
  public:
    CorruptionTestCase()
        : TestCase("every bit flip is detected unless the ICRC masks it")
    {
    }

  private:
    void DoRun() override
    {
        std::string error;
        std::vector<RoceVector> vectors = LoadVectors(error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "reading the vectors");
        uint32_t detected = 0;
        uint32_t badIcrc = 0;
        for (const RoceVector& v : vectors)
        {
            RoceFrame ok;
            NS_TEST_ASSERT_MSG_EQ(Parse(v.bytes, ok), RoceFrame::OK, v.name);
            uint32_t l2 = ok.hasVlan ? 18 : 14;
            for (uint32_t i = 0; i < v.bytes.size(); ++i)
            {
                for (uint8_t bit = 0; bit < 8; ++bit)
                {
                    std::vector<uint8_t> bad = v.bytes;
                    bad[i] ^= uint8_t(1u << bit);
                    RoceFrame f;
                    RoceFrame::ParseStatus st = Parse(bad, f);
                    bool exempt = IsIcrcInvariantExempt(i, l2, ok.ipv6);
                    if (ok.ipv6 && i == l2 && bit >= 4)
                    {
                        exempt = false; // the IPv6 version nibble is covered
                    }
                    if (i == 12 || i == 13 || (ok.hasVlan && (i == 16 || i == 17)))
                    {
                        exempt = false; // EtherType: no longer IP, hence not RoCE
                    }
                    if (exempt)
                    {
                        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(st),
                                              std::string("OK"),
                                              v.name << " byte " << i << " bit " << +bit
                                                     << " is masked or outside the ICRC");
                    }
                    else
                    {
                        NS_TEST_EXPECT_MSG_NE(RoceFrame::ParseStatusName(st),
                                              std::string("OK"),
                                              v.name << " byte " << i << " bit " << +bit
                                                     << " must be detected");
                        ++detected;
                        badIcrc += (st == RoceFrame::BAD_ICRC);
                    }
                }
            }
        }
        // Most flips land in transport headers or payload, where only the ICRC
        // can tell; length and type fields are caught earlier by name.
        NS_TEST_EXPECT_MSG_GT(badIcrc, detected / 2, "most corruptions are ICRC failures");
    }
};

/**
 * Every proper prefix of every vector is TRUNCATED (the IP length says more
 * bytes are needed), and no prefix is read past its end.
 */
class TruncationTestCase : public TestCase
{
  public:
    TruncationTestCase()
        : TestCase("every truncation is reported as TRUNCATED")
    {
    }

  private:
    void DoRun() override
    {
        std::string error;
        for (const RoceVector& v : LoadVectors(error))
        {
            for (uint32_t n = 0; n < v.bytes.size(); ++n)
            {
                std::vector<uint8_t> prefix(v.bytes.begin(), v.bytes.begin() + n);
                RoceFrame f;
                RoceFrame::ParseStatus st = Parse(prefix, f);
                bool l2Only = n >= 12 && n < 14;
                NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(st),
                                      std::string("TRUNCATED"),
                                      v.name << " cut to " << n << " bytes"
                                             << (l2Only ? " (in L2)" : ""));
            }
            // Ethernet pads short frames: bytes past the IP length are ignored.
            std::vector<uint8_t> padded = v.bytes;
            padded.insert(padded.end(), 6, 0);
            RoceFrame f;
            NS_TEST_EXPECT_MSG_EQ(Parse(padded, f), RoceFrame::OK, v.name << " with trailing pad");
        }
        NS_TEST_EXPECT_MSG_EQ(error, "", "reading the vectors");
    }
};

/// Frames with a valid ICRC but an opcode the module does not implement.
class UnknownOpcodeTestCase : public TestCase
{
  public:
    UnknownOpcodeTestCase()
        : TestCase("unknown opcodes are reported, not parsed")
    {
    }

  private:
    void DoRun() override
    {
        // 0x15 reserved RC, 0x20 UC SEND_FIRST, 0x64 UD SEND_ONLY, 0xFF.
        for (uint8_t op : {uint8_t(0x15), uint8_t(0x20), uint8_t(0x64), uint8_t(0xFF)})
        {
            RoceFrame f;
            f.bth.SetOpcode(op);
            f.payload = Create<Packet>(8);
            Ptr<Packet> frame = f.BuildEthernetFrame();
            RoceFrame back;
            NS_TEST_EXPECT_MSG_EQ(
                RoceFrame::ParseStatusName(RoceFrame::ParseEthernetFrame(frame, back)),
                std::string("UNKNOWN_OPCODE"),
                "opcode " << +op);
            NS_TEST_EXPECT_MSG_EQ(GetRdmaOpcodeInfo(op).known, false, "table agrees");
        }
    }
};

/// Layout errors behind a valid ICRC: bad PadCnt, payload on an ACK, lengths.
class LayoutErrorTestCase : public TestCase
{
  public:
    LayoutErrorTestCase()
        : TestCase("bad pad, stray payload, lengths and non-RoCE frames")
    {
    }

  private:
    /// Rewrite bytes of a built IPv4 frame and fix the ICRC so only the layout is wrong.
    std::vector<uint8_t> Reseal(std::vector<uint8_t> b)
    {
        uint32_t icrc = IcrcTrailer::Compute(IcrcTrailer::IPV4, b.data() + 14, b.size() - 14 - 4);
        for (int k = 0; k < 4; ++k)
        {
            b[b.size() - 4 + k] = uint8_t(icrc >> (8 * k));
        }
        return b;
    }

    void DoRun() override
    {
        RoceFrame send;
        send.bth.SetOpcode(RC_SEND_ONLY);
        send.payload = Create<Packet>(4);
        std::vector<uint8_t> b = ToBytes(send.BuildEthernetFrame());
        const uint32_t bth = 14 + 20 + 8;
        RoceFrame f;
        NS_TEST_ASSERT_MSG_EQ(Parse(b, f), RoceFrame::OK, "baseline");

        std::vector<uint8_t> pad = b;
        pad[bth + 1] |= 0x30; // PadCnt 3 on 4 bytes is fine, so shrink the data
        NS_TEST_EXPECT_MSG_EQ(Parse(Reseal(pad), f), RoceFrame::OK, "PadCnt 3 of 4 bytes");

        RoceFrame empty;
        empty.bth.SetOpcode(RC_SEND_ONLY);
        std::vector<uint8_t> e = ToBytes(empty.BuildEthernetFrame());
        e[bth + 1] |= 0x20; // PadCnt 2 with no data at all
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(Parse(Reseal(e), f)),
                              std::string("BAD_PAD"),
                              "PadCnt larger than the data");

        std::vector<uint8_t> ack = b;
        ack[bth] = RC_ACKNOWLEDGE; // 4 bytes AETH then 0 bytes: fine
        NS_TEST_EXPECT_MSG_EQ(Parse(Reseal(ack), f), RoceFrame::OK, "4 bytes read as an AETH");
        std::vector<uint8_t> rdReq = b;
        rdReq[bth] = RC_RDMA_READ_REQUEST; // needs a 16-byte RETH, has 4
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(Parse(Reseal(rdReq), f)),
                              std::string("TRUNCATED"),
                              "READ request without room for its RETH");

        RoceFrame big;
        big.bth.SetOpcode(RC_SEND_ONLY);
        big.payload = Create<Packet>(8);
        std::vector<uint8_t> stray = ToBytes(big.BuildEthernetFrame());
        stray[bth] = RC_ACKNOWLEDGE; // AETH + 4 bytes that an ACK may not carry
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(Parse(Reseal(stray), f)),
                              std::string("BAD_LENGTH"),
                              "payload after an ACK");

        std::vector<uint8_t> udpLen = b;
        udpLen[14 + 20 + 5] -= 4; // UDP length disagrees with the IP length
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(Parse(udpLen, f)),
                              std::string("BAD_LENGTH"),
                              "UDP length");

        std::vector<uint8_t> port = b;
        port[14 + 20 + 3] = 0xB8; // destination port 4792
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(Parse(port, f)),
                              std::string("NOT_ROCE"),
                              "UDP port other than 4791");

        std::vector<uint8_t> opts = b;
        opts[14] = 0x46; // IHL 6: IPv4 options
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(Parse(opts, f)),
                              std::string("UNSUPPORTED_L3"),
                              "IPv4 options");

        PfcHeader pfc;
        pfc.SetPause(3, 100);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(pfc);
        EthernetHeader eth(false);
        eth.SetDestination(PfcHeader::GetDestination());
        eth.SetLengthType(PfcHeader::ETHERTYPE);
        p->AddHeader(eth);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 60, "PFC frame is the 60-byte minimum");
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(RoceFrame::ParseEthernetFrame(p, f)),
                              std::string("NOT_ROCE"),
                              "a PFC frame");
    }
};

/// A coalesced SACK's bitmap (RoceFrame::sackBitmap) on the wire.
class SackBitmapTestCase : public TestCase
{
  public:
    SackBitmapTestCase()
        : TestCase("SACK bitmap: 8 bytes after a sequence NAK's AETH, read back; none on "
                   "other ACKs, where 8 bytes stay BAD_LENGTH")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrame sack;
        sack.bth.SetOpcode(RC_ACKNOWLEDGE);
        sack.bth.SetPsn(0xFFFFF0); // the cumulative ACK point, near the 24-bit wrap
        sack.aeth.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
        sack.aeth.SetMsn(0x000005);
        sack.hasSackBitmap = true;
        sack.sackBitmap = 0x8000000000010003ULL;
        std::vector<uint8_t> b = ToBytes(sack.BuildEthernetFrame());
        const uint32_t aethEnd = 14 + 20 + 8 + 12 + 4;
        NS_TEST_ASSERT_MSG_EQ(b.size(), aethEnd + 8 + 4, "AETH, 8 bytes, ICRC");
        NS_TEST_EXPECT_MSG_EQ(b[aethEnd], 0x80, "big-endian: PSN ack + 64 first");
        NS_TEST_EXPECT_MSG_EQ(b[aethEnd + 7], 0x03, "PSNs ack + 1 and ack + 2 last");
        RoceFrame f;
        NS_TEST_ASSERT_MSG_EQ(Parse(b, f), RoceFrame::OK, "parses, ICRC checked");
        NS_TEST_EXPECT_MSG_EQ(f.hasSackBitmap, true, "the bitmap is found");
        NS_TEST_EXPECT_MSG_EQ(f.sackBitmap, sack.sackBitmap, "and read back");
        NS_TEST_EXPECT_MSG_EQ(f.aeth.GetMsn(), 5, "the MSN is the newest SACKed PSN");
        NS_TEST_EXPECT_MSG_EQ(f.bth.GetPsn(), 0xFFFFF0, "the BTH PSN the cumulative ACK");

        // The same frame on the fabric's compact form parses the same.
        Ptr<RdmaFrame> compact = sack.BuildFrame();
        RoceFrame g;
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(*compact, g),
                              RoceFrame::OK,
                              "compact form");
        NS_TEST_EXPECT_MSG_EQ(g.sackBitmap, sack.sackBitmap, "compact form's bitmap");

        RoceFrame ack = sack;
        ack.aeth.SetAck();
        std::vector<uint8_t> a = ToBytes(ack.BuildEthernetFrame());
        NS_TEST_EXPECT_MSG_EQ(a.size(), aethEnd + 4, "an ACK carries no bitmap");
        NS_TEST_ASSERT_MSG_EQ(Parse(a, f), RoceFrame::OK, "plain ACK");
        NS_TEST_EXPECT_MSG_EQ(f.hasSackBitmap, false, "none found");

        std::vector<uint8_t> stray = b;
        stray[aethEnd - 4] = ack.aeth.GetSyndrome(); // the 8 bytes after an ACK
        uint32_t icrc =
            IcrcTrailer::Compute(IcrcTrailer::IPV4, stray.data() + 14, stray.size() - 14 - 4);
        for (int k = 0; k < 4; ++k)
        {
            stray[stray.size() - 4 + k] = uint8_t(icrc >> (8 * k));
        }
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(Parse(stray, f)),
                              std::string("BAD_LENGTH"),
                              "8 bytes after an ACK's AETH");
    }
};

/// The parse-error suite.
class RdmaWireParseTestSuite : public TestSuite
{
  public:
    RdmaWireParseTestSuite()
        : TestSuite("rdma-wire-parse", UNIT)
    {
        AddTestCase(new CorruptionTestCase, TestCase::QUICK);
        AddTestCase(new TruncationTestCase, TestCase::QUICK);
        AddTestCase(new UnknownOpcodeTestCase, TestCase::QUICK);
        AddTestCase(new LayoutErrorTestCase, TestCase::QUICK);
        AddTestCase(new SackBitmapTestCase, TestCase::QUICK);
    }
};

RdmaWireParseTestSuite g_rdmaWireParseTestSuite; //!< static instance

} // namespace
