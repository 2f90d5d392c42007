/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QP_REQUESTER_H
#define RDMA_QP_REQUESTER_H

#include "rdma-deadline-timer.h"
#include "rdma-loss-recovery.h"
#include "rdma-work-request.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/roce-frame.h"
#include "ns3/rdma-fifo.h"


namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief The send side of an RC QP: the requester, which turns send work
 * requests into request packets (segmenting by the path MTU, assigning
 * PSNs), and the completer, which matches ACKs, NAKs, READ responses and
 * atomic ACKs against them (IBA 9.7.4-9.7.5).
 *
 * Rules kept here: AckReq on the last packet of a message and every
 * AckReqInterval packets; at most max_rd_atomic READ/atomic requests
 * outstanding (IBA 9.7.7.2.2... 10.3.1); IBV_SEND_FENCE waits for earlier
 * READ/atomics; an ACK or a response beyond an outstanding READ/atomic
 * means its responses were lost (the request is sent again); a sequence NAK
 * or a timeout costs one retry_cnt, an RNR NAK one rnr_retry (7 =
 * infinite) and waits the RNR timer the NAK names; an exhausted counter
 * completes the oldest request with IBV_WC_RETRY_EXC_ERR or
 * IBV_WC_RNR_RETRY_EXC_ERR; other NAKs complete it with REM_INV_REQ_ERR,
 * REM_ACCESS_ERR or REM_OP_ERR. Completions are generated in posting order.
 */
class RdmaQpRequester
{
  public:
    /// \param qp the owning QP
    explicit RdmaQpRequester(RdmaQueuePair* qp);
    ~RdmaQpRequester();

    /// Start from the QP's sq_psn (on RTR -> RTS).
    void Start(uint32_t sqPsn);
    /// Drop every request without completing it (move to RESET).
    void Reset();
    /// Complete every request with IBV_WC_WR_FLUSH_ERR (the QP is in ERR).
    void Flush();
    /// Stop timers.
    void Stop();

    /**
     * \brief Queue a work request (validated by the QP).
     * \param wr the request
     */
    void Post(const RdmaSendWr& wr);
    /// \return queued, not yet completed requests
    uint32_t GetOutstanding() const;

    /// \return whether a request packet may be sent now
    bool HasPacket() const;
    /**
     * \brief Fill the next request packet.
     * \param frame receives BTH, extension headers and payload
     * \return false if nothing may be sent
     */
    bool BuildPacket(RoceFrame& frame);

    /**
     * \brief A response packet (ACK, NAK, READ response, atomic ACK) arrived.
     * \param frame the packet
     */
    void ReceiveResponse(const RoceFrame& frame);

    /**
     * \param psn a READ response's PSN
     * \param offset receives the bytes into the READ's scatter list
     * \return the outstanding READ whose PSN range holds psn, or null
     */
    const RdmaSendWr* PeekRead(uint32_t psn, uint64_t& offset) const;

    /// \return the recovery state (for tests and traces)
    const RdmaRecoveryState& GetRecoveryState() const;

  private:
    /// A send work request in the send queue.
    struct Wqe
    {
        RdmaSendWr wr;           //!< the request
        Time posted;             //!< when posted
        uint64_t length{0};      //!< message bytes
        uint32_t packets{1};     //!< PSNs the message uses
        uint32_t firstPsn{0};    //!< first PSN (valid once assigned)
        bool assigned{false};    //!< PSNs assigned (first packet sent)
        bool done{false};        //!< acknowledged / responded
        bool readAtomic{false};  //!< READ or atomic
        uint32_t nextRespPsn{0}; //!< READ: next response PSN expected
        /// READ, selective repeat: responses kept (placed) past a missing one
        std::set<uint32_t> respKept;
    };

    // --- sending and completing (rdma-qp-requester.cc) ---

    /// \return the WQE whose PSN range holds psn, or nullptr
    Wqe* FindByPsn(uint32_t psn);
    /// \return the last PSN of a WQE
    static uint32_t LastPsn(const Wqe& w);
    /// \return packets of a message of `length` bytes at the path MTU
    uint32_t PacketsFor(uint64_t length) const;
    /**
     * \brief BuildPacket's step for a PSN taken from the retransmit set: note
     * it resent. A READ's request stands for all its response PSNs: they all
     * leave the set, and the request asks again from the first response
     * still missing (`psn` becomes that PSN).
     * \param psn the PSN; receives the one to send
     * \return false if that READ has completed since (nothing to send for it)
     */
    bool ResendFromSet(uint32_t& psn);
    /// \return the first WQE not yet sent, now given the PSNs from `psn` on
    Wqe* AssignNext(uint32_t psn);
    /// Build the request packet carrying `psn` of WQE `w`.
    void FillPacket(Wqe& w, uint32_t psn, RoceFrame& frame);
    /// The RDMA READ request for packet idx of a READ (RETH: the bytes from
    /// there up to the first response kept past it).
    void FillReadRequest(const Wqe& w, uint32_t idx, RoceFrame& frame) const;
    /// The CmpSwap or FetchAdd request of an atomic (AtomicETH).
    static void FillAtomicRequest(const RdmaSendWr& wr, RoceFrame& frame);
    /// \return the BTH opcode of a SEND or WRITE packet: FIRST, MIDDLE,
    /// LAST or ONLY, with immediate or invalidate (IBA 9.2, table 38)
    static uint8_t SendOrWriteOpcode(RdmaWrOpcode wr, bool first, bool last);
    /// Packet idx of a SEND or WRITE: opcode, RETH, ImmDt/IETH, payload, AckReq.
    void FillSendOrWrite(const Wqe& w, uint32_t idx, RoceFrame& frame);
    /// \return whether this packet should ask for an ACK: every
    /// AckRequestInterval packets (at least every quarter of a BDP cap) or
    /// the policy's ACK request period (counts the packet)
    bool AckRequestDue();
    /// An ACK was asked for now: restart both counts.
    void NoteAckRequested();
    /// \return the next PSN to (re)send, and whether one may be sent now
    bool NextPsnToSend(uint32_t& psn, bool& retransmission) const;
    /// Everything before psn is acknowledged; complete SEND/WRITE WQEs up to it.
    void AcknowledgeBefore(uint32_t psn);
    /// Generate completions for finished WQEs at the head, in order.
    void CompleteDone();
    /// Fail the oldest WQE with status and put the QP in error.
    void FailHead(RdmaWcStatus status);
    /// \return whether a READ/atomic may start (max_rd_atomic, fence)
    bool ReadAtomicAllowed(const Wqe& w) const;

