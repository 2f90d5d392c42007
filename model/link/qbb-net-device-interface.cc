/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QbbNetDevice as an ns-3 NetDevice: addresses, MTU, link state, node,
 * and Send()/SendFrom(), which build an Ethernet frame and hand it to
 * SendFrame().
 */

#include "qbb-channel.h"
#include "qbb-net-device.h"

#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbNetDeviceInterface");

void
QbbNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
QbbNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
QbbNetDevice::GetChannel() const
{
    return m_channel;
}

void
QbbNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
QbbNetDevice::GetAddress() const
{
    return m_address;
}

bool
QbbNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    if (mtu < RdmaWire::MIN_PAYLOAD_BYTES)
    {
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
QbbNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
QbbNetDevice::IsLinkUp() const
{
    return m_channel && m_channel->GetNDevices() == 2 && m_channel->IsLinkUp();
}

void
QbbNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
QbbNetDevice::IsBroadcast() const
{
    return true;
}

Address
QbbNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
QbbNetDevice::IsMulticast() const
{
    return true;
}

Address
QbbNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
QbbNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
QbbNetDevice::IsBridge() const
{
    return false;
}

bool
QbbNetDevice::IsPointToPoint() const
{
    return true;
}

bool
QbbNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    return DoSend(packet, m_address, Mac48Address::ConvertFrom(dest), protocolNumber);
}

bool
QbbNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    return DoSend(packet,
                  Mac48Address::ConvertFrom(source),
                  Mac48Address::ConvertFrom(dest),
                  protocolNumber);
}

bool
QbbNetDevice::DoSend(Ptr<Packet> packet,
                     Mac48Address source,
                     Mac48Address dest,
                     uint16_t protocolNumber)
{
    const uint32_t payloadBytes = packet->GetSize();
    if (payloadBytes < RdmaWire::MIN_PAYLOAD_BYTES)
    {
        packet->AddPaddingAtEnd(RdmaWire::MIN_PAYLOAD_BYTES - payloadBytes);
    }
    EthernetHeader eth(false);
    eth.SetSource(source);
    eth.SetDestination(dest);
    eth.SetLengthType(protocolNumber);
    packet->AddHeader(eth);
    if (payloadBytes > m_mtu)
    {
        NS_LOG_LOGIC("payload of " << payloadBytes << " bytes exceeds Mtu " << m_mtu);
        Drop(*RdmaFrame::Wrap(packet), DROP_BAD_SIZE);
        return false;
    }
    return SendFrame(packet);
}

Ptr<Node>
QbbNetDevice::GetNode() const
{
    return m_node;
}

void
QbbNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
QbbNetDevice::NeedsArp() const
{
    return true;
}

void
QbbNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
QbbNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
QbbNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
