/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the NIC wiring user scripts and rdma-sim share: what
 * RdmaHelper::Install puts on each NIC (pipeline and cache attributes, loss
 * recovery with IRN's BDP cap, the receive-buffer check) and what
 * RdmaTopologyHelper adds around it (ECN marking on every switch egress,
 * the fabric before the hosts).
 */

#include "ns3/config.h"
#include "ns3/nic-cache.h"
#include "ns3/nic-memory.h"
#include "ns3/qbb-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <stdexcept>

using namespace ns3;

namespace
{

/// \return a QP of a NIC (RESET state), with its own PD and CQ
Ptr<RdmaQueuePair>
MakeQp(Ptr<RdmaNic> nic)
{
    RdmaQueuePair::InitAttr init;
    init.pd = nic->AllocPd();
    init.sendCq = nic->CreateCq(16);
    init.recvCq = init.sendCq;
    return nic->CreateQp(init);
}

/// \return the BdpBytes of the loss-recovery policy of a NIC's new QP
uint64_t
BdpBytesOf(Ptr<RdmaNic> nic)
{
    UintegerValue v;
    MakeQp(nic)->GetLossRecovery()->GetAttribute("BdpBytes", v);
    return v.Get();
}

/// RdmaHelper's settings reach each NIC it installs.
class HelperNicSettingsTestCase : public TestCase
{
  public:
    HelperNicSettingsTestCase()
        : TestCase("Install gives each NIC its pipeline, cache attributes and loss recovery")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        QbbHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("25Gbps"));
        NetDeviceContainer devices = link.Install(nodes);

        RdmaHelper rdma;
        rdma.EnablePipeline();
        rdma.SetCacheAttribute(RdmaNicTables::QPC, "Entries", UintegerValue(7));
        rdma.SetCacheMemoryAttribute(RdmaNicTables::MTT, "Kind", StringValue("CardDram"));
        rdma.SetLossRecovery(ObjectFactory("ns3::RdmaSelectiveRepeat"));
        rdma.SetLossRecoveryBdp(MicroSeconds(8), 1024);
        Ptr<RdmaNic> a = rdma.Install(nodes.Get(0), devices.Get(0), Ipv4Address("10.0.0.1"));
        // The same helper, a path so short that one MTU is more than its BDP.
        rdma.SetLossRecoveryBdp(NanoSeconds(100), 1024);
        Ptr<RdmaNic> b = rdma.Install(nodes.Get(1), devices.Get(1), Ipv4Address("10.0.0.2"));

        NS_TEST_ASSERT_MSG_EQ(bool(a->GetPipeline()), true, "EnablePipeline gives a pipeline");
        NS_TEST_EXPECT_MSG_NE(a->GetPipeline(), b->GetPipeline(), "one pipeline per NIC");
        Ptr<RdmaNicTables> tables = a->GetPipeline()->GetTables();
        UintegerValue entries;
        tables->GetCache(RdmaNicTables::QPC)->GetAttribute("Entries", entries);
        // Entries 7 of 256 bytes, then IRN's two bitmaps of 25 packets (25 Gb/s
        // x 8 us / 1 KiB) in each QPC entry: 263 bytes, 6 in the same SRAM,
        // 4 in whole sets of the default 4 ways (RdmaNicTables::SetQpcStateBits).
        NS_TEST_EXPECT_MSG_EQ(entries.Get(), 4, "the QPC cache's Entries, for IRN's entries");
        NS_TEST_EXPECT_MSG_EQ(tables->GetQpcEntryBytes(), 263, "256 + 50 bits");
        NS_TEST_EXPECT_MSG_EQ(b->GetPipeline()->GetTables()->GetQpcEntryBytes(),
                              256 + 1,
                              "b's cap is one MTU: 2 bits");
        tables->GetCache(RdmaNicTables::MPT)->GetAttribute("Entries", entries);
        NS_TEST_EXPECT_MSG_NE(entries.Get(), 7, "the MPT cache keeps its own");
        StringValue kind;
        tables->GetCache(RdmaNicTables::MTT)->GetMemory()->GetAttribute("Kind", kind);
        NS_TEST_EXPECT_MSG_EQ(kind.Get(), "CardDram", "the MTT backing store's Kind");
        tables->GetCache(RdmaNicTables::QPC)->GetMemory()->GetAttribute("Kind", kind);
        NS_TEST_EXPECT_MSG_EQ(kind.Get(), "Sram", "the QPC backing store keeps its own");

        NS_TEST_EXPECT_MSG_EQ(MakeQp(a)->GetLossRecovery()->GetInstanceTypeId().GetName(),
                              "ns3::RdmaSelectiveRepeat",
                              "the loss recovery");
        // IRN 3.2: one BDP, 25 Gb/s x 8 us / 8 = 25000 bytes (rounded down
        // from the double product: 24999 or 25000); floored at one MTU.
        NS_TEST_EXPECT_MSG_EQ_TOL(double(BdpBytesOf(a)), 25000.0 - 0.5, 0.5, "25 Gb/s, 8 us");
        NS_TEST_EXPECT_MSG_EQ(BdpBytesOf(b), 1024, "312 bytes of BDP, floored at 1024");
        NS_TEST_EXPECT_MSG_NE(MakeQp(a)->GetLossRecovery(),
                              MakeQp(b)->GetLossRecovery(),
                              "one policy per NIC");
        Simulator::Destroy();
    }
};

