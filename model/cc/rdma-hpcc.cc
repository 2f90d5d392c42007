/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-hpcc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHpcc");
NS_OBJECT_ENSURE_REGISTERED(RdmaHpcc);

TypeId
RdmaHpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaHpcc")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaHpcc>()
            .AddAttribute("TargetUtilization",
                          "eta, the bottleneck utilization HPCC aims at. Default 0.95 (HPCC "
                          "paper section 3.3; HPCC simulator U_TARGET).",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&RdmaHpcc::m_eta),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("MaxStage",
                          "maxStage: additive-increase steps of W_c before a multiplicative "
                          "step towards eta. Default 5 (HPCC paper section 3.3; HPCC "
                          "simulator MI_THRESH).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaHpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase as a rate: W_AI = RateAi x T. 0 (default) = "
                          "10 Mb/s per 25 Gb/s of line rate (RATE_AI of the HPCC simulator's "
                          "simulation/run.py, github.com/alibaba-edu/"
                          "High-Precision-Congestion-Control; the paper sets "
                          "W_AI = W_init (1 - eta) / N for N flows).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaHpcc::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("FastReact",
                          "Whether ACKs between two W_c updates also set W (per-ACK fast "
                          "reaction, HPCC paper section 3.3). Default true.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaHpcc::m_fastReact),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Floor of W / T. Default 100 Mb/s (this module; the HPCC simulator "
                          "uses MIN_RATE 1 Gb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaHpcc::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

RdmaHpcc::RdmaHpcc()
    : m_eta(0.95),
      m_maxStage(5),
      m_rateAi(DataRate(0)),
      m_fastReact(true),
      m_minRate(DataRate(100'000'000ULL))
{
    NS_LOG_FUNCTION(this);
}

RdmaHpcc::RdmaHpcc(const RdmaHpcc& other)
    : RdmaCongestionOps(other),
      m_eta(other.m_eta),
      m_maxStage(other.m_maxStage),
      m_rateAi(other.m_rateAi),
      m_fastReact(other.m_fastReact),
      m_minRate(other.m_minRate)
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaHpcc::GetName() const
{
    return "RdmaHpcc";
}

Ptr<RdmaCongestionOps>
RdmaHpcc::Fork()
{
    return CopyObject<RdmaHpcc>(this);
}

double
RdmaHpcc::GetUtilization() const
{
    return m_u;
}

double
RdmaHpcc::GetReferenceWindow() const
{
    return m_wc;
}

double
RdmaHpcc::GetWindow() const
{
    return m_w;
}

double
RdmaHpcc::GetWindowAi() const
{
    return m_wAi;
}

uint32_t
RdmaHpcc::GetIncreaseStage() const
{
    return m_incStage;
}

void
RdmaHpcc::DoInit(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    double t = state->m_baseRtt.GetSeconds();
    double line = static_cast<double>(state->m_lineRate.GetBitRate());
    double rateAi =
        m_rateAi.GetBitRate() > 0 ? static_cast<double>(m_rateAi.GetBitRate()) : 10e6 * line / 25e9;
    m_wInit = line * t / 8.0;
    m_wMin = std::min(static_cast<double>(m_minRate.GetBitRate()) * t / 8.0, m_wInit);
    m_wAi = rateAi * t / 8.0;
    m_wc = m_wInit;
    m_w = m_wInit;
    m_u = 1.0;
    m_incStage = 0;
    m_lastUpdateSeq = 0;
    m_refs.clear();
    m_prevHops = 0;
    m_havePrev = false;
    state->m_window = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(m_w)));
    SetRate(state, line);
}

bool
RdmaHpcc::MeasureInflight(Ptr<const RdmaCcState> state, const std::vector<RdmaIntHop>& hops)
{
    double t = state->m_baseRtt.GetSeconds();
    double uMax = 0;
    double tau = 0;
    bool measured = false;
    for (std::size_t j = 0; j < hops.size(); ++j)
    {
        const RdmaIntHop& now = hops[j];
        std::size_t i = FindReference(j, now.egressId);
        if (i == m_refs.size())
        {
            continue; // no earlier record of this egress
        }
        const RdmaIntHop& before = m_refs[i].hop;
        double dt = (now.timestamp - before.timestamp).GetSeconds();
        double b = static_cast<double>(now.linkRate.GetBitRate());
        if (dt <= 0 || b <= 0 || now.txBytes < before.txBytes)
        {
            continue;
        }
        double txRate = static_cast<double>(now.txBytes - before.txBytes) * 8.0 / dt;
        double qlen = std::min(now.qlenBytes, before.qlenBytes);
        double u = qlen * 8.0 / (b * t) + txRate / b;
        if (!measured || u > uMax)
        {
            uMax = u;
            tau = dt;
            measured = true;
        }
    }
    if (!measured)
    {
        return false;
    }
    tau = std::min(tau, t);
    m_u = (1.0 - tau / t) * m_u + (tau / t) * uMax;
    return true;
}

std::size_t
RdmaHpcc::FindReference(std::size_t slot, uint64_t egressId) const
{
    std::size_t i = 0;
    while (i < m_refs.size() && (m_refs[i].slot != slot || m_refs[i].hop.egressId != egressId))
    {
        ++i;
    }
    return i;
}

void
RdmaHpcc::KeepReferences(const std::vector<RdmaIntHop>& hops)
{
    for (std::size_t j = 0; j < hops.size(); ++j)
    {
        std::size_t i = FindReference(j, hops[j].egressId);
        if (i < m_refs.size())
        {
            m_refs[i].hop = hops[j];
        }
        else
        {
            m_refs.push_back({j, hops[j]});
        }
    }
}

double
RdmaHpcc::ComputeWind(bool updateWc)
{
    double w;
    bool multiplicative = m_u >= m_eta || m_incStage >= m_maxStage;
    if (multiplicative)
    {
        w = m_u > 0 ? m_wc / (m_u / m_eta) + m_wAi : m_wInit;
    }
    else
    {
        w = m_wc + m_wAi;
    }
    w = std::max(m_wMin, std::min(w, m_wInit));
    if (updateWc)
    {
        m_incStage = multiplicative ? 0 : m_incStage + 1;
        m_wc = w;
    }
    return w;
}

void
RdmaHpcc::DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << state << ack.intHops.size());
    if (ack.intHops.empty())
    {
        return;
    }
    if (!m_havePrev || m_prevHops != ack.intHops.size())
    {
        m_refs.clear();
        KeepReferences(ack.intHops);
        m_prevHops = ack.intHops.size();
        m_havePrev = true;
        m_lastUpdateSeq = state->m_sndNxt;
        return;
    }
    bool measured = MeasureInflight(state, ack.intHops);
    KeepReferences(ack.intHops);
    if (!measured)
    {
        return;
    }
    bool updateWc = state->m_sndUna > m_lastUpdateSeq;
    if (!updateWc && !m_fastReact)
    {
        return;
    }
    m_w = ComputeWind(updateWc);
    if (updateWc)
    {
        m_lastUpdateSeq = state->m_sndNxt;
    }
    NS_LOG_LOGIC("U " << m_u << " W " << m_w << " Wc " << m_wc << " stage " << m_incStage
                      << (updateWc ? " (update)" : " (fast)"));
    state->m_window = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(m_w)));
    SetRate(state, m_w * 8.0 / state->m_baseRtt.GetSeconds());
}

} // namespace ns3
