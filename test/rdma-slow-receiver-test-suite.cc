/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The slow receiver (Guo et al., "RDMA over Commodity Ethernet at Scale",
 * SIGCOMM 2016, section 4.4): a NIC whose receive pipeline cannot keep up
 * with its link fills its receive buffer (RdmaNicRxBuffer) and pauses its
 * peer with PFC. Two hosts back to back at 100 Gb/s over a 1 us cable; A has
 * no pipeline (it costs nothing), B has one whose MTT is a blocking cache of
 * host memory: every new 4 KiB page a WRITE touches stalls B's receive side
 * for a PCIe read (850 ns), four 1 KiB packets per page arrive in 4 x 82 ns,
 * so B drains about 4 packets per ~0.9 us against 12 per us arriving.
 */

#include "rdma-test-hosts.h"

#include "ns3/boolean.h"
#include "ns3/nic-cache.h"
#include "ns3/nic-memory.h"
#include "ns3/pfc-header.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-nic-pipeline.h"
#include "ns3/rdma-nic-rx-buffer.h"
#include "ns3/rdma-target-pattern.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

const uint8_t DATA_CLASS = 3; //!< DSCP 26 of the QPs' packets -> class 3, lossless

/**
 * \brief Give a NIC a pipeline whose MTT is a blocking cache of host memory.
 * \param nic the NIC (no QP or MR yet)
 * \param pageBytes MTT page size
 */
void
AddSlowPipeline(Ptr<RdmaNic> nic, uint64_t pageBytes)
{
    Ptr<RdmaNicPipeline> p = CreateObject<RdmaNicPipeline>();
    nic->SetPipeline(p);
    Ptr<RdmaNicTables> t = p->GetTables();
    t->ConfigureTable(RdmaNicTables::MTT, 64, 4, NicCache::LRU, NicMemory::HOST_MEMORY, 0);
    Ptr<NicCache> mtt = t->GetCache(RdmaNicTables::MTT);
    mtt->SetAttribute("PageBytes", UintegerValue(pageBytes));
    mtt->SetAttribute("Blocking", BooleanValue(true));
}

/// What one 4 MiB WRITE from A to B shows.
struct SlowRun
{
    bool placed{false};            //!< B's region holds A's bytes
    uint32_t completions{0};       //!< successful completions on A
    uint64_t pausesSentByB{0};     //!< PFC frames pausing class 3 sent by B's port
    uint64_t pausesReceivedByA{0}; //!< PFC frames pausing class 3 received by A's port
    uint64_t rxBufferDrops{0};     //!< B's DROP_RX_BUFFER_FULL
    uint64_t maxOccupancy{0};      //!< B's class-3 occupancy, traced maximum
    uint64_t bufferBytes{0};       //!< B's BufferBytes
    uint64_t xoff{0};              //!< B's XOFF threshold
    uint64_t headroom{0};          //!< B's headroom
    uint64_t retransmissions{0};   //!< A's retransmitted packets
};

/**
 * \brief One WRITE of `length` bytes from A to B with B's pipeline slowed.
 * \param pageBytes B's MTT page size
 * \param pfc whether B's receive buffer sends PFC (false: class 3 is lossy)
 * \param bufferBytes B's BufferBytes
 * \param length bytes written
 * \return the figures
 */
