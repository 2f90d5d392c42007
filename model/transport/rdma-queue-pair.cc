/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-queue-pair.h"

#include "rdma-loss-recovery.h"

#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/rdma-opcode.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cerrno>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
/// Required and optional attribute masks of one RC transition (ibv_modify_qp(3)).
struct Transition
{
    bool valid;
    uint32_t required;
    uint32_t optional;
};

Transition
RcTransition(QpState from, QpState to)
{
    const uint32_t none = 0;
    if (to == IBV_QPS_RESET || to == IBV_QPS_ERR)
    {
        return {true, none, none}; // any state may be reset or put in error
    }
    switch (from)
    {
    case IBV_QPS_RESET:
        if (to == IBV_QPS_INIT)
        {
            return {true, IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, none};
        }
        break;
    case IBV_QPS_INIT:
        if (to == IBV_QPS_INIT)
        {
            return {true, none, IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS};
        }
        if (to == IBV_QPS_RTR)
        {
            return {true,
                    IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                        IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
                    IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX};
        }
        break;
    case IBV_QPS_RTR:
        if (to == IBV_QPS_RTS)
        {
            return {true,
                    IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                        IBV_QP_TIMEOUT,
                    IBV_QP_CUR_STATE | IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS |
                        IBV_QP_MIN_RNR_TIMER | IBV_QP_PATH_MIG_STATE};
        }
        break;
    case IBV_QPS_RTS:
        if (to == IBV_QPS_RTS)
        {
            return {true,
                    none,
                    IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_ALT_PATH |
                        IBV_QP_PATH_MIG_STATE | IBV_QP_MIN_RNR_TIMER};
        }
        if (to == IBV_QPS_SQD)
        {
            return {true, none, IBV_QP_EN_SQD_ASYNC_NOTIFY};
        }
        break;
    case IBV_QPS_SQD:
        if (to == IBV_QPS_RTS)
        {
            return {true,
                    none,
                    IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_ALT_PATH |
                        IBV_QP_PATH_MIG_STATE | IBV_QP_MIN_RNR_TIMER};
        }
        if (to == IBV_QPS_SQD)
        {
            return {true,
                    none,
                    IBV_QP_AV | IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX |
                        IBV_QP_MIN_RNR_TIMER | IBV_QP_PATH_MIG_STATE | IBV_QP_TIMEOUT |
                        IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC |
                        IBV_QP_MAX_DEST_RD_ATOMIC};
        }
        break;
    default:
        break; // SQE is not reached by RC QPs; ERR only leaves to RESET
    }
    return {false, none, none};
}
} // namespace

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("AckReqInterval",
                          "Set AckReq at least every this many request packets, besides the "
                          "last packet of each message (packets; Linux rxe uses 64).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaQueuePair::m_ackReqInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LossRecovery",
                          "Loss-recovery policy (ns3::RdmaGoBackN as IBA specifies, or "
                          "ns3::RdmaSelectiveRepeat in the style of IRN).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaQueuePair::m_recovery),
                          MakePointerChecker<RdmaLossRecovery>())
            .AddTraceSource("PacketTx",
                            "A packet left the QP: opcode, PSN, whether it is a retransmission.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_packetTx),
                            "ns3::RdmaQueuePair::PacketTracedCallback")
            .AddTraceSource("StateChange",
                            "The QP changed state.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_stateChange),
                            "ns3::RdmaQueuePair::StateTracedCallback")
            .AddTraceSource("Timeout",
                            "The local ACK timer expired (IBA 9.7.6.1.3); the NIC's "
                            "congestion control listens to it.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_timeoutTrace),
                            "ns3::RdmaQueuePair::TimeoutTracedCallback")
            .AddTraceSource("Lost",
                            "A request PSN the loss recovery found lost (a SACK's hole, a "
                            "sequence or trimming NAK) and queued to be sent again; the NIC's "
                            "congestion control takes it out of the bytes in flight (RFC 6675 "
                            "section 4's pipe counts no lost segment).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_lostTrace),
                            "ns3::RdmaQueuePair::LostTracedCallback");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
    : m_qpn(0),
      m_completer(this, m_sq),
      m_requester(this, m_sq, m_completer),
      m_responder(this),
      m_ackReqInterval(64)
{
}

RdmaQueuePair::~RdmaQueuePair() = default;

