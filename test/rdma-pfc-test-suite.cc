/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the traffic classes and IEEE 802.1Qbb PFC of QbbNetDevice:
 * classification by PCP and DSCP, strict priority and DWRR between classes,
 * the timing of received pauses, XON, the reload of a running pause,
 * refresh while held, 802.3x PAUSE, MAC Control frames never passed up,
 * the TxReady pull hook while paused, and an RC transfer paused and resumed.
 *
 * Most cases run at 16 Gb/s so that every time is a whole number of
 * nanoseconds (the runner keeps ns-3's nanosecond resolution):
 * - a 976-byte frame takes W = (976 + 24) x 8 / 16 Gb/s = 500 ns,
 * - a PFC frame (60 bytes) takes Wpfc = (60 + 24) x 8 / 16 Gb/s = 42 ns,
 * - one pause quantum is 512 bit times = 32 ns, so q quanta pause a class
 *   for q x 512 / R = q x 32 ns,
 * - the cable delay is D = 1 us.
 * A PFC frame whose transmission starts at tP reaches the paused port at
 * tA = tP + Wpfc + D (its last bit), and the class may start frames again at
 * tA + q x 512 / R.
 */

#include "rdma-test-data.h"
#include "rdma-test-hosts.h"
#include "rdma-test-link.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/node-container.h"
#include "ns3/pointer.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-helper.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Wire time of a 976-byte frame at 16 Gb/s.
const Time W = NanoSeconds(500);
/// Wire time of a PFC frame at 16 Gb/s.
const Time W_PFC = NanoSeconds(42);
/// Cable delay.
const Time D = MicroSeconds(1);
/// Size of the test data frames (W at 16 Gb/s).
constexpr uint32_t FRAME = 976;
/// Offset of the sequence number in a test frame.
constexpr uint32_t SEQ_AT = 20;

/**
 * \param q pause quanta
 * \param bitsPerNs line rate in Gb/s (bits per ns), a divisor of 512
 * \return q x 512 bit times
 */
Time
PauseTime(uint32_t q, uint32_t bitsPerNs)
{
    return NanoSeconds(int64_t{q} * 512 / bitsPerNs);
}

/// Bytes of an Ethernet header with the given addresses and EtherType.
std::vector<uint8_t>
EthBytes(Mac48Address src, Mac48Address dst, uint16_t type)
{
    std::vector<uint8_t> b(14);
    dst.CopyTo(b.data());
    src.CopyTo(b.data() + 6);
    b[12] = static_cast<uint8_t>(type >> 8);
    b[13] = static_cast<uint8_t>(type);
    return b;
}

/**
 * \brief A frame of `bytes` bytes that the device classifies by its
 * 802.1Q PCP: tag with the PCP, inner EtherType 0x88B5, sequence number.
 */
Ptr<Packet>
TaggedFrame(Mac48Address src, Mac48Address dst, uint32_t bytes, uint8_t pcp, uint32_t seq)
{
    std::vector<uint8_t> b = EthBytes(src, dst, 0x8100);
    b.resize(bytes, 0);
    b[14] = static_cast<uint8_t>(pcp << 5);
    b[16] = 0x88;
    b[17] = 0xB5;
    for (int i = 0; i < 4; ++i)
    {
        b[SEQ_AT + i] = static_cast<uint8_t>(seq >> (24 - 8 * i));
    }
    return ToPacket(b);
}

/**
 * \brief A frame of `bytes` bytes that the device classifies by IPv4 DSCP:
 * EtherType 0x0800, version/IHL 0x45, TOS = DSCP << 2 | ECN, sequence number.
 */
Ptr<Packet>
Ipv4Frame(Mac48Address src, Mac48Address dst, uint32_t bytes, uint8_t dscp, uint32_t seq)
{
    std::vector<uint8_t> b = EthBytes(src, dst, 0x0800);
    b.resize(bytes, 0);
    b[14] = 0x45;
    b[15] = static_cast<uint8_t>((dscp << 2) | 2);
    for (int i = 0; i < 4; ++i)
    {
        b[SEQ_AT + i] = static_cast<uint8_t>(seq >> (24 - 8 * i));
    }
    return ToPacket(b);
}

/// \return the sequence number of a test frame
uint32_t
Seq(Ptr<const Packet> p)
{
    uint8_t b[SEQ_AT + 4];
    p->CopyData(b, sizeof(b));
    return (uint32_t{b[SEQ_AT]} << 24) | (uint32_t{b[SEQ_AT + 1]} << 16) |
           (uint32_t{b[SEQ_AT + 2]} << 8) | b[SEQ_AT + 3];
}

using rdmatest::Link;

/// A helper with the given rate and D.
QbbHelper
MakeHelper(const std::string& rate)
{
    QbbHelper h;
    h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
    h.SetChannelAttribute("Delay", TimeValue(D));
    return h;
}

/// A time-stamped event of a trace.
struct Event
{
    Time t;        //!< when
    uint32_t a;    //!< first value (class, sequence number)
    uint32_t b{0}; //!< second value (quanta, paused flag)

    /// \return true if equal
    bool operator==(const Event& o) const
    {
        return t == o.t && a == o.a && b == o.b;
    }
};

/// Print an event list for failure messages.
std::string
Show(const std::vector<Event>& v)
{
    std::ostringstream os;
    for (const Event& e : v)
    {
        os << "(" << e.t.GetNanoSeconds() << "ns," << e.a << "," << e.b << ") ";
    }
    return os.str();
}

/// Records the PFC traces and receptions of a link.
struct Recorder
{
    std::vector<Event> rxAtB;  //!< frames received by b: time, sequence number
    std::vector<Event> rxAtA;  //!< frames a's frame callback got
    std::vector<Event> pfcTxB; //!< b's PfcPauseTx: class, quanta
    std::vector<Event> pfcRxA; //!< a's PfcPauseRx: class, quanta
    std::vector<Event> stateA; //!< a's PfcPauseState: class, paused
    uint32_t macRxA{0};        //!< a's MacRx calls
    uint32_t phyRxEndA{0};     //!< a's PhyRxEnd calls

    /// Connect to the link's devices.
    explicit Recorder(Link& l)
    {
        l.b->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([this](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                rxAtB.push_back({Simulator::Now(), Seq(p)});
            }));
        l.a->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([this](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                rxAtA.push_back({Simulator::Now(), p->GetSize()});
            }));
        l.b->GetPfcController()->TraceConnectWithoutContext("PauseTx",
            Callback<void, uint8_t, uint16_t>([this](uint8_t c, uint16_t q) {
                pfcTxB.push_back({Simulator::Now(), c, q});
            }));
        l.a->GetPfcController()->TraceConnectWithoutContext("PauseRx",
            Callback<void, uint8_t, uint16_t>([this](uint8_t c, uint16_t q) {
                pfcRxA.push_back({Simulator::Now(), c, q});
            }));
        l.a->GetPfcController()->TraceConnectWithoutContext("PauseState",
            Callback<void, uint8_t, bool>([this](uint8_t c, bool paused) {
                stateA.push_back({Simulator::Now(), c, paused ? 1U : 0U});
            }));
        l.a->TraceConnectWithoutContext(
            "MacRx",
            Callback<void, Ptr<const Packet>>([this](Ptr<const Packet>) { ++macRxA; }));
        l.a->TraceConnectWithoutContext(
            "PhyRxEnd",
            Callback<void, Ptr<const Packet>>([this](Ptr<const Packet>) { ++phyRxEndA; }));
    }
};

