/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaSwitch units: MMU rules, ECMP spread, RED ECN marking, INT stamping.

#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/qbb-helper.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>
#include <set>

using namespace ns3;

namespace
{

constexpr uint8_t DATA_CLASS = 3; //!< DSCP 26 -> class 3

/// One switch, a source on port 0 and sinks on ports 1..n that keep what they get.
struct RawFabric
{
    Ptr<Node> switchNode;                           //!< the switch's node
    Ptr<RdmaSwitch> sw;                             //!< the switch
    Ptr<QbbNetDevice> src;                          //!< the source's port
    std::vector<Ptr<QbbNetDevice>> sinks;           //!< sink i's port (switch port i + 1)
    std::vector<Ptr<QbbNetDevice>> switchPorts;     //!< switch port i
    std::vector<std::vector<Ptr<Packet>>> received; //!< frames sink i got

    RawFabric(uint32_t nSinks, uint32_t seed)
    {
        switchNode = CreateObject<Node>();
        sw = CreateObject<RdmaSwitch>();
        sw->SetAttribute("EcmpSeed", UintegerValue(seed));
        switchNode->AggregateObject(sw);
        QbbHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetChannelAttribute("Delay", TimeValue(NanoSeconds(1000)));
        received.resize(nSinks);
        for (uint32_t i = 0; i <= nSinks; ++i)
        {
            NetDeviceContainer d = link.Install(CreateObject<Node>(), switchNode);
            auto host = DynamicCast<QbbNetDevice>(d.Get(0));
            switchPorts.push_back(DynamicCast<QbbNetDevice>(d.Get(1)));
            switchPorts.back()->GetTxQueue()->SetAttribute("MaxBytes", UintegerValue(1ULL << 32));
            sw->AddPort(switchPorts.back());
            if (i == 0)
            {
                src = host;
                continue;
            }
            sinks.push_back(host);
            std::vector<Ptr<Packet>>* keep = &received[i - 1];
            host->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback(
                [keep](Ptr<QbbNetDevice>, Ptr<Packet> f) { keep->push_back(f); }));
        }
    }
};

/// A RoCEv2 SEND frame from 10.0.0.1 to dst, DSCP 26, the given entropy, ECN and TTL.
Ptr<Packet>
MakeRoce(Ipv4Address dst, uint16_t udpSrc, uint8_t ecn, uint32_t payload, uint8_t ttl = 64)
{
    RoceFrame f;
    f.srcMac = Mac48Address("02:00:00:00:00:01");
    f.dstMac = Mac48Address("02:00:00:00:00:02");
    f.srcIpv4 = Ipv4Address("10.0.0.1");
    f.dstIpv4 = dst;
    f.dscp = 26;
    f.ecn = ecn;
    f.ttl = ttl;
    f.udpSrcPort = udpSrc;
    f.bth.SetOpcode(RC_SEND_ONLY);
    f.bth.SetDestQp(0x11);
    f.payload = Create<Packet>(payload);
    return f.BuildEthernetFrame();
}

/// MMU rules driven directly.
class MmuRulesTestCase : public TestCase
{
  public:
    MmuRulesTestCase()
        : TestCase("SwitchMmu: 802.1Qbb headroom formula, static XOFF, XON hysteresis, lossy "
                   "drop at the dynamic threshold")
    {
    }

