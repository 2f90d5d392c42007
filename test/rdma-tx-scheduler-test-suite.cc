/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The NIC's transmit scheduler and its congestion-control wiring, on two
 * hosts back to back (no switch): pacing gaps, the window limit, round
 * robin against deficit round robin, RTT samples, and the notification
 * point (CNPs for CE-marked packets, at most one per QP per interval).
 */

#include "rdma-test-hosts.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Start time and frame of every frame a device starts to send.
struct TxLog
{
    std::vector<Time> t;         //!< start times
    std::vector<RoceFrame> f;    //!< parsed frames
    std::vector<uint32_t> bytes; //!< frame bytes

    /// PhyTxBegin sink.
    void Tx(Ptr<const Packet> p)
    {
        RoceFrame fr;
        if (RoceFrame::ParseEthernetFrame(p, fr, false) != RoceFrame::OK)
        {
            return;
        }
        t.push_back(Simulator::Now());
        f.push_back(fr);
        bytes.push_back(p->GetSize());
    }

    /// Connect to a device.
    void Attach(Ptr<NetDevice> dev)
    {
        dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&TxLog::Tx, this));
    }
};

/// \return InitAttr for another QP on A and one on B (their PDs and CQs)
std::pair<RdmaQueuePair::InitAttr, RdmaQueuePair::InitAttr>
MoreQpAttrs(const TwoHosts& h)
{
    RdmaQueuePair::InitAttr ia;
    ia.pd = h.pdA;
    ia.sendCq = ia.recvCq = h.cqA;
    RdmaQueuePair::InitAttr ib = ia;
    ib.pd = h.pdB;
    ib.sendCq = ib.recvCq = h.cqB;
    return {ia, ib};
}

/// Post one WRITE of `len` bytes on A and run until it completes.
void
WarmUp(TwoHosts& h)
{
    RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 1024);
    w.remoteAddr = TwoHosts::VA_B;
    h.qpA->PostSend(w);
    Simulator::Run();
}

/// A QP at rate R sends its packets b x 8 / R apart (the pacing rule).
class PacingTestCase : public TestCase
{
  public:
    PacingTestCase()
        : TestCase("pacing: a QP at 10 Gbps on a 100 Gbps port starts each packet "
                   "bytes x 8 over 10 Gbps after the previous one")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        TwoHosts h(o);
        WarmUp(h);
        Ptr<RdmaQpCc> cc = h.nicA->GetQpCc(h.qpA->GetQpn());
        const DataRate rate("10Gbps");
        cc->GetState()->m_rate = rate; // RdmaNoCc leaves it alone from now on
        TxLog log;
        log.Attach(h.devices.Get(0));
        uint64_t timerBefore = h.nicA->GetTxScheduler()->GetTimerExpiries();
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 2, TwoHosts::VA_A, 64 * 1024);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 2, "both WRITEs completed");
        NS_TEST_ASSERT_MSG_EQ(log.t.size(), 64, "64 packets of 1024 bytes");
        for (std::size_t i = 1; i < log.t.size(); ++i)
        {
            double expectNs = log.bytes[i - 1] * 8.0 / rate.GetBitRate() * 1e9;
            double gapNs = (log.t[i] - log.t[i - 1]).GetNanoSeconds();
            NS_TEST_ASSERT_MSG_EQ_TOL(gapNs, expectNs, 1.0, "gap after packet " << i - 1);
        }
        // One timer expiry per paced packet after the first, not more.
        uint64_t timers = h.nicA->GetTxScheduler()->GetTimerExpiries() - timerBefore;
        NS_TEST_ASSERT_MSG_EQ(timers, 63, "one pacing timer per paced packet");
        Simulator::Destroy();
    }
};

