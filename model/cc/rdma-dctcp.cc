/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-dctcp.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDctcp");
NS_OBJECT_ENSURE_REGISTERED(RdmaDctcp);

TypeId
RdmaDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaDctcp")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaDctcp>()
            .AddAttribute("G",
                          "Gain g of the alpha estimate. Default 1/16 (DCTCP paper section "
                          "3.4; RFC 8257 section 4.2).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&RdmaDctcp::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialAlpha",
                          "Alpha at the QP's start. Default 1 (RFC 8257 section 3.3; ns-3 "
                          "TcpDctcp DctcpAlphaOnInit).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RdmaDctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialWindow",
                          "Window at the QP's start, bytes; 0 (default) = the path's "
                          "bandwidth-delay product, line rate x base RTT (this module: RDMA "
                          "starts at line rate, no slow start).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaDctcp::m_initialWindow),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

RdmaDctcp::RdmaDctcp()
    : m_g(1.0 / 16),
      m_initialAlpha(1.0),
      m_initialWindow(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaDctcp::RdmaDctcp(const RdmaDctcp& other)
    : RdmaCongestionOps(other),
      m_g(other.m_g),
      m_initialAlpha(other.m_initialAlpha),
      m_initialWindow(other.m_initialWindow)
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaDctcp::GetName() const
{
    return "RdmaDctcp";
}

Ptr<RdmaCongestionOps>
RdmaDctcp::Fork()
{
    return CopyObject<RdmaDctcp>(this);
}

double
RdmaDctcp::GetAlpha() const
{
    return m_alpha;
}

double
RdmaDctcp::GetCwnd() const
{
    return m_cwnd;
}

void
RdmaDctcp::DoInit(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    m_alpha = m_initialAlpha;
    uint64_t w = m_initialWindow > 0 ? m_initialWindow : state->GetBdpBytes();
    m_cwnd = static_cast<double>(std::max<uint64_t>(w, state->m_mtu));
    m_ackedBytes = 0;
    m_markedBytes = 0;
    m_eceInWindow = false;
    m_windowStarted = false;
    m_windowEnd = 0;
    m_inCwr = false;
    m_cwrEnd = 0;
    Apply(state);
}

void
RdmaDctcp::Apply(Ptr<RdmaCcState> state) const
{
    state->m_window = static_cast<uint64_t>(std::llround(m_cwnd));
}

void
RdmaDctcp::Reduce(Ptr<RdmaCcState> state, double factor)
{
    if (m_inCwr)
    {
        return;
    }
    m_cwnd = std::max(m_cwnd * factor, static_cast<double>(state->m_mtu));
    m_inCwr = true;
    m_cwrEnd = state->m_sndNxt;
    NS_LOG_LOGIC("cut by " << factor << " to " << m_cwnd);
}

void
RdmaDctcp::DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << state << ack.ackedBytes << ack.ecnEcho);
    m_ackedBytes += ack.ackedBytes;
    if (ack.ecnEcho)
    {
        m_markedBytes += ack.ackedBytes;
        m_eceInWindow = true;
    }
    if (m_inCwr && state->m_sndUna >= m_cwrEnd)
    {
        m_inCwr = false;
    }
    if (ack.ecnEcho)
    {
        // DCTCP paper eq. 2 with the alpha of the last completed window.
        Reduce(state, 1.0 - m_alpha / 2.0);
    }
    if (!m_windowStarted)
    {
        m_windowStarted = true;
        m_windowEnd = state->m_sndNxt;
    }
    else if (state->m_sndUna >= m_windowEnd)
    {
        // DCTCP paper eq. 1: alpha = (1 - g) alpha + g F.
        double f = m_ackedBytes > 0 ? static_cast<double>(m_markedBytes) / m_ackedBytes : 0.0;
        m_alpha = (1.0 - m_g) * m_alpha + m_g * f;
        if (!m_eceInWindow)
        {
            m_cwnd += state->m_mtu;
        }
        NS_LOG_LOGIC("window end: F " << f << " alpha " << m_alpha << " cwnd " << m_cwnd);
        m_ackedBytes = 0;
        m_markedBytes = 0;
        m_eceInWindow = false;
        m_windowEnd = state->m_sndNxt;
    }
    Apply(state);
}

void
RdmaDctcp::DoOnNak(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    Reduce(state, 0.5);
    Apply(state);
}

void
RdmaDctcp::DoOnTimeout(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    m_cwnd = state->m_mtu;
    m_inCwr = true;
    m_cwrEnd = state->m_sndNxt;
    Apply(state);
}

} // namespace ns3
