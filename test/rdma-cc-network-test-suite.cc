/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Congestion control in a network: N senders and one receiver on one
 * RdmaSwitch (a star; the switch port to the receiver is the bottleneck),
 * every QP's algorithm chosen with RdmaHelper::SetCongestionControl, the
 * switch marking ECN (DCQCN's congestion point) or stamping INT (HPCC).
 * Measured: the flows' shares (Jain's fairness index), the bottleneck
 * queue against Kmin/Kmax and the PFC threshold, PFC pause frames.
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/pointer.h"
#include "ns3/qbb-helper.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>

using namespace ns3;

namespace
{

/// N senders -> switch -> one receiver, one RC QP pair per sender.
struct Star
{
    /// How to build it.
    struct Options
    {
        uint32_t senders{2};         //!< sending hosts
        std::string rate{"10Gbps"};  //!< every link's rate
        Time delay{MicroSeconds(1)}; //!< every link's delay
        ObjectFactory cc;            //!< CC of every QP; no TypeId = RdmaNoCc
        bool intEnabled{false};      //!< switch stamps INT, NICs carry it
        uint32_t ackReqInterval{64}; //!< QP AckReqInterval
        SwitchEcnParams ecn;         //!< bottleneck ECN; kmax 0 = ForRate default
    };

    NodeContainer hosts;                       //!< senders 0..N-1, receiver N
    Ptr<RdmaSwitch> sw;                        //!< the switch
    std::vector<Ptr<RdmaNic>> nics;            //!< by host
    std::vector<Ptr<RdmaQueuePair>> senderQps; //!< by sender
    std::vector<Ptr<RdmaQueuePair>> recvQps;   //!< receiver's QP of each sender
    std::vector<Ptr<RdmaMemoryRegion>> mrs;    //!< by host
    uint32_t bottleneck{0};                    //!< switch port to the receiver
    std::vector<uint64_t> rxBytes;             //!< frame bytes received per sender
    uint32_t completed{0};                     //!< WRITEs completed