/// The window caps the bytes in flight, and throughput follows window / RTT.
class WindowTestCase : public TestCase
{
  public:
    /// \param wholePacket RdmaCcState::m_wholePacketWindow: a packet starts
    ///        only if all of it fits (UE 1.0's NSCC), else while any of the
    ///        window is left (the HPCC simulator's rule)
    explicit WindowTestCase(bool wholePacket)
        : TestCase(wholePacket ? "whole-packet window (NSCC): bytes in flight never exceed the "
                                 "window; throughput = window per RTT"
                               : "window: bytes in flight never exceed the window plus one "
                                 "frame; throughput = window per RTT"),
          m_wholePacket(wholePacket)
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        o.delay = MicroSeconds(5); // BDP at 100 Gb/s: ~125 KB, far above the window
        TwoHosts h(o);
        h.qpA->SetAttribute("AckReqInterval", UintegerValue(1));
        WarmUp(h);
        Ptr<RdmaQpCc> cc = h.nicA->GetQpCc(h.qpA->GetQpn());
        Ptr<RdmaCcState> st = cc->GetState();
        // Eight frames and a half: the ninth would start below the window
        // and end past it.
        const uint64_t window = 8 * st->m_mtu + st->m_mtu / 2;
        st->m_window = window;
        st->m_wholePacketWindow = m_wholePacket;
        Time rtt = st->m_minRtt;
        uint64_t maxInFlight = 0;
        TxLog log;
        log.Attach(h.devices.Get(0));
        h.devices.Get(0)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(+[](Ptr<RdmaCcState> s, uint64_t* mx, Ptr<const Packet>) {
                *mx = std::max(*mx, s->m_bytesInFlight);
            }).Bind(st, &maxInFlight));
        const uint32_t len = 512 * 1024;
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 2, TwoHosts::VA_A, len);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Time start = Simulator::Now();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 2, "both WRITEs completed");
        NS_TEST_ASSERT_MSG_EQ(h.qpA->GetStats().timeouts, 0, "no ACK timeout");
        // A window carries 8 whole frames, or 9 when the last may cross it
        // (a WRITE's first frame is 16 bytes longer: its RETH).
        const uint64_t frames = m_wholePacket ? 8 : 9;
        NS_TEST_ASSERT_MSG_EQ(maxInFlight / st->m_mtu, frames, "frames in flight at most");
        const uint64_t bound = m_wholePacket ? window : window - 1 + st->m_mtu + 16;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(maxInFlight, bound, "window respected");
        const uint64_t carried = frames * st->m_mtu;
        // One window's frames per RTT: len / (carried / RTT), within 10 %
        // (the first and last windows, ACK serialization).
        double expect = double(len) / carried * rtt.GetSeconds();
        double took = (log.t.back() - start).GetSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(took, expect, expect * 0.1, "window-limited transfer time");
        Simulator::Destroy();
    }

    bool m_wholePacket; //!< the window rule under test
};

/// RTT samples come from the send time of the packet an ACK answers.
class RttSampleTestCase : public TestCase
{
  public:
    RttSampleTestCase()
        : TestCase("RTT sample = data wire time + ACK wire time + 2 x link delay")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        TwoHosts h(o);
        WarmUp(h);
        Ptr<RdmaCcState> st = h.nicA->GetQpCc(h.qpA->GetQpn())->GetState();
        // A WRITE_ONLY of 1024 B: frame 14+20+8+12+16+1024+4 = 1098 B; the
        // ACK 14+20+8+12+4+4 = 62 B; each + 24 B of FCS, preamble, IFG.
        double dataNs = (1098 + 24) * 8 / 100.0;
        double ackNs = (62 + 24) * 8 / 100.0;
        double expect = dataNs + ackNs + 2 * 1000.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(st->m_minRtt.GetNanoSeconds(), expect, 1.0, "RTT sample");
        NS_TEST_ASSERT_MSG_EQ(h.nicA->GetQpCc(h.qpA->GetQpn())->GetStats().rttSamples,
                              1,
                              "one ACK, one sample");
        Simulator::Destroy();
    }
};

