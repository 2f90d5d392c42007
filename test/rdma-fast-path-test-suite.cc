/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The simulation's fast paths give exactly what the slow ones give:
 * - the ICRC of a frame whose payload is zeros, found from its headers
 *   (IcrcTrailer::AppendZeros), is the ICRC over every byte;
 * - a frame built from a zero payload flagged payloadZeros is byte for
 *   byte the frame built from real zero bytes;
 * - a parse that does not check the ICRC (reading only the headers) gives
 *   the same fields and payload bytes as one that does;
 * - INT insertion (copy-on-write, in place or while building) and removal on the head alone
 *   restore the frame byte for byte, and a parse that skips the INT header
 *   in a copy of the head reads what a parse of the stripped frame reads;
 * - with the ICRC turned off (RoceFrame::computeIcrc) a frame differs
 *   from the usual one only in its last four bytes, which are zero, parses
 *   to the same fields without the check and fails the check;
 * - RdmaDeadlineTimer fires at the last deadline set, with one scheduled
 *   event for any number of restarts (ns-3 counts every event it pops,
 *   cancelled ones included, so cancel-and-reschedule would count each).
 */

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

namespace
{

/// The bytes of a packet.
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/// A RoCEv2 frame of the given opcode and payload length, IPv4 or IPv6.
RoceFrame
MakeFrame(uint8_t opcode, uint32_t length, bool ipv6)
{
    RoceFrame f;
    f.srcMac = Mac48Address("02:00:00:00:00:01");
    f.dstMac = Mac48Address("02:00:00:00:00:02");
    f.ipv6 = ipv6;
    f.srcIpv4 = Ipv4Address("10.0.0.1");
    f.dstIpv4 = Ipv4Address("10.0.0.2");
    f.srcIpv6 = Ipv6Address("fe80::1");
    f.dstIpv6 = Ipv6Address("fe80::2");
    f.dscp = 26;
    f.ecn = 2;
    f.ipId = 77;
    f.udpSrcPort = 0xC123;
    f.bth.SetOpcode(opcode);
    f.bth.SetDestQp(0x11);
    f.bth.SetPsn(0xFFFFFE);
    f.reth.SetVirtualAddress(0x1000);
    f.reth.SetRkey(0xAB);
    f.reth.SetDmaLength(length);
    f.aeth.SetAck();
    f.aeth.SetMsn(5);
    f.payload = Create<Packet>(length);
    return f;
}

/// AppendZeros(Compute(head), n) == Compute(head followed by n zeros).
class AppendZerosTestCase : public TestCase
{
  public:
    AppendZerosTestCase()
        : TestCase("ICRC extended over n zero bytes equals the ICRC over every byte")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrame f = MakeFrame(RC_ACKNOWLEDGE, 0, false);
        std::vector<uint8_t> head = Bytes(f.BuildIpPacket());
        head.resize(head.size() - IcrcTrailer::SIZE); // IP .. AETH
        for (uint32_t n : {0U, 1U, 3U, 4U, 256U, 1024U, 1027U, 4096U, 9000U})
        {
            std::vector<uint8_t> all = head;
            all.resize(head.size() + n, 0);
            const uint32_t slow = IcrcTrailer::Compute(IcrcTrailer::IPV4, all.data(), all.size());
            const uint32_t head0 =
                IcrcTrailer::Compute(IcrcTrailer::IPV4, head.data(), head.size());
            NS_TEST_EXPECT_MSG_EQ(IcrcTrailer::AppendZeros(head0, n), slow, n << " zeros");
            // Twice: the second comes from the kept operator.
            NS_TEST_EXPECT_MSG_EQ(IcrcTrailer::AppendZeros(head0, n), slow, n << " zeros again");
        }
    }
};

