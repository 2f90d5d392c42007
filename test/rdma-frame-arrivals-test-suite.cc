/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaFrameArrivals, where a rank keeps the frames other ranks sent it
// until their arrival times (RdmaWindowMpiInterface): each frame is handed
// over at its arrival time, in its node's context, in the order of its
// time and then the key it carries, among the other events of that time as
// if its event had been scheduled when its batch was read; notices are
// handed over at once; a batch bringing an earlier frame than the one
// scheduled puts it first; Compact() keeps the waiting frames in a buffer
// of their own, so the batches they came in go.

#include "ns3/packet.h"
#include "ns3/rdma-event-scheduler.h"
#include "ns3/rdma-frame-arrivals.h"
#include "ns3/rdma-frame-batch.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstring>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the key of an origin's sequence number (RdmaEventScheduler's packing)
uint64_t
Key(uint32_t origin, uint64_t sequence)
{
    return (uint64_t(origin) << RdmaEventScheduler::SEQUENCE_BITS) | sequence;
}

/// \return a batch as another rank receives it
Ptr<RdmaFrameBatch::Received>
Receive(const RdmaFrameBatch& batch)
{
    Ptr<RdmaFrameBatch::Received> received = Create<RdmaFrameBatch::Received>(batch.GetBytes());
    batch.CopyTo(received->GetData());
    return received;
}

/// What was handed over, in order: "time ns/context/node/frame bytes" or a name.
std::vector<std::string> g_seen;

/// The arrival callback: notes the frame.
void
Arrive(const RdmaFrameBatch::Record& r)
{
    g_seen.push_back(std::to_string(Simulator::Now().GetNanoSeconds()) + "/" +
                     std::to_string(Simulator::GetContext()) + "/" + std::to_string(r.node) + "/" +
                     std::to_string(r.frame.ToPacket()->GetSize()));
}

/// Another event of the run.
void
Note(std::string name)
{
    g_seen.push_back(std::to_string(Simulator::Now().GetNanoSeconds()) + "/" + name);
}

/// Frames in (time, key) order, each in its node's context; notices at once.
class OrderTestCase : public TestCase
{
  public:
    OrderTestCase()
        : TestCase("frames arrive at their times in their nodes' contexts, by time then key")
    {
    }

  private:
    void DoRun() override
    {
        g_seen.clear();
        Simulator::SetScheduler(ObjectFactory("ns3::RdmaEventScheduler"));
        RdmaFrameArrivals arrivals;
        arrivals.SetArrivalCallback(MakeCallback(&Arrive));
        RdmaFrameBatch batch;
        batch.Append(Create<Packet>(300), NanoSeconds(30), Key(3, 1), 3, 0);
        batch.Append(Create<Packet>(100), NanoSeconds(10), Key(5, 0), 5, 1);
        batch.AppendNotice(NanoSeconds(50), Key(6, 2), 9, 77);
        batch.Append(Create<Packet>(200), NanoSeconds(30), Key(2, 4), 2, 0);
        // Scheduled at setup: its key's origin (no context) comes after any node's.
        Simulator::ScheduleWithContext(4, NanoSeconds(30), &Note, std::string("setup"));
        std::vector<uint32_t> notices;
        const uint32_t frames = arrivals.Add(Receive(batch), [&](const RdmaFrameBatch::Record& r) {
            notices.push_back(r.argument);
        });
        NS_TEST_EXPECT_MSG_EQ(frames, 3, "three frames taken");
        NS_TEST_EXPECT_MSG_EQ(notices.size(), 1, "the notice handed over at once");
        NS_TEST_EXPECT_MSG_EQ(notices[0], 77, "its argument");
        NS_TEST_EXPECT_MSG_EQ(arrivals.GetWaiting(), 3, "three waiting");
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<std::string> expected{"10/5/5/100",
                                                "30/2/2/200",
                                                "30/3/3/300",
                                                "30/setup"};
        NS_TEST_EXPECT_MSG_EQ((g_seen == expected), true, "by time, then key");
        NS_TEST_EXPECT_MSG_EQ(arrivals.GetWaiting(), 0, "none left");
    }
};

