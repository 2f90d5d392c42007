/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DRILL_H
#define RDMA_DRILL_H

#include "rdma-load-balancer.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief DRILL (Ghorbani et al., "Micro Load Balancing in Data Centers with
 * DRILL", SIGCOMM 2017, section 3.1): per packet, the least loaded of d
 * equal-cost ports drawn at random and the m least loaded remembered from
 * this group's previous decision, load being the bytes in the port's
 * egress queue; the choice is remembered for the next. DRILL(d=2, m=1) is
 * the paper's recommended setting. Ties go to the first candidate in the
 * order memory, then draws.
 */
class RdmaDrill : public RdmaLoadBalancer
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

    uint32_t m_samples{2}; //!< d: ports drawn per packet
    uint32_t m_memory{1};  //!< m: ports remembered from the last decision
    /// per group (the route table keeps each group once), its remembered ports, best first
    std::unordered_map<const RdmaRouteTable::Group*, std::vector<uint32_t>> m_remembered;
};

} // namespace ns3

#endif /* RDMA_DRILL_H */