    /// Build the star.
    explicit Star(const Options& o)
    {
        uint32_t n = o.senders;
        hosts.Create(n + 1);
        Ptr<Node> swNode = CreateObject<Node>();
        sw = CreateObject<RdmaSwitch>();
        sw->SetAttribute("IntEnabled", BooleanValue(o.intEnabled));
        swNode->AggregateObject(sw);
        QbbHelper link;
        link.SetDeviceAttribute("DataRate", StringValue(o.rate));
        link.SetQueueAttribute("MaxBytes", UintegerValue(64 * 1024 * 1024));
        link.SetChannelAttribute("Delay", TimeValue(o.delay));
        RdmaHelper rdma;
        if (o.intEnabled)
        {
            rdma.SetNicAttribute("IntEnabled", BooleanValue(true));
        }
        // Empty path: 4 link delays plus a full data frame on 2 links and an
        // ACK on 2, each with 24 bytes of FCS, preamble and IFG (with INT the
        // data frame and the ACK carry the 42-byte IntHeader).
        DataRate rate(o.rate);
        uint32_t intBytes = o.intEnabled ? IntHeader::SIZE : 0;
        uint32_t dataWire = 1024 + RdmaQpCc::FRAME_OVERHEAD_BYTES + intBytes + 24;
        uint32_t ackWire = 14 + 20 + 8 + 12 + 4 + 4 + intBytes + 24;
        Time baseRtt = 4 * o.delay + rate.CalculateBytesTxTime(2 * (dataWire + ackWire));
        rdma.SetNicAttribute("BaseRtt", TimeValue(baseRtt));
        if (o.cc.GetTypeId().GetUid() != 0)
        {
            rdma.SetCongestionControl(o.cc);
        }
        rxBytes.assign(n, 0);
        for (uint32_t i = 0; i <= n; ++i)
        {
            NetDeviceContainer d = link.Install(hosts.Get(i), swNode);
            Ipv4Address addr(0x0a000001 + i);
            nics.push_back(rdma.Install(hosts.Get(i), d.Get(0), addr));
            uint32_t port = sw->AddPort(DynamicCast<QbbNetDevice>(d.Get(1)));
            sw->AddRoute(addr, port);
            if (i == n)
            {
                bottleneck = port;
                d.Get(0)->TraceConnectWithoutContext("PhyRxEnd",
                                                     MakeCallback(&Star::RxFrame, this));
            }
        }
        if (o.ecn.kmaxBytes > 0)
        {
            for (uint8_t c = 0; c < 8; ++c)
            {
                sw->SetEcnParams(bottleneck, c, o.ecn);
            }
        }
        for (uint32_t i = 0; i <= n; ++i)
        {
            Ptr<RdmaProtectionDomain> pd = nics[i]->AllocPd();
            mrs.push_back(nics[i]->RegMr(pd,
                                         0x10000,
                                         1ULL << 30,
                                         IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
            nics[i]->SetQpAttribute("AckReqInterval", UintegerValue(o.ackReqInterval));
        }
        Ptr<RdmaCompletionQueue> rcq = nics[n]->CreateCq(1024);
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<RdmaCompletionQueue> cq = nics[i]->CreateCq(1024);
            cq->SetCompletionCallback(Callback<void, const RdmaWorkCompletion&>(
                [this](const RdmaWorkCompletion&) { ++completed; }));
            RdmaQueuePair::InitAttr a;
            a.pd = mrs[i]->GetPd();
            a.sendCq = a.recvCq = cq;
            RdmaQueuePair::InitAttr b;
            b.pd = mrs[n]->GetPd();
            b.sendCq = b.recvCq = rcq;
            senderQps.push_back(nics[i]->CreateQp(a));
            recvQps.push_back(nics[n]->CreateQp(b));
            RdmaConnectionConfig c;
            c.pathMtu = IBV_MTU_1024;
            RdmaHelper::Connect(senderQps[i], nics[i], recvQps[i], nics[n], c);
        }
    }

    /// Every frame the receiver gets, counted by the sender of its QP.
    void RxFrame(Ptr<const Packet> p)
    {
        RoceFrame f;
        Ptr<Packet> c = p->Copy();
        IntHeader h;
        RdmaIntCodec::Strip(c, h); // INT-carrying frames (HPCC)
        if (RoceFrame::ParseEthernetFrame(c, f, false) != RoceFrame::OK)
        {
            return;
        }
        for (uint32_t i = 0; i < recvQps.size(); ++i)
        {
            if (recvQps[i]->GetQpn() == f.bth.GetDestQp())
            {
                rxBytes[i] += p->GetSize();
            }
        }
    }

    /// Post a WRITE of `bytes` on sender i at time `at`.
    void Write(uint32_t i, uint32_t bytes, Time at)
    {
        RdmaSendWr w;
        w.wrId = i;
        w.opcode = IBV_WR_RDMA_WRITE;
        w.sendFlags = IBV_SEND_SIGNALED;
        w.sgList.push_back({0x10000, bytes, mrs[i]->GetLkey()});
        w.remoteAddr = 0x10000;
        w.rkey = mrs.back()->GetRkey();
        Simulator::Schedule(at, [this, i, w]() { senderQps[i]->PostSend(w); });
    }

    /// \return bytes queued at the bottleneck egress now
    uint64_t BottleneckQueue() const
    {
        return sw->GetPort(bottleneck)->GetTxQueue()->GetBytes();
    }

    /// \return PFC pause frames the switch sent (all ports, all classes)
    uint64_t PausesSent() const
    {
        uint64_t n = 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const auto& st = sw->GetPort(p)->GetPfcController()->GetStats();
            n += std::accumulate(st.pauseTx.begin(), st.pauseTx.end(), uint64_t(0));
        }
        return n;
    }
};

/// Jain's fairness index of x (Jain, Chiu, Hawe 1984): (sum x)^2 / (n sum x^2).
double
Jain(const std::vector<double>& x)
{
    double s = 0;
    double s2 = 0;
    for (double v : x)
    {
        s += v;
        s2 += v * v;
    }
    return s2 > 0 ? s * s / (x.size() * s2) : 0;
}

/**
 * Two long flows on one bottleneck, the second starting 1 ms after the
 * first: over `span` from `settle` after the second start, their shares
 * have a Jain index >= 0.99 and together use >= `minUse` of the link.
 */
class FairnessTestCase : public TestCase
{
  public:
    /// What to run and expect.
    struct Params
    {
        std::string cc;      //!< the algorithm's TypeId name
        Time settle;         //!< from the second flow's start to the measurement
        Time span;           //!< measurement window
        double minUse;       //!< least link use over the window
        bool intEnabled;     //!< INT on (HPCC)
        SwitchEcnParams ecn; //!< the bottleneck's marking (kmax 0 = ForRate)
        std::string rateAi;  //!< HPCC RateAi; empty = the attribute's default
    };