  private:
    void DoRun() override
    {
        // 100 Gbps, 1 us, 9018-byte frames: 2 x 1e-6 x 1e11 / 8 = 25000 cable bytes,
        // 2 x (9018 + 24) = 18084, PFC frame 84: 43168 bytes.
        NS_TEST_ASSERT_MSG_EQ(
            SwitchMmu::ComputeHeadroom(DataRate("100Gbps"), MicroSeconds(1), 9018),
            43168,
            "headroom");
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetAttribute("ThresholdMode", StringValue("Static"));
        mmu->SetAttribute("StaticThresholdBytes", UintegerValue(10000));
        mmu->AddPort(DataRate("100Gbps"), MicroSeconds(1), 9018);
        mmu->AddPort(DataRate("100Gbps"), MicroSeconds(1), 9018);
        // Reserve (4096) then shared; XOFF once shared >= 10000.
        uint32_t admitted = 0;
        while (!mmu->ShouldPause(0, DATA_CLASS))
        {
            NS_TEST_ASSERT_MSG_EQ(mmu->Admit(0, DATA_CLASS, 1000), DROP_NONE, "admit");
            ++admitted;
        }
        // 14 frames: 14000 - 4096 = 9904 shared; the 15th would make 10904 > 10000
        // and goes to headroom, which pauses.
        NS_TEST_ASSERT_MSG_EQ(admitted, 15, "frames until XOFF");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomUsed(0, DATA_CLASS), 1000, "last frame in headroom");
        mmu->SetPaused(0, DATA_CLASS, true);
        // Paused: everything goes to headroom, never dropped below its size.
        NS_TEST_ASSERT_MSG_EQ(mmu->Admit(0, DATA_CLASS, 1000), DROP_NONE, "headroom");
        // XON: headroom empty and shared + 3072 <= 10000, i.e. shared <= 6928.
        uint32_t released = 0;
        while (!mmu->ShouldResume(0, DATA_CLASS))
        {
            mmu->Release(0, DATA_CLASS, 1000);
            ++released;
        }
        // 2 headroom frames, then shared 9904 -> 8904 -> 7904 -> 6904.
        NS_TEST_ASSERT_MSG_EQ(released, 5, "frames until XON");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedBytes(0, DATA_CLASS), 6904, "shared at XON");

        // Lossy class 0, dynamic threshold alpha = 1/8 of the free pool.
        Ptr<SwitchMmu> d = CreateObject<SwitchMmu>();
        d->SetAttribute("BufferSize", UintegerValue(1000000));
        d->AddPort(DataRate("100Gbps"), MicroSeconds(1), 9018);
        const double pool = 1000000.0 - 4096 - 43168;
        uint64_t held = 0;
        while (d->Admit(0, 0, 100) == DROP_NONE)
        {
            held += 100;
        }
        // Drop when held + 100 > (pool - held) / 8, i.e. held > (pool - 800) / 9.
        NS_TEST_ASSERT_MSG_EQ_TOL(double(held), (pool - 800) / 9, 100.0, "lossy limit");
        NS_TEST_ASSERT_MSG_EQ(d->Admit(0, 0, 100), DROP_INGRESS_LIMIT, "reason");
    }
};

/// ECMP: flows spread evenly, each flow on one path, seeds differ.
/**
 * Switches with equal route tables share one (RdmaSwitch::ShareRoutes, what
 * the topology helper does for a fat tree's cores): the same lookups; a
 * route changed on one is copied first (copy on write), so the other keeps
 * its routes; unequal tables are not shared.
 */
class SharedRoutesTestCase : public TestCase
{
  public:
    SharedRoutesTestCase()
        : TestCase("equal route tables are shared, a change copies first, unequal ones are not")
    {
    }

  private:
    void DoRun() override
    {
        RawFabric a(3, 1);
        RawFabric b(3, 1);
        RawFabric c(3, 1);
        for (RawFabric* f : {&a, &b, &c})
        {
            f->sw->SetRoute(Ipv4Address("10.0.0.2"), {1, 2});
            f->sw->SetRoute(Ipv4Address("10.0.0.3"), {3});
        }
        c.sw->SetRoute(Ipv4Address("10.0.0.4"), {2});
        NS_TEST_EXPECT_MSG_EQ(b.sw->ShareRoutes(*a.sw), true, "equal tables shared");
        NS_TEST_EXPECT_MSG_EQ((&b.sw->GetRoutes() == &a.sw->GetRoutes()), true, "one table");
        NS_TEST_EXPECT_MSG_EQ(c.sw->ShareRoutes(*a.sw), false, "a table with one more route");
        NS_TEST_EXPECT_MSG_EQ(c.sw->GetRoutes().GetNRoutes(), 3, "c keeps its own");

        // A change on b copies the table: a's routes stay as they were.
        b.sw->AddRoute(Ipv4Address("10.0.0.2"), 3);
        NS_TEST_EXPECT_MSG_EQ((&b.sw->GetRoutes() == &a.sw->GetRoutes()), false, "copied on write");
        const auto* ga = a.sw->GetRoutes().Lookup(Ipv4Address("10.0.0.2").Get());
        const auto* gb = b.sw->GetRoutes().Lookup(Ipv4Address("10.0.0.2").Get());
        NS_TEST_ASSERT_MSG_EQ((ga && gb), true, "both route 10.0.0.2");
        NS_TEST_EXPECT_MSG_EQ(ga->size(), 2, "a: ports 1 and 2");
        NS_TEST_EXPECT_MSG_EQ(gb->size(), 3, "b: ports 1, 2 and 3");

        // Sharing with itself is a no-op; clearing one leaves the other whole.
        NS_TEST_EXPECT_MSG_EQ(c.sw->ShareRoutes(*c.sw), true, "a switch shares with itself");
        b.sw->ClearRoutes();
        NS_TEST_EXPECT_MSG_EQ(b.sw->GetRoutes().GetNRoutes(), 0, "b cleared");
        NS_TEST_EXPECT_MSG_EQ(a.sw->GetRoutes().GetNRoutes(), 2, "a untouched");
        Simulator::Destroy();
    }
};

class EcmpTestCase : public TestCase
{
  public:
    EcmpTestCase()
        : TestCase("ECMP over 4 uplinks: 2000 flows (RoCEv2 UDP source port entropy) pass "
                   "chi-square at 1 % (3 dof, critical 11.345), one path per flow")
    {
    }