/// A pipeline whose receive buffer cannot work on the link is refused at Install.
class HelperRxBufferTestCase : public TestCase
{
  public:
    HelperRxBufferTestCase()
        : TestCase("Install refuses a receive buffer below one frame plus PFC headroom")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaNicRxBuffer::BufferBytes", UintegerValue(100));
        NodeContainer nodes;
        nodes.Create(2);
        QbbHelper link;
        NetDeviceContainer devices = link.Install(nodes);
        RdmaHelper rdma;
        // No pipeline: the zero-cost NIC has no receive buffer in the path.
        Ptr<RdmaNic> plain = rdma.Install(nodes.Get(0), devices.Get(0), Ipv4Address("10.0.0.1"));
        NS_TEST_EXPECT_MSG_EQ(bool(plain->GetPipeline()), false, "installed without a pipeline");
        rdma.EnablePipeline();
        std::string error;
        try
        {
            rdma.Install(nodes.Get(1), devices.Get(1), Ipv4Address("10.0.0.2"));
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(error.rfind("BufferBytes (100) is below one largest frame", 0),
                              0,
                              "the reason names the attribute: " << error);
        Simulator::Destroy();
        Config::Reset();
    }
};

/// A QP pair made on one side only (an MPI rank simulating one of the two
/// hosts; the other has no NIC there, only its ids) numbers and connects
/// its QP as the whole pair does.
class HelperHalfPairTestCase : public TestCase
{
  public:
    HelperHalfPairTestCase()
        : TestCase("CreateConnectedQps with one host far (no NIC, its RdmaNicIds): the local QP has "
                   "the whole pair's numbers, the far host's ids number on alike")
    {
    }

  private:
    /// Two hosts on one link, as one process (or one rank) sees them.
    struct Copy
    {
        RdmaHostVerbs host[2];           //!< the hosts (nic null where far)
        RdmaQueuePair::InitAttr init[2]; //!< a PD and CQ of each local one
    };

    static Copy Make(bool local0, bool local1)
    {
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devices = QbbHelper().Install(nodes);
        RdmaHelper rdma;
        Copy c;
        const bool local[2] = {local0, local1};
        for (uint32_t h = 0; h < 2; ++h)
        {
            const Ipv4Address address(h == 0 ? "10.0.0.1" : "10.0.0.2");
            if (!local[h])
            {
                c.host[h].ids = Create<RdmaNicIds>(address, nodes.Get(h)->GetId());
                continue;
            }
            c.host[h].nic = rdma.Install(nodes.Get(h), devices.Get(h), address);
            c.host[h].ids = c.host[h].nic->GetIds();
            c.init[h].pd = c.host[h].nic->AllocPd();
            c.init[h].sendCq = c.host[h].nic->CreateCq(16);
            c.init[h].recvCq = c.init[h].sendCq;
        }
        return c;
    }

