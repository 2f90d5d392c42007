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
        link.SetDeviceAttribute("TxQueueMaxBytes", UintegerValue(64 * 1024 * 1024));
        link.SetChannelAttribute("Delay", TimeValue(o.delay));
        RdmaHelper rdma;
        if (o.intEnabled)
        {
            rdma.SetNicAttribute("IntEnabled", BooleanValue(true));
        }
        // Empty path: 4 link delays plus a data frame on 2 links and an ACK on 2.
        DataRate rate(o.rate);
        Time baseRtt = 4 * o.delay + rate.CalculateBytesTxTime(2 * (1106 + 86));
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
        if (RoceFrame::ParseEthernetFrame(p, f, false) != RoceFrame::OK)
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
        return sw->GetPort(bottleneck)->GetTxQueueBytes();
    }

    /// \return PFC pause frames the switch sent (all ports, all classes)
    uint64_t PausesSent() const
    {
        uint64_t n = 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const auto& st = sw->GetPort(p)->GetStats();
            n += std::accumulate(st.pfcPauseTx.begin(), st.pfcPauseTx.end(), uint64_t(0));
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
        o.intEnabled = m_p.intEnabled;
        o.ackReqInterval = m_p.intEnabled ? 1 : 64;
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
        AddTestCase(new FairnessTestCase(
                        {"ns3::RdmaDcqcn", MilliSeconds(15), MilliSeconds(10), 0.8, false, paper}),
                    TestCase::QUICK);
    }
};

static RdmaCcNetworkTestSuite g_rdmaCcNetworkTestSuite;
