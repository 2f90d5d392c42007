/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CONGA's pieces driven directly: the DRE's register and metric, a leaf's
// Congestion-To-Leaf / Congestion-From-Leaf tables fed by frames, its
// choice of uplink for new flowlets; and REPS's buffer of recycled entropies.

#include "ns3/qbb-helper.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <memory>
#include <set>

using namespace ns3;

namespace
{

/// A RoCEv2 SEND frame from src to dst with the given UDP source port.
Ptr<RdmaFrame>
MakeFrame(const char* src, const char* dst, uint16_t udpSrc)
{
    RoceFrame f;
    f.srcIpv4 = Ipv4Address(src);
    f.dstIpv4 = Ipv4Address(dst);
    f.dscp = 26;
    f.udpSrcPort = udpSrc;
    f.bth.SetOpcode(RC_SEND_ONLY);
    f.payload = Create<Packet>(1000);
    return RdmaFrame::Wrap(f.BuildEthernetFrame());
}

/// DRE: X grows by the bytes, loses alpha of itself per Tdre; metric = X / (C tau), Q bits.
class DreTestCase : public TestCase
{
  public:
    DreTestCase()
        : TestCase("DRE: X += bytes sent, X *= 1 - alpha every Tdre; metric floor(X over C tau x 2^Q)")
    {
    }

  private:
    void DoRun() override
    {
        // 8 Gb/s = 1 byte/ns; Tdre 10 us, alpha 0.5: tau 20 us, C tau = 20,000 bytes.
        RdmaDre dre;
        dre.Configure(MicroSeconds(10), 0.5, DataRate("8Gbps"), 3, Seconds(0), 0);
        dre.Update(MicroSeconds(1), 10000);
        NS_TEST_EXPECT_MSG_EQ_TOL(dre.GetRegister(), 10000.0, 1e-9, "the bytes sent");
        NS_TEST_EXPECT_MSG_EQ(+dre.GetMetric(), 4, "10,000 / 20,000 x 8");
        dre.Update(MicroSeconds(10), 10000); // one decrement, no new bytes
        NS_TEST_EXPECT_MSG_EQ_TOL(dre.GetRegister(), 5000.0, 1e-9, "halved at Tdre");
        NS_TEST_EXPECT_MSG_EQ(+dre.GetMetric(), 2, "5,000 / 20,000 x 8");
        dre.Update(MicroSeconds(39), 10000); // ticks at 20 and 30 us
        NS_TEST_EXPECT_MSG_EQ_TOL(dre.GetRegister(), 1250.0, 1e-9, "5,000 x 0.5^2");
        NS_TEST_EXPECT_MSG_EQ(+dre.GetMetric(), 0, "1,250 / 20,000 x 8 < 1");
        dre.Update(MicroSeconds(39), 10000 + 50000);
        NS_TEST_EXPECT_MSG_EQ(+dre.GetMetric(), 7, "above line rate: 2^Q - 1");
    }
};

/// A leaf with two host ports (0, 1) and two uplinks (ports 2, 3: LBTags 0, 1) of a 2-leaf fabric.
struct Leaf
{
    Ptr<RdmaConga> conga;   //!< the leaf's policy
    RdmaRouteTable::Group uplinks{2, 3}; //!< the group toward the other leaf

    explicit Leaf(const std::string& flowletTimeout)
    {
        conga = CreateObjectWithAttributes<RdmaConga>("FlowletTimeout",
                                                      StringValue(flowletTimeout));
        conga->AssignStreams(3);
        QbbHelper link;
        Ptr<Node> sw = CreateObject<Node>();
        for (uint32_t i = 0; i < 4; ++i)
        {
            NetDeviceContainer d = link.Install(sw, CreateObject<Node>());
            conga->AddPort(DynamicCast<QbbNetDevice>(d.Get(0)));
        }
        auto leafOf = std::make_shared<RdmaConga::LeafMap>();
        (*leafOf)[Ipv4Address("10.0.0.1").Get()] = 0; // under this leaf
        (*leafOf)[Ipv4Address("10.0.1.1").Get()] = 1; // under the other
        conga->SetLeaf(0, 2, {false, false, true, true}, leafOf);
    }

    /// A frame from leaf 1 arrives on uplink port 2 for host port 0, carrying this overlay.
    RdmaCongaOverlay Arrive(uint8_t lbTag, uint8_t ce, int fbTag, uint8_t fbMetric)
    {
        Ptr<RdmaFrame> f = MakeFrame("10.0.1.1", "10.0.0.1", 5000);
        RdmaCongaOverlay& o = f->GetCongaOverlay();
        o.srcLeaf = 1;
        o.lbTag = lbTag;
        o.ce = ce;
        o.hasFeedback = fbTag >= 0;
        o.fbLbTag = static_cast<uint8_t>(fbTag < 0 ? 0 : fbTag);
        o.fbMetric = fbMetric;
        RdmaFrameView view;
        NS_ABORT_UNLESS(view.Parse(*f));
        conga->Forwarded(*f, view, 2, 0);
        return f->GetCongaOverlay();
    }

