/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "rdma-completion-queue.h"
#include "rdma-memory-region.h"
#include "rdma-qp-completer.h"
#include "rdma-qp-memory.h"
#include "rdma-qp-requester.h"
#include "rdma-qp-responder.h"
#include "rdma-send-queue.h"
#include "rdma-verbs.h"
#include "rdma-work-request.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/roce-frame.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class RdmaLossRecovery;

/**
 * \ingroup rdma
 * \brief An InfiniBand Reliable Connected queue pair (IBA Vol 1 chapters 9
 * and 10), as a RoCEv2 NIC runs it.
 *
 * The verbs side: Modify walks the state machine (IBA 10.3.1; the required
 * and optional attributes of each transition as rdma-core's ibv_modify_qp(3)
 * manual page lists them for RC),
 * PostSend/PostRecv queue work requests, completions go to the send and
 * receive CQs. The wire side: the NIC asks HasPacket/BuildNextPacket for
 * the next packet when its port can send, and hands every packet addressed
 * to this QPN to Receive. Inside, as in Linux rxe, an RdmaQpRequester
 * sends from the send queue (an RdmaSendQueue), an RdmaQpCompleter takes
 * the answers and completes what they answer, and an RdmaQpResponder runs
 * the receive side; they reach local memory through an RdmaQpMemory (scatter/gather and
 * the access checks of IBA 10.6.3); the loss-recovery policy is a pluggable
 * RdmaLossRecovery.
 *
 * Errors follow verbs: a call with bad arguments returns an errno value
 * (EINVAL, ENOMEM) and changes nothing; an error found while executing a
 * work request completes it with the status the spec gives, moves the QP to
 * ERR and flushes every other work request with IBV_WC_WR_FLUSH_ERR.
 */