    // --- the completer: a response's steps (rdma-qp-completer.cc) ---

    /**
     * \brief check_psn for a READ response: the READ it answers, if it is
     * outstanding and no READ/atomic before it went unanswered (which starts
     * a retry instead).
     * \param psn the response's PSN
     * \return the READ's WQE, or null (duplicate, stray, or retried)
     */
    Wqe* CheckReadResponse(uint32_t psn);
    /// A READ response: in order, place it and complete; ahead of the next
    /// expected one, keep it (selective repeat) or ask again (go-back-N).
    void CompleteReadResponse(const RoceFrame& frame);
    /// Place an in-order READ response's bytes and the kept ones that now
    /// follow; the READ is done after its last PSN.
    void PlaceReadResponse(Wqe& w, uint32_t psn, const RoceFrame& frame);
    /// An Atomic Acknowledge: the original remote value to the local buffer.
    void CompleteAtomicAck(const RoceFrame& frame);
    /// An ACK (complete what it acknowledges), RNR NAK or NAK (IBA 9.7.5.1);
    /// sackBitmap: a coalesced SACK's bitmap (RoceFrame::sackBitmap), or null.
    void CompleteAck(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap);

    // --- error and retry (rdma-qp-requester-retry.cc) ---

    /// \return the QP's local ACK timeout (IBA 9.7.6.1.3), zero for timeout 0
    Time LocalAckTimeout() const;
    /**
     * \brief Arm the local ACK timer while PSNs are outstanding, cancel it
     * otherwise.
     * \param restart restart a running timer (forward progress was made)
     */
    void UpdateTimer(bool restart = false);
    /// The retransmission timer expired.
    void OnTimeout();
    /// Arm the loss timer at the policy's loss deadline, or cancel it.
    void UpdateLossTimer();
    /// The loss timer expired: the policy declares what the time allows lost.
    void OnLossTimer();
    /// A retry (timeout or sequence NAK): false if retry_cnt is exhausted.
    bool ConsumeRetry();
    /// Resend from `from` after lost responses, once per loss (costs a retry).
    void StartRetry(uint32_t from);
    /// Rewind sending to psn (go-back-N).
    void RewindTo(uint32_t psn);
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
     * \brief A response acknowledged every PSN before `bound`: if a READ or
     * atomic before it is still unanswered, its responses were lost; ask
     * again (costs a retry).
     * \return true if that happened (the response needs no more handling)
     */
    bool RecoverLostResponses(uint32_t bound);
    /**
     * \brief Selective repeat: a READ response arrived ahead of the next
     * expected one; place it, keep its PSN, and ask for the gap (IRN's read
     * NACK, as an IBA retried READ request for the missing PSNs only).
     */
    void KeepReadResponse(Wqe& w, uint32_t psn, const RoceFrame& frame);

    // Sending and completing.
    RdmaQueuePair* m_qp;       //!< owner
    RdmaFifo<Wqe> m_sq;      //!< posted, not yet completed
    RdmaRecoveryState m_state; //!< PSN state shared with the policy
    uint32_t m_sinceAckReq;    //!< packets since the last AckReq
    uint32_t m_readAtomicOut;  //!< outstanding READ/atomic requests
    Time m_lastAckReqAt;       //!< when a request packet last asked for an ACK
    // Error and retry.
    uint32_t m_retryLeft;      //!< retries left (retry_cnt)
    uint32_t m_rnrRetryLeft;   //!< RNR retries left (rnr_retry)
    bool m_rnrWaiting;         //!< paused by an RNR NAK
    bool m_retrying;           //!< a retry (lost responses, go-back-N NAK) is under way
    uint32_t m_retryFrom;      //!< ... from this PSN
    RdmaDeadlineTimer m_timer; //!< retransmission timer (the policy's timeout)
    RdmaDeadlineTimer m_lossTimer; //!< the policy's loss deadline (reorder time)
    Time m_progressAt;         //!< last forward progress (or first send with nothing outstanding)
    Time m_timerBase;          //!< when the retransmission timer was (re)started
    EventId m_rnrTimer;        //!< RNR wait
};

} // namespace ns3

#endif // RDMA_QP_REQUESTER_H
