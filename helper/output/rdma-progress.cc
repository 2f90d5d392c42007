/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-progress.h"

#include "rdma-interrupt.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace ns3
{

RdmaProgress::RdmaProgress(std::ostream* os,
                           Time firstArrival,
                           Time step,
                           std::function<Work()> measure,
                           double quietFor)
    : m_os(os),
      m_firstArrival(firstArrival),
      m_step(step),
      m_measure(std::move(measure)),
      m_quietFor(quietFor)
{
    NS_ABORT_MSG_IF(!step.IsStrictlyPositive(), "RdmaProgress: the step must be > 0");
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
    m_event = Simulator::Schedule(std::max(Time(0), m_firstArrival - Simulator::Now()),
                                  &RdmaProgress::Check,
                                  this);
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

int
RdmaProgress::GetInterrupt() const
{
    return m_interrupt;
}

void
RdmaProgress::Check()
{
    if (const int signal = RdmaInterrupt::GetPending())
    {
        m_interrupt = signal;
        Simulator::Stop();
        return;
    }
    m_event = Simulator::Schedule(m_step, &RdmaProgress::Check, this);
    const auto wallNow = Clock::now();
    if (!m_checked)
    {
        m_checked = true;
        m_workStart = wallNow;
    }
    if (!m_os)
    {
        return;
    }
    const double wall = std::chrono::duration<double>(wallNow - m_start).count();
    const double sinceLast = std::chrono::duration<double>(wallNow - m_lastPrint).count();
    if (wall < m_quietFor || (m_printed && sinceLast < 1.0))
    {
        return;
    }
    const Work w = m_measure();
    const double fraction = std::clamp(w.delivered, 0.0, 1.0);
    const double working = std::chrono::duration<double>(wallNow - m_workStart).count();
    *m_os << "\r[rdma-sim] " << std::fixed << std::setprecision(3)
          << Simulator::Now().GetSeconds() * 1e3 << " ms simulated (traffic from "
          << m_firstArrival.GetSeconds() * 1e3 << " ms): " << w.flowsDone << " of "
          << w.flowsTotal << " " << w.what << " done, " << std::setprecision(1) << fraction * 100
          << " % of the data delivered; wall " << wall << " s";
    if (fraction > 0 && fraction < 1)
    {
        *m_os << ", about " << working * (1 - fraction) / fraction << " s left";
    }
    *m_os << "   " << std::flush;
    m_printed = true;
    m_lastPrint = wallNow;
}

} // namespace ns3