    void DoRun() override
    {
        Copy whole = Make(true, true);
        Copy rank0 = Make(true, false);
        Copy rank1 = Make(false, true);
        // Three pairs: 0 -> 1, 1 -> 0, 0 -> 1 (requester first), priority 3.
        const uint32_t req[3] = {0, 1, 0};
        for (uint32_t k = 0; k < 3; ++k)
        {
            const uint32_t a = req[k];
            const uint32_t b = 1 - a;
            std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> qps[3];
            Copy* copies[3] = {&whole, &rank0, &rank1};
            for (uint32_t i = 0; i < 3; ++i)
            {
                Copy& c = *copies[i];
                qps[i] = RdmaHelper::CreateConnectedQps(c.host[a],
                                                        c.init[a],
                                                        c.host[b],
                                                        c.init[b],
                                                        RdmaConnectionConfig(),
                                                        3);
            }
            const Ptr<RdmaQueuePair> wholeQp[2] = {qps[0].first, qps[0].second};
            NS_TEST_ASSERT_MSG_EQ(bool(wholeQp[0] && wholeQp[1]), true, "the whole pair");
            // rank0 holds host 0's QP, rank1 host 1's.
            const Ptr<RdmaQueuePair> half[2] = {a == 0 ? qps[1].first : qps[1].second,
                                                a == 1 ? qps[2].first : qps[2].second};
            const Ptr<RdmaQueuePair> none[2] = {a == 0 ? qps[1].second : qps[1].first,
                                                a == 1 ? qps[2].second : qps[2].first};
            for (uint32_t h = 0; h < 2; ++h)
            {
                const Ptr<RdmaQueuePair> w = h == a ? wholeQp[0] : wholeQp[1];
                const Ptr<RdmaQueuePair> peer = h == a ? wholeQp[1] : wholeQp[0];
                NS_TEST_ASSERT_MSG_EQ(bool(half[h]), true, "a QP where its host is local");
                NS_TEST_EXPECT_MSG_EQ(bool(none[h]), false, "none where it is far");
                NS_TEST_EXPECT_MSG_EQ(half[h]->GetQpn(), w->GetQpn(), "the whole pair's QPN");
                NS_TEST_EXPECT_MSG_EQ(half[h]->Query().destQpNum,
                                      peer->GetQpn(),
                                      "connected to the peer's QPN");
                NS_TEST_EXPECT_MSG_EQ(half[h]->Query().ahAttr.destGid,
                                      w->Query().ahAttr.destGid,
                                      "and its address");
                NS_TEST_EXPECT_MSG_EQ(half[h]->Query().ahAttr.trafficClass,
                                      w->Query().ahAttr.trafficClass,
                                      "in the same traffic class");
                NS_TEST_EXPECT_MSG_EQ(half[h]->Query().qpState, IBV_QPS_RTS, "ready to send");
                const Copy& other = h == 0 ? rank0 : rank1;
                NS_TEST_EXPECT_MSG_EQ(other.host[1 - h].ids->PeekQpn(),
                                      whole.host[1 - h].ids->PeekQpn(),
                                      "the far host's ids number on as its NIC does");
            }
        }
        // Memory keys: a far host's ids give the keys its NIC's RegMr gives.
        Ptr<RdmaMemoryRegion> mr = whole.host[1].nic->RegMr(whole.init[1].pd,
                                                            0x1000,
                                                            4096,
                                                            IBV_ACCESS_LOCAL_WRITE |
                                                                IBV_ACCESS_REMOTE_WRITE);
        NS_TEST_ASSERT_MSG_EQ(bool(mr), true, "a region");
        NS_TEST_EXPECT_MSG_EQ(rank0.host[1].ids->TakeKey(), mr->GetRkey(), "the same rkey");
        NS_TEST_EXPECT_MSG_EQ(mr->GetRkey(), 0x15Au, "index 1 << 8, variant 0x5A");
        Simulator::Destroy();
    }
};

