/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-qp-responder.h"

#include "rdma-loss-recovery.h"
#include "rdma-queue-pair.h"

#include "ns3/log.h"
#include "ns3/rdma-opcode.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQpResponder");

namespace
{
/// Keep out-of-order packets only this far ahead of the expected PSN.
constexpr int32_t MAX_OUT_OF_ORDER = 1 << 16;

bool
IsSend(uint8_t op)
{
    return op <= RC_SEND_ONLY_WITH_IMMEDIATE || op == RC_SEND_LAST_WITH_INVALIDATE ||
           op == RC_SEND_ONLY_WITH_INVALIDATE;
}

bool
IsWrite(uint8_t op)
{
    return op >= RC_RDMA_WRITE_FIRST && op <= RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
}
} // namespace

RdmaQpResponder::RdmaQpResponder(RdmaQueuePair* qp)
    : m_qp(qp),
      m_ePsn(0),
      m_msn(0),
      m_nakSent(false),
      m_inSend(false),
      m_recvOffset(0),
      m_inWrite(false),
      m_writeVa(0),
      m_writeRemaining(0),
      m_writeLength(0),
      m_sackPending(0),
      m_sackNewest(0),
      m_unansweredBytes(0)
{
}

void
RdmaQpResponder::Start(uint32_t rqPsn)
{
    m_ePsn = PsnMod(rqPsn);
    m_msn = 0;
    m_nakSent = false;
}

void
RdmaQpResponder::Reset()
{
    m_rq.clear();
    m_responses.clear();
    m_resources.clear();
    m_outOfOrder.clear();
    m_arrivedAhead.clear();
    m_inSend = false;
    m_inWrite = false;
    m_writeMr = nullptr;
    m_nakSent = false;
    m_sackPending = 0;
    m_sackTimer.Cancel();
}

void
RdmaQpResponder::Flush()
{
    RdmaFifo<RecvWqe> rq;
    rq.swap(m_rq);
    if (m_inSend)
    {
        m_inSend = false;
        CompleteRecv(m_recv, IBV_WC_WR_FLUSH_ERR); // the receive a SEND was filling first
    }
    for (const RecvWqe& r : rq)
    {
        CompleteRecv(r, IBV_WC_WR_FLUSH_ERR);
    }
    m_responses.clear();
    m_outOfOrder.clear();
    m_arrivedAhead.clear();
    m_sackPending = 0;
    m_sackTimer.Cancel();
}

void
RdmaQpResponder::CompleteRecv(const RecvWqe& r, RdmaWcStatus status)
{
    RdmaWorkCompletion wc;
    wc.wrId = r.wr.wrId;
    wc.status = status;
    wc.opcode = IBV_WC_RECV;
    wc.posted = r.posted;
    m_qp->Complete(false, wc);
}

void
RdmaQpResponder::Post(const RdmaRecvWr& wr)
{
    m_rq.push_back({wr, Simulator::Now()});
}

uint32_t
RdmaQpResponder::GetPostedRecvs() const
{
    return m_rq.size();
}

const RdmaRecvWr*
RdmaQpResponder::PeekRecv(uint32_t index) const
{
    return index < m_rq.size() ? &m_rq[index].wr : nullptr;
}

uint32_t
RdmaQpResponder::GetExpectedPsn() const
{
    return m_ePsn;
}

uint32_t
RdmaQpResponder::GetMsn() const
{
    return m_msn;
}

bool
RdmaQpResponder::HasPacket() const
{
    return !m_responses.empty();
}

bool
RdmaQpResponder::HasPendingAck() const
{
    return !m_responses.empty() && m_responses.back().kind == Response::ACK &&
           m_responses.back().syndrome == AethHeader::CREDITS_NOT_LIMITED &&
           !m_responses.back().thenError;
}

void
RdmaQpResponder::QueueAck(uint32_t psn)
{
    m_unansweredBytes = 0;
    if (m_outOfOrder.empty() && m_sackPending > 0)
    {
        // Nothing past a gap: this ACK reports what a coalesced SACK had yet to.
        m_sackPending = 0;
        m_sackTimer.Cancel();
    }
    if (HasPendingAck())
    {
        m_responses.back().psn = psn; // cumulative: the newer ACK covers the older
        m_responses.back().msn = m_msn;
        return;
    }
    QueueAeth(psn, AethHeader::CREDITS_NOT_LIMITED);
}