/**
 * A pause of q = 100 quanta stops class 3 for exactly q x 512 / R after the
 * PFC frame's last bit arrives, R being the paused port's rate; the frame
 * being serialized finishes; class 1 keeps flowing.
 *
 * a queues six class-3 frames s0..s5 at 0 (they would start at k x W). b
 * sends PFC (class 3, 100 quanta) at tP = 600 ns; it arrives at a at
 * tA = tP + Wpfc(b) + D, during s3 (1500-2000 ns), which finishes and
 * arrives at b at 3000 ns. At 2500 ns a gets two class-1 frames u0, u1:
 * they start at 2500 and 3000 and arrive at 4000 and 4500. s4 starts at
 * tE = tA + 100 x 512 / R(a) = tA + 3200 ns and arrives at tE + W + D, s5
 * W later. Run twice: b at a's rate (16 Gb/s: Wpfc = 42 ns), and b at
 * 8 Gb/s (Wpfc = 84 ns; b's quantum would be 64 ns, so a pause timed at
 * the sender's rate would last 6.4 us).
 */
class PauseTimingTestCase : public TestCase
{
  public:
    /**
     * \param rateB b's line rate, Gb/s (16 or 8)
     */
    explicit PauseTimingTestCase(uint32_t rateB)
        : TestCase("pause of q quanta stops a class for q x 512 bit times of the paused port "
                   "from the PFC frame's last bit, other classes flow, the current frame "
                   "finishes (PFC sender at " +
                   std::to_string(rateB) + " Gbps)"),
          m_rateB(rateB)
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeHelper("16Gbps");
        Link l(helper);
        l.b->SetDataRate(DataRate(uint64_t{m_rateB} * 1000000000ULL));
        Recorder r(l);
        const Time wPfcB = NanoSeconds(672 / m_rateB);
        const Time tP = NanoSeconds(600);
        const Time tA = tP + wPfcB + D;
        const Time tE = tA + PauseTime(100, 16);
        for (uint32_t k = 0; k < 6; ++k)
        {
            l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 3, k));
        }
        Simulator::Schedule(tP, [&]() { l.b->GetPfcController()->SendPause(3, 100); });
        Simulator::Schedule(NanoSeconds(2500), [&]() {
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->IsPaused(3), true, "class 3 paused at 2500 ns");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->IsPaused(1), false, "class 1 not paused");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetTxQueue()->GetFrames(3), 2, "s4, s5 wait");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetTxQueue()->GetBytes(3), 2 * FRAME, "their bytes");
            NS_TEST_EXPECT_MSG_EQ(l.a->IsTxIdle(), false, "frames wait: not idle");
            for (uint32_t k = 0; k < 2; ++k)
            {
                l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 1, 100 + k));
            }
        });
        Simulator::Run();

        const std::vector<Event> expect = {{NanoSeconds(1500), 0},
                                           {NanoSeconds(2000), 1},
                                           {NanoSeconds(2500), 2},
                                           {NanoSeconds(3000), 3},
                                           {NanoSeconds(4000), 100},
                                           {NanoSeconds(4500), 101},
                                           {tE + W + D, 4},
                                           {tE + W + W + D, 5}};
        NS_TEST_EXPECT_MSG_EQ((r.rxAtB == expect), true, "arrivals at b: " << Show(r.rxAtB));
        NS_TEST_EXPECT_MSG_EQ((r.pfcTxB == std::vector<Event>{{tP, 3, 100}}),
                              true,
                              "b's PfcPauseTx: " << Show(r.pfcTxB));
        NS_TEST_EXPECT_MSG_EQ((r.pfcRxA == std::vector<Event>{{tA, 3, 100}}),
                              true,
                              "a's PfcPauseRx: " << Show(r.pfcRxA));
        NS_TEST_EXPECT_MSG_EQ((r.stateA == std::vector<Event>{{tA, 3, 1}, {tE, 3, 0}}),
                              true,
                              "a's PfcPauseState: " << Show(r.stateA));
        const QbbPfcController::Stats& sa = l.a->GetPfcController()->GetStats();
        const QbbPfcController::Stats& sb = l.b->GetPfcController()->GetStats();
        NS_TEST_EXPECT_MSG_EQ(sa.pausedTime[3], PauseTime(100, 16), "paused time of class 3");
        NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetPausedTime(3), PauseTime(100, 16), "GetPausedTime");
        NS_TEST_EXPECT_MSG_EQ(sa.pausedTime[1], Time(0), "class 1 never paused");
        NS_TEST_EXPECT_MSG_EQ(sa.framesRx, 1, "a received one PFC frame");
        NS_TEST_EXPECT_MSG_EQ(sa.pauseRx[3], 1, "one pause of class 3");
        NS_TEST_EXPECT_MSG_EQ(sb.framesTx, 1, "b sent one PFC frame");
        NS_TEST_EXPECT_MSG_EQ(sb.pauseTx[3], 1, "pausing class 3");
        NS_TEST_EXPECT_MSG_EQ(l.b->GetStats().txFrames, 1, "the PFC frame is a transmitted frame");
        // Consumed by a's MAC: seen by PhyRxEnd (pcap), never passed up.
        NS_TEST_EXPECT_MSG_EQ(r.rxAtA.size(), 0, "no PFC frame reaches a's frame callback");
        NS_TEST_EXPECT_MSG_EQ(r.macRxA, 0, "MacRx not fired");
        NS_TEST_EXPECT_MSG_EQ(r.phyRxEndA, 1, "PhyRxEnd fired");
        NS_TEST_EXPECT_MSG_EQ(l.a->GetStats().rxFrames, 0, "not counted as passed up");
        NS_TEST_EXPECT_MSG_EQ(l.a->GetStats().txFrames, 8, "a sent every frame");
        Simulator::Destroy();
    }

    uint32_t m_rateB; //!< b's rate, Gb/s
};

