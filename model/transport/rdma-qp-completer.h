/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QP_COMPLETER_H
#define RDMA_QP_COMPLETER_H

#include "rdma-deadline-timer.h"
#include "rdma-send-queue.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/roce-frame.h"

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief The completer of an RC QP, as Linux rxe's completer: it takes the
 * responses to the requester's packets (ACK, NAK, RNR NAK, RDMA READ
 * response, Atomic Acknowledge), acknowledges and completes the send WQEs
 * they answer in posting order, and owns the retry: the local ACK timer (or
 * the loss-recovery policy's RTO and loss deadline), retry_cnt, rnr_retry
 * and the RNR wait (IBA 9.7.5.1: the requester's response handling;
 * 9.7.6.1.3 the timer; 9.9 the error completions).
 *
 * A response is handled in named steps, as rxe's completer takes it: check
 * its PSN against the outstanding requests, acknowledge what it covers,
 * place a READ response's bytes or an atomic's original value, complete the
 * finished requests. A response beyond an unanswered READ or atomic means
 * its responses were lost and the request is sent again, one retry at a
 * time until progress or a timeout (rxe's started_retry). A sequence NAK or
 * a timeout costs one retry_cnt, an RNR NAK one rnr_retry (7 = infinite)
 * and waits the RNR timer the NAK names; an exhausted counter completes the
 * oldest request with IBV_WC_RETRY_EXC_ERR or IBV_WC_RNR_RETRY_EXC_ERR;
 * other NAKs complete it with REM_INV_REQ_ERR, REM_ACCESS_ERR,
 * REM_INV_RD_REQ_ERR or REM_OP_ERR. Forward progress restores both retry
 * counts (they bound consecutive retries, as rxe counts them).
 *
 * Logs as "RdmaQpCompleter".
 */
class RdmaQpCompleter
{
  public:
    /**
     * \param qp the owning QP
     * \param sq the send queue it shares with the requester
     */
    RdmaQpCompleter(RdmaQueuePair* qp, RdmaSendQueue& sq);
    ~RdmaQpCompleter();

    /// Take the retry counts from the QP's attributes (RTR -> RTS).
    void Start();
    /// Stop every timer and any retry under way.
    void Stop();
    /// Complete every request with IBV_WC_WR_FLUSH_ERR (the QP is in ERR).
    void Flush();

    /**
     * \brief A response packet (ACK, NAK, READ response, atomic ACK) arrived.
     * \param frame the packet
     */
    void ReceiveResponse(const RoceFrame& frame);

    /**
     * \brief The requester sent a packet: arm the retransmission timer (or
     * lengthen it as the packets in flight grow).
     * \param wasIdle nothing was outstanding before it (the wait for
     * progress starts now)
     */
    void NotePacketSent(bool wasIdle);
    /// \return whether an RNR NAK pauses sending
    bool IsRnrWaiting() const;

    /**
     * \param psn a READ response's PSN
     * \param offset receives the bytes into the READ's scatter list
     * \return the outstanding READ whose PSN range holds psn, or null
     */
    const RdmaSendWr* PeekRead(uint32_t psn, uint64_t& offset) const;

  private:
    // --- a response's steps ---

    /**
     * \brief check_psn for a READ response: the READ it answers, if it is
     * outstanding and no READ/atomic before it went unanswered (which starts
     * a retry instead).
     * \param psn the response's PSN
     * \return the READ's WQE, or null (duplicate, stray, or retried)
     */
    RdmaSendWqe* CheckReadResponse(uint32_t psn);
    /// A READ response: in order, place it and complete; ahead of the next
    /// expected one, keep it (selective repeat) or ask again (go-back-N).
    void CompleteReadResponse(const RoceFrame& frame);
    /// Place an in-order READ response's bytes and the kept ones that now
    /// follow; the READ is done after its last PSN.
    void PlaceReadResponse(RdmaSendWqe& w, uint32_t psn, const RoceFrame& frame);
    /// Place a READ response's payload at its offset in the READ's scatter list.
    void ScatterReadResponse(const RdmaSendWqe& w, uint32_t psn, const RoceFrame& frame);
    /**
     * \brief Selective repeat: a READ response arrived ahead of the next
     * expected one; place it, keep its PSN, and ask for the gap (IRN's read
     * NACK, as an IBA retried READ request for the missing PSNs only).
     */
    void KeepReadResponse(RdmaSendWqe& w, uint32_t psn, const RoceFrame& frame);
    /// An Atomic Acknowledge: the original remote value to the local buffer.
    void CompleteAtomicAck(const RoceFrame& frame);
    /// An ACK (complete what it acknowledges), RNR NAK or NAK (IBA 9.7.5.1);
    /// sackBitmap: a coalesced SACK's bitmap (RoceFrame::sackBitmap), or null.
    void CompleteAck(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap);
    /// Everything before psn is acknowledged; mark SEND/WRITE WQEs up to it done.
    void AcknowledgeBefore(uint32_t psn);
    /// Generate completions for finished WQEs at the head, in order.
    void CompleteDone();
    /// Fail the oldest WQE with status and put the QP in error.
    void FailHead(RdmaWcStatus status);

    // --- NAKs ---

    /**
     * \brief An RNR NAK for `psn` arrived: complete what it acknowledges,
     * spend one rnr_retry (7 = infinite) and pause sending for the RNR timer
     * value the NAK carries, then resend from psn.
     * \param psn the NAK's PSN
     * \param aeth its AETH (the RNR timer code)
     */
    void OnRnrNak(uint32_t psn, const AethHeader& aeth);
    /// The RNR wait is over: resend from psn.
    void OnRnrTimerExpired(uint32_t psn);
    /**
     * \brief A NAK for `psn` arrived: complete what it acknowledges; a PSN
     * sequence error NAK resends (costing a retry under go-back-N), any other
     * fails the oldest request with REM_INV_REQ_ERR, REM_ACCESS_ERR,
     * REM_INV_RD_REQ_ERR or REM_OP_ERR.
     * \param psn the NAK's PSN
     * \param aeth its AETH (syndrome; MSN, which selective repeat reads)
     * \param sackBitmap a coalesced SACK's bitmap (RoceFrame::sackBitmap), or null
     */
    void OnNak(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap);
    /**
     * \brief A trimmed request's NAK (AethHeader::NAK_TRIMMED): the request
     * its MSN field names is resent at once, even when a later ACK overtook
     * the NAK and made its PSN stale.
     * \param psn the NAK's PSN (the responder's expected PSN)
     * \param aeth its AETH
     */
    void OnTrimNak(uint32_t psn, const AethHeader& aeth);
    /// A PSN sequence error NAK for `psn` (after what it acknowledges).
    void OnSequenceNak(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap);

    // --- retry and timers ---

    /**
     * \brief A response acknowledged every PSN before `bound`: if a READ or
     * atomic before it is still unanswered, its responses were lost; ask
     * again (costs a retry).
     * \return true if that happened (the response needs no more handling)
     */
    bool RecoverLostResponses(uint32_t bound);
    /// A retry (timeout or sequence NAK): false if retry_cnt is exhausted.
    bool ConsumeRetry();
    /// Resend from `from` after lost responses, once per loss (costs a retry).
    void StartRetry(uint32_t from);
    /// Rewind sending to psn (go-back-N), or queue psn again (selective repeat).
    void RewindTo(uint32_t psn);
    /// \return the QP's local ACK timeout (IBA 9.7.6.1.3), zero for timeout 0
    Time LocalAckTimeout() const;
    /**
     * \brief Arm the retransmission timer while PSNs are outstanding, cancel
     * it otherwise.
     * \param restart restart a running timer (forward progress was made)
     */
    void UpdateTimer(bool restart = false);
    /// \return whether a PSN sent and not acknowledged is neither SACKed nor
    /// known lost and queued to be sent again: what the timer watches for
    bool HasUnknownFate() const;
    /// The retransmission timer expired.
    void OnTimeout();
    /// Arm the loss timer at the policy's loss deadline, or cancel it.
    void UpdateLossTimer();
    /// The loss timer expired: the policy declares what the time allows lost.
    void OnLossTimer();

    RdmaQueuePair* m_qp;           //!< owner
    RdmaSendQueue& m_sq;           //!< shared with the requester
    uint32_t m_retryLeft;          //!< retries left (retry_cnt)
    uint32_t m_rnrRetryLeft;       //!< RNR retries left (rnr_retry)
    bool m_rnrWaiting;             //!< paused by an RNR NAK
    bool m_retrying;               //!< a retry (lost responses, go-back-N NAK) is under way
    uint32_t m_retryFrom;          //!< ... from this PSN
    RdmaDeadlineTimer m_timer;     //!< retransmission timer (the policy's timeout)
    RdmaDeadlineTimer m_lossTimer; //!< the policy's loss deadline (reorder time)
    Time m_progressAt;  //!< last forward progress (or first send with nothing outstanding)
    Time m_timerBase;   //!< when the retransmission timer was (re)started
    EventId m_rnrTimer; //!< RNR wait
};

} // namespace ns3

#endif // RDMA_QP_COMPLETER_H
