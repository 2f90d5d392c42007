/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-swift.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwift");
NS_OBJECT_ENSURE_REGISTERED(RdmaSwift);

TypeId
RdmaSwift::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSwift")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSwift>()
            .AddAttribute("BaseTarget",
                          "Fabric base target delay (Swift section 3.1). Default 25 us (this "
                          "module's choice; set it above the path's base RTT).",
                          TimeValue(MicroSeconds(25)),
                          MakeTimeAccessor(&RdmaSwift::m_baseTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PerHopDelay",
                          "h, fabric target added per switch hop (Swift section 3.5 "
                          "topology-based scaling). Default 1 us (this module's choice).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RdmaSwift::m_perHopDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsRange",
                          "fs_range, the most the flow-scaling term adds to the fabric target "
                          "(Swift section 3.5). Default 125 us = 5 x BaseTarget (this module's "
                          "choice, not checked against the paper).",
                          TimeValue(MicroSeconds(125)),
                          MakeTimeAccessor(&RdmaSwift::m_fsRange),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsMinCwnd",
                          "fs_min_cwnd, packets: at or below it the flow-scaling term is "
                          "FsRange. Default 0.1 (a value common in public simulators, not "
                          "checked against the paper).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&RdmaSwift::m_fsMinCwnd),
                          MakeDoubleChecker<double>(1e-6))
            .AddAttribute("FsMaxCwnd",
                          "fs_max_cwnd, packets: at or above it the flow-scaling term is 0. "
                          "Default 100 (a value common in public simulators, not checked "
                          "against the paper).",
                          DoubleValue(100.0),
                          MakeDoubleAccessor(&RdmaSwift::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(1e-6))
            .AddAttribute("HostTarget",
                          "Target of the host (endpoint) delay, the ACK's remoteDelay (Swift "
                          "section 3.2). Default 20 us (this module's choice).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&RdmaSwift::m_hostTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Ai",
                          "Additive increase, packets per RTT (Swift Algorithm 1). Default 1 "
                          "(a value common in public simulators, not checked against the paper).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RdmaSwift::m_ai),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Beta",
                          "Multiplicative-decrease factor beta (Swift Algorithm 1). Default 0.8 "
                          "(a value common in public simulators, not checked against the paper).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&RdmaSwift::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxMdf",
                          "max_mdf, the largest fraction one decrease removes (Swift "
                          "Algorithm 1). Default 0.5 (a value common in public simulators, "
                          "not checked against the paper).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RdmaSwift::m_maxMdf),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MinCwnd",
                          "Smallest window, packets (below 1 the QP is paced). Default 0.001 "
                          "(this module's choice).",
                          DoubleValue(0.001),
                          MakeDoubleAccessor(&RdmaSwift::m_minCwnd),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("InitialCwnd",
                          "Window at the QP's start, packets; 0 (default) = the path's "
                          "bandwidth-delay product (line rate x base RTT / MTU).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RdmaSwift::m_initialCwnd),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("RetxResetThreshold",
                          "Timeouts in a row after which both windows drop to MinCwnd (Swift "
                          "Algorithm 1 RETX_RESET_THRESHOLD). Default 5 (this module's choice).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaSwift::m_retxReset),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

RdmaSwift::RdmaSwift()
    : m_baseTarget(MicroSeconds(25)),
      m_perHopDelay(MicroSeconds(1)),
      m_fsRange(MicroSeconds(125)),
      m_fsMinCwnd(0.1),
      m_fsMaxCwnd(100.0),
      m_hostTarget(MicroSeconds(20)),
      m_ai(1.0),
      m_beta(0.8),
      m_maxMdf(0.5),
      m_minCwnd(0.001),
      m_initialCwnd(0.0),
      m_retxReset(5)
{
    NS_LOG_FUNCTION(this);
}

RdmaSwift::RdmaSwift(const RdmaSwift& other)
    : RdmaCongestionOps(other),
      m_baseTarget(other.m_baseTarget),
      m_perHopDelay(other.m_perHopDelay),
      m_fsRange(other.m_fsRange),
      m_fsMinCwnd(other.m_fsMinCwnd),
      m_fsMaxCwnd(other.m_fsMaxCwnd),
      m_hostTarget(other.m_hostTarget),
      m_ai(other.m_ai),
      m_beta(other.m_beta),
      m_maxMdf(other.m_maxMdf),
      m_minCwnd(other.m_minCwnd),
      m_initialCwnd(other.m_initialCwnd),
      m_retxReset(other.m_retxReset)
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaSwift::GetName() const
{
    return "RdmaSwift";
}

Ptr<RdmaCongestionOps>
RdmaSwift::Fork()
{
    return CopyObject<RdmaSwift>(this);
}

double
RdmaSwift::GetCwnd() const
{
    return std::min(m_fabric.cwnd, m_host.cwnd);
}

double
RdmaSwift::GetFabricCwnd() const
{
    return m_fabric.cwnd;
}

double
RdmaSwift::GetHostCwnd() const
{
    return m_host.cwnd;
}

double
RdmaSwift::FlowScalingSeconds(double cwnd) const
{
    double range = m_fsRange.GetSeconds();
    double denom = 1.0 / std::sqrt(m_fsMinCwnd) - 1.0 / std::sqrt(m_fsMaxCwnd);
    if (range <= 0 || denom <= 0)
    {
        return 0;
    }
    double a = range / denom;
    double b = -a / std::sqrt(m_fsMaxCwnd);
    double fs = a / std::sqrt(std::max(cwnd, 1e-12)) + b;
    return std::max(0.0, std::min(fs, range));
}

double
RdmaSwift::FabricTargetSeconds(double cwnd, uint32_t hops) const
{
    return m_baseTarget.GetSeconds() + m_perHopDelay.GetSeconds() * hops + FlowScalingSeconds(cwnd);
}

Time
RdmaSwift::GetFlowScalingDelay(double cwnd) const
{
    return Seconds(FlowScalingSeconds(cwnd));
}

Time
RdmaSwift::GetFabricTarget(uint32_t hops) const
{
    return Seconds(FabricTargetSeconds(m_fabric.cwnd, hops));
}

Time
RdmaSwift::CurrentRtt(Ptr<const RdmaCcState> state)
{
    return state->m_lastRtt.IsStrictlyPositive() ? state->m_lastRtt : state->m_baseRtt;
}

void
RdmaSwift::DoInit(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    double bdpPackets = static_cast<double>(state->GetBdpBytes()) / state->m_mtu;
    m_fabric = Window();
    m_fabric.cwnd = std::max(m_initialCwnd > 0 ? m_initialCwnd : bdpPackets, m_minCwnd);
    m_host = Window();
    m_host.cwnd = std::numeric_limits<double>::infinity();
    m_timeouts = 0;
    Apply(state);
}

bool
RdmaSwift::CanDecrease(const Window& w, Time rtt)
{
    return !w.decreased || Simulator::Now() - w.lastDecrease >= rtt;
}

void
RdmaSwift::Update(Window& w, double delay, double target, double ackedPackets, Time rtt) const
{
    if (delay < target)
    {
        // Additive increase: Ai packets per RTT, spread over the ACKs.
        w.cwnd += w.cwnd >= 1.0 ? m_ai * ackedPackets / w.cwnd : m_ai * ackedPackets;
    }
    else if (CanDecrease(w, rtt))
    {
        double factor = std::max(1.0 - m_beta * (delay - target) / delay, 1.0 - m_maxMdf);
        w.cwnd *= factor;
        w.lastDecrease = Simulator::Now();
        w.decreased = true;
    }
    w.cwnd = std::max(w.cwnd, m_minCwnd);
}

void
RdmaSwift::CutByMaxMdf(Window& w, Time rtt) const
{
    if (std::isinf(w.cwnd) || !CanDecrease(w, rtt))
    {
        return;
    }
    w.cwnd = std::max(w.cwnd * (1.0 - m_maxMdf), m_minCwnd);
    w.lastDecrease = Simulator::Now();
    w.decreased = true;
}

void
RdmaSwift::DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << state << ack.rtt << ack.remoteDelay);
    if (!ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    m_timeouts = 0;
    Time rtt = ack.rtt;
    Time hostDelay = std::min(ack.remoteDelay, rtt);
    Time fabricDelay = rtt - hostDelay;
    uint32_t hops = ack.hops > 0 ? ack.hops : static_cast<uint32_t>(ack.intHops.size());
    double acked = static_cast<double>(ack.ackedBytes) / state->m_mtu;
    double fabricTarget = FabricTargetSeconds(m_fabric.cwnd, hops);
    Update(m_fabric, fabricDelay.GetSeconds(), fabricTarget, acked, rtt);
    if (hostDelay.IsStrictlyPositive())
    {
        if (std::isinf(m_host.cwnd))
        {
            m_host.cwnd = m_fabric.cwnd;
        }
        Update(m_host, hostDelay.GetSeconds(), m_hostTarget.GetSeconds(), acked, rtt);
    }
    NS_LOG_LOGIC("fabric delay " << fabricDelay << " target " << fabricTarget << " fcwnd "
                                 << m_fabric.cwnd << " ecwnd " << m_host.cwnd);
    Apply(state);
}

void
RdmaSwift::DoOnNak(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    m_timeouts = 0;
    CutByMaxMdf(m_fabric, CurrentRtt(state));
    Apply(state);
}

void
RdmaSwift::DoOnTimeout(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    ++m_timeouts;
    if (m_timeouts >= m_retxReset)
    {
        m_fabric.cwnd = m_minCwnd;
        if (!std::isinf(m_host.cwnd))
        {
            m_host.cwnd = m_minCwnd;
        }
    }
    else
    {
        CutByMaxMdf(m_fabric, CurrentRtt(state));
    }
    Apply(state);
}

void
RdmaSwift::Apply(Ptr<RdmaCcState> state)
{
    double cwnd = GetCwnd();
    double bytes = cwnd * state->m_mtu;
    double rounded = cwnd >= 1.0 ? std::round(bytes) : std::ceil(bytes);
    state->m_window = std::max<uint64_t>(1, static_cast<uint64_t>(rounded));
    if (cwnd >= 1.0)
    {
        SetRate(state, static_cast<double>(state->m_lineRate.GetBitRate()));
    }
    else
    {
        // Pacing below one packet: one MTU every RTT / cwnd.
        SetRate(state, bytes * 8.0 / CurrentRtt(state).GetSeconds());
    }
}

} // namespace ns3
