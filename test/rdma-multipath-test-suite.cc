/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Many paths, the NIC's half: the RoCEv2 UDP source port as path entropy
 * (RdmaNic's Entropy: per QP, per packet, per flowlet), the reorder-depth
 * bins of a QP's counters, and the out-of-order state a selective-repeat
 * QP adds to its QPC entry (RdmaNicTables::SetQpcStateBits).
 */

#include "rdma-test-hosts.h"

#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Records the UDP source port of every RoCEv2 request arriving at a port; drops nothing.
class PortRecorder : public ErrorModel
{
  public:
    std::vector<uint16_t> ports; //!< source ports of the requests, in arrival order

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        RoceFrame f;
        if (RoceFrame::ParseEthernetFrame(p, f, false) == RoceFrame::OK &&
            f.bth.GetOpcode() != RC_ACKNOWLEDGE)
        {
            ports.push_back(f.udpSrcPort);
        }
        return false;
    }

    void DoReset() override
    {
    }
};

/// Two hosts, A's NIC with the given entropy (stream `stream`), B recording ports.
struct EntropyPair
{
    TwoHosts h;               //!< the hosts
    Ptr<PortRecorder> atB;    //!< the ports of A's requests

    static TwoHosts::Options Make(RdmaNic::Entropy entropy, int64_t stream, Time flowletTimeout)
    {
        TwoHosts::Options o;
        o.dataMode = false;
        o.regionBytes = 4 << 20;
        o.setupA = [entropy, stream, flowletTimeout](Ptr<RdmaNic> nic) {
            nic->SetAttribute("Entropy", EnumValue(entropy));
            nic->SetAttribute("FlowletTimeout", TimeValue(flowletTimeout));
            nic->AssignStreams(stream);
        };
        return o;
    }

    EntropyPair(RdmaNic::Entropy entropy, int64_t stream, Time flowletTimeout = MicroSeconds(100))
        : h(Make(entropy, stream, flowletTimeout)),
          atB(CreateObject<PortRecorder>())
    {
        h.SetReceiveErrorModel(1, atB);
    }

    /// Post, at `at`, a WRITE of `packets` x 1 KiB.
    void WriteAt(Time at, uint64_t id, uint32_t packets)
    {
        Simulator::Schedule(at, [this, id, packets]() {
            RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, id, TwoHosts::VA_A, packets * 1024);
            w.remoteAddr = TwoHosts::VA_B;
            h.qpA->PostSend(w);
        });
    }

    /// Run a 64-packet WRITE and return its ports.
    static std::vector<uint16_t> Ports(RdmaNic::Entropy entropy, int64_t stream)
    {
        EntropyPair p(entropy, stream);
        p.WriteAt(Time(0), 1, 64);
        Simulator::Run();
        std::vector<uint16_t> ports = p.atB->ports;
        Simulator::Destroy();
        return ports;
    }
};

/// Entropy qp: one port per QP, Linux's.
class EntropyQpTestCase : public TestCase
{
  public:
    EntropyQpTestCase()
        : TestCase("Entropy qp: every request of a QP carries the port of its QP pair "
                   "(rdma_calc_flow_label)")
    {
    }

  private:
    void DoRun() override
    {
        EntropyPair p(RdmaNic::ENTROPY_QP, 5);
        p.WriteAt(Time(0), 1, 64);
        Simulator::Run();
        const uint16_t expected =
            RoceFrame::UdpSourcePort(p.h.qpA->GetQpn(), p.h.qpB->GetQpn());
        NS_TEST_ASSERT_MSG_EQ(p.atB->ports.size(), 64, "64 requests");
        for (uint16_t port : p.atB->ports)
        {
            NS_TEST_EXPECT_MSG_EQ(port, expected, "the QP's port");
        }
        Simulator::Destroy();
    }
};