    /// A frame of flow `udpSrc` from host port 0 to leaf 1: its uplink port, and its overlay.
    std::pair<uint32_t, RdmaCongaOverlay> Leave(uint16_t udpSrc)
    {
        Ptr<RdmaFrame> f = MakeFrame("10.0.0.1", "10.0.1.1", udpSrc);
        RdmaFrameView view;
        NS_ABORT_UNLESS(view.Parse(*f));
        const uint32_t port = conga->Select(uplinks, view, 1);
        conga->Forwarded(*f, view, 0, port);
        return {port, f->GetCongaOverlay()};
    }
};

/// The destination leaf stores CE and feedback; the source leaf's new flowlets follow them.
class CongaTableTestCase : public TestCase
{
  public:
    CongaTableTestCase()
        : TestCase("Conga: CE fills Congestion-From-Leaf, feedback fills Congestion-To-Leaf, "
                   "new flowlets take the uplink of least max(local, remote), old ones stay")
    {
    }

  private:
    void DoRun() override
    {
        Leaf leaf("100us");
        // From leaf 1 through our uplink 1 with CE 5; it feeds back: our uplink 0 toward it is at 6.
        RdmaCongaOverlay after = leaf.Arrive(1, 5, 0, 6);
        NS_TEST_EXPECT_MSG_EQ(+leaf.conga->GetCongestionFromLeaf(1, 1), 5, "CE stored by LBTag");
        NS_TEST_EXPECT_MSG_EQ(+leaf.conga->GetCongestionFromLeaf(1, 0), 0, "the other untouched");
        NS_TEST_EXPECT_MSG_EQ(+leaf.conga->GetCongestionToLeaf(1, 0), 6, "feedback stored");
        NS_TEST_EXPECT_MSG_EQ(after.srcLeaf, RdmaCongaOverlay::NO_LEAF, "overlay removed");
        leaf.Arrive(0, 1, 1, 2); // uplink 1 toward leaf 1 is at 2
        NS_TEST_EXPECT_MSG_EQ(+leaf.conga->GetCongestionToLeaf(1, 1), 2, "feedback stored");
        NS_TEST_EXPECT_MSG_EQ(+leaf.conga->GetCongestionFromLeaf(1, 0), 1, "CE stored");

        // Idle uplinks (local metric 0): max(0, 6) on uplink 0, max(0, 2) on uplink 1.
        auto [port, overlay] = leaf.Leave(7);
        NS_TEST_EXPECT_MSG_EQ(port, 3u, "the uplink with the smaller remote metric");
        NS_TEST_EXPECT_MSG_EQ(overlay.srcLeaf, 0, "stamped with our leaf");
        NS_TEST_EXPECT_MSG_EQ(+overlay.lbTag, 1, "LBTag = uplink 1");
        NS_TEST_EXPECT_MSG_EQ(+overlay.ce, 0, "CE starts at 0; our idle uplink adds 0");
        NS_TEST_EXPECT_MSG_EQ(overlay.hasFeedback, true, "feedback piggybacked to leaf 1");
        // Both From-Leaf entries changed; round robin from uplink 0 feeds back 0 first.
        NS_TEST_EXPECT_MSG_EQ(+overlay.fbLbTag, 0, "the first changed entry");
        NS_TEST_EXPECT_MSG_EQ(+overlay.fbMetric, 1, "its metric");
        NS_TEST_EXPECT_MSG_EQ(+leaf.Leave(7).second.fbLbTag, 1, "then the other");

        // The feedback turns: uplink 1 at 7, uplink 0 at 1.
        leaf.Arrive(0, 0, 1, 7);
        leaf.Arrive(0, 0, 0, 1);
        NS_TEST_EXPECT_MSG_EQ(leaf.Leave(7).first, 3u, "within the flowlet: the same uplink");
        NS_TEST_EXPECT_MSG_EQ(leaf.Leave(8).first, 2u, "a new flow: the less congested uplink");
        Simulator::Schedule(MicroSeconds(150), [&leaf, this]() {
            NS_TEST_EXPECT_MSG_EQ(leaf.Leave(7).first, 2u, "after a gap > FlowletTimeout: moved");
        });
        Simulator::Run();
        Simulator::Destroy();
    }
};

/// CE only grows on the way; ties are drawn at random.
class CongaTieTestCase : public TestCase
{
  public:
    CongaTieTestCase()
        : TestCase("Conga: CE = max(CE, egress metric) never lowers CE; equal metrics: both "
                   "uplinks taken")
    {
    }

