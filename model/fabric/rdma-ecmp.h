/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ECMP_H
#define RDMA_ECMP_H

#include "rdma-load-balancer.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Per-flow ECMP (RFC 2992's modulo-N hash of the 5-tuple, as switch
 * ASICs do): every frame of a flow takes the same port, the switch's
 * default. For RoCEv2 the UDP source port is the flow's entropy, so a NIC
 * that changes it per packet (RdmaNic Entropy) sprays through ECMP switches.
 */
class RdmaEcmp : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /// \param stream unused \return 0: ECMP draws nothing
    int64_t AssignStreams(int64_t stream) override;

  private:
    uint32_t DoSelect(const RdmaRouteTable::Group& group,
                      const RdmaFrameView& view,
                      uint32_t seed) override;
};

} // namespace ns3

#endif /* RDMA_ECMP_H */
