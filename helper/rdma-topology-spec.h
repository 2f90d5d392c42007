/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TOPOLOGY_SPEC_H
#define RDMA_TOPOLOGY_SPEC_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A topology that cannot be built: a bad generator parameter, a
 * malformed topology file (the message names the file and line and what was
 * expected) or an inconsistent node/link list. RdmaTopologyHelper turns it
 * into NS_FATAL_ERROR; front ends (a CLI, the Python bindings) can catch it.
 */
class RdmaTopologyError : public std::runtime_error
{
  public:
    /// \param what the message
    explicit RdmaTopologyError(const std::string& what);
};

/**
 * \ingroup rdma
 * \brief Rate, propagation delay and error rate of the links of one tier.
 */
struct RdmaLinkParams
{
    DataRate rate{100'000'000'000ULL}; //!< line rate, bit/s, both directions
    Time delay{NanoSeconds(1000)}; //!< one-way propagation delay
    /// Probability that a frame is corrupted on reception, either direction
    /// (per frame, as the HPCC simulator's error_rate; 0 for none)
    double errorRate{0};
};

/**
 * \ingroup rdma
 * \brief A topology as a list of nodes (each a host or a switch) and
 * full-duplex links between them, before any ns-3 object exists.
 *
 * Node ids are 0 .. GetNNodes() - 1; a host's index (RdmaTopologyHelper's
 * host numbering) is its rank among the hosts in id order, a switch's
 * likewise among the switches. Links keep their order (a node's ports are
 * numbered in the order its links appear) and carry a tier, the generators'
 * level of the link (0 = host links), used only for description.
 *
 * The generators build the usual data-center fabrics from the parameters of
 * each tier; RdmaHpccTopologyReader reads HPCC simulator files. Every
 * generator and Validate() throw RdmaTopologyError on bad input.
 */
struct RdmaTopologySpec
{
    /// The most planes a host may have (RdmaNic's plane mask is 64 bits)
    static constexpr uint32_t MAX_PLANES = 64;

    /// One full-duplex link.
    struct Link
    {
        uint32_t a{0};                 //!< node id of one end
        uint32_t b{0};                 //!< node id of the other end
        DataRate rate{100'000'000'000ULL}; //!< line rate, bit/s
        Time delay{NanoSeconds(1000)}; //!< one-way propagation delay
        double errorRate{0};           //!< frame corruption probability on reception
        uint32_t tier{0};              //!< generator level (0 = host link)
        uint32_t plane{0};             //!< the fabric copy it belongs to (WithPlanes)
        std::string where;             //!< origin for messages, e.g. "fat.txt:7"
    };

    /**
     * \brief The servers of a rail-optimized fabric (Rail()): each GPU is
     * two hosts, its NIC on a rail and its port on the server's NVSwitch.
     * Zero counts everywhere else.
     */
    struct Servers
    {
        uint32_t count{0};         //!< servers
        uint32_t gpusPerServer{0}; //!< GPUs (and NICs, and rails) per server
        /// \return GPUs, count x gpusPerServer: the NIC hosts are host indices 0 .. GPUs - 1
        uint32_t GetGpus() const;
        /// \return the host index of a GPU's intra-server port \param gpu its NIC's host index
        uint32_t GetIntraHost(uint32_t gpu) const;
        /// \return a GPU's server \param gpu its NIC's host index
        uint32_t GetServer(uint32_t gpu) const;
    };

    std::string name;           //!< what it is, e.g. "fat-tree k=4" or the file path
    std::vector<bool> isSwitch; //!< per node id: switch (true) or host
    std::vector<Link> links;    //!< the links, in port order
    /// Per node id, its name in nodes.csv ("rail3"); empty (or an empty entry):
    /// named by tier (RdmaFormatNodesCsv)
    std::vector<std::string> nodeNames;
    Servers servers; //!< a rail fabric's servers (zero counts: not one)
    /// Copies of the fabric each host has a port on (WithPlanes; 1: one
    /// fabric, one port per host)
    uint32_t planes{1};