/// Entropy packet: a new port per frame, from the NIC's stream.
class EntropyPacketTestCase : public TestCase
{
  public:
    EntropyPacketTestCase()
        : TestCase("Entropy packet: a new port per request in 0xC000-0xFFFF, the same for the "
                   "same stream, others for another")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint16_t> a = EntropyPair::Ports(RdmaNic::ENTROPY_PACKET, 7);
        const std::vector<uint16_t> again = EntropyPair::Ports(RdmaNic::ENTROPY_PACKET, 7);
        const std::vector<uint16_t> other = EntropyPair::Ports(RdmaNic::ENTROPY_PACKET, 8);
        NS_TEST_ASSERT_MSG_EQ(a.size(), 64, "64 requests");
        for (uint16_t port : a)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(port, 0xC000, "in the dynamic range");
        }
        // 64 draws of 16384 values: about 0.1 collisions expected.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(std::set<uint16_t>(a.begin(), a.end()).size(),
                                    60,
                                    "nearly every request on its own port");
        NS_TEST_EXPECT_MSG_EQ((a == again), true, "same stream, same ports");
        NS_TEST_EXPECT_MSG_EQ((a != other), true, "another stream, other ports");
    }
};

/// Entropy flowlet: a gap above FlowletTimeout moves the QP, one below does not.
class EntropyFlowletTestCase : public TestCase
{
  public:
    EntropyFlowletTestCase()
        : TestCase("Entropy flowlet: back-to-back messages keep their port; after a gap above "
                   "FlowletTimeout (5 us) the QP takes a new one")
    {
    }

  private:
    void DoRun() override
    {
        EntropyPair p(RdmaNic::ENTROPY_FLOWLET, 9, MicroSeconds(5));
        p.WriteAt(Time(0), 1, 8);
        p.WriteAt(Time(0), 2, 8);           // right behind the first: no gap
        p.WriteAt(MicroSeconds(50), 3, 8);  // 50 us later: a new flowlet
        p.WriteAt(MicroSeconds(50), 4, 8);  // right behind it
        Simulator::Run();
        const std::vector<uint16_t>& ports = p.atB->ports;
        NS_TEST_ASSERT_MSG_EQ(ports.size(), 32, "32 requests");
        for (uint32_t i = 1; i < 16; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(ports[i], ports[0], "first flowlet: one port");
            NS_TEST_EXPECT_MSG_EQ(ports[16 + i], ports[16], "second flowlet: one port");
        }
        NS_TEST_EXPECT_MSG_NE(ports[16], ports[0], "the gap moved the QP");
        Simulator::Destroy();
    }
};

/// The reorder-depth bins of RdmaQueuePair::Stats.
class ReorderBinsTestCase : public TestCase
{
  public:
    ReorderBinsTestCase()
        : TestCase("Reorder depth bins: packets 1, 2, 3-4, ..., 65+; time 0-1, 1-2, ..., 64+ us")
    {
    }

  private:
    void DoRun() override
    {
        using S = RdmaQueuePair::Stats;
        const std::vector<std::pair<uint32_t, uint32_t>> packets = {
            {1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}, {9, 4}, {64, 6}, {65, 7}, {5000, 7}};
        for (const auto& [n, bin] : packets)
        {
            NS_TEST_EXPECT_MSG_EQ(S::PacketsBin(n), bin, n << " packets");
        }
        const std::vector<std::pair<Time, uint32_t>> times = {{NanoSeconds(999), 0},
                                                              {MicroSeconds(1), 1},
                                                              {NanoSeconds(3999), 2},
                                                              {MicroSeconds(4), 3},
                                                              {MicroSeconds(63), 6},
                                                              {MicroSeconds(64), 7},
                                                              {MilliSeconds(5), 7}};
        for (const auto& [t, bin] : times)
        {
            NS_TEST_EXPECT_MSG_EQ(S::TimeBin(t), bin, t);
        }
        const std::vector<std::string> names = {"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64",
                                                "65+"};
        const std::vector<std::string> timeNames = {"0-1", "1-2", "2-4", "4-8", "8-16", "16-32",
                                                    "32-64", "64+"};
        for (uint32_t b = 0; b < S::REORDER_BINS; ++b)
        {
            NS_TEST_EXPECT_MSG_EQ(S::BinName(b, false), names[b], "packet bin " << b);
            NS_TEST_EXPECT_MSG_EQ(S::BinName(b, true), timeNames[b], "time bin " << b);
        }
        S s;
        s.RecordLate(3, MicroSeconds(5));
        S sum;
        sum += s;
        sum += s;
        NS_TEST_EXPECT_MSG_EQ(sum.latePackets, 2, "late packets add up");
        NS_TEST_EXPECT_MSG_EQ(sum.lateDepthPackets, 6, "depths add up");
        NS_TEST_EXPECT_MSG_EQ(sum.lateDepthNs, 10000, "times add up");
        NS_TEST_EXPECT_MSG_EQ(sum.lateDepthPacketsBins[2], 2, "bin 3-4");
        NS_TEST_EXPECT_MSG_EQ(sum.lateDepthTimeBins[3], 2, "bin 4-8 us");
    }
};

