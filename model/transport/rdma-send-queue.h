/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SEND_QUEUE_H
#define RDMA_SEND_QUEUE_H

#include "rdma-loss-recovery.h"
#include "rdma-work-request.h"

#include "ns3/nstime.h"
#include "ns3/rdma-fifo.h"

#include <set>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A send work request in an RC QP's send queue, with the PSNs it
 * was given and how far its answer has come.
 */
struct RdmaSendWqe
{
    RdmaSendWr wr;           //!< the request
    Time posted;             //!< when posted
    uint64_t length{0};      //!< message bytes (8 for an atomic)
    uint32_t packets{1};     //!< PSNs the message uses
    uint32_t firstPsn{0};    //!< first PSN (valid once assigned)
    bool assigned{false};    //!< PSNs assigned (first packet sent)
    bool done{false};        //!< acknowledged / responded
    bool readAtomic{false};  //!< READ or atomic
    uint32_t nextRespPsn{0}; //!< READ: next response PSN expected
    /// READ, selective repeat: responses kept (placed) past a missing one
    std::set<uint32_t> respKept;

    /// \return the last PSN the request uses (24-bit, wraps)
    uint32_t LastPsn() const;
    /// \return whether psn is one of the request's PSNs (assigned requests only)
    bool HoldsPsn(uint32_t psn) const;
};

/**
 * \ingroup rdma
 * \brief The send queue of an RC QP as its requester and completer share
 * it, as Linux rxe's requester and completer share qp->sq: the posted send
 * WQEs not yet completed, in posting order; the PSN state the
 * loss-recovery policy reads and writes; and the READ/atomic requests sent
 * and not yet answered (bounded by max_rd_atomic, IBA 9.7.7.2.2). The
 * requester (RdmaQpRequester) appends and sends; the completer
 * (RdmaQpCompleter) acknowledges, retries and removes.
 */
struct RdmaSendQueue
{
    RdmaFifo<RdmaSendWqe> wqes; //!< posted, not yet completed, oldest first
    RdmaRecoveryState state;    //!< PSN state shared with the loss-recovery policy
    uint32_t readAtomicOut{0};  //!< READ/atomic requests outstanding

    /**
     * \brief Start sending from `sqPsn` (RTR -> RTS): every PSN mark there.
     * \param sqPsn the QP's sq_psn (taken modulo 2^24)
     */
    void Start(uint32_t sqPsn);
    /// Forget every request and PSN (the QP moves to RESET).
    void Clear();
    /**
     * \param psn a PSN
     * \return the sent request whose PSN range holds psn, or null
     */
    RdmaSendWqe* FindByPsn(uint32_t psn);
    /// \copydoc FindByPsn
    const RdmaSendWqe* FindByPsn(uint32_t psn) const;
    /// \return the oldest request not yet sent, or null
    RdmaSendWqe* FirstUnassigned();
    /// \copydoc FirstUnassigned
    const RdmaSendWqe* FirstUnassigned() const;
};

} // namespace ns3

#endif // RDMA_SEND_QUEUE_H