  private:
    void DoRun() override
    {
        RawFabric f(4, 7);
        const Ipv4Address dst("10.0.9.9");
        for (uint32_t p = 1; p <= 4; ++p)
        {
            f.sw->AddRoute(dst, p);
        }
        f.sw->AddRoute(dst, 2); // a repeat does not grow the group
        NS_TEST_ASSERT_MSG_EQ(f.sw->GetRoutes().Lookup(dst.Get())->size(), 4, "group of 4");
        const uint32_t flows = 2000;
        RawFabric other(4, 8);
        for (uint32_t p = 1; p <= 4; ++p)
        {
            other.sw->AddRoute(dst, p);
        }
        uint32_t differ = 0;
        std::set<uint16_t> tuples; // QP pairs may share a source port (14 bits of entropy)
        for (uint32_t q = 0; q < flows; ++q)
        {
            uint16_t sport = RoceFrame::UdpSourcePort(0x100 + q, 0x900 + q);
            tuples.insert(sport);
            for (int copy = 0; copy < 2; ++copy)
            {
                Ptr<Packet> frame = MakeRoce(dst, sport, 0, 64);
                if (copy == 0)
                {
                    differ += f.sw->SelectEgress(frame) != other.sw->SelectEgress(frame);
                }
                f.src->SendFrame(frame);
            }
        }
        Simulator::Run();
        double chi2 = 0;
        std::map<uint16_t, uint32_t> pathOf;
        bool onePath = true;
        for (uint32_t i = 0; i < 4; ++i)
        {
            for (Ptr<Packet> p : f.received[i])
            {
                RdmaFrameView v;
                v.Parse(p);
                auto it = pathOf.emplace(v.GetSrcPort(), i).first;
                onePath = onePath && it->second == i;
            }
            double o = f.received[i].size() / 2.0;
            chi2 += (o - flows / 4.0) * (o - flows / 4.0) / (flows / 4.0);
            std::cout << "  uplink " << i + 1 << ": " << o << " flows" << std::endl;
        }
        std::cout << "  chi-square " << chi2 << ", flows mapped differently with another seed "
                  << differ << std::endl;
        NS_TEST_ASSERT_MSG_EQ(pathOf.size(), tuples.size(), "every 5-tuple seen");
        NS_TEST_ASSERT_MSG_EQ(onePath, true, "each flow keeps its uplink");
        NS_TEST_ASSERT_MSG_LT(chi2, 11.345, "chi-square, 3 degrees of freedom, alpha = 0.01");
        // Independent seeds agree on 1/4 of the flows on average.
        NS_TEST_ASSERT_MSG_GT(differ, flows / 2, "another seed splits flows differently");
        Simulator::Destroy();
    }
};

/// RED marking frequency at known queue depths, and valid marked frames.
class EcnTestCase : public TestCase
{
  public:
    /**
     * \param atDequeue mark as frames leave (the queue drains through the
     *        same depths it filled through, so the same counts hold)
     */
    explicit EcnTestCase(bool atDequeue)
        : TestCase(std::string("RED ECN at ") + (atDequeue ? "dequeue" : "enqueue") +
                   ": none at q <= Kmin, all at q >= Kmax, between them marks within 3.89 sigma "
                   "of sum Pmax (q - Kmin) over (Kmax - Kmin) (DCQCN); CE frames keep a valid "
                   "ICRC and IPv4 checksum"),
          m_atDequeue(atDequeue)
    {
    }

  private:
    bool m_atDequeue; //!< EcnAtDequeue

