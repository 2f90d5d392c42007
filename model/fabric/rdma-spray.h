/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SPRAY_H
#define RDMA_SPRAY_H

#include "rdma-load-balancer.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Per-packet spraying: each frame takes one of the equal-cost ports
 * uniformly at random, whatever its flow (random packet spraying, Dixit et
 * al., INFOCOM 2013), so one QP's packets spread over every path and arrive
 * out of order.
 */
class RdmaSpray : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

  private:
    uint32_t DoSelect(const RdmaRouteTable::Group& group,
                      const RdmaFrameView& view,
                      uint32_t seed) override;
};

} // namespace ns3

#endif /* RDMA_SPRAY_H */
