/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_MMU_H
#define SWITCH_MMU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/qbb-admission.h"
#include "ns3/qbb-pfc-controller.h"
#include "ns3/rdma-wire.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The memory-management unit of a shared-buffer switch: admission
 * and PFC decisions per ingress (port, traffic class), in the style of
 * Broadcom Trident/Tomahawk MMUs and the HPCC simulator's SwitchMmu
 * (simulation/src/point-to-point/model/switch-mmu.cc of
 * github.com/alibaba-edu/High-Precision-Congestion-Control, whose SwitchMmu::SwitchMmu sets the
 * 12 MiB buffer, 4 KiB reserve and 3 KiB resume offset used as defaults
 * here).
 *
 * The buffer (BufferSize bytes) is split into three parts:
 * - reserved: ReservedBytes guaranteed to each (port, lossless class);
 * - headroom: per (port, lossless class), absorbs what arrives after the
 *   switch decides to pause the upstream (HeadroomBytes, or computed by
 *   ComputeHeadroom() from the port's rate, cable delay and frame size);
 * - shared: the rest, used by every (port, class) above its reserve.
 *
 * An ingress (port, class) holding B bytes outside headroom uses
 * max(0, B - ReservedBytes) shared bytes (the HPCC simulator's
 * GetSharedUsed); headroom bytes are released first.
 *
 * XOFF threshold T of an ingress (port, class), on its shared bytes:
 * - Dynamic (the default): T = Alpha x (BufferSize - all reserved - all
 *   headroom - shared bytes in use), the dynamic threshold of Choudhury and
 *   Hahne (IEEE/ACM ToN 1998) that Broadcom MMUs implement and the HPCC
 *   simulator uses (Alpha = 1/2^pfc_a_shift; pfc_a_shift = 3 is set per
 *   port in main() of its simulation/scratch/third.cc for equal port and
 *   NIC rates, one less per doubling of the port rate);
 * - Static: T = StaticThresholdBytes.
 *
 * A lossless class (LosslessClasses with PfcEnabled) never drops: a frame
 * that finds its (port, class) reserve used and its shared bytes plus the
 * frame above T goes to headroom, and the class should then be paused
 * (ShouldPause()); it should resume (ShouldResume()) once its headroom is
 * empty and its shared bytes are at most T - XonOffsetBytes (hysteresis; the
 * HPCC simulator's resume_offset, 3 KiB). Only a frame that would overflow
 * the headroom itself is refused (DROP_HEADROOM_FULL), which a correctly
 * sized headroom prevents. A lossy class has no reserve and no headroom: a
 * frame that would bring its shared bytes above T is dropped
 * (DROP_INGRESS_LIMIT), as is one that finds the shared pool full
 * (DROP_BUFFER_FULL).
 *
 * PFC decisions: CheckXoff() after an admission and CheckXon() after a
 * release act on them: the ingress port's QbbPfcController (given to
 * AddPort) holds its upstream's class paused (QbbPfcController::SetHold,
 * refreshed until released) and releases it with XON; PfcXoff/PfcXon trace
 * each decision.
 *
 * State is held in vectors indexed by port x 8 + class (any radix); every
 * call is O(1). Set the attributes before the first AddPort(): the
 * reserve and headroom totals are fixed as ports are added.
 */
class SwitchMmu final : public QbbAdmission
{
  public:
    /// Traffic classes per port (IEEE 802.1Q priorities).
    static constexpr uint8_t NUM_CLASSES = RdmaWire::NUM_CLASSES;

    /// How the XOFF threshold is set.
    enum ThresholdMode
    {
        DYNAMIC = 0, //!< Alpha x free shared buffer
        STATIC,      //!< StaticThresholdBytes
    };

    /**
     * \brief TracedCallback signature of the PfcXoff and PfcXon traces.
     * \param [in] port the ingress port whose upstream is paused/resumed
     * \param [in] cls the traffic class
     * \param [in] ingressBytes the (port, class)'s bytes in the buffer
     * \param [in] sharedBytes its bytes in the shared pool
     * \param [in] threshold the XOFF threshold at that moment, bytes
     */
    typedef void (*PfcDecisionTracedCallback)(uint32_t port,
                                              uint8_t cls,
                                              uint64_t ingressBytes,
                                              uint64_t sharedBytes,
                                              uint64_t threshold);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchMmu();

