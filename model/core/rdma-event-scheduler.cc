/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-event-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
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
    : m_origin(Simulator::NO_CONTEXT)
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

bool
RdmaEventScheduler::Before(const Entry& a, const Entry& b)
{
    if (a.ts != b.ts)
    {
        return a.ts < b.ts;
    }
    if (a.key != b.key)
    {
        return a.key < b.key;
    }
    return a.uid < b.uid;
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
RdmaEventScheduler::SiftUp(std::size_t i)
{
    const Entry moving = m_heap[i];
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / 2;
        if (!Before(moving, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = moving;
}

void
RdmaEventScheduler::SiftDown(std::size_t i)
{
    const std::size_t n = m_heap.size();
    const Entry moving = m_heap[i];
    while (true)
    {
        std::size_t child = 2 * i + 1;
        if (child >= n)
        {
            break;
        }
        if (child + 1 < n && Before(m_heap[child + 1], m_heap[child]))
        {
            ++child;
        }
        if (!Before(m_heap[child], moving))
        {
            break;
        }
        m_heap[i] = m_heap[child];
        i = child;
    }
    m_heap[i] = moving;
}

void
RdmaEventScheduler::PopRoot()
{
    const Entry last = m_heap.back();
    m_heap.pop_back();
    const std::size_t n = m_heap.size();
    if (n == 0)
    {
        return;
    }
    // Floyd's: the hole left at the root falls along the earlier child to a
    // leaf (one comparison a level), and the last entry, one of the latest
    // events and so seldom far from a leaf, rises from there.
    std::size_t i = 0;
    for (std::size_t child = 1; child < n; child = 2 * i + 1)
    {
        if (child + 1 < n && Before(m_heap[child + 1], m_heap[child]))
        {
            ++child;
        }
        m_heap[i] = m_heap[child];
        i = child;
    }
    m_heap[i] = last;
    SiftUp(i);
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
    m_heap.push_back(Entry{ev.key.m_ts, key, ev.impl, ev.key.m_uid, ev.key.m_context});
    SiftUp(m_heap.size() - 1);
}

bool
RdmaEventScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
RdmaEventScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return ToEvent(m_heap.front());
}

Scheduler::Event
RdmaEventScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    const Entry next = m_heap.front();
    PopRoot();
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
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].uid == ev.key.m_uid)
        {
            NS_ASSERT(m_heap[i].impl == ev.impl);
            m_heap[i] = m_heap.back();
            m_heap.pop_back();
            if (i < m_heap.size())
            {
                SiftUp(i);
                SiftDown(i);
            }
            return;
        }
    }
    NS_ABORT_MSG("RdmaEventScheduler::Remove: event uid " << ev.key.m_uid << " is not scheduled");
}

} // namespace ns3