    void DoRun() override
    {
        RawFabric f(1, 0);
        f.sw->SetAttribute("EcnAtDequeue", BooleanValue(m_atDequeue));
        f.sw->AssignStreams(11);
        const Ipv4Address dst("10.0.0.2");
        f.sw->AddRoute(dst, 1);
        SwitchEcnParams red;
        red.kminBytes = 50000;
        red.kmaxBytes = 450000;
        red.pmax = 0.2;
        f.sw->SetEcnParams(1, DATA_CLASS, red);
        NS_TEST_ASSERT_MSG_EQ(SwitchEcnParams::ForRate(DataRate("100Gbps")).kminBytes,
                              400000,
                              "HPCC config: 100G Kmin 400 KB");
        NS_TEST_ASSERT_MSG_EQ(SwitchEcnParams::ForRate(DataRate("25Gbps")).kmaxBytes,
                              400000,
                              "HPCC config: 25G Kmax 400 KB");
        // The sink holds the egress paused: the queue only grows, by one probe each.
        f.sinks[0]->GetPfcController()->SetHold(DATA_CLASS, true);
        Ptr<QbbNetDevice> egress = f.switchPorts[1];
        std::vector<uint64_t> depth;
        f.switchPorts[0]->TraceConnectWithoutContext(
            "PhyRxEnd",
            Callback<void, Ptr<const Packet>>(
                [&](Ptr<const Packet>) { depth.push_back(egress->GetTxQueue()->GetBytes(DATA_CLASS)); }));
        std::map<uint64_t, uint32_t> markedAt;
        f.sw->TraceConnectWithoutContext(
            "EcnMark",
            Callback<void, uint32_t, uint8_t, uint64_t>(
                [&](uint32_t, uint8_t, uint64_t q) { ++markedAt[q]; }));
        const uint32_t probes = 2400;
        Simulator::Schedule(MicroSeconds(5), [&]() {
            for (uint32_t i = 0; i < probes; ++i)
            {
                f.src->SendFrame(MakeRoce(dst, 0xC000 + i, 2, 160));
            }
        });
        Simulator::Schedule(MicroSeconds(200),
                            [&]() { f.sinks[0]->GetPfcController()->SetHold(DATA_CLASS, false); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(depth.size(), probes, "every probe seen");
        double expected = 0;
        double variance = 0;
        uint32_t lowMarks = 0;
        uint32_t highFrames = 0;
        uint32_t highMarks = 0;
        uint32_t midMarks = 0;
        for (uint64_t q : depth)
        {
            uint32_t m = markedAt.count(q) ? markedAt[q] : 0;
            if (q <= red.kminBytes)
            {
                lowMarks += m;
            }
            else if (q >= red.kmaxBytes)
            {
                ++highFrames;
                highMarks += m;
            }
            else
            {
                double p = red.MarkProbability(q);
                NS_TEST_ASSERT_MSG_EQ_TOL(p,
                                          0.2 * double(q - 50000) / 400000,
                                          1e-12,
                                          "RED formula");
                expected += p;
                variance += p * (1 - p);
                midMarks += m;
            }
        }
        std::cout << "  marks between Kmin and Kmax: " << midMarks << " (expected " << expected
                  << ", sigma " << std::sqrt(variance) << "); above Kmax " << highMarks << " of "
                  << highFrames << std::endl;
        NS_TEST_ASSERT_MSG_EQ(lowMarks, 0, "no mark at or below Kmin");
        NS_TEST_ASSERT_MSG_GT(highFrames, 0, "probes above Kmax");
        NS_TEST_ASSERT_MSG_EQ(highMarks, highFrames, "every probe above Kmax marked");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(midMarks),
                                  expected,
                                  3.89 * std::sqrt(variance),
                                  "marks between Kmin and Kmax (two-sided 1e-4 bound)");
        // What the sink got: CE exactly on the marked frames, ICRC and checksum valid.
        NS_TEST_ASSERT_MSG_EQ(f.received[0].size(), probes, "all delivered");
        uint32_t ce = 0;
        for (Ptr<Packet> p : f.received[0])
        {
            RoceFrame r;
            NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(p, r, true),
                                  RoceFrame::OK,
                                  "ICRC still valid");
            ce += r.ecn == 3;
            Ptr<Packet> c = p->Copy();
            EthernetHeader eth(false);
            c->RemoveHeader(eth);
            Ipv4Header ip;
            ip.EnableChecksum();
            c->RemoveHeader(ip);
            NS_TEST_ASSERT_MSG_EQ(ip.IsChecksumOk(), true, "IPv4 header checksum");
        }
        NS_TEST_ASSERT_MSG_EQ(ce, f.sw->GetStats().ecnMarked, "CE frames = marks");
        Simulator::Destroy();
    }
};

/// source -> s1 -> s2 -> sink, INT on in both switches, frames to the INT port.
struct IntChain
{
    static constexpr uint32_t FRAME_BYTES = 14 + 20 + 8 + 42 + 1000; //!< one frame

    /**
     * \param atDequeue the switches' IntAtDequeue
     * \param middleRate the s1 -> s2 link's rate (the others 100 Gb/s)
     */
    IntChain(bool atDequeue, const std::string& middleRate)
    {
        Ptr<Node> n1 = CreateObject<Node>();
        Ptr<Node> n2 = CreateObject<Node>();
        Ptr<Node> hs = CreateObject<Node>();
        Ptr<Node> hd = CreateObject<Node>();
        QbbHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetChannelAttribute("Delay", TimeValue(NanoSeconds(1000)));
        NetDeviceContainer l0 = link.Install(hs, n1);
        NetDeviceContainer l2 = link.Install(n2, hd);
        link.SetDeviceAttribute("DataRate", StringValue(middleRate));
        NetDeviceContainer l1 = link.Install(n1, n2);
        s1 = CreateObject<RdmaSwitch>();
        s2 = CreateObject<RdmaSwitch>();
        for (Ptr<RdmaSwitch> s : {s1, s2})
        {
            s->SetAttribute("IntEnabled", BooleanValue(true));
            s->SetAttribute("IntAtDequeue", BooleanValue(atDequeue));
        }
        s1->AddPort(DynamicCast<QbbNetDevice>(l0.Get(1)));
        s1->AddPort(DynamicCast<QbbNetDevice>(l1.Get(0)));
        s2->AddPort(DynamicCast<QbbNetDevice>(l1.Get(1)));
        s2->AddPort(DynamicCast<QbbNetDevice>(l2.Get(0)));
        s1->AddRoute(DST, 1);
        s2->AddRoute(DST, 1);
        src = DynamicCast<QbbNetDevice>(l0.Get(0));
        s1Out = DynamicCast<QbbNetDevice>(l1.Get(0));
        sink = DynamicCast<QbbNetDevice>(l2.Get(1));
    }

