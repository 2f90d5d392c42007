/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_LOSS_RECOVERY_H
#define RDMA_LOSS_RECOVERY_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-fifo.h"
#include "ns3/rdma-wire.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The requester's loss-recovery state of one QP, read and written
 * by an RdmaLossRecovery (as TcpSocketState is by TCP's recovery ops), so a
 * unit test can drive a policy without a network. PSNs are 24-bit.
 */
struct RdmaRecoveryState
{
    uint32_t una{0};               //!< oldest PSN not yet acknowledged (cumulative ACK)
    uint32_t nextPsn{0};           //!< next PSN the requester sends
    uint32_t highestSent{0};       //!< one past the highest PSN ever sent
    std::set<uint32_t> sacked;     //!< PSNs >= una the responder reported received
    uint32_t highestSacked{0};     //!< one past the highest SACKed PSN (valid if sacked is not empty)
    std::set<uint32_t> retransmit; //!< PSNs to send again before new data (selective repeat)
    /**
     * PSNs sent again since they were found lost, each with highestSent at
     * the time it was last sent again: a SACK for a PSN at or beyond that
     * mark was sent after the retransmission, so the retransmission is lost.
     */
    std::map<uint32_t, uint32_t> resent;
    bool inRecovery{false};  //!< in an IRN loss-recovery episode
    uint32_t recoverySeq{0}; //!< one past the last new PSN sent before the episode began
    uint32_t episodes{0};    //!< loss-recovery episodes entered (IRN 3.1)
    /**
     * The SACKs that were the highest so far when they arrived, with their
     * arrival times, oldest first: the first SACK at or past any PSN is one
     * of them (the clock of the reorder time, RFC 8985 section 6.2).
     */
    RdmaFifo<std::pair<uint32_t, Time>> sackRecords;
    /// One past the highest PSN below which loss detection has declared
    /// every PSN not SACKed lost (meaningful while it is past una).
    uint32_t scannedTo{0};
    /// PSNs queued by Lose since the owner last took them: known lost, so
    /// no longer in flight for the congestion window (RFC 6675's pipe).
    std::vector<uint32_t> lost;

    /**
     * \brief Queue a PSN to be sent again, as known lost (into retransmit,
     * and once into lost).
     * \param psn the PSN
     */
    void Lose(uint32_t psn)
    {
        if (retransmit.insert(psn).second)
        {
            lost.push_back(psn);
        }
    }
};

/**
 * \ingroup rdma
 * \brief The oldest PSN of `psns` at or after `from` in 24-bit PSN order
 * (IBA 9.7.2: a PSN is after another when it is less than 2^23 ahead),
 * found in logarithmic time: the next queued resend of selective repeat.
 * \param psns PSNs, each below 2^24
 * \param from the oldest PSN that counts (the cumulative ACK)
 * \param[out] psn the PSN found
 * \return whether any PSN of `psns` is at or after `from`
 */
bool RdmaOldestPsnFrom(const std::set<uint32_t>& psns, uint32_t from, uint32_t& psn);

/**
 * \ingroup rdma
 * \brief Loss-recovery policy of an RC QP: how a requester answers a
 * sequence NAK or a retransmission timeout, how long that timeout is, how
 * much it may have in flight, and whether its responder keeps out-of-order
 * packets. A TypeId chosen per QP through the QP's "LossRecovery"
 * attribute.
 */
class RdmaLossRecovery : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return the policy's name
    virtual std::string GetName() const = 0;
    /**
     * \return whether the responder keeps out-of-sequence packets and
     * answers each with a SACK-carrying NAK (selective repeat), instead of
     * dropping them after one NAK (go-back-N, IBA 9.7.5.1.2)
     */
    virtual bool ResponderKeepsOutOfOrder() const = 0;
    /**
     * \param mtu path MTU, bytes
     * \return the most PSNs the requester may have outstanding, 0 = no limit
     */
    virtual uint32_t GetWindowPackets(uint32_t mtu) const = 0;
    /**
     * \brief A sequence NAK arrived: every PSN before `expectedPsn` is
     * acknowledged (state.una already advanced).
     * \param state the requester's state
     * \param expectedPsn the responder's expected PSN (the NAK's PSN)
     * \param sackPsn the out-of-order PSN that triggered the NAK
     * \param hasSack whether sackPsn is meaningful (selective-repeat responders)
     * \param now when the NAK arrived
     */
    virtual void OnSequenceNak(RdmaRecoveryState& state,
                               uint32_t expectedPsn,
                               uint32_t sackPsn,
                               bool hasSack,
                               Time now) = 0;
    /**
     * \brief A coalesced SACK arrived (a sequence NAK with a SACK bitmap,
     * RoceFrame::sackBitmap): OnSequenceNak for sackPsn, with every PSN
     * expectedPsn + 1 + i whose bit i is set SACKed as well. The default
     * ignores the bitmap.
     * \param state the requester's state
     * \param expectedPsn the responder's expected PSN (the NAK's PSN)
     * \param sackPsn the newest out-of-order PSN the responder reports
     * \param bitmap bit i: PSN expectedPsn + 1 + i arrived
     * \param now when the SACK arrived
     */
    virtual void OnSackBitmap(RdmaRecoveryState& state,
                              uint32_t expectedPsn,
                              uint32_t sackPsn,
                              uint64_t bitmap,
                              Time now);
    /**
     * \return how many out-of-order arrivals the responder reports in one
     * SACK (coalesced, with a bitmap); 1 (the default) = a SACK for each
     */
    virtual uint32_t GetSackCoalescing() const;
    /**
     * \return the longest a coalescing responder holds an out-of-order
     * arrival before it sends the SACK reporting it
     */
    virtual Time GetSackDelay() const;
    /**
     * \return request payload bytes after which the responder answers,
     * whatever the order they arrived in (a cumulative ACK, or past a gap a
     * SACK with its bitmap); 0 (the default) = AckReq and GetSackCoalescing
     * decide
     */
    virtual uint32_t GetAckBytes() const;
    /**
     * \return how long a go-back-N responder waits before it NAKs the same
     * gap again while out-of-order packets keep arriving; 0 (the default) =
     * once per gap, as IBA 9.7.5.1.2 says
     */
    virtual Time GetNakInterval() const;
    /**
     * \brief The cumulative ACK moved forward (state.una is the new value).
     * \param state the requester's state
     */
    virtual void OnAck(RdmaRecoveryState& state);
    /**
     * \brief A trimmed-packet NAK arrived (AethHeader::NAK_TRIMMED): the
     * request with trimmedPsn reached the responder cut to its headers, so
     * it is lost; every PSN before expectedPsn is acknowledged (state.una
     * already advanced). The default goes back to expectedPsn (go-back-N:
     * the responder NAKs a trimmed packet only when it is the one it
     * expects); selective repeat sends trimmedPsn again, alone.
     * \param state the requester's state
     * \param expectedPsn the responder's expected PSN (the NAK's PSN)
     * \param trimmedPsn the trimmed request's PSN (the NAK's MSN field)
     */
    virtual void OnTrimmed(RdmaRecoveryState& state, uint32_t expectedPsn, uint32_t trimmedPsn);
    /**
     * \brief The retransmission timer expired with PSNs outstanding.
     * \param state the requester's state
     */
    virtual void OnTimeout(RdmaRecoveryState& state) = 0;
    /**
     * \param state the requester's state
     * \param localAckTimeout the QP's local ACK timeout (IBA 9.7.6.1.3,
     *        4.096 us x 2^timeout; zero when the QP's timeout is 0 = none)
     * \return how long the requester waits for progress before OnTimeout;
     *         zero = no timer
     */
    virtual Time GetRetransmitTimeout(const RdmaRecoveryState& state,
                                      Time localAckTimeout) const = 0;
    /**
     * \return the longest time between two request packets that ask for an
     * ACK (AckReq) while the QP sends; zero = no such bound (the default)
     */
    virtual Time GetAckRequestPeriod() const;
    /**
     * \param state the requester's state
     * \param now the time
     * \return when, after now, a PSN outstanding now would be declared lost
     *         by time alone (OnLossTimer is then due); zero = never (the default)
     */
    virtual Time GetLossDeadline(const RdmaRecoveryState& state, Time now) const;
    /**
     * \brief The loss deadline GetLossDeadline gave has come.
     * \param state the requester's state
     * \param now the time
     */
    virtual void OnLossTimer(RdmaRecoveryState& state, Time now);
    /**
     * \param mtu path MTU, bytes
     * \return bits of out-of-order state the policy adds to each QP's context
     *         on the NIC (its QPC entry); 0 (the default) = none
     */
    virtual uint32_t GetQpContextBits(uint32_t mtu) const;
};

