/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PROGRESS_H
#define RDMA_PROGRESS_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A progress line for long runs that measures the work there is:
 * flows done and data delivered against the workload's totals, counted
 * from the first arrival, with the wall time left estimated from the
 * fraction of the data delivered. (Simulated time said little: the HPCC
 * files' traffic starts at 2.0 s, so "95 % of the simulated time" came
 * before most of the work.) The line is rewritten in place (carriage
 * return) at most once a second and only once the run has taken longer
 * than a few seconds.
 *
 * The checks are simulator events every `step` of simulated time from the
 * first arrival until the run stops; they are scheduled whether or not
 * anything is printed, so the run's event count and results do not depend
 * on being quiet. Each check also polls RdmaInterrupt: on SIGINT or
 * SIGTERM it stops the simulator, and GetInterrupt() says which signal.
 */
class RdmaProgress
{
  public:
    /// What is done of the workload.
    struct Work
    {
        uint64_t flowsDone{0};  //!< flows completed or failed
        uint64_t flowsTotal{0}; //!< flows in the workload
        double delivered{0};    //!< fraction of the workload's data delivered, 0 to 1
        const char* what{"flows"}; //!< what flowsDone counts ("flows", "collectives")
    };

    /**
     * \param os where to print (nullptr: never print)
     * \param firstArrival the workload's first arrival (the first check is then)
     * \param step simulated time between checks (> 0)
     * \param measure what is done now (called only when a line is printed)
     * \param quietFor no line before this much wall time, seconds
     */
    RdmaProgress(std::ostream* os,
                 Time firstArrival,
                 Time step,
                 std::function<Work()> measure,
                 double quietFor = 3.0);
    ~RdmaProgress();

    /// \brief Schedule the first check; call before Simulator::Run.
    void Start();

    /// \brief End the line (a newline if one was printed) and stop checking.
    void Stop();

    /// \return the signal that stopped the run, 0 if none did
    int GetInterrupt() const;

  private:
    /// Poll for a signal, maybe print, reschedule.
    void Check();

    using Clock = std::chrono::steady_clock; //!< wall clock
    std::ostream* m_os;                      //!< the stream, or nullptr
    Time m_firstArrival;                     //!< the workload's first arrival
    Time m_step;                             //!< simulated time between checks
    std::function<Work()> m_measure;         //!< what is done
    double m_quietFor;                       //!< seconds before the first line
    Clock::time_point m_start;               //!< wall time at Start
    Clock::time_point m_workStart;           //!< wall time of the first check
    Clock::time_point m_lastPrint;           //!< wall time of the last line
    bool m_checked{false};                   //!< whether a check ran
    bool m_printed{false};                   //!< whether a line is on screen
    int m_interrupt{0};                      //!< the signal that stopped the run
    EventId m_event;                         //!< the next check
};

} // namespace ns3

#endif /* RDMA_PROGRESS_H */
