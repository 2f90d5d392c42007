/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Incast through one RdmaSwitch with PFC on and off, the PFC watchdog, and
// deadlock detection on a routing loop.

#include "rdma-test-star.h"

#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/qbb-helper.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr uint8_t DATA_CLASS = 3;   //!< DSCP 26 -> class 3 (lossless by default)
constexpr double RATE_BPS = 100e9;  //!< every link
constexpr double DELAY_S = 1e-6;    //!< every cable
constexpr double ALPHA = 0.125;     //!< SwitchMmu Alpha default (HPCC pfc_a_shift 3)
constexpr uint64_t RESERVED = 4096; //!< SwitchMmu ReservedBytes default
constexpr uint32_t WRITE_BYTES = 128 * 1024;

/// Headroom by the IEEE 802.1Qbb delay model, computed here independently:
/// 2 x cable delay x rate + 2 maximum frames (with wire overhead) + the PFC frame.
uint64_t
ExpectedHeadroom(uint32_t mtu)
{
    const double cable = std::ceil(2 * DELAY_S * RATE_BPS / 8);
    const uint64_t maxFrame = mtu + 14 + 4;
    return static_cast<uint64_t>(cable) + 2 * (maxFrame + 24) + (64 + 20);
}

/// The IPv4 source of an untagged frame as an integer.
uint32_t
SourceOf(Ptr<const Packet> frame)
{
    uint8_t b[30];
    frame->CopyData(b, 30);
    return uint32_t(b[26]) << 24 | uint32_t(b[27]) << 16 | uint32_t(b[28]) << 8 | b[29];
}

/// True for a MAC Control (PFC) frame.
bool
IsMacControl(Ptr<const Packet> frame)
{
    uint8_t b[14];
    return frame->CopyData(b, 14) == 14 && (b[12] << 8 | b[13]) == 0x8808;
}

/**
 * N senders WRITE to one receiver through one switch at line rate.
 * PFC on: no drops, bottleneck >= 98 % busy, first XOFF where the dynamic
 * threshold formula puts it, headroom never exceeded. PFC off: drops, the
 * transport recovers, every message completes.
 */
class IncastTestCase : public TestCase
{
  public:
    IncastTestCase(uint32_t senders,
                   bool pfc,
                   uint64_t bufferBytes,
                   uint32_t writes,
                   RdmaMtu pathMtu = IBV_MTU_1024,
                   uint16_t deviceMtu = 9000)
        : TestCase(std::to_string(senders) + "-to-1 incast at 100 Gbps, path MTU " +
                   std::to_string(RdmaMtuBytes(pathMtu)) + ", port Mtu " +
                   std::to_string(deviceMtu) + ", PFC " +
                   (pfc ? "on: no drop, bottleneck >= 98 % busy, first XOFF at alpha x free "
                          "buffer (HPCC and Broadcom dynamic threshold) within one frame, headroom "
                          "(802.1Qbb delay model) never exceeded"
                        : "off: drops counted, go-back-N recovers, every WRITE completes")),
          m_senders(senders),
          m_pfc(pfc),
          m_buffer(bufferBytes),
          m_writes(writes),
          m_pathMtu(pathMtu),
          m_deviceMtu(deviceMtu)
    {
    }