SlowRun
RunSlowWrite(uint64_t pageBytes, bool pfc, uint64_t bufferBytes, uint64_t length)
{
    TwoHosts::Options o;
    o.dataMode = true;
    o.regionBytes = length;
    o.connection.pathMtu = IBV_MTU_1024;
    o.connection.timeout = 8; // 4.096 us x 2^8 = 1 ms: go-back-N waits for it when resent
                              // packets are dropped again (one NAK per episode)
    o.setupB = [=](Ptr<RdmaNic> nic) {
        AddSlowPipeline(nic, pageBytes);
        nic->GetRxBuffer()->SetAttribute("BufferBytes", UintegerValue(bufferBytes));
        nic->GetRxBuffer()->SetAttribute("PfcEnabled", BooleanValue(pfc));
    };
    TwoHosts h(o);
    TwoHosts::Fill(h.mrA, TwoHosts::VA_A, length, 7);
    SlowRun r;
    Ptr<RdmaNicRxBuffer> buffer = h.nicB->GetRxBuffer();
    buffer->TraceConnectWithoutContext(
        "Occupancy",
        Callback<void, uint8_t, uint64_t>([&r](uint8_t cls, uint64_t bytes) {
            if (cls == DATA_CLASS)
            {
                r.maxOccupancy = std::max(r.maxOccupancy, bytes);
            }
        }));
    RdmaSendWr wr = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, length);
    wr.remoteAddr = TwoHosts::VA_B;
    h.qpA->PostSend(wr);
    Simulator::Stop(MilliSeconds(200));
    Simulator::Run();
    auto devA = DynamicCast<QbbNetDevice>(h.devices.Get(0));
    auto devB = DynamicCast<QbbNetDevice>(h.devices.Get(1));
    r.completions = TwoHosts::Count(h.wcA, IBV_WC_SUCCESS);
    r.placed = TwoHosts::Holds(h.mrB, TwoHosts::VA_B, length, 7);
    r.pausesSentByB = devB->GetPfcController()->GetStats().pauseTx[DATA_CLASS];
    r.pausesReceivedByA = devA->GetPfcController()->GetStats().pauseRx[DATA_CLASS];
    r.rxBufferDrops = h.nicB->GetStats().rxDrops[DROP_RX_BUFFER_FULL];
    r.bufferBytes = bufferBytes;
    r.xoff = buffer->GetXoffBytes();
    r.headroom = buffer->GetHeadroomBytes();
    r.retransmissions = h.qpA->GetStats().retransmissions;
    Simulator::Destroy();
    return r;
}

/**
 * A slow receiver pauses its sender and loses nothing: B (4 KiB MTT pages,
 * blocking host-memory MTT) sends PFC pauses for class 3, A's port receives
 * them, no frame is dropped, nothing is retransmitted, every byte is placed,
 * and B's class-3 occupancy stays within BufferBytes = XOFF + headroom (the
 * 802.1Qbb headroom of a 1 us, 100 Gb/s cable with 9018-byte frames:
 * 2 x 12500 + 2 x (9018 + 24) + 84 = 43168 bytes) while having crossed XOFF.
 */
class SlowReceiverPausesTestCase : public TestCase
{
  public:
    SlowReceiverPausesTestCase()
        : TestCase("slow receiver (4 KiB pages, blocking MTT misses) pauses its sender: "
                   "no drop, every byte placed, occupancy within XOFF plus headroom")
    {
    }

  private:
    void DoRun() override
    {
        const SlowRun r = RunSlowWrite(4096, true, 128 * 1024, 4 << 20);
        NS_TEST_ASSERT_MSG_EQ(r.completions, 1u, "the WRITE completed");
        NS_TEST_ASSERT_MSG_EQ(r.placed, true, "bytes placed = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(r.headroom, 43168u, "802.1Qbb headroom of the link");
        NS_TEST_ASSERT_MSG_EQ(r.xoff, 128u * 1024 - 43168, "XOFF = BufferBytes - headroom");
        NS_TEST_ASSERT_MSG_GT(r.pausesSentByB, 0u, "B paused A");
        NS_TEST_ASSERT_MSG_EQ(r.pausesReceivedByA, r.pausesSentByB, "A got every pause");
        NS_TEST_ASSERT_MSG_EQ(r.rxBufferDrops, 0u, "lossless: nothing dropped");
        NS_TEST_ASSERT_MSG_EQ(r.retransmissions, 0u, "nothing resent");
        NS_TEST_ASSERT_MSG_GT(r.maxOccupancy, r.xoff, "the buffer crossed XOFF");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.maxOccupancy,
                                    r.xoff + r.headroom,
                                    "occupancy within XOFF + headroom");
    }
};

/**
 * The same receiver with 2 MiB pages misses twice in 4 MiB instead of 1024
 * times: it keeps up with the link and never pauses.
 */
class LargePagesNoPauseTestCase : public TestCase
{
  public:
    LargePagesNoPauseTestCase()
        : TestCase("the same receiver with 2 MiB pages keeps up: no pause")
    {
    }

