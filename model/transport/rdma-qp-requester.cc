/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-qp-requester.h"

#include "rdma-qp-completer.h"
#include "rdma-queue-pair.h"

#include "ns3/log.h"
#include "ns3/rdma-opcode.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQpRequester");

RdmaQpRequester::RdmaQpRequester(RdmaQueuePair* qp, RdmaSendQueue& sq, RdmaQpCompleter& completer)
    : m_qp(qp),
      m_sq(sq),
      m_completer(completer),
      m_sinceAckReq(0)
{
}

void
RdmaQpRequester::Reset()
{
    m_sinceAckReq = 0;
    m_unsentBytes = 0;
}

uint64_t
RdmaQpRequester::GetUnsentBytes() const
{
    return m_sq.wqes.empty() ? 0 : m_unsentBytes; // a flushed queue leaves nothing
}

uint64_t
RdmaQpRequester::GetResendBytes() const
{
    return m_sq.state.retransmit.size() * static_cast<uint64_t>(m_qp->GetMtuBytes());
}

void
RdmaQpRequester::Post(const RdmaSendWr& wr)
{
    RdmaSendWqe w;
    w.wr = wr;
    w.posted = Simulator::Now();
    w.readAtomic = wr.opcode == IBV_WR_RDMA_READ || RdmaWrIsAtomic(wr.opcode);
    w.length = RdmaWrIsAtomic(wr.opcode) ? 8 : wr.TotalLength();
    w.packets = RdmaWrIsAtomic(wr.opcode) ? 1 : PacketsFor(w.length);
    if (m_sq.wqes.empty())
    {
        m_unsentBytes = 0;
    }
    m_unsentBytes += w.readAtomic ? 0 : w.length;
    m_sq.wqes.push_back(w);
    m_qp->NotifyTx();
}

uint32_t
RdmaQpRequester::PacketsFor(uint64_t length) const
{
    uint32_t mtu = m_qp->GetMtuBytes();
    return length == 0 ? 1 : static_cast<uint32_t>((length + mtu - 1) / mtu);
}

bool
RdmaQpRequester::ReadAtomicAllowed(const RdmaSendWqe& w) const
{
    if (w.readAtomic && m_sq.readAtomicOut >= m_qp->Query().maxRdAtomic)
    {
        return false;
    }
    // IBV_SEND_FENCE: wait until earlier READ/atomics have completed.
    return !((w.wr.sendFlags & IBV_SEND_FENCE) && m_sq.readAtomicOut > 0);
}

bool
RdmaQpRequester::NextPsnToSend(uint32_t& psn, bool& retransmission) const
{
    if (m_completer.IsRnrWaiting())
    {
        return false;
    }
    QpState st = m_qp->GetState();
    if (st != IBV_QPS_RTS && st != IBV_QPS_SQD)
    {
        return false;
    }
    // Selective repeat: queued retransmissions first, oldest PSN first.
    if (RdmaOldestPsnFrom(m_sq.state.retransmit, m_sq.state.una, psn))
    {
        retransmission = true;
        return true;
    }
    psn = m_sq.state.nextPsn;
    if (PsnDiff(psn, m_sq.state.highestSent) < 0)
    {
        retransmission = true; // go-back-N: resending what was sent before
        return true;
    }
    retransmission = false;
    // The cap counts PSNs beyond the cumulative ACK. ACKs asked every I
    // packets leave up to I - 1 delivered PSNs unacknowledged, which are no
    // longer in the network: without them, a lone flow on an idle path could
    // not keep its BDP in flight (2 MB on an idle k=4 fat tree took 1.14x its
    // ideal time with the 1 KiB MTU's ACK every 30 packets).
    uint32_t window = m_qp->GetLossRecovery()->GetWindowPackets(m_qp->GetMtuBytes());
    if (window > 0)
    {
        window += AckInterval() - 1;
    }
    bool windowOpen = window == 0 || PsnDiff(m_sq.state.highestSent, m_sq.state.una) <
                                         static_cast<int32_t>(window);
    if (m_sq.FindByPsn(psn))
    {
        return windowOpen; // the rest of a message under way
    }
    if (st == IBV_QPS_SQD)
    {
        return false; // drained: no new request starts
    }
    const RdmaSendWqe* next = m_sq.FirstUnassigned();
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
    RdmaSendWqe* r = m_sq.FindByPsn(psn);
    if (r && r->wr.opcode == IBV_WR_RDMA_READ)
    {
        // One request stands for the READ's response PSNs: ask once, from
        // the first response still missing.
        for (uint32_t p = r->firstPsn; PsnDiff(p, r->LastPsn()) <= 0; p = PsnAdd(p, 1))
        {
            m_sq.state.retransmit.erase(p);
            m_sq.state.resent[p] = m_sq.state.highestSent;
        }
        if (r->done)
        {
            return false;
        }
        psn = r->nextRespPsn;
    }
    m_sq.state.resent[psn] = m_sq.state.highestSent;
    return true;
}