class RdmaQueuePair : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /// Capabilities and resources given at creation (struct ibv_qp_init_attr).
    struct InitAttr
    {
        Ptr<RdmaProtectionDomain> pd;    //!< protection domain
        Ptr<RdmaCompletionQueue> sendCq; //!< CQ of send work requests
        Ptr<RdmaCompletionQueue> recvCq; //!< CQ of receive work requests
        uint32_t maxSendWr{1024};        //!< send queue depth
        uint32_t maxRecvWr{1024};        //!< receive queue depth
        uint8_t maxRdAtomicLimit{16};    //!< device limit of max_rd_atomic / max_dest_rd_atomic
    };

    /**
     * \brief Set up the QP (done by RdmaNic::CreateQp).
     * \param qpn the QP number (24 bits)
     * \param init resources
     * \param lookupMr finds a memory region by L_Key or R_Key (null if none)
     * \param txReady tells the NIC this QP has a packet to send
     */
    void Initialize(uint32_t qpn,
                    const InitAttr& init,
                    std::function<Ptr<RdmaMemoryRegion>(uint32_t)> lookupMr,
                    std::function<void(Ptr<RdmaQueuePair>)> txReady);

    /**
     * \brief ibv_modify_qp.
     * \param attr attribute values
     * \param mask RdmaQpAttrMask bits saying which values to apply
     * \return 0, or EINVAL for an illegal transition, a missing required or
     *         a disallowed attribute, or an out-of-range value (QP unchanged)
     */
    int Modify(const RdmaQpAttr& attr, uint32_t mask);
    /// \return the current attributes (ibv_query_qp)
    const RdmaQpAttr& Query() const;
    /// \return the current state
    QpState GetState() const;
    /// \return the QP number
    uint32_t GetQpn() const;

    /**
     * \brief ibv_post_send.
     * \param wr the work request
     * \return 0; EINVAL before RTS or for an opcode RC does not support;
     *         ENOMEM when the send queue is full. In ERR the request is
     *         accepted and flushed.
     */
    int PostSend(const RdmaSendWr& wr);
    /**
     * \brief ibv_post_recv.
     * \param wr the work request
     * \return 0; EINVAL in RESET; ENOMEM when the receive queue is full.
     *         In ERR the request is accepted and flushed.
     */
    int PostRecv(const RdmaRecvWr& wr);

    /// \return whether the QP has a packet ready to send now
    bool HasPacket() const;
    /**
     * \return whether the next packet BuildNextPacket() builds is a response
     * (ACK, NAK, READ response, atomic ACK), which no congestion window limits
     */
    bool HasResponse() const;
    /// \return bytes of SEND and WRITE messages posted and not yet sent
    /// once (RdmaQpRequester::GetUnsentBytes)
    uint64_t GetUnsentBytes() const;
    /// \return bytes of PSNs queued to be sent again (RdmaQpRequester::GetResendBytes)
    uint64_t GetResendBytes() const;
    /**
     * \brief Fill the transport part of the next packet (BTH, extension
     * headers, payload); the NIC adds the addresses and builds the frame.
     * \param frame receives the fields
     * \return false if there is nothing to send
     */
    bool BuildNextPacket(RoceFrame& frame);
    /**
     * \brief A packet whose DestQP is this QP arrived (ICRC already checked).
     * \param frame the parsed packet
     */
    void Receive(const RoceFrame& frame);
    /**
     * \brief Take a frame that a switch trimmed to its headers (its NIC
     * knows it by its DSCP: RdmaNic's TrimmedDscp). A request goes to the
     * responder (RdmaQpResponder::ReceiveTrimmed: a NAK for its PSN); a
     * trimmed READ response is counted and left to the READ's own recovery
     * (the gap the next response shows, or the timeout), as a lost one is.
     * \param frame the trimmed frame, parsed
     */
    void ReceiveTrimmed(const RoceFrame& frame);

    /// \return the loss-recovery policy
    Ptr<RdmaLossRecovery> GetLossRecovery() const;

    /**
     * \brief Report every local memory read the QP makes to build a packet
     * (the payload a requester gathers, the bytes a READ response carries),
     * so the NIC pipeline can time their MPT/MTT lookups and DMA. Called
     * with the region's key, the first virtual address and the bytes, once
     * per contiguous span; null (the default) reports nothing.
     * \param cb the callback
     */
    void SetMemoryReadCallback(Callback<void, uint32_t, uint64_t, uint32_t> cb);

    /**
     * Counters of one QP. The reordering ones are the responder's
     * (RdmaQpResponder): a late request arrived for the first time after
     * requests with higher PSNs; its depth is how many of those had arrived
     * (packets) and how long before it the first of them did (time), each
     * also counted in a histogram of REORDER_BINS fixed bins (ReorderBinName).
     */
    struct Stats
    {
        /// Bins of each reorder-depth histogram.
        static constexpr uint32_t REORDER_BINS = 8;

        uint64_t packetsSent{0};     //!< every packet built
        uint64_t retransmissions{0}; //!< requester packets sent again
        uint64_t timeouts{0};        //!< local ACK timeouts
        uint64_t nakSeqSent{0};      //!< PSN sequence error NAKs sent
        uint64_t nakSeqReceived{0};  //!< PSN sequence error NAKs received
        uint64_t trimmedReceived{0}; //!< requests that arrived trimmed to their headers
        uint64_t nakTrimSent{0};     //!< trimmed-packet NAKs sent (AethHeader::NAK_TRIMMED)
        uint64_t nakTrimReceived{0}; //!< trimmed-packet NAKs received
        uint64_t rnrNakSent{0};      //!< RNR NAKs sent
        uint64_t rnrNakReceived{0};  //!< RNR NAKs received
        uint64_t duplicates{0};      //!< duplicate requests received
        uint64_t outOfSequence{0};   //!< out-of-sequence requests received
        /// packets whose payload was placed the first time (requests with a
        /// payload executed at the responder, READ responses taken at the
        /// requester): the data delivered, each PSN once, without resent copies
        uint64_t payloadPacketsPlaced{0};
        /// requests received again: a copy of their PSN had arrived before
        uint64_t spuriousRetransmissions{0};
        uint64_t latePackets{0};      //!< requests that arrived after higher PSNs (reordered)
        uint64_t lateDepthPackets{0}; //!< their depths summed, packets
        uint64_t lateDepthNs{0};      //!< their depths summed, ns
        uint64_t lateDepthPacketsBins[REORDER_BINS]{}; //!< depth histogram, packets
        uint64_t lateDepthTimeBins[REORDER_BINS]{};    //!< depth histogram, time

        /// \brief Add another QP's counts. \param o the other \return this
        Stats& operator+=(const Stats& o);
        /**
         * \brief Apply op(mine, theirs) to every counter.
         * \param o the other counts \param op a callable (uint64_t&, uint64_t)
         */
        template <class Op>
        void Combine(const Stats& o, Op op)
        {
            for (auto m : {&Stats::packetsSent,
                           &Stats::retransmissions,
                           &Stats::timeouts,
                           &Stats::nakSeqSent,
                           &Stats::nakSeqReceived,
                           &Stats::trimmedReceived,
                           &Stats::nakTrimSent,
                           &Stats::nakTrimReceived,
                           &Stats::rnrNakSent,
                           &Stats::rnrNakReceived,
                           &Stats::duplicates,
                           &Stats::outOfSequence,
                           &Stats::payloadPacketsPlaced,
                           &Stats::spuriousRetransmissions,
                           &Stats::latePackets,
                           &Stats::lateDepthPackets,
                           &Stats::lateDepthNs})
            {
                op(this->*m, o.*m);
            }
            for (uint32_t b = 0; b < REORDER_BINS; ++b)
            {
                op(lateDepthPacketsBins[b], o.lateDepthPacketsBins[b]);
                op(lateDepthTimeBins[b], o.lateDepthTimeBins[b]);
            }
        }
        /**
         * \brief Count a late request.
         * \param packets requests with higher PSNs that arrived before it (>= 1)
         * \param time since the first of them arrived
         */
        void RecordLate(uint32_t packets, Time time);
        /**
         * \param packets a depth, packets (>= 1)
         * \return its bin: 1, 2, 3-4, 5-8, 9-16, 17-32, 33-64, 65 and more
         */
        static uint32_t PacketsBin(uint32_t packets);
        /**
         * \param time a depth
         * \return its bin: below 1 us, 1-2, 2-4, 4-8, 8-16, 16-32, 32-64 us,
         *         64 us and more (each bin holds its lower bound)
         */
        static uint32_t TimeBin(Time time);
        /**
         * \param bin a bin
         * \param time the time histogram's (else the packets')
         * \return its name: "1", "2", "3-4", ..., "65+"; "0-1", "1-2", ..., "64+" (us)
         */
        static std::string BinName(uint32_t bin, bool time);
    };

    /// \return the counters
    const Stats& GetStats() const;

    /// Signature of the PacketTx trace: opcode, PSN, retransmission.
    typedef void (*PacketTracedCallback)(uint8_t opcode, uint32_t psn, bool retransmission);
    /// Signature of the Timeout trace (the local ACK timer expired, IBA 9.7.6.1.3).
    typedef void (*TimeoutTracedCallback)();
    /// Signature of the Lost trace: a PSN the loss recovery found lost and
    /// queued to be sent again.
    typedef void (*LostTracedCallback)(uint32_t psn);
    /// Signature of the StateChange trace.
    typedef void (*StateTracedCallback)(QpState from, QpState to);

    // --- used by RdmaQpRequester, RdmaQpCompleter and RdmaQpResponder ---

    /**
     * \brief Put a completion on a CQ; an overrun moves the QP to ERR.
     * \param send true for the send CQ
     * \param wc the completion
     */
    void Complete(bool send, RdmaWorkCompletion wc);
    /**
     * \brief A work request failed: complete it with `status` (always, even
     * if unsignaled), move to ERR and flush the rest (IBA 10.7.3.1).
     * \param send whether the failing request is a send request
     * \param wrId its id
     * \param opcode its completion opcode
     * \param posted when it was posted
     * \param status the error
     */
    void FailWorkRequest(bool send,
                         uint64_t wrId,
                         RdmaWcOpcode opcode,
                         Time posted,
                         RdmaWcStatus status);
    /// Move to ERR and flush both queues.
    void EnterError();
    /// Tell the NIC a packet may be ready.
    void NotifyTx();
    /// \return the protection domain
    Ptr<RdmaProtectionDomain> GetPd() const;
    /// \return the path MTU, bytes
    uint32_t GetMtuBytes() const;
    /// \return the counters, writable
    Stats& MutableStats();
    /// Fire the Timeout trace.
    void TraceTimeout();
    /// Fire the PacketTx trace.
    void TracePacketTx(uint8_t opcode, uint32_t psn, bool retransmission);

    /**
     * \brief Receive WQEs for the NIC's address translation before placement.
     * \param index 0 = the next receive WQE a SEND will take, 1 the one after, ...
     * \return its scatter list, or null if fewer are posted
     */
    const std::vector<RdmaSge>* PeekRecvSgList(uint32_t index) const;
    /**
     * \brief Where a READ response will be placed, for the NIC's address
     * translation before placement.
     * \param psn the response's PSN
     * \param offset receives the bytes into the READ's scatter list
     * \return the outstanding READ's scatter list, or null (duplicate, stray)
     */
    const std::vector<RdmaSge>* PeekReadPlacement(uint32_t psn, uint64_t& offset) const;
    /// \return the QP's local memory access (scatter/gather, access checks)
    RdmaQpMemory& GetMemory();
    /// \return the QP's local memory access (scatter/gather, access checks)
    const RdmaQpMemory& GetMemory() const;

  protected:
    void DoDispose() override;

  private:
    /// Check mask and values of a transition (no change made).
    int CheckModify(const RdmaQpAttr& attr, uint32_t mask) const;
    /// Apply the masked attributes.
    void ApplyAttributes(const RdmaQpAttr& attr, uint32_t mask);
    /// Stop the completer's timers, forget the send queue (RESET, dispose).
    void ResetSendQueue();
    /// Change state, firing the trace.
    void SetState(QpState state);

    uint32_t m_qpn;                                     //!< QP number
    InitAttr m_init;                                    //!< creation resources
    RdmaQpAttr m_attr;                                  //!< current attributes
    std::function<void(Ptr<RdmaQueuePair>)> m_txReady; //!< NIC notification
    RdmaQpMemory m_memory;                              //!< local memory access
    RdmaSendQueue m_sq;                                 //!< send WQEs and PSN state
    RdmaQpCompleter m_completer;                        //!< answers to the send side
    RdmaQpRequester m_requester;                        //!< send side
    RdmaQpResponder m_responder;                        //!< receive side
    Ptr<RdmaLossRecovery> m_recovery;                   //!< loss-recovery policy
    uint32_t m_ackReqInterval;                          //!< AckReq every N packets
    Stats m_stats;                                      //!< counters
    TracedCallback<uint8_t, uint32_t, bool> m_packetTx; //!< PacketTx trace
    TracedCallback<QpState, QpState> m_stateChange;     //!< StateChange trace
    TracedCallback<> m_timeoutTrace;                    //!< Timeout trace
    TracedCallback<uint32_t> m_lostTrace;               //!< Lost trace

    friend class RdmaQpRequester;
    friend class RdmaQpResponder;
};

} // namespace ns3

#endif // RDMA_QUEUE_PAIR_H
