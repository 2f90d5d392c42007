/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-ecmp.h"

#include "ns3/rdma-frame-view.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaEcmp);

TypeId
RdmaEcmp::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEcmp")
                            .SetParent<RdmaLoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaEcmp>();
    return tid;
}

int64_t
RdmaEcmp::AssignStreams(int64_t /* stream */)
{
    return 0;
}

uint32_t
RdmaEcmp::DoSelect(const RdmaRouteTable::Group& group, const RdmaFrameView& view, uint32_t seed)
{
    return RdmaRouteTable::Select(group, view.FlowHash(seed));
}

} // namespace ns3
