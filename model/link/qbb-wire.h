/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_WIRE_H
#define QBB_WIRE_H

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/rdma-fifo.h"
#include "ns3/rdma-frame.h"

#include <array>
#include <cstdint>

namespace ns3
{

class QbbNetDevice;

/**
 * \ingroup rdma
 * \brief One direction of a QbbChannel's cable: the frames on it, oldest
 * first, and the arrival event of the oldest.
 *
 * The wire is that event itself (one object per direction, scheduled again
 * for each frame): a frame's arrival reads the wire, the frame and the
 * receiving device and nothing else, and the first four frames on the wire
 * (a 4096-byte frame's wire time at 100 Gb/s is 0.34 us, a 1 us cable holds
 * about four) are kept inside the object, the rest in a FIFO after them.
 * The order of events is QbbChannel's: each frame carries the key its
 * arrival is scheduled with.
 */
class QbbWire : public EventImpl
{
  public:
    /// A frame on the wire.
    struct InFlight
    {
        Ptr<RdmaFrame> frame;  //!< the frame
        Time arrival;          //!< when its last bit reaches the far end
        uint32_t downCount{0}; //!< the link's down count when it was sent
        uint64_t order{0};     //!< its arrival's event key (RdmaEventScheduler::TakeKey)
    };

    QbbWire() = default;

    /**
     * \brief Name the two ends (both null: no longer delivers).
     * \param tx the transmitting device
     * \param rx the receiving device
     */
    void SetEnds(QbbNetDevice* tx, QbbNetDevice* rx);

    /**
     * \brief Put a frame on the wire and schedule its arrival if it is the
     * only one (each later one is scheduled when the one before arrives).
     * \param frame the frame
     * \param delay time until its last bit arrives (wire time + propagation)
     * \param downCount the link's down count now
     * \param order its arrival's event key
     */
    void Push(const Ptr<RdmaFrame>& frame, Time delay, uint32_t downCount, uint64_t order);

    /// The link went down: frames on the wire now are lost when they arrive.
    void LinkDown();

    /// \return the link's down count the wire knows (QbbChannel's)
    uint32_t GetDownCount() const
    {
        return m_downCount;
    }

    /// Drop every frame and cancel the pending arrival (the channel is disposed).
    void Clear();

  private:
    /// The oldest frame's last bit arrives: hand it to the receiver.
    void Notify() override;

    /// Schedule the arrival of the oldest frame (the wire holds one).
    void ScheduleFront();

    /// \return the oldest frame (the wire holds one)
    InFlight& Front()
    {
        return m_slots[m_head];
    }

    /// Frames held inside the object.
    static constexpr uint8_t INLINE_SLOTS = 4;

    QbbNetDevice* m_tx{nullptr};  //!< the transmitting device (reports losses)
    QbbNetDevice* m_rx{nullptr};  //!< the receiving device
    uint32_t m_context{0};        //!< the receiving node's id, the arrivals' context
    bool m_hasContext{false};     //!< m_context is known (the receiver is on a node)
    uint32_t m_downCount{0};      //!< times the link went down
    uint8_t m_head{0};            //!< slot of the oldest frame
    uint8_t m_inline{0};          //!< frames in the slots
    std::array<InFlight, INLINE_SLOTS> m_slots; //!< the oldest frames
    RdmaFifo<InFlight> m_overflow;              //!< newer frames, when the slots are full
};

} // namespace ns3

#endif // QBB_WIRE_H
