/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-event-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEventScheduler");

NS_OBJECT_ENSURE_REGISTERED(RdmaEventScheduler);

RdmaEventScheduler* RdmaEventScheduler::s_active = nullptr;

namespace
{
/// Mask of the sequence number in a packed key.
constexpr uint64_t SEQUENCE_MASK = (uint64_t(1) << RdmaEventScheduler::SEQUENCE_BITS) - 1;

/**
 * \return the calendar's bucket width as a power of two of time steps: the
 * first at least 2 ns long (a few events of a fabric's; the order does not
 * depend on it)
 */
uint32_t
BucketShift()
{
    const int64_t steps = NanoSeconds(2).GetTimeStep();
    return steps <= 1 ? 0 : uint32_t(64 - __builtin_clzll(uint64_t(steps - 1)));
}
} // namespace

TypeId
RdmaEventScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEventScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaEventScheduler>();
    return tid;
}

RdmaEventScheduler::RdmaEventScheduler()
    : m_calendar(BucketShift()),
      m_origin(Simulator::NO_CONTEXT)
{
    NS_LOG_FUNCTION(this);
    s_active = this;
}

RdmaEventScheduler::~RdmaEventScheduler()
{
    NS_LOG_FUNCTION(this);
    if (s_active == this)
    {
        s_active = nullptr;
    }
}

uint64_t
RdmaEventScheduler::NextKey(uint32_t origin)
{
    if (origin < m_next.size() && m_next[origin] <= SEQUENCE_MASK)
    {
        return (uint64_t(origin) << SEQUENCE_BITS) | m_next[origin]++; // a node's, as mostly
    }
    uint64_t seq;
    uint64_t index;
    if (origin == Simulator::NO_CONTEXT)
    {
        seq = m_nextGlobal++;
        index = MAX_ORIGINS;
    }
    else
    {
        NS_ABORT_MSG_IF(origin >= MAX_ORIGINS,
                        "RdmaEventScheduler: context " << origin << " is not below "
                                                       << MAX_ORIGINS);
        if (origin >= m_next.size())
        {
            m_next.resize(std::size_t(origin) + 1, 0);
        }
        seq = m_next[origin]++;
        index = origin;
    }
    NS_ABORT_MSG_IF(seq > SEQUENCE_MASK,
                    "RdmaEventScheduler: origin " << origin << " scheduled more than 2^"
                                                  << SEQUENCE_BITS << " events");
    return (index << SEQUENCE_BITS) | seq;
}

uint64_t
RdmaEventScheduler::TakeKey()
{
    return s_active ? s_active->NextKey(s_active->m_origin) : 0;
}

void
RdmaEventScheduler::SetNextKey(uint64_t key)
{
    if (s_active)
    {
        s_active->m_override = key;
        s_active->m_hasOverride = true;
    }
}

uint64_t
RdmaEventScheduler::GetRunningKey()
{
    return s_active ? s_active->m_runningKey : 0;
}

bool
RdmaEventScheduler::DecidesExpiry(const EventId& id, uint64_t now)
{
    return s_active && id.GetUid() != EventId::UID::DESTROY && id.PeekEventImpl() &&
           id.GetTs() == now;
}

bool
RdmaEventScheduler::IsExpiredNow(const EventId& id)
{
    if (id.PeekEventImpl()->IsCancelled())
    {
        return true;
    }
    if (id.GetTs() != s_active->m_nowTs)
    {
        return false; // nothing of this time has run: before the run
    }
    const std::vector<uint32_t>& ran = s_active->m_ranNow;
    return std::find(ran.begin(), ran.end(), id.GetUid()) != ran.end();
}

uint32_t
RdmaEventScheduler::GetOrigin(uint64_t key)
{
    const auto index = uint32_t(key >> SEQUENCE_BITS);
    return index == MAX_ORIGINS ? Simulator::NO_CONTEXT : index;
}

uint64_t
RdmaEventScheduler::GetSequence(uint64_t key)
{
    return key & SEQUENCE_MASK;
}

Scheduler::Event
RdmaEventScheduler::ToEvent(const Entry& e)
{
    Event ev;
    ev.impl = e.impl;
    ev.key.m_ts = e.ts;
    ev.key.m_uid = e.uid;
    ev.key.m_context = e.context;
    return ev;
}

void
RdmaEventScheduler::Insert(const Event& ev)
{
    uint64_t key;
    if (m_hasOverride)
    {
        key = m_override;
        m_hasOverride = false;
    }
    else
    {
        key = NextKey(m_origin);
    }
    m_calendar.Insert(Entry{ev.key.m_ts, key, ev.impl, ev.key.m_uid, ev.key.m_context});
}

bool
RdmaEventScheduler::IsEmpty() const
{
    return m_calendar.IsEmpty();
}

Scheduler::Event
RdmaEventScheduler::PeekNext() const
{
    NS_ASSERT(!m_calendar.IsEmpty());
    return ToEvent(m_calendar.PeekNext());
}

Scheduler::Event
RdmaEventScheduler::RemoveNext()
{
    NS_ASSERT(!m_calendar.IsEmpty());
    const Entry next = m_calendar.RemoveNext();
    // The simulator runs it next, in its context: what it schedules is
    // that context's.
    m_origin = next.context;
    m_runningKey = next.key;
    if (next.ts != m_nowTs)
    {
        m_nowTs = next.ts;
        m_ranNow.clear();
    }
    m_ranNow.push_back(next.uid);
    return ToEvent(next);
}

void
RdmaEventScheduler::Remove(const Event& ev)
{
    if (m_calendar.Remove(ev.key.m_uid))
    {
        return;
    }
    NS_ABORT_MSG("RdmaEventScheduler::Remove: event uid " << ev.key.m_uid << " is not scheduled");
}

} // namespace ns3
