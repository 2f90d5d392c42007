/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-progress.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <iomanip>
#include <ostream>

namespace ns3
{

RdmaProgress::RdmaProgress(std::ostream* os, Time end, double quietFor)
    : m_os(os),
      m_end(end),
      m_step(end / 1000),
      m_quietFor(quietFor)
{
    NS_ABORT_MSG_IF(!end.IsStrictlyPositive(), "RdmaProgress: the planned end must be > 0");
}

RdmaProgress::~RdmaProgress()
{
    Stop();
}

void
RdmaProgress::Start()
{
    m_start = Clock::now();
    m_lastPrint = m_start;
    m_event = Simulator::Schedule(m_step, &RdmaProgress::Check, this);
}

void
RdmaProgress::Stop()
{
    m_event.Cancel();
    if (m_printed && m_os)
    {
        *m_os << "\n" << std::flush;
        m_printed = false;
    }
}

void
RdmaProgress::Check()
{
    const Time now = Simulator::Now();
    if (now < m_end)
    {
        m_event = Simulator::Schedule(m_step, &RdmaProgress::Check, this);
    }
    if (!m_os)
    {
        return;
    }
    const auto wallNow = Clock::now();
    const double wall = std::chrono::duration<double>(wallNow - m_start).count();
    const double sinceLast = std::chrono::duration<double>(wallNow - m_lastPrint).count();
    if (wall < m_quietFor || (m_printed && sinceLast < 1.0))
    {
        return;
    }
    const double fraction = std::min(1.0, now.GetSeconds() / m_end.GetSeconds());
    *m_os << "\r[rdma-sim] " << std::fixed << std::setprecision(3) << now.GetSeconds() * 1e3
          << " of " << m_end.GetSeconds() * 1e3 << " ms simulated (" << std::setprecision(1)
          << fraction * 100 << " %), wall " << wall << " s";
    if (fraction > 0)
    {
        *m_os << ", about " << wall * (1 - fraction) / fraction << " s left";
    }
    *m_os << "   " << std::flush;
    m_printed = true;
    m_lastPrint = wallNow;
}

} // namespace ns3
