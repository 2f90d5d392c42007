/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_LETFLOW_H
#define RDMA_LETFLOW_H

#include "rdma-flowlet-table.h"
#include "rdma-load-balancer.h"

#include "ns3/nstime.h"


namespace ns3
{

/**
 * \ingroup rdma
 * \brief LetFlow (Vanini et al., "Let It Flow: Resilient Asymmetric Load
 * Balancing with Flowlet Switching", NSDI 2017): a flow keeps its port while
 * its frames come closer together than FlowletTimeout; after a longer gap
 * (a new flowlet) it moves to an equal-cost port drawn at random. Flowlets
 * are tracked as switches do, in a table of FlowletTableSize entries indexed
 * by the flow hash (flows that share an entry share a flowlet, as in
 * hardware).
 */
class RdmaLetFlow : public RdmaLoadBalancer
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

    /// \param entries FlowletTableSize
    void SetTableSize(uint32_t entries);
    /// \return FlowletTableSize
    uint32_t GetTableSize() const;

    Time m_timeout;              //!< FlowletTimeout
    uint32_t m_tableSize{65536}; //!< FlowletTableSize
    RdmaFlowletTable m_table;    //!< the flowlets
};

} // namespace ns3

#endif /* RDMA_LETFLOW_H */
