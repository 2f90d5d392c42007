/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DEADLINE_TIMER_H
#define RDMA_DEADLINE_TIMER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A timer whose deadline moves far more often than it expires, such
 * as an RC requester's local ACK timer, restarted by every ACK that makes
 * progress (IBA 9.7.6.1.3).
 *
 * Cancelling and rescheduling an ns-3 event on every restart leaves one
 * dead event in the scheduler per restart until its time comes (ns-3
 * cancels by marking), which for a timeout of milliseconds and an ACK
 * every microsecond grows the event queue by thousands of entries per QP.
 * This timer keeps at most one scheduled event: a later deadline only
 * moves a number, and an event that comes due before the deadline
 * re-arms itself for the rest (the way Linux's mod_timer() is used by
 * rxe). The callback runs exactly at the last deadline set, as with
 * cancel-and-reschedule.
 */
class RdmaDeadlineTimer
{
  public:
    RdmaDeadlineTimer();
    /// Cancels the pending event: the callback never runs after destruction.
    ~RdmaDeadlineTimer();

    RdmaDeadlineTimer(const RdmaDeadlineTimer&) = delete;
    RdmaDeadlineTimer& operator=(const RdmaDeadlineTimer&) = delete;

    /// \param expired what runs when the deadline is reached.
    void SetFunction(Callback<void> expired);
    /**
     * \brief Set the deadline to now + \p delay, replacing any earlier one.
     * \param delay time from now; a negative delay aborts, naming the timer
     */
    void Restart(Time delay);
    /// Disarm: the callback does not run until the next Restart().
    void Cancel();
    /// \return true if a deadline is set and has not been reached.
    bool IsRunning() const;
    /// \return the deadline (meaningful only while IsRunning()).
    Time GetDeadline() const;

  private:
    /// The scheduled event came due: run the callback or re-arm for the rest.
    void Fire();

    Callback<void> m_expired; //!< the callback
    EventId m_event;          //!< the one scheduled event, if any
    Time m_eventAt;           //!< when m_event is due
    Time m_deadline;          //!< the deadline
    bool m_armed;             //!< a deadline is set
};

} // namespace ns3

#endif // RDMA_DEADLINE_TIMER_H