/// The selective-repeat bitmaps in the QPC entry.
class QpcStateBitsTestCase : public TestCase
{
  public:
    QpcStateBitsTestCase()
        : TestCase("QPC entry: selective repeat's two BDP-cap bitmaps (2 x 123 bits at 125 kB "
                   "and 1 KiB MTU) make a 287-byte entry; the same SRAM holds 912 lines of 4 "
                   "ways instead of 1024, an Sram store 891 QPs instead of 1000")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaLossRecovery> irn = CreateObject<RdmaSelectiveRepeat>();
        Ptr<RdmaLossRecovery> gbn = CreateObject<RdmaGoBackN>();
        NS_TEST_EXPECT_MSG_EQ(irn->GetQpContextBits(1024), 246, "2 x ceil(125000 / 1024)");
        NS_TEST_EXPECT_MSG_EQ(gbn->GetQpContextBits(1024), 0, "go-back-N keeps nothing");

        Ptr<RdmaNicTables> tables = CreateObject<RdmaNicTables>();
        Ptr<NicCache> qpc = tables->GetCache(RdmaNicTables::QPC);
        tables->SetQpcStateBits(0);
        NS_TEST_EXPECT_MSG_EQ(tables->GetQpcEntryBytes(), 256, "no bits, no change");
        NS_TEST_EXPECT_MSG_EQ(qpc->GetEntries(), 1024, "lines unchanged");
        qpc->GetMemory()->SetAttribute("Capacity", UintegerValue(1000));
        tables->SetQpcStateBits(246);
        NS_TEST_EXPECT_MSG_EQ(tables->GetQpcEntryBytes(), 287, "256 + 31 bytes");
        NS_TEST_EXPECT_MSG_EQ(qpc->GetEntries(), 912, "1024 x 256 / 287, whole sets");
        NS_TEST_EXPECT_MSG_EQ(qpc->GetWays(), 4, "ways kept");
        NS_TEST_EXPECT_MSG_EQ(qpc->GetMemory()->GetCapacity(), 891, "1000 x 256 / 287");
        tables->SetQpcStateBits(0);
        NS_TEST_EXPECT_MSG_EQ(tables->GetQpcEntryBytes(), 256, "back to the base");
        NS_TEST_EXPECT_MSG_EQ(qpc->GetEntries(), 1024, "from the base, not compounded");
        NS_TEST_EXPECT_MSG_EQ(qpc->GetMemory()->GetCapacity(), 1000, "capacity back");

        Ptr<RdmaNicTables> full = CreateObject<RdmaNicTables>();
        Ptr<NicCache> fa = full->GetCache(RdmaNicTables::QPC);
        fa->SetAttribute("Entries", UintegerValue(64));
        fa->SetAttribute("Ways", UintegerValue(64));
        full->SetQpcStateBits(8 * 256); // entries of twice the bytes
        NS_TEST_EXPECT_MSG_EQ(fa->GetEntries(), 32, "half the lines");
        NS_TEST_EXPECT_MSG_EQ(fa->GetWays(), 32, "still fully associative");
    }
};

/// The suite.
class RdmaMultipathTestSuite : public TestSuite
{
  public:
    RdmaMultipathTestSuite()
        : TestSuite("rdma-multipath", UNIT)
    {
        AddTestCase(new EntropyQpTestCase, TestCase::QUICK);
        AddTestCase(new EntropyPacketTestCase, TestCase::QUICK);
        AddTestCase(new EntropyFlowletTestCase, TestCase::QUICK);
        AddTestCase(new ReorderBinsTestCase, TestCase::QUICK);
        AddTestCase(new QpcStateBitsTestCase, TestCase::QUICK);
    }
};

RdmaMultipathTestSuite g_rdmaMultipathTestSuite; //!< static instance

} // namespace
