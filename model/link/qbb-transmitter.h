/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_TRANSMITTER_H
#define QBB_TRANSMITTER_H

#include "qbb-device-stats.h"

#include "ns3/data-rate.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/rdma-frame.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The serializer of a QbbNetDevice: the frame on the wire, when it
 * ends, and the wire time of a frame at the line rate.
 *
 * A transmission's end is an event only when something waits for it (the
 * device asks for it: ScheduleCompletion(), NeedCompletion()); otherwise it
 * is settled when the device is next used or looked at (Settle()), which on
 * a lightly loaded switch port saves one event in two. Either way the
 * frame is counted in QbbDeviceStats::txFrames and txBytes and the
 * PhyTxEnd trace fires when it is settled, so counters and behaviour are
 * the same.
 *
 * A part of QbbNetDevice: it counts into the device's QbbDeviceStats and
 * fires its PhyTxEnd trace, and its completion event calls the device.
 */
class QbbTransmitter
{
  public:
    /**
     * \param stats the device's counters (txFrames, txBytes)
     * \param txEnd the device's PhyTxEnd trace
     */
    QbbTransmitter(QbbDeviceStats& stats, const TracedCallback<Ptr<const Packet>>& txEnd);

    /**
     * \param rate the line rate (above 0 bit/s; the device checks)
     */
    void SetDataRate(DataRate rate);
    /// \return the line rate
    DataRate GetDataRate() const;
    /// \param bytes what each frame adds on the wire (preamble, FCS, gap), bytes
    void SetWireOverhead(uint32_t bytes);
    /// \return what each frame adds on the wire, bytes
    uint32_t GetWireOverhead() const;
    /**
     * \brief WireTime() at this transmitter's rate and overhead; the results
     * of the last WIRE_TIMES_KEPT frame sizes are kept, most recent first (a
     * port sends a few sizes: full data frames, ACKs, SACKs with their
     * bitmap, trimmed headers and their NAKs), which saves a 128-bit
     * division per frame.
     * \param frameBytes Ethernet frame bytes without FCS
     * \return the wire time
     */
    Time GetWireTime(uint32_t frameBytes) const;
    /**
     * \brief Time a frame occupies the wire: (max(frameBytes,
     * RdmaWire::MIN_FRAME_BYTES) + overheadBytes) * 8 / rate (IEEE 802.3:
     * a frame is padded to 60 bytes before its FCS), rounded to the
     * simulator's time resolution.
     * \param rate the line rate
     * \param frameBytes Ethernet frame bytes without FCS
     * \param overheadBytes what each frame adds on the wire, bytes
     * \return the wire time
     */
    static Time WireTime(DataRate rate, uint32_t frameBytes, uint32_t overheadBytes);

    /// \param completion the event that ends a transmission (the device's; called once per
    /// ScheduleCompletion), reused for every frame
    void SetCompletionEvent(Ptr<EventImpl> completion);
    /**
     * \brief Put a frame on the wire (the transmitter must be idle:
     * Settle() false).
     * \param frame the frame
     * \return its wire time
     */
    Time Start(Ptr<RdmaFrame> frame);
    /**
     * \brief Settle a transmission that has ended without a completion event.
     * Const so that the device's getters can settle too.
     * \return true if a frame is still on the wire
     */
    bool Settle() const;
    /// \return whether the completion event is scheduled
    bool IsCompletionPending() const;
    /// \param delay until the current transmission ends: schedule its completion event
    void ScheduleCompletion(Time delay);
    /// Something now waits for the current transmission: make its end an event.
    void NeedCompletion();
    /// The completion event ran: count the frame as sent, fire PhyTxEnd, go idle.
    void Complete();
    /// Cancel a scheduled completion and let go of the frame and the event (DoDispose).
    void Dispose();

  private:
    /// Count the current frame as sent, fire PhyTxEnd and go idle.
    void End() const;

    // The members a frame's pass reads, first and together.
    mutable Ptr<RdmaFrame> m_frame; //!< frame being serialized, or null (settled lazily)
    Time m_end;                     //!< when the current transmission ends
    bool m_completionPending{false}; //!< m_completion is scheduled (only Dispose cancels it)
    /// Frame sizes whose wire times GetWireTime keeps.
    static constexpr std::size_t WIRE_TIMES_KEPT = 6;
    mutable std::array<uint32_t, WIRE_TIMES_KEPT> m_wireTimeBytes; //!< sizes, latest first
    mutable std::array<Time, WIRE_TIMES_KEPT> m_wireTime;          //!< GetWireTime of each
    Ptr<EventImpl> m_completion;                     //!< the completion event, reused
    QbbDeviceStats& m_stats;                         //!< the device's counters
    const TracedCallback<Ptr<const Packet>>& m_txEndTrace; //!< the device's PhyTxEnd
    DataRate m_rate;         //!< line rate
    uint32_t m_wireOverhead; //!< bytes each frame adds on the wire
};

} // namespace ns3

#endif // QBB_TRANSMITTER_H