/// DCQCN reads no ACK clock: its QPs keep no record per packet sent
/// (RdmaCongestionOps::NeedsSendRecords), unless a window is set.
class NoSendRecordsTestCase : public TestCase
{
  public:
    NoSendRecordsTestCase()
        : TestCase("DCQCN keeps no per-packet send record (no RTT sample, no bytes in "
                   "flight) unless its QP is given a window")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        o.congestionControl.SetTypeId("ns3::RdmaDcqcn");
        TwoHosts h(o);
        Ptr<RdmaQpCc> cc = h.nicA->GetQpCc(h.qpA->GetQpn());
        NS_TEST_ASSERT_MSG_EQ(cc->GetCongestionOps()->NeedsSendRecords(), false, "DCQCN");
        // 64 packets of 1024 B at line rate: mid-transfer a window algorithm
        // would count tens of KB in flight; DCQCN's state counts nothing.
        uint64_t maxInFlight = 0;
        Ptr<RdmaCcState> st = cc->GetState();
        h.devices.Get(0)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(+[](Ptr<RdmaCcState> s, uint64_t* mx, Ptr<const Packet>) {
                *mx = std::max(*mx, s->m_bytesInFlight);
            }).Bind(st, &maxInFlight));
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 64 * 1024);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 1, "the WRITE completed");
        NS_TEST_ASSERT_MSG_EQ(maxInFlight, 0, "no bytes in flight kept");
        NS_TEST_ASSERT_MSG_EQ(cc->GetStats().rttSamples, 0, "no RTT sample");
        NS_TEST_ASSERT_MSG_EQ(st->m_minRtt.IsZero(), true, "no minimum RTT");
        // With a window the records are kept, so the window can close.
        st->m_window = 8 * 1024;
        w.wrId = 2;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 2, "the second completed");
        NS_TEST_ASSERT_MSG_GT(maxInFlight, 0, "bytes in flight counted under a window");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(maxInFlight, 8 * 1024 - 1 + 1200, "and the window holds");
        NS_TEST_ASSERT_MSG_GT(cc->GetStats().rttSamples, 0, "RTT samples taken");
        Simulator::Destroy();
    }
};

/// Round robin shares packets, deficit round robin shares bytes.
class ArbitrationTestCase : public TestCase
{
  public:
    /// \param drr deficit round robin instead of round robin
    explicit ArbitrationTestCase(bool drr)
        : TestCase(drr ? "deficit round robin: QPs with 1024 B and 256 B packets get equal "
                         "bytes (within 5 %)"
                       : "round robin: QPs with 1024 B and 256 B packets get equal packets"),
          m_drr(drr)
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        TwoHosts h(o);
        if (m_drr)
        {
            h.nicA->GetTxScheduler()->SetAttribute("Mode",
                                                   EnumValue(RdmaTxScheduler::DEFICIT_ROUND_ROBIN));
        }
        // A second QP pair with a 256-byte path MTU.
        const auto [ia, ib] = MoreQpAttrs(h);
        Ptr<RdmaQueuePair> qpA2 = h.nicA->CreateQp(ia);
        Ptr<RdmaQueuePair> qpB2 = h.nicB->CreateQp(ib);
        RdmaConnectionConfig c;
        c.pathMtu = IBV_MTU_256;
        NS_TEST_ASSERT_MSG_EQ(RdmaHelper::Connect(qpA2, h.nicA, qpB2, h.nicB, c), 0, "connect");
        std::map<uint32_t, uint64_t> bytes;
        std::map<uint32_t, uint64_t> packets;
        Time stopAt = MicroSeconds(20); // both QPs backlogged until then
        h.devices.Get(0)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(+[](std::map<uint32_t, uint64_t>* b,
                             std::map<uint32_t, uint64_t>* n,
                             Time stop,
                             Ptr<const Packet> p) {
                RoceFrame f;
                if (Simulator::Now() < stop &&
                    RoceFrame::ParseEthernetFrame(p, f, false) == RoceFrame::OK)
                {
                    (*b)[f.bth.GetDestQp()] += p->GetSize();
                    ++(*n)[f.bth.GetDestQp()];
                }
            }).Bind(&bytes, &packets, stopAt));
        for (Ptr<RdmaQueuePair> qp : {h.qpA, qpA2})
        {
            RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 512 * 1024);
            w.remoteAddr = TwoHosts::VA_B;
            qp->PostSend(w);
        }
        Simulator::Stop(stopAt);
        Simulator::Run();
        uint32_t q1 = h.qpB->GetQpn();
        uint32_t q2 = qpB2->GetQpn();
        if (m_drr)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(double(bytes[q1]) / bytes[q2], 1.0, 0.05, "equal bytes");
        }
        else
        {
            // Equal within 2: the first QP's first packet starts before the
            // second QP is posted, and the cut at stopAt may fall mid-turn.
            NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(int64_t(packets[q1]) - int64_t(packets[q2])),
                                        2,
                                        "equal packets");
            NS_TEST_ASSERT_MSG_GT(double(bytes[q1]) / bytes[q2], 3.0, "so unequal bytes");
        }
        Simulator::Destroy();
    }

    bool m_drr; //!< DRR instead of RR
};