  private:
    void DoRun() override
    {
        Star::Options o;
        o.hosts = m_senders + 1;
        o.connection.timeout = 10; // 4.096 us x 2^10 = 4.2 ms: tail losses recover soon
        o.connection.pathMtu = m_pathMtu;
        o.deviceMtu = m_deviceMtu;
        const bool pfc = m_pfc;
        const uint64_t buffer = m_buffer;
        o.configure = [pfc, buffer](Ptr<RdmaSwitch> sw) {
            sw->GetMmu()->SetAttribute("BufferSize", UintegerValue(buffer));
            sw->GetMmu()->SetAttribute("PfcEnabled", BooleanValue(pfc));
        };
        Star star(o);
        const uint32_t rx = m_senders;
        const uint32_t ports = m_senders + 1;
        std::vector<Ptr<RdmaQueuePair>> qps;
        for (uint32_t s = 0; s < m_senders; ++s)
        {
            qps.push_back(star.Connect(s, rx));
            for (uint32_t w = 0; w < m_writes; ++w)
            {
                NS_TEST_ASSERT_MSG_EQ(star.PostWrite(qps.back(), s, rx, w, WRITE_BYTES), 0, "post");
            }
        }

        // Independent occupancy bookkeeping: bytes in from each port minus
        // bytes out that came from it (host i's address is on port i).
        std::vector<int64_t> occupancy(ports, 0);
        for (uint32_t p = 0; p < ports; ++p)
        {
            star.switchPorts[p]->TraceConnectWithoutContext(
                "PhyRxEnd",
                Callback<void, Ptr<const Packet>>([&occupancy, p](Ptr<const Packet> f) {
                    if (!IsMacControl(f))
                    {
                        occupancy[p] += f->GetSize();
                    }
                }));
            star.switchPorts[p]->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>([&occupancy](Ptr<const Packet> f) {
                    if (!IsMacControl(f))
                    {
                        occupancy[SourceOf(f) - 0x0A000001] -= f->GetSize();
                    }
                }));
        }
        // Bottleneck busy time: wire time of every frame the receiver's port sends.
        Ptr<QbbNetDevice> bottleneck = star.switchPorts[rx];
        Time busy;
        Time first = Time::Max();
        Time lastEnd;
        bottleneck->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet> f) {
                Time w = bottleneck->GetWireTime(f->GetSize());
                busy += w;
                first = std::min(first, Simulator::Now());
                lastEnd = Simulator::Now() + w;
            }));
        // The first XOFF against the formula, with this test's own numbers.
        const uint64_t headroom = ExpectedHeadroom(m_deviceMtu);
        bool sawXoff = false;
        double xoffShared = 0;
        double xoffExpected = 0;
        const uint32_t xoffFrame = RdmaMtuBytes(m_pathMtu) + 90; // a data frame, headers included
        star.sw->GetMmu()->TraceConnectWithoutContext(
            "PfcXoff",
            Callback<void, uint32_t, uint8_t, uint64_t, uint64_t, uint64_t>(
                [&](uint32_t port, uint8_t, uint64_t, uint64_t, uint64_t) {
                    if (sawXoff)
                    {
                        return;
                    }
                    sawXoff = true;
                    double sharedTotal = 0;
                    for (int64_t b : occupancy)
                    {
                        sharedTotal += std::max<int64_t>(0, b - int64_t(RESERVED));
                    }
                    double pool = double(buffer) - double(RESERVED + headroom) * ports;
                    xoffExpected = ALPHA * (pool - sharedTotal);
                    xoffShared = double(occupancy[port]) - RESERVED;
                }));

        // Every frame the switch drops, its own or its egress queues', once.
        uint64_t dropsTraced = 0;
        star.sw->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, uint32_t, RdmaDropReason>(
                [&](Ptr<const Packet>, uint32_t, RdmaDropReason) { ++dropsTraced; }));

        Simulator::Run();

        const RdmaSwitch::Stats& st = star.sw->GetStats();
        const uint64_t drops = st.drops.Total();
        uint64_t queueDrops = 0;
        for (uint32_t p = 0; p < ports; ++p)
        {
            queueDrops += star.sw->GetPort(p)->GetTxQueue()->GetStats().drops.Total();
        }
        NS_TEST_ASSERT_MSG_EQ(drops, dropsTraced, "each drop counted once, as the Drop trace saw it");
        NS_TEST_ASSERT_MSG_EQ(queueDrops, drops, "an incast's drops are all its queues' admissions");
        for (uint32_t s = 0; s < m_senders; ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(star.Count(s, IBV_WC_SUCCESS), m_writes, "every WRITE completed");
        }
        if (m_pfc)
        {
            NS_TEST_ASSERT_MSG_EQ(drops, 0, "no drop with PFC");
            NS_TEST_ASSERT_MSG_EQ(sawXoff, true, "the incast paused the senders");
            NS_TEST_EXPECT_MSG_EQ_TOL(xoffShared,
                                      xoffExpected,
                                      double(xoffFrame),
                                      "first XOFF: ingress shared bytes vs alpha x free buffer");
            uint64_t maxHeadroom = 0;
            for (uint32_t p = 0; p < ports; ++p)
            {
                NS_TEST_ASSERT_MSG_EQ(star.sw->GetMmu()->GetHeadroom(p), headroom, "headroom");
                maxHeadroom =
                    std::max(maxHeadroom, star.sw->GetMmu()->GetMaxHeadroomUsed(p, DATA_CLASS));
            }
            NS_TEST_ASSERT_MSG_GT(maxHeadroom, 0, "headroom was used");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(maxHeadroom, headroom, "headroom never exceeded");
            double busyFraction = busy.GetSeconds() / (lastEnd - first).GetSeconds();
            NS_TEST_ASSERT_MSG_GT_OR_EQ(busyFraction, 0.98, "bottleneck busy fraction");
            std::cout << "  " << m_senders << "-to-1 PFC: XOFF " << st.pfcXoff << " XON "
                      << st.pfcXon << ", first XOFF at " << xoffShared << " B (formula "
                      << xoffExpected << "), max headroom " << maxHeadroom << " of " << headroom
                      << " B, bottleneck busy " << busyFraction * 100 << " %" << std::endl;
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(st.drops[DROP_INGRESS_LIMIT], 0, "lossy drops");
            NS_TEST_ASSERT_MSG_EQ(st.pfcXoff, 0, "no pause without PFC");
            uint64_t retx = 0;
            for (auto& qp : qps)
            {
                retx += qp->GetStats().retransmissions;
            }
            NS_TEST_ASSERT_MSG_GT(retx, 0, "the senders retransmitted");
            std::cout << "  " << m_senders << "-to-1 no PFC: " << drops << " drops, " << retx
                      << " retransmissions, all " << m_senders * m_writes << " WRITEs completed"
                      << std::endl;
        }
        Simulator::Destroy();
    }

    uint32_t m_senders;   //!< senders
    bool m_pfc;           //!< PFC on
    uint64_t m_buffer;    //!< switch buffer, bytes
    uint32_t m_writes;    //!< WRITEs per sender
    RdmaMtu m_pathMtu;    //!< the QPs' path MTU
    uint16_t m_deviceMtu; //!< every port's Mtu
};

} // namespace

