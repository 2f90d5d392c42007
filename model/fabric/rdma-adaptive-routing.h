/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ADAPTIVE_ROUTING_H
#define RDMA_ADAPTIVE_ROUTING_H

#include "rdma-load-balancer.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Per-packet adaptive routing as AI-fabric switches do it (NVIDIA
 * Spectrum-X, the UEC 1.0 specification's adaptive switches): each frame
 * takes the least loaded equal-cost port, load being the bytes in its egress
 * queue, among the ports whose class is not paused by PFC (all of them if
 * every one is); ties are broken at random so that idle ports share the load.
 */
class RdmaAdaptiveRouting : public RdmaLoadBalancer
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

#endif /* RDMA_ADAPTIVE_ROUTING_H */