  private:
    void DoRun() override
    {
        Leaf leaf("100us");
        std::set<uint32_t> used;
        for (uint16_t flow = 1; flow <= 32; ++flow)
        {
            used.insert(leaf.Leave(flow).first);
        }
        NS_TEST_EXPECT_MSG_EQ(used.size(), 2u, "32 new flowlets on equal uplinks use both");

        // A spine (no SetLeaf) keeps a higher CE than its idle port's metric.
        Ptr<RdmaConga> spine = CreateObject<RdmaConga>();
        QbbHelper link;
        Ptr<Node> sw = CreateObject<Node>();
        NetDeviceContainer d = link.Install(sw, CreateObject<Node>());
        spine->AddPort(DynamicCast<QbbNetDevice>(d.Get(0)));
        Ptr<RdmaFrame> f = MakeFrame("10.0.0.1", "10.0.1.1", 9);
        f->GetCongaOverlay().srcLeaf = 0;
        f->GetCongaOverlay().ce = 4;
        RdmaFrameView view;
        NS_ABORT_UNLESS(view.Parse(*f));
        spine->Forwarded(*f, view, 0, 0);
        NS_TEST_EXPECT_MSG_EQ(+f->GetCongaOverlay().ce, 4, "max, not overwrite");
        Simulator::Destroy();
    }
};

/// REPS: ports ACKed without ECN echo come back, oldest first; marked ones do not.
class RepsTestCase : public TestCase
{
  public:
    RepsTestCase()
        : TestCase("Reps: entropies ACKed or SACKed without ECN echo are reused oldest first, "
                   "echoed ones are dropped, the buffer keeps the newest")
    {
    }

  private:
    void DoRun() override
    {
        RdmaReps reps(2);
        uint16_t ev = 0;
        for (uint32_t psn = 1; psn <= 5; ++psn)
        {
            reps.OnSent(psn, static_cast<uint16_t>(0xC000 + psn));
        }
        NS_TEST_EXPECT_MSG_EQ(reps.Next(ev), false, "nothing ACKed yet: draw a fresh one");
        reps.OnAck(1, false);
        reps.OnAck(2, true);
        NS_TEST_EXPECT_MSG_EQ(reps.GetValid(), 1u, "the ECN-echoed entropy is not recycled");
        NS_TEST_EXPECT_MSG_EQ(reps.Next(ev), true, "one to reuse");
        NS_TEST_EXPECT_MSG_EQ(ev, 0xC001, "PSN 1's");
        NS_TEST_EXPECT_MSG_EQ(reps.Next(ev), false, "consumed");
        reps.OnAck(3, false);
        reps.OnAck(5, false); // coalesced: covers 4, recycles 5's only
        NS_TEST_EXPECT_MSG_EQ(reps.GetValid(), 2u, "two");
        reps.OnSent(6, 0xC006);
        reps.OnAck(6, false); // a third in a buffer of two: the oldest (3's) goes
        NS_TEST_EXPECT_MSG_EQ(reps.Next(ev), true, "reuse");
        NS_TEST_EXPECT_MSG_EQ(ev, 0xC005, "the oldest kept");
        NS_TEST_EXPECT_MSG_EQ(reps.Next(ev), true, "reuse");
        NS_TEST_EXPECT_MSG_EQ(ev, 0xC006, "then the newest");
        NS_TEST_EXPECT_MSG_EQ(reps.Next(ev), false, "empty");
        reps.OnAck(6, false);
        NS_TEST_EXPECT_MSG_EQ(reps.GetValid(), 0u, "an ACK for a PSN already ACKed recycles nothing");

        // Selective repeat's SACKs: the PSN that arrived out of order gives its entropy back, once.
        RdmaReps sack(8);
        for (uint32_t psn = 10; psn <= 13; ++psn)
        {
            sack.OnSent(psn, static_cast<uint16_t>(0xD000 + psn));
        }
        sack.OnSack(10, 12, false);
        sack.OnSack(10, 12, false); // a duplicate SACK
        sack.OnSack(10, 13, true);  // arrived, but CE-marked
        NS_TEST_EXPECT_MSG_EQ(sack.GetValid(), 1u, "12's once; 13's echoed");
        sack.OnAck(12, false); // the cumulative ACK reaches 12: already recycled
        NS_TEST_EXPECT_MSG_EQ(sack.GetValid(), 1u, "not twice");
        NS_TEST_EXPECT_MSG_EQ(sack.Next(ev), true, "reuse");
        NS_TEST_EXPECT_MSG_EQ(ev, 0xD000 + 12, "the SACKed PSN's entropy");
    }
};

/// The suite.
class RdmaCongaTestSuite : public TestSuite
{
  public:
    RdmaCongaTestSuite()
        : TestSuite("rdma-conga", UNIT)
    {
        AddTestCase(new DreTestCase, TestCase::QUICK);
        AddTestCase(new CongaTableTestCase, TestCase::QUICK);
        AddTestCase(new CongaTieTestCase, TestCase::QUICK);
        AddTestCase(new RepsTestCase, TestCase::QUICK);
    }
};

RdmaCongaTestSuite g_rdmaCongaTestSuite; //!< registers the suite

} // namespace
