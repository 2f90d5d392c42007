/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TOPOLOGY_HELPER_H
#define RDMA_TOPOLOGY_HELPER_H

#include "qbb-helper.h"
#include "rdma-fabric.h"
#include "rdma-fct-stats.h"
#include "rdma-helper.h"
#include "rdma-route-computer.h"
#include "rdma-topology-spec.h"

#include "ns3/error-model.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"

#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Builds an RDMA fabric: hosts with an RdmaNic, switches with an
 * RdmaSwitch, QbbNetDevice links, and every switch's routes (all shortest
 * paths, ECMP groups).
 *
 * Install() takes an RdmaTopologySpec (a generator's or a file's); the
 * InstallFatTree(), InstallLeafSpine(), InstallDumbbell(), InstallStar()
 * and InstallHpccFile() shortcuts build one with the tier link parameters
 * (SetTierLink()). One Install per helper. It makes, in this order:
 * - one Node per node of the topology, in node id order (GetNode());
 * - for each link, a QbbNetDevice on each end joined by a QbbChannel
 *   (QbbHelper), with the link's rate (the device DataRate) and delay
 *   (the channel Delay), other attributes from SetDeviceAttribute() and
 *   SetChannelAttribute(); a link with an error rate p > 0 gets on each
 *   device a RateErrorModel (unit packet, rate p) as its receive error
 *   model, so a frame is corrupted with probability p per direction, as in
 *   the HPCC simulator;
 * - per switch, an RdmaSwitch (SetSwitchAttribute()) with a SwitchMmu
 *   (SetMmuAttribute()), aggregated to its node, its ports added in link
 *   order, EcmpSeed = SwitchEcmpSeed(S, its switch index), S the
 *   EcmpSeed set (0 unless set), so that no two switches hash alike;
 *   with the RED marking of SetSwitchEcn() on every port and class if set;
 * - routes: for every switch and every host, RdmaSwitch::AddRoute() for
 *   each next hop RdmaRouteComputer gives (an ECMP group when more than
 *   one);
 * - per host, an RdmaNic on its one device, installed by the RdmaHelper
 *   (SetRdmaHelper(), SetNicAttribute()), with address GetBaseAddress() +
 *   host index (10.0.0.1, 10.0.0.2, ... by default): the RoCEv2 GID.
 *
 * Under MPI (SetSystemIds()) a rank builds its part only: every Node
 * exists (node ids are the run's), but a switch of another rank gets no
 * RdmaSwitch and no routes (GetSwitch() is null), a host of another rank
 * no NIC (GetNic() and GetHostDevice() are null) but its ids
 * (GetHostIds(): the QP numbers and memory keys its NIC hands out there,
 * which the runners' peers here need), and a link with no end on this
 * rank no devices or channel (its LinkInfo's are null). A link with an
 * end on this rank is built whole, the far end's device (another rank's,
 * never used here) on a QbbRemoteChannel. Random streams are numbered as
 * in a sequential build (AssignStreams()), so the built objects draw what
 * they would there.
 *
 * InstallFabric() and InstallHosts() split Install() in two, for NIC
 * settings that depend on the fabric (a base RTT from GetPaths().GetBaseRtt(), which
 * works once the fabric is in).
 *
 * Bad topologies (a RdmaTopologyError from a generator, the reader or
 * RdmaTopologySpec::Validate()) end the program with NS_FATAL_ERROR and
 * the error's message (file and line for files); call the spec functions
 * directly to catch the exception instead.
 *
 * Host index: rank among the hosts in node id order (for HPCC files whose
 * hosts come first, such as fat.txt, host index = HPCC node id; else
 * GetHostIndexOfNode()).
 */
class RdmaTopologyHelper : public RdmaFabric
{
  public:

    RdmaTopologyHelper();
    ~RdmaTopologyHelper();

    /**
     * \brief Set the links of a generator tier: 0 host links, 1 the next
     * level (edge-aggregation, leaf-spine, dumbbell bottleneck), 2 the
     * aggregation-core links. Default for every tier: 100 Gb/s, 1 us, no
     * errors (the HPCC paper's host links and cable delay).
     * \param tier 0-2 (aborts otherwise)
     * \param params rate, delay, error rate
     */
    void SetTierLink(uint32_t tier, const RdmaLinkParams& params);
    /// \param tier 0-2 \return its link parameters
    const RdmaLinkParams& GetTierLink(uint32_t tier) const;

    /**
     * \brief Set an attribute of every QbbNetDevice Install() makes.
     * \param name attribute name (not DataRate: each link sets its rate)
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every QbbChannel Install() makes.
     * \param name attribute name (not Delay: each link sets its delay)
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every RdmaSwitch Install() makes.
     * \param name attribute name
     * \param value its value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of the SwitchMmu of every switch Install() makes
     * (each switch makes its own: RdmaSwitch::GetMmu()).
     * \param name attribute name
     * \param value its value
     */
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every RdmaNic Install() makes.
     * \param name attribute name
     * \param value its value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Use this NIC helper (NIC attributes, pipeline, congestion
     * control, loss recovery) for the hosts installed next; it replaces the
     * attributes SetNicAttribute() gave before.
     * \param rdma the helper (copied)
     */
    void SetRdmaHelper(const RdmaHelper& rdma);
    /**
     * \brief Mark ECN with RED on every port and traffic class of every
     * switch Install() makes (RdmaSwitch::SetEcnParams); none by default.
     * \param ecn Kmin, Kmax (bytes), Pmax
     */
    void SetSwitchEcn(const SwitchEcnParams& ecn);
    /**
     * \brief What Install() reports while it builds: a callback
     * (what, done, total), called with done = 0 when a part starts and
     * after each of its items; the parts, in order: "links",
     * "switches" (each with its ports), "route tables" (by destination host, the
     * shortest paths to each from RdmaRouteComputer),
     * "hosts" (each with its NIC). None by default; for progress lines on large
     * fabrics.
     * \param progress the callback (empty: none)
     */
    void SetBuildProgress(
        std::function<void(const std::string& what, uint64_t done, uint64_t total)> progress);
    /// \param base the address of host 0; host i gets base + i
    void SetBaseAddress(Ipv4Address base);
    /**
     * \brief Place the nodes on ranks of a distributed simulation (before
     * InstallFabric): node u is made with system id rankOf[u], and a link
     * between two ranks gets a QbbRemoteChannel (QbbHelper). Empty (the
     * default): every node on system id 0. Only the part of rank `me` is
     * built (the class description).
     * \param rankOf the rank of each node id (RdmaPartition::rankOf)
     * \param me this process's rank
     */
    void SetSystemIds(std::vector<uint32_t> rankOf, uint32_t me);
    /**
     * \param l a link of the topology
     * \return whether this rank builds the link's devices and channel
     * (the class description; every link without SetSystemIds())
     */
    bool BuildsLink(const RdmaTopologySpec::Link& l) const;
    /**
     * \brief Whether a rank builds a link's devices and channel (doc/mpi.rst
     * "How it works"): when an end is on the rank.
     * \param rankOf the rank of each node id (empty: one rank, every link)
     * \param rank the rank
     * \param l a link of the topology
     * \return true if so
     */
    static bool BuildsLink(const std::vector<uint32_t>& rankOf,
                           uint32_t rank,
                           const RdmaTopologySpec::Link& l);
    /**
     * \brief The ECMP hash seed of one switch (RdmaSwitch's EcmpSeed): index
     * + 1 + S * 0x9E3779B9, modulo 2^32 (a Weyl sequence with the golden
     * ratio's step), S the EcmpSeed set. S = 0 gives switch i the seed i + 1.
     * Another S moves every switch far from every seed of S - 1, S + 1 and
     * so on, so that a sweep of S = 0, 1, 2, ... draws independent ECMP
     * placements: with S + index + 1, S + 1 gave switch i the seed that S
     * gave switch i + 1, and consecutive sweeps' placements were correlated.
     * \param set S, the EcmpSeed set (SetSwitchAttribute or its default 0)
     * \param index the switch's index (creation order, 0 first)
     * \return its seed
     */
    static uint32_t SwitchEcmpSeed(uint64_t set, uint32_t index);

    /**
     * \brief Build a topology (see the class description).
     * \param spec the topology; NS_FATAL_ERROR if it fails Validate()
     */
    void Install(const RdmaTopologySpec& spec);
    /**
     * \brief The first half of Install(): nodes, links, switches, routes;
     * no NICs yet (GetNic() aborts until InstallHosts()).
     * \param spec the topology; NS_FATAL_ERROR if it fails Validate()
     */
    void InstallFabric(const RdmaTopologySpec& spec);
    /**
     * \brief The second half of Install(): an RdmaNic on every host (of
     * this rank), by the RdmaHelper.
     * \throws std::invalid_argument if RdmaHelper::Install refuses a host's
     * link; the message ends with "of host <index>'s link"
     */
    void InstallHosts();

    /**
     * \brief Fail a link mid-run: at `at` its cable goes down
     * (QbbChannel::SetLinkDown: every frame on it is lost, counted by the
     * sender as DROP_LINK_DOWN), and `convergence` later every
     * switch gets the routes recomputed without it (RdmaRouteComputer with
     * the link down; ports keep their numbers), as a fabric's control plane
     * reroutes around a failure. Until then ECMP keeps sending into it.
     * \param link the link's index in the installed spec (aborts if none)
     * \param at when it fails (simulated time)
     * \param convergence how long the routes take to follow
     */
    void ScheduleLinkFailure(uint32_t link, Time at, Time convergence);
    /**
     * \brief Run a link below its rate for the whole run (a degraded link).
     * Call before InstallFabric. The slowed transmitter's rate, its egress
     * queue's MaxBytes and its ECN thresholds (set by SetSwitchEcn, or the
     * per-rate default of its new rate) are each `fraction` of the link's,
     * as htsim scales a failed link's queue with its speed.
     * \param link the link's index in the spec
     * \param fromA whether the transmitter at the link's end a slows
     * \param fromB whether the one at end b does
     * \param fraction the share of the rate kept, in (0, 1) (aborts otherwise)
     */
    void SlowLink(uint32_t link, bool fromA, bool fromB, double fraction);
    /**
     * \brief Install RdmaTopologySpec::FatTree() with tiers 0, 1 and 2.
     * \param k arity, even (NS_FATAL_ERROR otherwise)
     */
    void InstallFatTree(uint32_t k);
    /**
     * \brief Install RdmaTopologySpec::LeafSpine() with tiers 0 and 1.
     * \param leaves leaf switches
     * \param spines spine switches
     * \param hostsPerLeaf hosts per leaf
     * \param oversubscription host to uplink capacity (0: the tier 1 rate)
     */
    void InstallLeafSpine(uint32_t leaves,
                          uint32_t spines,
                          uint32_t hostsPerLeaf,
                          double oversubscription);
    /**
     * \brief Install RdmaTopologySpec::Dumbbell(): tier 0 host links, tier 1
     * the bottleneck.
     * \param left hosts on the left switch
     * \param right hosts on the right switch
     */
    void InstallDumbbell(uint32_t left, uint32_t right);
    /**
     * \brief Install RdmaTopologySpec::Star() with tier 0 links.
     * \param hosts number of hosts (>= 2)
     */
    void InstallStar(uint32_t hosts);
    /**
     * \brief Install an HPCC simulator topology file (RdmaHpccTopologyReader).
     * \param path the file; NS_FATAL_ERROR naming file and line if malformed
     */
    void InstallHpccFile(const std::string& path);

  private:
    /// Install a spec, or NS_FATAL_ERROR with the error's message.
    void InstallOrDie(const std::function<RdmaTopologySpec()>& make);
    /// Call the build progress callback, if any. \param what the part
    /// \param done items made \param total items of the part
    void Report(const std::string& what, uint64_t done, uint64_t total) const;
    /// Put m_routes' next hops toward every host in every switch's table.
    /// Make the nodes (with their system ids), sorted into switches and hosts.
    void MakeNodes();
    /// Make each link's devices and channel (with its error models).
    /// \return each node's devices, in port order
    std::vector<std::vector<Ptr<QbbNetDevice>>> InstallLinks();
    /// Apply SlowLink's slowdown, if any, to a link just made.
    /// \param link its index \param info its devices
    void SlowDown(uint32_t link, const LinkInfo& info);
    /// Make each switch node's RdmaSwitch (EcmpSeed, MMU attributes, ECN) with its ports.
    /// \param ports each node's devices, in port order
    void InstallSwitches(const std::vector<std::vector<Ptr<QbbNetDevice>>>& ports);
    /// \return the route entries installed
    uint64_t InstallRoutes();
    /// Let switches with equal route tables share one (RdmaSwitch::ShareRoutes).
    void ShareAlikeRoutes();
    /// The routes follow a failed link. \param link its index
    void RerouteAround(uint32_t link);
    /**
     * \brief Whether a host's port on a plane reaches a destination over the
     * routes now: the port's link is not down and its switch has a route
     * (a multi-plane NIC's RdmaNicPorts::ReachFunction).
     * \param node the host's node id \param plane the plane
     * \param dst the destination's address \return whether it reaches
     */
    bool PlaneReaches(uint32_t node, uint32_t plane, Ipv4Address dst) const;

    RdmaLinkParams m_tiers[3];                          //!< generator tiers
    QbbHelper m_link;                                   //!< makes the links
    RdmaHelper m_rdma;                                  //!< makes the NICs
    ObjectFactory m_switchFactory;                      //!< makes the switches
    std::vector<std::pair<std::string, Ptr<const AttributeValue>>>
        m_mmuAttributes; //!< SetMmuAttribute's, set on each switch's own MMU
    bool m_ecn{false};                                  //!< SetSwitchEcn was called
    SwitchEcnParams m_ecnParams;                        //!< its marking
    /// SlowLink's transmitters: the device (after InstallLinks) -> its share of the rate
    std::unordered_map<const QbbNetDevice*, double> m_slowDevices;
    /// SlowLink's calls: link index -> (from a, from b, fraction)
    std::unordered_map<uint32_t, std::tuple<bool, bool, double>> m_slowLinks;
    std::function<void(const std::string&, uint64_t, uint64_t)> m_progress; //!< build progress
};

} // namespace ns3

#endif // RDMA_TOPOLOGY_HELPER_H
