/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-deadline-timer.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

RdmaDeadlineTimer::RdmaDeadlineTimer()
    : m_armed(false)
{
}

RdmaDeadlineTimer::~RdmaDeadlineTimer()
{
    m_event.Cancel();
}

void
RdmaDeadlineTimer::SetFunction(Callback<void> expired)
{
    m_expired = expired;
}

void
RdmaDeadlineTimer::Restart(Time delay)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), "RdmaDeadlineTimer: negative delay " << delay);
    const Time now = Simulator::Now();
    m_deadline = now + delay;
    m_armed = true;
    if (m_event.IsRunning() && m_eventAt <= m_deadline)
    {
        return; // Fire() re-arms for the rest
    }
    m_event.Cancel();
    m_eventAt = m_deadline;
    m_event = Simulator::Schedule(delay, &RdmaDeadlineTimer::Fire, this);
}

void
RdmaDeadlineTimer::Cancel()
{
    // The pending event, if any, stays and finds the timer disarmed: a
    // Restart() soon after (the common case) reuses it.
    m_armed = false;
}

bool
RdmaDeadlineTimer::IsRunning() const
{
    return m_armed;
}

Time
RdmaDeadlineTimer::GetDeadline() const
{
    return m_deadline;
}

void
RdmaDeadlineTimer::Fire()
{
    if (!m_armed)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (now < m_deadline)
    {
        m_eventAt = m_deadline;
        m_event = Simulator::Schedule(m_deadline - now, &RdmaDeadlineTimer::Fire, this);
        return;
    }
    m_armed = false;
    if (!m_expired.IsNull())
    {
        m_expired();
    }
}

} // namespace ns3