    /// \param p what to run and expect
    explicit FairnessTestCase(const Params& p)
        : TestCase(p.cc + ": two flows on one 10 Gbps bottleneck, Jain index >= 0.99 over " +
                   std::to_string(p.span.GetMilliSeconds()) + " ms from " +
                   std::to_string(p.settle.GetMilliSeconds()) + " ms after the second starts"),
          m_p(p)
    {
    }

  private:
    void DoRun() override
    {
        Star::Options o;
        o.cc.SetTypeId(m_p.cc);
        if (!m_p.rateAi.empty())
        {
            o.cc.Set("RateAi", DataRateValue(DataRate(m_p.rateAi)));
        }
        o.intEnabled = m_p.intEnabled;
        // Rate-based DCQCN needs no ACK clock (rxe's AckReq every 64 packets);
        // window algorithms get an ACK per packet.
        o.ackReqInterval = m_p.cc == "ns3::RdmaDcqcn" ? 64 : 1;
        o.ecn = m_p.ecn;
        Star s(o);
        const Time second = MilliSeconds(1);
        const Time from = second + m_p.settle;
        s.Write(0, 1 << 30, Time(0));
        s.Write(1, 1 << 30, second);
        std::vector<uint64_t> at;
        Simulator::Schedule(from, [&s, &at]() { at = s.rxBytes; });
        Simulator::Stop(from + m_p.span);
        Simulator::Run();
        std::vector<double> x{double(s.rxBytes[0] - at[0]), double(s.rxBytes[1] - at[1])};
        double linkBytes = DataRate(o.rate).GetBitRate() / 8.0 * m_p.span.GetSeconds();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(Jain(x), 0.99, "fair shares " << x[0] << " " << x[1]);
        NS_TEST_ASSERT_MSG_GT_OR_EQ((x[0] + x[1]) / linkBytes, m_p.minUse, "link use");
        NS_TEST_ASSERT_MSG_EQ(s.PausesSent(), 0, "no PFC pause needed");
        Simulator::Destroy();
    }

    Params m_p; //!< the case
};

/**
 * The bottleneck queue under four long flows started together: with DCQCN
 * (paper marking Kmin 5 KB, Kmax 200 KB, Pmax 1 %) it stays below Kmax and
 * no PFC pause is sent, while without congestion control it grows until
 * the switch pauses the senders (the dynamic XOFF threshold, SwitchMmu).
 */
class QueueTestCase : public TestCase
{
  public:
    /// \param cc the algorithm's TypeId name
    explicit QueueTestCase(std::string cc)
        : TestCase(cc + ": bottleneck queue of 4 flows " +
                   (cc == "ns3::RdmaNoCc"
                        ? "grows to the PFC threshold"
                        : "stays between Kmin and Kmax (mean, 95th percentile), no PFC pause")),
          m_cc(cc)
    {
    }