RdmaSendWqe*
RdmaQpRequester::AssignNext(uint32_t psn)
{
    RdmaSendWqe* w = m_sq.FirstUnassigned();
    w->assigned = true;
    w->firstPsn = psn;
    w->nextRespPsn = psn;
    if (w->readAtomic)
    {
        ++m_sq.readAtomicOut;
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
    bool fromSet = m_sq.state.retransmit.erase(psn) > 0;
    if (fromSet && !ResendFromSet(psn))
    {
        return BuildPacket(frame);
    }
    RdmaSendWqe* w = retransmission ? nullptr : m_sq.FindByPsn(psn);
    if (!retransmission && !w)
    {
        w = AssignNext(psn);
    }
    else if (retransmission)
    {
        w = m_sq.FindByPsn(psn);
        if (!w || w->done)
        {
            // Acknowledged since it was queued: move on.
            if (!fromSet)
            {
                m_sq.state.nextPsn = PsnAdd(psn, 1);
            }
            return BuildPacket(frame);
        }
    }
    const bool wasIdle = m_sq.state.highestSent == m_sq.state.una;
    FillPacket(*w, psn, frame);
    if (retransmission && !frame.bth.GetAckReq() && m_qp->GetLossRecovery()->GetAckBytes() > 0)
    {
        // A coalescing responder answers a resend at once (UET 1.0; UecSrc
        // sets AR on every retransmission).
        frame.bth.SetAckReq(true);
        NoteAckRequested();
    }
    if (!retransmission && !w->readAtomic && frame.payload)
    {
        m_unsentBytes -= std::min<uint64_t>(m_unsentBytes, frame.payload->GetSize());
    }
    // A READ request stands for all its response PSNs.
    uint32_t after = (w->wr.opcode == IBV_WR_RDMA_READ) ? PsnAdd(w->LastPsn(), 1) : PsnAdd(psn, 1);
    if (!fromSet)
    {
        m_sq.state.nextPsn = after;
    }
    if (PsnDiff(after, m_sq.state.highestSent) > 0)
    {
        m_sq.state.highestSent = after;
    }
    if (retransmission)
    {
        ++m_qp->MutableStats().retransmissions;
    }
    m_qp->TracePacketTx(frame.bth.GetOpcode(), psn, retransmission);
    NS_LOG_LOGIC("QP " << m_qp->GetQpn() << " sends " << RdmaOpcodeName(frame.bth.GetOpcode())
                       << " psn " << psn << (retransmission ? " again" : ""));
    m_completer.NotePacketSent(wasIdle);
    return true;
}

void
RdmaQpRequester::FillPacket(RdmaSendWqe& w, uint32_t psn, RoceFrame& frame)
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
RdmaQpRequester::FillReadRequest(const RdmaSendWqe& w, uint32_t idx, RoceFrame& frame) const
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
RdmaQpRequester::FillSendOrWrite(const RdmaSendWqe& w, uint32_t idx, RoceFrame& frame)
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

uint32_t
RdmaQpRequester::AckInterval() const
{
    // BDP-FC reopens only on ACKs: ask for one at least every quarter of the cap.
    uint32_t interval = m_qp->m_ackReqInterval;
    const uint32_t window = m_qp->GetLossRecovery()->GetWindowPackets(m_qp->GetMtuBytes());
    if (window > 0)
    {
        interval = std::min(interval, std::max<uint32_t>(window / 4, 1));
    }
    return std::max<uint32_t>(interval, 1);
}

bool
RdmaQpRequester::AckRequestDue()
{
    const uint32_t interval = AckInterval();
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

} // namespace ns3