    /**
     * Send n frames back to back from the source and run.
     * \param n frames
     * \return the INT header of each frame the sink got, in order
     */
    std::vector<IntHeader> Run(uint32_t n)
    {
        std::vector<IntHeader> got;
        sink->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([&got](Ptr<QbbNetDevice>, Ptr<Packet> f) {
                NS_ABORT_UNLESS(f->GetSize() == FRAME_BYTES); // stamping keeps the size
                Ptr<Packet> c = f->Copy();
                EthernetHeader eth(false);
                c->RemoveHeader(eth);
                Ipv4Header ip;
                c->RemoveHeader(ip);
                UdpHeader udp;
                c->RemoveHeader(udp);
                IntHeader ih;
                c->RemoveHeader(ih);
                got.push_back(ih);
            }));
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Packet> p = Create<Packet>(1000);
            p->AddHeader(IntHeader());
            UdpHeader udp;
            udp.SetSourcePort(0xC001);
            udp.SetDestinationPort(IntHeader::UDP_PORT);
            p->AddHeader(udp);
            Ipv4Header ip;
            ip.SetSource(Ipv4Address("10.0.0.1"));
            ip.SetDestination(DST);
            ip.SetProtocol(17);
            ip.SetTtl(64); // ns-3's Ipv4Header starts at 0, which a router drops
            ip.SetPayloadSize(p->GetSize());
            ip.SetTos(26 << 2);
            p->AddHeader(ip);
            EthernetHeader eth(false);
            eth.SetLengthType(0x0800);
            p->AddHeader(eth);
            src->SendFrame(p);
        }
        Simulator::Run();
        return got;
    }

    inline static const Ipv4Address DST{"10.0.0.2"}; //!< the sink's address
    Ptr<RdmaSwitch> s1;                               //!< first switch
    Ptr<RdmaSwitch> s2;                               //!< second switch
    Ptr<QbbNetDevice> src;                            //!< the source's device
    Ptr<QbbNetDevice> s1Out;                          //!< s1's port toward s2
    Ptr<QbbNetDevice> sink;                           //!< the sink's device
};

/// IntHeader round trip and stamping across two switches.
class IntTestCase : public TestCase
{
  public:
    IntTestCase()
        : TestCase("IntHeader (HPCC simulator hop format): round trip, units and wraps; two "
                   "switches stamp rate, time, tx bytes and queue length in order")
    {
    }