/**
 * XON resumes a class at once; a new pause time replaces a running one;
 * XON for a class that is not paused changes nothing.
 *
 * a queues four class-3 frames at 0. b pauses class 3 for 65535 quanta
 * (2.1 ms) at 100 ns: it arrives at 1142 ns, during s2 (1000-1500 ns);
 * b sends XON at 3000 ns, arriving at 4042 ns, when s3 starts (arrives at
 * 5542 ns). Class 5: paused for 65535 quanta at 6000 ns (arrives 7042 ns),
 * two frames queued at 8000 ns wait; the pause is reloaded with 10 quanta
 * at 9000 ns (arrives 10042 ns): the frames start at 10042 + 320 = 10362 ns
 * and 10862 ns. XON for class 2 at 12000 ns: counted, no state change.
 */
class XonAndReloadTestCase : public TestCase
{
  public:
    XonAndReloadTestCase()
        : TestCase("XON resumes at once, a new pause time replaces the running one")
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeHelper("16Gbps");
        Link l(helper);
        Recorder r(l);
        for (uint32_t k = 0; k < 4; ++k)
        {
            l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 3, k));
        }
        Simulator::Schedule(NanoSeconds(100), [&]() { l.b->GetPfcController()->SendPause(3, 65535); });
        Simulator::Schedule(NanoSeconds(3000), [&]() { l.b->GetPfcController()->SendResume(3); });
        Simulator::Schedule(NanoSeconds(6000), [&]() { l.b->GetPfcController()->SendPause(5, 65535); });
        Simulator::Schedule(NanoSeconds(8000), [&]() {
            for (uint32_t k = 0; k < 2; ++k)
            {
                l.a->SendFrame(Ipv4Frame(l.macA, l.macB, FRAME, 40, 50 + k)); // DSCP 40: class 5
            }
        });
        Simulator::Schedule(NanoSeconds(9000), [&]() { l.b->GetPfcController()->SendPause(5, 10); });
        Simulator::Schedule(NanoSeconds(12000), [&]() { l.b->GetPfcController()->SendResume(2); });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();

        const std::vector<Event> expect = {{NanoSeconds(1500), 0},
                                           {NanoSeconds(2000), 1},
                                           {NanoSeconds(2500), 2},
                                           {NanoSeconds(5542), 3},
                                           {NanoSeconds(11862), 50},
                                           {NanoSeconds(12362), 51}};
        NS_TEST_EXPECT_MSG_EQ((r.rxAtB == expect), true, "arrivals at b: " << Show(r.rxAtB));
        const std::vector<Event> state = {{NanoSeconds(1142), 3, 1},
                                          {NanoSeconds(4042), 3, 0},
                                          {NanoSeconds(7042), 5, 1},
                                          {NanoSeconds(10362), 5, 0}};
        NS_TEST_EXPECT_MSG_EQ((r.stateA == state), true, "PfcPauseState: " << Show(r.stateA));
        const std::vector<Event> rx = {{NanoSeconds(1142), 3, 65535},
                                       {NanoSeconds(4042), 3, 0},
                                       {NanoSeconds(7042), 5, 65535},
                                       {NanoSeconds(10042), 5, 10},
                                       {NanoSeconds(13042), 2, 0}};
        NS_TEST_EXPECT_MSG_EQ((r.pfcRxA == rx), true, "PfcPauseRx: " << Show(r.pfcRxA));
        const QbbPfcController::Stats& sa = l.a->GetPfcController()->GetStats();
        NS_TEST_EXPECT_MSG_EQ(sa.pausedTime[3], NanoSeconds(2900), "class 3 paused 2.9 us");
        NS_TEST_EXPECT_MSG_EQ(sa.pausedTime[5], NanoSeconds(3320), "class 5 paused 3.32 us");
        NS_TEST_EXPECT_MSG_EQ(sa.pauseRx[5], 2, "two pauses of class 5");
        NS_TEST_EXPECT_MSG_EQ(sa.resumeRx[3], 1, "one XON of class 3");
        NS_TEST_EXPECT_MSG_EQ(sa.resumeRx[2], 1, "one XON of class 2");
        NS_TEST_EXPECT_MSG_EQ(l.b->GetPfcController()->GetStats().resumeTx[3], 1, "b sent one XON of class 3");
        NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->IsPaused(3) || l.a->GetPfcController()->IsPaused(5), false, "free");
        Simulator::Destroy();
    }
};

/**
 * Strict priority: with the port busy, frames of every class queued in
 * mixed order leave highest class first, FIFO within a class; classes come
 * from the PCP of tagged frames and the DSCP of IPv4 frames alike. A PFC
 * frame requested while a frame is being serialized goes out right after
 * it, ahead of every queued frame.
 */