/// RdmaTopologyHelper: switch ECN, the fabric before the hosts, the host's index in errors.
class TopologyHelperSettingsTestCase : public TestCase
{
  public:
    TopologyHelperSettingsTestCase()
        : TestCase("The topology helper marks ECN on every egress and installs hosts last")
    {
    }

  private:
    void DoRun() override
    {
        const SwitchEcnParams ecn{1000, 5000, 0.2};
        RdmaLinkParams host;
        host.rate = DataRate("25Gbps");
        host.delay = NanoSeconds(500);
        {
            RdmaTopologyHelper topo;
            topo.SetSwitchEcn(ecn);
            topo.InstallFabric(RdmaTopologySpec::Star(3, host));
            Ptr<RdmaSwitch> sw = topo.GetSwitch(0);
            NS_TEST_ASSERT_MSG_EQ(sw->GetNPorts(), 3, "one port per host");
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                for (uint8_t cls = 0; cls < QbbNetDevice::NUM_CLASSES; ++cls)
                {
                    const SwitchEcnParams& got = sw->GetEcnParams(p, cls);
                    NS_TEST_EXPECT_MSG_EQ(got.kminBytes, ecn.kminBytes, "Kmin");
                    NS_TEST_EXPECT_MSG_EQ(got.kmaxBytes, ecn.kmaxBytes, "Kmax");
                    NS_TEST_EXPECT_MSG_EQ(got.pmax, ecn.pmax, "Pmax");
                }
            }
            // Two hops each way: propagation 4 x 500 ns plus the frames' wire
            // times, known before any NIC exists.
            const Time rtt = topo.GetPaths().GetBaseRtt(0, 2, 1082, 62);
            NS_TEST_ASSERT_MSG_GT(rtt, NanoSeconds(2000), "base RTT from the fabric alone");
            RdmaHelper rdma;
            rdma.SetNicAttribute("BaseRtt", TimeValue(rtt));
            topo.SetRdmaHelper(rdma);
            topo.InstallHosts();
            for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
            {
                TimeValue v;
                topo.GetNic(h)->GetAttribute("BaseRtt", v);
                NS_TEST_EXPECT_MSG_EQ(v.Get(), rtt, "the helper's NIC attribute");
                NS_TEST_EXPECT_MSG_EQ(topo.GetHostIndex(topo.GetHostAddress(h)), h, "address");
            }
            Simulator::Destroy();
        }
        {
            RdmaTopologyHelper topo;
            topo.Install(RdmaTopologySpec::Star(2, host));
            NS_TEST_EXPECT_MSG_NE(topo.GetSwitch(0)->GetEcnParams(1, 3).kmaxBytes,
                                  ecn.kmaxBytes,
                                  "the switch's own marking unless set");
            Simulator::Destroy();
        }
        {
            Config::SetDefault("ns3::RdmaNicRxBuffer::BufferBytes", UintegerValue(100));
            RdmaTopologyHelper topo;
            RdmaHelper rdma;
            rdma.EnablePipeline();
            topo.SetRdmaHelper(rdma);
            std::string error;
            try
            {
                topo.Install(RdmaTopologySpec::Star(2, host));
            }
            catch (const std::invalid_argument& e)
            {
                error = e.what();
            }
            const std::string tail = " of host 0's link";
            NS_TEST_EXPECT_MSG_EQ(
                (error.size() > tail.size() &&
                 error.compare(error.size() - tail.size(), tail.size(), tail) == 0),
                true,
                "the error names the host: " << error);
            Simulator::Destroy();
            Config::Reset();
        }
    }
};

} // namespace

/// The helper suite.
class RdmaHelperTestSuite : public TestSuite
{
  public:
    RdmaHelperTestSuite()
        : TestSuite("rdma-helper", UNIT)
    {
        AddTestCase(new HelperNicSettingsTestCase, TestCase::QUICK);
        AddTestCase(new HelperRxBufferTestCase, TestCase::QUICK);
        AddTestCase(new HelperHalfPairTestCase, TestCase::QUICK);
        AddTestCase(new TopologyHelperSettingsTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static RdmaHelperTestSuite g_rdmaHelperTestSuite;
