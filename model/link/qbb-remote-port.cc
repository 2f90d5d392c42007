/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-remote-port.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbRemotePort");

NS_OBJECT_ENSURE_REGISTERED(QbbRemotePort);

TypeId
QbbRemotePort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QbbRemotePort")
                            .SetParent<NetDevice>()
                            .SetGroupName("Rdma")
                            .AddConstructor<QbbRemotePort>();
    return tid;
}

QbbRemotePort::QbbRemotePort()
{
    NS_LOG_FUNCTION(this);
}

QbbRemotePort::~QbbRemotePort()
{
    NS_LOG_FUNCTION(this);
}

void
QbbRemotePort::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    NetDevice::DoDispose();
}

void
QbbRemotePort::SetChannel(Ptr<Channel> channel)
{
    m_channel = channel;
}

void
QbbRemotePort::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
QbbRemotePort::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
QbbRemotePort::GetChannel() const
{
    return m_channel;
}

void
QbbRemotePort::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
QbbRemotePort::GetAddress() const
{
    return m_address;
}

bool
QbbRemotePort::SetMtu(const uint16_t /* mtu */)
{
    return false;
}

uint16_t
QbbRemotePort::GetMtu() const
{
    return 0;
}

bool
QbbRemotePort::IsLinkUp() const
{
    return bool(m_channel);
}

void
QbbRemotePort::AddLinkChangeCallback(Callback<void> /* callback */)
{
}

bool
QbbRemotePort::IsBroadcast() const
{
    return true;
}

Address
QbbRemotePort::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
QbbRemotePort::IsMulticast() const
{
    return true;
}

Address
QbbRemotePort::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
QbbRemotePort::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
QbbRemotePort::IsBridge() const
{
    return false;
}

bool
QbbRemotePort::IsPointToPoint() const
{
    return true;
}

bool
QbbRemotePort::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
QbbRemotePort::SendFrom(Ptr<Packet> /* packet */,
                        const Address& /* source */,
                        const Address& /* dest */,
                        uint16_t /* protocolNumber */)
{
    NS_FATAL_ERROR("QbbRemotePort: node " << (m_node ? m_node->GetId() : 0) << " interface "
                                          << m_ifIndex
                                          << " is another rank's; nothing sends from it here");
    return false;
}

Ptr<Node>
QbbRemotePort::GetNode() const
{
    return m_node;
}

void
QbbRemotePort::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
QbbRemotePort::NeedsArp() const
{
    return false;
}

void
QbbRemotePort::SetReceiveCallback(NetDevice::ReceiveCallback /* cb */)
{
}

void
QbbRemotePort::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback /* cb */)
{
}

bool
QbbRemotePort::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
