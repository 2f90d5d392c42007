/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_PFC_CONTROLLER_H
#define QBB_PFC_CONTROLLER_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/rdma-wire.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The priority-based flow control (IEEE 802.1Q-2018 clause 36,
 * 802.1Qbb) of one port: which classes the peer has paused, which pauses
 * this port owes the peer, and the frame that carries them. The port
 * (QbbNetDevice) transmits and receives; this object decides.
 *
 * Sending: SendPause() and SendResume() are the interface for whoever
 * decides to pause the peer (a switch MMU, a NIC's receive buffer). A
 * request becomes a 60-byte MAC Control frame (PfcHeader: to
 * 01-80-C2-00-00-01, EtherType 0x8808, opcode 0x0101) that the port sends
 * ahead of every data frame, as soon as the frame in serialization ends;
 * requests made before it starts merge into that one frame (one
 * class-enable bit per class, the latest time of each). SetHold() keeps the
 * peer's class paused for as long as the owner wants: it sends PauseQuanta,
 * sends the pause again RefreshMargin before the last one would expire at
 * the peer, and sends XON (time 0) when released (802.1Qbb leaves the
 * refresh policy to the implementation; switches refresh before expiry
 * while their XOFF condition lasts).
 *
 * Receiving: a PFC frame (opcode 0x0101) sets, for each class whose enable
 * bit is set and whose bit is in RxEnable, the class's pause timer to quanta
 * x 512 bit times at the port's rate (802.1Q-2018 36.1.3.3;
 * PfcHeader::QuantaToTime), counted from the arrival of the frame's last
 * bit; a new time replaces a running one, time 0 resumes the class at once.
 * An IEEE 802.3x PAUSE (opcode 0x0001, 802.3 Annex 31B) does the same to
 * every class in RxEnable. Other opcodes are ignored. The port starts no
 * new frame of a paused class (GetPausedMask()); when a pause ends the
 * controller asks the port to transmit (the transmit callback).
 */
class QbbPfcController : public Object
{
  public:
    static constexpr uint8_t NUM_CLASSES = RdmaWire::NUM_CLASSES; //!< classes 0-7

    /// Counters (frames and per-class requests, both directions).
    struct Stats
    {
        uint64_t framesTx{0};      //!< PFC frames sent (transmission started)
        uint64_t framesRx{0};      //!< PFC frames received (corrupted ones not included)
        uint64_t pauseFramesRx{0}; //!< 802.3x PAUSE frames received
        std::array<uint64_t, NUM_CLASSES> pauseTx{};  //!< sent frames pausing class c
        std::array<uint64_t, NUM_CLASSES> resumeTx{}; //!< sent frames with XON for c
        /// Received pauses (time > 0) of class c, PFC or 802.3x, obeyed or not.
        std::array<uint64_t, NUM_CLASSES> pauseRx{};
        std::array<uint64_t, NUM_CLASSES> resumeRx{}; //!< received XONs (time 0) of class c
        /// Time class c's transmission was paused, ended pauses only (GetPausedTime adds one running).
        std::array<Time, NUM_CLASSES> pausedTime{};
    };

    /**
     * \brief TracedCallback signature of PauseTx and PauseRx: one call per
     * class a PFC frame enables.
     * \param [in] cls the traffic class, 0-7
     * \param [in] quanta its pause time in quanta of 512 bit times; 0 is XON
     */
    typedef void (*PauseTracedCallback)(uint8_t cls, uint16_t quanta);
    /**
     * \brief TracedCallback signature of PauseState.
     * \param [in] cls the traffic class, 0-7
     * \param [in] paused true when the class becomes paused, false when free again
     */
    typedef void (*PauseStateTracedCallback)(uint8_t cls, bool paused);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QbbPfcController();
    ~QbbPfcController() override;

    /**
     * \brief Set the port's line rate (quanta to time). The port calls it.
     * \param rate bits per second
     */
    void SetDataRate(DataRate rate);
    /**
     * \brief Set what to call when the port should try to transmit: a PFC
     * frame is pending, or a pause ended. The port sets it.
     * \param transmit the callback
     */
    void SetTransmitCallback(std::function<void()> transmit);
    /**
     * \brief Set the port owner's watch on the pause state (a switch's
     * PFC watchdog): called as PauseState fires, before its sinks.
     * \param watch called with (class, paused); an empty one removes it
     */
    void SetPauseStateWatch(std::function<void(uint8_t, bool)> watch);
    /**
     * \brief Set a watch on the PFC frames this port sends (a run's
     * statistics, RdmaStatsHelper): called as PauseTx fires, before its
     * sinks, as a plain function where a trace sink per port would cost an
     * ns-3 Callback chain each (hundreds of bytes at every port of a large
     * fabric).
     * \param watch called with (class, quanta; 0 is XON); an empty one removes it
     */
    void SetPauseTxWatch(std::function<void(uint8_t, uint16_t)> watch);

    /**
     * \brief Ask the peer to pause one class for quanta x 512 bit times at
     * its rate; fires PauseTx when the frame starts.
     * \param cls traffic class 0-7 (aborts otherwise)
     * \param quanta pause time in quanta; 0 sends XON
     */
    void SendPause(uint8_t cls, uint16_t quanta);
    /**
     * \brief SendPause(cls, 0): XON.
     * \param cls traffic class 0-7 (aborts otherwise)
     */
    void SendResume(uint8_t cls);
    /**
     * \brief Hold the peer's class cls paused, or release it. Holding sends
     * PauseQuanta and, each time a pause of the class starts at time t,
     * schedules the next one at t + PauseQuanta x 512 / rate -
     * RefreshMargin; releasing cancels the refresh and sends XON. Holding a
     * held class, or releasing a free one, does nothing.
     * \param cls traffic class 0-7 (aborts otherwise)
     * \param hold true to hold, false to release
     */
    void SetHold(uint8_t cls, bool hold);
    /**
     * \param cls traffic class 0-7 (aborts otherwise)
     * \return true if SetHold() holds the peer's class paused
     */
    bool IsHeld(uint8_t cls) const;

