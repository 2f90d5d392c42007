/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QbbNetDevice's receive path: MAC Control frames to the PFC controller,
 * corruption by the ReceiveErrorModel (a real bit flip), the frame callback
 * or the standard NetDevice receive path.
 */

#include "qbb-channel.h"
#include "qbb-net-device.h"

#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbNetDeviceRx");

void
QbbNetDevice::Receive(Ptr<RdmaFrame> frame)
{
    // MAC Control frames (EtherType 0x8808 at bytes 12-13) stop here. They
    // are minFrameSize long (IEEE 802.3 31.4), so larger frames are data
    // and cost no look at their bytes.
    uint8_t eth[ETHERNET_HEADER_BYTES];
    bool macControl = false;
    const uint32_t size = frame->GetSize();
    if (size <= MIN_FRAME_BYTES && size >= ETHERNET_HEADER_BYTES)
    {
        frame->CopyData(eth, ETHERNET_HEADER_BYTES);
        macControl = ((eth[12] << 8) | eth[13]) == RdmaWire::ETHERTYPE_MAC_CONTROL;
    }
    Ptr<RdmaFrame> rx = frame;
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame->ToPacket()))
    {
        ++m_stats.rxCorrupt;
        if (macControl || (m_frameRxCallback.IsNull() && !m_frameHandler))
        {
            // The MAC's FCS check drops MAC Control frames on either path.
            NS_LOG_LOGIC("corrupt frame dropped");
            FireFrameTrace(m_phyRxDropTrace, *frame);
            Drop(*frame, DROP_CORRUPT);
            return;
        }
        rx = CorruptCopy(*frame);
    }
    if (macControl)
    {
        const Ptr<Packet> pfc = frame->ToPacket(); // PFC frames are Packets: no copy
        m_phyRxEndTrace(pfc);
        m_pfc->Receive(pfc);
        // Every class's new state is in place before the scheduler picks.
        StartNextFrame();
        return;
    }
    ++m_stats.rxFrames;
    m_stats.rxBytes += rx->GetSize();
    FireFrameTrace(m_phyRxEndTrace, *rx);
    if (m_frameHandler)
    {
        FireFrameTrace(m_macRxTrace, *rx);
        m_frameHandler(this, rx);
        return;
    }
    if (!m_frameRxCallback.IsNull())
    {
        const Ptr<Packet> p = rx->ToPacket();
        m_macRxTrace(p);
        m_frameRxCallback(this, p);
        return;
    }
    ForwardUp(rx->ToPacket());
}

void
QbbNetDevice::ForwardUp(Ptr<Packet> frame)
{
    // The frame object is shared with the sender (and its trace sinks):
    // take the header off a copy-on-write copy.
    Ptr<Packet> payload = frame->Copy();
    EthernetHeader eth(false);
    payload->RemoveHeader(eth);
    const uint16_t protocol = eth.GetLengthType();
    const Mac48Address dst = eth.GetDestination();
    const Mac48Address src = eth.GetSource();

    PacketType type;
    if (dst.IsBroadcast())
    {
        type = NetDevice::PACKET_BROADCAST;
    }
    else if (dst.IsGroup())
    {
        type = NetDevice::PACKET_MULTICAST;
    }
    else if (dst == m_address)
    {
        type = NetDevice::PACKET_HOST;
    }
    else
    {
        type = NetDevice::PACKET_OTHERHOST;
    }

    if (!m_promiscRxCallback.IsNull())
    {
        m_promiscRxCallback(this, payload, protocol, src, dst, type);
    }
    if (type != NetDevice::PACKET_OTHERHOST)
    {
        m_macRxTrace(frame);
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, payload, protocol, src);
        }
    }
}

Ptr<RdmaFrame>
QbbNetDevice::CorruptCopy(const RdmaFrame& frame)
{
    const uint32_t size = frame.GetSize();
    std::vector<uint8_t> bytes(size);
    frame.CopyData(bytes.data(), size);
    const uint32_t beyondHeader =
        size > ETHERNET_HEADER_BYTES ? size - ETHERNET_HEADER_BYTES : size;
    const uint32_t span = std::min(m_corruptTailBytes, beyondHeader);
    const uint32_t bit = m_corruptRng.Get()->GetInteger(0, span * 8 - 1);
    const uint32_t byte = size - span + bit / 8;
    bytes[byte] ^= static_cast<uint8_t>(1U << (bit % 8));
    NS_LOG_LOGIC("flipped bit " << bit % 8 << " of byte " << byte << " of " << size);
    return RdmaFrame::Wrap(Create<Packet>(bytes.data(), size));
}

void
QbbNetDevice::LostOnLink(Ptr<RdmaFrame> frame)
{
    NS_LOG_FUNCTION(this << frame->GetSize());
    Drop(*frame, DROP_LINK_DOWN);
}

void
QbbNetDevice::NotifyLinkChange()
{
    NS_LOG_FUNCTION(this);
    m_linkChangeCallbacks();
}

void
QbbNetDevice::SetFrameReceiveCallback(FrameReceiveCallback callback)
{
    m_frameRxCallback = callback;
}

void
QbbNetDevice::SetFrameHandler(FrameHandler handler)
{
    m_frameHandler = handler;
}

void
QbbNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> em)
{
    NS_LOG_FUNCTION(this << em);
    m_receiveErrorModel = em;
}

} // namespace ns3
