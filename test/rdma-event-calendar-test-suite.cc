/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RdmaEventCalendar, RdmaEventScheduler's store: whatever the
 * bucket width and wherever an event waits (the current bucket's heap, the
 * ring, the far heap), events come out in the total order (time, key, uid)
 * that an ordered set of the same entries gives.
 */

#include "ns3/rdma-event-calendar.h"
#include "ns3/test.h"

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>

using namespace ns3;

namespace
{

/// An entry's place in the order, as the reference set holds it.
using Order = std::tuple<uint64_t, uint64_t, uint32_t>;

/// \param e an entry \return its (time, key, uid)
Order
OrderOf(const RdmaEventCalendar::Entry& e)
{
    return {e.ts, e.key, e.uid};
}

/**
 * A simulator's use of the calendar, against a std::set: 200,000 steps of
 * inserts (never before the last event taken, as a simulator schedules;
 * times a few steps ahead, within the ring's span and far past it, with
 * many ties of time broken by key and some of key broken by uid), takes,
 * peeks followed by inserts before the peeked event, and removals by uid.
 * Each take and peek must give the set's least entry; run for bucket
 * widths of 1, 4 and 256 steps so that events cross all three stores.
 */
class CalendarOrderTestCase : public TestCase
{
  public:
    /// \param shift the calendar's bucket width, 2^shift steps
    explicit CalendarOrderTestCase(uint32_t shift)
        : TestCase("takes in (time, key, uid) order, buckets of 2^" + std::to_string(shift) +
                   " steps"),
          m_shift(shift)
    {
    }

  private:
    void DoRun() override
    {
        RdmaEventCalendar calendar(m_shift);
        std::mt19937_64 rng(7 + m_shift);
        const uint64_t span = uint64_t(RdmaEventCalendar::RING_BUCKETS) << m_shift;
        std::set<Order> pending;
        uint64_t now = 0;
        uint32_t uid = 0;
        uint32_t taken = 0;
        uint32_t far = 0;
        auto insert = [&](uint64_t ts) {
            RdmaEventCalendar::Entry e{ts, rng() % 4, nullptr, ++uid, 0};
            calendar.Insert(e);
            pending.insert(OrderOf(e));
        };
        for (uint32_t step = 0; step < 200000; ++step)
        {
            const uint64_t action = rng() % 100;
            if (action < 45 || pending.empty())
            {
                const uint64_t kind = rng() % 10;
                uint64_t ahead;
                if (kind < 5)
                {
                    ahead = rng() % 8; // this bucket or the next few
                }
                else if (kind < 9)
                {
                    ahead = rng() % span; // within the ring
                }
                else
                {
                    ahead = span + rng() % (8 * span); // a timer: the far heap
                    ++far;
                }
                insert(now + ahead);
            }
            else if (action < 88)
            {
                const RdmaEventCalendar::Entry e = calendar.RemoveNext();
                NS_TEST_ASSERT_MSG_EQ((OrderOf(e) == *pending.begin()),
                                      true,
                                      "step " << step << ": took uid " << e.uid << " at " << e.ts
                                              << ", the least pending is uid "
                                              << std::get<2>(*pending.begin()) << " at "
                                              << std::get<0>(*pending.begin()));
                pending.erase(pending.begin());
                now = e.ts;
                ++taken;
            }
            else if (action < 96)
            {
                // Peek (the calendar may move to the next bucket), then
                // schedule for a time before the event peeked at.
                const RdmaEventCalendar::Entry& next = calendar.PeekNext();
                NS_TEST_ASSERT_MSG_EQ((OrderOf(next) == *pending.begin()),
                                      true,
                                      "step " << step << ": peek");
                if (next.ts > now)
                {
                    insert(now + rng() % (next.ts - now));
                }
            }
            else
            {
                auto it = pending.begin();
                std::advance(it, rng() % pending.size());
                NS_TEST_ASSERT_MSG_EQ(calendar.Remove(std::get<2>(*it)), true, "removed");
                pending.erase(it);
            }
            NS_TEST_ASSERT_MSG_EQ(calendar.IsEmpty(), pending.empty(), "step " << step);
        }
        NS_TEST_ASSERT_MSG_EQ(calendar.Remove(uid + 1), false, "a uid never scheduled");
        while (!pending.empty())
        {
            const RdmaEventCalendar::Entry e = calendar.RemoveNext();
            NS_TEST_ASSERT_MSG_EQ((OrderOf(e) == *pending.begin()), true, "draining");
            pending.erase(pending.begin());
        }
        NS_TEST_ASSERT_MSG_EQ(calendar.IsEmpty(), true, "all taken");
        NS_TEST_ASSERT_MSG_GT(taken, 50000u, "events taken along the way");
        NS_TEST_ASSERT_MSG_GT(far, 5000u, "events scheduled past the ring");
    }

    uint32_t m_shift; //!< bucket width, 2^m_shift steps
};

/// The suite.
class RdmaEventCalendarTestSuite : public TestSuite
{
  public:
    RdmaEventCalendarTestSuite()
        : TestSuite("rdma-event-calendar", UNIT)
    {
        for (uint32_t shift : {0U, 2U, 8U})
        {
            AddTestCase(new CalendarOrderTestCase(shift), TestCase::QUICK);
        }
    }
};

/// Static instance that registers the suite.
RdmaEventCalendarTestSuite g_rdmaEventCalendarTestSuite;

} // namespace
