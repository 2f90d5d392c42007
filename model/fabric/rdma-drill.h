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
 * egress queue; the choice is remembered for the next decision of the
 * group (or, with MemoryPerDestination, of the destination address, as the
 * ConWeave simulator's DRILL keeps it). DRILL(d=2, m=1) is
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

    /**
     * \param group the frame's equal-cost ports
     * \param view the frame
     * \return the key of the memory the frame's decision reads and writes:
     *         its group, or with MemoryPerDestination its destination address
     */
    uint64_t MemoryKey(const RdmaRouteTable::Group& group, const RdmaFrameView& view) const;

    uint32_t m_samples{2};            //!< d: ports drawn per packet
    uint32_t m_memory{1};             //!< m: ports remembered from the last decision
    bool m_perDestination{false};     //!< MemoryPerDestination
    /// per memory key (MemoryKey), the remembered ports, best first
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_remembered;
    std::vector<uint32_t> m_shuffled; //!< scratch: the group's ports, partly shuffled
};

} // namespace ns3

#endif /* RDMA_DRILL_H */