/**
 * \ingroup rdma
 * \brief Go-back-N, as the IBA specifies for RC (9.7.5.1.2, C9-106; as
 * Linux rxe runs it): the responder drops every packet after a gap and
 * NAKs once per gap (until the expected PSN arrives); the requester resends
 * everything from the NAK's PSN, once per NAK episode, or from the oldest
 * unacknowledged PSN after the local ACK timeout.
 *
 * NakInterval above 0 is the HPCC and ConWeave simulators' go-back-N
 * instead (rdma-hw.cc ReceiverCheckSeq, its nack_interval of 4 us): the
 * responder NAKs a gap again when an out-of-order packet arrives that long
 * after its last NAK, and the requester goes back on each such NAK (a
 * repeated NAK restarts the retry under way without using up retry_cnt).
 */
class RdmaGoBackN : public RdmaLossRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    bool ResponderKeepsOutOfOrder() const override;
    uint32_t GetWindowPackets(uint32_t mtu) const override;
    void OnSequenceNak(RdmaRecoveryState& state,
                       uint32_t expectedPsn,
                       uint32_t sackPsn,
                       bool hasSack,
                       Time now) override;
    void OnTimeout(RdmaRecoveryState& state) override;
    /// \return localAckTimeout: go-back-N is timed by the verbs timeout
    Time GetRetransmitTimeout(const RdmaRecoveryState& state, Time localAckTimeout) const override;
    Time GetNakInterval() const override;

  private:
    Time m_nakInterval; //!< NakInterval: 0 = one NAK per gap (IBA)
};