void
RdmaQueuePair::DoDispose()
{
    ResetSendQueue();
    m_responder.Reset();
    m_init = InitAttr();
    m_recovery = nullptr;
    m_memory.Dispose();
    m_txReady = nullptr;
    Object::DoDispose();
}

void
RdmaQueuePair::Initialize(uint32_t qpn,
                          const InitAttr& init,
                          std::function<Ptr<RdmaMemoryRegion>(uint32_t)> lookupMr,
                          std::function<void(Ptr<RdmaQueuePair>)> txReady)
{
    m_qpn = qpn & 0xFFFFFF;
    m_init = init;
    m_memory.Initialize(init.pd, lookupMr);
    m_txReady = txReady;
    if (!m_recovery)
    {
        m_recovery = CreateObject<RdmaGoBackN>();
    }
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

QpState
RdmaQueuePair::GetState() const
{
    return m_attr.qpState;
}

const RdmaQpAttr&
RdmaQueuePair::Query() const
{
    return m_attr;
}

Ptr<RdmaLossRecovery>
RdmaQueuePair::GetLossRecovery() const
{
    return m_recovery;
}

Ptr<RdmaProtectionDomain>
RdmaQueuePair::GetPd() const
{
    return m_init.pd;
}

uint32_t
RdmaQueuePair::GetMtuBytes() const
{
    return RdmaMtuBytes(m_attr.pathMtu);
}

RdmaQueuePair::Stats&
RdmaQueuePair::Stats::operator+=(const Stats& o)
{
    Combine(o, [](uint64_t& a, uint64_t b) { a += b; });
    return *this;
}

void
RdmaQueuePair::Stats::RecordLate(uint32_t packets, Time time)
{
    ++latePackets;
    lateDepthPackets += packets;
    lateDepthNs += static_cast<uint64_t>(time.GetNanoSeconds());
    ++lateDepthPacketsBins[PacketsBin(packets)];
    ++lateDepthTimeBins[TimeBin(time)];
}

uint32_t
RdmaQueuePair::Stats::PacketsBin(uint32_t packets)
{
    // 1 -> 0, 2 -> 1, 3-4 -> 2, 5-8 -> 3, ...: the bits of packets - 1.
    uint32_t bin = 0;
    for (uint32_t v = packets > 0 ? packets - 1 : 0; v > 0 && bin + 1 < REORDER_BINS; v >>= 1)
    {
        ++bin;
    }
    return bin;
}

uint32_t
RdmaQueuePair::Stats::TimeBin(Time time)
{
    // < 1 us -> 0, [1, 2) us -> 1, [2, 4) -> 2, ...: the bits of whole microseconds.
    const int64_t us = time.GetNanoSeconds() / 1000;
    uint32_t bin = 0;
    for (int64_t v = us; v > 0 && bin + 1 < REORDER_BINS; v >>= 1)
    {
        ++bin;
    }
    return bin;
}

std::string
RdmaQueuePair::Stats::BinName(uint32_t bin, bool time)
{
    if (time)
    {
        const uint64_t lo = bin == 0 ? 0 : uint64_t(1) << (bin - 1);
        return bin + 1 == REORDER_BINS
                   ? std::to_string(lo) + "+"
                   : std::to_string(lo) + "-" + std::to_string(uint64_t(1) << bin);
    }
    const uint64_t lo = bin == 0 ? 1 : (uint64_t(1) << (bin - 1)) + 1;
    const uint64_t hi = uint64_t(1) << bin;
    if (bin + 1 == REORDER_BINS)
    {
        return std::to_string(lo) + "+";
    }
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
}

const RdmaQueuePair::Stats&
RdmaQueuePair::GetStats() const
{
    return m_stats;
}

RdmaQueuePair::Stats&
RdmaQueuePair::MutableStats()
{
    return m_stats;
}

void
RdmaQueuePair::TraceTimeout()
{
    m_timeoutTrace();
}

void
RdmaQueuePair::TracePacketTx(uint8_t opcode, uint32_t psn, bool retransmission)
{
    ++m_stats.packetsSent;
    m_packetTx(opcode, psn, retransmission);
}

int
RdmaQueuePair::CheckModify(const RdmaQpAttr& attr, uint32_t mask) const
{
    QpState cur = m_attr.qpState;
    if ((mask & IBV_QP_CUR_STATE) && attr.curQpState != cur)
    {
        return EINVAL;
    }
    QpState next = (mask & IBV_QP_STATE) ? attr.qpState : cur;
    Transition t = RcTransition(cur, next);
    uint32_t given = mask & ~(IBV_QP_STATE | IBV_QP_CUR_STATE);
    if (!t.valid || (given & t.required) != t.required || (given & ~(t.required | t.optional)) != 0)
    {
        return EINVAL;
    }
    if ((mask & IBV_QP_PATH_MTU) && RdmaMtuBytes(attr.pathMtu) == 0)
    {
        return EINVAL;
    }
    if (((mask & IBV_QP_RQ_PSN) && attr.rqPsn > 0xFFFFFF) ||
        ((mask & IBV_QP_SQ_PSN) && attr.sqPsn > 0xFFFFFF) ||
        ((mask & IBV_QP_DEST_QPN) && attr.destQpNum > 0xFFFFFF))
    {
        return EINVAL;
    }
    if (((mask & IBV_QP_TIMEOUT) && attr.timeout > 31) ||
        ((mask & IBV_QP_MIN_RNR_TIMER) && attr.minRnrTimer > 31) ||
        ((mask & IBV_QP_RETRY_CNT) && attr.retryCnt > 7) ||
        ((mask & IBV_QP_RNR_RETRY) && attr.rnrRetry > 7))
    {
        return EINVAL;
    }
    if (((mask & IBV_QP_MAX_QP_RD_ATOMIC) && attr.maxRdAtomic > m_init.maxRdAtomicLimit) ||
        ((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && attr.maxDestRdAtomic > m_init.maxRdAtomicLimit))
    {
        return EINVAL;
    }
    if ((mask & IBV_QP_PKEY_INDEX) && attr.pkeyIndex != 0)
    {
        return EINVAL; // the P_Key table has one entry, the default 0xFFFF
    }
    if ((mask & IBV_QP_PORT) && attr.portNum != 1)
    {
        return EINVAL;
    }
    return 0;
}

void
RdmaQueuePair::ApplyAttributes(const RdmaQpAttr& attr, uint32_t mask)
{
    if (mask & IBV_QP_ACCESS_FLAGS)
    {
        m_attr.qpAccessFlags = attr.qpAccessFlags;
    }
    if (mask & IBV_QP_PKEY_INDEX)
    {
        m_attr.pkeyIndex = attr.pkeyIndex;
    }
    if (mask & IBV_QP_PORT)
    {
        m_attr.portNum = attr.portNum;
    }
    if (mask & IBV_QP_AV)
    {
        m_attr.ahAttr = attr.ahAttr;
    }
    if (mask & IBV_QP_PATH_MTU)
    {
        m_attr.pathMtu = attr.pathMtu;
    }
    if (mask & IBV_QP_DEST_QPN)
    {
        m_attr.destQpNum = attr.destQpNum;
    }
    if (mask & IBV_QP_RQ_PSN)
    {
        m_attr.rqPsn = attr.rqPsn;
    }
    if (mask & IBV_QP_SQ_PSN)
    {
        m_attr.sqPsn = attr.sqPsn;
    }
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
    {
        m_attr.maxDestRdAtomic = attr.maxDestRdAtomic;
    }
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
    {
        m_attr.maxRdAtomic = attr.maxRdAtomic;
    }
    if (mask & IBV_QP_MIN_RNR_TIMER)
    {
        m_attr.minRnrTimer = attr.minRnrTimer;
    }
    if (mask & IBV_QP_TIMEOUT)
    {
        m_attr.timeout = attr.timeout;
    }
    if (mask & IBV_QP_RETRY_CNT)
    {
        m_attr.retryCnt = attr.retryCnt;
    }
    if (mask & IBV_QP_RNR_RETRY)
    {
        m_attr.rnrRetry = attr.rnrRetry;
    }
}

int
RdmaQueuePair::Modify(const RdmaQpAttr& attr, uint32_t mask)
{
    int rc = CheckModify(attr, mask);
    if (rc != 0)
    {
        NS_LOG_INFO("QP " << m_qpn << " ModifyQp refused (mask 0x" << std::hex << mask << std::dec
                          << ") in " << QpStateName(m_attr.qpState));
        return rc;
    }
    QpState cur = m_attr.qpState;
    QpState next = (mask & IBV_QP_STATE) ? attr.qpState : cur;
    ApplyAttributes(attr, mask);
    if (next == cur)
    {
        return 0;
    }
    if (next == IBV_QPS_RESET)
    {
        // Work requests are discarded without completions (IBA 10.3.1).
        ResetSendQueue();
        m_responder.Reset();
        RdmaQpAttr fresh;
        m_attr = fresh;
        SetState(IBV_QPS_RESET);
        return 0;
    }
    if (next == IBV_QPS_ERR)
    {
        EnterError();
        return 0;
    }
    if (next == IBV_QPS_RTR)
    {
        m_responder.Start(m_attr.rqPsn);
    }
    if (cur == IBV_QPS_RTR && next == IBV_QPS_RTS)
    {
        m_sq.Start(m_attr.sqPsn);
        m_completer.Start();
    }
    SetState(next);
    NotifyTx();
    return 0;
}

void
RdmaQueuePair::ResetSendQueue()
{
    m_completer.Stop();
    m_sq.Clear();
    m_requester.Reset();
}

void
RdmaQueuePair::SetState(QpState state)
{
    QpState old = m_attr.qpState;
    m_attr.qpState = state;
    if (old != state)
    {
        NS_LOG_INFO("QP " << m_qpn << " " << QpStateName(old) << " -> " << QpStateName(state));
        m_stateChange(old, state);
    }
}

void
RdmaQueuePair::EnterError()
{
    if (m_attr.qpState == IBV_QPS_ERR || m_attr.qpState == IBV_QPS_RESET)
    {
        return;
    }
    SetState(IBV_QPS_ERR);
    m_completer.Flush();
    m_responder.Flush();
}

void
RdmaQueuePair::Complete(bool send, RdmaWorkCompletion wc)
{
    wc.qpNum = m_qpn;
    wc.srcQp = m_attr.destQpNum;
    wc.completed = Simulator::Now();
    Ptr<RdmaCompletionQueue> cq = send ? m_init.sendCq : m_init.recvCq;
    if (cq && !cq->Push(wc))
    {
        // CQ overrun (IBA 11.4.2.1): the affiliated QP goes to the error state.
        EnterError();
    }
}

void
RdmaQueuePair::FailWorkRequest(bool send,
                               uint64_t wrId,
                               RdmaWcOpcode opcode,
                               Time posted,
                               RdmaWcStatus status)
{
    NS_LOG_INFO("QP " << m_qpn << " work request " << wrId
                      << " failed: " << RdmaWcStatusName(status));
    RdmaWorkCompletion wc;
    wc.wrId = wrId;
    wc.status = status;
    wc.opcode = opcode;
    wc.posted = posted;
    Complete(send, wc); // always, signaled or not (IBA 10.7.3.1)
    EnterError();
}

void
RdmaQueuePair::NotifyTx()
{
    // Every change that may let the QP send passes here: what the loss
    // recovery found lost since the last one is reported first.
    if (!m_sq.state.lost.empty())
    {
        for (uint32_t psn : m_sq.state.lost)
        {
            m_lostTrace(psn);
        }
        m_sq.state.lost.clear();
    }
    if (m_txReady && HasPacket())
    {
        m_txReady(this);
    }
}

int
RdmaQueuePair::PostSend(const RdmaSendWr& wr)
{
    QpState st = m_attr.qpState;
    if (st == IBV_QPS_RESET || st == IBV_QPS_INIT || st == IBV_QPS_RTR)
    {
        return EINVAL;
    }
    switch (wr.opcode)
    {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM:
    case IBV_WR_SEND_WITH_INV:
    case IBV_WR_RDMA_READ:
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        break;
    default:
        return EINVAL;
    }
    if (m_sq.wqes.size() >= m_init.maxSendWr)
    {
        return ENOMEM;
    }
    if (st == IBV_QPS_ERR)
    {
        RdmaWorkCompletion wc;
        wc.wrId = wr.wrId;
        wc.status = IBV_WC_WR_FLUSH_ERR;
        wc.posted = Simulator::Now();
        Complete(true, wc);
        return 0;
    }
    bool atomic =
        wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP || wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
    bool writesLocal = atomic || wr.opcode == IBV_WR_RDMA_READ;
    bool valid = m_memory.CheckLocalSgList(wr.sgList, writesLocal) &&
                 (!atomic || (wr.sgList.size() == 1 && wr.sgList[0].length == 8)) &&
                 wr.TotalLength() <= (1ULL << 31);
    if (!valid || ((atomic || wr.opcode == IBV_WR_RDMA_READ) && m_attr.maxRdAtomic == 0))
    {
        // Found by the NIC when it fetches the WQE: an error completion.
        Simulator::ScheduleNow(&RdmaQueuePair::FailWorkRequest,
                               this,
                               true,
                               wr.wrId,
                               IBV_WC_SEND,
                               Simulator::Now(),
                               valid ? IBV_WC_LOC_QP_OP_ERR : IBV_WC_LOC_PROT_ERR);
        return 0;
    }
    m_requester.Post(wr);
    return 0;
}

int
RdmaQueuePair::PostRecv(const RdmaRecvWr& wr)
{
    if (m_attr.qpState == IBV_QPS_RESET)
    {
        return EINVAL;
    }
    if (m_responder.GetPostedRecvs() >= m_init.maxRecvWr)
    {
        return ENOMEM;
    }
    if (m_attr.qpState == IBV_QPS_ERR)
    {
        RdmaWorkCompletion wc;
        wc.wrId = wr.wrId;
        wc.status = IBV_WC_WR_FLUSH_ERR;
        wc.opcode = IBV_WC_RECV;
        wc.posted = Simulator::Now();
        Complete(false, wc);
        return 0;
    }
    m_responder.Post(wr);
    return 0;
}

uint64_t
RdmaQueuePair::GetUnsentBytes() const
{
    return m_requester.GetUnsentBytes();
}

uint64_t
RdmaQueuePair::GetResendBytes() const
{
    return m_requester.GetResendBytes();
}

bool
RdmaQueuePair::HasPacket() const
{
    QpState st = m_attr.qpState;
    if (st == IBV_QPS_RESET || st == IBV_QPS_INIT || st == IBV_QPS_ERR)
    {
        return false;
    }
    return m_responder.HasPacket() || m_requester.HasPacket();
}

bool
RdmaQueuePair::HasResponse() const
{
    QpState st = m_attr.qpState;
    return st != IBV_QPS_RESET && st != IBV_QPS_INIT && st != IBV_QPS_ERR &&
           m_responder.HasPacket();
}

bool
RdmaQueuePair::BuildNextPacket(RoceFrame& frame)
{
    if (!HasPacket())
    {
        return false;
    }
    // Responses first: they unblock the peer's requester.
    if (m_responder.BuildPacket(frame))
    {
        return true;
    }
    return m_requester.BuildPacket(frame);
}

void
RdmaQueuePair::Receive(const RoceFrame& frame)
{
    uint8_t op = frame.bth.GetOpcode();
    bool response = (op >= RC_RDMA_READ_RESPONSE_FIRST && op <= RC_ATOMIC_ACKNOWLEDGE);
    if (response)
    {
        m_completer.ReceiveResponse(frame);
    }
    else
    {
        m_responder.ReceiveRequest(frame);
    }
    NotifyTx();
}

void
RdmaQueuePair::ReceiveTrimmed(const RoceFrame& frame)
{
    const uint8_t op = frame.bth.GetOpcode();
    if (op >= RC_RDMA_READ_RESPONSE_FIRST && op <= RC_ATOMIC_ACKNOWLEDGE)
    {
        ++m_stats.trimmedReceived;
        return;
    }
    m_responder.ReceiveTrimmed(frame);
    NotifyTx();
}

const std::vector<RdmaSge>*
RdmaQueuePair::PeekRecvSgList(uint32_t index) const
{
    const RdmaRecvWr* wr = m_responder.PeekRecv(index);
    return wr ? &wr->sgList : nullptr;
}

const std::vector<RdmaSge>*
RdmaQueuePair::PeekReadPlacement(uint32_t psn, uint64_t& offset) const
{
    const RdmaSendWr* wr = m_completer.PeekRead(psn, offset);
    return wr ? &wr->sgList : nullptr;
}

void
RdmaQueuePair::SetMemoryReadCallback(Callback<void, uint32_t, uint64_t, uint32_t> cb)
{
    m_memory.SetReadCallback(cb);
}

RdmaQpMemory&
RdmaQueuePair::GetMemory()
{
    return m_memory;
}

const RdmaQpMemory&
RdmaQueuePair::GetMemory() const
{
    return m_memory;
}

} // namespace ns3
