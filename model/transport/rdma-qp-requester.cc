/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-qp-requester.h"

#include "rdma-queue-pair.h"

#include "ns3/log.h"
#include "ns3/rdma-opcode.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQpRequester");

namespace
{
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

RdmaQpRequester::RdmaQpRequester(RdmaQueuePair* qp)
    : m_qp(qp),
      m_sinceAckReq(0),
      m_readAtomicOut(0),
      m_retryLeft(7),
      m_rnrRetryLeft(7),
      m_rnrWaiting(false),
      m_retrying(false),
      m_retryFrom(0)
{
    m_timer.SetFunction(MakeCallback(&RdmaQpRequester::OnTimeout, this));
    m_lossTimer.SetFunction(MakeCallback(&RdmaQpRequester::OnLossTimer, this));
}

RdmaQpRequester::~RdmaQpRequester()
{
    Stop();
}

void
RdmaQpRequester::Start(uint32_t sqPsn)
{
    m_state = RdmaRecoveryState();
    m_state.una = m_state.nextPsn = m_state.highestSent = PsnMod(sqPsn);
    m_retryLeft = m_qp->Query().retryCnt;
    m_rnrRetryLeft = m_qp->Query().rnrRetry;
}

void
RdmaQpRequester::Stop()
{
    m_timer.Cancel();
    m_lossTimer.Cancel();
    m_rnrTimer.Cancel();
    m_rnrWaiting = false;
    m_retrying = false;
}

void
RdmaQpRequester::Reset()
{
    Stop();
    m_sq.clear();
    m_state = RdmaRecoveryState();
    m_sinceAckReq = 0;
    m_readAtomicOut = 0;
}

void
RdmaQpRequester::Flush()
{
    Stop();
    RdmaFifo<Wqe> sq;
    sq.swap(m_sq);
    m_readAtomicOut = 0;
    for (const Wqe& w : sq)
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
RdmaQpRequester::Post(const RdmaSendWr& wr)
{
    Wqe w;
    w.wr = wr;
    w.posted = Simulator::Now();
    w.readAtomic = wr.opcode == IBV_WR_RDMA_READ || RdmaWrIsAtomic(wr.opcode);
    w.length = RdmaWrIsAtomic(wr.opcode) ? 8 : wr.TotalLength();
    w.packets = RdmaWrIsAtomic(wr.opcode) ? 1 : PacketsFor(w.length);
    m_sq.push_back(w);
    m_qp->NotifyTx();
}

uint32_t
RdmaQpRequester::GetOutstanding() const
{
    return m_sq.size();
}

const RdmaRecoveryState&
RdmaQpRequester::GetRecoveryState() const
{
    return m_state;
}

uint32_t
RdmaQpRequester::PacketsFor(uint64_t length) const
{
    uint32_t mtu = m_qp->GetMtuBytes();
    return length == 0 ? 1 : static_cast<uint32_t>((length + mtu - 1) / mtu);
}

uint32_t
RdmaQpRequester::LastPsn(const Wqe& w)
{
    return PsnAdd(w.firstPsn, w.packets - 1);
}

const RdmaSendWr*
RdmaQpRequester::PeekRead(uint32_t psn, uint64_t& offset) const
{
    const Wqe* w = const_cast<RdmaQpRequester*>(this)->FindByPsn(psn);
    if (!w || w->done || w->wr.opcode != IBV_WR_RDMA_READ)
    {
        return nullptr;
    }
    offset = uint64_t(PsnDiff(psn, w->firstPsn)) * m_qp->GetMtuBytes();
    return &w->wr;
}

RdmaQpRequester::Wqe*
RdmaQpRequester::FindByPsn(uint32_t psn)
{
    for (Wqe& w : m_sq)
    {
        if (!w.assigned)
        {
            break;
        }
        if (PsnDiff(psn, w.firstPsn) >= 0 && PsnDiff(psn, LastPsn(w)) <= 0)
        {
            return &w;
        }
    }
    return nullptr;
}

bool
RdmaQpRequester::ReadAtomicAllowed(const Wqe& w) const
{
    if (w.readAtomic && m_readAtomicOut >= m_qp->Query().maxRdAtomic)
    {
        return false;
    }
    // IBV_SEND_FENCE: wait until earlier READ/atomics have completed.
    return !((w.wr.sendFlags & IBV_SEND_FENCE) && m_readAtomicOut > 0);
}

bool
RdmaQpRequester::NextPsnToSend(uint32_t& psn, bool& retransmission) const
{
    if (m_rnrWaiting)
    {
        return false;
    }
    QpState st = m_qp->GetState();
    if (st != IBV_QPS_RTS && st != IBV_QPS_SQD)
    {
        return false;
    }
    // Selective repeat: queued retransmissions first, oldest PSN first.
    bool found = false;
    for (uint32_t p : m_state.retransmit)
    {
        if (PsnDiff(p, m_state.una) >= 0 && (!found || PsnDiff(p, psn) < 0))
        {
            psn = p;
            found = true;
        }
    }
    if (found)
    {
        retransmission = true;
        return true;
    }
    psn = m_state.nextPsn;
    if (PsnDiff(psn, m_state.highestSent) < 0)
    {
        retransmission = true; // go-back-N: resending what was sent before
        return true;
    }
    retransmission = false;
    uint32_t window = m_qp->GetLossRecovery()->GetWindowPackets(m_qp->GetMtuBytes());
    bool windowOpen =
        window == 0 || PsnDiff(m_state.highestSent, m_state.una) < static_cast<int32_t>(window);
    if (const_cast<RdmaQpRequester*>(this)->FindByPsn(psn))
    {
        return windowOpen; // the rest of a message under way
    }
    if (st == IBV_QPS_SQD)
    {
        return false; // drained: no new request starts
    }
    const Wqe* next = nullptr;
    for (const Wqe& w : m_sq)
    {
        if (!w.assigned)
        {
            next = &w;
            break;
        }
    }
    return next && ReadAtomicAllowed(*next) && windowOpen;
}

bool
RdmaQpRequester::HasPacket() const
{
    uint32_t psn = 0;
    bool retransmission = false;
    return NextPsnToSend(psn, retransmission);
}

bool
RdmaQpRequester::ResendFromSet(uint32_t& psn)
{
    Wqe* r = FindByPsn(psn);
    if (r && r->wr.opcode == IBV_WR_RDMA_READ)
    {
        // One request stands for the READ's response PSNs: ask once, from
        // the first response still missing.
        for (uint32_t p = r->firstPsn; PsnDiff(p, LastPsn(*r)) <= 0; p = PsnAdd(p, 1))
        {
            m_state.retransmit.erase(p);
            m_state.resent[p] = m_state.highestSent;
        }
        if (r->done)
        {
            return false;
        }
        psn = r->nextRespPsn;
    }
    m_state.resent[psn] = m_state.highestSent;
    return true;
}

RdmaQpRequester::Wqe*
RdmaQpRequester::AssignNext(uint32_t psn)
{
    Wqe* w = nullptr;
    for (Wqe& c : m_sq)
    {
        if (!c.assigned)
        {
            w = &c;
            break;
        }
    }
    w->assigned = true;
    w->firstPsn = psn;
    w->nextRespPsn = psn;
    if (w->readAtomic)
    {
        ++m_readAtomicOut;
    }
    return w;
}

bool
RdmaQpRequester::BuildPacket(RoceFrame& frame)
{
    uint32_t psn = 0;
    bool retransmission = false;
    if (!NextPsnToSend(psn, retransmission))
    {
        return false;
    }
    bool fromSet = m_state.retransmit.erase(psn) > 0;
    if (fromSet && !ResendFromSet(psn))
    {
        return BuildPacket(frame);
    }
    Wqe* w = retransmission ? nullptr : FindByPsn(psn);
    if (!retransmission && !w)
    {
        w = AssignNext(psn);
    }
    else if (retransmission)
    {
        w = FindByPsn(psn);
        if (!w || w->done)
        {
            // Acknowledged since it was queued: move on.
            if (!fromSet)
            {
                m_state.nextPsn = PsnAdd(psn, 1);
            }
            return BuildPacket(frame);
        }
    }
    if (m_state.highestSent == m_state.una)
    {
        m_progressAt = Simulator::Now(); // nothing was outstanding: the wait starts now
    }
    FillPacket(*w, psn, frame);
    // A READ request stands for all its response PSNs.
    uint32_t after = (w->wr.opcode == IBV_WR_RDMA_READ) ? PsnAdd(LastPsn(*w), 1) : PsnAdd(psn, 1);
    if (!fromSet)
    {
        m_state.nextPsn = after;
    }
    if (PsnDiff(after, m_state.highestSent) > 0)
    {
        m_state.highestSent = after;
    }
    if (retransmission)
    {
        ++m_qp->MutableStats().retransmissions;
    }
    m_qp->TracePacketTx(frame.bth.GetOpcode(), psn, retransmission);
    UpdateTimer(); // arm it, or lengthen it as the packets in flight grow
    return true;
}

void
RdmaQpRequester::FillPacket(Wqe& w, uint32_t psn, RoceFrame& frame)
{
    const RdmaQpAttr& attr = m_qp->Query();
    const uint32_t idx = PsnDiff(psn, w.firstPsn);
    frame.bth = BthHeader();
    frame.bth.SetDestQp(attr.destQpNum);
    frame.bth.SetPsn(psn);
    frame.payload = nullptr;
    if (w.wr.opcode == IBV_WR_RDMA_READ)
    {
        FillReadRequest(w, idx, frame);
    }
    else if (RdmaWrIsAtomic(w.wr.opcode))
    {
        FillAtomicRequest(w.wr, frame);
    }
    else
    {
        FillSendOrWrite(w, idx, frame);
        return;
    }
    frame.bth.SetAckReq(true); // a READ or atomic is answered, never coalesced
    NoteAckRequested();
}

void
RdmaQpRequester::FillReadRequest(const Wqe& w, uint32_t idx, RoceFrame& frame) const
{
    const uint32_t mtu = m_qp->GetMtuBytes();
    const uint64_t offset = uint64_t(idx) * mtu;
    frame.bth.SetOpcode(RC_RDMA_READ_REQUEST);
    // A retried request asks only up to the first response kept after
    // this PSN (IBA 9.7.5.1.5: a retry may re-read any part of the READ).
    uint64_t end = w.length;
    for (uint32_t kept : w.respKept)
    {
        int32_t k = PsnDiff(kept, w.firstPsn);
        if (k > static_cast<int32_t>(idx))
        {
            end = std::min<uint64_t>(end, uint64_t(k) * mtu);
        }
    }
    frame.reth.SetVirtualAddress(w.wr.remoteAddr + offset);
    frame.reth.SetRkey(w.wr.rkey);
    frame.reth.SetDmaLength(static_cast<uint32_t>(end - offset));
}

void
RdmaQpRequester::FillAtomicRequest(const RdmaSendWr& wr, RoceFrame& frame)
{
    const bool cs = wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
    frame.bth.SetOpcode(cs ? RC_COMPARE_SWAP : RC_FETCH_ADD);
    frame.atomicEth.SetVirtualAddress(wr.remoteAddr);
    frame.atomicEth.SetRkey(wr.rkey);
    frame.atomicEth.SetSwapOrAdd(cs ? wr.swap : wr.compareAdd);
    frame.atomicEth.SetCompare(cs ? wr.compareAdd : 0);
}

uint8_t
RdmaQpRequester::SendOrWriteOpcode(RdmaWrOpcode wr, bool first, bool last)
{
    const bool imm = wr == IBV_WR_SEND_WITH_IMM || wr == IBV_WR_RDMA_WRITE_WITH_IMM;
    const bool inv = wr == IBV_WR_SEND_WITH_INV;
    if (wr == IBV_WR_SEND || wr == IBV_WR_SEND_WITH_IMM || inv)
    {
        if (first && last)
        {
            return imm ? RC_SEND_ONLY_WITH_IMMEDIATE
                       : (inv ? RC_SEND_ONLY_WITH_INVALIDATE : RC_SEND_ONLY);
        }
        if (last)
        {
            return imm ? RC_SEND_LAST_WITH_IMMEDIATE
                       : (inv ? RC_SEND_LAST_WITH_INVALIDATE : RC_SEND_LAST);
        }
        return first ? RC_SEND_FIRST : RC_SEND_MIDDLE;
    }
    if (first && last)
    {
        return imm ? RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : RC_RDMA_WRITE_ONLY;
    }
    if (last)
    {
        return imm ? RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : RC_RDMA_WRITE_LAST;
    }
    return first ? RC_RDMA_WRITE_FIRST : RC_RDMA_WRITE_MIDDLE;
}

void
RdmaQpRequester::FillSendOrWrite(const Wqe& w, uint32_t idx, RoceFrame& frame)
{
    const RdmaSendWr& wr = w.wr;
    const uint32_t mtu = m_qp->GetMtuBytes();
    const uint64_t offset = uint64_t(idx) * mtu;
    const bool last = idx + 1 == w.packets;
    const uint8_t op = SendOrWriteOpcode(wr.opcode, idx == 0, last);
    if (wr.opcode == IBV_WR_RDMA_WRITE || wr.opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
    {
        frame.reth.SetVirtualAddress(wr.remoteAddr);
        frame.reth.SetRkey(wr.rkey);
        frame.reth.SetDmaLength(static_cast<uint32_t>(w.length));
    }
    frame.bth.SetOpcode(op);
    frame.immDt.SetImmediateData(wr.immData);
    frame.ieth.SetRkey(wr.invalidateRkey);
    frame.bth.SetSolicitedEvent(last && (wr.sendFlags & IBV_SEND_SOLICITED));
    const uint32_t chunk = static_cast<uint32_t>(std::min<uint64_t>(mtu, w.length - offset));
    frame.payload = m_qp->GetMemory().Gather(wr.sgList, offset, chunk, frame.payloadZeros);
    const bool ackReq = last || AckRequestDue();
    if (ackReq)
    {
        NoteAckRequested();
    }
    frame.bth.SetAckReq(ackReq);
}

bool
RdmaQpRequester::AckRequestDue()
{
    // BDP-FC reopens only on ACKs: ask for one at least every quarter of the cap.
    uint32_t interval = m_qp->m_ackReqInterval;
    const uint32_t window = m_qp->GetLossRecovery()->GetWindowPackets(m_qp->GetMtuBytes());
    if (window > 0)
    {
        interval = std::min(interval, std::max<uint32_t>(window / 4, 1));
    }
    const Time period = m_qp->GetLossRecovery()->GetAckRequestPeriod();
    return ++m_sinceAckReq >= interval ||
           (period.IsStrictlyPositive() && Simulator::Now() - m_lastAckReqAt >= period);
}

void
RdmaQpRequester::NoteAckRequested()
{
    m_sinceAckReq = 0;
    m_lastAckReqAt = Simulator::Now();
}

void
RdmaQpRequester::AcknowledgeBefore(uint32_t psn)
{
    bool progress = PsnDiff(psn, m_state.una) > 0;
    if (progress)
    {
        m_state.una = psn;
        // Forward progress restores the retry budgets: retry_cnt and
        // rnr_retry bound consecutive retries (as Linux rxe counts them).
        m_retryLeft = m_qp->Query().retryCnt;
        m_rnrRetryLeft = m_qp->Query().rnrRetry;
        m_retrying = false;
        m_progressAt = Simulator::Now();
    }
    for (Wqe& w : m_sq)
    {
        if (!w.assigned)
        {
            break;
        }
        if (!w.done && !w.readAtomic && PsnDiff(LastPsn(w), psn) < 0)
        {
            w.done = true;
        }
    }
    if (progress)
    {
        auto before = [this](uint32_t p) { return PsnDiff(p, m_state.una) < 0; };
        EraseIf(m_state.sacked, before);
        EraseIf(m_state.retransmit, before);
        EraseIf(m_state.resent, [&before](const auto& e) { return before(e.first); });
        m_qp->GetLossRecovery()->OnAck(m_state);
        UpdateTimer(true);
        UpdateLossTimer();
    }
    if (PsnDiff(m_state.nextPsn, m_state.una) < 0)
    {
        m_state.nextPsn = m_state.una;
    }
}

void
RdmaQpRequester::CompleteDone()
{
    while (!m_sq.empty() && m_sq.front().done && m_qp->GetState() != IBV_QPS_ERR)
    {
        Wqe w = m_sq.front();
        m_sq.pop_front();
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
RdmaQpRequester::FailHead(RdmaWcStatus status)
{
    NS_LOG_FUNCTION(this << RdmaWcStatusName(status));
    Stop();
    if (m_sq.empty())
    {
        m_qp->EnterError();
        return;
    }
    Wqe w = m_sq.front();
    m_sq.pop_front();
    if (w.readAtomic && w.assigned && !w.done && m_readAtomicOut > 0)
    {
        --m_readAtomicOut;
    }
    m_qp->FailWorkRequest(true, w.wr.wrId, WcOpcodeOf(w.wr.opcode), w.posted, status);
}

} // namespace ns3
