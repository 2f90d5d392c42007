/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EVENT_CALENDAR_H
#define RDMA_EVENT_CALENDAR_H

#include <cstdint>
#include <vector>

namespace ns3
{

class EventImpl;

/**
 * \ingroup rdma
 * \brief The pending events of RdmaEventScheduler, a calendar queue
 * (R. Brown, "Calendar queues: a fast O(1) priority queue implementation
 * for the simulation event set problem", CACM 31(10), 1988) that hands
 * them out in the entries' total order (time, key, uid), exactly as a heap
 * would.
 *
 * Time is cut into buckets of 2^shift time steps. Three stores hold the
 * events, by bucket (time >> shift) against the current bucket c, the
 * bucket of the event handed out last (or looked at last):
 * - the current bucket and anything earlier (an event scheduled for a time
 *   before the next pending one): a vector sorted latest first, taken from
 *   its end;
 * - buckets c+1 .. c+N-1: a ring of N unsorted vectors, with a bitmap of
 *   the ones not empty;
 * - later buckets (timers): a binary heap.
 * When the current store runs dry the next bucket that holds events (the
 * bitmap's next bit, or the far heap's top) becomes current: the far
 * heap's events that now fall within the ring move into it, and that
 * bucket's vector, sorted, becomes the current one. A frame's events lie within a
 * few microseconds (a transmission's end, a wire's arrival), so a bucket
 * of two nanoseconds holds a handful of events and an event costs a push onto
 * a vector, its share of sorting a few entries and a pop, where one
 * heap over all of them takes about log2(n) levels of compares whose
 * branches do not predict. Whatever the bucket width, the order is the
 * same: it only moves work between the three stores.
 *
 * Memory: 32 bytes an event pending, plus the ring's empty vectors, each
 * keeping room for at most 32 entries (bursts, every host at one time,
 * fill buckets of thousands: their room is freed when they empty), so at
 * most 2 MiB beyond the events with 2,048 buckets.
 */
class RdmaEventCalendar
{
  public:
    /// An event.
    struct Entry
    {
        uint64_t ts;      //!< time, in time steps
        uint64_t key;     //!< RdmaEventScheduler's (origin, sequence), packed
        EventImpl* impl;  //!< the event
        uint32_t uid;     //!< ns-3's uid (last tie-break; ties only between
                          //!< the MPI machinery's own events)
        uint32_t context; //!< the context it runs in
    };

    /// Buckets in the ring (a power of two).
    static constexpr uint32_t RING_BUCKETS = 2048;

    /**
     * \param shift a bucket spans 2^shift time steps (below 64)
     */
    explicit RdmaEventCalendar(uint32_t shift);

    /**
     * \param a an entry \param b an entry
     * \return whether a runs before b: by time, then key, then uid
     */
    static bool Before(const Entry& a, const Entry& b)
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

    /// \param e an event to add (at any time, earlier ones included)
    void Insert(const Entry& e);

    /// \return whether no event is pending
    bool IsEmpty() const
    {
        return m_size == 0;
    }

    /**
     * \return the first event in the order; the calendar must not be empty
     */
    const Entry& PeekNext();
    /**
     * \return the first event in the order, taken out; the calendar must
     * not be empty
     */
    Entry RemoveNext();
    /**
     * \brief Take an event out wherever it is (a linear search).
     * \param uid its uid
     * \return whether it was pending
     */
    bool Remove(uint32_t uid);

  private:
    /// Make the current vector hold the next event, if any is pending.
    void Advance()
    {
        if (m_now.empty() && m_size != 0)
        {
            Refill();
        }
    }

    /// Advance() when the current vector is empty and events are pending.
    void Refill();
    /// \param e an entry for the ring or the far heap (bucket past current)
    void Place(const Entry& e);

    uint32_t m_shift;                       //!< a bucket spans 2^m_shift steps
    uint64_t m_current{0};                  //!< the current bucket
    std::vector<Entry> m_now;               //!< current and earlier buckets, latest first
    std::vector<std::vector<Entry>> m_ring; //!< buckets m_current+1 ..+N-1
    std::vector<uint64_t> m_occupied;       //!< bitmap: ring slots not empty
    uint64_t m_inRing{0};                   //!< events in the ring
    std::vector<Entry> m_far;               //!< later buckets: a heap
    uint64_t m_size{0};                     //!< events pending
};

} // namespace ns3

#endif // RDMA_EVENT_CALENDAR_H
