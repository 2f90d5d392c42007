/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-simulator-impl.h"

#include "rdma-event-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaSimulatorImpl);

TypeId
RdmaSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaSimulatorImpl")
                            .SetParent<DefaultSimulatorImpl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaSimulatorImpl>();
    return tid;
}

bool
RdmaSimulatorImpl::IsExpired(const EventId& id) const
{
    return RdmaEventScheduler::DecidesExpiry(id, Now().GetTimeStep())
               ? RdmaEventScheduler::IsExpiredNow(id)
               : DefaultSimulatorImpl::IsExpired(id);
}

} // namespace ns3
