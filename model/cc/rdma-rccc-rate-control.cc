/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-rccc-rate-control.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

RdmaRcccRateControl::RdmaRcccRateControl(double minRate)
    : m_minRate(minRate)
{
    NS_ABORT_MSG_IF(!(minRate > 0 && minRate <= 1),
                    "RdmaRcccRateControl: a minimum rate of " << minRate
                                                              << "; (0, 1] is needed");
}

void
RdmaRcccRateControl::OnRequest(bool ce)
{
    ++m_requests;
    m_marked += ce ? 1 : 0;
}

void
RdmaRcccRateControl::OnTrimmed()
{
    ++m_requests;
    ++m_trimmed;
}

double
RdmaRcccRateControl::Update()
{
    const uint64_t whole = m_requests - m_trimmed;
    const double share = whole > 0 ? static_cast<double>(m_marked) / whole : 0;
    bool cut = false;
    if (m_trimmed > 0)
    {
        m_rate -= static_cast<double>(m_trimmed) / m_requests;
        cut = true;
    }
    m_g = m_g * (1 - ALPHA) + ALPHA * share;
    if (m_g > TARGET_CONGESTION)
    {
        m_rate *= 1 - (m_g - TARGET_CONGESTION) * MD;
        cut = true;
    }
    if (!cut)
    {
        m_rate += m_marked == 0 ? AI * std::pow(2.0, m_increases) : AI;
        ++m_increases;
    }
    else
    {
        m_increases = 0;
    }
    m_rate = std::clamp(m_rate, m_minRate, 1.0);
    m_requests = 0;
    m_marked = 0;
    m_trimmed = 0;
    return m_rate;
}

double
RdmaRcccRateControl::GetRate() const
{
    return m_rate;
}

bool
RdmaRcccRateControl::IsQuiet() const
{
    return m_requests == 0;
}

} // namespace ns3