void
RdmaQpResponder::QueueAeth(uint32_t psn, uint8_t syndrome)
{
    Response r;
    r.kind = Response::ACK;
    r.psn = psn;
    r.syndrome = syndrome;
    r.msn = m_msn;
    m_responses.push_back(r);
}

void
RdmaQpResponder::QueuePsnNak(AethHeader::NakCode nakCode, uint32_t psn)
{
    m_unansweredBytes = 0;
    AethHeader a;
    a.SetNak(nakCode);
    Response r;
    r.kind = Response::ACK;
    r.psn = m_ePsn;
    r.syndrome = a.GetSyndrome();
    r.msn = psn;
    m_responses.push_back(r);
}

RdmaQpResponder::Result
RdmaQpResponder::Fail(uint8_t nakCode, uint32_t psn)
{
    NS_LOG_INFO("QP " << m_qp->GetQpn() << " responder NAK code " << +nakCode << " psn " << psn);
    AethHeader a;
    a.SetNak(static_cast<AethHeader::NakCode>(nakCode));
    QueueAeth(psn, a.GetSyndrome());
    m_responses.back().thenError = true;
    return FAILED;
}

RdmaQpResponder::Result
RdmaQpResponder::SendRnrNak(uint32_t psn)
{
    ++m_qp->MutableStats().rnrNakSent;
    QueueAeth(psn, uint8_t(0x20 | (m_qp->Query().minRnrTimer & 0x1F)));
    // The RNR NAK stands for the gap: the requester resends from psn after
    // the timer, so later packets are dropped without a sequence NAK.
    m_nakSent = true;
    return RNR;
}

void
RdmaQpResponder::ReceiveRequest(const RoceFrame& frame)
{
    QpState st = m_qp->GetState();
    if (st != IBV_QPS_RTR && st != IBV_QPS_RTS && st != IBV_QPS_SQD)
    {
        return;
    }
    if (!m_responses.empty() && m_responses.back().thenError)
    {
        return; // failing: nothing more is executed
    }
    uint32_t psn = frame.bth.GetPsn();
    int32_t d = PsnDiff(psn, m_ePsn);
    NS_LOG_LOGIC("QP " << m_qp->GetQpn() << " request " << RdmaOpcodeName(frame.bth.GetOpcode())
                       << " psn " << psn << " expected " << m_ePsn << " payload "
                       << (frame.payload ? frame.payload->GetSize() : 0));
    if (d < 0)
    {
        ++m_qp->MutableStats().duplicates;
        const uint8_t op = frame.bth.GetOpcode();
        m_qp->MutableStats().spuriousRetransmissions += IsSend(op) || IsWrite(op);
        HandleDuplicate(frame);
        return;
    }
    NoteArrival(psn, d);
    m_unansweredBytes += frame.payload ? frame.payload->GetSize() : 0;
    if (d > 0)
    {
        ++m_qp->MutableStats().outOfSequence;
        HandleOutOfSequence(frame);
        return;
    }
    Result r = Execute(frame);
    if (r != DONE)
    {
        return;
    }
    m_nakSent = false;
    // Selective repeat: packets kept past the gap now follow in order.
    bool drained = false;
    for (auto it = m_outOfOrder.find(m_ePsn); it != m_outOfOrder.end();
         it = m_outOfOrder.find(m_ePsn))
    {
        RoceFrame next = it->second;
        m_outOfOrder.erase(it);
        m_arrivedAhead.erase(m_ePsn);
        drained = true;
        if (Execute(next) != DONE)
        {
            break;
        }
    }
    const bool failed = m_responses.size() && m_responses.back().thenError;
    const uint32_t ackBytes = m_qp->GetLossRecovery()->GetAckBytes();
    if (ackBytes > 0)
    {
        if (failed || !(AnswerDue(frame, ackBytes) || HasPendingAck()))
        {
            return;
        }
        if (m_outOfOrder.empty())
        {
            QueueAck(PsnAdd(m_ePsn, -1)); // cumulative: covers what was drained too
            return;
        }
        if (HasPendingAck())
        {
            m_responses.pop_back(); // past a gap, the SACK says it and more
        }
        QueueSack();
        return;
    }
    if (drained && !failed)
    {
        const uint32_t coalescing = m_qp->GetLossRecovery()->GetSackCoalescing();
        if (coalescing > 1 && !HasPendingAck())
        {
            CoalesceSack(m_sackNewest, coalescing); // reported with the next SACK or ACK
        }
        else
        {
            QueueAck(PsnAdd(m_ePsn, -1));
        }
    }
}

