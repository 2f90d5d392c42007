/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-adaptive-routing.h"

#include <limits>
#include <vector>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaAdaptiveRouting);

TypeId
RdmaAdaptiveRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaAdaptiveRouting")
                            .SetParent<RdmaLoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaAdaptiveRouting>();
    return tid;
}

uint32_t
RdmaAdaptiveRouting::DoSelect(const RdmaRouteTable::Group& group,
                              const RdmaFrameView& view,
                              uint32_t /* seed */)
{
    std::vector<uint32_t> best;
    uint64_t bestBytes = std::numeric_limits<uint64_t>::max();
    for (int pass = 0; pass < 2 && best.empty(); ++pass)
    {
        for (uint32_t port : group)
        {
            if (pass == 0 && IsPaused(port, view))
            {
                continue; // the first pass skips paused ports
            }
            const uint64_t bytes = GetQueuedBytes(port);
            if (bytes < bestBytes)
            {
                best.assign(1, port);
                bestBytes = bytes;
            }
            else if (bytes == bestBytes)
            {
                best.push_back(port);
            }
        }
    }
    return best.size() == 1 ? best[0] : best[Draw(static_cast<uint32_t>(best.size()))];
}

} // namespace ns3
