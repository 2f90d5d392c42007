/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FRAME_ARRIVALS_H
#define RDMA_FRAME_ARRIVALS_H

#include "rdma-frame-batch.h"

#include "ns3/callback.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The frames a rank received from other ranks (RdmaFrameBatch),
 * kept serialized until their arrival times and handed to the arrival
 * callback one at a time, each in an event of its own at its arrival time,
 * in its receiving node's context, with the event key it carries.
 *
 * Only the earliest pending frame has an event scheduled; when it runs it
 * schedules the next. The frames' events run in the order they would if
 * every one were scheduled when its batch was read: RdmaEventScheduler
 * orders the events of one time by their keys, and each frame's event is
 * in the scheduler before its turn comes (the frames are kept in (arrival,
 * key) order, so each is scheduled when the one before it runs, or when a
 * batch brings an earlier one, which then takes the place of the scheduled
 * one, which then does nothing when its time comes). Nothing waits as a
 * Packet or an event: a frame waiting for its arrival costs its serialized
 * bytes and a 48-byte record.
 *
 * The frames of a batch keep the batch's buffer (RdmaFrameBatch::Received)
 * while any of them waits. Compact(), called before the next batches are
 * received, copies the frames still waiting (typically those sent in the
 * last wire time of a window) into a buffer of their own, so the previous
 * window's buffers go before the next window's are taken.
 */
class RdmaFrameArrivals
{
  public:
    /// What a frame is handed to at its arrival time.
    typedef Callback<void, const RdmaFrameBatch::Record&> ArrivalCallback;

    RdmaFrameArrivals() = default;
    ~RdmaFrameArrivals();
    RdmaFrameArrivals(const RdmaFrameArrivals&) = delete;
    RdmaFrameArrivals& operator=(const RdmaFrameArrivals&) = delete;

    /**
     * \brief Set what each frame is handed to, at its arrival.
     * \param cb the callback
     */
    void SetArrivalCallback(ArrivalCallback cb);

    /**
     * \brief Read a received batch: each notice is handed to `notice` now,
     * each frame waits for its arrival time (at or after now).
     * \param batch the batch
     * \param notice what a notice is handed to
     * \return the frames taken
     */
    uint32_t Add(Ptr<const RdmaFrameBatch::Received> batch,
                 const std::function<void(const RdmaFrameBatch::Record&)>& notice);

    /**
     * \brief Keep the frames still waiting in one buffer of their own, so
     * the batches they came in go (call before taking buffers for the next
     * batches).
     */
    void Compact();

    /// Drop every waiting frame (a scheduled arrival then hands over nothing).
    void Clear();

    /// \return frames waiting for their arrival
    std::size_t GetWaiting() const;
    /// \return serialized bytes of the frames waiting (after Compact(): the
    /// bytes of its buffer)
    std::size_t GetWaitingBytes() const;

  private:
    /// Schedule the arrival of the earliest waiting frame.
    void ScheduleNext();
    /**
     * \brief The earliest waiting frame's arrival: hand it over, schedule
     * the next.
     * \param generation the scheduling it was made by (if not the latest,
     * another frame took its place: nothing to do)
     */
    void ArriveNext(uint64_t generation);

    ArrivalCallback m_arrival; //!< what frames are handed to
    std::vector<RdmaFrameBatch::Record>
        m_frames;               //!< waiting from m_next on, in (arrival, key) order
    std::size_t m_next{0};      //!< the earliest waiting frame
    bool m_scheduled{false};    //!< its arrival is scheduled
    uint64_t m_scheduledKey{0}; //!< with this key
    uint64_t m_generation{0};   //!< schedulings made (the latest is live)
};

} // namespace ns3

#endif // RDMA_FRAME_ARRIVALS_H
