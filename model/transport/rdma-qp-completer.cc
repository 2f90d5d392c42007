/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The completer takes a response (ACK, NAK, RDMA READ response, Atomic
// Acknowledge) in named steps, as the completer of Linux's soft RoCE (rxe)
// does: check its PSN against the outstanding requests, acknowledge what it
// covers, place a READ response's bytes or an atomic's original value, then
// complete the finished work requests in order (IBA 9.7.5.1). Below them:
// NAKs, then retry and the timers.

#include "rdma-qp-completer.h"

#include "rdma-queue-pair.h"

#include "ns3/log.h"
#include "ns3/rdma-opcode.h"
#include "ns3/simulator.h"

namespace ns3
{

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

/// \return the completion opcode of a send work request's opcode
RdmaWcOpcode
WcOpcodeOf(RdmaWrOpcode op)
{
    switch (op)
    {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
        return IBV_WC_RDMA_WRITE;
    case IBV_WR_RDMA_READ:
        return IBV_WC_RDMA_READ;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
        return IBV_WC_COMP_SWAP;
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        return IBV_WC_FETCH_ADD;
    default:
        return IBV_WC_SEND;
    }
}

/// Erase the elements of an ordered container that satisfy pred (C++20's std::erase_if).
template <class Container, class Pred>
void
EraseIf(Container& c, Pred pred)
{
    for (auto it = c.begin(); it != c.end();)
    {
        it = pred(*it) ? c.erase(it) : std::next(it);
    }
}
} // namespace

RdmaQpCompleter::RdmaQpCompleter(RdmaQueuePair* qp, RdmaSendQueue& sq)
    : m_qp(qp),
      m_sq(sq),
      m_retryLeft(7),
      m_rnrRetryLeft(7),
      m_rnrWaiting(false),
      m_retrying(false),
      m_retryFrom(0)
{
    m_timer.SetFunction(MakeCallback(&RdmaQpCompleter::OnTimeout, this));
    m_lossTimer.SetFunction(MakeCallback(&RdmaQpCompleter::OnLossTimer, this));
}

RdmaQpCompleter::~RdmaQpCompleter()
{
    Stop();
}

void
RdmaQpCompleter::Start()
{
    m_retryLeft = m_qp->Query().retryCnt;
    m_rnrRetryLeft = m_qp->Query().rnrRetry;
}

void
RdmaQpCompleter::Stop()
{
    m_timer.Cancel();
    m_lossTimer.Cancel();
    m_rnrTimer.Cancel();
    m_rnrWaiting = false;
    m_retrying = false;
}

void
RdmaQpCompleter::NotePacketSent(bool wasIdle)
{
    if (wasIdle)
    {
        m_progressAt = Simulator::Now(); // nothing was outstanding: the wait starts now
    }
    UpdateTimer(); // arm it, or lengthen it as the packets in flight grow
}

bool
RdmaQpCompleter::IsRnrWaiting() const
{
    return m_rnrWaiting;
}

const RdmaSendWr*
RdmaQpCompleter::PeekRead(uint32_t psn, uint64_t& offset) const
{
    const RdmaSendWqe* w = m_sq.FindByPsn(psn);
    if (!w || w->done || w->wr.opcode != IBV_WR_RDMA_READ)
    {
        return nullptr;
    }
    offset = uint64_t(PsnDiff(psn, w->firstPsn)) * m_qp->GetMtuBytes();
    return &w->wr;
}

void
RdmaQpCompleter::ReceiveResponse(const RoceFrame& frame)
{
    QpState st = m_qp->GetState();
    if (st != IBV_QPS_RTS && st != IBV_QPS_SQD)
    {
        return;
    }
    const uint8_t op = frame.bth.GetOpcode();
    NS_LOG_LOGIC("QP " << m_qp->GetQpn() << " response " << RdmaOpcodeName(op) << " psn "
                       << frame.bth.GetPsn() << " syndrome " << +frame.aeth.GetSyndrome() << " una "
                       << m_sq.state.una << " next " << m_sq.state.nextPsn);
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

RdmaSendWqe*
RdmaQpCompleter::CheckReadResponse(uint32_t psn)
{
    RdmaSendWqe* w = m_sq.FindByPsn(psn);
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
RdmaQpCompleter::CompleteReadResponse(const RoceFrame& frame)
{
    const uint32_t psn = frame.bth.GetPsn();
    RdmaSendWqe* w = CheckReadResponse(psn);
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
RdmaQpCompleter::PlaceReadResponse(RdmaSendWqe& w, uint32_t psn, const RoceFrame& frame)
{
    ScatterReadResponse(w, psn, frame);
    w.nextRespPsn = PsnAdd(psn, 1);
    // Responses kept past a gap now follow in order.
    while (w.respKept.erase(w.nextRespPsn) > 0)
    {
        w.nextRespPsn = PsnAdd(w.nextRespPsn, 1);
    }
    if (PsnDiff(w.nextRespPsn, w.LastPsn()) > 0)
    {
        w.done = true;
        w.respKept.clear();
        --m_sq.readAtomicOut;
    }
}

void
RdmaQpCompleter::ScatterReadResponse(const RdmaSendWqe& w, uint32_t psn, const RoceFrame& frame)
{
    if (frame.payload)
    {
        const uint64_t offset = uint64_t(PsnDiff(psn, w.firstPsn)) * m_qp->GetMtuBytes();
        m_qp->GetMemory().Scatter(w.wr.sgList, offset, frame.payload);
        m_qp->MutableStats().payloadPacketsPlaced += frame.payload->GetSize() > 0;
    }
}

void
RdmaQpCompleter::CompleteAtomicAck(const RoceFrame& frame)
{
    const uint32_t psn = frame.bth.GetPsn();
    RdmaSendWqe* w = m_sq.FindByPsn(psn);
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
    --m_sq.readAtomicOut;
    AcknowledgeBefore(PsnAdd(psn, 1));
    CompleteDone();
}

void
RdmaQpCompleter::CompleteAck(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap)
{
    switch (aeth.GetSyndromeType())
    {
    case AethHeader::ACK:
        if (PsnDiff(psn, m_sq.state.una) < 0 || RecoverLostResponses(PsnAdd(psn, 1)))
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

void
RdmaQpCompleter::Flush()
{
    Stop();
    RdmaFifo<RdmaSendWqe> sq;
    sq.swap(m_sq.wqes);
    m_sq.readAtomicOut = 0;
    for (const RdmaSendWqe& w : sq)
    {
        RdmaWorkCompletion wc;
        wc.wrId = w.wr.wrId;
        wc.status = IBV_WC_WR_FLUSH_ERR;
        wc.opcode = WcOpcodeOf(w.wr.opcode);
        wc.posted = w.posted;
        m_qp->Complete(true, wc);
    }
}

void
RdmaQpCompleter::AcknowledgeBefore(uint32_t psn)
{
    bool progress = PsnDiff(psn, m_sq.state.una) > 0;
    if (progress)
    {
        m_sq.state.una = psn;
        // Forward progress restores the retry budgets: retry_cnt and
        // rnr_retry bound consecutive retries (as Linux rxe counts them).
        m_retryLeft = m_qp->Query().retryCnt;
        m_rnrRetryLeft = m_qp->Query().rnrRetry;
        m_retrying = false;
        m_progressAt = Simulator::Now();
    }
    for (RdmaSendWqe& w : m_sq.wqes)
    {
        if (!w.assigned)
        {
            break;
        }
        if (!w.done && !w.readAtomic && PsnDiff(w.LastPsn(), psn) < 0)
        {
            w.done = true;
        }
    }
    if (progress)
    {
        auto before = [this](uint32_t p) { return PsnDiff(p, m_sq.state.una) < 0; };
        EraseIf(m_sq.state.sacked, before);
        EraseIf(m_sq.state.retransmit, before);
        EraseIf(m_sq.state.resent, [&before](const auto& e) { return before(e.first); });
        m_qp->GetLossRecovery()->OnAck(m_sq.state);
        UpdateTimer(true);
        UpdateLossTimer();
    }
    if (PsnDiff(m_sq.state.nextPsn, m_sq.state.una) < 0)
    {
        m_sq.state.nextPsn = m_sq.state.una;
    }
}

void
RdmaQpCompleter::CompleteDone()
{
    while (!m_sq.wqes.empty() && m_sq.wqes.front().done && m_qp->GetState() != IBV_QPS_ERR)
    {
        RdmaSendWqe w = m_sq.wqes.front();
        m_sq.wqes.pop_front();
        if (w.wr.sendFlags & IBV_SEND_SIGNALED)
        {
            RdmaWorkCompletion wc;
            wc.wrId = w.wr.wrId;
            wc.status = IBV_WC_SUCCESS;
            wc.opcode = WcOpcodeOf(w.wr.opcode);
            wc.byteLen = static_cast<uint32_t>(w.length);
            wc.posted = w.posted;
            m_qp->Complete(true, wc);
        }
    }
}

void
RdmaQpCompleter::FailHead(RdmaWcStatus status)
{
    NS_LOG_FUNCTION(this << RdmaWcStatusName(status));
    Stop();
    if (m_sq.wqes.empty())
    {
        m_qp->EnterError();
        return;
    }
    RdmaSendWqe w = m_sq.wqes.front();
    m_sq.wqes.pop_front();
    if (w.readAtomic && w.assigned && !w.done && m_sq.readAtomicOut > 0)
    {
        --m_sq.readAtomicOut;
    }
    m_qp->FailWorkRequest(true, w.wr.wrId, WcOpcodeOf(w.wr.opcode), w.posted, status);
}

Time
RdmaQpCompleter::LocalAckTimeout() const
{
    uint8_t timeout = m_qp->Query().timeout;
    // IBA 9.7.6.1.3: 4.096 us x 2^timeout; 0 = wait forever.
    return timeout == 0 ? Time(0) : NanoSeconds(4096) * (int64_t(1) << timeout);
}

void
RdmaQpCompleter::UpdateTimer(bool restart)
{
    const bool outstanding = HasUnknownFate();
    Time rto = m_qp->GetLossRecovery()->GetRetransmitTimeout(m_sq.state, LocalAckTimeout());
    if (rto.IsZero() || !outstanding || m_rnrWaiting)
    {
        m_timer.Cancel();
        return;
    }
    Time now = Simulator::Now();
    if (restart || !m_timer.IsRunning())
    {
        m_timerBase = now;
        m_timer.Restart(rto);
    }
    else if (m_timerBase + rto > m_timer.GetDeadline())
    {
        // More packets in flight than when it started: RTO_high now (IRN 3.1).
        m_timer.Restart(m_timerBase + rto - now);
    }
}

bool
RdmaQpCompleter::HasUnknownFate() const
{
    // Only PSNs whose fate is unknown need the timer: not those SACKed, nor
    // those known lost and queued to be sent again (trimmed, or NAKed), whose
    // resend re-arms it when it leaves. A resend that waits (for RCCC's
    // credit, or a window) is not a timeout.
    const RdmaRecoveryState& st = m_sq.state;
    uint64_t known = st.sacked.size() + st.retransmit.size();
    if (!st.sacked.empty() && !st.retransmit.empty())
    {
        // PSNs in both count once: look the smaller set's up in the larger.
        const bool fewerQueued = st.retransmit.size() <= st.sacked.size();
        const std::set<uint32_t>& few = fewerQueued ? st.retransmit : st.sacked;
        const std::set<uint32_t>& many = fewerQueued ? st.sacked : st.retransmit;
        for (uint32_t p : few)
        {
            known -= many.count(p);
        }
    }
    return PsnDiff(st.highestSent, st.una) > static_cast<int64_t>(known);
}

void
RdmaQpCompleter::OnTimeout()
{
    if (!HasUnknownFate())
    {
        return;
    }
    NS_LOG_INFO("QP " << m_qp->GetQpn() << " retransmission timeout at una " << m_sq.state.una);
    ++m_qp->MutableStats().timeouts;
    m_qp->TraceTimeout();
    m_retrying = false;
    Ptr<RdmaLossRecovery> policy = m_qp->GetLossRecovery();
    if (policy->ResponderKeepsOutOfOrder())
    {
        // The policy's own timer (IRN's RTO): the QP gives up after
        // retry_cnt + 1 local ACK timeouts without progress, as the verbs
        // timeout promises; timeout 0 = never.
        Time local = LocalAckTimeout();
        if (!local.IsZero() &&
            Simulator::Now() - m_progressAt >= local * int64_t(m_qp->Query().retryCnt + 1))
        {
            FailHead(IBV_WC_RETRY_EXC_ERR);
            return;
        }
    }
    else if (!ConsumeRetry())
    {
        FailHead(IBV_WC_RETRY_EXC_ERR);
        return;
    }
    policy->OnTimeout(m_sq.state);
    if (policy->ResponderKeepsOutOfOrder())
    {
        // A SACK says the responder has a READ/atomic request, not that its
        // response arrived: ask again for every unanswered one.
        for (const RdmaSendWqe& w : m_sq.wqes)
        {
            if (!w.assigned)
            {
                break;
            }
            if (w.readAtomic && !w.done && PsnDiff(w.nextRespPsn, m_sq.state.una) >= 0)
            {
                for (uint32_t p = w.firstPsn; PsnDiff(p, w.LastPsn()) <= 0; p = PsnAdd(p, 1))
                {
                    m_sq.state.sacked.erase(p);
                }
                m_sq.state.Lose(w.nextRespPsn);
            }
        }
    }
    UpdateTimer(true);
    m_qp->NotifyTx();
}

void
RdmaQpCompleter::UpdateLossTimer()
{
    const Time now = Simulator::Now();
    const Time deadline = m_qp->GetLossRecovery()->GetLossDeadline(m_sq.state, now);
    if (!deadline.IsStrictlyPositive())
    {
        m_lossTimer.Cancel();
        return;
    }
    if (!m_lossTimer.IsRunning() || m_lossTimer.GetDeadline() != deadline)
    {
        m_lossTimer.Restart(deadline - now);
    }
}

void
RdmaQpCompleter::OnLossTimer()
{
    m_qp->GetLossRecovery()->OnLossTimer(m_sq.state, Simulator::Now());
    UpdateLossTimer();
    m_qp->NotifyTx();
}

bool
RdmaQpCompleter::ConsumeRetry()
{
    if (m_retryLeft == 0)
    {
        return false;
    }
    --m_retryLeft;
    return true;
}

void
RdmaQpCompleter::StartRetry(uint32_t from)
{
    if (m_retrying)
    {
        // Responses sent after the lost ones keep arriving: one retry at a
        // time, until progress or a timeout (Linux rxe's started_retry).
        return;
    }
    NS_LOG_INFO("QP " << m_qp->GetQpn() << " responses from " << from << " lost: retry");
    if (!ConsumeRetry())
    {
        FailHead(IBV_WC_RETRY_EXC_ERR);
        return;
    }
    m_retrying = true;
    m_retryFrom = from;
    RewindTo(from);
    // The QP tells the NIC once the response has been handled.
}

void
RdmaQpCompleter::RewindTo(uint32_t psn)
{
    if (PsnDiff(psn, m_sq.state.una) < 0)
    {
        psn = m_sq.state.una;
    }
    if (m_qp->GetLossRecovery()->ResponderKeepsOutOfOrder())
    {
        // Selective repeat: the responder kept what followed; resend just this.
        m_sq.state.resent.erase(psn);
        m_sq.state.Lose(psn);
        return;
    }
    m_sq.state.nextPsn = psn;
}

void
RdmaQpCompleter::OnRnrNak(uint32_t psn, const AethHeader& aeth)
{
    ++m_qp->MutableStats().rnrNakReceived;
    if (PsnDiff(psn, m_sq.state.una) < 0 || RecoverLostResponses(psn))
    {
        return;
    }
    AcknowledgeBefore(psn);
    CompleteDone();
    if (m_qp->Query().rnrRetry != 7)
    {
        if (m_rnrRetryLeft == 0)
        {
            FailHead(IBV_WC_RNR_RETRY_EXC_ERR);
            return;
        }
        --m_rnrRetryLeft;
    }
    m_rnrWaiting = true;
    m_timer.Cancel();
    m_rnrTimer.Cancel();
    m_rnrTimer = Simulator::Schedule(AethHeader::RnrTimerCodeToTime(aeth.GetSyndromeValue()),
                                     &RdmaQpCompleter::OnRnrTimerExpired,
                                     this,
                                     psn);
}

void
RdmaQpCompleter::OnRnrTimerExpired(uint32_t psn)
{
    m_rnrWaiting = false;
    RewindTo(psn);
    UpdateTimer(true);
    m_qp->NotifyTx();
}

void
RdmaQpCompleter::OnTrimNak(uint32_t psn, const AethHeader& aeth)
{
    // The request at the MSN field's PSN was trimmed: lost, known at once,
    // and the network still carries the QP's packets, so no retry is
    // consumed (a go-back-N sequence NAK consumes one).
    ++m_qp->MutableStats().nakTrimReceived;
    m_qp->GetLossRecovery()->OnTrimmed(m_sq.state, psn, aeth.GetMsn() & 0xFFFFFF);
    UpdateLossTimer();
    // The fabric carried the request's headers and it is resent at once:
    // its retransmission timeout runs from now, as UEC's per-packet timers
    // do (else a packet trimmed again and again times out while its NAKs
    // keep coming).
    UpdateTimer(true);
}

void
RdmaQpCompleter::OnNak(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap)
{
    if (PsnDiff(psn, m_sq.state.una) < 0)
    {
        if (aeth.GetSyndromeValue() == AethHeader::NAK_TRIMMED)
        {
            // Overtaken by a later ACK (responses sprayed over paths): its
            // PSN is stale, but the request it names is still lost.
            OnTrimNak(psn, aeth);
        }
        return;
    }
    if (RecoverLostResponses(psn))
    {
        return;
    }
    AcknowledgeBefore(psn);
    CompleteDone();
    if (aeth.GetSyndromeValue() == AethHeader::NAK_PSN_SEQUENCE_ERROR)
    {
        OnSequenceNak(psn, aeth, sackBitmap);
        return;
    }
    if (aeth.GetSyndromeValue() == AethHeader::NAK_TRIMMED)
    {
        OnTrimNak(psn, aeth);
        return;
    }
    RdmaWcStatus status = IBV_WC_REM_OP_ERR;
    switch (aeth.GetSyndromeValue())
    {
    case AethHeader::NAK_INVALID_REQUEST:
        status = IBV_WC_REM_INV_REQ_ERR;
        break;
    case AethHeader::NAK_REMOTE_ACCESS_ERROR:
        status = IBV_WC_REM_ACCESS_ERR;
        break;
    case AethHeader::NAK_INVALID_RD_REQUEST:
        status = IBV_WC_REM_INV_RD_REQ_ERR;
        break;
    default:
        break;
    }
    FailHead(status);
}

void
RdmaQpCompleter::OnSequenceNak(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap)
{
    ++m_qp->MutableStats().nakSeqReceived;
    Ptr<RdmaLossRecovery> policy = m_qp->GetLossRecovery();
    bool sack = policy->ResponderKeepsOutOfOrder();
    // Go-back-N NAKs cost a retry, one per episode: a NAK for the PSN
    // a retry already resends from is not acted on again (as Linux
    // rxe's started_retry). Selective-repeat NAKs are SACKs, one per
    // out-of-order packet, and only timeouts count.
    // With the policy's NakInterval, a repeated NAK (the retry's head was
    // late again) goes back once more within the same retry.
    const bool repeat = !sack && m_retrying && psn == m_retryFrom;
    if (repeat && !policy->GetNakInterval().IsStrictlyPositive())
    {
        return;
    }
    if (!sack && !repeat)
    {
        if (!ConsumeRetry())
        {
            FailHead(IBV_WC_RETRY_EXC_ERR);
            return;
        }
        m_retrying = true;
        m_retryFrom = psn;
    }
    if (sack && sackBitmap)
    {
        policy->OnSackBitmap(m_sq.state, psn, aeth.GetMsn(), *sackBitmap, Simulator::Now());
    }
    else
    {
        policy->OnSequenceNak(m_sq.state, psn, aeth.GetMsn(), sack, Simulator::Now());
    }
    UpdateLossTimer();
    RdmaSendWqe* w = m_sq.FindByPsn(psn);
    if (w && w->wr.opcode == IBV_WR_RDMA_READ)
    {
        RewindTo(psn); // lost READ responses are asked for again
    }
}

bool
RdmaQpCompleter::RecoverLostResponses(uint32_t bound)
{
    for (RdmaSendWqe& w : m_sq.wqes)
    {
        if (!w.assigned || PsnDiff(w.firstPsn, bound) >= 0)
        {
            break;
        }
        if (w.readAtomic && !w.done)
        {
            // A response for a later PSN arrived first: this READ's or
            // atomic's responses were lost (IBA 9.7.5.1.5).
            uint32_t from = w.nextRespPsn;
            AcknowledgeBefore(from);
            CompleteDone();
            StartRetry(from);
            return true;
        }
    }
    return false;
}

void
RdmaQpCompleter::KeepReadResponse(RdmaSendWqe& w, uint32_t psn, const RoceFrame& frame)
{
    if (!w.respKept.insert(psn).second)
    {
        return; // kept already
    }
    ScatterReadResponse(w, psn, frame);
    AcknowledgeBefore(w.nextRespPsn);
    StartRetry(w.nextRespPsn);
}

} // namespace ns3