/**
 * ResponsesFirst: B sends WRITEs to A on four QPs (its port always busy)
 * while A writes to B; B's ACKs to A wait for its round robin over five QPs
 * (up to four data frames), or, with ResponsesFirst (the HPCC simulator's
 * host ACK queue), only for the frame on the wire.
 */
class ResponsesFirstTestCase : public TestCase
{
  public:
    /// \param first ResponsesFirst on B
    explicit ResponsesFirstTestCase(bool first)
        : TestCase(first ? "ResponsesFirst: an ACK waits at most for the frame on the wire"
                         : "round robin: an ACK waits for the other QPs' turns"),
          m_first(first)
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        TwoHosts h(o);
        h.nicB->GetTxScheduler()->SetAttribute("ResponsesFirst", BooleanValue(m_first));
        h.qpA->SetAttribute("AckReqInterval", UintegerValue(1)); // an ACK per packet
        const auto [ia, ib] = MoreQpAttrs(h);
        std::vector<Ptr<RdmaQueuePair>> senders;
        for (int i = 0; i < 4; ++i)
        {
            Ptr<RdmaQueuePair> a = h.nicA->CreateQp(ia);
            Ptr<RdmaQueuePair> b = h.nicB->CreateQp(ib);
            NS_TEST_ASSERT_MSG_EQ(RdmaHelper::Connect(b, h.nicB, a, h.nicA, {}), 0, "connect");
            senders.push_back(b);
        }
        // When each PSN of A's WRITE reached B, and when B's ACKs left.
        std::map<uint32_t, Time> arrived;
        std::vector<std::pair<uint32_t, Time>> acks;
        const uint32_t qpnB = h.qpB->GetQpn();
        const uint32_t qpnA = h.qpA->GetQpn();
        h.devices.Get(1)->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeCallback(+[](std::map<uint32_t, Time>* m, uint32_t qpn, Ptr<const Packet> p) {
                RoceFrame f;
                if (RoceFrame::ParseEthernetFrame(p, f, false) == RoceFrame::OK &&
                    f.bth.GetDestQp() == qpn)
                {
                    (*m)[f.bth.GetPsn()] = Simulator::Now();
                }
            }).Bind(&arrived, qpnB));
        h.devices.Get(1)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(+[](std::vector<std::pair<uint32_t, Time>>* v,
                             uint32_t qpn,
                             Ptr<const Packet> p) {
                RoceFrame f;
                if (RoceFrame::ParseEthernetFrame(p, f, false) == RoceFrame::OK &&
                    f.bth.GetOpcode() == RC_ACKNOWLEDGE && f.bth.GetDestQp() == qpn)
                {
                    v->emplace_back(f.bth.GetPsn(), Simulator::Now());
                }
            }).Bind(&acks, qpnA));
        for (Ptr<RdmaQueuePair> qp : senders)
        {
            RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 2, TwoHosts::VA_B, 256 * 1024);
            w.remoteAddr = TwoHosts::VA_A;
            qp->PostSend(w);
        }
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 64 * 1024);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(acks.size(), 10, "B acknowledged A's WRITE");
        // A full data frame's wire time on B's port (1024 B payload, headers,
        // and the 802.3 preamble, FCS and gap).
        DataRateValue rate;
        h.devices.Get(1)->GetAttribute("DataRate", rate);
        const Time frame = rate.Get().CalculateBytesTxTime(1024 + 100);
        Time worst;
        for (const auto& [psn, t] : acks)
        {
            auto it = arrived.find(psn);
            NS_TEST_ASSERT_MSG_EQ((it != arrived.end()), true, "the ACKed PSN arrived");
            worst = std::max(worst, t - it->second);
        }
        if (m_first)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(worst, frame, "at most the frame on the wire");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(worst, frame * 2, "behind other QPs' frames");
        }
        Simulator::Destroy();
    }

    bool m_first; //!< ResponsesFirst
};

/**
 * The notification point: A sends every packet CE-marked (Ecn = 3); B sends
 * a RoCEv2 CNP (opcode 0x81, DestQP = A's QP, DSCP CnpPriority x 8) at most
 * once per MinTimeBetweenCnps (50 us, DCQCN's N), and A's DCQCN cuts its
 * rate once per CNP (no RateReduceMonitorPeriod in the paper's defaults).
 */
