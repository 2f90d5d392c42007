/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The RoCEv2 test vectors (test/data/roce-vectors.txt, from the project's
 * reference data: one frame captured from a ConnectX-4 Lx and twelve built
 * and cross-checked with Linux rxe's ICRC rule and scapy) are parsed to the
 * right field values and rebuilt by the module byte for byte.
 */

#include "rdma-test-data.h"

#include "ns3/rdma-module.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// The frame a test builds from literal field values, the way a NIC would.
RoceFrame
LiteralFrame(bool fromA, uint16_t ipId, uint8_t opcode, uint32_t destQp, uint32_t psn)
{
    RoceFrame f;
    f.srcMac = Mac48Address(fromA ? "02:00:00:00:00:01" : "02:00:00:00:00:02");
    f.dstMac = Mac48Address(fromA ? "02:00:00:00:00:02" : "02:00:00:00:00:01");
    f.srcIpv4 = Ipv4Address(fromA ? "10.0.0.1" : "10.0.0.2");
    f.dstIpv4 = Ipv4Address(fromA ? "10.0.0.2" : "10.0.0.1");
    f.dscp = 26;
    f.ecn = 2;
    f.ttl = 64;
    f.ipId = ipId;
    f.udpSrcPort = fromA ? 0xC000 : 0xC001;
    f.bth.SetOpcode(opcode);
    f.bth.SetDestQp(destQp);
    f.bth.SetPsn(psn);
    return f;
}

Ptr<Packet>
Bytes(std::initializer_list<uint8_t> b)
{
    std::vector<uint8_t> v(b);
    return ToPacket(v);
}

/**
 * Every vector parses to OK with the ICRC the file declares, and the fields
 * read back build the same bytes again.
 */
class RoceVectorRoundTripTestCase : public TestCase
{
  public:
    RoceVectorRoundTripTestCase()
        : TestCase("every vector parses and rebuilds byte for byte")
    {
    }

  private:
    void DoRun() override
    {
        std::string error;
        std::vector<RoceVector> vectors = ReadRoceVectors(DataPath("roce-vectors.txt"), error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "reading the vectors");
        NS_TEST_ASSERT_MSG_EQ(vectors.size(), 13, "the reference file has 13 vectors");
        for (const RoceVector& v : vectors)
        {
            RoceFrame f;
            RoceFrame::ParseStatus st = RoceFrame::ParseEthernetFrame(ToPacket(v.bytes), f);
            NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseStatusName(st),
                                  std::string("OK"),
                                  v.name << " parses");
            if (st != RoceFrame::OK)
            {
                continue;
            }
            // The declared ICRC is its 4 wire bytes read big-endian.
            uint32_t wireBe = (f.icrc & 0xFF) << 24 | ((f.icrc >> 8) & 0xFF) << 16 |
                              ((f.icrc >> 16) & 0xFF) << 8 | (f.icrc >> 24);
            NS_TEST_EXPECT_MSG_EQ(wireBe, v.icrc, v.name << " ICRC");
            std::vector<uint8_t> rebuilt = ToBytes(f.BuildEthernetFrame());
            NS_TEST_EXPECT_MSG_EQ(ToHex(rebuilt), ToHex(v.bytes), v.name << " rebuilt");
        }
    }
};

/**
 * Frames built from literal field values (not from the parser) equal the
 * vectors byte for byte, and the parser reads each field back.
 */
class RoceVectorLiteralTestCase : public TestCase
{
  public:
    RoceVectorLiteralTestCase()
        : TestCase("frames built from literal fields equal the vectors")
    {
    }

  private:
    std::map<std::string, std::vector<uint8_t>> m_vectors;

    void Check(const std::string& name, RoceFrame& f)
    {
        auto it = m_vectors.find(name);
        NS_TEST_ASSERT_MSG_EQ((it != m_vectors.end()), true, name << " present in the file");
        NS_TEST_EXPECT_MSG_EQ(ToHex(ToBytes(f.BuildEthernetFrame())),
                              ToHex(it->second),
                              name << " built from literal fields");
    }

