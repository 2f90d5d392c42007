/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_RCCC_H
#define RDMA_RCCC_H

#include "rdma-rccc-rate-control.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RCCC, UEC 1.0's receiver-credit congestion control, over RoCE
 * (the rules of the consortium's reference model, uet-htsim's UecSrc,
 * UecSink and UecPullPacer). A sender spends credit to send and says how
 * much more it wants; each receiver NIC grants credit at its line rate,
 * round robin among the senders that want it, so an incast arrives at the
 * receiver's rate and queues only in the first round trip.
 *
 * Credit is counted in quanta of QUANTUM_BYTES, cumulatively: the pull
 * target is the total a sender wants granted, the pull the total granted.
 * On the wire (this module's; RoCE has neither):
 *  - a request carries its QP's pull target, modulo 2^13 quanta, in the
 *    BTH's 13 reserved bits (BthHeader::SetReservedBits);
 *  - the receiver grants with an RCCC credit frame (BTH opcode
 *    RCCC_CREDIT, 0xC0, no payload) to the sending QP whose PSN field
 *    holds the pull, modulo 2^24 quanta.
 * Each side unwraps against its own count: what is outstanding stays far
 * below half of either modulus (2 MiB and 4 GiB).
 *
 * This is the sender's half for one QP. It starts with a window of
 * speculative credit (MaxCredit) and speculates until the first ACK, NAK
 * or timeout (UecSrc::stopSpeculating: then what is left of it is
 * dropped, and only granted credit counts). It may send while its credit
 * is above 0 (a packet may take it below).
 */
class RdmaRcccSender
{
  public:
    /// Bytes of one credit quantum (UEC's reference model uses 256; 512 keeps
    /// the 13-bit pull target's range at 4 MiB).
    static constexpr uint32_t QUANTUM_BYTES = 512;
    /// The pull target's modulus on the wire, quanta (13 bits).
    static constexpr uint32_t TARGET_MODULUS = 1U << 13;
    /// The credit frame's modulus, quanta (the 24-bit PSN field).
    static constexpr uint32_t PULL_MODULUS = 1U << 24;

    /**
     * \brief Start: maxCredit of speculative credit, speculating.
     * \param maxCredit bytes: the speculative credit and the most credit
     *        held (UecSrc: 1.5 x the path's BDP)
     * \param mtu bytes of a full packet
     */
    void Init(uint64_t maxCredit, uint32_t mtu);

    /// \return whether credit allows a packet (above 0)
    bool CanSend() const;
    /// \return the credit, bytes (may be below 0)
    int64_t GetCredit() const;
    /// \return whether the speculative window is still in use
    bool IsSpeculating() const;

    /**
     * \brief A request of `bytes` leaves: spend its credit and compute the
     * pull target it carries (UecSrc::computePullTarget): what is left to
     * send (backlog and resends, at most MaxCredit, and at most window plus
     * one MTU under a sender CC's window), less the credit held, shared
     * among the NIC's active senders, plus the pull so far.
     * \param bytes the packet's bytes
     * \param backlog bytes not yet sent for the first time, after this packet
     * \param resend bytes queued to be sent again
     * \param window a sender CC's window, bytes (0: none)
     * \param activeSenders QPs of this NIC with something to send (>= 1)
     * \return the pull target modulo TARGET_MODULUS, for the BTH
     */
    uint16_t OnSend(uint32_t bytes,
                    uint64_t backlog,
                    uint64_t resend,
                    uint64_t window,
                    uint32_t activeSenders);

    /**
     * \brief The pull target without sending (for a request to send): as
     * OnSend's, nothing spent.
     * \param backlog bytes not yet sent once \param resend bytes queued to resend
     * \param window a sender CC's window (0: none) \param activeSenders as OnSend's
     * \return the pull target modulo TARGET_MODULUS
     */
    uint16_t PullTarget(uint64_t backlog,
                        uint64_t resend,
                        uint64_t window,
                        uint32_t activeSenders) const;

    /**
     * \brief A credit frame arrived (UecSrc::handlePull).
     * \param wirePull its PSN field: the pull modulo PULL_MODULUS
     * \return true if the credit grew
     */
    bool OnCredit(uint32_t wirePull);

    /// \brief An ACK or NAK: speculation ends, its credit left is dropped.
    void StopSpeculating();
    /**
     * \brief The retransmission timer fired: speculation ends, and where
     * no credit is left one request may still leave, so its pull target
     * reaches the receiver (UecSrc sends a request to send, RTS, for it):
     * a QP whose requests and their trimmed headers were all lost would
     * otherwise wait for credit that nobody knows it needs.
     */
    void OnTimeout();

  private:
    int64_t m_credit{0};      //!< bytes
    uint64_t m_pull{0};       //!< quanta granted so far
    bool m_speculating{true}; //!< before the first ACK, NAK or timeout
    uint64_t m_maxCredit{0};  //!< bytes
    uint32_t m_mtu{0};        //!< bytes
};

/**
 * \ingroup rdma
 * \brief RCCC's receiver half, one per NIC (uet-htsim's UecPullPacer and
 * UecSink): grants credit to the QPs sending to it, one credit frame of
 * CreditPerPull bytes at a time, round robin, paced at PullRate of the
 * NIC's line rate, never beyond what a QP asked for. A QP whose demand is
 * met moves to an idle list, which gets credit only when no QP wants any
 * (a "slow pull"), up to MaxCredit beyond its demand, so that a sender
 * with new data finds credit waiting. A trimmed request's resend needs
 * credit too: its QP is served again.
 */
class RdmaRcccPacer : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaRcccPacer();
    ~RdmaRcccPacer() override;

    /// What sends a credit frame: the receiving QP's number and the pull
    /// modulo RdmaRcccSender::PULL_MODULUS.
    using SendCredit = Callback<void, uint32_t, uint32_t>;

    /// \return the Enabled attribute
    bool IsEnabled() const;
    /// \return whether Setup was called
    bool IsSetUp() const;

    /**
     * \brief Set up.
     * \param lineRate the NIC's rate (all its ports)
     * \param maxCredit bytes a sender may hold (its MaxCredit)
     * \param send called for each credit frame to send
     */
    void Setup(DataRate lineRate, uint64_t maxCredit, SendCredit send);
    /**
     * \brief With OversubscribedCc, the rate control's interval is drawn
     * from 0.75-1.25 x 1.5 x this (htsim_uec: its network's unloaded RTT).
     * \param baseRtt the base RTT
     */
    void SetBaseRtt(Time baseRtt);
    /**
     * \brief A data request arrived for a QP of this NIC, whole or trimmed:
     * with OversubscribedCc, counted by the rate control.
     * \param trimmed whether only its headers arrived
     * \param ce whether it was CE-marked
     */
    void CountArrival(bool trimmed, bool ce);
    /// \return the share of PullRate credit is granted at (1 without OversubscribedCc)
    double GetRate() const;

    /**
     * \brief A request arrived for a QP of this NIC (UecSink::handlePullTarget).
     * \param qpn the receiving QP
     * \param wireTarget the pull target it carried (BTH reserved bits)
     */
    void OnRequest(uint32_t qpn, uint16_t wireTarget);
    /**
     * \brief A request arrived trimmed: its resend needs credit
     * (UecSink::processTrimmed). The target its headers carry is its
     * sender's before the loss; a sender left without credit for the resend
     * asks with a request to send (RdmaQpCc::TakeRcccRequest). Adding the
     * resend here as well counts it twice: a 1,024-to-1 incast, trimmed
     * 34,000 times, then had most of its receiver's credit granted to no use.
     * \param qpn the receiving QP \param wireTarget its pull target
     */
    void OnTrimmed(uint32_t qpn, uint16_t wireTarget);
    /// \brief Forget a QP (destroyed). \param qpn its number
    void RemoveQp(uint32_t qpn);

    /// Counters.
    struct Stats
    {
        uint64_t credits{0};     //!< credit frames sent
        uint64_t slowCredits{0}; //!< of which slow pulls (to idle QPs)
        uint64_t grantedBytes{0}; //!< credit granted, bytes
    };
    /// \return the counters
    const Stats& GetStats() const;

  protected:
    void DoDispose() override;

  private:
    /// One receiving QP's view of its sender (UecSink's pull state).
    struct Sink
    {
        uint64_t latestPull{0};    //!< quanta granted
        uint64_t highestTarget{0}; //!< quanta asked for
        bool active{false};        //!< in m_active
        bool idle{false};          //!< in m_idle
    };

    /// \return the QP's state, made at its first request \param qpn the QP
    Sink& Get(uint32_t qpn);
    /// \brief Take a pull target. \param qpn the QP \param wireTarget its bits
    /// \return true if it asked for more than before
    bool TakeTarget(uint32_t qpn, uint16_t wireTarget);
    /// \brief Put a QP in the active list and start pacing. \param qpn the QP
    void Activate(uint32_t qpn);
    /// \brief Send the next credit frame and schedule the one after.
    void Pace();
    /// \brief Start the next rate-control interval (OversubscribedCc).
    void ScheduleControl();
    /// \brief A rate-control interval ended: update the rate, go on unless idle.
    void ControlRate();

    bool m_enabled{false};          //!< Enabled attribute
    double m_pullRate{0.99};        //!< PullRate attribute
    uint32_t m_creditPerPull{16384}; //!< CreditPerPull attribute, bytes
    double m_pullBytesPerSecond{0}; //!< the line rate at PullRate, bytes per second
    uint64_t m_maxCreditQuanta{0};  //!< a sender's MaxCredit, quanta
    SendCredit m_send;              //!< sends a credit frame
    std::unordered_map<uint32_t, Sink> m_sinks; //!< by QP number
    std::deque<uint32_t> m_active;  //!< QPs that want credit, in turn
    std::deque<uint32_t> m_idle;    //!< QPs whose demand is met
    EventId m_timer;                //!< the next credit frame
    bool m_oversubscribedCc{false}; //!< OversubscribedCc attribute
    double m_minRate{0.01};         //!< OversubscribedMinRate attribute
    Time m_baseRtt{MicroSeconds(12)}; //!< the rate control's RTT
    std::unique_ptr<RdmaRcccRateControl> m_rateControl; //!< made at the first arrival
    Ptr<UniformRandomVariable> m_intervalRng; //!< made with it
    EventId m_controlTimer;         //!< the rate control's next interval
    Stats m_stats;                  //!< counters
};

} // namespace ns3

#endif // RDMA_RCCC_H