  private:
    void DoRun() override
    {
        const SlowRun r = RunSlowWrite(2 << 20, true, 128 * 1024, 4 << 20);
        NS_TEST_ASSERT_MSG_EQ(r.completions, 1u, "the WRITE completed");
        NS_TEST_ASSERT_MSG_EQ(r.placed, true, "bytes placed = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(r.pausesSentByB, 0u, "no pause");
        NS_TEST_ASSERT_MSG_LT(r.maxOccupancy, r.xoff, "never near XOFF");
    }
};

/**
 * Without PFC class 3 is lossy at the NIC: the slow receiver drops what does
 * not fit (DROP_RX_BUFFER_FULL, the Drop trace's BUFFER_FULL), sends no
 * pause, and go-back-N still places every byte (IBA 9.7.5.1.2).
 */
class LossyClassDropsTestCase : public TestCase
{
  public:
    LossyClassDropsTestCase()
        : TestCase("lossy class: the slow receiver drops at its buffer's limit (BUFFER_FULL), "
                   "sends no pause, go-back-N recovers")
    {
    }

  private:
    void DoRun() override
    {
        const SlowRun r = RunSlowWrite(4096, false, 64 * 1024, 1 << 20);
        NS_TEST_ASSERT_MSG_EQ(r.pausesSentByB, 0u, "no pause from a lossy class");
        NS_TEST_ASSERT_MSG_GT(r.rxBufferDrops, 0u, "frames dropped at the buffer");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.maxOccupancy, r.bufferBytes, "never above BufferBytes");
        NS_TEST_ASSERT_MSG_GT(r.retransmissions, 0u, "the drops were resent");
        NS_TEST_ASSERT_MSG_EQ(r.completions, 1u, "the WRITE completed");
        NS_TEST_ASSERT_MSG_EQ(r.placed, true, "bytes placed = bytes sent");
    }
};

/**
 * RdmaNicRxBuffer alone: XOFF and XON decisions at the documented
 * thresholds, the drop reasons, and the refusal of a buffer smaller than one
 * frame plus the headroom.
 */
class RxBufferAdmitOrderTestCase : public TestCase
{
  public:
    RxBufferAdmitOrderTestCase()
        : TestCase("RdmaNicRxBuffer: frames admitted leave in arrival order, each from its class; "
                   "a dropped frame is not held")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaNicRxBuffer> b = CreateObject<RdmaNicRxBuffer>();
        b->SetAttribute("BufferBytes", UintegerValue(3000));
        b->SetAttribute("PfcEnabled", BooleanValue(false)); // every class lossy
        NS_TEST_ASSERT_MSG_EQ(b->Configure(DataRate("100Gbps"), MicroSeconds(1), 1518), "", "fits");
        NS_TEST_ASSERT_MSG_EQ(b->Admit(0, 1000), DROP_NONE, "class 0");
        NS_TEST_ASSERT_MSG_EQ(b->Admit(0, 2500), DROP_BUFFER_FULL, "lossy class 0 full");
        NS_TEST_ASSERT_MSG_EQ(b->Admit(5, 700), DROP_NONE, "class 5");
        b->ReleaseOldest(); // the 1000-byte frame of class 0, not the dropped one
        NS_TEST_ASSERT_MSG_EQ(b->GetBytes(0), 0u, "class 0 emptied");
        NS_TEST_ASSERT_MSG_EQ(b->GetBytes(5), 700u, "class 5 still holds its frame");
        b->ReleaseOldest();
        NS_TEST_ASSERT_MSG_EQ(b->GetBytes(5), 0u, "class 5 emptied");
    }
};