void
RdmaQpResponder::ReceiveTrimmed(const RoceFrame& frame)
{
    const QpState st = m_qp->GetState();
    if ((st != IBV_QPS_RTR && st != IBV_QPS_RTS && st != IBV_QPS_SQD) ||
        (!m_responses.empty() && m_responses.back().thenError))
    {
        return;
    }
    RdmaQueuePair::Stats& stats = m_qp->MutableStats();
    ++stats.trimmedReceived;
    const uint32_t psn = frame.bth.GetPsn();
    const int32_t d = PsnDiff(psn, m_ePsn);
    NS_LOG_LOGIC("QP " << m_qp->GetQpn() << " trimmed request psn " << psn << " expected "
                       << m_ePsn);
    const bool selective = m_qp->GetLossRecovery()->ResponderKeepsOutOfOrder();
    if (d < 0 || (selective && m_outOfOrder.count(psn) != 0))
    {
        return; // a copy arrived whole: nothing is missing
    }
    if (!selective && d > 0)
    {
        ++stats.outOfSequence;
        HandleOutOfSequence(frame); // the gap before it is what the requester resends from
        return;
    }
    QueuePsnNak(AethHeader::NAK_TRIMMED, psn);
    ++stats.nakTrimSent;
    if (!selective)
    {
        m_nakSent = true; // what follows it is out of sequence, silently (one NAK per gap)
        m_lastNak = Simulator::Now();
    }
}

void
RdmaQpResponder::NoteArrival(uint32_t psn, int32_t d)
{
    const Time now = Simulator::Now();
    if (m_arrivedAhead.empty())
    {
        // In order, nothing past the expected PSN (the common case).
        if (d > 0 && d < MAX_OUT_OF_ORDER)
        {
            m_arrivedAhead.emplace(psn, now);
        }
        return;
    }
    RdmaQueuePair::Stats& stats = m_qp->MutableStats();
    auto it = m_arrivedAhead.find(psn);
    if (it != m_arrivedAhead.end())
    {
        ++stats.spuriousRetransmissions;
        if (d == 0)
        {
            m_arrivedAhead.erase(it);
        }
        return;
    }
    uint32_t past = 0;
    Time first = now;
    for (const auto& [p, at] : m_arrivedAhead)
    {
        if (PsnDiff(p, psn) > 0)
        {
            ++past;
            first = std::min(first, at);
        }
    }
    if (past > 0)
    {
        stats.RecordLate(past, now - first);
    }
    if (d > 0 && d < MAX_OUT_OF_ORDER)
    {
        m_arrivedAhead.emplace(psn, now);
    }
}

void
RdmaQpResponder::HandleOutOfSequence(const RoceFrame& frame)
{
    uint32_t psn = frame.bth.GetPsn();
    if (m_qp->GetLossRecovery()->ResponderKeepsOutOfOrder())
    {
        if (PsnDiff(psn, m_ePsn) < MAX_OUT_OF_ORDER)
        {
            m_outOfOrder.emplace(psn, frame);
        }
        const uint32_t ackBytes = m_qp->GetLossRecovery()->GetAckBytes();
        if (ackBytes > 0)
        {
            if (PsnDiff(m_sackNewest, m_ePsn) <= 0 || PsnDiff(psn, m_sackNewest) > 0)
            {
                m_sackNewest = psn; // the SACK names the newest arrival
            }
            if (AnswerDue(frame, ackBytes) || frame.bth.GetAckReq())
            {
                QueueSack();
            }
            return;
        }
        const uint32_t coalescing = m_qp->GetLossRecovery()->GetSackCoalescing();
        if (coalescing > 1)
        {
            CoalesceSack(psn, coalescing);
            return;
        }
        // IRN: every out-of-order packet is answered with a NAK carrying the
        // expected PSN, and the PSN received in the AETH MSN field (SACK).
        QueuePsnNak(AethHeader::NAK_PSN_SEQUENCE_ERROR, psn);
        ++m_qp->MutableStats().nakSeqSent;
        return;
    }
    const Time interval = m_qp->GetLossRecovery()->GetNakInterval();
    const bool again = interval.IsStrictlyPositive() && Simulator::Now() - m_lastNak >= interval;
    if (!m_nakSent || again)
    {
        // Go-back-N (IBA 9.7.5.1.2): one NAK per gap, then silent drops;
        // with a NakInterval, the gap is NAKed again after it.
        m_nakSent = true;
        m_lastNak = Simulator::Now();
        AethHeader a;
        a.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
        QueueAeth(m_ePsn, a.GetSyndrome());
        ++m_qp->MutableStats().nakSeqSent;
    }
}