/// A payloadZeros frame is byte-identical to one built from real zero bytes.
class ZeroPayloadBuildTestCase : public TestCase
{
  public:
    ZeroPayloadBuildTestCase()
        : TestCase("Frames from a zero payload equal frames from real zero bytes, ICRC included")
    {
    }

  private:
    void DoRun() override
    {
        for (bool ipv6 : {false, true})
        {
            for (uint8_t op : {uint8_t(RC_RDMA_WRITE_ONLY),
                               uint8_t(RC_SEND_ONLY),
                               uint8_t(RC_RDMA_READ_RESPONSE_ONLY),
                               uint8_t(RC_ACKNOWLEDGE)})
            {
                for (uint32_t len : {0U, 1U, 1021U, 1024U})
                {
                    RoceFrame fast = MakeFrame(op, len, ipv6);
                    fast.payloadZeros = true;
                    RoceFrame slow = MakeFrame(op, len, ipv6);
                    std::vector<uint8_t> zeros(len, 0);
                    slow.payload = Create<Packet>(zeros.data(), len); // real bytes
                    slow.payloadZeros = false;
                    const std::vector<uint8_t> a = Bytes(fast.BuildEthernetFrame());
                    const std::vector<uint8_t> b = Bytes(slow.BuildEthernetFrame());
                    NS_TEST_EXPECT_MSG_EQ((a == b),
                                          true,
                                          "opcode " << +op << " length " << len << " ipv6 "
                                                    << ipv6);
                    NS_TEST_EXPECT_MSG_EQ(fast.icrc, slow.icrc, "ICRC, opcode " << +op);
                    RoceFrame back;
                    NS_TEST_EXPECT_MSG_EQ(
                        RoceFrame::ParseEthernetFrame(fast.BuildEthernetFrame(), back, true),
                        RoceFrame::OK,
                        "the fast frame passes the ICRC check, opcode " << +op);
                }
            }
        }
    }
};

/// Parsing without the ICRC check reads the same fields and payload.
class HeadOnlyParseTestCase : public TestCase
{
  public:
    HeadOnlyParseTestCase()
        : TestCase("A parse without the ICRC check reads the same fields and payload bytes")
    {
    }

  private:
    void Check(Ptr<Packet> frame, const std::string& what)
    {
        RoceFrame full;
        RoceFrame head;
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(frame, full, true),
                              RoceFrame::OK,
                              what);
        NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(frame, head, false),
                              RoceFrame::OK,
                              what);
        NS_TEST_EXPECT_MSG_EQ(head.icrc, full.icrc, what << ": ICRC field");
        NS_TEST_EXPECT_MSG_EQ(head.bth.GetPsn(), full.bth.GetPsn(), what << ": PSN");
        NS_TEST_EXPECT_MSG_EQ(+head.bth.GetOpcode(), +full.bth.GetOpcode(), what);
        NS_TEST_EXPECT_MSG_EQ(head.bth.GetPadCnt(), full.bth.GetPadCnt(), what << ": pad");
        NS_TEST_EXPECT_MSG_EQ(head.reth.GetRkey(), full.reth.GetRkey(), what << ": rkey");
        NS_TEST_EXPECT_MSG_EQ(head.aeth.GetMsn(), full.aeth.GetMsn(), what << ": MSN");
        NS_TEST_EXPECT_MSG_EQ(head.dstIpv4, full.dstIpv4, what << ": destination");
        NS_TEST_EXPECT_MSG_EQ(+head.dscp, +full.dscp, what << ": DSCP");
        NS_TEST_EXPECT_MSG_EQ(head.udpSrcPort, full.udpSrcPort, what << ": UDP source port");
        NS_TEST_EXPECT_MSG_EQ(head.hasVlan, full.hasVlan, what << ": tag");
        NS_TEST_EXPECT_MSG_EQ(bool(head.payload), bool(full.payload), what << ": payload");
        if (head.payload && full.payload)
        {
            NS_TEST_EXPECT_MSG_EQ(
                (Bytes(head.payload.ToPacket()) == Bytes(full.payload.ToPacket())),
                true,
                what << ": payload bytes");
        }
    }

    void DoRun() override
    {
        std::vector<uint8_t> data(1021);
        for (std::size_t i = 0; i < data.size(); ++i)
        {
            data[i] = static_cast<uint8_t>(i * 7 + 1);
        }
        RoceFrame w = MakeFrame(RC_RDMA_WRITE_ONLY, 1021, false);
        w.payload = Create<Packet>(data.data(), data.size());
        Check(w.BuildEthernetFrame(), "WRITE of 1021 real bytes");
        w.hasVlan = true;
        w.vlan.SetPcp(3);
        Check(w.BuildEthernetFrame(), "tagged WRITE");
        RoceFrame r = MakeFrame(RC_RDMA_READ_RESPONSE_ONLY, 3, true);
        r.payload = Create<Packet>(data.data(), 3);
        Check(r.BuildEthernetFrame(), "IPv6 READ response of 3 bytes");
        // An ACK padded to the Ethernet minimum: the ICRC is not the last four bytes.
        Ptr<Packet> ack = MakeFrame(RC_ACKNOWLEDGE, 0, false).BuildEthernetFrame();
        ack->AddAtEnd(Create<Packet>(8));
        Check(ack, "ACK with 8 bytes of Ethernet padding");
    }
};