/// Incast, watchdog and deadlock suite.
/**
 * An ACK that crosses an incast's queue: hosts 1 and 2 each WRITE 1 MB to
 * host 0 (no congestion control), so the switch's class-3 queue to host 0
 * grows by a link's rate; 20 us in, host 0 WRITEs 1000 bytes to host 3,
 * whose path is idle but whose ACK comes back through that queue. In the
 * QP's class the ACK waits behind the queue (as RoCE NICs send ACKs); with
 * host 3's RdmaNic::AckPriority 7 it passes it under strict priority (as
 * ConWeave's simulator sends every ACK), and the WRITE completes in about
 * the idle path's round trip.
 */
class AckPriorityTestCase : public TestCase
{
  public:
    explicit AckPriorityTestCase(int8_t ackPriority)
        : TestCase("an ACK crossing an incast's queue, RdmaNic::AckPriority " +
                   std::to_string(ackPriority) +
                   (ackPriority < 0 ? " (the QP's class): waits behind the queue"
                                    : ": passes it, the WRITE completes in an idle round trip")),
          m_ackPriority(ackPriority)
    {
    }

  private:
    void DoRun() override
    {
        Star::Options o;
        o.hosts = 4;
        Star star(o);
        star.nics[3]->SetAttribute("AckPriority", IntegerValue(m_ackPriority));
        for (uint32_t h : {1u, 2u})
        {
            star.PostWrite(star.Connect(h, 0), h, 0, h, 1 << 20);
        }
        Ptr<RdmaQueuePair> probe = star.Connect(0, 3);
        const Time posted = MicroSeconds(20);
        Time done;
        star.cqs[0]->SetCompletionCallback(
            Callback<void, const RdmaWorkCompletion&>([&done](const RdmaWorkCompletion& wc) {
                if (wc.wrId == 99 && wc.status == IBV_WC_SUCCESS)
                {
                    done = Simulator::Now();
                }
            }));
        uint64_t ackClassFrames = 0;
        star.switchPorts[0]->GetTxQueue()->TraceConnectWithoutContext(
            "Enqueue",
            Callback<void, Ptr<const Packet>, uint8_t>(
                [&ackClassFrames, this](Ptr<const Packet>, uint8_t cls) {
                    ackClassFrames += m_ackPriority >= 0 && cls == m_ackPriority;
                }));
        Simulator::Schedule(posted, [&]() { star.PostWrite(probe, 0, 3, 99, 1000); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(done, posted, "the probe WRITE completed");
        const Time fct = done - posted;
        // The idle round trip: 4 cables of 1 us and the frames' serialization.
        const Time idle = MicroSeconds(4);
        // By 20 us the queue to host 0 holds about 20 us x 100 Gb/s = 250 kB: 20 us.
        if (m_ackPriority < 0)
        {
            NS_TEST_EXPECT_MSG_GT(fct, idle + MicroSeconds(10), "the ACK waited in the queue");
        }
        else
        {
            NS_TEST_EXPECT_MSG_LT(fct, idle + MicroSeconds(1), "the ACK passed the queue");
            NS_TEST_EXPECT_MSG_EQ(ackClassFrames, 1, "one frame, the ACK, in its class");
        }
        std::cout << "  probe FCT " << fct.As(Time::US) << std::endl;
        Simulator::Destroy();
    }

    int8_t m_ackPriority; //!< host 3's AckPriority
};

class RdmaIncastTestSuite : public TestSuite
{
  public:
    RdmaIncastTestSuite()
        : TestSuite("rdma-incast", SYSTEM)
    {
        AddTestCase(new IncastTestCase(2, true, 1 << 20, 4), TestCase::QUICK);
        AddTestCase(new IncastTestCase(16, true, 2 << 20, 2), TestCase::QUICK);
        // Frames close to the port Mtu: the headroom formula is near its bound.
        AddTestCase(new IncastTestCase(2, true, 1 << 20, 4, IBV_MTU_4096, 4200), TestCase::QUICK);
        AddTestCase(new IncastTestCase(2, false, 1 << 20, 4), TestCase::QUICK);
        AddTestCase(new IncastTestCase(16, false, 2 << 20, 2), TestCase::QUICK);
        AddTestCase(new AckPriorityTestCase(-1), TestCase::QUICK);
        AddTestCase(new AckPriorityTestCase(7), TestCase::QUICK);
    }
};

static RdmaIncastTestSuite g_rdmaIncastTestSuite; //!< static instance
