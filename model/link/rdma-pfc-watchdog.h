/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PFC_WATCHDOG_H
#define RDMA_PFC_WATCHDOG_H

#include "qbb-net-device.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief PFC watchdog of a switch's egress ports: a traffic class whose
 * transmission has been paused by the peer, without a break, for
 * DetectionTime is declared stormed (a PFC storm: a stuck NIC or a
 * deadlock keeps pausing it), as SONiC's pfcwd and switch vendors'
 * watchdogs do.
 *
 * On a storm the class stops obeying the peer's pauses
 * (QbbPfcController::SetRxEnabled), and with Action Drop the owner's storm
 * callback runs so that it can discard the class's waiting frames and the
 * ones that arrive while the storm lasts (RdmaSwitch flushes the queue and
 * drops with its DROP_PFC_STORM reason); with Action Ignore the frames are
 * simply sent, pauses notwithstanding. Every RestorationTime the watchdog
 * looks at the class's received pause count (QbbPfcController::Stats
 * pauseRx, counted whether obeyed or not): if no pause arrived in that
 * time the storm is over, pauses are obeyed again and the Restore trace
 * fires. Defaults follow SONiC's pfcwd (detection and restoration 200 ms,
 * action drop).
 */
class RdmaPfcWatchdog : public Object
{
  public:
    /// What a stormed class does (the Action attribute).
    enum Action
    {
        DROP = 0, //!< ignore pauses and discard the class's frames
        IGNORE,   //!< ignore pauses, keep forwarding
    };

    /**
     * \brief TracedCallback signature of the Storm trace.
     * \param [in] port the egress port index
     * \param [in] cls the traffic class
     * \param [in] pausedFor how long it had been paused
     */
    typedef void (*StormTracedCallback)(uint32_t port, uint8_t cls, Time pausedFor);
    /**
     * \brief TracedCallback signature of the Restore trace.
     * \param [in] port the egress port index
     * \param [in] cls the traffic class
     */
    typedef void (*RestoreTracedCallback)(uint32_t port, uint8_t cls);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaPfcWatchdog();

    /**
     * \brief Watch a port (its PFC controller's pause-state watch,
     * QbbPfcController::SetPauseStateWatch).
     * \param device the port
     * \return its index in the watchdog (the owner's port index when added in order)
     */
    uint32_t AddPort(Ptr<QbbNetDevice> device);
    /**
     * \brief Set the owner's action on a storm with Action Drop.
     * \param callback called with (port, class) when a storm is declared
     */
    void SetStormCallback(Callback<void, uint32_t, uint8_t> callback);
    /**
     * \param port a port index
     * \param cls a class
     * \return true while the class is stormed
     */
    bool IsStormed(uint32_t port, uint8_t cls) const;
    /// \return the Action attribute
    Action GetAction() const;
    /// \return storms declared so far
    uint64_t GetStormCount() const;

  protected:
    void DoDispose() override;

  private:
    /// Watchdog state of one (port, class).
    struct ClassState
    {
        EventId check;           //!< detection or restoration check
        Time pausedSince;        //!< start of the running pause
        bool stormed{false};     //!< declared stormed
        uint64_t pauseRxSeen{0}; //!< pfcPauseRx at the last restoration check
    };

    /// A port's per-class state.
    typedef std::array<ClassState, QbbNetDevice::NUM_CLASSES> Classes;

    /// Watched port.
    struct Port
    {
        Ptr<QbbNetDevice> device; //!< the port
        /// per class, made at the port's first pause (392 bytes most ports never use)
        std::unique_ptr<Classes> cls;
    };

    /// \return a class's state at a port, made with the port's at the first call
    /// \param port the port index \param cls the class
    ClassState& State(uint32_t port, uint8_t cls);

    /**
     * \brief PfcPauseState trace of a port.
     * \param port the port index
     * \param cls the class
     * \param paused whether it became paused
     */
    void PauseStateChanged(uint32_t port, uint8_t cls, bool paused);
    /**
     * \brief DetectionTime after a pause started.
     * \param port the port index
     * \param cls the class
     */
    void Detect(uint32_t port, uint8_t cls);
    /**
     * \brief Every RestorationTime during a storm.
     * \param port the port index
     * \param cls the class
     */
    void CheckRestore(uint32_t port, uint8_t cls);

    bool m_enabled;                                       //!< Enabled attribute
    Time m_detectionTime;                                 //!< DetectionTime attribute
    Time m_restorationTime;                               //!< RestorationTime attribute
    Action m_action;                                      //!< Action attribute
    uint64_t m_storms{0};                                 //!< storms declared
    uint32_t m_stormedNow{0};                             //!< classes stormed now
    std::vector<Port> m_ports;                            //!< watched ports
    Callback<void, uint32_t, uint8_t> m_stormCallback;    //!< owner's drop action
    TracedCallback<uint32_t, uint8_t, Time> m_stormTrace; //!< Storm trace
    TracedCallback<uint32_t, uint8_t> m_restoreTrace;     //!< Restore trace
};

} // namespace ns3

#endif // RDMA_PFC_WATCHDOG_H