    /**
     * \brief The PFC headroom one (port, class) needs: PfcHeader::ComputeHeadroom.
     * \param rate the link's rate
     * \param delay the cable's one-way propagation delay
     * \param maxFrameBytes the largest frame, bytes without FCS (Mtu + 14 + 4)
     * \return the headroom, bytes
     */
    static uint64_t ComputeHeadroom(DataRate rate, Time delay, uint32_t maxFrameBytes);
    /**
     * \brief The buffer bytes one port takes out of BufferSize before any
     * frame arrives: (headroom + reserve) for each lossless class, the
     * headroom being headroomBytes if not 0, else ComputeHeadroom(). AddPort()
     * refuses (aborts) once the ports' sum reaches BufferSize; a caller that
     * builds switches from user input checks with this first.
     * \param reservedBytes ReservedBytes
     * \param headroomBytes HeadroomBytes (0: computed)
     * \param losslessClasses how many classes are lossless (0 without PFC)
     * \param rate the port's line rate
     * \param delay its cable's propagation delay
     * \param maxFrameBytes its largest frame, bytes
     * \return the bytes
     */
    static uint64_t PortFixedBytes(uint64_t reservedBytes,
                                   uint64_t headroomBytes,
                                   uint32_t losslessClasses,
                                   DataRate rate,
                                   Time delay,
                                   uint32_t maxFrameBytes);

    /**
     * \brief Add a port: its headroom is HeadroomBytes if that is not 0,
     * else ComputeHeadroom(rate, delay, maxFrameBytes).
     * \param rate the port's line rate
     * \param delay its cable's propagation delay
     * \param maxFrameBytes its largest frame, bytes
     * \param pfc the port's PFC controller, which pauses its upstream
     *        (null: the decisions are recorded and traced only)
     * \return the port index (0, 1, ...)
     */
    uint32_t AddPort(DataRate rate,
                     Time delay,
                     uint32_t maxFrameBytes,
                     Ptr<QbbPfcController> pfc = nullptr);
    /// \return the number of ports
    uint32_t GetNPorts() const;

    /**
     * \param cls traffic class 0-7
     * \return true if the class is lossless (in LosslessClasses, PfcEnabled)
     */
    bool IsLossless(uint8_t cls) const;

    /**
     * \brief Take a frame into the buffer, accounted to its ingress
     * (port, class), or refuse it.
     * \param port ingress port
     * \param cls traffic class
     * \param bytes frame bytes
     * \return DROP_NONE, or why it was refused (nothing is accounted then)
     */
    RdmaDropReason Admit(uint32_t port, uint8_t cls, uint32_t bytes) override;
    /**
     * \brief A frame admitted with these arguments left the buffer
     * (headroom is freed first, then shared, then reserved bytes).
     * \param port ingress port
     * \param cls traffic class
     * \param bytes frame bytes
     */
    void Release(uint32_t port, uint8_t cls, uint32_t bytes) override;

    /**
     * \param port ingress port
     * \param cls traffic class
     * \return true if the (port, class) is lossless, not paused, and has
     *         headroom in use or shared bytes at or above its threshold
     */
    bool ShouldPause(uint32_t port, uint8_t cls) const;
    /**
     * \param port ingress port
     * \param cls traffic class
     * \return true if it is paused, has no headroom in use and its shared
     *         bytes are 0 or at most the threshold minus XonOffsetBytes
     */
    bool ShouldResume(uint32_t port, uint8_t cls) const;
    /**
     * \brief Record that the upstream of (port, class) has been paused or resumed.
     * \param port ingress port
     * \param cls traffic class
     * \param paused the new state
     */
    void SetPaused(uint32_t port, uint8_t cls, bool paused);
    /**
     * \param port ingress port
     * \param cls traffic class
     * \return true if it is paused
     */
    bool IsPaused(uint32_t port, uint8_t cls) const;
    /**
     * \brief After an admission: if ShouldPause(), pause the upstream
     * (SetPaused, the port's controller holds the class, PfcXoff).
     * \param port ingress port
     * \param cls traffic class
     */
    void CheckXoff(uint32_t port, uint8_t cls) override;
    /**
     * \brief After a release: if ShouldResume(), resume the upstream
     * (SetPaused, the port's controller releases the class with XON, PfcXon).
     * \param port ingress port
     * \param cls traffic class
     */
    void CheckXon(uint32_t port, uint8_t cls) override;
    /// \return XOFF decisions so far (CheckXoff that paused)
    uint64_t GetXoffCount() const;
    /// \return XON decisions so far
    uint64_t GetXonCount() const;