/**
 * \ingroup rdma
 * \brief Selective repeat as IRN specifies it (Mittal et al., "Revisiting
 * Network Support for RDMA", SIGCOMM 2018, section 3.1-3.2).
 *
 * - The responder keeps out-of-order packets and answers each with a NAK
 *   (PSN sequence error) that carries the cumulative ACK and, as a simple
 *   SACK, the PSN that triggered it. On the wire: BTH PSN = the expected
 *   PSN (cumulative ACK), AETH syndrome 0x60 (NAK, PSN sequence error),
 *   AETH MSN field (24 bits) = the SACKed PSN. The frame is an ordinary
 *   RC ACKNOWLEDGE, so Wireshark/tshark decode it unchanged (the MSN
 *   column shows the SACKed PSN).
 * - The first loss a NAK reveals starts a loss-recovery episode
 *   (recoverySeq = one past the last new PSN sent; with the default
 *   reorder rule below, every NAK reveals one). In an episode the requester
 *   resends every PSN declared lost (below the highest SACKed one and not
 *   SACKed, by default), each once, before any new data; the episode ends
 *   when the cumulative ACK passes recoverySeq.
 * - A retransmission that is lost again is found without a timeout: each
 *   resent PSN remembers the highest PSN sent when it went out; a SACK for
 *   a PSN at or beyond that mark was sent after the retransmission (no
 *   reordering on a path), so the retransmission is lost and is sent once
 *   more (the recovery-sequence rule applied per retransmission; Linux
 *   TCP's lost-retransmit detection works the same way).
 * - Reordering (many paths): a PSN not SACKed is declared lost only when
 *   ReorderWindow PSNs sent after it have been SACKed (a duplicate
 *   threshold, as RFC 6675's DupThresh), or ReorderTime has passed since
 *   the first SACK for a PSN sent after it arrived (RACK's reordering
 *   window, RFC 8985 section 6: a packet is lost once a packet sent after
 *   it was delivered and the window has passed; the window's clock starts
 *   here at that delivery's SACK rather than at RACK's send time plus RTT).
 *   "Sent after" means PSN order for a first transmission and, for a
 *   retransmission, past the mark above. The defaults, ReorderWindow 1
 *   and no ReorderTime, declare a hole lost at the first SACK past it, as
 *   IRN does; a larger window tolerates that many packets of reordering
 *   before a retransmission, at the cost of a later one on a real loss
 *   (the window's worth of SACKs, the reorder time, or RTO_low at the tail
 *   of a message).
 * - SACK coalescing (off by default): IRN's responder sends a SACK for
 *   every out-of-order packet, which on a sprayed fabric is nearly one
 *   frame back per frame out. With SackCoalescing N > 1 it reports N
 *   out-of-order arrivals in one SACK, or fewer once SackDelay has passed
 *   since the first unreported one: the NAK's PSN is the cumulative ACK,
 *   its MSN the newest out-of-order PSN, and a 64-bit bitmap after the
 *   AETH marks the PSNs received among the 64 after the cumulative ACK
 *   (as the Ultra Ethernet Transport 1.0's packet delivery sublayer
 *   coalesces ACKs and carries a 64-bit SACK bitmap; RoceFrame::sackBitmap).
 *   The requester SACKs every PSN the bitmap marks and applies the reorder
 *   rule once per SACK.
 * - Timeouts: RTO_low while at most RtoLowThreshold packets are unacknowledged
 *   and not SACKed (too few for SACKs to reveal a loss), RTO_high otherwise;
 *   the paper's values at 40 Gb/s are 100 us, 320 us and N = 3. They do not
 *   depend on the QP's verbs timeout, which only bounds how long the QP
 *   waits without progress before IBV_WC_RETRY_EXC_ERR (retry_cnt + 1 local
 *   ACK timeouts). A timeout starts an episode and resends every
 *   outstanding PSN that is not SACKed.
 * - BDP-FC: at most BdpBytes / MTU PSNs beyond the cumulative ACK (section
 *   3.2); the requester asks for an ACK at least every quarter of that cap
 *   (every I packets) so the cap reopens without waiting, and lets I - 1
 *   more PSNs out, those delivered since the last ACKed request (the
 *   paper's cap assumes an ACK per packet); and at least every RTO_low / 4 so
 *   a QP its congestion control paces slowly is not timed out while it
 *   sends (the timer runs from the last progress, and its length follows
 *   the packets in flight as they grow).
 */
