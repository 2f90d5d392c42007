/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaQpRequester, part two: error and retry. The local ACK timer (and the
// loss-recovery policy's own RTO), retry_cnt and rnr_retry, the RNR wait,
// NAKs, and responses lost before an ACK or a later response arrived. The
// rules are listed on the class (rdma-qp-requester.h); sending and
// completing are in rdma-qp-requester.cc.

#include "rdma-qp-requester.h"
#include "rdma-queue-pair.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

namespace
{
/**
 * \return the requester's log component, "RdmaQpRequester", which
 * rdma-qp-requester.cc defines. It is looked up on first use: a second
 * NS_LOG_COMPONENT_DEFINE of the name is fatal, and a lookup during static
 * initialisation could run before that file's.
 */
LogComponent&
RequesterLog()
{
    static LogComponent& log = GetLogComponent("RdmaQpRequester");
    return log;
}
} // namespace

Time
RdmaQpRequester::LocalAckTimeout() const
{
    uint8_t timeout = m_qp->Query().timeout;
    // IBA 9.7.6.1.3: 4.096 us x 2^timeout; 0 = wait forever.
    return timeout == 0 ? Time(0) : NanoSeconds(4096) * (int64_t(1) << timeout);
}

void
RdmaQpRequester::UpdateTimer(bool restart)
{
    bool outstanding = PsnDiff(m_state.highestSent, m_state.una) > 0;
    Time rto = m_qp->GetLossRecovery()->GetRetransmitTimeout(m_state, LocalAckTimeout());
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

void
RdmaQpRequester::OnTimeout()
{
    [[maybe_unused]] LogComponent& g_log = RequesterLog(); // NS_LOG_* use g_log
    if (PsnDiff(m_state.highestSent, m_state.una) <= 0)
    {
        return;
    }
    NS_LOG_INFO("QP " << m_qp->GetQpn() << " retransmission timeout at una " << m_state.una);
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
    policy->OnTimeout(m_state);
    if (policy->ResponderKeepsOutOfOrder())
    {
        // A SACK says the responder has a READ/atomic request, not that its
        // response arrived: ask again for every unanswered one.
        for (const Wqe& w : m_sq)
        {
            if (!w.assigned)
            {
                break;
            }
            if (w.readAtomic && !w.done && PsnDiff(w.nextRespPsn, m_state.una) >= 0)
            {
                for (uint32_t p = w.firstPsn; PsnDiff(p, LastPsn(w)) <= 0; p = PsnAdd(p, 1))
                {
                    m_state.sacked.erase(p);
                }
                m_state.retransmit.insert(w.nextRespPsn);
            }
        }
    }
    UpdateTimer(true);
    m_qp->NotifyTx();
}

void
RdmaQpRequester::UpdateLossTimer()
{
    const Time now = Simulator::Now();
    const Time deadline = m_qp->GetLossRecovery()->GetLossDeadline(m_state, now);
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
RdmaQpRequester::OnLossTimer()
{
    m_qp->GetLossRecovery()->OnLossTimer(m_state, Simulator::Now());
    UpdateLossTimer();
    m_qp->NotifyTx();
}

bool
RdmaQpRequester::ConsumeRetry()
{
    if (m_retryLeft == 0)
    {
        return false;
    }
    --m_retryLeft;
    return true;
}

void
RdmaQpRequester::StartRetry(uint32_t from)
{
    [[maybe_unused]] LogComponent& g_log = RequesterLog(); // NS_LOG_* use g_log
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
RdmaQpRequester::RewindTo(uint32_t psn)
{
    if (PsnDiff(psn, m_state.una) < 0)
    {
        psn = m_state.una;
    }
    if (m_qp->GetLossRecovery()->ResponderKeepsOutOfOrder())
    {
        // Selective repeat: the responder kept what followed; resend just this.
        m_state.resent.erase(psn);
        m_state.retransmit.insert(psn);
        return;
    }
    m_state.nextPsn = psn;
}

void
RdmaQpRequester::OnRnrNak(uint32_t psn, const AethHeader& aeth)
{
    ++m_qp->MutableStats().rnrNakReceived;
    if (PsnDiff(psn, m_state.una) < 0 || RecoverLostResponses(psn))
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
                                     &RdmaQpRequester::OnRnrTimerExpired,
                                     this,
                                     psn);
}

void
RdmaQpRequester::OnRnrTimerExpired(uint32_t psn)
{
    m_rnrWaiting = false;
    RewindTo(psn);
    UpdateTimer(true);
    m_qp->NotifyTx();
}

void
RdmaQpRequester::OnNak(uint32_t psn, const AethHeader& aeth, const uint64_t* sackBitmap)
{
    if (PsnDiff(psn, m_state.una) < 0 || RecoverLostResponses(psn))
    {
        return;
    }
    AcknowledgeBefore(psn);
    CompleteDone();
    if (aeth.GetSyndromeValue() == AethHeader::NAK_PSN_SEQUENCE_ERROR)
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
            policy->OnSackBitmap(m_state, psn, aeth.GetMsn(), *sackBitmap, Simulator::Now());
        }
        else
        {
            policy->OnSequenceNak(m_state, psn, aeth.GetMsn(), sack, Simulator::Now());
        }
        UpdateLossTimer();
        Wqe* w = FindByPsn(psn);
        if (w && w->wr.opcode == IBV_WR_RDMA_READ)
        {
            RewindTo(psn); // lost READ responses are asked for again
        }
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

bool
RdmaQpRequester::RecoverLostResponses(uint32_t bound)
{
    for (Wqe& w : m_sq)
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
RdmaQpRequester::KeepReadResponse(Wqe& w, uint32_t psn, const RoceFrame& frame)
{
    if (!w.respKept.insert(psn).second)
    {
        return; // kept already
    }
    uint64_t offset = uint64_t(PsnDiff(psn, w.firstPsn)) * m_qp->GetMtuBytes();
    if (frame.payload)
    {
        m_qp->GetMemory().Scatter(w.wr.sgList, offset, frame.payload);
        m_qp->MutableStats().payloadPacketsPlaced += frame.payload->GetSize() > 0;
    }
    AcknowledgeBefore(w.nextRespPsn);
    StartRetry(w.nextRespPsn);
}

} // namespace ns3