  private:
    void DoRun() override
    {
        Star::Options o;
        o.senders = 4;
        o.cc.SetTypeId(m_cc);
        o.ecn = SwitchEcnParams{5000, 200000, 0.01};
        Star s(o);
        for (uint32_t i = 0; i < o.senders; ++i)
        {
            s.Write(i, 1 << 30, Time(0));
        }
        std::vector<uint64_t> q;
        const Time end = MilliSeconds(10);
        for (Time t = MicroSeconds(10); t < end; t += MicroSeconds(10))
        {
            Simulator::Schedule(t, [&s, &q]() { q.push_back(s.BottleneckQueue()); });
        }
        Simulator::Stop(end);
        Simulator::Run();
        // From 2 ms on (after the start-up transient of four line-rate flows).
        std::vector<uint64_t> tail(q.begin() + 200, q.end());
        double mean = std::accumulate(tail.begin(), tail.end(), 0.0) / tail.size();
        std::sort(tail.begin(), tail.end());
        uint64_t p95 = tail[tail.size() * 95 / 100];
        if (m_cc == "ns3::RdmaNoCc")
        {
            NS_TEST_ASSERT_MSG_GT(s.PausesSent(), 0, "PFC pauses the senders");
            NS_TEST_ASSERT_MSG_GT(mean, 10 * 200000.0, "queue far above Kmax");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(s.PausesSent(), 0, "no PFC pause");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(mean, 5000.0, "mean queue >= Kmin");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(mean, 200000.0, "mean queue <= Kmax");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(p95, 200000, "95th percentile <= Kmax");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(tail.back(), 300000, "peak <= 1.5 Kmax");
        }
        Simulator::Destroy();
    }

    std::string m_cc; //!< algorithm
};

/**
 * HPCC (SIGCOMM 2019) with INT on the switch: two long flows keep the
 * bottleneck queue near zero (mean below 2 full frames, 95th percentile
 * below 10) while using at least eta = 95 % of the link (HPCC's target
 * utilization, rdma-hw.cc TargetUtil 0.95), counted in frame bytes as the
 * switch's INT tx bytes count them. W_AI by the paper's rule (below).
 */
class HpccQueueTestCase : public TestCase
{
  public:
    HpccQueueTestCase()
        : TestCase("ns3::RdmaHpcc: two flows keep the bottleneck queue near zero at >= eta = "
                   "0.95 utilization")
    {
    }

  private:
    void DoRun() override
    {
        Star::Options o;
        o.cc.SetTypeId("ns3::RdmaHpcc");
        o.cc.Set("RateAi", DataRateValue(DataRate("250Mbps"))); // W_init (1 - eta) / N, N = 2
        o.intEnabled = true;
        o.ackReqInterval = 1;
        Star s(o);
        s.Write(0, 1 << 30, Time(0));
        s.Write(1, 1 << 30, Time(0));
        const Time from = MilliSeconds(1);
        const Time end = MilliSeconds(3);
        std::vector<uint64_t> q;
        for (Time t = from; t < end; t += MicroSeconds(5))
        {
            Simulator::Schedule(t, [&s, &q]() { q.push_back(s.BottleneckQueue()); });
        }
        std::vector<uint64_t> at;
        Simulator::Schedule(from, [&s, &at]() { at = s.rxBytes; });
        Simulator::Stop(end);
        Simulator::Run();
        double bytes = double(s.rxBytes[0] - at[0] + s.rxBytes[1] - at[1]);
        double use = bytes / (DataRate(o.rate).GetBitRate() / 8.0 * (end - from).GetSeconds());
        double mean = std::accumulate(q.begin(), q.end(), 0.0) / q.size();
        std::sort(q.begin(), q.end());
        uint64_t p95 = q[q.size() * 95 / 100];
        const double frame = 1024 + 58 + 42;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(use, 0.95, "utilization >= eta");
        NS_TEST_ASSERT_MSG_LT(mean, 2 * frame, "mean queue below 2 frames");
        NS_TEST_ASSERT_MSG_LT(p95, 10 * frame, "95th percentile below 10 frames");
        NS_TEST_ASSERT_MSG_EQ(s.PausesSent(), 0, "no PFC pause");
        Simulator::Destroy();
    }
};

/**
 * A 16-to-1 incast of 1 MB WRITEs at 10 Gb/s: PFC pause frames the switch
 * sends with DCQCN against without congestion control; every WRITE
 * completes either way (PFC keeps the fabric lossless).
 */
class IncastTestCase : public TestCase
{
  public:
    IncastTestCase()
        : TestCase("16-to-1 incast: DCQCN sends far fewer PFC pauses than no CC")
    {
    }

