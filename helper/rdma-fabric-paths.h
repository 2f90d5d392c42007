/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FABRIC_PATHS_H
#define RDMA_FABRIC_PATHS_H

#include "rdma-fct-stats.h"
#include "rdma-route-computer.h"
#include "rdma-topology-spec.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What a host pair's path gives with empty queues: its propagation
 * delay, bottleneck rate and base RTT, and the path function the FCT
 * statistics take (RdmaMakeFctRecords). RdmaTopologyHelper::GetPaths() has
 * one for its fabric.
 *
 * The paths are the fabric's as built (RdmaRouteComputer::GetPath of the
 * intact fabric): a link that fails during the run
 * (RdmaTopologyHelper::ScheduleLinkFailure) is not taken away, so a flow's
 * ideal FCT is the intact fabric's whatever failed (its slowdown shows what
 * the failure cost), and a host cut off by a failed link still has a path
 * to compare against.
 */
class RdmaFabricPaths
{
  public:
    /// The wire time of a frame of `frameBytes` on link `link`
    /// (QbbNetDevice::GetWireTime's rule at that link's rate and framing).
    using WireTimeFunction = std::function<Time(uint32_t link, uint32_t frameBytes)>;

    /**
     * \param spec the topology (outlives this)
     * \param routes the intact fabric's routes (outlive this)
     * \param wireTime the links' wire times
     */
    RdmaFabricPaths(const RdmaTopologySpec& spec,
                    const RdmaRouteComputer& routes,
                    WireTimeFunction wireTime);

    /**
     * \brief One-way propagation delay from one host to another: the sum
     * of the link delays on RdmaRouteComputer::GetPath().
     * \param src host index \param dst host index \return the delay
     */
    Time GetPropagationDelay(uint32_t src, uint32_t dst) const;
    /**
     * \brief The slowest link rate on the path from src to dst, times the
     * planes (RdmaTopologySpec::planes): a multi-plane NIC sends over every
     * plane at once, so its ideal FCT is that of their summed rate.
     * \param src host index \param dst host index \return the rate (0 if src = dst)
     */
    DataRate GetBottleneckRate(uint32_t src, uint32_t dst) const;
    /**
     * \brief Base round-trip time of one frame from src to dst and its
     * acknowledgement back, with empty queues: the propagation delay both
     * ways plus, on every link, the wire time of the frame forward and of
     * the acknowledgement back (store and forward at each switch;
     * QbbNetDevice::GetWireTime, which counts preamble, FCS and gap). The
     * switches add no processing time.
     * \param src host index
     * \param dst host index
     * \param frameBytes the data frame, Ethernet header to ICRC
     * \param ackBytes the acknowledgement frame (an RC ACK is 62 bytes:
     *        Ethernet 14, IPv4 20, UDP 8, BTH 12, AETH 4, ICRC 4)
     * \return the time
     */
    Time GetBaseRtt(uint32_t src, uint32_t dst, uint32_t frameBytes, uint32_t ackBytes) const;
    /**
     * \brief The path function the FCT statistics take (RdmaMakeFctRecords):
     * for a host pair, GetBaseRtt() with these frame sizes and
     * GetBottleneckRate(). The function refers to this object, which must
     * outlive it.
     * \param frameBytes the data frame of the base RTT
     * \param ackBytes the acknowledgement frame of the base RTT
     * \return the function
     */
    RdmaPathFunction GetPathFunction(uint32_t frameBytes, uint32_t ackBytes) const;

  private:
    const RdmaTopologySpec& m_spec;    //!< the topology
    const RdmaRouteComputer& m_routes; //!< the intact fabric's routes
    WireTimeFunction m_wireTime;       //!< the links' wire times
};

} // namespace ns3

#endif /* RDMA_FABRIC_PATHS_H */
