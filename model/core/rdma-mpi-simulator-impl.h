/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MPI_SIMULATOR_IMPL_H
#define RDMA_MPI_SIMULATOR_IMPL_H

// Not installed by ns-3.37: from its src/mpi/model (contrib-build.cmake).
#include "distributed-simulator-impl.h"
#include "null-message-simulator-impl.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief ns-3's granted-time-window simulator (DistributedSimulatorImpl)
 * with RdmaSimulatorImpl's IsExpired(): right under RdmaEventScheduler's
 * order. Built with ns-3's mpi module only; RdmaMpi::EnableSimulator
 * selects it.
 */
class RdmaDistributedSimulatorImpl : public DistributedSimulatorImpl
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    bool IsExpired(const EventId& id) const override;
};

/**
 * \ingroup rdma
 * \brief ns-3's null-message simulator (NullMessageSimulatorImpl) with
 * RdmaSimulatorImpl's IsExpired(). Built with ns-3's mpi module only;
 * RdmaMpi::EnableSimulator selects it.
 */
class RdmaNullMessageSimulatorImpl : public NullMessageSimulatorImpl
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

#endif // RDMA_MPI_SIMULATOR_IMPL_H