class CnpTestCase : public TestCase
{
  public:
    CnpTestCase()
        : TestCase("notification point: CE-marked data gets one CNP per QP per 50 us, "
                   "each CNP one DCQCN rate cut")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        o.ecn = 3;
        o.congestionControl.SetTypeId("ns3::RdmaDcqcn");
        TwoHosts h(o);
        TxLog cnps;
        cnps.Attach(h.devices.Get(1));
        std::vector<Time> arrivals; // data packets arriving at B
        h.devices.Get(1)->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeCallback(+[](std::vector<Time>* a, Ptr<const Packet>) {
                a->push_back(Simulator::Now());
            }).Bind(&arrivals));
        uint64_t minRate = DataRate("100Gbps").GetBitRate();
        h.nicA->GetQpCc(h.qpA->GetQpn())
            ->GetState()
            ->TraceConnectWithoutContext("Rate",
                                         MakeCallback(+[](uint64_t* m, DataRate, DataRate r) {
                                             *m = std::min(*m, r.GetBitRate());
                                         }).Bind(&minRate));
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 1 << 20);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 1, "WRITE completed");
        std::vector<Time> cnpTimes;
        for (std::size_t i = 0; i < cnps.f.size(); ++i)
        {
            if (cnps.f[i].bth.GetOpcode() == ROCE_CNP)
            {
                cnpTimes.push_back(cnps.t[i]);
                NS_TEST_ASSERT_MSG_EQ(cnps.f[i].bth.GetDestQp(), h.qpA->GetQpn(), "CNP DestQP");
                NS_TEST_ASSERT_MSG_EQ(+cnps.f[i].dscp, 48, "CNP DSCP = 6 x 8");
                NS_TEST_ASSERT_MSG_EQ(cnps.bytes[i], 14 + 20 + 8 + 12 + 16 + 4, "CNP size");
            }
        }
        Ptr<RdmaQpCc> ccA = h.nicA->GetQpCc(h.qpA->GetQpn());
        Ptr<RdmaQpCc> ccB = h.nicB->GetQpCc(h.qpB->GetQpn());
        auto dcqcn = DynamicCast<RdmaDcqcn>(ccA->GetCongestionOps());
        NS_TEST_ASSERT_MSG_GT(cnpTimes.size(), 2, "several CNPs");
        NS_TEST_ASSERT_MSG_EQ(cnpTimes.size(), h.nicB->GetStats().cnpsSent, "counted");
        NS_TEST_ASSERT_MSG_EQ(h.nicA->GetStats().cnpsReceived, cnpTimes.size(), "all arrived");
        NS_TEST_ASSERT_MSG_EQ(dcqcn->GetDecreaseCount(), cnpTimes.size(), "one cut per CNP");
        NS_TEST_ASSERT_MSG_EQ(ccB->GetCnpGenerator()->GetCeMarkedPackets(),
                              h.qpA->GetStats().packetsSent,
                              "every data packet arrived CE-marked");
        for (std::size_t i = 1; i < cnpTimes.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(cnpTimes[i] - cnpTimes[i - 1],
                                        MicroSeconds(50),
                                        "at most one CNP per 50 us");
        }
        // While data kept arriving marked, the CNP went out with the first
        // marked packet that arrived after the interval (within the ACK B may
        // be serializing then: < 100 ns).
        for (std::size_t i = 1; i < cnpTimes.size(); ++i)
        {
            Time due = cnpTimes[i - 1] + MicroSeconds(50);
            auto it = std::lower_bound(arrivals.begin(), arrivals.end(), due);
            NS_TEST_ASSERT_MSG_EQ((it != arrivals.end()), true, "data after the interval");
            NS_TEST_ASSERT_MSG_LT(cnpTimes[i] - *it, NanoSeconds(100), "CNP with that packet");
        }
        NS_TEST_ASSERT_MSG_LT(minRate, DataRate("50Gbps").GetBitRate(), "the rate was cut");
        Simulator::Destroy();
    }
};

/// The suite.
/**
 * Tenants taking turns (ByTenant). On A, tenant 1 (A's first PD) has one
 * QP and tenant 2 (a second PD) three, all backlogged with 1 KiB packets.
 * QPs taking turns: each of the four sends a quarter of the packets.
 * Tenants taking turns: tenant 1's QP sends half of them and each of
 * tenant 2's a sixth (within 2 packets: the cut may fall mid-round).
 */