/**
 * A later batch with an earlier frame puts it first; Compact() moves the
 * waiting frames to a buffer of their own.
 */
class LaterBatchTestCase : public TestCase
{
  public:
    LaterBatchTestCase()
        : TestCase("a later batch's earlier frame goes first; Compact frees the batches")
    {
    }

  private:
    RdmaFrameArrivals m_arrivals;              //!< under test
    Ptr<RdmaFrameBatch::Received> m_first;     //!< the first batch
    Ptr<RdmaFrameBatch::Received> m_second;    //!< the second batch
    std::size_t m_referencesAfterCompact{0};   //!< the first batch's, after Compact
    std::size_t m_waitingAfterCompact{0};      //!< frames waiting then
    std::size_t m_waitingBytesAfterCompact{0}; //!< their bytes

    void Second()
    {
        m_arrivals.Compact();
        m_referencesAfterCompact = m_first->GetReferenceCount();
        m_waitingAfterCompact = m_arrivals.GetWaiting();
        m_waitingBytesAfterCompact = m_arrivals.GetWaitingBytes();
        m_arrivals.Add(m_second, [](const RdmaFrameBatch::Record&) {});
    }

    void DoRun() override
    {
        g_seen.clear();
        Simulator::SetScheduler(ObjectFactory("ns3::RdmaEventScheduler"));
        m_arrivals.SetArrivalCallback(MakeCallback(&Arrive));
        RdmaFrameBatch a;
        a.Append(Create<Packet>(11), NanoSeconds(12), Key(1, 0), 1, 0);
        a.Append(Create<Packet>(20), NanoSeconds(20), Key(1, 1), 1, 0);
        a.Append(Create<Packet>(40), NanoSeconds(40), Key(1, 2), 1, 0);
        const std::size_t waitingBytes =
            Create<Packet>(20)->GetSerializedSize() + Create<Packet>(40)->GetSerializedSize();
        m_first = Receive(a);
        RdmaFrameBatch b;
        b.Append(Create<Packet>(18), NanoSeconds(18), Key(2, 0), 2, 0);
        m_second = Receive(b);
        m_arrivals.Add(m_first, [](const RdmaFrameBatch::Record&) {});
        NS_TEST_EXPECT_MSG_EQ(m_first->GetReferenceCount(), 4, "its three frames hold it");
        Simulator::ScheduleWithContext(7, NanoSeconds(15), &LaterBatchTestCase::Second, this);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(m_referencesAfterCompact, 1, "compacted: no frame holds it");
        NS_TEST_EXPECT_MSG_EQ(m_waitingAfterCompact, 2, "two waiting at 15 ns");
        NS_TEST_EXPECT_MSG_EQ(m_waitingBytesAfterCompact, waitingBytes, "their bytes");
        const std::vector<std::string> expected{"12/1/1/11", "18/2/2/18", "20/1/1/20", "40/1/1/40"};
        NS_TEST_EXPECT_MSG_EQ((g_seen == expected), true, "18 ns, brought later, before 20 ns");
        NS_TEST_EXPECT_MSG_EQ(m_second->GetReferenceCount(), 1, "all arrived: no frame holds it");
        m_arrivals.Clear();
    }
};

/// The suite.
class RdmaFrameArrivalsTestSuite : public TestSuite
{
  public:
    RdmaFrameArrivalsTestSuite()
        : TestSuite("rdma-frame-arrivals", UNIT)
    {
        AddTestCase(new OrderTestCase, TestCase::QUICK);
        AddTestCase(new LaterBatchTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaFrameArrivalsTestSuite g_rdmaFrameArrivalsTestSuite;

} // namespace
