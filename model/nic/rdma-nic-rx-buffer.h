/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_RX_BUFFER_H
#define RDMA_NIC_RX_BUFFER_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-drop-reason.h"
#include "ns3/rdma-fifo.h"
#include "ns3/rdma-wire.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The receive packet buffer of a NIC's port, per traffic class, and
 * the PFC (IEEE 802.1Qbb) decisions it makes for the NIC's own link.
 *
 * A received frame occupies the buffer of its class from the moment its last
 * bit arrives (Enqueue) until the NIC's receive pipeline has written it to
 * host memory (Dequeue). With a slow pipeline (cache misses, PCIe) the
 * buffer fills; this is the "slow receiver" of Guo et al., "RDMA over
 * Commodity Ethernet at Scale" (SIGCOMM 2016), section 4.4, where a NIC
 * whose MTT misses stall its receive pipeline pauses its ToR.
 *
 * Each class has BufferBytes. For a lossless class (LosslessClasses, with
 * PfcEnabled) the XOFF threshold is BufferBytes - headroom, the headroom
 * covering what still arrives after the NIC decides to pause
 * (PfcHeader::ComputeHeadroom of the link's rate, cable delay and largest
 * frame, or HeadroomBytes): when the class's occupancy after an arrival
 * exceeds XOFF, the PfcHold callback is called with (class, true) (the NIC
 * makes its QbbNetDevice hold the peer paused, refreshing the pause); when
 * it falls to max(XOFF - XonOffsetBytes, 0) or below after a departure, with
 * (class, false) (XON). A lossless frame that does not fit (a headroom
 * sized too small, which Configure refuses) is dropped as
 * DROP_HEADROOM_FULL; a lossy class drops a frame that does not fit as
 * DROP_BUFFER_FULL. Both are counted and traced.
 */
class RdmaNicRxBuffer : public Object
{
  public:
    /// Number of traffic classes (IEEE 802.1Q priorities).
    static constexpr uint8_t NUM_CLASSES = RdmaWire::NUM_CLASSES;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaNicRxBuffer();

    /**
     * \brief Size the headroom for the NIC's link: HeadroomBytes if not 0,
     * else PfcHeader::ComputeHeadroom(rate, delay, maxFrameBytes).
     * \param rate the port's line rate
     * \param delay the cable's one-way propagation delay
     * \param maxFrameBytes the largest frame, bytes without FCS
     * \return an empty string, or why the configuration cannot work (a lossless
     * class whose BufferBytes is below one largest frame plus the headroom)
     */
    std::string Configure(DataRate rate, Time delay, uint32_t maxFrameBytes);

    /**
     * \brief Where PFC decisions go: (class, true) to pause the peer's
     * class, (class, false) to let it send again.
     * \param cb the callback
     */
    void SetPfcHoldCallback(Callback<void, uint8_t, bool> cb);

    /**
     * \brief A frame of `bytes` of class `cls` arrived.
     * \param cls its class, 0-7
     * \param bytes its size
     * \return DROP_NONE, or why it was dropped (DROP_BUFFER_FULL, DROP_HEADROOM_FULL)
     */
    RdmaDropReason Enqueue(uint8_t cls, uint32_t bytes);
    /**
     * \brief A frame left the buffer (written to host memory).
     * \param cls its class
     * \param bytes its size, as enqueued
     */
    void Dequeue(uint8_t cls, uint32_t bytes);
    /**
     * \brief Enqueue() for a frame that leaves in arrival order (a NIC's
     * receive pipeline retires frames in order): it is remembered, and
     * ReleaseOldest() dequeues it.
     * \param cls its class, 0-7
     * \param bytes its size
     * \return as Enqueue (a dropped frame is not remembered)
     */
    RdmaDropReason Admit(uint8_t cls, uint32_t bytes);
    /// Dequeue the oldest frame Admit() took (aborts if there is none).
    void ReleaseOldest();

    /// \param cls a class \return whether it is lossless (in LosslessClasses, PfcEnabled)
    bool IsLossless(uint8_t cls) const;
    /// \param cls a class \return bytes it holds now
    uint64_t GetBytes(uint8_t cls) const;
    /// \param cls a class \return the most bytes it has held
    uint64_t GetMaxBytes(uint8_t cls) const;
    /// \return the headroom of each lossless class, bytes (after Configure)
    uint64_t GetHeadroomBytes() const;
    /// \return the XOFF threshold of a lossless class, bytes (after Configure)
    uint64_t GetXoffBytes() const;
    /// \param cls a class \return whether the buffer holds its peer paused
    bool IsPausing(uint8_t cls) const;
    /// \return frames dropped, all classes
    uint64_t GetDrops() const;

    /**
     * TracedCallback signature of the Occupancy trace.
     * \param [in] cls the class
     * \param [in] bytes its occupancy after the change
     */
    typedef void (*OccupancyTracedCallback)(uint8_t cls, uint64_t bytes);
    /**
     * TracedCallback signature of the Drop trace.
     * \param [in] cls the class
     * \param [in] bytes the frame's size
     * \param [in] reason DROP_BUFFER_FULL or DROP_HEADROOM_FULL
     */
    typedef void (*DropTracedCallback)(uint8_t cls, uint32_t bytes, RdmaDropReason reason);

  private:
    uint64_t m_bufferBytes;                             //!< per class, bytes
    uint64_t m_headroomAttr;                            //!< HeadroomBytes attribute (0: computed)
    uint64_t m_xonOffset;                               //!< XON hysteresis, bytes
    uint8_t m_losslessClasses;                          //!< bit mask
    bool m_pfcEnabled;                                  //!< PFC on
    uint64_t m_headroom{0};                             //!< headroom in use, bytes
    bool m_configured{false};                           //!< Configure was called
    std::array<uint64_t, NUM_CLASSES> m_bytes{};        //!< occupancy
    std::array<uint64_t, NUM_CLASSES> m_maxBytes{};     //!< highest occupancy
    uint8_t m_pausing{0};                               //!< classes held paused
    uint64_t m_drops{0};                                //!< frames dropped
    Callback<void, uint8_t, bool> m_pfcHold;            //!< PFC decisions
    TracedCallback<uint8_t, uint64_t> m_occupancyTrace; //!< Occupancy
    TracedCallback<uint8_t, uint32_t, RdmaDropReason> m_dropTrace; //!< Drop

    /// A frame Admit() took, until ReleaseOldest.
    struct Held
    {
        uint8_t cls;    //!< its class
        uint32_t bytes; //!< its size
    };

    RdmaFifo<Held> m_held; //!< admitted frames, oldest first
};

} // namespace ns3

#endif // RDMA_NIC_RX_BUFFER_H