class ByTenantTestCase : public TestCase
{
  public:
    /// \param byTenant the ByTenant attribute
    explicit ByTenantTestCase(bool byTenant)
        : TestCase(byTenant ? "tenants take turns: one QP of one tenant sends as many packets "
                              "as three QPs of another"
                            : "QPs take turns: four QPs of two tenants send a quarter each"),
          m_byTenant(byTenant)
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        TwoHosts h(o);
        h.nicA->GetTxScheduler()->SetAttribute("ByTenant", BooleanValue(m_byTenant));
        auto [ia, ib] = MoreQpAttrs(h);
        ia.pd = h.nicA->AllocPd();
        std::vector<Ptr<RdmaQueuePair>> senders{h.qpA};
        std::vector<uint32_t> receivers{h.qpB->GetQpn()};
        for (int i = 0; i < 3; ++i)
        {
            Ptr<RdmaQueuePair> a = h.nicA->CreateQp(ia);
            Ptr<RdmaQueuePair> b = h.nicB->CreateQp(ib);
            NS_TEST_ASSERT_MSG_EQ(RdmaHelper::Connect(a, h.nicA, b, h.nicB), 0, "connect");
            senders.push_back(a);
            receivers.push_back(b->GetQpn());
        }
        std::map<uint32_t, uint64_t> packets;
        Time stopAt = MicroSeconds(20); // every QP backlogged until then
        h.devices.Get(0)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(+[](std::map<uint32_t, uint64_t>* n, Time stop, Ptr<const Packet> p) {
                RoceFrame f;
                if (Simulator::Now() < stop &&
                    RoceFrame::ParseEthernetFrame(p, f, false) == RoceFrame::OK)
                {
                    ++(*n)[f.bth.GetDestQp()];
                }
            }).Bind(&packets, stopAt));
        // Tenant 2's own region, where its QPs read.
        Ptr<RdmaMemoryRegion> mr2 =
            h.nicA->RegMr(ia.pd, TwoHosts::VA_A, h.mrA->GetLength(), IBV_ACCESS_LOCAL_WRITE);
        for (Ptr<RdmaQueuePair> qp : senders)
        {
            RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 512 * 1024);
            w.remoteAddr = TwoHosts::VA_B;
            if (qp != h.qpA)
            {
                w.sgList[0].lkey = mr2->GetLkey();
            }
            qp->PostSend(w);
        }
        Simulator::Stop(stopAt);
        Simulator::Run();
        uint64_t total = 0;
        for (uint32_t q : receivers)
        {
            total += packets[q];
        }
        NS_TEST_ASSERT_MSG_GT(total, 100, "the port was busy");
        for (std::size_t i = 0; i < receivers.size(); ++i)
        {
            double share = m_byTenant ? (i == 0 ? 0.5 : 1.0 / 6) : 0.25;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(std::abs(double(packets[receivers[i]]) - share * total),
                                        2.0,
                                        "QP " << i << "'s packets of " << total);
        }
        Simulator::Destroy();
    }

    bool m_byTenant; //!< tenants take turns
};

class RdmaTxSchedulerTestSuite : public TestSuite
{
  public:
    RdmaTxSchedulerTestSuite()
        : TestSuite("rdma-tx-scheduler", UNIT)
    {
        AddTestCase(new PacingTestCase(), TestCase::QUICK);
        AddTestCase(new WindowTestCase(false), TestCase::QUICK);
        AddTestCase(new WindowTestCase(true), TestCase::QUICK);
        AddTestCase(new RttSampleTestCase(), TestCase::QUICK);
        AddTestCase(new NoSendRecordsTestCase(), TestCase::QUICK);
        AddTestCase(new ArbitrationTestCase(false), TestCase::QUICK);
        AddTestCase(new ArbitrationTestCase(true), TestCase::QUICK);
        AddTestCase(new CnpTestCase(), TestCase::QUICK);
        AddTestCase(new ResponsesFirstTestCase(false), TestCase::QUICK);
        AddTestCase(new ResponsesFirstTestCase(true), TestCase::QUICK);
        AddTestCase(new ByTenantTestCase(false), TestCase::QUICK);
        AddTestCase(new ByTenantTestCase(true), TestCase::QUICK);
    }
};

static RdmaTxSchedulerTestSuite g_rdmaTxSchedulerTestSuite;

} // namespace
