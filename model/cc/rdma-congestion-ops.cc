/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(RdmaCcState);
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(RdmaNoCc);

TypeId
RdmaCcState::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCcState")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaCcState>()
            .AddTraceSource("Rate",
                            "The QP's pacing rate set by its congestion control.",
                            MakeTraceSourceAccessor(&RdmaCcState::m_rate),
                            "ns3::TracedValueCallback::DataRate")
            .AddTraceSource(
                "Window",
                "The QP's window, bytes (0 = no window), set by its congestion control.",
                MakeTraceSourceAccessor(&RdmaCcState::m_window),
                "ns3::TracedValueCallback::Uint64");
    return tid;
}

RdmaCcState::RdmaCcState()
    : m_rate(DataRate(100'000'000'000ULL)),
      m_window(0)
{
}

uint64_t
RdmaCcState::GetBdpBytes() const
{
    return static_cast<uint64_t>(
        std::llround(m_lineRate.GetBitRate() * m_baseRtt.GetSeconds() / 8.0));
}

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCongestionOps").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaCongestionOps::RdmaCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

RdmaCongestionOps::RdmaCongestionOps(const RdmaCongestionOps& other)
    : Object(other)
{
    NS_LOG_FUNCTION(this);
}

RdmaCongestionOps::~RdmaCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

bool
RdmaCongestionOps::NeedsSendRecords() const
{
    return true;
}

void
RdmaCongestionOps::Init(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    NS_ABORT_MSG_IF(state->m_lineRate.GetBitRate() == 0,
                    GetName() << ": RdmaCcState line rate is zero");
    NS_ABORT_MSG_IF(state->m_mtu == 0, GetName() << ": RdmaCcState MTU is zero");
    NS_ABORT_MSG_IF(!state->m_baseRtt.IsStrictlyPositive(),
                    GetName() << ": RdmaCcState base RTT must be positive");
    state->m_sndNxt = 0;
    state->m_sndUna = 0;
    state->m_bytesInFlight = 0;
    state->m_lastRtt = Time(0);
    state->m_minRtt = Time(0);
    state->m_rate = state->m_lineRate;
    state->m_window = 0;
    DoInit(state);
    KeepRateInRange(state);
}

void
RdmaCongestionOps::OnSend(Ptr<RdmaCcState> state, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << state << bytes);
    state->m_sndNxt += bytes;
    state->m_bytesInFlight += bytes;
    DoOnSend(state, bytes);
    KeepRateInRange(state);
}

void
RdmaCongestionOps::OnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << state << ack.ackedBytes << ack.rtt << ack.ecnEcho);
    state->m_sndUna += ack.ackedBytes;
    state->m_bytesInFlight -= std::min(state->m_bytesInFlight, ack.ackedBytes);
    if (ack.rtt.IsStrictlyPositive())
    {
        state->m_lastRtt = ack.rtt;
        if (state->m_minRtt.IsZero() || ack.rtt < state->m_minRtt)
        {
            state->m_minRtt = ack.rtt;
        }
    }
    DoOnAck(state, ack);
    KeepRateInRange(state);
}

void
RdmaCongestionOps::OnCnp(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    DoOnCnp(state);
    KeepRateInRange(state);
}

void
RdmaCongestionOps::OnNak(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    DoOnNak(state);
    KeepRateInRange(state);
}

void
RdmaCongestionOps::OnTrimNak(Ptr<RdmaCcState> state, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << state << bytes);
    DoOnTrimNak(state, bytes);
    KeepRateInRange(state);
}

void
RdmaCongestionOps::OnTimeout(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    state->m_bytesInFlight = 0;
    DoOnTimeout(state);
    KeepRateInRange(state);
}

void
RdmaCongestionOps::SetRate(Ptr<RdmaCcState> state, double bps)
{
    double line = static_cast<double>(state->m_lineRate.GetBitRate());
    double clamped = std::max(1.0, std::min(bps, line));
    state->m_rate = DataRate(static_cast<uint64_t>(std::llround(clamped)));
}

void
RdmaCongestionOps::KeepRateInRange(Ptr<RdmaCcState> state)
{
    uint64_t rate = state->m_rate.Get().GetBitRate();
    if (rate == 0 || rate > state->m_lineRate.GetBitRate())
    {
        SetRate(state, static_cast<double>(rate));
    }
}

void
RdmaCongestionOps::DoInit(Ptr<RdmaCcState>)
{
}

void
RdmaCongestionOps::DoOnSend(Ptr<RdmaCcState>, uint32_t)
{
}

void
RdmaCongestionOps::DoOnAck(Ptr<RdmaCcState>, const RdmaAckInfo&)
{
}

void
RdmaCongestionOps::DoOnCnp(Ptr<RdmaCcState>)
{
}

void
RdmaCongestionOps::DoOnNak(Ptr<RdmaCcState>)
{
}

void
RdmaCongestionOps::DoOnTrimNak(Ptr<RdmaCcState>, uint32_t)
{
}

void
RdmaCongestionOps::DoOnTimeout(Ptr<RdmaCcState>)
{
}

TypeId
RdmaNoCc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaNoCc")
                            .SetParent<RdmaCongestionOps>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaNoCc>();
    return tid;
}

RdmaNoCc::RdmaNoCc()
{
}

RdmaNoCc::RdmaNoCc(const RdmaNoCc& other)
    : RdmaCongestionOps(other)
{
}

std::string
RdmaNoCc::GetName() const
{
    return "RdmaNoCc";
}

Ptr<RdmaCongestionOps>
RdmaNoCc::Fork()
{
    return CopyObject<RdmaNoCc>(this);
}

} // namespace ns3