/// INT in and out on the head alone gives back the frame.
class IntRoundTripTestCase : public TestCase
{
  public:
    IntRoundTripTestCase()
        : TestCase("INT header inserted and stripped on the head alone restores every byte; "
                   "a parse that skips it in place reads the same fields")
    {
    }

  private:
    void DoRun() override
    {
        for (bool vlan : {false, true})
        {
            RoceFrame f = MakeFrame(RC_RDMA_WRITE_ONLY, 1024, false);
            f.payloadZeros = true;
            f.hasVlan = vlan;
            Ptr<Packet> original = f.BuildEthernetFrame();
            const std::vector<uint8_t> before = Bytes(original);
            Ptr<Packet> frame = original;
            IntHeader hdr;
            hdr.PushHop(DataRate("100Gbps"), MicroSeconds(3), 12345, 800); // one hop so far (qlen in 80-byte units)
            RdmaIntCodec::Insert(frame, hdr, IntHeader::UDP_PORT);
            NS_TEST_EXPECT_MSG_EQ(frame->GetSize(),
                                  before.size() + IntHeader::SIZE,
                                  "the INT header is in");
            NS_TEST_EXPECT_MSG_EQ((Bytes(original) == before), true, "the original is untouched");
            Ptr<Packet> fresh = f.BuildEthernetFrame(); // as a NIC does: nobody else holds it
            RdmaIntCodec::InsertInPlace(fresh, hdr, IntHeader::UDP_PORT);
            NS_TEST_EXPECT_MSG_EQ((Bytes(fresh) == Bytes(frame)), true, "in place: the same bytes");
            NS_TEST_EXPECT_MSG_EQ((Bytes(f.BuildEthernetFrame(hdr, IntHeader::UDP_PORT)) ==
                                   Bytes(frame)),
                                  true,
                                  "built with it: the same bytes");
            // Read in place: the fields of the frame without it, and the header.
            RoceFrame inPlace;
            IntHeader read;
            bool hasInt = false;
            NS_TEST_ASSERT_MSG_EQ(
                RoceFrame::ParseEthernetFrameWithInt(frame, inPlace, read, hasInt),
                RoceFrame::OK,
                "parsed with the INT header in place");
            NS_TEST_EXPECT_MSG_EQ(hasInt, true, "INT header found");
            NS_TEST_EXPECT_MSG_EQ(read.GetNHops(), 1, "hop count read in place");
            NS_TEST_EXPECT_MSG_EQ(read.GetHop(0).GetQlenBytes(), 800, "hop record read in place");
            IntHeader back;
            NS_TEST_ASSERT_MSG_EQ(RdmaIntCodec::Strip(frame, back), true, "stripped");
            NS_TEST_EXPECT_MSG_EQ(back.GetNHops(), 1, "hop count carried");
            NS_TEST_EXPECT_MSG_EQ(back.GetHop(0).GetQlenBytes(), 800, "the hop record carried");
            NS_TEST_EXPECT_MSG_EQ((Bytes(frame) == before), true, "every byte restored");
            RoceFrame parsed;
            NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseEthernetFrame(frame, parsed, true),
                                  RoceFrame::OK,
                                  "the ICRC still holds");
            NS_TEST_EXPECT_MSG_EQ(inPlace.bth.GetPsn(), parsed.bth.GetPsn(), "PSN");
            NS_TEST_EXPECT_MSG_EQ(inPlace.reth.GetDmaLength(), parsed.reth.GetDmaLength(), "RETH");
            NS_TEST_EXPECT_MSG_EQ(inPlace.hasVlan, vlan, "tag");
            NS_TEST_EXPECT_MSG_EQ(inPlace.ecn, parsed.ecn, "ECN");
            NS_TEST_EXPECT_MSG_EQ(inPlace.icrc, parsed.icrc, "ICRC read past the INT header");
            NS_TEST_EXPECT_MSG_EQ(
                (Bytes(inPlace.payload.ToPacket()) == Bytes(parsed.payload.ToPacket())),
                true,
                "payload read past the INT header");
            NS_TEST_EXPECT_MSG_EQ(inPlace.payload->GetSize(), 1024, "payload length");
            // A frame without INT header parses as ParseEthernetFrame does.
            hasInt = true;
            NS_TEST_EXPECT_MSG_EQ(
                RoceFrame::ParseEthernetFrameWithInt(frame, inPlace, read, hasInt),
                RoceFrame::OK,
                "no INT header");
            NS_TEST_EXPECT_MSG_EQ(hasInt, false, "none found");
            NS_TEST_EXPECT_MSG_EQ(inPlace.icrc, parsed.icrc, "ICRC without INT header");
        }
    }
};