class StrictPriorityTestCase : public TestCase
{
  public:
    StrictPriorityTestCase()
        : TestCase("strict priority: highest class first, FIFO within a class; PFC frames "
                   "jump ahead of data")
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeHelper("16Gbps");
        Link l(helper);
        Recorder r(l);
        std::vector<Event> pfcRxB;
        l.b->GetPfcController()->TraceConnectWithoutContext("PauseRx",
            Callback<void, uint8_t, uint16_t>([&](uint8_t c, uint16_t q) {
                pfcRxB.push_back({Simulator::Now(), c, q});
            }));
        // The queue's Dequeue trace gets each data frame that waited, with
        // its class; the blocker went straight to the wire and PFC frames
        // are not queued.
        uint32_t dequeued = 0;
        l.a->GetTxQueue()->TraceConnectWithoutContext(
            "Dequeue",
            Callback<void, Ptr<const Packet>, uint8_t>([&](Ptr<const Packet> frame, uint8_t cls) {
                ++dequeued;
                NS_TEST_EXPECT_MSG_EQ(+cls,
                                      +l.a->GetClassMap().Classify(frame),
                                      "class of data frame " << dequeued);
            }));
        // Blocker (class 0) goes straight to the wire, then the mix.
        l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 0, 0));
        const std::vector<uint8_t> classes = {2, 6, 0, 7, 3, 6, 1, 5, 4, 2, 7, 0};
        std::map<uint8_t, std::vector<uint32_t>> byClass;
        for (uint32_t i = 0; i < classes.size(); ++i)
        {
            const uint8_t c = classes[i];
            const uint32_t seq = 1 + i;
            // Even positions tagged (PCP = c), odd ones IPv4 with DSCP 8c + 3 (class c).
            l.a->SendFrame(i % 2 ? Ipv4Frame(l.macA, l.macB, FRAME, 8 * c + 3, seq)
                                 : TaggedFrame(l.macA, l.macB, FRAME, c, seq));
            byClass[c].push_back(seq);
        }
        for (uint8_t c = 0; c < 8; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(l.a->GetTxQueue()->GetFrames(c),
                                  byClass[c].size(),
                                  "frames queued in class " << +c);
            NS_TEST_EXPECT_MSG_EQ(l.a->GetTxQueue()->GetBytes(c),
                                  byClass[c].size() * FRAME,
                                  "bytes queued in class " << +c);
        }
        // During the blocker (0-500 ns) a asks b to pause class 1 for 7 quanta.
        Simulator::Schedule(NanoSeconds(250), [&]() { l.a->GetPfcController()->SendPause(1, 7); });
        Simulator::Run();

        std::vector<uint32_t> order;
        for (const Event& e : r.rxAtB)
        {
            order.push_back(e.a);
        }
        std::vector<uint32_t> expect = {0};
        for (int c = 7; c >= 0; --c)
        {
            expect.insert(expect.end(), byClass[c].begin(), byClass[c].end());
        }
        NS_TEST_EXPECT_MSG_EQ((order == expect), true, "departure order");
        // The PFC frame: 500-542 ns, at b at 1542 ns; data resumes at 542 ns.
        NS_TEST_EXPECT_MSG_EQ((pfcRxB == std::vector<Event>{{NanoSeconds(1542), 1, 7}}),
                              true,
                              "PFC frame right after the blocker: " << Show(pfcRxB));
        NS_TEST_ASSERT_MSG_EQ(r.rxAtB.size(), 13, "all frames");
        NS_TEST_EXPECT_MSG_EQ(r.rxAtB[0].t, NanoSeconds(1500), "blocker");
        for (uint32_t k = 1; k < 13; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(r.rxAtB[k].t,
                                  NanoSeconds(542) + W * int64_t{k} + D,
                                  "arrival " << k << " after the PFC frame");
        }
        NS_TEST_EXPECT_MSG_EQ(l.a->GetStats().txFrames, 14, "13 data + 1 PFC");
        NS_TEST_EXPECT_MSG_EQ(dequeued, 12, "a Dequeue per queued data frame, none for PFC");
        Simulator::Destroy();
    }
};

/**
 * DWRR: three classes backlogged with quanta 1500, 3000 and 6000 bytes and
 * frames of 1000, 1500 and 700 bytes share the link in proportion to their
 * quanta: over the first 3 MB sent (about 285 rounds, every class still
 * backlogged), bytes_c / quantum_c is the same for the three within 1 %
 * (DRR keeps each class within one quantum plus one frame of its share,
 * at most 1.7 rounds of 285 here: 0.6 %). A class paused by PFC is skipped
 * and the others share in proportion to theirs (over the first 2 MB).
 */
class DwrrTestCase : public TestCase
{
  public:
    DwrrTestCase()
        : TestCase("DWRR: byte shares of backlogged classes equal the quanta ratios (1 %), "
                   "paused classes skipped")
    {
    }

  private:
    /**
     * \brief Queue the three classes, run, and return the bytes per class
     * among the frames received until `window` bytes have arrived.
     * \param pauseClass1 whether b pauses class 1 before the data is queued
     * \return bytes by class
     */
    std::array<uint64_t, 8> Run(bool pauseClass1)
    {
        QbbHelper helper = MakeHelper("100Gbps");
        helper.SetQueueAttribute("Scheduler", StringValue("Dwrr"));
        helper.SetQueueAttribute("DwrrQuanta",
                                  StringValue("1500 3000 6000 9018 9018 9018 9018 9018"));
        helper.SetQueueAttribute("MaxBytes", UintegerValue(100000000));
        Link l(helper);
        // Class 2 (2.1 MB queued) gets 4/7 of 3 MB, or 4/5 of 2 MB with class 1 paused.
        const uint64_t window = pauseClass1 ? 2000000 : 3000000;
        std::array<uint64_t, 8> bytes{};
        uint64_t total = 0;
        l.b->SetFrameReceiveCallback(
            QbbNetDevice::FrameReceiveCallback([&](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                if (total < window)
                {
                    uint8_t b[15];
                    p->CopyData(b, sizeof(b));
                    bytes[b[14] >> 5] += p->GetSize();
                    total += p->GetSize();
                }
            }));
        if (pauseClass1)
        {
            l.b->GetPfcController()->SendPause(1, 65535); // 335 us at 100 Gb/s, longer than the window
        }
        Simulator::Schedule(MicroSeconds(2), [&]() {
            // 2 MB, 2.1 MB and 2.1 MB: none empties within the window.
            for (uint32_t k = 0; k < 3000; ++k)
            {
                if (k < 2000)
                {
                    l.a->SendFrame(TaggedFrame(l.macA, l.macB, 1000, 0, k));
                }
                if (k < 1400)
                {
                    l.a->SendFrame(TaggedFrame(l.macA, l.macB, 1500, 1, k));
                }
                l.a->SendFrame(TaggedFrame(l.macA, l.macB, 700, 2, k));
            }
        });
        Simulator::Stop(MicroSeconds(400));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(l.a->GetTxQueue()->GetStats().drops[DROP_QUEUE_FULL], 0, "no drops");
        Simulator::Destroy();
        return bytes;
    }

    void DoRun() override
    {
        std::array<uint64_t, 8> all = Run(false);
        const double r0 = all[0] / 1500.0;
        const double r1 = all[1] / 3000.0;
        const double r2 = all[2] / 6000.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(r1 / r0, 1.0, 0.01, "class 1 vs class 0, per quantum byte");
        NS_TEST_EXPECT_MSG_EQ_TOL(r2 / r0, 1.0, 0.01, "class 2 vs class 0, per quantum byte");
        NS_TEST_EXPECT_MSG_GT(all[0], 300000, "class 0 got its share (not starved)");

        std::array<uint64_t, 8> paused = Run(true);
        NS_TEST_EXPECT_MSG_EQ(paused[1], 0, "paused class 1 sends nothing");
        NS_TEST_EXPECT_MSG_EQ_TOL((paused[2] / 6000.0) / (paused[0] / 1500.0),
                                  1.0,
                                  0.01,
                                  "classes 0 and 2 share 1:4");
    }
};

