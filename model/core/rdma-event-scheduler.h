/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EVENT_SCHEDULER_H
#define RDMA_EVENT_SCHEDULER_H

#include "rdma-event-calendar.h"

#include "ns3/event-id.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An ns-3 event scheduler that orders the events of one time by a
 * key of the model, not by the order of insertion: the same order on one
 * process and on any number of MPI ranks (doc/mpi.rst, "Event order").
 *
 * ns-3's own schedulers order events by (time, uid), the uid counting
 * insertions: two events of one time run in the order they were scheduled.
 * In a distributed run a frame from another rank is scheduled when the
 * receiving rank reads its MPI messages (at a window's end), so its place
 * among the receiving node's events of that time depends on the partition.
 *
 * This scheduler orders by (time, origin, sequence):
 * - origin: the context of the event that was running when the event was
 *   scheduled (a node id, or Simulator::NO_CONTEXT before the run and in
 *   global events), i.e. which node scheduled it;
 * - sequence: how many events that origin had scheduled before (a counter
 *   per origin).
 * An event that carries a key taken elsewhere (TakeKey(), SetNextKey()) is
 * ordered by that key: QbbChannel takes the key of a frame's arrival when
 * the frame starts, and QbbRemoteChannel carries it to the other rank with
 * the frame.
 *
 * Why it does not depend on the partition: by induction over the events in
 * their order, each node runs the same events in the same order on any
 * partition, so it schedules the same events in the same order, and each
 * origin's keys keep their relative order. Events a rank schedules for its
 * own machinery (ns-3's MPI receive and null-message events) take keys too;
 * they only skip sequence numbers, which moves no model event past another.
 * Events are scheduled per node: a node's events run in its context (the
 * helpers schedule with ScheduleWithContext), so every rank that runs a node
 * counts the same keys for it.
 *
 * ns-3's simulators decide whether an event has expired by its uid when
 * it is of the current time (insertion order); rdma-sim's simulator
 * implementations ask this scheduler instead (DecidesExpiry()).
 *
 * The store is an RdmaEventCalendar (a calendar queue of 32-byte entries:
 * time, the packed key, the event) with buckets of about 2 ns: Insert and
 * RemoveNext take O(1) on the model's spread of events, Remove (ns-3's
 * Simulator::Remove, not used by the module) a linear search by uid. The
 * order is the entries' total order (time, key, uid), whatever the
 * buckets.
 */
class RdmaEventScheduler : public Scheduler
{
  public:
    /// Bits of the packed key that hold the sequence number.
    static constexpr uint32_t SEQUENCE_BITS = 40;
    /// Origins a key can name: node ids below this, and NO_CONTEXT.
    static constexpr uint32_t MAX_ORIGINS = (1U << (64 - SEQUENCE_BITS)) - 1;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaEventScheduler();
    ~RdmaEventScheduler() override;

    // Inherited from Scheduler.
    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /**
     * \brief Take the next key of the running event's origin, as scheduling
     * an event would (one sequence number), for an event to be scheduled
     * later or on another rank with SetNextKey().
     * \return the packed key (origin, sequence); 0 if the simulator's
     * scheduler is not an RdmaEventScheduler
     */
    static uint64_t TakeKey();
    /**
     * \brief Give the next event scheduled this key instead of a new one
     * (no sequence number is taken). No effect if the simulator's scheduler
     * is not an RdmaEventScheduler.
     * \param key a key from TakeKey(), possibly on another rank
     */
    static void SetNextKey(uint64_t key);
    /**
     * \brief Whether IsExpired() must answer for an event instead of ns-3's
     * simulators. Theirs (DefaultSimulatorImpl::IsExpired and the MPI ones)
     * take an event of the current time as expired if its uid is at most the
     * running event's, i.e. they assume insertion order; under this order an
     * event scheduled earlier may still be pending, and Cancel() would then
     * leave it to run. RdmaSimulatorImpl and the MPI build's
     * RdmaDistributedSimulatorImpl and RdmaNullMessageSimulatorImpl ask here.
     * \param id the event
     * \param now the simulator's current time, in time steps
     * \return true if this scheduler is in use and the event is of time now
     */
    static bool DecidesExpiry(const EventId& id, uint64_t now);
    /**
     * \param id an event of the current time (DecidesExpiry)
     * \return whether it has run, is running or was cancelled
     */
    static bool IsExpiredNow(const EventId& id);

    /**
     * \param key a packed key
     * \return its origin: a node id, or Simulator::NO_CONTEXT
     */
    static uint32_t GetOrigin(uint64_t key);
    /**
     * \param key a packed key
     * \return its sequence number
     */
    static uint64_t GetSequence(uint64_t key);
    /**
     * \brief The key of the event running (or last run): of two events of
     * one time, the one with the smaller key runs first, on one process as
     * on any partition across MPI ranks, so the keys of events that ran on
     * different ranks tell which a sequential run would have run last (the
     * collectives' last landing, RdmaCollectiveRecord::Merge).
     * \return the packed key (origin, sequence); 0 if the simulator's
     * scheduler is not an RdmaEventScheduler or nothing has run
     */
    static uint64_t GetRunningKey();

  private:
    /// An event in the calendar.
    using Entry = RdmaEventCalendar::Entry;

    /**
     * \param origin a context
     * \return the next key of that origin (its sequence number taken)
     */
    uint64_t NextKey(uint32_t origin);
    /**
     * \param e an entry
     * \return it as ns-3's Event
     */
    static Event ToEvent(const Entry& e);

    mutable RdmaEventCalendar m_calendar; //!< the events (a peek moves them between stores)
    std::vector<uint64_t> m_next;  //!< next sequence number, by node id
    uint64_t m_nextGlobal{0};      //!< next sequence number of NO_CONTEXT
    uint32_t m_origin;             //!< context of the event running (or last run)
    uint64_t m_runningKey{0};      //!< key of the event running (or last run)
    uint64_t m_nowTs{0};           //!< time of the event running (or last run)
    std::vector<uint32_t> m_ranNow; //!< uids of the events of time m_nowTs run so far
    uint64_t m_override{0};        //!< key for the next insertion
    bool m_hasOverride{false};     //!< m_override is set

    static RdmaEventScheduler* s_active; //!< the simulator's scheduler, if one of these
};

} // namespace ns3

#endif // RDMA_EVENT_SCHEDULER_H