  private:
    void DoRun() override
    {
        IntHeader h;
        h.PushHop(DataRate("100Gbps"), NanoSeconds(20000000), 1280000, 8000);
        h.PushHop(DataRate("400Gbps"), NanoSeconds(123), 127, 1ULL << 30);
        Buffer b;
        b.AddAtStart(h.GetSerializedSize());
        h.Serialize(b.Begin());
        NS_TEST_ASSERT_MSG_EQ(b.GetSize(), 42u, "5 x 8 + 2 bytes");
        IntHeader g;
        g.Deserialize(b.Begin());
        NS_TEST_ASSERT_MSG_EQ(g.GetNHops(), 2, "nhop");
        IntHeader::Hop a = g.GetHop(0);
        NS_TEST_ASSERT_MSG_EQ(a.rate, DataRate("100Gbps"), "rate code 2");
        NS_TEST_ASSERT_MSG_EQ(a.timeNs, 20000000 % (1 << 24), "ns modulo 2^24");
        NS_TEST_ASSERT_MSG_EQ(a.GetTxBytes(), 1280000u, "tx bytes in 128-byte units");
        NS_TEST_ASSERT_MSG_EQ(a.GetQlenBytes(), 8000u, "queue in 80-byte units");
        IntHeader::Hop c = g.GetHop(1);
        NS_TEST_ASSERT_MSG_EQ(c.rate, DataRate("400Gbps"), "rate code 4");
        NS_TEST_ASSERT_MSG_EQ(c.txUnits, 0u, "127 bytes round down to 0 units");
        NS_TEST_ASSERT_MSG_EQ(c.qlenUnits, (1u << 17) - 1, "queue saturates at 17 bits");
        NS_TEST_ASSERT_MSG_EQ(IntHeader::TimeDelta(5, (1 << 24) - 5), 10u, "time wrap");
        NS_TEST_ASSERT_MSG_EQ(IntHeader::BytesDelta(1, (1 << 20) - 1), 256u, "bytes wrap");
        for (int i = 0; i < 4; ++i)
        {
            g.PushHop(DataRate("25Gbps"), NanoSeconds(i), 0, 0);
        }
        NS_TEST_ASSERT_MSG_EQ(g.GetNHops(), 6, "six hops written");
        NS_TEST_ASSERT_MSG_EQ(g.GetHop(0).rate, DataRate("25Gbps"), "the 6th overwrote slot 0");

        // Two switches in a chain, every link at 100 Gb/s: no queue anywhere.
        IntChain chain(false, "100Gbps");
        const uint32_t frames = 3;
        std::vector<IntHeader> got = chain.Run(frames);
        NS_TEST_ASSERT_MSG_EQ(got.size(), frames, "delivered");
        const uint32_t bytes = IntChain::FRAME_BYTES;
        const Time wire = chain.src->GetWireTime(bytes);
        for (uint32_t k = 0; k < frames; ++k)
        {
            const IntHeader& ih = got[k];
            NS_TEST_ASSERT_MSG_EQ(ih.GetNHops(), 2, "two switches stamped");
            IntHeader::Hop h1 = ih.GetHop(0);
            IntHeader::Hop h2 = ih.GetHop(1);
            NS_TEST_ASSERT_MSG_EQ(h1.rate, DataRate("100Gbps"), "s1 rate");
            // Arrival at s1: last bit after (k + 1) wire times + 1 us; s1 forwards at once
            // (its egress is idle: frames arrive one wire time apart), the same at s2.
            Time at1 = wire * (k + 1) + MicroSeconds(1);
            Time at2 = at1 + wire + MicroSeconds(1);
            NS_TEST_ASSERT_MSG_EQ(h1.timeNs, uint32_t(at1.GetNanoSeconds()), "s1 time, ns");
            NS_TEST_ASSERT_MSG_EQ(h2.timeNs, uint32_t(at2.GetNanoSeconds()), "s2 time, ns");
            // Frame k - 1 ends its transmission at s1 exactly when frame k arrives.
            // Nothing waited for that end, so it was no event: the transmission is
            // over at its end time, and k frames are counted as sent (an event at
            // the same instant would have made it depend on the order of the two).
            const uint32_t sent = k * bytes;
            NS_TEST_ASSERT_MSG_EQ(h1.txUnits, sent / 128, "s1 tx bytes / 128");
            NS_TEST_ASSERT_MSG_EQ(h2.txUnits, sent / 128, "s2 tx bytes / 128");
            NS_TEST_ASSERT_MSG_EQ(h1.qlenUnits, 0u, "no queue");
        }
        NS_TEST_ASSERT_MSG_EQ(chain.s1->GetStats().intStamped, frames, "s1 stamps");
        Simulator::Destroy();
    }
};

/**
 * IntAtDequeue (the HPCC simulator's SwitchNotifyDequeue): a 25 Gb/s link
 * after s1 builds a queue; each record has the frame's departure time, the
 * bytes sent before it and the bytes queued behind it, where stamping at
 * enqueue has the arrival time and the bytes queued ahead.
 */
