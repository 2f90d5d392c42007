/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PROGRESS_H
#define RDMA_PROGRESS_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <iosfwd>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A progress line for long runs: simulated time, percent of the
 * planned end, wall time and an estimate of the wall time left, rewritten
 * in place (carriage return) on a stream, at most once a second and only
 * once the run has taken longer than a few seconds.
 *
 * The checks are simulator events every 1/1000 of the planned simulated
 * time; they are scheduled whether or not anything is printed, so the run's
 * event count and results do not depend on being quiet.
 */
class RdmaProgress
{
  public:
    /**
     * \param os where to print (nullptr: never print)
     * \param end the planned simulated end time (> 0)
     * \param quietFor no line before this much wall time, seconds
     */
    RdmaProgress(std::ostream* os, Time end, double quietFor = 3.0);
    ~RdmaProgress();

    /// \brief Schedule the first check; call before Simulator::Run.
    void Start();

    /// \brief End the line (a newline if one was printed) and stop checking.
    void Stop();

  private:
    /// Check, maybe print, reschedule.
    void Check();

    using Clock = std::chrono::steady_clock; //!< wall clock
    std::ostream* m_os;                      //!< the stream, or nullptr
    Time m_end;                              //!< planned simulated end
    Time m_step;                             //!< simulated time between checks
    double m_quietFor;                       //!< seconds before the first line
    Clock::time_point m_start;               //!< wall time at Start
    Clock::time_point m_lastPrint;           //!< wall time of the last line
    bool m_printed{false};                   //!< whether a line is on screen
    EventId m_event;                         //!< the next check
};

} // namespace ns3

#endif /* RDMA_PROGRESS_H */
