/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FABRIC_H
#define RDMA_FABRIC_H

#include "rdma-fabric-paths.h"
#include "rdma-route-computer.h"
#include "rdma-topology-spec.h"

#include "ns3/error-model.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A built RDMA fabric: its nodes, hosts (with their NICs and
 * addresses), switches, links and routes, and the paths between hosts.
 *
 * RdmaTopologyHelper fills it (its Install()); this class only answers
 * what was built. Indices: a host's index is its rank among the hosts in
 * node id order, a switch's among the switches, a link's its place in the
 * installed RdmaTopologySpec. Under MPI a rank builds its part only (see
 * RdmaTopologyHelper): what another rank builds is null here (GetNic(),
 * GetSwitch(), a LinkInfo's devices), but every node, host index, address
 * and host ids exist on every rank. The getters of what Install() makes
 * abort before it has run; an index out of range aborts, naming it.
 */
class RdmaFabric
{
  public:
    /// The objects of one link.
    struct LinkInfo
    {
        uint32_t a;                                   //!< node id of end a
        uint32_t b;                                   //!< node id of end b
        /// a's device (null: another rank's, on a link not built here or
        /// the far end of a link between ranks)
        Ptr<QbbNetDevice> deviceA;
        Ptr<QbbNetDevice> deviceB; //!< b's device (null as deviceA)
        Ptr<QbbChannel> channel;   //!< the channel (null: not built here)
        /// receive error models (error rate > 0): a's then b's, null where
        /// the device is null
        std::vector<Ptr<RateErrorModel>> errorModels;
    };

    /// \return the topology installed
    const RdmaTopologySpec& GetSpec() const;
    /// \return its routes now (after RerouteAround: around the failed links)
    const RdmaRouteComputer& GetRoutes() const;

    /// \return number of hosts
    uint32_t GetNHosts() const;
    /// \return the host nodes, in host index order
    const NodeContainer& GetHosts() const;
    /// \param i host index \return its node
    Ptr<Node> GetHost(uint32_t i) const;
    /// \param i host index \return its NIC (null: another rank's host, not built here)
    Ptr<RdmaNic> GetNic(uint32_t i) const;
    /**
     * \param i host index
     * \return its ids: its NIC's, or for another rank's host those its NIC
     *         hands out there (RdmaNicIds)
     */
    Ptr<RdmaNicIds> GetHostIds(uint32_t i) const;
    /// \param i host index \return its device, plane 0's (null: another rank's host)
    Ptr<QbbNetDevice> GetHostDevice(uint32_t i) const;
    /// \return planes of the fabric (RdmaTopologySpec::planes), each host with a port on each
    uint32_t GetNPlanes() const;
    /// \param i host index \return its address (GID)
    Ipv4Address GetHostAddress(uint32_t i) const;
    /// \param address a host address \return its host index, or UINT32_MAX if none
    uint32_t GetHostIndex(Ipv4Address address) const;
    /// \param node node id \return the host index of that node (aborts if a switch)
    uint32_t GetHostIndexOfNode(uint32_t node) const;

    /// \return number of switches
    uint32_t GetNSwitches() const;
    /// \return the switch nodes, in switch order (node id order)
    const NodeContainer& GetSwitchNodes() const;
    /// \param i switch index \return its RdmaSwitch (null: another rank's, not built here)
    Ptr<RdmaSwitch> GetSwitch(uint32_t i) const;
    /// \return the switches built here (GetNSwitches() in a sequential run)
    uint32_t GetNSwitchesBuilt() const;

    /// \return every node, in node id order
    const NodeContainer& GetNodes() const;
    /// \param id node id \return the node
    Ptr<Node> GetNode(uint32_t id) const;

    /// \return number of links
    uint32_t GetNLinks() const;
    /// \param i link index (topology order) \return its objects
    const LinkInfo& GetLink(uint32_t i) const;
    /// \return every device built here (two per built link, in link order)
    const NetDeviceContainer& GetDevices() const;

    /// \return the host pairs' paths with empty queues (propagation delay,
    /// bottleneck, base RTT, the FCT statistics' path function) over the
    /// fabric as built (RdmaFabricPaths)
    const RdmaFabricPaths& GetPaths() const;

    /**
     * \brief Fix the random streams: each link's devices and error models,
     * then each switch (ECN marking), in link then switch order.
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /// \param u a node id \return whether it is this rank's (every node without SetSystemIds())
    bool IsLocalNode(uint32_t u) const;
    /// \return the address of host 0
    Ipv4Address GetBaseAddress() const;

  protected:
    /// Abort unless the fabric is built.
    void CheckInstalled() const;
    /**
     * \brief The wire time of a frame on a link at its rate as built
     * (QbbNetDevice::GetWireTime's rule; a slow link's is its full speed's).
     * \param link the link index
     * \param frameBytes Ethernet frame bytes without FCS
     * \return the wire time
     */
    Time WireTime(uint32_t link, uint32_t frameBytes) const;

    Ipv4Address m_base{"10.0.0.1"};                     //!< host 0's address
    std::vector<uint32_t> m_systemIds;                  //!< SetSystemIds (empty: all 0)
    uint32_t m_rank{0};                                 //!< SetSystemIds: this rank
    bool m_installed{false};                            //!< the fabric is built
    RdmaTopologySpec m_spec;                            //!< what was installed
    std::unique_ptr<RdmaRouteComputer> m_routes;        //!< its routes now
    std::unique_ptr<RdmaFabricPaths> m_paths;           //!< GetPaths (over the intact fabric)
    std::unique_ptr<RdmaRouteComputer> m_builtRoutes;   //!< those of the intact fabric, once a
                                                        //!< link failed (else m_routes)
    NodeContainer m_nodes;                              //!< all, by node id
    NodeContainer m_hosts;                              //!< hosts, by index
    NodeContainer m_switchNodes;                        //!< switches, by index
    std::vector<Ptr<RdmaNic>> m_nics;                   //!< by host index (null: another rank's)
    std::vector<Ptr<RdmaNicIds>> m_hostIds;             //!< by host index
    std::vector<std::vector<Ptr<QbbNetDevice>>> m_hostPorts; //!< by host index, by plane
    std::vector<Ptr<RdmaSwitch>> m_switches;            //!< by switch index
    std::vector<uint32_t> m_switchIds;                  //!< switch index -> node id
    std::vector<bool> m_down;                           //!< per link: failed and rerouted around
    std::vector<LinkInfo> m_links;                      //!< by link index
    NetDeviceContainer m_devices;                       //!< all devices
    std::unordered_map<uint32_t, uint32_t> m_byAddress; //!< address -> host index
};

} // namespace ns3

#endif // RDMA_FABRIC_H
