/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_LINK_FAILURES_H
#define RDMA_LINK_FAILURES_H

#include "ns3/nstime.h"
#include "ns3/rdma-topology-spec.h"

#include <set>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup rdma One link that fails during a run (topology.failLinks).
struct RdmaLinkFailure
{
    uint32_t link{0}; //!< index into RdmaTopologySpec::links
    Time at;          //!< when its cable goes down
};

/**
 * \ingroup rdma
 * \brief The link between two nodes (either order), the first of parallel
 * links not in `named`.
 * \param topo the topology \param a one end's node id \param b the other's
 * \param named links already taken \param item the item naming it, for the error
 * \return its index in topo.links
 * \throws std::invalid_argument if there is none, naming the item and the ids
 */
uint32_t RdmaFindLink(const RdmaTopologySpec& topo,
                      uint32_t a,
                      uint32_t b,
                      const std::set<uint32_t>& named,
                      const std::string& item);

/**
 * \ingroup rdma
 * \brief Read the links that fail during a run: "A-B@time" items separated
 * by commas, A and B the node ids at the link's two ends (either order; of
 * parallel links, the first not already named) and time with its unit
 * ("17-33@1ms,4-16@2.5ms"); empty text: none.
 * \param text the value
 * \param topo the topology the ids refer to
 * \return the failures, in the order given
 * \throws std::invalid_argument naming the item and what is wrong (not
 * "A-B@time", no such link, a time without its unit or negative)
 */
std::vector<RdmaLinkFailure> RdmaParseLinkFailures(const std::string& text,
                                                   const RdmaTopologySpec& topo);

/**
 * \ingroup rdma
 * \brief Read the nodes that fail during a run (topology.failNodes): "ID@time"
 * items separated by commas, ID a node id (nodes.csv: a switch, or a host,
 * whose NIC goes with it) and time with its unit ("16@1ms,3@2ms"); empty
 * text: none. A node fails as its links do: each goes down at that time.
 * \param text the value
 * \param topo the topology the ids refer to
 * \return a failure per link of each node, nodes in the order given, a
 * node's links in link order
 * \throws std::invalid_argument naming the item and what is wrong (not
 * "ID@time", no such node, a node named twice, a time without its unit or
 * negative)
 */
std::vector<RdmaLinkFailure> RdmaParseNodeFailures(const std::string& text,
                                                   const RdmaTopologySpec& topo);

/**
 * \ingroup rdma
 * \brief Read the planes that fail during a run (topology.failPlanes):
 * "P@time" items separated by commas, P a plane (0 to topology.planes - 1;
 * RdmaTopologySpec::WithPlanes) and time with its unit ("1@2ms"); empty
 * text: none. A plane fails as every link in it does, at that time.
 * \param text the value
 * \param topo the topology
 * \return a failure per link of each plane, planes in the order given
 * \throws std::invalid_argument naming the item and what is wrong (not
 * "P@time", no such plane, a plane named twice, a time without its unit or
 * negative)
 */
std::vector<RdmaLinkFailure> RdmaParsePlaneFailures(const std::string& text,
                                                    const RdmaTopologySpec& topo);

/**
 * \ingroup rdma
 * \brief Join link and node failures: one failure per link, at the earliest
 * time it is named (a link of a failed node that also fails alone).
 * \param links topology.failLinks's \param nodes topology.failNodes's
 * \return the failures by link index
 */
std::vector<RdmaLinkFailure> RdmaJoinFailures(const std::vector<RdmaLinkFailure>& links,
                                              const std::vector<RdmaLinkFailure>& nodes);

} // namespace ns3

#endif /* RDMA_LINK_FAILURES_H */