    /// \return the current XOFF threshold T on shared bytes, bytes
    uint64_t GetXoffThreshold() const;
    /// \return shared bytes in use by all (port, class)
    uint64_t GetSharedUsed() const;
    /// \return the size of the shared pool: BufferSize - reserved - headroom
    uint64_t GetSharedPoolSize() const;
    /// \return all reserved bytes (ReservedBytes x ports x lossless classes)
    uint64_t GetTotalReserved() const;
    /// \return all headroom bytes (port headroom x lossless classes, summed)
    uint64_t GetTotalHeadroom() const;
    /// \return bytes in the buffer
    uint64_t GetBufferUsed() const;
    /**
     * \param port a port
     * \return its headroom per lossless class, bytes
     */
    uint64_t GetHeadroom(uint32_t port) const;
    /**
     * \param port ingress port
     * \param cls traffic class
     * \return its bytes in the buffer (reserved + shared + headroom)
     */
    uint64_t GetIngressBytes(uint32_t port, uint8_t cls) const;
    /**
     * \param port ingress port
     * \param cls traffic class
     * \return its shared bytes
     */
    uint64_t GetSharedBytes(uint32_t port, uint8_t cls) const;
    /**
     * \param port ingress port
     * \param cls traffic class
     * \return its headroom bytes in use
     */
    uint64_t GetHeadroomUsed(uint32_t port, uint8_t cls) const;
    /**
     * \param port ingress port
     * \param cls traffic class
     * \return the most headroom bytes it has had in use
     */
    uint64_t GetMaxHeadroomUsed(uint32_t port, uint8_t cls) const;

  protected:
    void DoDispose() override;

  private:
    /// Accounting of one ingress (port, class).
    struct Ingress
    {
        uint64_t bytes{0};       //!< bytes in reserve and shared pool (not headroom)
        uint64_t headroom{0};    //!< bytes in headroom
        uint64_t maxHeadroom{0}; //!< most headroom bytes seen
        bool paused{false};      //!< upstream paused
    };

    /// \return the Ingress of (port, cls) (aborts on a bad port or class)
    Ingress& At(uint32_t port, uint8_t cls);
    /// \return the Ingress of (port, cls) (aborts on a bad port or class)
    const Ingress& At(uint32_t port, uint8_t cls) const;
    /// \return the number of lossless classes
    uint32_t LosslessCount() const;
    /**
     * \param bytes an ingress's bytes outside headroom
     * \param lossless whether its class is lossless (lossy classes have no reserve)
     * \return the part of them in the shared pool: max(0, bytes - ReservedBytes)
     */
    uint64_t SharedPart(uint64_t bytes, bool lossless) const;

    uint64_t m_bufferSize;            //!< BufferSize, bytes
    uint64_t m_reservedBytes;         //!< ReservedBytes per (port, lossless class)
    uint64_t m_headroomBytes;         //!< HeadroomBytes (0 = computed)
    ThresholdMode m_mode;             //!< ThresholdMode
    double m_alpha;                   //!< Alpha
    uint64_t m_staticThreshold;       //!< StaticThresholdBytes
    uint64_t m_xonOffset;             //!< XonOffsetBytes
    uint8_t m_losslessClasses;        //!< LosslessClasses bit mask
    bool m_pfcEnabled;                //!< PfcEnabled
    std::vector<Ingress> m_ingress;   //!< by port x 8 + class
    std::vector<uint64_t> m_headroom; //!< per port, bytes per lossless class
    uint64_t m_totalHeadroom{0};      //!< sum over ports x lossless classes
    uint64_t m_totalReserved{0};      //!< ReservedBytes x ports x lossless classes
    uint64_t m_sharedUsed{0};         //!< shared bytes in use
    uint64_t m_bufferUsed{0};         //!< all bytes in use
    std::vector<Ptr<QbbPfcController>> m_pfc; //!< per port, its PFC controller (or null)
    uint64_t m_xoffCount{0};                  //!< XOFF decisions
    uint64_t m_xonCount{0};                   //!< XON decisions

    TracedCallback<uint32_t, uint8_t, uint64_t, uint64_t, uint64_t> m_xoffTrace; //!< PfcXoff
    TracedCallback<uint32_t, uint8_t, uint64_t, uint64_t, uint64_t> m_xonTrace;  //!< PfcXon
};

} // namespace ns3

#endif // SWITCH_MMU_H
