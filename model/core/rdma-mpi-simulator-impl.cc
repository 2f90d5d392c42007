/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaDistributedSimulatorImpl follows ns-3.37's DistributedSimulatorImpl
// (src/mpi/model/distributed-simulator-impl.cc, GPL-2.0, George Riley)
// but for the window's end (Run), which exchanges RdmaWindowMpiInterface's
// batches instead of ns-3's per-frame messages and LBTS messages.

#include "rdma-mpi-simulator-impl.h"

#include "rdma-event-scheduler.h"
#include "rdma-window-mpi-interface.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"

#include <mpi.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDistributedSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(RdmaDistributedSimulatorImpl);
NS_OBJECT_ENSURE_REGISTERED(RdmaPerFrameSimulatorImpl);
NS_OBJECT_ENSURE_REGISTERED(RdmaNullMessageSimulatorImpl);

TypeId
RdmaDistributedSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaDistributedSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaDistributedSimulatorImpl>();
    return tid;
}

RdmaDistributedSimulatorImpl::RdmaDistributedSimulatorImpl()
    : m_uid(EventId::UID::VALID),
      m_currentUid(EventId::UID::INVALID),
      m_currentContext(Simulator::NO_CONTEXT),
      m_myId(MpiInterface::GetSystemId()),
      m_grantedTime(Seconds(0)),
      m_lookAhead(Time::Max())
{
    NS_LOG_FUNCTION(this);
}

RdmaDistributedSimulatorImpl::~RdmaDistributedSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaDistributedSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    while (!m_events->IsEmpty())
    {
        Scheduler::Event next = m_events->RemoveNext();
        next.impl->Unref();
    }
    m_events = nullptr;
    SimulatorImpl::DoDispose();
}

void
RdmaDistributedSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        NS_LOG_LOGIC("handle destroy " << ev);
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
    MpiInterface::Destroy();
}

void
RdmaDistributedSimulatorImpl::CalculateLookAhead()
{
    NS_LOG_FUNCTION(this);
    if (MpiInterface::GetSize() <= 1)
    {
        m_lookAhead = Seconds(0);
    }
    else
    {
        NodeContainer c = NodeContainer::GetGlobal();
        for (NodeContainer::Iterator iter = c.Begin(); iter != c.End(); ++iter)
        {
            if ((*iter)->GetSystemId() != m_myId)
            {
                continue;
            }
            for (uint32_t i = 0; i < (*iter)->GetNDevices(); ++i)
            {
                Ptr<NetDevice> localNetDevice = (*iter)->GetDevice(i);
                if (!localNetDevice->IsPointToPoint())
                {
                    continue;
                }
                Ptr<Channel> channel = localNetDevice->GetChannel();
                if (!channel)
                {
                    continue;
                }
                Ptr<Node> remoteNode = channel->GetDevice(0) == localNetDevice
                                           ? channel->GetDevice(1)->GetNode()
                                           : channel->GetDevice(0)->GetNode();
                if (remoteNode->GetSystemId() == m_myId)
                {
                    continue;
                }
                TimeValue delay;
                channel->GetAttribute("Delay", delay);
                m_lookAhead = Min(m_lookAhead, delay.Get());
            }
        }
    }
    m_grantedTime = m_lookAhead;
    // A rank with no link to another takes the largest lookahead any rank
    // found (all ranks then advance at a similar pace), or the largest
    // time if no rank has one.
    long sendbuf = m_lookAhead == GetMaximumSimulationTime() ? 0 : long(m_lookAhead.GetInteger());
    long recvbuf = 0;
    MPI_Allreduce(&sendbuf, &recvbuf, 1, MPI_LONG, MPI_MAX, MpiInterface::GetCommunicator());
    if (m_lookAhead == GetMaximumSimulationTime() && recvbuf != 0)
    {
        m_lookAhead = Time(recvbuf);
        m_grantedTime = m_lookAhead;
    }
}

void
RdmaDistributedSimulatorImpl::BoundLookAhead(const Time lookAhead)
{
    if (lookAhead > Time(0))
    {
        NS_LOG_FUNCTION(this << lookAhead);
        m_lookAhead = Min(m_lookAhead, lookAhead);
    }
    else
    {
        NS_LOG_WARN("attempted to set lookahead to a negative time: " << lookAhead);
    }
}

Time
RdmaDistributedSimulatorImpl::GetLookAhead() const
{
    return m_lookAhead;
}

void
RdmaDistributedSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            scheduler->Insert(m_events->RemoveNext());
        }
    }
    m_events = scheduler;
}

void
RdmaDistributedSimulatorImpl::ProcessOneEvent()
{
    Scheduler::Event next = m_events->RemoveNext();
    PreEventHook(EventId(next.impl, next.key.m_ts, next.key.m_context, next.key.m_uid));
    NS_ASSERT(next.key.m_ts >= m_currentTs);
    m_unscheduledEvents--;
    m_eventCount++;
    m_currentTs = next.key.m_ts;
    m_currentContext = next.key.m_context;
    m_currentUid = next.key.m_uid;
    next.impl->Invoke();
    next.impl->Unref();
}

bool
RdmaDistributedSimulatorImpl::IsFinished() const
{
    return m_globalFinished;
}

bool
RdmaDistributedSimulatorImpl::IsLocalFinished() const
{
    return m_events->IsEmpty() || m_stop;
}

