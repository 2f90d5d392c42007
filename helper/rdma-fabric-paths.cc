/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-fabric-paths.h"

#include <utility>

namespace ns3
{

RdmaFabricPaths::RdmaFabricPaths(const RdmaTopologySpec& spec,
                                 const RdmaRouteComputer& routes,
                                 WireTimeFunction wireTime)
    : m_spec(spec),
      m_routes(routes),
      m_wireTime(std::move(wireTime))
{
}

Time
RdmaFabricPaths::GetPropagationDelay(uint32_t src, uint32_t dst) const
{
    Time t;
    for (uint32_t l : m_routes.GetPath(src, dst))
    {
        t += m_spec.links[l].delay;
    }
    return t;
}

DataRate
RdmaFabricPaths::GetBottleneckRate(uint32_t src, uint32_t dst) const
{
    uint64_t bps = 0;
    for (uint32_t l : m_routes.GetPath(src, dst))
    {
        const uint64_t r = m_spec.links[l].rate.GetBitRate();
        bps = (bps == 0 || r < bps) ? r : bps;
    }
    // The planes are copies: a pair's paths over all of them carry P times one's.
    return DataRate(bps * m_spec.planes);
}

Time
RdmaFabricPaths::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t frameBytes, uint32_t ackBytes) const
{
    Time t;
    for (uint32_t l : m_routes.GetPath(src, dst))
    {
        t += m_spec.links[l].delay + m_wireTime(l, frameBytes);
    }
    for (uint32_t l : m_routes.GetPath(dst, src))
    {
        t += m_spec.links[l].delay + m_wireTime(l, ackBytes);
    }
    return t;
}

RdmaPathFunction
RdmaFabricPaths::GetPathFunction(uint32_t frameBytes, uint32_t ackBytes) const
{
    return [this, frameBytes, ackBytes](uint32_t src, uint32_t dst) {
        RdmaPathInfo info;
        info.baseRtt = GetBaseRtt(src, dst, frameBytes, ackBytes);
        info.bottleneck = GetBottleneckRate(src, dst);
        return info;
    };
}

} // namespace ns3