    /**
     * \param cls traffic class 0-7 (aborts otherwise)
     * \return true if the peer has paused this port's class cls
     */
    bool IsPaused(uint8_t cls) const;
    /// \return bit c set for each class the peer has paused
    uint8_t GetPausedMask() const
    {
        return m_pausedMask;
    }

    /**
     * \brief Obey or ignore the peer's pauses of one class (one bit of
     * RxEnable), as a PFC watchdog does to a stormed queue. Ignoring a
     * paused class resumes it at once.
     * \param cls traffic class 0-7 (aborts otherwise)
     * \param enabled true to obey pauses
     */
    void SetRxEnabled(uint8_t cls, bool enabled);
    /**
     * \param cls traffic class 0-7 (aborts otherwise)
     * \return total time the peer has kept class cls paused, a running pause included
     */
    Time GetPausedTime(uint8_t cls) const;
    /// \return the counters
    const Stats& GetStats() const;

    /// \return true if a PFC frame waits to be sent
    bool HasPendingFrame() const
    {
        return m_pendingMask != 0;
    }
    /**
     * \brief The port starts sending the pending PFC frame: build it
     * (clears the requests, fires PauseTx, schedules hold refreshes).
     * \param source the port's MAC address
     * \return the Ethernet frame
     */
    Ptr<Packet> BuildFrame(Mac48Address source);
    /**
     * \brief Act on a received MAC Control frame (PFC or 802.3x PAUSE). The
     * port asks to transmit afterwards: a class may have resumed.
     * \param frame the whole Ethernet frame (EtherType 0x8808)
     */
    void Receive(Ptr<const Packet> frame);

  protected:
    void DoDispose() override;

  private:
    /// Transmit-side state of one class paused by the peer.
    struct PauseState
    {
        EventId expiry; //!< end of the running pause
        Time since;     //!< start of the running pause
        Time until;     //!< end of the running pause
    };

    /**
     * Per-class state and counters, made when the port first sends or
     * receives a MAC Control frame: most ports of a large fabric never do,
     * and this is 880 bytes of the port's memory (a k=32 fat tree's 49,152
     * ports: 41 MiB).
     */
    struct ClassState
    {
        std::array<PauseState, NUM_CLASSES> pause; //!< per class paused by the peer
        std::array<uint16_t, NUM_CLASSES> pending{}; //!< pause times of the frame to send, quanta
        std::array<EventId, NUM_CLASSES> refresh;    //!< refresh of each held class
        Stats stats;                                 //!< counters
    };

    /// \return the per-class state, made at the first call
    ClassState& State();

    /**
     * \brief Apply a received pause time to one class.
     * \param cls the class
     * \param quanta the time, quanta of 512 bit times (0 resumes)
     */
    void Pause(uint8_t cls, uint16_t quanta);
    /**
     * \brief End the pause of a class (expiry or XON).
     * \param cls the class
     */
    void Resume(uint8_t cls);
    /// A pause timer ran out: resume every class whose pause ends now, then transmit.
    void PauseExpired();
    /**
     * \return time from the start of a held pause to its refresh: the
     *         PauseQuanta time minus RefreshMargin (aborts, naming both
     *         attributes, unless positive)
     */
    Time RefreshInterval() const;
    /**
     * \brief Send the refresh of a held class's pause.
     * \param cls the class
     */
    void Refresh(uint8_t cls);
    /**
     * \param cls a class
     * \param caller the calling method, for the message
     */
    static void CheckClass(uint8_t cls, const char* caller);

    // The two masks every frame through the port reads come first (beside
    // the reference count): order only, no behaviour.
    uint8_t m_pausedMask{0};                       //!< bit c: the peer paused class c
    uint8_t m_pendingMask{0};                      //!< classes of the frame to send
    DataRate m_rate{100'000'000'000ULL};           //!< the port's line rate
    std::function<void()> m_transmit;              //!< asks the port to transmit
    uint8_t m_rxEnable{0xFF};                      //!< RxEnable attribute
    uint16_t m_holdQuanta{0xFFFF};                 //!< PauseQuanta attribute
    Time m_refreshMargin;                          //!< RefreshMargin attribute
    uint8_t m_holdMask{0};                         //!< classes held paused at the peer
    std::unique_ptr<ClassState> m_state;           //!< null until PFC is used (State)
    std::function<void(uint8_t, bool)> m_pauseWatch; //!< the owner's watchdog, or empty
    std::function<void(uint8_t, uint16_t)> m_pauseTxWatch; //!< SetPauseTxWatch, or empty

    TracedCallback<uint8_t, uint16_t> m_pauseTxTrace;  //!< PauseTx
    TracedCallback<uint8_t, uint16_t> m_pauseRxTrace;  //!< PauseRx
    TracedCallback<uint8_t, bool> m_pauseStateTrace;   //!< PauseState
};

} // namespace ns3

#endif // QBB_PFC_CONTROLLER_H
