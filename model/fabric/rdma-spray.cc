/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-spray.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaSpray);

TypeId
RdmaSpray::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaSpray")
                            .SetParent<RdmaLoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaSpray>();
    return tid;
}

uint32_t
RdmaSpray::DoSelect(const RdmaRouteTable::Group& group,
                    const RdmaFrameView& /* view */,
                    uint32_t /* seed */)
{
    return group[Draw(static_cast<uint32_t>(group.size()))];
}

} // namespace ns3
