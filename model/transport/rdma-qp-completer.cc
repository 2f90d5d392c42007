/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaQpRequester, part three: the completer. A response (ACK, NAK, RDMA
// READ response, Atomic Acknowledge) is handled in named steps, as the
// completer of Linux's soft RoCE (rxe) handles one: check its PSN against the
// outstanding requests, acknowledge what it covers, place a READ response's
// bytes or an atomic's original value, then complete the finished work
// requests in order (IBA 9.7.5.1: the requester's response handling). Sending
// is in rdma-qp-requester.cc, error and retry in rdma-qp-requester-retry.cc.

#include "rdma-qp-requester.h"
#include "rdma-queue-pair.h"

#include "ns3/log.h"
#include "ns3/rdma-opcode.h"

namespace ns3
{

// The completer's own log component (NS_LOG=RdmaQpCompleter), as rxe's
// completer logs apart from its requester.
NS_LOG_COMPONENT_DEFINE("RdmaQpCompleter");

namespace
{
/// \return whether op is one of the four RDMA READ response opcodes
bool
IsReadResponse(uint8_t op)
{
    return op == RC_RDMA_READ_RESPONSE_FIRST || op == RC_RDMA_READ_RESPONSE_MIDDLE ||
           op == RC_RDMA_READ_RESPONSE_LAST || op == RC_RDMA_READ_RESPONSE_ONLY;
}
} // namespace

void
RdmaQpRequester::ReceiveResponse(const RoceFrame& frame)
{
    QpState st = m_qp->GetState();
    if (st != IBV_QPS_RTS && st != IBV_QPS_SQD)
    {
        return;
    }
    const uint8_t op = frame.bth.GetOpcode();
    NS_LOG_LOGIC("QP " << m_qp->GetQpn() << " response " << RdmaOpcodeName(op) << " psn "
                       << frame.bth.GetPsn() << " syndrome " << +frame.aeth.GetSyndrome()
                       << " una " << m_state.una << " next " << m_state.nextPsn);
    if (IsReadResponse(op))
    {
        CompleteReadResponse(frame);
    }
    else if (op == RC_ATOMIC_ACKNOWLEDGE)
    {
        CompleteAtomicAck(frame);
    }
    else if (op == RC_ACKNOWLEDGE)
    {
        CompleteAck(frame.bth.GetPsn(),
                    frame.aeth,
                    frame.hasSackBitmap ? &frame.sackBitmap : nullptr);
    }
}

RdmaQpRequester::Wqe*
RdmaQpRequester::CheckReadResponse(uint32_t psn)
{
    Wqe* w = FindByPsn(psn);
    if (!w || w->done || w->wr.opcode != IBV_WR_RDMA_READ)
    {
        return nullptr; // duplicate or stray response
    }
    if (RecoverLostResponses(w->firstPsn))
    {
        return nullptr; // an earlier READ/atomic is unanswered
    }
    return w;
}

void
RdmaQpRequester::CompleteReadResponse(const RoceFrame& frame)
{
    const uint32_t psn = frame.bth.GetPsn();
    Wqe* w = CheckReadResponse(psn);
    if (!w)
    {
        return;
    }
    const int32_t d = PsnDiff(psn, w->nextRespPsn);
    if (d < 0)
    {
        return; // duplicate
    }
    if (d > 0)
    {
        if (m_qp->GetLossRecovery()->ResponderKeepsOutOfOrder())
        {
            KeepReadResponse(*w, psn, frame);
            return;
        }
        // Earlier responses were lost: ask again from the first missing one.
        AcknowledgeBefore(w->nextRespPsn);
        StartRetry(w->nextRespPsn);
        return;
    }
    AcknowledgeBefore(psn); // a response acknowledges every earlier request
    PlaceReadResponse(*w, psn, frame);
    AcknowledgeBefore(w->nextRespPsn);
    if (!w->done && !w->respKept.empty())
    {
        StartRetry(w->nextRespPsn); // the next gap is known lost
    }
    CompleteDone();
}

void
RdmaQpRequester::PlaceReadResponse(Wqe& w, uint32_t psn, const RoceFrame& frame)
{
    const uint64_t offset = uint64_t(PsnDiff(psn, w.firstPsn)) * m_qp->GetMtuBytes();
    if (frame.payload)
    {
        m_qp->GetMemory().Scatter(w.wr.sgList, offset, frame.payload);
        m_qp->MutableStats().payloadPacketsPlaced += frame.payload->GetSize() > 0;
    }
    w.nextRespPsn = PsnAdd(psn, 1);
    // Responses kept past a gap now follow in order.
    while (w.respKept.erase(w.nextRespPsn) > 0)
    {
        w.nextRespPsn = PsnAdd(w.nextRespPsn, 1);
    }
    if (PsnDiff(w.nextRespPsn, LastPsn(w)) > 0)
    {
        w.done = true;
        w.respKept.clear();
        --m_readAtomicOut;
    }
}

void
RdmaQpRequester::CompleteAtomicAck(const RoceFrame& frame)
{
    const uint32_t psn = frame.bth.GetPsn();
    Wqe* w = FindByPsn(psn);
    if (!w || w->done || !RdmaWrIsAtomic(w->wr.opcode) || RecoverLostResponses(psn))
    {
        return;
    }
    AcknowledgeBefore(psn);
    // The original remote value goes to the request's 8-byte local buffer.
    if (!w->wr.sgList.empty())
    {
        const RdmaSge& sge = w->wr.sgList.front();
        Ptr<RdmaMemoryRegion> mr = m_qp->GetMemory().LookupMr(sge.lkey);
        if (mr)
        {
            mr->WriteU64(sge.addr, frame.atomicAckEth.GetOriginalRemoteData());
        }
    }
    w->done = true;
    --m_readAtomicOut;
    AcknowledgeBefore(PsnAdd(psn, 1));
    CompleteDone();
}

void
RdmaQpRequester::CompleteAck(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap)
{
    switch (aeth.GetSyndromeType())
    {
    case AethHeader::ACK:
        if (PsnDiff(psn, m_state.una) < 0 || RecoverLostResponses(PsnAdd(psn, 1)))
        {
            return; // stale, or an earlier READ/atomic is unanswered
        }
        AcknowledgeBefore(PsnAdd(psn, 1));
        CompleteDone();
        return;
    case AethHeader::RNR_NAK:
        OnRnrNak(psn, aeth);
        return;
    case AethHeader::NAK:
        OnNak(psn, aeth, sackBitmap);
        return;
    default:
        return;
    }
}

} // namespace ns3