class RxBufferThresholdsTestCase : public TestCase
{
  public:
    RxBufferThresholdsTestCase()
        : TestCase("RdmaNicRxBuffer: XOFF above BufferBytes - headroom, XON at XOFF - "
                   "XonOffsetBytes, named drops, mis-sized buffer refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaNicRxBuffer> b = CreateObject<RdmaNicRxBuffer>();
        b->SetAttribute("BufferBytes", UintegerValue(20000));
        b->SetAttribute("HeadroomBytes", UintegerValue(5000));
        b->SetAttribute("XonOffsetBytes", UintegerValue(3000));
        NS_TEST_ASSERT_MSG_EQ(b->Configure(DataRate("100Gbps"), MicroSeconds(1), 1518), "", "fits");
        std::vector<std::pair<uint8_t, bool>> decisions;
        b->SetPfcHoldCallback(Callback<void, uint8_t, bool>(
            [&decisions](uint8_t cls, bool pause) { decisions.emplace_back(cls, pause); }));
        for (int i = 0; i < 15; ++i) // 15 000 bytes = XOFF: not above it
        {
            NS_TEST_ASSERT_MSG_EQ(b->Enqueue(3, 1000), DROP_NONE, "admitted");
        }
        NS_TEST_ASSERT_MSG_EQ(decisions.size(), 0u, "at XOFF, not above: no pause");
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(3, 1000), DROP_NONE, "into headroom");
        NS_TEST_ASSERT_MSG_EQ(decisions.size(), 1u, "one pause");
        NS_TEST_ASSERT_MSG_EQ(decisions[0].second, true, "pause of class 3");
        for (int i = 0; i < 4; ++i) // 20 000 bytes: full
        {
            NS_TEST_ASSERT_MSG_EQ(b->Enqueue(3, 1000), DROP_NONE, "headroom");
        }
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(3, 1000),
                              DROP_HEADROOM_FULL,
                              "lossless overflow is named");
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(0, 20000), DROP_NONE, "lossy class 0");
        NS_TEST_ASSERT_MSG_EQ(b->Enqueue(0, 1), DROP_BUFFER_FULL, "lossy full");
        NS_TEST_ASSERT_MSG_EQ(decisions.size(), 1u, "a lossy class never pauses");
        for (int i = 0; i < 8; ++i) // 12 000 bytes = XOFF - XonOffsetBytes
        {
            b->Dequeue(3, 1000);
        }
        NS_TEST_ASSERT_MSG_EQ(decisions.size(), 2u, "XON at XOFF - XonOffsetBytes");
        NS_TEST_ASSERT_MSG_EQ(decisions[1].second, false, "resume");
        NS_TEST_ASSERT_MSG_EQ(b->GetBytes(3), 12000u, "held");
        NS_TEST_ASSERT_MSG_EQ(b->GetDrops(), 2u, "two drops");

        Ptr<RdmaNicRxBuffer> small = CreateObject<RdmaNicRxBuffer>();
        small->SetAttribute("BufferBytes", UintegerValue(40000));
        const std::string error = small->Configure(DataRate("100Gbps"), MicroSeconds(1), 9018);
        const bool named = error.find("BufferBytes (40000)") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(named, true, "refused, naming BufferBytes: " << error);
        const uint64_t headroom =
            PfcHeader::ComputeHeadroom(DataRate("100Gbps"), MicroSeconds(1), 9018);
        NS_TEST_ASSERT_MSG_EQ(headroom, 43168u, "2 x 12500 + 2 x 9042 + 84");
    }
};

/**
 * The page size is the registered region's: a 64 MiB region takes 16384 MTT
 * entries at 4 KiB pages and 32 at 2 MiB (512 times fewer), a WRITE's
 * translation needs the pages it spans in its own region's page size, and a
 * page size that is not a power of two of at least 4 KiB is refused (null,
 * the EINVAL of ibv_reg_mr).
 */