class IntAtDequeueTestCase : public TestCase
{
  public:
    IntAtDequeueTestCase()
        : TestCase("INT at dequeue: departure time, bytes sent before and queued behind")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t frames = 3;
        const uint32_t bytes = IntChain::FRAME_BYTES;
        for (bool atDequeue : {true, false})
        {
            IntChain chain(atDequeue, "25Gbps");
            std::vector<IntHeader> got = chain.Run(frames);
            NS_TEST_ASSERT_MSG_EQ(got.size(), frames, "delivered");
            const Time w100 = chain.src->GetWireTime(bytes);
            const Time w25 = chain.s1Out->GetWireTime(bytes);
            const Time d = MicroSeconds(1);
            // Frame j is at s1 at (j + 1) w100 + d; s1's egress sends frame k from
            // w100 + d + k w25. By then frames 0 .. min(2, floor(1 + 4k)) have come:
            // frame 1 leaves with frame 2 queued behind it.
            for (uint32_t k = 0; k < frames; ++k)
            {
                const Time arrival = w100 * (k + 1) + d;
                const Time departure = w100 + d + w25 * k;
                uint32_t ahead = 0;
                uint32_t behind = 0;
                for (uint32_t j = 0; j < frames; ++j)
                {
                    const Time aj = w100 * (j + 1) + d;
                    // queued ahead of k when it arrives: came earlier, not yet started
                    ahead += (j < k && w100 + d + w25 * j > arrival) ? 1 : 0;
                    // queued behind k when it leaves: came later, already there
                    behind += (j > k && aj <= departure) ? 1 : 0;
                }
                IntHeader::Hop h1 = got[k].GetHop(0);
                IntHeader::Hop h2 = got[k].GetHop(1);
                const std::string mode = atDequeue ? "dequeue: " : "enqueue: ";
                NS_TEST_EXPECT_MSG_EQ(h1.rate, DataRate("25Gbps"), mode << "s1 egress rate");
                NS_TEST_EXPECT_MSG_EQ(h1.timeNs,
                                      uint32_t((atDequeue ? departure : arrival).GetNanoSeconds()),
                                      mode << "s1 time of frame " << k);
                // Frames sent before k left: k; by its arrival, those whose
                // transmission had ended.
                uint32_t sentByArrival = 0;
                for (uint32_t j = 0; j < k; ++j)
                {
                    sentByArrival += (w100 + d + w25 * (j + 1) <= arrival) ? 1 : 0;
                }
                const uint32_t sent = atDequeue ? k : sentByArrival;
                NS_TEST_EXPECT_MSG_EQ(h1.txUnits, sent * bytes / 128, mode << "s1 tx of " << k);
                const uint32_t queued = atDequeue ? behind : ahead;
                NS_TEST_EXPECT_MSG_EQ(h1.qlenUnits, queued * bytes / 80, mode << "s1 queue at " << k);
                // s2 forwards from 25 to 100 Gb/s: never a queue, one stamp per frame.
                NS_TEST_EXPECT_MSG_EQ(h2.timeNs,
                                      uint32_t((departure + w25 + d).GetNanoSeconds()),
                                      mode << "s2 time of frame " << k);
                NS_TEST_EXPECT_MSG_EQ(h2.qlenUnits, 0u, mode << "s2 queue");
            }
            NS_TEST_EXPECT_MSG_EQ(chain.s1->GetStats().intStamped, frames, "s1 stamps");
            if (atDequeue)
            {
                NS_TEST_EXPECT_MSG_EQ(got[1].GetHop(0).qlenUnits,
                                      bytes / 80,
                                      "frame 1 leaves with frame 2 behind it");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * A routing loop: s1 sends the destination to s2 and s2 back to s1. With
 * DecrementTtl a frame sent with TTL 5 is forwarded 4 times (TTL 5, 4, 3,
 * 2 on arrival) and dropped as TTL_EXPIRED where it arrives with 1 (RFC
 * 1812 5.3.1), its IPv4 checksum and ICRC valid at every hop; without it
 * (the HPCC simulator's behaviour) the frame circulates until the run ends.
 */
class TtlLoopTestCase : public TestCase
{
  public:
    /// \param decrement the switches' DecrementTtl
    explicit TtlLoopTestCase(bool decrement)
        : TestCase(std::string("routing loop, DecrementTtl ") + (decrement ? "on" : "off") +
                   (decrement ? ": TTL 5 is forwarded 4 times, then dropped as TTL_EXPIRED"
                              : ": the frame circulates until the run ends")),
          m_decrement(decrement)
    {
    }

  private:
    bool m_decrement; //!< DecrementTtl

    void DoRun() override
    {
        IntChain chain(false, "100Gbps");
        for (Ptr<RdmaSwitch> s : {chain.s1, chain.s2})
        {
            s->SetAttribute("DecrementTtl", BooleanValue(m_decrement));
            s->ClearRoutes();
        }
        chain.s1->AddRoute(IntChain::DST, 1); // to s2
        chain.s2->AddRoute(IntChain::DST, 0); // back to s1
        std::vector<uint32_t> ttls;
        bool checksOk = true;
        chain.s1Out->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet> f) {
                RoceFrame r;
                checksOk = checksOk &&
                           RoceFrame::ParseEthernetFrame(f->Copy(), r, true) == RoceFrame::OK;
                Ptr<Packet> c = f->Copy();
                EthernetHeader eth(false);
                c->RemoveHeader(eth);
                Ipv4Header ip;
                ip.EnableChecksum();
                c->RemoveHeader(ip);
                checksOk = checksOk && ip.IsChecksumOk();
                ttls.push_back(ip.GetTtl());
            }));
        chain.src->SendFrame(MakeRoce(IntChain::DST, 0xC000, 0, 100, 5));
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        const RdmaSwitch::Stats st1 = chain.s1->GetStats();
        const RdmaSwitch::Stats st2 = chain.s2->GetStats();
        if (m_decrement)
        {
            NS_TEST_EXPECT_MSG_EQ(st1.rxFrames + st2.rxFrames, 5, "arrivals with TTL 5 to 1");
            NS_TEST_EXPECT_MSG_EQ(st1.drops[DROP_TTL_EXPIRED], 1, "dropped at s1");
            NS_TEST_EXPECT_MSG_EQ(st2.drops[DROP_TTL_EXPIRED], 0, "not at s2");
            NS_TEST_EXPECT_MSG_EQ((ttls == std::vector<uint32_t>{4, 2}), true, "TTL leaving s1");
            NS_TEST_EXPECT_MSG_EQ(checksOk, true, "ICRC and IPv4 checksum valid at every hop");
        }
        else
        {
            // Each lap is two 1 us cables plus wire times: about 40 laps in 100 us.
            NS_TEST_EXPECT_MSG_GT(st1.rxFrames, 30, "still circulating");
            NS_TEST_EXPECT_MSG_EQ(st1.drops[DROP_TTL_EXPIRED], 0, "no TTL drop");
        }
        Simulator::Destroy();
    }
};

/// IPv6 with an 802.1Q tag: routed by IPv6 address, classed by PCP, CE in the Traffic Class.
class Ipv6VlanTestCase : public TestCase
{
  public:
    Ipv6VlanTestCase()
        : TestCase("IPv6 RoCEv2 frames with an 802.1Q tag: routed by the IPv6 destination, "
                   "queued in the PCP's class, CE marked in the Traffic Class with the ICRC "
                   "still valid")
    {
    }