/**
 * Refresh while held: b holds class 3 with PfcPauseQuanta = 200 (6.4 us at
 * 16 Gb/s) and PfcRefreshMargin = 1 us, so a pause leaves every
 * 6.4 - 1 = 5.4 us from the hold at 100 ns: 100, 5500, ..., 48700 ns (ten);
 * the release at 50 us sends XON. a's class 3 stays paused from 1142 ns
 * (the first pause's arrival) to 51042 ns (XON's arrival), one pause state
 * change each way, 49.9 us of paused time; s3 starts at 51042 ns. Without
 * refreshes it would resume at 1142 + 6400 ns.
 *
 * Second run: b's transmitter is busy with its own frames to a, so each
 * refresh waits up to one frame (W = 500 ns < margin): consecutive pauses
 * leave between 5.4 us and 5.4 us + W apart (here 5542 ns: the hold's
 * pause leaves at 500 ns after b's first frame, so nine pauses fit before
 * the release), and a's class 3 still never resumes while held.
 */
class RefreshTestCase : public TestCase
{
  public:
    RefreshTestCase()
        : TestCase("a held class stays paused through refreshes; XON follows the release")
    {
    }

  private:
    void DoRun() override
    {
        for (bool busy : {false, true})
        {
            QbbHelper helper = MakeHelper("16Gbps");
            helper.SetPfcAttribute("PauseQuanta", UintegerValue(200));
            helper.SetPfcAttribute("RefreshMargin", TimeValue(MicroSeconds(1)));
            Link l(helper);
            Recorder r(l);
            for (uint32_t k = 0; k < 6; ++k)
            {
                l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 3, k));
            }
            if (busy)
            {
                for (uint32_t k = 0; k < 120; ++k)
                {
                    l.b->SendFrame(TaggedFrame(l.macB, l.macA, FRAME, 0, 1000 + k));
                }
            }
            Simulator::Schedule(NanoSeconds(100), [&]() {
                l.b->GetPfcController()->SetHold(3, true);
                NS_TEST_EXPECT_MSG_EQ(l.b->GetPfcController()->IsHeld(3), true, "held");
            });
            Simulator::Schedule(MicroSeconds(50), [&]() { l.b->GetPfcController()->SetHold(3, false); });
            Simulator::Run();

