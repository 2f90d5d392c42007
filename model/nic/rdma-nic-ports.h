/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_PORTS_H
#define RDMA_NIC_PORTS_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

class QbbNetDevice;

/**
 * \ingroup rdma
 * \brief An RdmaNic's Ethernet ports, one per plane of a multi-plane
 * fabric (RdmaTopologySpec::WithPlanes; one port otherwise), and the rule
 * that gives each packet its port.
 *
 * A multi-plane NIC (MRC, the OCP Multipath Reliable Connection
 * specification, 2026: an 800G NIC as 8 x 100G planes) sends one QP's
 * packets over every plane, and within a plane the packet's entropy (its
 * UDP source port) picks the path. Which plane a packet takes follows
 * nic.Entropy:
 * - pinned (qp and flowlet entropy): every packet of a QP on one plane, the
 *   QP's hash over the usable planes (Linux RoCE LAG's rule for a bonded
 *   port: a QP is bound to one); it waits while that port is busy;
 * - sprayed (packet and reps entropy): the next idle usable port, round
 *   robin.
 * A plane is usable toward a destination while the NIC's port on it is up
 * and the plane's routes reach the destination (the reachability function
 * the fabric gives, asked again after every reroute, Invalidate()): a QP
 * moves off a plane that fails once the fabric's routes have converged
 * around the failure.
 */
class RdmaNicPorts
{
  public:
    /// Whether plane `plane` reaches the host with address `dst`.
    using ReachFunction = std::function<bool(uint32_t plane, Ipv4Address dst)>;
    /// No port: the pinned port is busy.
    static constexpr uint32_t NONE = UINT32_MAX;

    /// Counters of one port (plane).
    struct Stats
    {
        uint64_t txFrames{0}; //!< frames the NIC sent on it
        uint64_t txBytes{0};  //!< their bytes (Ethernet header to ICRC)
        uint64_t rxFrames{0}; //!< frames received on it
        uint64_t rxBytes{0};  //!< their bytes
    };

    /**
     * \brief Add the next port (plane GetN()).
     * \param device the port
     */
    void Add(Ptr<QbbNetDevice> device);
    /// Forget the ports.
    void Clear();
    /// \return the number of ports (planes)
    uint32_t GetN() const;
    /// \param i port \return its device
    Ptr<QbbNetDevice> Get(uint32_t i) const;
    /// \param i port \return the MAC of the switch port it is linked to
    Mac48Address GetPeerMac(uint32_t i) const;
    /// \param device a device \return its port index, or NONE
    uint32_t Find(const QbbNetDevice* device) const;
    /// \return the NIC's line rate: the sum of its ports' rates, bit/s
    DataRate GetRate() const;

    /// \return whether some port is idle (nothing queued, not transmitting)
    bool AnyIdle() const;
    /**
     * \brief The port of a QP's next packet to `dst`.
     * \param pinned the QP keeps one plane (qp and flowlet entropy)
     * \param hash the QP's hash (chooses its plane when pinned)
     * \param dst its destination
     * \param needIdle only an idle port will do (without a pipeline)
     * \return the port, or NONE if the one it must take (or every one) is busy
     */
    uint32_t Choose(bool pinned, uint32_t hash, Ipv4Address dst, bool needIdle);

    /**
     * \brief The hash that pins a QP to a plane: MurmurHash3's 64-bit
     * finalizer (RdmaFrameView::Mix64) over the host's address and the QP
     * pair, so that QPs of
     * every host spread evenly over the planes (a QP number's parity alone
     * would put every first QP of every host on one plane).
     * \param address the host's address \param qpn the QP \param destQpn its peer
     * \return the hash
     */
    static uint32_t QpHash(Ipv4Address address, uint32_t qpn, uint32_t destQpn);

    /// \param f whether a plane reaches a destination (unset: every plane does)
    void SetReachability(ReachFunction f);
    /// The fabric's routes changed: ask the reachability function again.
    void Invalidate();

    /// \param i port \return its counters
    const Stats& GetStats(uint32_t i) const;
    /**
     * \brief Count a frame sent on a port.
     * \param i the port \param bytes its bytes
     */
    void CountTx(uint32_t i, uint32_t bytes);
    /**
     * \brief Count a frame received on a port.
     * \param i the port \param bytes its bytes
     */
    void CountRx(uint32_t i, uint32_t bytes);

  private:
    /// One port.
    struct Port
    {
        Ptr<QbbNetDevice> device; //!< the port
        Mac48Address peerMac;     //!< the switch port's MAC
        Stats stats;              //!< its counters
    };

    /// \param dst a destination \return the ports usable toward it (bit i: port i)
    uint64_t Usable(Ipv4Address dst);

    std::vector<Port> m_ports;                      //!< by plane
    uint32_t m_next{0};                             //!< round robin of sprayed packets
    ReachFunction m_reach;                          //!< null: every plane reaches
    std::unordered_map<uint32_t, uint64_t> m_reachable; //!< destination -> planes reaching it
};

} // namespace ns3

#endif // RDMA_NIC_PORTS_H
