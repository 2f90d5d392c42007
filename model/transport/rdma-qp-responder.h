/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QP_RESPONDER_H
#define RDMA_QP_RESPONDER_H

#include "rdma-memory-region.h"
#include "rdma-work-request.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/roce-frame.h"
#include "ns3/rdma-fifo.h"

#include <map>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief The receive side of an RC QP: the responder (IBA 9.7.5). It
 * checks each request's PSN against the expected PSN,
 * executes SEND, WRITE, READ and atomics in order, and sends the responses
 * (ACK, NAK, READ responses, atomic ACKs) in PSN order.
 *
 * Rules kept here: a PSN behind the expected one is a duplicate (SEND/WRITE
 * are re-ACKed with the last acknowledged PSN, C9-105; a READ is served
 * again from the saved responder resource; an atomic gets its saved result,
 * never a second execution); a PSN ahead is out of sequence (go-back-N: one
 * PSN-sequence NAK per gap, then silent drops; selective repeat: the packet
 * is kept and a NAK carrying the expected PSN and, in its MSN field, the
 * received PSN is sent); a SEND or WRITE with immediate that finds no
 * receive WQE gets an RNR NAK with the QP's min_rnr_timer; a bad R_Key, a
 * VA outside the MR, a missing access flag or an MR of another PD gets the
 * remote access NAK; more READ/atomics than max_dest_rd_atomic, or a
 * malformed message, the invalid request NAK. These errors move the
 * responder's QP to ERR once the NAK is sent (rxe's class C handling).
 * ACKs are cumulative and coalesced: a pending ACK is replaced by a newer one.
 * With the loss recovery's SackCoalescing N above 1, out-of-order packets
 * are reported N at a time (or after its SackDelay) by one sequence NAK
 * whose MSN is the newest of them and whose SACK bitmap marks every PSN
 * kept among the 64 after the expected one (RdmaSelectiveRepeat); a SACK
 * not yet sent is replaced by a newer one, which reports all it did. The
 * cumulative ACK for packets a filled gap releases is coalesced alike: it
 * updates an ACK already queued, or else counts as one more arrival to
 * report (by a plain ACK when nothing is left past a gap).
 *
 * Reordering counters (RdmaQueuePair::Stats): a request whose PSN arrives
 * for the first time after requests with higher PSNs is late: its depth is
 * how many of those had arrived (RFC 5236's reorder extent) and how long
 * before it the first of them arrived (RFC 4737's reordering late time).
 * The responder cannot tell a late original from the retransmission of a
 * lost one, so with loss the depths include recovery times; without loss
 * they are the fabric's reordering. A request whose PSN has arrived before
 * (executed, kept, or dropped past a gap by go-back-N) is a spurious
 * retransmission; READ and atomic requests behind the expected PSN are not
 * counted, as they may ask again for responses that were lost.
 * Responses are only queued here; the QP tells the NIC once the request
 * has been handled (no re-entry while the queue is being changed).
 */
class RdmaQpResponder
{
  public:
    /// \param qp the owning QP
    explicit RdmaQpResponder(RdmaQueuePair* qp);

    /// Start expecting rqPsn (on INIT -> RTR).
    void Start(uint32_t rqPsn);
    /// Drop all state and receive requests without completions (RESET).
    void Reset();
    /// Complete every receive request with IBV_WC_WR_FLUSH_ERR (ERR).
    void Flush();

    /**
     * \brief Queue a receive work request.
     * \param wr the request
     */
    void Post(const RdmaRecvWr& wr);
    /// \return queued receive requests
    uint32_t GetPostedRecvs() const;
    /// \param index 0 = the next queued receive request \return it, or null
    const RdmaRecvWr* PeekRecv(uint32_t index) const;

    /// \return whether a response is waiting
    bool HasPacket() const;
    /**
     * \brief Fill the next response packet.
     * \param frame receives BTH, extension headers and payload
     * \return false if none is waiting
     */
    bool BuildPacket(RoceFrame& frame);
    /**
     * \brief A request packet arrived.
     * \param frame the packet
     */
    void ReceiveRequest(const RoceFrame& frame);
    /**
     * \brief A request arrived trimmed to its headers (QbbTrimmer): its
     * payload was lost in the fabric. Selective repeat NAKs its PSN at once
     * (AethHeader::NAK_TRIMMED, the expected PSN in the PSN field) unless a
     * whole copy is kept; go-back-N NAKs it so when it is the expected PSN,
     * every time (the trim says that copy is lost), and takes one past a
     * gap as out of sequence (IBA 9.7.5.1.2). An older PSN is ignored.
     * \param frame the trimmed request
     */
    void ReceiveTrimmed(const RoceFrame& frame);

    /// \return the expected PSN
    uint32_t GetExpectedPsn() const;
    /// \return the message sequence number
    uint32_t GetMsn() const;

  private:
    /// Outcome of executing one in-order request.
    enum Result
    {
        DONE,  //!< executed; the expected PSN moved on
        RNR,   //!< no receive WQE: RNR NAK queued, nothing consumed
        FAILED //!< NAK queued; the QP goes to ERR once it is sent
    };

    /// A queued response.
    struct Response
    {
        enum Kind
        {
            ACK,        //!< ACK, NAK or RNR NAK (AETH only)
            ATOMIC_ACK, //!< ATOMIC_ACKNOWLEDGE
            READ        //!< READ response packets
        } kind{ACK};

        uint32_t psn{0};          //!< PSN of the (first) response packet
        uint8_t syndrome{0x1F};   //!< AETH syndrome
        uint32_t msn{0};          //!< AETH MSN
        uint64_t orig{0};         //!< atomic: original remote data
        Ptr<RdmaMemoryRegion> mr; //!< READ: source region
        uint64_t va{0};           //!< READ: first VA
        uint64_t length{0};       //!< READ: bytes
        uint32_t packets{1};      //!< READ: response packets
        uint32_t next{0};         //!< READ: next packet index
        bool thenError{false};    //!< move the QP to ERR after sending
        bool hasSackBitmap{false}; //!< a coalesced SACK: sackBitmap goes after the AETH
        uint64_t sackBitmap{0};    //!< its bitmap (RoceFrame::sackBitmap)
        bool replay{false};       //!< answers a duplicate from a saved resource
    };

    /// A READ or atomic kept for duplicate requests (responder resources).
    struct Resource
    {
        bool read{false};    //!< READ (else atomic)
        uint32_t psn{0};     //!< first PSN
        uint32_t packets{1}; //!< PSNs used
        uint32_t rkey{0};    //!< R_Key
        uint64_t orig{0};    //!< atomic result
    };

    /// A posted receive.
    struct RecvWqe
    {
        RdmaRecvWr wr; //!< the request
        Time posted;   //!< when posted
    };

    // --- sequence, duplicates and responses (rdma-qp-responder.cc) ---

    Result Execute(const RoceFrame& frame);
    void HandleDuplicate(const RoceFrame& frame);
    void HandleOutOfSequence(const RoceFrame& frame);
    /**
     * \brief Count a request at or past the expected PSN: a spurious
     * retransmission if its PSN arrived before, a late packet if PSNs past it
     * did; remember it while it is past the expected PSN.
     * \param psn its PSN
     * \param d its distance from the expected PSN (>= 0)
     */
    void NoteArrival(uint32_t psn, int32_t d);
    /**
     * \brief Selective repeat with SackCoalescing above 1: an out-of-order
     * request arrived; queue the SACK once `coalescing` are unreported, else
     * make sure the SackDelay timer runs.
     * \param psn its PSN
     * \param coalescing the loss recovery's SackCoalescing
     */
    void CoalesceSack(uint32_t psn, uint32_t coalescing);
    /**
     * \brief Selective repeat with AckBytes: whether the request just
     * counted makes an answer due (AckBytes of payload unanswered, or it is
     * marked CE; UET 1.0's ACK coalescing, htsim_uec's UecSink).
     * \param frame the request \param ackBytes the loss recovery's AckBytes
     * \return whether to queue the ACK or SACK now
     */
    bool AnswerDue(const RoceFrame& frame, uint32_t ackBytes) const;
    /// Queue the coalesced SACK of the out-of-order arrivals not yet reported.
    void QueueSack();
    /// SackDelay has passed since the first unreported out-of-order arrival.
    void OnSackTimer();
    /// \return bit i set: PSN expected + 1 + i is kept out of order
    uint64_t SackBitmap() const;
    /**
     * \brief Queue a NAK for the expected PSN that names another PSN in its
     * MSN field: IRN's SACK (the PSN received out of order), or a trimmed
     * request's PSN (AethHeader::NAK_TRIMMED).
     * \param nakCode the NAK code \param psn the PSN named
     */
    void QueuePsnNak(AethHeader::NakCode nakCode, uint32_t psn);
    /// Queue a NAK with `code` for psn, after which the QP goes to ERR.
    Result Fail(uint8_t nakCode, uint32_t psn);
    /// Queue an RNR NAK for psn with the QP's min_rnr_timer.
    Result SendRnrNak(uint32_t psn);
    /// \return whether the last queued response is a cumulative ACK QueueAck would update
    bool HasPendingAck() const;
    /// Queue a cumulative ACK for psn, replacing a pending ACK.
    void QueueAck(uint32_t psn);
    /// Queue an AETH-only response.
    void QueueAeth(uint32_t psn, uint8_t syndrome);
    /// Complete a receive WQE (IBV_WC_RECV) with `status`: a flush or an error.
    void CompleteRecv(const RecvWqe& r, RdmaWcStatus status);

    // --- executing requests (rdma-qp-responder-execute.cc) ---

    Result ExecuteSend(const RoceFrame& frame);
    Result ExecuteWrite(const RoceFrame& frame);
    Result ExecuteRead(const RoceFrame& frame);
    /**
     * \brief The READ Response a READ request asks for, new or replayed for
     * a duplicate (IBA 9.7.5.1.1): from the request's PSN, its RETH address
     * and length, ceil(length / path MTU) packets (one for a zero-length READ).
     * \param frame the READ request
     * \param mr the region its rkey names
     * \return the Response, its msn left for the caller
     */
    Response ReadResponse(const RoceFrame& frame, Ptr<RdmaMemoryRegion> mr) const;
    Result ExecuteAtomic(const RoceFrame& frame);
    /// Check a remote access; on failure queue the access NAK and return false.
    bool CheckRemoteAccess(uint32_t rkey,
                           uint64_t va,
                           uint64_t length,
                           uint32_t flag,
                           uint32_t psn,
                           Ptr<RdmaMemoryRegion>& mr);
    /// Complete the receive WQE in use with an error status (before failing).
    void FailCurrentRecv(RdmaWcStatus status);
    /// Remember a READ/atomic for duplicates.
    void SaveResource(const Resource& r);
    /// \return READ/atomic responses not yet fully sent
    uint32_t PendingReadAtomic() const;

    RdmaQueuePair* m_qp;                        //!< owner
    uint32_t m_ePsn;                            //!< expected PSN
    uint32_t m_msn;                             //!< message sequence number (24 bits)
    bool m_nakSent;                             //!< a sequence NAK was sent for the current gap
    Time m_lastNak;                             //!< when the last sequence NAK was sent
    RdmaFifo<RecvWqe> m_rq;                   //!< posted receives
    bool m_inSend;                              //!< a multi-packet SEND is under way
    RecvWqe m_recv;                             //!< its receive WQE
    uint64_t m_recvOffset;                      //!< bytes placed into it
    bool m_inWrite;                             //!< a multi-packet WRITE is under way
    Ptr<RdmaMemoryRegion> m_writeMr;            //!< its region
    uint64_t m_writeVa;                         //!< next VA to write
    uint64_t m_writeRemaining;                  //!< bytes the RETH still announces
    uint64_t m_writeLength;                     //!< DMA length of the WRITE
    RdmaFifo<Response> m_responses;           //!< responses in PSN order
    RdmaFifo<Resource> m_resources;           //!< saved READ/atomics
    std::map<uint32_t, RoceFrame> m_outOfOrder; //!< kept packets (selective repeat)
    std::map<uint32_t, Time> m_arrivedAhead;    //!< PSNs received past the expected one, when
    uint32_t m_sackPending;                     //!< out-of-order arrivals no SACK reported yet
    uint32_t m_sackNewest;                      //!< the newest of them
    EventId m_sackTimer;                        //!< SackDelay after the first of them
    uint32_t m_unansweredBytes;                 //!< payload arrived since the last ACK/SACK/NAK
};

} // namespace ns3

#endif // RDMA_QP_RESPONDER_H
