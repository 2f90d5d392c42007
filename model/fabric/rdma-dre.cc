/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-dre.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

void
RdmaDre::Configure(Time period,
                   double alpha,
                   DataRate rate,
                   uint8_t bits,
                   Time now,
                   uint64_t sentBytes)
{
    NS_ABORT_MSG_IF(!period.IsStrictlyPositive() || !(alpha > 0 && alpha <= 1) || bits < 1 ||
                        bits > 8,
                    "RdmaDre: Tdre > 0, alpha in (0, 1], Q in 1-8");
    m_periodPs = period.GetPicoSeconds();
    m_keep = 1 - alpha;
    const double tauSeconds = period.GetSeconds() / alpha;
    m_fullBytes = rate.GetBitRate() / 8.0 * tauSeconds;
    m_max = static_cast<uint8_t>((1u << bits) - 1);
    m_x = 0;
    m_tick = now.GetPicoSeconds() / m_periodPs;
    m_sent = sentBytes;
}

void
RdmaDre::Update(Time now, uint64_t sentBytes)
{
    const int64_t tick = now.GetPicoSeconds() / m_periodPs;
    if (tick > m_tick)
    {
        m_x *= std::pow(m_keep, static_cast<double>(tick - m_tick));
        m_tick = tick;
    }
    m_x += static_cast<double>(sentBytes - m_sent);
    m_sent = sentBytes;
}

uint8_t
RdmaDre::GetMetric() const
{
    const double levels = std::floor(m_x / m_fullBytes * (m_max + 1));
    return static_cast<uint8_t>(std::min<double>(levels, m_max));
}

} // namespace ns3
