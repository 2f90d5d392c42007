/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SLOW_LINKS_H
#define RDMA_SLOW_LINKS_H

#include "ns3/rdma-topology-spec.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One link that runs below its rate for the whole run
 * (topology.slowLinks): a degraded link, as a cable or optic that trained
 * down to a lower speed, or UEC's validation plan's "failed" links
 * (htsim_uec's -failed: a core downlink at 25 % of its speed).
 */
struct RdmaSlowLink
{
    uint32_t link{0};    //!< index into RdmaTopologySpec::links
    bool fromA{true};    //!< the transmitter at Link::a slows
    bool fromB{true};    //!< the transmitter at Link::b slows
    double fraction{1};  //!< its rate's share kept, in (0, 1)
};

/**
 * \ingroup rdma
 * \brief Read the slow links: items separated by commas, "A-B:F" (both
 * directions of the link between nodes A and B) or "A>B:F" (only A's
 * transmitter toward B), F the fraction of the link's rate it keeps, in
 * (0, 1), for example "24-32:0.25,0>16:0.5"; of parallel links, the first
 * not already named; empty text: none.
 * \param text the value
 * \param topo the topology the ids refer to
 * \return the slow links, in the order given
 * \throws std::invalid_argument naming the item and what is wrong (not
 * "A-B:F" or "A>B:F", no such link, F outside (0, 1))
 */
std::vector<RdmaSlowLink> RdmaParseSlowLinks(const std::string& text,
                                             const RdmaTopologySpec& topo);

} // namespace ns3

#endif /* RDMA_SLOW_LINKS_H */