uint64_t
RdmaDistributedSimulatorImpl::NextTs() const
{
    return IsLocalFinished() ? uint64_t(GetMaximumSimulationTime().GetTimeStep())
                             : m_events->PeekNext().key.m_ts;
}

void
RdmaDistributedSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(RdmaWindowMpiInterface::IsEnabled(),
                        "RdmaDistributedSimulatorImpl: RdmaWindowMpiInterface is not enabled "
                        "(RdmaMpi::EnableSimulator enables it)");
    CalculateLookAhead();
    m_stop = false;
    m_globalFinished = false;
    const uint64_t maxTs = uint64_t(GetMaximumSimulationTime().GetTimeStep());
    while (!m_globalFinished)
    {
        uint64_t nextTs = NextTs();
        // The window's end: this rank's next event is past the granted
        // time, or it has none (it still takes part in every exchange
        // until all ranks are done).
        if (nextTs > uint64_t(m_grantedTime.GetTimeStep()) || IsLocalFinished())
        {
            const uint64_t smallest = RdmaWindowMpiInterface::Exchange(nextTs);
            nextTs = NextTs();
            m_globalFinished = smallest >= maxTs;
            if (!m_globalFinished)
            {
                m_grantedTime = m_lookAhead == GetMaximumSimulationTime()
                                    ? GetMaximumSimulationTime()
                                    : TimeStep(smallest) + m_lookAhead;
                NS_LOG_LOGIC("granted " << m_grantedTime.GetTimeStep());
            }
        }
        if (nextTs <= uint64_t(m_grantedTime.GetTimeStep()) && !IsLocalFinished())
        {
            ProcessOneEvent();
        }
    }
    NS_ASSERT(!m_events->IsEmpty() || m_unscheduledEvents == 0);
}

uint32_t
RdmaDistributedSimulatorImpl::GetSystemId() const
{
    return m_myId;
}

void
RdmaDistributedSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

void
RdmaDistributedSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    Simulator::Schedule(delay, &Simulator::Stop);
}

EventId
RdmaDistributedSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    const Time tAbsolute = delay + TimeStep(m_currentTs);
    NS_ASSERT(tAbsolute.IsPositive());
    NS_ASSERT(tAbsolute >= TimeStep(m_currentTs));
    Scheduler::Event ev;
    ev.impl = event;
    ev.key.m_ts = static_cast<uint64_t>(tAbsolute.GetTimeStep());
    ev.key.m_context = GetContext();
    ev.key.m_uid = m_uid;
    m_uid++;
    m_unscheduledEvents++;
    m_events->Insert(ev);
    return EventId(event, ev.key.m_ts, ev.key.m_context, ev.key.m_uid);
}

void
RdmaDistributedSimulatorImpl::ScheduleWithContext(uint32_t context,
                                                  const Time& delay,
                                                  EventImpl* event)
{
    Scheduler::Event ev;
    ev.impl = event;
    ev.key.m_ts = m_currentTs + delay.GetTimeStep();
    ev.key.m_context = context;
    ev.key.m_uid = m_uid;
    m_uid++;
    m_unscheduledEvents++;
    m_events->Insert(ev);
}

EventId
RdmaDistributedSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
RdmaDistributedSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, 2);
    m_destroyEvents.push_back(id);
    m_uid++;
    return id;
}

Time
RdmaDistributedSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
RdmaDistributedSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    return IsExpired(id) ? TimeStep(0) : TimeStep(id.GetTs() - m_currentTs);
}

void
RdmaDistributedSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); i++)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event event;
    event.impl = id.PeekEventImpl();
    event.key.m_ts = id.GetTs();
    event.key.m_context = id.GetContext();
    event.key.m_uid = id.GetUid();
    m_events->Remove(event);
    event.impl->Cancel();
    // whenever we remove an event from the event list, we have to unref it.
    event.impl->Unref();
    m_unscheduledEvents--;
}

void
RdmaDistributedSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
RdmaDistributedSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const EventId& destroy : m_destroyEvents)
        {
            if (destroy == id)
            {
                return false;
            }
        }
        return true;
    }
    if (RdmaEventScheduler::DecidesExpiry(id, m_currentTs))
    {
        return RdmaEventScheduler::IsExpiredNow(id);
    }
    return id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) ||
           id.PeekEventImpl()->IsCancelled();
}

Time
RdmaDistributedSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
RdmaDistributedSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
RdmaDistributedSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

TypeId
RdmaPerFrameSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaPerFrameSimulatorImpl")
                            .SetParent<DistributedSimulatorImpl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaPerFrameSimulatorImpl>();
    return tid;
}

bool
RdmaPerFrameSimulatorImpl::IsExpired(const EventId& id) const
{
    return RdmaEventScheduler::DecidesExpiry(id, Now().GetTimeStep())
               ? RdmaEventScheduler::IsExpiredNow(id)
               : DistributedSimulatorImpl::IsExpired(id);
}

TypeId
RdmaNullMessageSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaNullMessageSimulatorImpl")
                            .SetParent<NullMessageSimulatorImpl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaNullMessageSimulatorImpl>();
    return tid;
}

bool
RdmaNullMessageSimulatorImpl::IsExpired(const EventId& id) const
{
    return RdmaEventScheduler::DecidesExpiry(id, Now().GetTimeStep())
               ? RdmaEventScheduler::IsExpiredNow(id)
               : NullMessageSimulatorImpl::IsExpired(id);
}

} // namespace ns3