  private:
    /// \return PFC pauses of one run
    uint64_t Run(const std::string& cc)
    {
        Star::Options o;
        o.senders = 16;
        o.cc.SetTypeId(cc);
        o.ecn = SwitchEcnParams{5000, 200000, 0.01};
        Star s(o);
        for (uint32_t i = 0; i < o.senders; ++i)
        {
            s.Write(i, 1000000, Time(0));
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(s.completed, o.senders, cc << ": every WRITE completed");
        uint64_t pauses = s.PausesSent();
        Simulator::Destroy();
        return pauses;
    }

    void DoRun() override
    {
        uint64_t none = Run("ns3::RdmaNoCc");
        uint64_t dcqcn = Run("ns3::RdmaDcqcn");
        NS_TEST_ASSERT_MSG_GT(none, 100, "without CC the switch pauses the senders often");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(dcqcn * 10, none, "DCQCN: at most a tenth of the pauses");
    }
};

/**
 * HPCC (a window CC) with the QP's AckReq only every 64 packets, an 8-to-1
 * incast of 1 MB WRITEs at 10 Gb/s. With AckEveryPacketWithWindow (the
 * default) every request asks for its ACK, as the HPCC simulator ACKs every
 * packet: nearly all of the 8 x 977 packets get AckReq from the congestion
 * control (the QP sets it on about one in 64 itself), every WRITE completes
 * at about line rate and no QP waits for its local ACK timeout. Without it
 * the congestion control only asks on the packets that fill the window
 * (here, with eight windows sharing 10 Gb/s, about 4500 of them).
 * (In the 5 ms HPCC fat-tree run without it, two flows of 3201 stalled:
 * their window shrank below the bytes in flight after the last requested
 * ACK, so nothing outstanding asked for one.)
 */
class HpccAckClockTestCase : public TestCase
{
  public:
    HpccAckClockTestCase()
        : TestCase("ns3::RdmaHpcc: every request packet asks for its ACK (AckEveryPacketWithWindow)")
    {
    }

  private:
    /**
     * Run the incast for 10 ms.
     * \param ackEveryPacket the attribute's value
     * \param completed set to the WRITEs completed by then
     * \param timeouts set to the senders' local ACK timeouts
     * \return requests the senders' congestion control gave AckReq
     */
    uint64_t Run(bool ackEveryPacket, uint32_t& completed, uint64_t& timeouts)
    {
        Config::SetDefault("ns3::RdmaQpCc::AckEveryPacketWithWindow", BooleanValue(ackEveryPacket));
        Star::Options o;
        o.senders = 8;
        o.cc.SetTypeId("ns3::RdmaHpcc");
        o.intEnabled = true;
        o.ackReqInterval = 64;
        Star s(o);
        for (uint32_t i = 0; i < o.senders; ++i)
        {
            s.Write(i, 1000000, MicroSeconds(5 * i));
        }
        // 8 MB at 10 Gb/s is 6.4 ms of line rate, far below the 67 ms ACK timeout.
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        completed = s.completed;
        timeouts = 0;
        uint64_t forced = 0;
        for (uint32_t i = 0; i < o.senders; ++i)
        {
            timeouts += s.senderQps[i]->GetStats().timeouts;
            forced += s.nics[i]->GetQpCc(s.senderQps[i]->GetQpn())->GetStats().ackReqForced;
        }
        Simulator::Destroy();
        Config::Reset();
        return forced;
    }

