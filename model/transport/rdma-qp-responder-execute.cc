/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaQpResponder, part two: executing each in-order request (IBA 9.7.4,
// the operations of IBA 9.4). SEND into the next receive WQE, WRITE into
// the region its RETH names, READ queued as responses, atomics executed
// once, with the remote access check, the receive WQE's error completion
// and the saved READ/atomic resources they use. The rules are listed on
// the class (rdma-qp-responder.h); sequence and duplicate handling and the
// ACK/NAK responses are in rdma-qp-responder.cc.

#include "rdma-qp-responder.h"
#include "rdma-queue-pair.h"

#include "ns3/rdma-opcode.h"

namespace ns3
{

void
RdmaQpResponder::FailCurrentRecv(RdmaWcStatus status)
{
    if (!m_inSend)
    {
        return;
    }
    m_inSend = false;
    CompleteRecv(m_recv, status);
}

uint32_t
RdmaQpResponder::PendingReadAtomic() const
{
    uint32_t n = 0;
    for (const Response& r : m_responses)
    {
        n += (r.kind != Response::ACK && !r.replay);
    }
    return n;
}

void
RdmaQpResponder::SaveResource(const Resource& r)
{
    m_resources.push_back(r);
    while (m_resources.size() > std::max<uint32_t>(m_qp->Query().maxDestRdAtomic, 1))
    {
        m_resources.pop_front();
    }
}

bool
RdmaQpResponder::CheckRemoteAccess(uint32_t rkey,
                                   uint64_t va,
                                   uint64_t length,
                                   uint32_t flag,
                                   uint32_t psn,
                                   Ptr<RdmaMemoryRegion>& mr)
{
    mr = m_qp->GetMemory().LookupMr(rkey);
    bool ok = mr && !mr->IsInvalidated() && mr->GetRkey() == rkey && mr->GetPd() == m_qp->GetPd() &&
              (mr->GetAccess() & flag) && (m_qp->Query().qpAccessFlags & flag) &&
              mr->Contains(va, length);
    if (!ok)
    {
        Fail(AethHeader::NAK_REMOTE_ACCESS_ERROR, psn);
    }
    return ok;
}

RdmaQpResponder::Result
RdmaQpResponder::ExecuteSend(const RoceFrame& frame)
{
    uint8_t op = frame.bth.GetOpcode();
    uint32_t psn = frame.bth.GetPsn();
    bool first = op == RC_SEND_FIRST || op == RC_SEND_ONLY || op == RC_SEND_ONLY_WITH_IMMEDIATE ||
                 op == RC_SEND_ONLY_WITH_INVALIDATE;
    bool last = op != RC_SEND_FIRST && op != RC_SEND_MIDDLE;
    if (first == m_inSend)
    {
        // FIRST inside a message, or MIDDLE/LAST outside one.
        FailCurrentRecv(IBV_WC_REM_INV_REQ_ERR);
        return Fail(AethHeader::NAK_INVALID_REQUEST, psn);
    }
    if (first)
    {
        if (m_rq.empty())
        {
            return SendRnrNak(psn);
        }
        m_recv = m_rq.front();
        m_rq.pop_front();
        m_inSend = true;
        m_recvOffset = 0;
        // Receive buffers need local write access in this QP's PD (IBA 10.6.3).
        for (const RdmaSge& sge : m_recv.wr.sgList)
        {
            Ptr<RdmaMemoryRegion> mr = m_qp->GetMemory().LookupMr(sge.lkey);
            if (!mr || mr->GetPd() != m_qp->GetPd() ||
                !(mr->GetAccess() & IBV_ACCESS_LOCAL_WRITE) || !mr->Contains(sge.addr, sge.length))
            {
                FailCurrentRecv(IBV_WC_LOC_PROT_ERR);
                return Fail(AethHeader::NAK_REMOTE_OPERATIONAL_ERROR, psn);
            }
        }
    }
    uint32_t len = frame.payload ? frame.payload->GetSize() : 0;
    if (m_recvOffset + len > m_recv.wr.TotalLength())
    {
        FailCurrentRecv(IBV_WC_LOC_LEN_ERR);
        return Fail(AethHeader::NAK_INVALID_REQUEST, psn);
    }
    if (len > 0)
    {
        m_qp->GetMemory().Scatter(m_recv.wr.sgList, m_recvOffset, frame.payload);
    }
    m_recvOffset += len;
    m_ePsn = PsnAdd(m_ePsn, 1);
    if (last)
    {
        RdmaWorkCompletion wc;
        wc.wrId = m_recv.wr.wrId;
        wc.opcode = IBV_WC_RECV;
        wc.byteLen = static_cast<uint32_t>(m_recvOffset);
        wc.posted = m_recv.posted;
        if (op == RC_SEND_LAST_WITH_IMMEDIATE || op == RC_SEND_ONLY_WITH_IMMEDIATE)
        {
            wc.immData = frame.immDt.GetImmediateData();
            wc.wcFlags |= RdmaWorkCompletion::IBV_WC_WITH_IMM;
        }
        if (op == RC_SEND_LAST_WITH_INVALIDATE || op == RC_SEND_ONLY_WITH_INVALIDATE)
        {
            Ptr<RdmaMemoryRegion> mr = m_qp->GetMemory().LookupMr(frame.ieth.GetRkey());
            if (mr && mr->GetPd() == m_qp->GetPd())
            {
                mr->Invalidate();
            }
            wc.invalidatedRkey = frame.ieth.GetRkey();
            wc.wcFlags |= RdmaWorkCompletion::IBV_WC_WITH_INV;
        }
        m_inSend = false;
        m_msn = PsnAdd(m_msn, 1);
        m_qp->Complete(false, wc);
    }
    if (frame.bth.GetAckReq())
    {
        QueueAck(psn);
    }
    return DONE;
}

RdmaQpResponder::Result
RdmaQpResponder::ExecuteWrite(const RoceFrame& frame)
{
    uint8_t op = frame.bth.GetOpcode();
    uint32_t psn = frame.bth.GetPsn();
    bool first = op == RC_RDMA_WRITE_FIRST || op == RC_RDMA_WRITE_ONLY ||
                 op == RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
    bool last = op != RC_RDMA_WRITE_FIRST && op != RC_RDMA_WRITE_MIDDLE;
    bool imm = op == RC_RDMA_WRITE_LAST_WITH_IMMEDIATE || op == RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
    if (first == m_inWrite)
    {
        return Fail(AethHeader::NAK_INVALID_REQUEST, psn);
    }
    if (imm && m_rq.empty())
    {
        return SendRnrNak(psn);
    }
    if (first)
    {
        Ptr<RdmaMemoryRegion> mr;
        if (!CheckRemoteAccess(frame.reth.GetRkey(),
                               frame.reth.GetVirtualAddress(),
                               frame.reth.GetDmaLength(),
                               IBV_ACCESS_REMOTE_WRITE,
                               psn,
                               mr))
        {
            return FAILED;
        }
        m_inWrite = true;
        m_writeMr = mr;
        m_writeVa = frame.reth.GetVirtualAddress();
        m_writeLength = frame.reth.GetDmaLength();
        m_writeRemaining = m_writeLength;
    }
    uint32_t len = frame.payload ? frame.payload->GetSize() : 0;
    if (len > m_writeRemaining || (last && len != m_writeRemaining))
    {
        m_inWrite = false;
        return Fail(AethHeader::NAK_INVALID_REQUEST, psn);
    }
    if (len > 0)
    {
        m_qp->GetMemory().WriteMemory(m_writeMr, m_writeVa, frame.payload);
    }
    m_writeVa += len;
    m_writeRemaining -= len;
    m_ePsn = PsnAdd(m_ePsn, 1);
    if (last)
    {
        m_inWrite = false;
        m_writeMr = nullptr;
        m_msn = PsnAdd(m_msn, 1);
        if (imm)
        {
            RecvWqe r = m_rq.front();
            m_rq.pop_front();
            RdmaWorkCompletion wc;
            wc.wrId = r.wr.wrId;
            wc.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
            wc.byteLen = static_cast<uint32_t>(m_writeLength);
            wc.immData = frame.immDt.GetImmediateData();
            wc.wcFlags = RdmaWorkCompletion::IBV_WC_WITH_IMM;
            wc.posted = r.posted;
            m_qp->Complete(false, wc);
        }
    }
    if (frame.bth.GetAckReq())
    {
        QueueAck(psn);
    }
    return DONE;
}

RdmaQpResponder::Result
RdmaQpResponder::ExecuteRead(const RoceFrame& frame)
{
    uint32_t psn = frame.bth.GetPsn();
    Ptr<RdmaMemoryRegion> mr;
    if (!CheckRemoteAccess(frame.reth.GetRkey(),
                           frame.reth.GetVirtualAddress(),
                           frame.reth.GetDmaLength(),
                           IBV_ACCESS_REMOTE_READ,
                           psn,
                           mr))
    {
        return FAILED;
    }
    if (PendingReadAtomic() >= m_qp->Query().maxDestRdAtomic)
    {
        return Fail(AethHeader::NAK_INVALID_REQUEST, psn); // too many outstanding
    }
    Response r = ReadResponse(frame, mr);
    m_msn = PsnAdd(m_msn, 1); // C9-148: a READ counts when accepted
    r.msn = m_msn;
    m_responses.push_back(r);
    SaveResource({true, psn, r.packets, frame.reth.GetRkey(), 0});
    m_ePsn = PsnAdd(m_ePsn, r.packets);
    return DONE;
}

RdmaQpResponder::Response
RdmaQpResponder::ReadResponse(const RoceFrame& frame, Ptr<RdmaMemoryRegion> mr) const
{
    Response r;
    r.kind = Response::READ;
    r.psn = frame.bth.GetPsn();
    r.mr = mr;
    r.va = frame.reth.GetVirtualAddress();
    r.length = frame.reth.GetDmaLength();
    const uint32_t mtu = m_qp->GetMtuBytes();
    r.packets = r.length == 0 ? 1 : static_cast<uint32_t>((r.length + mtu - 1) / mtu);
    return r;
}

RdmaQpResponder::Result
RdmaQpResponder::ExecuteAtomic(const RoceFrame& frame)
{
    uint32_t psn = frame.bth.GetPsn();
    uint64_t va = frame.atomicEth.GetVirtualAddress();
    if (va % 8 != 0)
    {
        return Fail(AethHeader::NAK_INVALID_REQUEST, psn); // IBA 9.4.5: 8-byte aligned
    }
    Ptr<RdmaMemoryRegion> mr;
    if (!CheckRemoteAccess(frame.atomicEth.GetRkey(), va, 8, IBV_ACCESS_REMOTE_ATOMIC, psn, mr))
    {
        return FAILED;
    }
    if (PendingReadAtomic() >= m_qp->Query().maxDestRdAtomic)
    {
        return Fail(AethHeader::NAK_INVALID_REQUEST, psn);
    }
    uint64_t orig = mr->ReadU64(va);
    if (frame.bth.GetOpcode() == RC_COMPARE_SWAP)
    {
        if (orig == frame.atomicEth.GetCompare())
        {
            mr->WriteU64(va, frame.atomicEth.GetSwapOrAdd());
        }
    }
    else
    {
        mr->WriteU64(va, orig + frame.atomicEth.GetSwapOrAdd());
    }
    m_msn = PsnAdd(m_msn, 1);
    Response r;
    r.kind = Response::ATOMIC_ACK;
    r.psn = psn;
    r.msn = m_msn;
    r.orig = orig;
    m_responses.push_back(r);
    SaveResource({false, psn, 1, frame.atomicEth.GetRkey(), orig});
    m_ePsn = PsnAdd(m_ePsn, 1);
    return DONE;
}

} // namespace ns3
