/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MPI_SIMULATOR_IMPL_H
#define RDMA_MPI_SIMULATOR_IMPL_H

// Not installed by ns-3.37: from its src/mpi/model (contrib-build.cmake).
#include "distributed-simulator-impl.h"
#include "null-message-simulator-impl.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"

#include <list>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A granted-time-window simulator whose frames between ranks go
 * as one MPI message per window and receiving rank
 * (RdmaWindowMpiInterface). Built with ns-3's mpi module only;
 * RdmaMpi::EnableSimulator selects it for granted-time synchronization.
 *
 * ns-3.37's DistributedSimulatorImpl (src/mpi/model/
 * distributed-simulator-impl.cc, George Riley's conservative algorithm),
 * from which everything but the window's end is taken unchanged (the event
 * list, scheduling, Stop, Destroy, the lookahead: the smallest Delay of a
 * point-to-point channel to another rank, MPI_Allreduce'd for ranks with
 * none), calls GrantedTimeWindowMpiInterface's static ReceiveMessages and
 * TestSendComplete there, which offer no hook: hence a SimulatorImpl of
 * its own. Its Run():
 * - processes this rank's events up to the granted time;
 * - at the window's end calls RdmaWindowMpiInterface::Exchange with its
 *   next event time: the batches of frames sent in the window go out and
 *   come in, the frames received are scheduled, and the earliest time over
 *   the ranks (next events and the arrivals in flight) comes back;
 * - grants up to that earliest time plus the lookahead, as ns-3 does with
 *   its LBTS messages (MPI_Allgather). No message is in transit after an
 *   exchange, so ns-3's transmit and receive counts (which hold the
 *   window while messages are in flight) always agree here;
 * - ends when every rank is done (no events, or stopped) and no frame is
 *   in flight.
 * A frame sent at time t arrives at t + wire time + delay, after the
 * granted time (at most the earliest next event plus the lookahead), so it
 * is scheduled in the receiving rank's future.
 *
 * IsExpired() is RdmaSimulatorImpl's: right under RdmaEventScheduler's
 * order.
 */
class RdmaDistributedSimulatorImpl : public SimulatorImpl
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaDistributedSimulatorImpl();
    ~RdmaDistributedSimulatorImpl() override;

    // Inherited from SimulatorImpl.
    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    void Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /**
     * \brief Bound the lookahead further (as ns-3's
     * DistributedSimulatorImpl::BoundLookAhead).
     * \param lookAhead the largest lookahead; ignored unless above 0
     */
    void BoundLookAhead(const Time lookAhead);

    /// \return the lookahead (Run() computes it; the largest time before)
    Time GetLookAhead() const;

  private:
    void DoDispose() override;

    /// The lookahead: the smallest Delay of this rank's point-to-point
    /// channels to other ranks, else the largest any rank found.
    void CalculateLookAhead();
    /// \return whether this rank has no events left or was stopped
    bool IsLocalFinished() const;
    /// Run the next event.
    void ProcessOneEvent();
    /// \return the next event's time in time steps (the largest time if
    /// IsLocalFinished())
    uint64_t NextTs() const;

    /// Events to run at Destroy().
    typedef std::list<EventId> DestroyEvents;

    DestroyEvents m_destroyEvents; //!< events to run at Destroy()
    bool m_stop{false};            //!< Stop() was called
    bool m_globalFinished{false};  //!< every rank done, nothing in flight
    Ptr<Scheduler> m_events;       //!< the event list
    uint32_t m_uid;                //!< next event uid
    uint32_t m_currentUid;         //!< uid of the event running
    uint64_t m_currentTs{0};       //!< time of the event running, time steps
    uint32_t m_currentContext;     //!< context of the event running
    uint64_t m_eventCount{0};      //!< events run
    int m_unscheduledEvents{0};    //!< events scheduled, not yet run
    uint32_t m_myId;               //!< this rank
    Time m_grantedTime;            //!< end of the current window
    Time m_lookAhead;              //!< the window's length
};

/**
 * \ingroup rdma
 * \brief ns-3's granted-time-window simulator (DistributedSimulatorImpl)
 * with RdmaSimulatorImpl's IsExpired(): every frame between ranks an MPI
 * message of its own (ns-3's GrantedTimeWindowMpiInterface). Built with
 * ns-3's mpi module only; RdmaMpi::EnableSimulator selects it for
 * sim.mpiSync = granted-time-per-frame, the engine before
 * RdmaDistributedSimulatorImpl, for comparison (same answers).
 */
class RdmaPerFrameSimulatorImpl : public DistributedSimulatorImpl
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    bool IsExpired(const EventId& id) const override;
};

/**
 * \ingroup rdma
 * \brief ns-3's null-message simulator (NullMessageSimulatorImpl) with
 * RdmaSimulatorImpl's IsExpired(). Built with ns-3's mpi module only;
 * RdmaMpi::EnableSimulator selects it. Its frames between ranks go as
 * ns-3's per-frame messages (NullMessageMpiInterface).
 */
class RdmaNullMessageSimulatorImpl : public NullMessageSimulatorImpl
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    bool IsExpired(const EventId& id) const override;
};

} // namespace ns3

#endif // RDMA_MPI_SIMULATOR_IMPL_H