class RegionPageSizeTestCase : public TestCase
{
  public:
    RegionPageSizeTestCase()
        : TestCase("MTT entries follow each region's page size: 64 MiB = 16384 entries at "
                   "4 KiB, 32 at 2 MiB; bad page sizes refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaNic> nic = CreateObject<RdmaNic>();
        nic->SetPipeline(CreateObject<RdmaNicPipeline>());
        Ptr<RdmaNicTables> t = nic->GetPipeline()->GetTables();
        Ptr<NicMemory> mtt = t->GetCache(RdmaNicTables::MTT)->GetMemory();
        Ptr<RdmaProtectionDomain> pd = nic->AllocPd();
        const uint64_t length = 64 << 20;
        const uint32_t access = IBV_ACCESS_LOCAL_WRITE;
        Ptr<RdmaMemoryRegion> small = nic->RegMr(pd, 0, length, access);
        NS_TEST_ASSERT_MSG_EQ(mtt->GetAllocated(), 16384u, "4 KiB pages (the cache's default)");
        Ptr<RdmaMemoryRegion> huge = nic->RegMr(pd, 1ULL << 40, length, access, 2 << 20);
        NS_TEST_ASSERT_MSG_EQ(mtt->GetAllocated(), 16384u + 32u, "2 MiB pages: 512x fewer");
        NS_TEST_ASSERT_MSG_EQ(t->GetPageBytes(huge->GetLkey()), 2u << 20, "region's page");
        NS_TEST_ASSERT_MSG_EQ(t->GetPageBytes(small->GetLkey()), 4096u, "cache's page");
        NS_TEST_ASSERT_MSG_EQ(t->MttPages(huge->GetLkey(), (1ULL << 40) + 4096, 4 << 20),
                              3u,
                              "4 MiB from 4 KiB in spans 3 huge pages");
        NS_TEST_ASSERT_MSG_EQ(t->MttPages(small->GetLkey(), 4096, 4 << 20), 1024u, "1024 pages");
        NS_TEST_ASSERT_MSG_NE(t->MttKey(huge->GetLkey(), (1ULL << 40)),
                              t->MttKey(huge->GetLkey(), (1ULL << 40) + (2 << 20)),
                              "next huge page, next entry");
        NS_TEST_ASSERT_MSG_EQ(t->MttKey(huge->GetLkey(), (1ULL << 40)),
                              t->MttKey(huge->GetLkey(), (1ULL << 40) + (2 << 20) - 1),
                              "same huge page, same entry");
        for (uint64_t bad : {uint64_t(3000), uint64_t(2048), uint64_t(6144)})
        {
            NS_TEST_ASSERT_MSG_EQ(nic->RegMr(pd, 0, length, access, bad),
                                  nullptr,
                                  "page size " << bad << " refused");
        }
        nic->DeregMr(huge);
        NS_TEST_ASSERT_MSG_EQ(mtt->GetAllocated(), 16384u, "released at its own page size");
        nic->Dispose();
    }
};

/**
 * RdmaTargetPattern: a 64 MiB footprint in 4 regions holds 1024 slots of a
 * 64 KiB message; uniform draws stay inside, on slot boundaries, and reach
 * every region; Zipf (s = 0.99) draws rank 1 with probability
 * 1 / H(1024, 0.99), H the generalized harmonic number (about 0.134, checked
 * within 3 standard errors over 20000 draws); a footprint whose regions are
 * smaller than the largest message is refused, naming FootprintBytes.
 */
class TargetPatternTestCase : public TestCase
{
  public:
    TargetPatternTestCase()
        : TestCase("RdmaTargetPattern: uniform slots inside the footprint, Zipf rank 1 at "
                   "1 over H(N, s), too small a footprint refused")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t size = 64 * 1024;
        Ptr<RdmaTargetPattern> p = CreateObject<RdmaTargetPattern>();
        NS_TEST_ASSERT_MSG_EQ(p->IsSpread(), false, "off by default");
        NS_TEST_ASSERT_MSG_EQ(p->Draw(size).offset, 0u, "off: every message at the start");
        p->SetAttribute("FootprintBytes", UintegerValue(64 << 20));
        p->SetAttribute("Regions", UintegerValue(4));
        p->AssignStreams(7);
        NS_TEST_ASSERT_MSG_EQ(p->GetRegionBytes(size), 16u << 20, "16 MiB regions");
        NS_TEST_ASSERT_MSG_EQ(p->Check(size), "", "fits");
        std::vector<uint32_t> perRegion(4, 0);
        for (int i = 0; i < 4000; ++i)
        {
            RdmaTargetPattern::Target t = p->Draw(size);
            NS_TEST_ASSERT_MSG_LT(t.region, 4u, "region index");
            NS_TEST_ASSERT_MSG_EQ(t.offset % size, 0u, "slot boundary");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(t.offset + size, 16u << 20, "inside the region");
            ++perRegion[t.region];
        }
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_GT(perRegion[r], 800u, "uniform over regions: ~1000 each");
        }
        p->SetAttribute("Distribution", StringValue("Zipf"));
        const int draws = 20000;
        int first = 0;
        for (int i = 0; i < draws; ++i)
        {
            RdmaTargetPattern::Target t = p->Draw(size);
            first += t.region == 0 && t.offset == 0;
        }
        double h = 0;
        for (int k = 1; k <= 1024; ++k)
        {
            h += 1.0 / std::pow(k, 0.99);
        }
        const double expected = 1.0 / h;
        const double se = std::sqrt(expected * (1 - expected) / draws);
        NS_TEST_ASSERT_MSG_EQ_TOL(double(first) / draws, expected, 3 * se, "rank 1 share");
        p->SetAttribute("FootprintBytes", UintegerValue(128 * 1024));
        const bool named = p->Check(size).find("FootprintBytes") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(named, true, "refused: " << p->Check(size));
    }
};