    void DoRun() override
    {
        std::string error;
        for (const RoceVector& v : ReadRoceVectors(DataPath("roce-vectors.txt"), error))
        {
            m_vectors[v.name] = v.bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(error, "", "reading the vectors");

        // TV1: RDMA WRITE ONLY of 16 bytes 00..0f to VA 0x10000000, R_Key 0x1234.
        RoceFrame w = LiteralFrame(true, 1, RC_RDMA_WRITE_ONLY, 0x11, 0x123456);
        w.bth.SetAckReq(true);
        w.reth.SetVirtualAddress(0x10000000);
        w.reth.SetRkey(0x1234);
        w.reth.SetDmaLength(16);
        w.payload = Bytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
        Check("TV1_RC_RDMA_WRITE_ONLY_16B", w);
        NS_TEST_EXPECT_MSG_EQ(w.icrc, 0xa3151bf0, "TV1 ICRC value (wire f0 1b 15 a3)");

        // TV9: the same WRITE after a switch: VLAN PCP 3 VID 100, CE, TTL 63,
        // FECN. Only masked fields changed, so the ICRC is TV1's.
        RoceFrame ce = w;
        ce.hasVlan = true;
        ce.vlan.SetPcp(3);
        ce.vlan.SetVid(100);
        ce.ecn = 3;
        ce.ttl = 63;
        ce.bth.SetFecn(true);
        Check("TV9_WRITE_CE_TTL63_VLANpcp3_FECN", ce);
        NS_TEST_EXPECT_MSG_EQ(ce.icrc, w.icrc, "ICRC invariant under ECN, TTL and FECN");

        // TV2: ACK (credits not limited) for PSN 0x123456, MSN 1.
        RoceFrame ack = LiteralFrame(false, 2, RC_ACKNOWLEDGE, 0x22, 0x123456);
        ack.aeth.SetAck();
        ack.aeth.SetMsn(1);
        Check("TV2_RC_ACK", ack);

        // TV5: SEND ONLY with immediate, "hello" + 3 pad bytes, PSN 2^24-1.
        RoceFrame s = LiteralFrame(true, 5, RC_SEND_ONLY_WITH_IMMEDIATE, 0x11, 0xFFFFFF);
        s.bth.SetSolicitedEvent(true);
        s.bth.SetAckReq(true);
        s.immDt.SetImmediateData(0xdeadbeef);
        s.payload = Bytes({'h', 'e', 'l', 'l', 'o'});
        Check("TV5_RC_SEND_ONLY_IMM_pad3_psn_wrap", s);
        NS_TEST_EXPECT_MSG_EQ(+s.bth.GetPadCnt(), 3, "PadCnt of a 5-byte payload");

        // TV6: NAK PSN sequence error; TV7: RNR NAK with timer code 14.
        RoceFrame nak = LiteralFrame(false, 6, RC_ACKNOWLEDGE, 0x22, 0x000200);
        nak.srcMac = Mac48Address("02:00:00:00:00:01");
        nak.dstMac = Mac48Address("02:00:00:00:00:02");
        nak.aeth.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
        nak.aeth.SetMsn(7);
        Check("TV6_RC_NAK_PSN_SEQ_ERR", nak);
        RoceFrame rnr = nak;
        rnr.ipId = 7;
        rnr.bth.SetPsn(0x000300);
        rnr.aeth.SetRnrNak(14);
        Check("TV7_RC_RNR_NAK_t14", rnr);

        // TV8: RoCEv2 CNP to QP 0x11, DSCP 48, BECN, PSN 0.
        RoceFrame cnp = LiteralFrame(false, 8, ROCE_CNP, 0x11, 0);
        cnp.srcMac = Mac48Address("02:00:00:00:00:01");
        cnp.dstMac = Mac48Address("02:00:00:00:00:02");
        cnp.dscp = 48;
        cnp.bth.SetBecn(true);
        Check("TV8_CNP", cnp);

        // TV10: COMPARE_SWAP at VA 0x30000000, R_Key 0x9abc.
        RoceFrame cs = LiteralFrame(true, 10, RC_COMPARE_SWAP, 0x11, 0x000400);
        cs.bth.SetAckReq(true);
        cs.atomicEth.SetVirtualAddress(0x30000000);
        cs.atomicEth.SetRkey(0x9abc);
        cs.atomicEth.SetSwapOrAdd(0x1111111111111111ULL);
        cs.atomicEth.SetCompare(0x2222222222222222ULL);
        Check("TV10_RC_COMPARE_SWAP", cs);

        // TV12: the WRITE of TV1 over IPv6 (traffic class 0x6a, flow label 0x12345).
        RoceFrame w6 = w;
        w6.ipv6 = true;
        w6.srcIpv6 = Ipv6Address("fd00::1");
        w6.dstIpv6 = Ipv6Address("fd00::2");
        w6.flowLabel = 0x12345;
        Check("TV12_IPv6_RDMA_WRITE_ONLY", w6);
    }
};

/**
 * The parser reads the fields of the vectors as the file's names say.
 */
class RoceVectorFieldsTestCase : public TestCase
{
  public:
    RoceVectorFieldsTestCase()
        : TestCase("parsed fields of the vectors")
    {
    }

