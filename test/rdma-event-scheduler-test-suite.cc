/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RdmaEventScheduler, the event order that does not depend on the
 * MPI partition (doc/mpi.rst, "Event order"): events of one time run by
 * (origin, sequence), the origin being the context that scheduled them;
 * keys taken ahead (TakeKey) place an event inserted later; Remove; and the
 * key's trip through a serialized packet (RdmaEventKeyTag), as an MPI
 * message carries it.
 */

#include "ns3/make-event.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-event-key-tag.h"
#include "ns3/rdma-event-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The names of the events that ran, in order.
std::vector<std::string> g_ran;

/// An event: record its name.
void
Record(std::string name)
{
    g_ran.push_back(name);
}

/// An event: record its name, then schedule `then` 1 ns later in this context.
void
RecordThen(std::string name, std::string then)
{
    g_ran.push_back(name);
    Simulator::Schedule(NanoSeconds(1), &Record, then);
}

/// Use a scheduler for the next run and forget the last run's names.
void
UseScheduler(const std::string& type)
{
    g_ran.clear();
    Simulator::SetScheduler(ObjectFactory(type));
}

/**
 * Two nodes schedule an event each for one time, node 7 first: ns-3's heap
 * runs them in that order, RdmaEventScheduler by node id (3 before 7).
 * Events scheduled at setup (no context) keep their order.
 */
class OriginOrderTestCase : public TestCase
{
  public:
    OriginOrderTestCase()
        : TestCase("same time: by the scheduling node, not by insertion")
    {
    }

  private:
    std::vector<std::string> RunWith(const std::string& type)
    {
        UseScheduler(type);
        Simulator::ScheduleWithContext(7, NanoSeconds(1), &RecordThen, "x", "x2");
        Simulator::ScheduleWithContext(3, NanoSeconds(1), &RecordThen, "y", "y2");
        Simulator::Run();
        Simulator::Destroy();
        return g_ran;
    }

    void DoRun() override
    {
        const std::vector<std::string> insertion{"x", "y", "x2", "y2"};
        const std::vector<std::string> model{"x", "y", "y2", "x2"};
        NS_TEST_EXPECT_MSG_EQ((RunWith("ns3::HeapScheduler") == insertion),
                              true,
                              "ns-3's heap: by insertion");
        NS_TEST_EXPECT_MSG_EQ((RunWith("ns3::RdmaEventScheduler") == model),
                              true,
                              "node 3's event before node 7's");
    }
};

/// One node's events of one time run in the order it scheduled them.
class SequenceOrderTestCase : public TestCase
{
  public:
    SequenceOrderTestCase()
        : TestCase("same time, same node: in the order scheduled")
    {
    }

  private:
    static void ScheduleThree()
    {
        for (const char* name : {"a", "b", "c"})
        {
            Simulator::Schedule(NanoSeconds(2), &Record, std::string(name));
        }
    }

    void DoRun() override
    {
        UseScheduler("ns3::RdmaEventScheduler");
        Simulator::ScheduleWithContext(4, NanoSeconds(1), &ScheduleThree);
        Simulator::ScheduleWithContext(9, NanoSeconds(3), &Record, std::string("other"));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ((g_ran == std::vector<std::string>{"a", "b", "c", "other"}),
                              true,
                              "FIFO within node 4, then node 9");
    }
};

/**
 * A key taken at 1 ns (TakeKey) and given at 2 ns (SetNextKey) to an event
 * for 5 ns places it before the event node 5 scheduled between the two,
 * and after node 2's: what QbbChannel does with a frame's arrival.
 */
class TakenKeyTestCase : public TestCase
{
  public:
    TakenKeyTestCase()
        : TestCase("a key taken ahead places an event scheduled later")
    {
    }

  private:
    uint64_t m_key{0}; //!< the key taken

    void Take()
    {
        m_key = RdmaEventScheduler::TakeKey();
        Simulator::Schedule(NanoSeconds(4), &Record, std::string("b"));
    }

    void Give()
    {
        RdmaEventScheduler::SetNextKey(m_key);
        Simulator::Schedule(NanoSeconds(3), &Record, std::string("a"));
        Simulator::ScheduleWithContext(2, NanoSeconds(3), &Record, std::string("not keyed"));
    }

    void DoRun() override
    {
        UseScheduler("ns3::RdmaEventScheduler");
        Simulator::ScheduleWithContext(5, NanoSeconds(1), &TakenKeyTestCase::Take, this);
        Simulator::ScheduleWithContext(5, NanoSeconds(2), &TakenKeyTestCase::Give, this);
        Simulator::ScheduleWithContext(2, NanoSeconds(4), &RecordThen, "n2", "c");
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(RdmaEventScheduler::GetOrigin(m_key), 5, "taken in node 5's event");
        NS_TEST_EXPECT_MSG_EQ(RdmaEventScheduler::GetSequence(m_key),
                              0,
                              "node 5's first key");
        // At 5 ns: node 2's "c" (origin 2), then node 5's keys 0 ("a") and 1
        // ("b"), then what node 5 scheduled at 2 ns for node 2 (origin 5, key 2).
        const std::vector<std::string> expected{"n2", "c", "a", "b", "not keyed"};
        NS_TEST_EXPECT_MSG_EQ((g_ran == expected), true, "a, scheduled last by node 5, before b");
    }
};

/// Simulator::Remove takes an event out; the others keep their order.
class RemoveTestCase : public TestCase
{
  public:
    RemoveTestCase()
        : TestCase("Remove")
    {
    }

