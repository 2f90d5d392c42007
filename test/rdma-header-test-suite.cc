/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of each header's field packing (IBA Vol 1 chapter 9, Annex A17;
 * IEEE 802.1Qbb / 802.3 Annex 31D; IEEE 802.1Q).
 */

#include "rdma-test-data.h"

#include "ns3/rdma-module.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Serialize a header alone and return its bytes.
template <typename H>
std::vector<uint8_t>
Serialized(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return ToBytes(p);
}

/// Deserialize a header from its serialized bytes.
template <typename H>
H
RoundTrip(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    H back;
    p->RemoveHeader(back);
    return back;
}

/// BTH: every field lands in its bits; 24-bit fields are masked.
class BthHeaderTestCase : public TestCase
{
  public:
    BthHeaderTestCase()
        : TestCase("BTH field layout (IBA 9.2)")
    {
    }

  private:
    void DoRun() override
    {
        BthHeader b;
        b.SetOpcode(RC_SEND_ONLY_WITH_IMMEDIATE);
        b.SetSolicitedEvent(true);
        b.SetMigReq(true);
        b.SetPadCnt(3);
        b.SetPkey(0x8001);
        b.SetFecn(true);
        b.SetBecn(true);
        b.SetDestQp(0x1ABCDEF); // 25 bits: the top bit must be dropped
        b.SetAckReq(true);
        b.SetPsn(0x1000005); // 2^24 + 5 wraps to 5
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(b)),
                              "05f08001c0abcdef80000005",
                              "opcode, SE|M|Pad, P_Key, FECN|BECN, DestQP, A, PSN");
        BthHeader r = RoundTrip(b);
        NS_TEST_EXPECT_MSG_EQ(r.GetDestQp(), 0xABCDEF, "DestQP 24 bits");
        NS_TEST_EXPECT_MSG_EQ(r.GetPsn(), 5, "PSN 24 bits");
        NS_TEST_EXPECT_MSG_EQ(+r.GetPadCnt(), 3, "PadCnt");
        NS_TEST_EXPECT_MSG_EQ(r.GetMigReq(), true, "MigReq");
        NS_TEST_EXPECT_MSG_EQ(r.GetBecn(), true, "BECN");
        NS_TEST_EXPECT_MSG_EQ(r.GetPkey(), 0x8001, "P_Key");
        NS_TEST_EXPECT_MSG_EQ(+BthHeader::PadCntFor(0), 0, "PadCnt of 0 bytes");
        NS_TEST_EXPECT_MSG_EQ(+BthHeader::PadCntFor(1), 3, "PadCnt of 1 byte");
        NS_TEST_EXPECT_MSG_EQ(+BthHeader::PadCntFor(1026), 2, "PadCnt of 1026 bytes");
        BthHeader d;
        NS_TEST_EXPECT_MSG_EQ(d.GetPkey(), 0xFFFF, "default P_Key is the full member key");
        d.SetBecn(true);
        d.SetBecn(false);
        d.SetPadCnt(2);
        d.SetTver(0);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(d)), "0020ffff0000000000000000", "bits clear");
        // The 13 reserved bits (RCCC's pull target): byte 4's low 6, byte 8's
        // low 7, beside FECN, BECN and AckReq, which keep their values.
        b.SetReservedBits(0x1FFF);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(b)),
                              "05f08001ffabcdefff000005",
                              "reserved bits set, the others kept");
        b.SetReservedBits(0x0A5A);
        NS_TEST_EXPECT_MSG_EQ(RoundTrip(b).GetReservedBits(), 0x0A5A, "13 bits round trip");
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(b)),
                              "05f08001d4abcdefda000005",
                              "0x0A5A: 0x14 in byte 4, 0x5A in byte 8");
    }
};

/// RETH, AtomicETH, AtomicAckETH, ImmDt, IETH, CNP: sizes and byte order.
class ExtHeadersTestCase : public TestCase
{
  public:
    ExtHeadersTestCase()
        : TestCase("extension headers: sizes and big-endian fields (IBA 9.3)")
    {
    }

