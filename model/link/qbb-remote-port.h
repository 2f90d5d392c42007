/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_REMOTE_PORT_H
#define QBB_REMOTE_PORT_H

#include "ns3/channel.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The far end of a link between two ranks of a distributed run, as
 * the rank of the near end keeps it: the node and interface index that the
 * frames sent across are addressed to, and its MAC address (the peer
 * address a NIC writes into its frames, RdmaNicPorts).
 *
 * The far end's device (a QbbNetDevice with its queues, PFC controller and
 * counters) runs on its own rank only. This rank needs of it what
 * QbbRemoteChannel puts beside each frame it sends (the node id and the
 * interface index the other rank numbers it with) and what the MPI
 * simulators ask of a channel's other end (its node, for the node's
 * system id and the channel's delay as the lookahead). A port is attached
 * to its channel (QbbRemoteChannel::AttachFarEnd), not added to its node:
 * the node, another rank's, lists no device here, and no event is ever
 * scheduled for the port (Node::AddDevice would schedule its Initialize).
 *
 * Nothing is sent from a far end on this rank: Send() and SendFrom() end
 * the run with an error. It is a point-to-point device, up once attached
 * (the link's state is its channel's, QbbChannel::IsLinkUp, which the
 * device on this rank asks).
 */
class QbbRemotePort : public NetDevice
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QbbRemotePort();
    ~QbbRemotePort() override;

    /**
     * \brief Set the channel this port is the far end of (by
     * QbbRemoteChannel::AttachFarEnd).
     * \param channel the channel
     */
    void SetChannel(Ptr<Channel> channel);

    // Inherited from NetDevice.
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    /// \param mtu ignored \return false: the far end's MTU is its own rank's
    bool SetMtu(const uint16_t mtu) override;
    /// \return 0: the far end's MTU is its own rank's
    uint16_t GetMtu() const override;
    /// \return whether it is attached to a channel
    bool IsLinkUp() const override;
    /// \param callback ignored: nothing listens to a far end here
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    /// \param cb ignored: a far end receives nothing here
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    /// \param cb ignored: a far end receives nothing here
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    Ptr<Node> m_node;          //!< the far end's node (another rank's)
    Ptr<Channel> m_channel;    //!< the link between the ranks
    Mac48Address m_address;    //!< the far end's MAC address
    uint32_t m_ifIndex{0};     //!< its interface index on its own rank
};

} // namespace ns3

#endif // QBB_REMOTE_PORT_H