            NS_TEST_ASSERT_MSG_EQ(r.stateA.size(), 2, "one pause, one resume: " << Show(r.stateA));
            NS_TEST_EXPECT_MSG_EQ(r.stateA[0].b, 1, "paused first");
            NS_TEST_EXPECT_MSG_EQ(r.stateA[1].b, 0, "then resumed");
            const uint32_t pauses = busy ? 9 : 10;
            NS_TEST_ASSERT_MSG_EQ(r.pfcTxB.size(),
                                  pauses + 1,
                                  "pauses and XON: " << Show(r.pfcTxB));
            NS_TEST_EXPECT_MSG_EQ(r.pfcTxB.back().b, 0, "XON last");
            NS_TEST_EXPECT_MSG_EQ(l.b->GetPfcController()->GetStats().pauseTx[3], pauses, "pause counter");
            NS_TEST_EXPECT_MSG_EQ(l.b->GetPfcController()->GetStats().resumeTx[3], 1, "XON counter");
            NS_TEST_EXPECT_MSG_EQ(l.b->GetPfcController()->IsHeld(3), false, "released");
            const Time interval = PauseTime(200, 16) - MicroSeconds(1);
            for (std::size_t k = 1; k + 1 < r.pfcTxB.size(); ++k)
            {
                const Time gap = r.pfcTxB[k].t - r.pfcTxB[k - 1].t;
                NS_TEST_EXPECT_MSG_EQ(r.pfcTxB[k].b, 200, "refresh " << k << " quanta");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(gap, interval, "refresh " << k << " not early");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(gap,
                                            interval + (busy ? W : Time(0)),
                                            "refresh " << k << " waits one frame at most");
            }
            // a's class-3 frames: those started before the pause arrives, the rest after XON.
            const std::vector<Event>& s3 = r.rxAtB;
            NS_TEST_ASSERT_MSG_EQ(s3.size(), 6, "class-3 frames at b");
            if (!busy)
            {
                NS_TEST_EXPECT_MSG_EQ(r.pfcTxB.front().t, NanoSeconds(100), "hold sent at once");
                NS_TEST_EXPECT_MSG_EQ(r.pfcTxB.back().t, MicroSeconds(50), "XON at release");
                NS_TEST_EXPECT_MSG_EQ(r.stateA[0].t, NanoSeconds(1142), "paused at");
                NS_TEST_EXPECT_MSG_EQ(r.stateA[1].t, NanoSeconds(51042), "resumed at");
                NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetStats().pausedTime[3],
                                      NanoSeconds(49900),
                                      "paused time");
                NS_TEST_EXPECT_MSG_EQ(s3[2].t, NanoSeconds(2500), "s2 before the pause");
                NS_TEST_EXPECT_MSG_EQ(s3[3].t, NanoSeconds(51042) + W + D, "s3 after XON");
            }
            else
            {
                // The hold's pause waits for b's frame 0 (0-500 ns) and
                // arrives at 1542 ns, during s3, which finishes.
                NS_TEST_EXPECT_MSG_EQ(r.pfcTxB.front().t, NanoSeconds(500), "hold after frame");
                NS_TEST_EXPECT_MSG_EQ(r.stateA[0].t, NanoSeconds(1542), "paused at");
                NS_TEST_EXPECT_MSG_EQ(s3[3].t, NanoSeconds(3000), "s3 finishes");
                NS_TEST_EXPECT_MSG_GT(s3[4].t, MicroSeconds(51), "s4 only after XON");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * MAC Control frames are consumed: on the standard receive path neither
 * callback sees PFC, 802.3x PAUSE or an unknown opcode; PhyRxEnd sees them.
 * An 802.3x PAUSE of 50 quanta pauses all eight classes (1600 ns at
 * 16 Gb/s). A corrupted PFC frame is dropped (the MAC's FCS check) and
 * pauses nothing. PfcRxEnable without class 2: a pause of class 2 is
 * counted but not obeyed.
 */
class MacControlTestCase : public TestCase
{
  public:
    MacControlTestCase()
        : TestCase("MAC Control frames never passed up; 802.3x PAUSE pauses all classes; "
                   "corrupt PFC dropped; PfcRxEnable")
    {
    }

  private:
    /// \return an 802.3x PAUSE (or other opcode) frame from b with one pause time
    static Ptr<Packet> MacControlFrame(Mac48Address src, uint16_t opcode, uint16_t quanta)
    {
        std::vector<uint8_t> b = EthBytes(src, Mac48Address("01:80:c2:00:00:01"), 0x8808);
        b.resize(60, 0);
        b[14] = static_cast<uint8_t>(opcode >> 8);
        b[15] = static_cast<uint8_t>(opcode);
        b[16] = static_cast<uint8_t>(quanta >> 8);
        b[17] = static_cast<uint8_t>(quanta);
        return ToPacket(b);
    }

    void DoRun() override
    {
        {
            QbbHelper helper = MakeHelper("16Gbps");
            Link l(helper);
            uint32_t upcalls = 0;
            uint32_t phyRxEnd = 0;
            std::vector<Event> state;
            l.a->SetReceiveCallback(NetDevice::ReceiveCallback(
                [&](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                    ++upcalls;
                    return true;
                }));
            l.a->SetPromiscReceiveCallback(
                NetDevice::PromiscReceiveCallback([&](Ptr<NetDevice>,
                                                      Ptr<const Packet>,
                                                      uint16_t,
                                                      const Address&,
                                                      const Address&,
                                                      NetDevice::PacketType) {
                    ++upcalls;
                    return true;
                }));
            l.a->TraceConnectWithoutContext(
                "PhyRxEnd",
                Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) { ++phyRxEnd; }));
            l.a->GetPfcController()->TraceConnectWithoutContext("PauseState",
                                            Callback<void, uint8_t, bool>([&](uint8_t c, bool p) {
                                                state.push_back({Simulator::Now(), c, p ? 1U : 0U});
                                            }));
            std::vector<Event> rxB;
            l.b->SetFrameReceiveCallback(
                QbbNetDevice::FrameReceiveCallback([&](Ptr<QbbNetDevice>, Ptr<Packet> p) {
                    rxB.push_back({Simulator::Now(), Seq(p)});
                }));
            // PFC at 0 (arrives 1042 ns, pauses class 2 for 320 ns), PAUSE at
            // 5 us (arrives 6042 ns), an unknown opcode at 10 us.
            l.b->GetPfcController()->SendPause(2, 10);
            Simulator::Schedule(MicroSeconds(5),
                                [&]() { l.b->SendFrame(MacControlFrame(l.macB, 0x0001, 50)); });
            Simulator::Schedule(NanoSeconds(6100), [&]() {
                for (uint8_t c = 0; c < 8; ++c)
                {
                    NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->IsPaused(c), true, "PAUSE pauses " << +c);
                }
                l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 0, 1));
                l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 7, 2));
            });
            Simulator::Schedule(MicroSeconds(10),
                                [&]() { l.b->SendFrame(MacControlFrame(l.macB, 0x0002, 50)); });
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(upcalls, 0, "no receive callback saw a MAC Control frame");
            NS_TEST_EXPECT_MSG_EQ(phyRxEnd, 3, "PhyRxEnd saw all three");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetStats().rxFrames, 0, "none passed up");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetStats().framesRx, 1, "PFC frames");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetStats().pauseFramesRx, 1, "802.3x PAUSE frames");
            // PAUSE: 8 classes paused at 6042, resumed at 6042 + 50 x 32 = 7642 ns.
            NS_TEST_ASSERT_MSG_EQ(state.size(), 18, "2 + 16 state changes: " << Show(state));
            NS_TEST_EXPECT_MSG_EQ((state[0] == Event{NanoSeconds(1042), 2, 1}), true, "PFC");
            NS_TEST_EXPECT_MSG_EQ((state[1] == Event{NanoSeconds(1362), 2, 0}), true, "expiry");
            for (uint32_t k = 2; k < 10; ++k)
            {
                NS_TEST_EXPECT_MSG_EQ((state[k] == Event{NanoSeconds(6042), k - 2, 1}),
                                      true,
                                      "PAUSE class " << k - 2);
                NS_TEST_EXPECT_MSG_EQ((state[k + 8] == Event{NanoSeconds(7642), k - 2, 0}),
                                      true,
                                      "PAUSE end class " << k - 2);
            }
            // Strict priority at the resume: class 7 first.
            const std::vector<Event> expect = {{NanoSeconds(7642) + W + D, 2},
                                               {NanoSeconds(7642) + W + W + D, 1}};
            NS_TEST_EXPECT_MSG_EQ((rxB == expect), true, "a's frames: " << Show(rxB));
            Simulator::Destroy();
        }
        {
            // Corrupted PFC frames on the frame-callback path, and PfcRxEnable.
            QbbHelper helper = MakeHelper("16Gbps");
            helper.SetPfcAttribute("RxEnable", UintegerValue(0xFB));
            Link l(helper);
            uint32_t upcalls = 0;
            uint32_t corruptDrops = 0;
            l.a->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback(
                [&](Ptr<QbbNetDevice>, Ptr<Packet>) { ++upcalls; }));
            l.a->TraceConnectWithoutContext(
                "Drop",
                Callback<void, Ptr<const Packet>, RdmaDropReason>(
                    [&](Ptr<const Packet>, RdmaDropReason reason) {
                        corruptDrops += reason == DROP_CORRUPT ? 1 : 0;
                    }));
            auto em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(1.0));
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            l.a->SetReceiveErrorModel(em);
            l.b->GetPfcController()->SendPause(4, 1000);
            Simulator::Schedule(MicroSeconds(2), [&]() {
                NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->IsPaused(4), false, "corrupt PFC ignored");
                l.a->SetReceiveErrorModel(nullptr);
                l.b->GetPfcController()->SendPause(2, 1000);
            });
            Simulator::Schedule(MicroSeconds(4), [&]() {
                NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->IsPaused(2), false, "class 2 not obeyed");
            });
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(upcalls, 0, "nothing passed up");
            NS_TEST_EXPECT_MSG_EQ(corruptDrops, 1, "corrupt PFC dropped");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetStats().rxCorrupt, 1, "counted corrupt");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetStats().framesRx, 1, "one good PFC frame");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetStats().pauseRx[2], 1, "class 2 pause counted");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetStats().pauseRx[4], 0, "corrupt one not counted");
            NS_TEST_EXPECT_MSG_EQ(l.a->GetPfcController()->GetPausedTime(2), Time(0), "never paused");
            Simulator::Destroy();
        }
    }
};

/**
 * Classify(): PCP of a tagged frame (whatever the inner DSCP), DSCP of
 * IPv4 and IPv6 through DscpToClass (default DSCP >> 3), class 7 for
 * frames without IP; the map set through the attribute string and
 * QbbDscpClassMap::Set; malformed attribute strings are refused.
 */