    /// \return number of nodes
    uint32_t GetNNodes() const;
    /// \return number of switches
    uint32_t GetNSwitches() const;
    /// \return number of hosts
    uint32_t GetNHosts() const;
    /**
     * \return the rate of the first link that ends at a host (the HPCC
     * simulator's get_nic_rate: the first host's NIC), 100 Gb/s if none;
     * times the planes: a multi-plane NIC's rate is the sum of its ports'
     */
    DataRate GetHostLinkRate() const;

    /**
     * \brief Check the node and link lists: endpoints are node ids, no link
     * joins a node to itself, rates are above 0, delays not negative, error
     * rates in [0, 1], every host has exactly `planes` links (one NIC port
     * per plane) and at least one host exists.
     * \throws RdmaTopologyError naming the link's origin (Link::where) or node
     */
    void Validate() const;

    /**
     * \brief k-ary fat-tree (Al-Fares et al., "A Scalable, Commodity Data
     * Center Network Architecture", SIGCOMM 2008): k pods of k/2 edge and
     * k/2 aggregation switches, (k/2)^2 core switches, k^3/4 hosts, k/2 hosts
     * per edge switch; each edge switch links to every aggregation switch of
     * its pod; aggregation switch j of every pod links to cores j*k/2 ..
     * j*k/2 + k/2 - 1.
     *
     * Node ids: hosts 0 .. k^3/4 - 1 (host h under edge h / (k/2)), then the
     * k^2/2 edge switches (pod-major), the k^2/2 aggregation switches
     * (pod-major), the k^2/4 cores. Links: host-edge (tier 0), edge-agg
     * (tier 1), agg-core (tier 2), in that order.
     * \param k the arity, even and at least 2
     * \param host tier 0 (host-edge) links
     * \param edgeAgg tier 1 links
     * \param aggCore tier 2 links
     * \return the topology
     * \throws RdmaTopologyError if k is odd or below 2
     */
    static RdmaTopologySpec FatTree(uint32_t k,
                                    const RdmaLinkParams& host,
                                    const RdmaLinkParams& edgeAgg,
                                    const RdmaLinkParams& aggCore);

    /**
     * \brief Two-tier leaf-spine (folded Clos): every leaf links to every
     * spine once; hostsPerLeaf hosts per leaf.
     *
     * The oversubscription of a leaf is its host capacity over its uplink
     * capacity, hostsPerLeaf x host.rate / (spines x uplink rate). With
     * oversubscription > 0 the uplink rate is derived from it:
     * hostsPerLeaf x host.rate / (spines x oversubscription), rounded to
     * the bit/s; with 0 the uplink rate is fabric.rate.
     *
     * Node ids: hosts (host h under leaf h / hostsPerLeaf), leaves, spines.
     * Links: host-leaf (tier 0), then leaf-spine (tier 1), leaf-major.
     * \param leaves number of leaf switches (>= 1)
     * \param spines number of spine switches (>= 1)
     * \param hostsPerLeaf hosts under each leaf (>= 1)
     * \param host tier 0 links
     * \param fabric tier 1 links (delay, error rate; the rate unless derived)
     * \param oversubscription host to uplink capacity ratio (0: use fabric.rate)
     * \return the topology
     * \throws RdmaTopologyError on a zero count or a negative ratio
     */
    static RdmaTopologySpec LeafSpine(uint32_t leaves,
                                      uint32_t spines,
                                      uint32_t hostsPerLeaf,
                                      const RdmaLinkParams& host,
                                      const RdmaLinkParams& fabric,
                                      double oversubscription);

    /**
     * \brief Dumbbell: left hosts on switch L, right hosts on switch R, one
     * bottleneck link L-R. Node ids: left hosts, right hosts, L, R. Links:
     * host links (tier 0, left hosts first), then the bottleneck (tier 1).
     * \param left hosts on the left (>= 1)
     * \param right hosts on the right (>= 1)
     * \param host tier 0 links
     * \param bottleneck the L-R link
     * \return the topology
     * \throws RdmaTopologyError on a zero count
     */
    static RdmaTopologySpec Dumbbell(uint32_t left,
                                     uint32_t right,
                                     const RdmaLinkParams& host,
                                     const RdmaLinkParams& bottleneck);