    void DoRun() override
    {
        const uint64_t packets = 8 * ((1000000 + 1023) / 1024); // 977 each
        uint32_t done = 0;
        uint64_t timeouts = 0;
        const uint64_t on = Run(true, done, timeouts);
        NS_TEST_EXPECT_MSG_EQ(done, 8, "every WRITE completed within 10 ms");
        NS_TEST_EXPECT_MSG_EQ(timeouts, 0, "no local ACK timeout");
        NS_TEST_EXPECT_MSG_GT(on * 100, packets * 95, "AckReq on (nearly) every packet");
        const uint64_t off = Run(false, done, timeouts);
        NS_TEST_EXPECT_MSG_LT(off, on, "without it, only the packets that fill the window");
    }
};

} // namespace

/// The suite.
class RdmaCcNetworkTestSuite : public TestSuite
{
  public:
    RdmaCcNetworkTestSuite()
        : TestSuite("rdma-cc-network", SYSTEM)
    {
        // DCQCN paper (SIGCOMM 2015) marking: Kmin 5 KB, Kmax 200 KB, Pmax 1 %.
        const SwitchEcnParams paper{5000, 200000, 0.01};
        // DCQCN with the paper's RP defaults cuts both flows to ~5 % when the
        // second joins (alpha starts at 1) and climbs back by R_AI = 40 Mb/s
        // per 55 us: the shares are equal at once, the link full again after
        // ~10 ms; over 10 ms of its sawtooth it uses >= 80 %.
        AddTestCase(
            new FairnessTestCase(
                {"ns3::RdmaDcqcn", MilliSeconds(15), MilliSeconds(10), 0.8, false, paper, ""}),
            TestCase::QUICK);
        // HPCC: INT on the switch and the NICs, an ACK per packet; W_AI from
        // the paper's rule W_init (1 - eta) / N with W_init = BDP and N = 2
        // flows, as a rate: 10 Gb/s x 0.05 / 2 = 250 Mb/s (the simulator's
        // default, 4 Mb/s at 10 Gb/s, needs tens of ms to equalize).
        AddTestCase(new FairnessTestCase({"ns3::RdmaHpcc",
                                          MilliSeconds(2),
                                          MilliSeconds(2),
                                          0.9,
                                          true,
                                          SwitchEcnParams(),
                                          "250Mbps"}),
                    TestCase::QUICK);
        AddTestCase(new HpccQueueTestCase(), TestCase::QUICK);
        AddTestCase(new HpccAckClockTestCase(), TestCase::QUICK);
        // DCTCP-style window with BECN as the ECN echo; step marking at K
        // (DCTCP paper, SIGCOMM 2010: K = 65 packets at 10 Gb/s, ~65 KB).
        AddTestCase(new FairnessTestCase({"ns3::RdmaDctcp",
                                          MilliSeconds(8),
                                          MilliSeconds(4),
                                          0.9,
                                          false,
                                          SwitchEcnParams{65000, 65000, 1.0},
                                          ""}),
                    TestCase::QUICK);
        AddTestCase(new QueueTestCase("ns3::RdmaDcqcn"), TestCase::QUICK);
        AddTestCase(new QueueTestCase("ns3::RdmaNoCc"), TestCase::QUICK);
        AddTestCase(new IncastTestCase(), TestCase::QUICK);
    }
};

static RdmaCcNetworkTestSuite g_rdmaCcNetworkTestSuite;