  private:
    void DoRun() override
    {
        UseScheduler("ns3::RdmaEventScheduler");
        std::vector<EventId> ids;
        for (const char* name : {"a", "b", "c", "d", "e"})
        {
            ids.push_back(Simulator::Schedule(NanoSeconds(name[0] == 'c' ? 1 : 2),
                                              &Record,
                                              std::string(name)));
        }
        Simulator::Remove(ids[1]);
        Simulator::Remove(ids[2]);
        NS_TEST_EXPECT_MSG_EQ(ids[1].IsExpired(), true, "removed");
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ((g_ran == std::vector<std::string>{"a", "d", "e"}),
                              true,
                              "b and c removed");
    }
};

/// An event that does nothing (the heap test's payload).
void
Noop()
{
}

/**
 * The heap against an ordered set: 5,000 events at 50 distinct times,
 * inserted, removed by RemoveNext and by Remove in a seeded random mix;
 * every RemoveNext returns the least (time, order scheduled) of those
 * pending, as the total order of the header requires of any heap shape.
 */
class HeapOrderTestCase : public TestCase
{
  public:
    HeapOrderTestCase()
        : TestCase("RemoveNext gives the least (time, key) pending, through inserts and removes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaEventScheduler> heap = CreateObject<RdmaEventScheduler>();
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(11);
        std::vector<Ptr<EventImpl>> impls;
        std::set<std::pair<uint64_t, uint32_t>> pending; // (time, uid): uid is the order scheduled
        std::map<uint32_t, Scheduler::Event> byUid;
        uint32_t uid = 0;
        uint32_t popped = 0;
        for (int step = 0; step < 5000; ++step)
        {
            const uint32_t action = u->GetInteger(0, 9);
            if (action < 6 || pending.empty())
            {
                impls.push_back(
                    Ptr<EventImpl>(MakeEvent(&Noop), false)); // MakeEvent gives the one reference
                Scheduler::Event ev;
                ev.impl = PeekPointer(impls.back());
                // Never before the last event taken, as a simulator schedules.
                ev.key.m_ts = 1000 + u->GetInteger(0, 49);
                ev.key.m_uid = ++uid;
                ev.key.m_context = Simulator::NO_CONTEXT;
                heap->Insert(ev);
                pending.insert({ev.key.m_ts, uid});
                byUid[uid] = ev;
            }
            else if (action < 9)
            {
                const Scheduler::Event ev = heap->RemoveNext();
                const auto least = *pending.begin();
                NS_TEST_ASSERT_MSG_EQ(ev.key.m_ts, least.first, "step " << step << ": the time");
                NS_TEST_ASSERT_MSG_EQ(ev.key.m_uid, least.second, "step " << step << ": the event");
                pending.erase(pending.begin());
                ++popped;
            }
            else
            {
                auto it = std::next(pending.begin(), u->GetInteger(0, pending.size() - 1));
                heap->Remove(byUid[it->second]);
                pending.erase(it);
            }
        }
        while (!pending.empty())
        {
            const Scheduler::Event ev = heap->RemoveNext();
            NS_TEST_ASSERT_MSG_EQ(ev.key.m_uid, pending.begin()->second, "draining: the event");
            pending.erase(pending.begin());
        }
        NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), true, "all taken");
        NS_TEST_ASSERT_MSG_GT(popped, 1000u, "the mix took events out along the way");
    }
};

/**
 * The key of a frame crossing ranks survives Packet::Serialize and the
 * deserializing constructor ns-3's MPI interfaces use.
 */
class KeyTagTestCase : public TestCase
{
  public:
    KeyTagTestCase()
        : TestCase("the event key through a serialized packet")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t key = (uint64_t(1234) << RdmaEventScheduler::SEQUENCE_BITS) | 987654321;
        Ptr<Packet> p = Create<Packet>(100);
        const uint32_t bare = p->GetSerializedSize();
        p->AddPacketTag(RdmaEventKeyTag(key));
        NS_TEST_EXPECT_MSG_EQ(p->GetSerializedSize() - bare,
                              16,
                              "size word, TypeId hash, 8-byte key");
        std::vector<uint8_t> buffer(p->GetSerializedSize());
        p->Serialize(buffer.data(), buffer.size());
        Ptr<Packet> q = Create<Packet>(buffer.data(), buffer.size(), true);
        RdmaEventKeyTag tag;
        NS_TEST_ASSERT_MSG_EQ(q->RemovePacketTag(tag), true, "tag found");
        NS_TEST_EXPECT_MSG_EQ(tag.GetKey(), key, "same key");
        NS_TEST_EXPECT_MSG_EQ(RdmaEventScheduler::GetOrigin(tag.GetKey()), 1234, "origin");
        NS_TEST_EXPECT_MSG_EQ(RdmaEventScheduler::GetSequence(tag.GetKey()),
                              987654321,
                              "sequence");
        NS_TEST_EXPECT_MSG_EQ(q->GetSize(), 100, "bytes");
    }
};

/// The suite.
class RdmaEventSchedulerTestSuite : public TestSuite
{
  public:
    RdmaEventSchedulerTestSuite()
        : TestSuite("rdma-event-scheduler", UNIT)
    {
        AddTestCase(new OriginOrderTestCase, TestCase::QUICK);
        AddTestCase(new SequenceOrderTestCase, TestCase::QUICK);
        AddTestCase(new TakenKeyTestCase, TestCase::QUICK);
        AddTestCase(new RemoveTestCase, TestCase::QUICK);
        AddTestCase(new HeapOrderTestCase, TestCase::QUICK);
        AddTestCase(new KeyTagTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaEventSchedulerTestSuite g_rdmaEventSchedulerTestSuite;

} // namespace