/// RdmaDeadlineTimer: the callback at the last deadline, few events.
/// A frame built with the ICRC off is the usual frame with a zero ICRC.
class IcrcOffTestCase : public TestCase
{
  public:
    IcrcOffTestCase()
        : TestCase("With the ICRC off, frames carry 0 in its place and parse without the check")
    {
    }

  private:
    void DoRun() override
    {
        const uint8_t opcodes[] = {RC_RDMA_WRITE_ONLY, RC_ACKNOWLEDGE};
        for (uint8_t opcode : opcodes)
        {
            for (bool ipv6 : {false, true})
            {
                RoceFrame f = MakeFrame(opcode, opcode == RC_ACKNOWLEDGE ? 0 : 1021, ipv6);
                const std::vector<uint8_t> with = Bytes(f.BuildEthernetFrame());
                const uint32_t icrc = f.icrc;
                f.computeIcrc = false;
                Ptr<Packet> frame = f.BuildEthernetFrame();
                const std::vector<uint8_t> without = Bytes(frame);
                NS_TEST_ASSERT_MSG_EQ(without.size(), with.size(), "same length");
                NS_TEST_EXPECT_MSG_NE(icrc, 0U, "the usual frame has a real ICRC");
                NS_TEST_EXPECT_MSG_EQ(f.icrc, 0U, "builder's icrc field");
                const std::size_t end = with.size() - IcrcTrailer::SIZE;
                NS_TEST_EXPECT_MSG_EQ((std::vector<uint8_t>(with.begin(), with.begin() + end) ==
                                       std::vector<uint8_t>(without.begin(), without.begin() + end)),
                                      true,
                                      "bytes before the ICRC");
                NS_TEST_EXPECT_MSG_EQ((std::vector<uint8_t>(without.begin() + end, without.end()) ==
                                       std::vector<uint8_t>(IcrcTrailer::SIZE, 0)),
                                      true,
                                      "ICRC bytes are zero");
                RoceFrame back;
                NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseEthernetFrame(frame, back, false),
                                      RoceFrame::OK,
                                      "header-only parse");
                NS_TEST_EXPECT_MSG_EQ(back.bth.GetPsn(), 0xFFFFFEU, "PSN read back");
                NS_TEST_EXPECT_MSG_EQ(back.icrc, 0U, "icrc field of the parse");
                NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseEthernetFrame(frame, back, true),
                                      RoceFrame::BAD_ICRC,
                                      "the check still computes the CRC");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(RoceFrame().computeIcrc, true, "a frame computes its ICRC by default");
    }
};

