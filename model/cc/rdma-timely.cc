/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-timely.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTimely");
NS_OBJECT_ENSURE_REGISTERED(RdmaTimely);

TypeId
RdmaTimely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTimely")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaTimely>()
            .AddAttribute("Alpha",
                          "EWMA weight of the newest RTT difference (TIMELY Algorithm 1). "
                          "Default 0.875 (HPCC simulator's TIMELY).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&RdmaTimely::m_alpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Beta",
                          "Multiplicative-decrease factor beta (TIMELY Algorithm 1). Default 0.8 "
                          "(HPCC simulator's TIMELY).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&RdmaTimely::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("TLow",
                          "T_low: below it the rate rises whatever the gradient. Default 50 us "
                          "(HPCC simulator's TIMELY).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaTimely::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "T_high: above it the rate falls whatever the gradient. Default "
                          "500 us (HPCC simulator's TIMELY).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&RdmaTimely::m_tHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MinRtt",
                          "minRTT, the normalisation of the RTT gradient. Default 20 us (HPCC "
                          "simulator's TIMELY).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&RdmaTimely::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AdditiveIncrease",
                          "Additive step delta. 0 (default) = 10 Mb/s per 10 Gb/s of line rate "
                          "(the HPCC simulator's simulation/run.py for TIMELY, "
                          "github.com/alibaba-edu/High-Precision-Congestion-Control).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaTimely::m_delta),
                          MakeDataRateChecker())
            .AddAttribute("HaiFactor",
                          "N: hyperactive increase adds N x delta. Default 5 (TIMELY paper "
                          "section 4.3; HPCC simulator RATE_HAI = 5 x RATE_AI).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaTimely::m_haiFactor),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HaiThreshold",
                          "Increases in a row before hyperactive increase. Default 5 (TIMELY "
                          "paper section 4.3; HPCC simulator).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaTimely::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MinRate",
                          "Floor of the rate. Default 100 Mb/s (this module; the HPCC "
                          "simulator uses MIN_RATE 1 Gb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaTimely::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

RdmaTimely::RdmaTimely()
    : m_alpha(0.875),
      m_beta(0.8),
      m_tLow(MicroSeconds(50)),
      m_tHigh(MicroSeconds(500)),
      m_minRtt(MicroSeconds(20)),
      m_delta(DataRate(0)),
      m_haiFactor(5),
      m_haiThreshold(5),
      m_minRate(DataRate(100'000'000ULL))
{
    NS_LOG_FUNCTION(this);
}

RdmaTimely::RdmaTimely(const RdmaTimely& other)
    : RdmaCongestionOps(other),
      m_alpha(other.m_alpha),
      m_beta(other.m_beta),
      m_tLow(other.m_tLow),
      m_tHigh(other.m_tHigh),
      m_minRtt(other.m_minRtt),
      m_delta(other.m_delta),
      m_haiFactor(other.m_haiFactor),
      m_haiThreshold(other.m_haiThreshold),
      m_minRate(other.m_minRate)
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaTimely::GetName() const
{
    return "RdmaTimely";
}

Ptr<RdmaCongestionOps>
RdmaTimely::Fork()
{
    return CopyObject<RdmaTimely>(this);
}

double
RdmaTimely::GetRttDiff() const
{
    return m_rttDiff;
}

uint32_t
RdmaTimely::GetIncreaseStage() const
{
    return m_incStage;
}

double
RdmaTimely::GetAdditiveStep() const
{
    return m_step;
}

void
RdmaTimely::DoInit(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    double line = static_cast<double>(state->m_lineRate.GetBitRate());
    m_step =
        m_delta.GetBitRate() > 0 ? static_cast<double>(m_delta.GetBitRate()) : 10e6 * line / 10e9;
    m_haveRtt = false;
    m_prevRtt = Time(0);
    m_rttDiff = 0;
    m_incStage = 0;
    m_lastUpdateSeq = 0;
}

void
RdmaTimely::DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << state << ack.rtt);
    if (!ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    if (!m_haveRtt)
    {
        m_haveRtt = true;
        m_prevRtt = ack.rtt;
        m_lastUpdateSeq = state->m_sndNxt;
        return;
    }
    if (state->m_sndUna <= m_lastUpdateSeq)
    {
        return;
    }
    m_lastUpdateSeq = state->m_sndNxt;
    double rtt = ack.rtt.GetSeconds();
    double newRttDiff = rtt - m_prevRtt.GetSeconds();
    m_prevRtt = ack.rtt;
    m_rttDiff = (1.0 - m_alpha) * m_rttDiff + m_alpha * newRttDiff;
    double gradient = m_rttDiff / m_minRtt.GetSeconds();
    double rate = static_cast<double>(state->m_rate.Get().GetBitRate());
    bool increase;
    if (ack.rtt < m_tLow)
    {
        increase = true;
    }
    else if (ack.rtt > m_tHigh)
    {
        increase = false;
        rate *= 1.0 - m_beta * (1.0 - m_tHigh.GetSeconds() / rtt);
    }
    else if (gradient <= 0)
    {
        increase = true;
    }
    else
    {
        increase = false;
        rate *= std::max(0.0, 1.0 - m_beta * gradient);
    }
    if (increase)
    {
        rate += m_incStage >= m_haiThreshold ? m_haiFactor * m_step : m_step;
        ++m_incStage;
    }
    else
    {
        m_incStage = 0;
    }
    rate = std::max(rate, static_cast<double>(m_minRate.GetBitRate()));
    SetRate(state, rate);
    NS_LOG_LOGIC("rtt " << ack.rtt << " gradient " << gradient << " rate " << state->m_rate.Get());
}

} // namespace ns3