  private:
    void DoRun() override
    {
        RethHeader reth;
        reth.SetVirtualAddress(0x0102030405060708ULL);
        reth.SetRkey(0x0A0B0C0D);
        reth.SetDmaLength(0x00100000);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(reth)),
                              "01020304050607080a0b0c0d00100000",
                              "RETH VA, R_Key, DMALen");
        NS_TEST_EXPECT_MSG_EQ(RoundTrip(reth).GetDmaLength(), 0x00100000, "RETH round trip");

        AtomicEthHeader a;
        a.SetVirtualAddress(0x1000);
        a.SetRkey(7);
        a.SetSwapOrAdd(0xAAAAAAAAAAAAAAAAULL);
        a.SetCompare(0x5555555555555555ULL);
        std::vector<uint8_t> ab = Serialized(a);
        NS_TEST_EXPECT_MSG_EQ(ab.size(), 28, "AtomicETH is 28 bytes");
        NS_TEST_EXPECT_MSG_EQ(ToHex(ab),
                              "000000000000100000000007aaaaaaaaaaaaaaaa5555555555555555",
                              "AtomicETH VA, R_Key, Swap/Add, Compare");
        NS_TEST_EXPECT_MSG_EQ(RoundTrip(a).GetCompare(), 0x5555555555555555ULL, "round trip");

        AtomicAckEthHeader aa;
        aa.SetOriginalRemoteData(0x0102030405060708ULL);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(aa)), "0102030405060708", "AtomicAckETH");

        ImmDtHeader imm;
        imm.SetImmediateData(0xCAFEF00D);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(imm)), "cafef00d", "ImmDt");
        NS_TEST_EXPECT_MSG_EQ(RoundTrip(imm).GetImmediateData(), 0xCAFEF00D, "ImmDt round trip");
        IethHeader ieth;
        ieth.SetRkey(0x00001234);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(ieth)), "00001234", "IETH");

        CnpHeader cnp;
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(cnp)), std::string(32, '0'), "CNP 16 zero bytes");
        std::vector<uint8_t> odd(16, 0);
        odd[15] = 1;
        CnpHeader rx;
        ToPacket(odd)->RemoveHeader(rx);
        NS_TEST_EXPECT_MSG_EQ(rx.IsZero(), false, "non-zero reserved byte is kept");
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(rx)), ToHex(odd), "kept byte for byte");
    }
};

/// AETH syndrome encoding (IBA Tables 44-46) and the RNR timer table.
class AethHeaderTestCase : public TestCase
{
  public:
    AethHeaderTestCase()
        : TestCase("AETH syndromes and RNR timer codes (IBA Tables 44-46)")
    {
    }

  private:
    void DoRun() override
    {
        AethHeader h;
        h.SetAck();
        h.SetMsn(0x1000001);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(h)),
                              "1f000001",
                              "ACK, credits not limited, MSN mod 2^24");
        h.SetRnrNak(14);
        NS_TEST_EXPECT_MSG_EQ(+h.GetSyndrome(), 0x2E, "RNR NAK code 14 = 0x2E");
        h.SetNak(AethHeader::NAK_REMOTE_ACCESS_ERROR);
        NS_TEST_EXPECT_MSG_EQ(+h.GetSyndrome(), 0x62, "NAK remote access error = 0x62");
        NS_TEST_EXPECT_MSG_EQ(RoundTrip(h).GetSyndromeType(), AethHeader::NAK, "type bits 6-5");
        NS_TEST_EXPECT_MSG_EQ(+RoundTrip(h).GetSyndromeValue(), 2, "value bits 4-0");
        NS_TEST_EXPECT_MSG_EQ(AethHeader::RnrTimerCodeToTime(0),
                              MicroSeconds(655360),
                              "code 0 = 655.36 ms");
        NS_TEST_EXPECT_MSG_EQ(AethHeader::RnrTimerCodeToTime(1),
                              MicroSeconds(10),
                              "code 1 = 0.01 ms");
        NS_TEST_EXPECT_MSG_EQ(AethHeader::RnrTimerCodeToTime(25),
                              MicroSeconds(61440),
                              "code 25 = 61.44 ms (rxe's 61410 is a typo)");
        NS_TEST_EXPECT_MSG_EQ(AethHeader::RnrTimerCodeToTime(31),
                              MicroSeconds(491520),
                              "code 31 = 491.52 ms");
    }
};

/// 802.1Qbb PFC frame body and pause-quanta arithmetic.
class PfcHeaderTestCase : public TestCase
{
  public:
    PfcHeaderTestCase()
        : TestCase("PFC frame (802.1Qbb, 802.3 Annex 31D) and pause quanta")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc;
        pfc.SetPause(3, 0xFFFF);
        pfc.SetPause(6, 0);
        pfc.SetPause(9, 1); // not a priority: ignored
        std::vector<uint8_t> b = Serialized(pfc);
        NS_TEST_EXPECT_MSG_EQ(b.size(), 46, "14 B Ethernet + 46 B = the 60-byte minimum frame");
        NS_TEST_EXPECT_MSG_EQ(ToHex(b).substr(0, 40),
                              "01010048000000000000ffff0000000000000000",
                              "opcode 0x0101, CEV 0x48, time[3] = 65535, time[6] = 0 (XON)");
        NS_TEST_EXPECT_MSG_EQ(ToHex(b).substr(40), std::string(52, '0'), "26 zero pad bytes");
        PfcHeader r = RoundTrip(pfc);
        NS_TEST_EXPECT_MSG_EQ(r.IsEnabled(3), true, "class 3 enabled");
        NS_TEST_EXPECT_MSG_EQ(r.IsEnabled(6), true, "class 6 enabled (resume)");
        NS_TEST_EXPECT_MSG_EQ(r.IsEnabled(0), false, "class 0 not enabled");
        NS_TEST_EXPECT_MSG_EQ(r.GetPauseQuanta(3), 0xFFFF, "pause time kept");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::GetDestination(),
                              Mac48Address("01:80:c2:00:00:01"),
                              "reserved MAC Control address");

        // One quantum is 512 bit times: 5.12 ns at 100 Gb/s, 20.48 ns at 25 Gb/s.
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(1, DataRate("100Gbps")),
                              PicoSeconds(5120),
                              "1 quantum at 100 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(65535, DataRate("100Gbps")),
                              PicoSeconds(335539200),
                              "65535 quanta at 100 Gb/s = 335.54 us");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(1, DataRate("25Gbps")),
                              PicoSeconds(20480),
                              "1 quantum at 25 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(10), DataRate("100Gbps")),
                              2,
                              "10 ns at 100 Gb/s rounds up to 2 quanta");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(Seconds(1), DataRate("100Gbps")),
                              0xFFFF,
                              "saturates at 65535");
    }
};

