/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-mpi-simulator-impl.h"

#include "rdma-event-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaDistributedSimulatorImpl);
NS_OBJECT_ENSURE_REGISTERED(RdmaNullMessageSimulatorImpl);

TypeId
RdmaDistributedSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaDistributedSimulatorImpl")
                            .SetParent<DistributedSimulatorImpl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaDistributedSimulatorImpl>();
    return tid;
}

bool
RdmaDistributedSimulatorImpl::IsExpired(const EventId& id) const
{
    return RdmaEventScheduler::DecidesExpiry(id, Now().GetTimeStep())
               ? RdmaEventScheduler::IsExpiredNow(id)
               : DistributedSimulatorImpl::IsExpired(id);
}

TypeId
RdmaNullMessageSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaNullMessageSimulatorImpl")
                            .SetParent<NullMessageSimulatorImpl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaNullMessageSimulatorImpl>();
    return tid;
}

bool
RdmaNullMessageSimulatorImpl::IsExpired(const EventId& id) const
{
    return RdmaEventScheduler::DecidesExpiry(id, Now().GetTimeStep())
               ? RdmaEventScheduler::IsExpiredNow(id)
               : NullMessageSimulatorImpl::IsExpired(id);
}

} // namespace ns3