  private:
    void DoRun() override
    {
        RawFabric f(2, 0);
        const Ipv6Address dst("2001:db8::2");
        f.sw->AddRoute(dst, 2);
        const uint8_t pcp = 5;
        SwitchEcnParams always;
        always.kminBytes = 0;
        always.kmaxBytes = 1; // any queued byte marks
        f.sw->SetEcnParams(2, pcp, always);
        f.sinks[1]->GetPfcController()->SetHold(pcp, true);
        uint64_t maxQueued = 0;
        f.switchPorts[0]->TraceConnectWithoutContext(
            "PhyRxEnd",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) {
                maxQueued = std::max(maxQueued, f.switchPorts[2]->GetTxQueue()->GetBytes(pcp));
            }));
        const uint32_t frames = 4;
        Simulator::Schedule(MicroSeconds(5), [&]() {
            for (uint32_t i = 0; i < frames; ++i)
            {
                RoceFrame r;
                r.ipv6 = true;
                r.srcIpv6 = Ipv6Address("2001:db8::1");
                r.dstIpv6 = dst;
                r.hasVlan = true;
                r.vlan.SetPcp(pcp);
                r.dscp = 0; // the PCP, not the DSCP, decides the class
                r.ecn = 1;  // ECT(1)
                r.bth.SetOpcode(RC_SEND_ONLY);
                r.payload = Create<Packet>(200);
                f.src->SendFrame(r.BuildEthernetFrame());
            }
        });
        Simulator::Schedule(MicroSeconds(50), [&]() { f.sinks[1]->GetPfcController()->SetHold(pcp, false); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.received[0].size(), 0, "nothing on the other port");
        NS_TEST_ASSERT_MSG_EQ(f.received[1].size(), frames, "all routed by IPv6 address");
        NS_TEST_ASSERT_MSG_GT(maxQueued, 0, "they waited in the PCP's class queue");
        for (uint32_t i = 0; i < frames; ++i)
        {
            RoceFrame r;
            NS_TEST_ASSERT_MSG_EQ(RoceFrame::ParseEthernetFrame(f.received[1][i], r, true),
                                  RoceFrame::OK,
                                  "IPv6 ICRC valid");
            // Marked at dequeue (EcnAtDequeue): each left bytes behind it but the last.
            NS_TEST_ASSERT_MSG_EQ(+r.ecn, (i + 1 == frames ? 1 : 3), "ECN field");
            NS_TEST_ASSERT_MSG_EQ(+r.vlan.GetPcp(), +pcp, "tag kept");
        }
        Simulator::Destroy();
    }
};

} // namespace

/// The switch unit suite.
class RdmaSwitchTestSuite : public TestSuite
{
  public:
    RdmaSwitchTestSuite()
        : TestSuite("rdma-switch", UNIT)
    {
        AddTestCase(new MmuRulesTestCase, TestCase::QUICK);
        AddTestCase(new EcmpTestCase, TestCase::QUICK);
        AddTestCase(new SharedRoutesTestCase, TestCase::QUICK);
        AddTestCase(new EcnTestCase(false), TestCase::QUICK);
        AddTestCase(new EcnTestCase(true), TestCase::QUICK);
        AddTestCase(new TtlLoopTestCase(true), TestCase::QUICK);
        AddTestCase(new TtlLoopTestCase(false), TestCase::QUICK);
        AddTestCase(new Ipv6VlanTestCase, TestCase::QUICK);
        AddTestCase(new IntTestCase, TestCase::QUICK);
        AddTestCase(new IntAtDequeueTestCase, TestCase::QUICK);
    }
};

static RdmaSwitchTestSuite g_rdmaSwitchTestSuite; //!< static instance
