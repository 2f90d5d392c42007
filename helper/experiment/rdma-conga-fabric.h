/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGA_FABRIC_H
#define RDMA_CONGA_FABRIC_H

#include "ns3/rdma-topology-spec.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaTopologyHelper;

/**
 * \ingroup rdma
 * \brief The leaves and spines of a two-tier leaf-spine, as CONGA needs
 * them (RdmaConga; Alizadeh et al., SIGCOMM 2014, section 3: CONGA's
 * tables are per leaf and per uplink of a leaf-spine).
 *
 * A leaf is a switch with hosts; a spine, a switch without. The topology
 * is two-tier when every link joins a host to a leaf or a leaf to a spine,
 * and every leaf has an uplink: a fat tree (aggregation-core links join
 * two switches without hosts), a star (no spine) or a dumbbell (two leaves
 * linked) is not. Generated leaf-spines and HPCC topology files that
 * describe one (ConWeave's) both pass.
 */
class RdmaCongaFabric
{
  public:
    /**
     * \brief Find the leaves and spines.
     * \param spec the topology
     * \return them
     * \throws RdmaTopologyError naming the link, or the switch, that is not two-tier
     */
    static RdmaCongaFabric Describe(const RdmaTopologySpec& spec);

    /**
     * \brief Make each leaf's RdmaConga a leaf: its index, its uplinks and
     * every host's leaf (switches whose LoadBalancing is not Conga abort).
     * \param topo the installed topology (InstallFabric done) of this spec
     */
    void Install(const RdmaTopologyHelper& topo) const;

    /// \return the number of leaves
    uint32_t GetNLeaves() const;
    /**
     * \param node a node id
     * \return its leaf index, or -1 for a host or a spine
     */
    int32_t GetLeafIndex(uint32_t node) const;

  private:
    RdmaTopologySpec m_spec;       //!< the topology
    std::vector<int32_t> m_leafOf; //!< per node: leaf index, -1 otherwise
    uint32_t m_nLeaves{0};         //!< leaves
};

} // namespace ns3

#endif // RDMA_CONGA_FABRIC_H