class DeadlineTimerTestCase : public TestCase
{
  public:
    DeadlineTimerTestCase()
        : TestCase("Deadline timer fires at the last deadline with one event for many restarts")
    {
    }

  private:
    std::vector<Time> m_fired; //!< when the callback ran

    void Expired()
    {
        m_fired.push_back(Simulator::Now());
    }

    void DoRun() override
    {
        RdmaDeadlineTimer timer;
        timer.SetFunction(MakeCallback(&DeadlineTimerTestCase::Expired, this));
        // 1000 restarts, one every 10 ns, each for 1 ms: as ACKs restart
        // the local ACK timer. The deadline is the last restart + 1 ms.
        for (int i = 0; i < 1000; ++i)
        {
            Simulator::Schedule(NanoSeconds(10 * i), &RdmaDeadlineTimer::Restart, &timer,
                                MilliSeconds(1));
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_fired.size(), 1, "fired once");
        NS_TEST_EXPECT_MSG_EQ(m_fired[0], NanoSeconds(9990) + MilliSeconds(1), "at the deadline");
        // 1000 restart events + the first expiry + its one re-arm.
        NS_TEST_EXPECT_MSG_EQ(Simulator::GetEventCount(), 1002, "one pending event at a time");
        Simulator::Destroy();

        // Cancelled: never fires; an earlier deadline fires early.
        m_fired.clear();
        RdmaDeadlineTimer t2;
        t2.SetFunction(MakeCallback(&DeadlineTimerTestCase::Expired, this));
        t2.Restart(MicroSeconds(5));
        t2.Cancel();
        NS_TEST_EXPECT_MSG_EQ(t2.IsRunning(), false, "cancelled");
        RdmaDeadlineTimer t3;
        t3.SetFunction(MakeCallback(&DeadlineTimerTestCase::Expired, this));
        t3.Restart(MicroSeconds(50));
        Simulator::Schedule(MicroSeconds(1), &RdmaDeadlineTimer::Restart, &t3, MicroSeconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_fired.size(), 1, "only t3 fired");
        NS_TEST_EXPECT_MSG_EQ(m_fired[0], MicroSeconds(3), "at the earlier deadline");
        Simulator::Destroy();
    }
};

/// The fast-path suite.
class RdmaFastPathTestSuite : public TestSuite
{
  public:
    RdmaFastPathTestSuite()
        : TestSuite("rdma-fast-path", UNIT)
    {
        AddTestCase(new AppendZerosTestCase, TestCase::QUICK);
        AddTestCase(new ZeroPayloadBuildTestCase, TestCase::QUICK);
        AddTestCase(new HeadOnlyParseTestCase, TestCase::QUICK);
        AddTestCase(new IntRoundTripTestCase, TestCase::QUICK);
        AddTestCase(new IcrcOffTestCase, TestCase::QUICK);
        AddTestCase(new DeadlineTimerTestCase, TestCase::QUICK);
    }
};

RdmaFastPathTestSuite g_rdmaFastPathTestSuite; //!< static instance

} // namespace