class ClassifyTestCase : public TestCase
{
  public:
    ClassifyTestCase()
        : TestCase("classification by PCP, by IPv4 and IPv6 DSCP through DscpToClass, else class 7")
    {
    }

  private:
    /// Classify(frame), checked against ClassifyHead on its first bytes.
    static uint8_t Classify(Ptr<QbbNetDevice> dev, Ptr<const Packet> frame)
    {
        const uint8_t cls = dev->GetClassMap().Classify(frame);
        const std::vector<uint8_t> b = ToBytes(frame);
        const uint32_t n = std::min<uint32_t>(b.size(), RdmaFrameView::PEEK_BYTES);
        return cls == dev->GetClassMap().ClassifyHead(b.data(), n) ? cls : 0xEE;
    }

    void DoRun() override
    {
        auto dev = CreateObject<QbbNetDevice>();
        const Mac48Address s("02:00:00:00:00:01");
        const Mac48Address d("02:00:00:00:00:02");
        for (uint8_t pcp = 0; pcp < 8; ++pcp)
        {
            // Inner IPv4 with DSCP 46 (class 5): the tag decides.
            std::vector<uint8_t> b = ToBytes(TaggedFrame(s, d, 64, pcp, 0));
            b[16] = 0x08;
            b[17] = 0x00;
            b[18] = 0x45;
            b[19] = 46 << 2;
            NS_TEST_EXPECT_MSG_EQ(+Classify(dev, ToPacket(b)), +pcp, "PCP " << +pcp);
        }
        for (uint8_t dscp = 0; dscp < 64; ++dscp)
        {
            NS_TEST_EXPECT_MSG_EQ(+Classify(dev, Ipv4Frame(s, d, 64, dscp, 0)),
                                  (dscp >> 3),
                                  "IPv4 DSCP " << +dscp);
            std::vector<uint8_t> v6 = EthBytes(s, d, 0x86DD);
            v6.resize(64, 0);
            const uint8_t tc = static_cast<uint8_t>((dscp << 2) | 1);
            v6[14] = static_cast<uint8_t>(0x60 | (tc >> 4));
            v6[15] = static_cast<uint8_t>((tc << 4) | 0x0A);
            NS_TEST_EXPECT_MSG_EQ(+Classify(dev, ToPacket(v6)), (dscp >> 3), "IPv6 DSCP " << +dscp);
        }
        std::vector<uint8_t> arp = EthBytes(s, d, 0x0806);
        arp.resize(60, 0xFF);
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, ToPacket(arp)), 7, "ARP: highest class");
        std::vector<uint8_t> pfc = EthBytes(s, d, 0x8808);
        pfc.resize(60, 0);
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, ToPacket(pfc)), 7, "MAC Control: highest class");
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, ToPacket(EthBytes(s, d, 0x0800))),
                              7,
                              "IPv4 header missing");
        std::vector<uint8_t> shortTag = EthBytes(s, d, 0x8100);
        shortTag.push_back(5 << 5);
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, ToPacket(shortTag)), 5, "15-byte tagged frame");

        // The attribute: default string, a custom map, QbbDscpClassMap::Set.
        StringValue str;
        dev->GetAttribute("DscpToClass", str);
        std::string def = str.Get();
        NS_TEST_EXPECT_MSG_EQ(def.substr(0, 16), "0 0 0 0 0 0 0 0 ", "default map string");
        NS_TEST_EXPECT_MSG_EQ(def.substr(def.size() - 4), " 7 7", "default map ends with 7");
        std::ostringstream custom;
        for (int i = 0; i < 64; ++i)
        {
            custom << (i ? " " : "") << (i == 26 ? 3 : i == 48 ? 6 : 0);
        }
        NS_TEST_EXPECT_MSG_EQ(dev->SetAttributeFailSafe("DscpToClass", StringValue(custom.str())),
                              true,
                              "64 classes accepted");
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, Ipv4Frame(s, d, 64, 26, 0)), 3, "DSCP 26");
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, Ipv4Frame(s, d, 64, 48, 0)), 6, "DSCP 48");
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, Ipv4Frame(s, d, 64, 56, 0)), 0, "DSCP 56 -> 0");
        dev->GetClassMap().Set(56, 4);
        NS_TEST_EXPECT_MSG_EQ(+dev->GetClassMap().Get(56), 4, "QbbDscpClassMap::Set");
        NS_TEST_EXPECT_MSG_EQ(+Classify(dev, Ipv4Frame(s, d, 64, 56, 0)), 4, "DSCP 56 -> 4");

        std::string tooFew = custom.str().substr(0, custom.str().rfind(' '));
        for (const std::string& bad :
             {tooFew, custom.str() + " 0", std::string(127, '0'), "8" + custom.str().substr(1)})
        {
            NS_TEST_EXPECT_MSG_EQ(dev->SetAttributeFailSafe("DscpToClass", StringValue(bad)),
                                  false,
                                  "refused: '" << bad << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(
            dev->GetTxQueue()->SetAttributeFailSafe("DwrrQuanta", StringValue("1 2 3 4 5 6 7 0")),
            false,
            "a zero quantum is refused");
        NS_TEST_EXPECT_MSG_EQ(dev->GetTxQueue()->SetAttributeFailSafe("DwrrQuanta", StringValue("1 2 3 4 5 6 7")),
                              false,
                              "seven quanta are refused");
        NS_TEST_EXPECT_MSG_EQ(
            dev->GetTxQueue()->SetAttributeFailSafe("DwrrQuanta", StringValue("1 2 3 4 5 6 7 8")),
            true,
            "eight quanta");
        dev->GetTxQueue()->GetAttribute("DwrrQuanta", str);
        NS_TEST_EXPECT_MSG_EQ(str.Get(), "1 2 3 4 5 6 7 8", "quanta round trip");
        dev->Dispose();
    }
};

/**
 * The TxReady pull hook while paused: a pusher sends one class-3 frame per
 * TxReady call (frame k starts at k x W). b pauses class 3 for 100 quanta
 * at 600 ns, arriving at 1642 ns during frame 3. Frame 3 ends at 2000 ns;
 * TxReady fires (queues empty), frame 4 is pushed and waits (IsTxIdle()
 * false, no further call). The pause ends at 4842 ns: frame 4 starts, and
 * TxReady fires again at its end, 5342 ns.
 */
class TxReadyWhilePausedTestCase : public TestCase
{
  public:
    TxReadyWhilePausedTestCase()
        : TestCase("TxReady pull hook: the pushed frame waits out the pause, then the hook "
                   "fires again")
    {
    }

