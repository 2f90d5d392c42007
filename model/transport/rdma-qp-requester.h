/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QP_REQUESTER_H
#define RDMA_QP_REQUESTER_H

#include "rdma-send-queue.h"

#include "ns3/nstime.h"
#include "ns3/roce-frame.h"

namespace ns3
{

class RdmaQpCompleter;
class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief The requester of an RC QP, as Linux rxe's requester: it turns send
 * work requests into request packets, segmenting SEND and WRITE by the path
 * MTU and assigning PSNs (IBA 9.7.4). Its answers are the completer's
 * (RdmaQpCompleter), which shares the send queue with it.
 *
 * Rules kept here: AckReq on the last packet of a message and every
 * AckReqInterval packets (and the loss-recovery policy's ACK request
 * period); at most max_rd_atomic READ/atomic requests outstanding (IBA
 * 9.7.7.2.2, 10.3.1); IBV_SEND_FENCE waits for earlier READ/atomics; a READ
 * request stands for all its response PSNs; retransmissions (go-back-N's
 * rewound PSNs, selective repeat's set) go before new requests; nothing is
 * sent while an RNR NAK's wait lasts or beyond the policy's window plus
 * the I - 1 packets an ACK asked every I packets leaves unacknowledged.
 *
 * Logs as "RdmaQpRequester".
 */
class RdmaQpRequester
{
  public:
    /**
     * \param qp the owning QP
     * \param sq the send queue it shares with the completer
     * \param completer the completer (arms the timer for what is sent;
     * says whether an RNR NAK pauses sending)
     */
    RdmaQpRequester(RdmaQueuePair* qp, RdmaSendQueue& sq, RdmaQpCompleter& completer);

    /// Restart the ACK request counts (the QP moves to RESET).
    void Reset();

    /**
     * \brief Queue a work request (validated by the QP).
     * \param wr the request
     */
    void Post(const RdmaSendWr& wr);

    /// \return whether a request packet may be sent now
    bool HasPacket() const;
    /// \return bytes of SEND and WRITE messages posted and not yet sent once
    /// (RCCC's backlog)
    uint64_t GetUnsentBytes() const;
    /// \return bytes of PSNs queued to be sent again, a path MTU each
    uint64_t GetResendBytes() const;
    /**
     * \brief Fill the next request packet.
     * \param frame receives BTH, extension headers and payload
     * \return false if nothing may be sent
     */
    bool BuildPacket(RoceFrame& frame);

  private:
    /// \return packets of a message of `length` bytes at the path MTU
    uint32_t PacketsFor(uint64_t length) const;
    /// \return the next PSN to (re)send, and whether one may be sent now
    bool NextPsnToSend(uint32_t& psn, bool& retransmission) const;
    /// \return whether a READ/atomic may start (max_rd_atomic, fence)
    bool ReadAtomicAllowed(const RdmaSendWqe& w) const;
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
    RdmaSendWqe* AssignNext(uint32_t psn);
    /// Build the request packet carrying `psn` of WQE `w`.
    void FillPacket(RdmaSendWqe& w, uint32_t psn, RoceFrame& frame);
    /// The RDMA READ request for packet idx of a READ (RETH: the bytes from
    /// there up to the first response kept past it).
    void FillReadRequest(const RdmaSendWqe& w, uint32_t idx, RoceFrame& frame) const;
    /// The CmpSwap or FetchAdd request of an atomic (AtomicETH).
    static void FillAtomicRequest(const RdmaSendWr& wr, RoceFrame& frame);
    /// \return the BTH opcode of a SEND or WRITE packet: FIRST, MIDDLE,
    /// LAST or ONLY, with immediate or invalidate (IBA 9.2, table 38)
    static uint8_t SendOrWriteOpcode(RdmaWrOpcode wr, bool first, bool last);
    /// Packet idx of a SEND or WRITE: opcode, RETH, ImmDt/IETH, payload, AckReq.
    void FillSendOrWrite(const RdmaSendWqe& w, uint32_t idx, RoceFrame& frame);
    /// \return whether this packet should ask for an ACK: every
    /// AckRequestInterval packets (at least every quarter of a BDP cap) or
    /// the policy's ACK request period (counts the packet)
    bool AckRequestDue();
    /// \return I, the packets between two AckReqs: AckReqInterval, at most a
    /// quarter of the policy's window (when it has one), at least 1
    uint32_t AckInterval() const;
    /// An ACK was asked for now: restart both counts.
    void NoteAckRequested();

    RdmaQueuePair* m_qp;          //!< owner
    RdmaSendQueue& m_sq;          //!< shared with the completer
    RdmaQpCompleter& m_completer; //!< handles the answers
    uint32_t m_sinceAckReq;       //!< packets since the last AckReq
    uint64_t m_unsentBytes{0};    //!< GetUnsentBytes
    Time m_lastAckReqAt;          //!< when a request packet last asked for an ACK
};

} // namespace ns3

#endif // RDMA_QP_REQUESTER_H