bool
RdmaQpResponder::AnswerDue(const RoceFrame& frame, uint32_t ackBytes) const
{
    return m_unansweredBytes >= ackBytes || frame.ecn == 3;
}

void
RdmaQpResponder::CoalesceSack(uint32_t psn, uint32_t coalescing)
{
    m_sackNewest = psn;
    if (++m_sackPending >= coalescing)
    {
        QueueSack();
        return;
    }
    if (!m_sackTimer.IsRunning())
    {
        m_sackTimer = Simulator::Schedule(m_qp->GetLossRecovery()->GetSackDelay(),
                                          &RdmaQpResponder::OnSackTimer,
                                          this);
    }
}

void
RdmaQpResponder::QueueSack()
{
    m_unansweredBytes = 0;
    m_sackPending = 0;
    m_sackTimer.Cancel();
    if (m_outOfOrder.empty())
    {
        QueueAck(PsnAdd(m_ePsn, -1)); // nothing past a gap: a cumulative ACK says it all
        return;
    }
    if (PsnDiff(m_sackNewest, m_ePsn) <= 0)
    {
        // The newest arrival is in order by now: report the highest kept one.
        m_sackNewest = PsnAdd(m_ePsn, 1);
        for (const auto& [psn, frame] : m_outOfOrder)
        {
            m_sackNewest = PsnDiff(psn, m_sackNewest) > 0 ? psn : m_sackNewest;
        }
    }
    Response r;
    r.kind = Response::ACK;
    r.psn = m_ePsn;
    r.syndrome = RoceFrame::SEQUENCE_NAK_SYNDROME;
    r.msn = m_sackNewest;
    r.hasSackBitmap = true;
    r.sackBitmap = SackBitmap();
    if (!m_responses.empty() && m_responses.back().hasSackBitmap)
    {
        m_responses.back() = r; // not sent yet: the newer SACK reports all it did
        return;
    }
    m_responses.push_back(r);
    ++m_qp->MutableStats().nakSeqSent;
}

void
RdmaQpResponder::OnSackTimer()
{
    if (m_sackPending == 0 || (!m_responses.empty() && m_responses.back().thenError))
    {
        return;
    }
    QueueSack();
    m_qp->NotifyTx();
}

uint64_t
RdmaQpResponder::SackBitmap() const
{
    uint64_t bitmap = 0;
    for (const auto& [psn, frame] : m_outOfOrder)
    {
        const int32_t d = PsnDiff(psn, m_ePsn);
        if (d >= 1 && d <= 64)
        {
            bitmap |= uint64_t(1) << (d - 1);
        }
    }
    return bitmap;
}

void
RdmaQpResponder::HandleDuplicate(const RoceFrame& frame)
{
    uint8_t op = frame.bth.GetOpcode();
    uint32_t psn = frame.bth.GetPsn();
    if (IsSend(op) || IsWrite(op))
    {
        // C9-105: acknowledge again with the last PSN acknowledged.
        QueueAck(PsnAdd(m_ePsn, -1));
        return;
    }
    for (const Resource& res : m_resources)
    {
        int32_t off = PsnDiff(psn, res.psn);
        if (off < 0 || off >= static_cast<int32_t>(res.packets))
        {
            continue;
        }
        if (res.read && op == RC_RDMA_READ_REQUEST && frame.reth.GetRkey() == res.rkey)
        {
            // Serve the (possibly shortened) request again from its PSN.
            Ptr<RdmaMemoryRegion> mr = m_qp->GetMemory().LookupMr(res.rkey);
            if (!mr || !mr->Contains(frame.reth.GetVirtualAddress(), frame.reth.GetDmaLength()))
            {
                return;
            }
            Response r = ReadResponse(frame, mr);
            r.msn = m_msn;
            r.replay = true;
            m_responses.push_back(r);
            return;
        }
        if (!res.read && off == 0 && (op == RC_COMPARE_SWAP || op == RC_FETCH_ADD))
        {
            // Never execute an atomic twice: send the saved result.
            Response r;
            r.kind = Response::ATOMIC_ACK;
            r.psn = psn;
            r.msn = m_msn;
            r.orig = res.orig;
            r.replay = true;
            m_responses.push_back(r);
            return;
        }
    }
    // No saved resource covers it: silently dropped (IBA 9.7.5.1.1).
    NS_LOG_INFO("QP " << m_qp->GetQpn() << " duplicate " << RdmaOpcodeName(op) << " psn " << psn
                      << " has no saved resource (" << m_resources.size() << " kept, oldest "
                      << (m_resources.empty() ? 0 : m_resources.front().psn) << ")");
}