/// 802.1Q tag and the RoCEv2 UDP source port rule.
class VlanAndPortTestCase : public TestCase
{
  public:
    VlanAndPortTestCase()
        : TestCase("802.1Q tag and RoCEv2 UDP source port")
    {
    }

  private:
    void DoRun() override
    {
        VlanTagHeader v;
        v.SetPcp(5);
        v.SetDei(true);
        v.SetVid(0xFFF);
        v.SetInnerType(0x86DD);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(v)), "bfff86dd", "PCP 5, DEI, VID 4095, IPv6");
        v.SetPcp(0);
        v.SetVid(100);
        v.SetDei(false);
        NS_TEST_EXPECT_MSG_EQ(ToHex(Serialized(v)), "006486dd", "PCP 0, VID 100");

        // Linux ib_verbs.h: v = lqpn * rqpn folded to 20 bits, then to 14
        // bits ORed with 0xC000. 1024 * 1024 = 2^20 -> label 1 -> 0xC001.
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::UdpSourcePort(1024, 1024), 0xC001, "2^20 folds to 1");
        // label 0xFC000: the top 6 bits fold onto the low ones -> 0xC03F.
        NS_TEST_EXPECT_MSG_EQ(RoceFrame::UdpSourcePort(1, 0xFC000), 0xC03F, "high bits fold");
        for (uint32_t q = 1; q < 5000; q += 7)
        {
            uint16_t port = RoceFrame::UdpSourcePort(q, q + 3);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(port, 0xC000, "port in the RoCEv2 entropy range");
        }
    }
};

/// The opcode table: names and extension-header sizes (IBA Table 38).
class OpcodeTableTestCase : public TestCase
{
  public:
    OpcodeTableTestCase()
        : TestCase("opcode table (IBA Table 38)")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(RdmaExtHeadersSize(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE),
                              20,
                              "RETH+ImmDt");
        NS_TEST_EXPECT_MSG_EQ(RdmaExtHeadersSize(RC_ATOMIC_ACKNOWLEDGE), 12, "AETH+AtomicAckETH");
        NS_TEST_EXPECT_MSG_EQ(RdmaExtHeadersSize(RC_FETCH_ADD), 28, "AtomicETH");
        NS_TEST_EXPECT_MSG_EQ(RdmaExtHeadersSize(RC_RDMA_READ_RESPONSE_MIDDLE), 0, "no AETH");
        NS_TEST_EXPECT_MSG_EQ(RdmaExtHeadersSize(ROCE_CNP), 16, "CNP reserved block");
        NS_TEST_EXPECT_MSG_EQ(RdmaOpcodeName(RC_SEND_LAST_WITH_INVALIDATE),
                              "SEND_LAST_WITH_INVALIDATE",
                              "name");
        NS_TEST_EXPECT_MSG_EQ(RdmaOpcodeName(0x15), "UNKNOWN(0x15)", "0x15 is reserved");
        uint32_t known = 0;
        for (uint32_t op = 0; op < 256; ++op)
        {
            known += GetRdmaOpcodeInfo(op).known;
        }
        NS_TEST_EXPECT_MSG_EQ(known, 26, "23 RC opcodes, the CNP, RCCC's credit and request");
        NS_TEST_EXPECT_MSG_EQ(RdmaOpcodeName(RCCC_REQUEST), "RCCC_REQUEST", "0xC1");
        NS_TEST_EXPECT_MSG_EQ(RdmaOpcodeName(RCCC_CREDIT), "RCCC_CREDIT", "0xC0");
        NS_TEST_EXPECT_MSG_EQ(RdmaExtHeadersSize(RCCC_CREDIT), 0, "BTH only");
    }
};

/// The header unit-test suite.
class RdmaHeaderTestSuite : public TestSuite
{
  public:
    RdmaHeaderTestSuite()
        : TestSuite("rdma-header", UNIT)
    {
        AddTestCase(new BthHeaderTestCase, TestCase::QUICK);
        AddTestCase(new ExtHeadersTestCase, TestCase::QUICK);
        AddTestCase(new AethHeaderTestCase, TestCase::QUICK);
        AddTestCase(new PfcHeaderTestCase, TestCase::QUICK);
        AddTestCase(new VlanAndPortTestCase, TestCase::QUICK);
        AddTestCase(new OpcodeTableTestCase, TestCase::QUICK);
    }
};

RdmaHeaderTestSuite g_rdmaHeaderTestSuite; //!< static instance

} // namespace