class RdmaSelectiveRepeat : public RdmaLossRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaSelectiveRepeat();
    std::string GetName() const override;
    bool ResponderKeepsOutOfOrder() const override;
    uint32_t GetWindowPackets(uint32_t mtu) const override;
    void OnSequenceNak(RdmaRecoveryState& state,
                       uint32_t expectedPsn,
                       uint32_t sackPsn,
                       bool hasSack,
                       Time now) override;
    void OnSackBitmap(RdmaRecoveryState& state,
                      uint32_t expectedPsn,
                      uint32_t sackPsn,
                      uint64_t bitmap,
                      Time now) override;
    uint32_t GetSackCoalescing() const override;
    Time GetSackDelay() const override;
    uint32_t GetAckBytes() const override;
    void OnAck(RdmaRecoveryState& state) override;
    void OnTrimmed(RdmaRecoveryState& state, uint32_t expectedPsn, uint32_t trimmedPsn) override;
    void OnTimeout(RdmaRecoveryState& state) override;
    /// \return RTO_low or RTO_high by the packets in flight (IRN 3.1)
    Time GetRetransmitTimeout(const RdmaRecoveryState& state, Time localAckTimeout) const override;
    /// \return RTO_low / 4: a QP slowed by its congestion control still gets
    /// ACKs well within RTO_low, so the timer does not fire while it sends
    Time GetAckRequestPeriod() const override;
    /// \return when the next SACK record's ReorderTime runs out (zero
    /// without a ReorderTime or a record)
    Time GetLossDeadline(const RdmaRecoveryState& state, Time now) const override;
    void OnLossTimer(RdmaRecoveryState& state, Time now) override;
    /**
     * \return two bitmaps of the BDP cap in packets (GetWindowPackets): the
     * responder's PSNs received past the expected one and the requester's
     * SACKed PSNs (IRN section 3.2 bounds both by the cap)
     */
    uint32_t GetQpContextBits(uint32_t mtu) const override;

    /**
     * \param state the requester's state
     * \return PSNs sent, not cumulatively acknowledged and not SACKed
     */
    static uint32_t InFlight(const RdmaRecoveryState& state);

  private:
    /// Start a loss-recovery episode if none is under way.
    static void EnterRecovery(RdmaRecoveryState& state);
    /**
     * \brief Declare lost what the reorder window or time allows: every
     * outstanding PSN not SACKed, not queued and sent before the loss bound
     * (the ReorderWindow-th highest SACKed PSN, or the last SACK record
     * whose ReorderTime has passed, whichever is higher).
     * \param state the requester's state
     * \param now the time
     */
    void DetectLosses(RdmaRecoveryState& state, Time now) const;
    /**
     * \param state the requester's state
     * \param n 1 = the highest
     * \return the n-th highest SACKed PSN (state.sacked holds at least n)
     */
    static uint32_t NthHighestSacked(const RdmaRecoveryState& state, uint32_t n);
    /**
     * \brief Record sackPsn as SACKed (and as the highest so far, with its
     * SACK record, if it is), without detecting losses.
     * \param state the requester's state
     * \param sackPsn the PSN
     * \param now when its SACK arrived
     */
    static void AddSack(RdmaRecoveryState& state, uint32_t sackPsn, Time now);
    /**
     * \brief RecoverAll's rule: at an episode's start every PSN from una to
     * highestSent that is not SACKed is to be resent; PSNs SACKed since are
     * taken off the list.
     * \param state the requester's state
     */
    static void RecoverAll(RdmaRecoveryState& state);

    uint64_t m_bdpBytes;         //!< in-flight cap, bytes (IRN: the path's BDP)
    Time m_rtoLow;               //!< RTO_low
    Time m_rtoHigh;              //!< RTO_high
    uint32_t m_rtoLowThreshold;  //!< N: RTO_low at or below this many packets in flight
    uint32_t m_reorderWindow;    //!< SACKs past a PSN that declare it lost
    Time m_reorderTime;          //!< time after the first SACK past a PSN that declares it lost
    uint32_t m_sackCoalescing;   //!< out-of-order arrivals reported per SACK
    Time m_sackDelay;            //!< longest wait of an unreported out-of-order arrival
    uint32_t m_ackBytes;         //!< payload bytes per answer (0: AckReq decides)
    bool m_recoverAll{false};    //!< RecoverAll: resend every PSN not SACKed at an episode's start
};

} // namespace ns3

#endif // RDMA_LOSS_RECOVERY_H