    /**
     * \brief Star: hosts on one switch (the incast topology: many senders,
     * one receiver port). Node ids: hosts 0 .. n - 1, the switch n.
     * \param hosts number of hosts (>= 2)
     * \param host their links (tier 0)
     * \return the topology
     * \throws RdmaTopologyError with fewer than two hosts
     */
    static RdmaTopologySpec Star(uint32_t hosts, const RdmaLinkParams& host);

    /**
     * \brief Rail-optimized fabric (NVIDIA's DGX SuperPOD reference
     * architecture; Wang et al., "Rail-only", HOTI 2024): servers of
     * gpusPerServer GPUs, each GPU with one NIC; NIC i of every server on
     * rail switch i; every rail switch linked once to every spine; inside
     * a server every GPU's NVLink port on the server's NVSwitch.
     *
     * A GPU is two hosts (an RdmaNic has one port): its NIC (host index
     * s x G + g for GPU g of server s) and its NVLink port (host index
     * S x G + s x G + g), an RdmaNic on a link of intra.rate to the
     * server's NVSwitch, modelled as a switch. The two parts are not
     * joined: NVLink ports reach only their server's NVLink ports, NICs
     * only NICs (RdmaJob::intraHosts says which a transfer takes).
     *
     * Node ids: the S x G NICs (server-major), the S x G NVLink ports, the
     * G rail switches, the S NVSwitches, the spines. Links: NIC-rail
     * (tier 0, the host links; NIC i of server s is port s of rail i),
     * rail-spine (tier 1, rail-major), NVLink port-NVSwitch (tier 2).
     * nodes.csv names them s<server>.nic<g>, s<server>.nvl<g>, rail<i>,
     * s<server>.nvswitch, spine<p>.
     * \param servers S (>= 1)
     * \param gpusPerServer G (>= 1)
     * \param spines spine switches (>= 1)
     * \param nic tier 0 links (NIC to rail switch)
     * \param fabric tier 1 links (rail switch to spine)
     * \param intra tier 2 links (NVLink port to NVSwitch)
     * \return the topology
     * \throws RdmaTopologyError on a zero count
     */
    static RdmaTopologySpec Rail(uint32_t servers,
                                 uint32_t gpusPerServer,
                                 uint32_t spines,
                                 const RdmaLinkParams& nic,
                                 const RdmaLinkParams& fabric,
                                 const RdmaLinkParams& intra);

    /**
     * \brief A multi-plane fabric: P copies of this one's switches and
     * switch links, each host with a port on every copy (MRC, the OCP
     * Multipath Reliable Connection specification, 2026: an 800G NIC as
     * 8 x 100G planes; NVIDIA Spectrum-X's multi-plane fabrics). Plane 0 is
     * this topology with its node ids; plane p's copy of switch s is node
     * GetNNodes() + (p - 1) x GetNSwitches() + s's switch index. Links are
     * plane-major (every link of plane 0, then plane 1's, ...), so host port
     * p is on plane p. A host joins no two planes: hosts are not transit
     * nodes (RdmaRouteComputer), so a packet stays in the plane its NIC
     * sent it on.
     * \param planes P (>= 1; 1 returns this topology)
     * \return the topology
     * \throws RdmaTopologyError if P is 0, above 64, or this one has planes already
     */
    RdmaTopologySpec WithPlanes(uint32_t planes) const;

    /**
     * \brief Append a link.
     * \param a one end
     * \param b the other end
     * \param params rate, delay, error rate
     * \param tier the generator level
     */
    void AddLink(uint32_t a, uint32_t b, const RdmaLinkParams& params, uint32_t tier);
};

} // namespace ns3

#endif // RDMA_TOPOLOGY_SPEC_H
