/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SIMULATOR_IMPL_H
#define RDMA_SIMULATOR_IMPL_H

#include "ns3/default-simulator-impl.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief ns-3's sequential simulator (DefaultSimulatorImpl) whose
 * IsExpired() is right under RdmaEventScheduler's order: an event of the
 * current time has expired once it has run, not once an event with a
 * larger uid has (ns-3's test, which assumes insertion order). Cancel(),
 * Remove() and GetDelayLeft() go through IsExpired(). With another
 * scheduler it is DefaultSimulatorImpl. rdma-sim selects it
 * (SimulatorImplementationType) in sequential runs.
 */
class RdmaSimulatorImpl : public DefaultSimulatorImpl
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    bool IsExpired(const EventId& id) const override;
};

} // namespace ns3

#endif // RDMA_SIMULATOR_IMPL_H