  private:
    void DoRun() override
    {
        std::string error;
        std::map<std::string, RoceFrame> f;
        for (const RoceVector& v : ReadRoceVectors(DataPath("roce-vectors.txt"), error))
        {
            RoceFrame::ParseEthernetFrame(ToPacket(v.bytes), f[v.name]);
        }
        NS_TEST_ASSERT_MSG_EQ(error, "", "reading the vectors");

        const RoceFrame& hw = f["TV0_HW_ConnectX4Lx_CNP_captured"];
        NS_TEST_EXPECT_MSG_EQ(+hw.bth.GetOpcode(), 0x81, "hardware CNP opcode");
        NS_TEST_EXPECT_MSG_EQ(hw.bth.GetBecn(), true, "hardware CNP BECN");
        NS_TEST_EXPECT_MSG_EQ(hw.bth.GetDestQp(), 0x000118, "hardware CNP DestQP");
        NS_TEST_EXPECT_MSG_EQ(+hw.dscp, 48, "hardware CNP DSCP");
        NS_TEST_EXPECT_MSG_EQ(hw.cnp.IsZero(), true, "CNP reserved bytes are zero");

        const RoceFrame& rd = f["TV3_RC_RDMA_READ_REQUEST"];
        NS_TEST_EXPECT_MSG_EQ(rd.reth.GetDmaLength(), 0x1000, "READ length");
        NS_TEST_EXPECT_MSG_EQ(rd.reth.GetRkey(), 0x5678, "READ R_Key");
        NS_TEST_EXPECT_MSG_EQ(rd.reth.GetVirtualAddress(), 0x20000000, "READ VA");

        const RoceFrame& rr = f["TV4_RC_RDMA_READ_RESPONSE_ONLY"];
        NS_TEST_EXPECT_MSG_EQ(rr.aeth.GetSyndromeType(), AethHeader::ACK, "read response AETH");
        NS_TEST_EXPECT_MSG_EQ(rr.aeth.GetMsn(), 2, "read response MSN");
        NS_TEST_EXPECT_MSG_EQ(rr.payload->GetSize(), 16, "read response payload");

        const RoceFrame& s = f["TV5_RC_SEND_ONLY_IMM_pad3_psn_wrap"];
        NS_TEST_EXPECT_MSG_EQ(s.bth.GetPsn(), 0xFFFFFF, "PSN 2^24-1");
        NS_TEST_EXPECT_MSG_EQ(s.payload->GetSize(), 5, "pad removed from the payload");
        NS_TEST_EXPECT_MSG_EQ(s.immDt.GetImmediateData(), 0xdeadbeef, "ImmDt");

        const RoceFrame& nak = f["TV6_RC_NAK_PSN_SEQ_ERR"];
        NS_TEST_EXPECT_MSG_EQ(nak.aeth.GetSyndromeType(), AethHeader::NAK, "NAK type");
        NS_TEST_EXPECT_MSG_EQ(+nak.aeth.GetSyndromeValue(), 0, "NAK code: PSN sequence error");

        const RoceFrame& rnr = f["TV7_RC_RNR_NAK_t14"];
        NS_TEST_EXPECT_MSG_EQ(rnr.aeth.GetSyndromeType(), AethHeader::RNR_NAK, "RNR NAK type");
        NS_TEST_EXPECT_MSG_EQ(AethHeader::RnrTimerCodeToTime(rnr.aeth.GetSyndromeValue()),
                              MicroSeconds(1280),
                              "RNR timer code 14 = 1.28 ms (IBA Table 45)");

        const RoceFrame& ce = f["TV9_WRITE_CE_TTL63_VLANpcp3_FECN"];
        NS_TEST_EXPECT_MSG_EQ(ce.hasVlan, true, "802.1Q tag");
        NS_TEST_EXPECT_MSG_EQ(+ce.vlan.GetPcp(), 3, "PCP");
        NS_TEST_EXPECT_MSG_EQ(+ce.ecn, 3, "ECN CE");
        NS_TEST_EXPECT_MSG_EQ(ce.bth.GetFecn(), true, "FECN");

        const RoceFrame& aa = f["TV11_RC_ATOMIC_ACK"];
        NS_TEST_EXPECT_MSG_EQ(aa.atomicAckEth.GetOriginalRemoteData(),
                              0x2222222222222222ULL,
                              "AtomicAckETH original data");

        const RoceFrame& v6 = f["TV12_IPv6_RDMA_WRITE_ONLY"];
        NS_TEST_EXPECT_MSG_EQ(v6.ipv6, true, "IPv6");
        NS_TEST_EXPECT_MSG_EQ(v6.flowLabel, 0x12345, "IPv6 flow label");
        NS_TEST_EXPECT_MSG_EQ(v6.dstIpv6, Ipv6Address("fd00::2"), "IPv6 destination");
    }
};

/// The wire-vector suite.
class RdmaWireVectorsTestSuite : public TestSuite
{
  public:
    RdmaWireVectorsTestSuite()
        : TestSuite("rdma-wire-vectors", UNIT)
    {
        AddTestCase(new RoceVectorRoundTripTestCase, TestCase::QUICK);
        AddTestCase(new RoceVectorLiteralTestCase, TestCase::QUICK);
        AddTestCase(new RoceVectorFieldsTestCase, TestCase::QUICK);
    }
};

RdmaWireVectorsTestSuite g_rdmaWireVectorsTestSuite; //!< static instance

} // namespace