RdmaQpResponder::Result
RdmaQpResponder::Execute(const RoceFrame& frame)
{
    uint8_t op = frame.bth.GetOpcode();
    if (IsSend(op) || IsWrite(op))
    {
        const Result r = IsSend(op) ? ExecuteSend(frame) : ExecuteWrite(frame);
        m_qp->MutableStats().payloadPacketsPlaced +=
            r == DONE && frame.payload && frame.payload->GetSize() > 0;
        return r;
    }
    if (op == RC_RDMA_READ_REQUEST)
    {
        return ExecuteRead(frame);
    }
    if (op == RC_COMPARE_SWAP || op == RC_FETCH_ADD)
    {
        return ExecuteAtomic(frame);
    }
    return Fail(AethHeader::NAK_INVALID_REQUEST, frame.bth.GetPsn());
}

bool
RdmaQpResponder::BuildPacket(RoceFrame& frame)
{
    if (m_responses.empty())
    {
        return false;
    }
    Response& r = m_responses.front();
    frame.bth = BthHeader();
    frame.bth.SetDestQp(m_qp->Query().destQpNum);
    frame.payload = nullptr;
    bool done = true;
    if (r.kind == Response::ACK)
    {
        frame.bth.SetOpcode(RC_ACKNOWLEDGE);
        frame.bth.SetPsn(r.psn);
        frame.aeth.SetSyndrome(r.syndrome);
        frame.aeth.SetMsn(r.msn);
        frame.hasSackBitmap = r.hasSackBitmap;
        frame.sackBitmap = r.sackBitmap;
    }
    else if (r.kind == Response::ATOMIC_ACK)
    {
        frame.bth.SetOpcode(RC_ATOMIC_ACKNOWLEDGE);
        frame.bth.SetPsn(r.psn);
        frame.aeth.SetAck();
        frame.aeth.SetMsn(r.msn);
        frame.atomicAckEth.SetOriginalRemoteData(r.orig);
    }
    else
    {
        uint32_t mtu = m_qp->GetMtuBytes();
        uint64_t offset = uint64_t(r.next) * mtu;
        uint32_t chunk = static_cast<uint32_t>(std::min<uint64_t>(mtu, r.length - offset));
        bool first = r.next == 0;
        bool last = r.next + 1 == r.packets;
        uint8_t op = first && last ? RC_RDMA_READ_RESPONSE_ONLY
                     : first       ? RC_RDMA_READ_RESPONSE_FIRST
                     : last        ? RC_RDMA_READ_RESPONSE_LAST
                                   : RC_RDMA_READ_RESPONSE_MIDDLE;
        frame.bth.SetOpcode(op);
        frame.bth.SetPsn(PsnAdd(r.psn, r.next));
        frame.aeth.SetAck();
        frame.aeth.SetMsn(r.msn);
        frame.payload =
            m_qp->GetMemory().ReadMemory(r.mr, r.va + offset, chunk, frame.payloadZeros);
        ++r.next;
        done = last;
    }
    m_qp->TracePacketTx(frame.bth.GetOpcode(), frame.bth.GetPsn(), false);
    if (done)
    {
        bool thenError = r.thenError;
        m_responses.pop_front();
        if (thenError)
        {
            // The NAK is on its way; now the QP enters the error state.
            Simulator::ScheduleNow(&RdmaQueuePair::EnterError, m_qp);
        }
    }
    return true;
}

} // namespace ns3