/**
 * Every byte placed goes through translation: a 1 MiB SEND at 1 KiB MTU
 * into a posted receive WQE costs the receiving NIC one MTT lookup per
 * packet (1024) and one fill per 4 KiB page (256); a 1 MiB READ costs the
 * requester the same for the responses it places (before this, SEND and
 * READ-response placement took no MTT lookup at all).
 */
class SendAndReadPlacementTestCase : public TestCase
{
  public:
    SendAndReadPlacementTestCase()
        : TestCase("SEND and READ-response placement take an MTT lookup per packet and a "
                   "fill per page on the receiving NIC")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t length = 1 << 20;
        auto setup = [](Ptr<RdmaNic> nic) {
            Ptr<RdmaNicPipeline> p = CreateObject<RdmaNicPipeline>();
            nic->SetPipeline(p);
            p->GetTables()->ConfigureTable(RdmaNicTables::MTT,
                                           4096,
                                           4,
                                           NicCache::LRU,
                                           NicMemory::HOST_MEMORY,
                                           0);
        };
        for (bool read : {false, true})
        {
            TwoHosts::Options o;
            o.dataMode = true;
            o.regionBytes = length;
            o.connection.pathMtu = IBV_MTU_1024;
            o.setupA = setup;
            o.setupB = setup;
            TwoHosts h(o);
            Ptr<RdmaNic> placer = read ? h.nicA : h.nicB;
            if (read)
            {
                TwoHosts::Fill(h.mrB, TwoHosts::VA_B, length, 9);
                RdmaSendWr wr = h.Wr(IBV_WR_RDMA_READ, 1, TwoHosts::VA_A, length);
                wr.remoteAddr = TwoHosts::VA_B;
                h.qpA->PostSend(wr);
            }
            else
            {
                TwoHosts::Fill(h.mrA, TwoHosts::VA_A, length, 9);
                h.qpB->PostRecv(h.Recv(2, TwoHosts::VA_B, length));
                h.qpA->PostSend(h.Wr(IBV_WR_SEND, 1, TwoHosts::VA_A, length));
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), 1u, "completed");
            NS_TEST_ASSERT_MSG_EQ((read ? TwoHosts::Holds(h.mrA, TwoHosts::VA_A, length, 9)
                                        : TwoHosts::Holds(h.mrB, TwoHosts::VA_B, length, 9)),
                                  true,
                                  "bytes placed");
            Ptr<NicCache> mtt = placer->GetPipeline()->GetTables()->GetCache(RdmaNicTables::MTT);
            NS_TEST_ASSERT_MSG_EQ(mtt->GetHits() + mtt->GetMisses(),
                                  1024u,
                                  (read ? "READ" : "SEND") << ": a lookup per packet placed");
            NS_TEST_ASSERT_MSG_EQ(mtt->GetMisses() - mtt->GetMergedMisses(),
                                  256u,
                                  (read ? "READ" : "SEND") << ": a fill per page");
            Simulator::Destroy();
        }
    }
};

/// The suite.
class RdmaSlowReceiverTestSuite : public TestSuite
{
  public:
    RdmaSlowReceiverTestSuite()
        : TestSuite("rdma-slow-receiver", SYSTEM)
    {
        AddTestCase(new RxBufferThresholdsTestCase(), TestCase::QUICK);
        AddTestCase(new RxBufferAdmitOrderTestCase(), TestCase::QUICK);
        AddTestCase(new RegionPageSizeTestCase(), TestCase::QUICK);
        AddTestCase(new TargetPatternTestCase(), TestCase::QUICK);
        AddTestCase(new SendAndReadPlacementTestCase(), TestCase::QUICK);
        AddTestCase(new SlowReceiverPausesTestCase(), TestCase::QUICK);
        AddTestCase(new LargePagesNoPauseTestCase(), TestCase::QUICK);
        AddTestCase(new LossyClassDropsTestCase(), TestCase::QUICK);
    }
};

/// The suite's instance.
static RdmaSlowReceiverTestSuite g_rdmaSlowReceiverTestSuite;

} // namespace