  private:
    void DoRun() override
    {
        QbbHelper helper = MakeHelper("16Gbps");
        Link l(helper);
        Recorder r(l);
        std::vector<Time> calls;
        std::vector<bool> idleAfterPush;
        uint32_t seq = 0;
        auto push = [&]() {
            if (seq < 8)
            {
                l.a->SendFrame(TaggedFrame(l.macA, l.macB, FRAME, 3, seq++));
            }
        };
        l.a->SetTxReadyCallback(Callback<void>([&]() {
            calls.push_back(Simulator::Now());
            push();
            idleAfterPush.push_back(l.a->IsTxIdle());
        }));
        Simulator::Schedule(Time(0), push);
        Simulator::Schedule(NanoSeconds(600), [&]() { l.b->GetPfcController()->SendPause(3, 100); });
        Simulator::Run();
        const std::vector<Time> expect = {NanoSeconds(500),
                                          NanoSeconds(1000),
                                          NanoSeconds(1500),
                                          NanoSeconds(2000),
                                          NanoSeconds(5342),
                                          NanoSeconds(5842),
                                          NanoSeconds(6342),
                                          NanoSeconds(6842)};
        NS_TEST_ASSERT_MSG_EQ(calls.size(), expect.size(), "TxReady calls");
        for (std::size_t i = 0; i < expect.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(calls[i], expect[i], "TxReady call " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(idleAfterPush[3], false, "the waiting frame keeps it busy");
        NS_TEST_ASSERT_MSG_EQ(r.rxAtB.size(), 8, "all frames");
        NS_TEST_EXPECT_MSG_EQ(r.rxAtB[4].t, NanoSeconds(4842) + W + D, "frame 4 after the pause");
        Simulator::Destroy();
    }
};

/**
 * An RC transfer over a paused link (RdmaNic on both hosts, 100 Gb/s): a
 * 1 MiB WRITE from A (DSCP 26, class 3); B's port holds class 3 from 20 us
 * to 60 us with PfcPauseQuanta 2000 (10.24 us) and a 2 us margin, so the
 * pause is refreshed every 8.24 us. A's NIC stops (its pushed frame waits)
 * and resumes through the pull hook; the WRITE completes with success and
 * no frame is lost; A's class 3 was paused once for 40 us (within the
 * wire time of the ACK a PFC frame may wait behind); B receives no data
 * while paused.
 */
class TransportOverPfcTestCase : public TestCase
{
  public:
    TransportOverPfcTestCase()
        : TestCase("RC WRITE through a held pause: the NIC stops, resumes and completes")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = true;
        o.regionBytes = 1 << 20;
        TwoHosts h(o);
        auto devA = DynamicCast<QbbNetDevice>(h.devices.Get(0));
        auto devB = DynamicCast<QbbNetDevice>(h.devices.Get(1));
        devB->GetPfcController()->SetAttribute("PauseQuanta", UintegerValue(2000));
        devB->GetPfcController()->SetAttribute("RefreshMargin", TimeValue(MicroSeconds(2)));
        std::vector<Event> state;
        devA->GetPfcController()->TraceConnectWithoutContext("PauseState",
                                         Callback<void, uint8_t, bool>([&](uint8_t c, bool p) {
                                             state.push_back({Simulator::Now(), c, p ? 1U : 0U});
                                         }));
        std::vector<Time> rxB;
        devB->TraceConnectWithoutContext("MacRx",
                                         Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) {
                                             rxB.push_back(Simulator::Now());
                                         }));
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 1 << 20, 7);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 1 << 20);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Schedule(MicroSeconds(20), [&]() { devB->GetPfcController()->SetHold(3, true); });
        Simulator::Schedule(MicroSeconds(60), [&]() { devB->GetPfcController()->SetHold(3, false); });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 1, "one completion");
        NS_TEST_EXPECT_MSG_EQ(h.wcA[0].status, IBV_WC_SUCCESS, "WRITE succeeded");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(h.mrB, TwoHosts::VA_B, 1 << 20, 7),
                              true,
                              "every byte landed");
        NS_TEST_ASSERT_MSG_EQ(state.size(), 2, "paused once: " << Show(state));
        NS_TEST_EXPECT_MSG_EQ(state[0].a, 3, "class 3 (DSCP 26)");
        // Each PFC frame leaves at once or after one ACK (< 10 ns) and takes
        // 6.72 ns plus D = 1 us to arrive.
        NS_TEST_EXPECT_MSG_EQ_TOL(state[0].t, MicroSeconds(21), NanoSeconds(20), "pause at a");
        NS_TEST_EXPECT_MSG_EQ_TOL(state[1].t, MicroSeconds(61), NanoSeconds(20), "XON at a");
        NS_TEST_EXPECT_MSG_EQ_TOL(devA->GetPfcController()->GetStats().pausedTime[3],
                                  MicroSeconds(40),
                                  NanoSeconds(20),
                                  "paused time");
        NS_TEST_EXPECT_MSG_EQ(devB->GetPfcController()->GetStats().pauseTx[3], 5, "hold + 4 refreshes");
        NS_TEST_EXPECT_MSG_EQ(devB->GetPfcController()->GetStats().resumeTx[3], 1, "XON");
        uint32_t during = 0;
        for (Time t : rxB)
        {
            during += (t > NanoSeconds(22200) && t < MicroSeconds(62)) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(during, 0, "no data reaches B while A is paused");
        NS_TEST_EXPECT_MSG_GT(rxB.back(), MicroSeconds(62), "the transfer ends after the XON");
        NS_TEST_EXPECT_MSG_EQ(h.nicA->GetStats().txFrames, devA->GetStats().txFrames, "no loss");
        Simulator::Destroy();
    }
};

/// The suite.
class RdmaPfcTestSuite : public TestSuite
{
  public:
    RdmaPfcTestSuite()
        : TestSuite("rdma-pfc", UNIT)
    {
        AddTestCase(new ClassifyTestCase, TestCase::QUICK);
        AddTestCase(new PauseTimingTestCase(16), TestCase::QUICK);
        AddTestCase(new PauseTimingTestCase(8), TestCase::QUICK);
        AddTestCase(new XonAndReloadTestCase, TestCase::QUICK);
        AddTestCase(new StrictPriorityTestCase, TestCase::QUICK);
        AddTestCase(new DwrrTestCase, TestCase::QUICK);
        AddTestCase(new RefreshTestCase, TestCase::QUICK);
        AddTestCase(new MacControlTestCase, TestCase::QUICK);
        AddTestCase(new TxReadyWhilePausedTestCase, TestCase::QUICK);
        AddTestCase(new TransportOverPfcTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaPfcTestSuite g_rdmaPfcTestSuite;

} // namespace
