/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-remote-channel.h"

#include "qbb-net-device.h"

#include "ns3/abort.h"
#include "ns3/icrc-trailer.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/rdma-event-key-tag.h"
#include "ns3/rdma-event-scheduler.h"
#include "ns3/rdma-window-mpi-interface.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(QbbRemoteChannel);

TypeId
QbbRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QbbRemoteChannel")
                            .SetParent<QbbChannel>()
                            .SetGroupName("Rdma")
                            .AddConstructor<QbbRemoteChannel>();
    return tid;
}

QbbRemoteChannel::QbbRemoteChannel()
{
    NS_LOG_FUNCTION(this);
}

QbbRemoteChannel::~QbbRemoteChannel()
{
    NS_LOG_FUNCTION(this);
}

bool
QbbRemoteChannel::Attach(Ptr<QbbNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    if (m_farEnd && QbbChannel::GetNDevices() >= 1)
    {
        NS_LOG_WARN("QbbRemoteChannel " << this << " already joins two ends");
        return false;
    }
    if (!QbbChannel::Attach(device))
    {
        return false;
    }
    const Ptr<Node> node = device->GetNode();
    NS_ABORT_MSG_UNLESS(node, "QbbRemoteChannel::Attach: the device needs its node first");
    if (node->GetSystemId() != MpiInterface::GetSystemId())
    {
        return true;
    }
    if (RdmaWindowMpiInterface::IsEnabled())
    {
        // Granted-time windows: frames come in batches, to Deliver().
        RdmaWindowMpiInterface::SetReceiveCallback(MakeCallback(&QbbRemoteChannel::Deliver));
        return true;
    }
    NS_ABORT_MSG_IF(device->GetObject<MpiReceiver>(),
                    "QbbRemoteChannel::Attach: node " << node->GetId() << " device "
                                                      << device->GetIfIndex()
                                                      << " has an MpiReceiver already");
    Ptr<MpiReceiver> rx = CreateObject<MpiReceiver>();
    rx->SetReceiveCallback(MakeCallback(&QbbRemoteChannel::Arrive, this).Bind(device));
    device->AggregateObject(rx);
    return true;
}

void
QbbRemoteChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_farEnd)
    {
        m_farEnd->Dispose();
        m_farEnd = nullptr;
    }
    QbbChannel::DoDispose();
}

bool
QbbRemoteChannel::AttachFarEnd(Ptr<QbbRemotePort> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ASSERT(port);
    if (m_farEnd || QbbChannel::GetNDevices() >= 2)
    {
        NS_LOG_WARN("QbbRemoteChannel " << this << " already joins two ends");
        return false;
    }
    m_farEnd = port;
    port->SetChannel(this);
    return true;
}

std::size_t
QbbRemoteChannel::GetNDevices() const
{
    return QbbChannel::GetNDevices() + (m_farEnd ? 1 : 0);
}

Ptr<NetDevice>
QbbRemoteChannel::GetDevice(std::size_t i) const
{
    const std::size_t devices = QbbChannel::GetNDevices();
    if (i < devices)
    {
        return QbbChannel::GetDevice(i);
    }
    return i == devices ? m_farEnd : nullptr;
}

bool
QbbRemoteChannel::TransmitStart(Ptr<RdmaFrame> rdmaFrame, const QbbNetDevice* src, Time wireTime)
{
    if (!IsLinkUp() || GetNDevices() < 2)
    {
        return false;
    }
    // The other end: the far end, or a device of the other rank's node.
    const Ptr<NetDevice> dst = PeekPointer(GetQbbDevice(0)) == src ? GetDevice(1) : GetDevice(0);
    // The key QbbChannel's arrival would take, taken now as it does.
    const uint64_t order = RdmaEventScheduler::TakeKey();
    NS_ABORT_MSG_IF(wireTime < TimeStep(1), "QbbRemoteChannel: a frame with no wire time");
    const Time arrival = Simulator::Now() + wireTime + GetDelay();
    const Ptr<Node> dstNode = dst->GetNode();
    if (RdmaWindowMpiInterface::IsEnabled())
    {
        // Into this window's batch for the other rank, the key beside it.
        // A compact frame says its head's length, to be kept compact there.
        RdmaWindowMpiInterface::SendFrame(rdmaFrame->ToPacket(),
                                          arrival,
                                          order,
                                          dstNode->GetId(),
                                          dst->GetIfIndex(),
                                          dstNode->GetSystemId(),
                                          rdmaFrame->GetHeadLength());
        ++m_sent;
        return true;
    }
    // What ns-3's per-frame MPI message carries: a copy (the frame's own
    // Packet may be shared), tagged.
    const Ptr<Packet> frame = rdmaFrame->ToPacket()->Copy();
    frame->AddPacketTag(RdmaEventKeyTag(order));
    const uint32_t bytes = frame->GetSerializedSize() + MESSAGE_HEADER_BYTES;
    NS_ABORT_MSG_IF(bytes > MAX_MESSAGE_BYTES,
                    "QbbRemoteChannel: a " << frame->GetSize() << "-byte frame to node "
                                           << dstNode->GetId() << " serializes to " << bytes
                                           << " bytes, above ns-3.37's " << MAX_MESSAGE_BYTES
                                           << "-byte MPI message buffer (real payload bytes "
                                              "need a smaller MTU across ranks)");
    // The message lands one time step early (see the class comment); a
    // wire time of at least one step keeps it at or past the lookahead.
    MpiInterface::SendPacket(frame, arrival - TimeStep(1), dstNode->GetId(), dst->GetIfIndex());
    ++m_sent;
    return true;
}

void
QbbRemoteChannel::Arrive(Ptr<QbbNetDevice> device, Ptr<Packet> frame)
{
    ++m_received;
    RdmaEventKeyTag order;
    NS_ABORT_MSG_UNLESS(frame->RemovePacketTag(order),
                        "QbbRemoteChannel: a frame from another rank without its event key");
    RdmaEventScheduler::SetNextKey(order.GetKey());
    Simulator::Schedule(TimeStep(1), &QbbRemoteChannel::PassUp, device, RdmaFrame::Wrap(frame));
}

Ptr<RdmaFrame>
QbbRemoteChannel::Compacted(Ptr<Packet> packet, uint32_t head)
{
    NS_ABORT_MSG_IF(head > RdmaFrame::HEAD_CAPACITY ||
                        packet->GetSize() < head + RdmaFrame::TRAILER_BYTES,
                    "QbbRemoteChannel: a compact head of " << head << " bytes in a "
                                                           << packet->GetSize() << "-byte frame");
    uint8_t bytes[RdmaFrame::HEAD_CAPACITY];
    packet->CopyData(bytes, head);
    IcrcTrailer trailer;
    packet->RemoveTrailer(trailer);
    // With INT slots, as a wrapped frame has them (their egress IDs are
    // metadata, not carried across).
    return RdmaFrame::Compact(bytes, head, packet->GetSize() - head, trailer.GetIcrc(), true);
}

void
QbbRemoteChannel::Deliver(const RdmaFrameBatch::Record& record)
{
    const Ptr<Node> node = NodeList::GetNode(record.node);
    NS_ABORT_MSG_UNLESS(record.ifIndex < node->GetNDevices(),
                        "QbbRemoteChannel: a frame from another rank for node "
                            << record.node << " device " << record.ifIndex << ", which it lacks");
    const Ptr<QbbNetDevice> device = DynamicCast<QbbNetDevice>(node->GetDevice(record.ifIndex));
    const Ptr<QbbRemoteChannel> channel =
        device ? DynamicCast<QbbRemoteChannel>(device->GetChannel()) : nullptr;
    NS_ABORT_MSG_UNLESS(channel,
                        "QbbRemoteChannel: a frame from another rank for node "
                            << record.node << " device " << record.ifIndex
                            << ", not on a link between ranks");
    ++channel->m_received;
    const Ptr<Packet> packet = record.frame.ToPacket();
    PassUp(device,
           record.compactHead > 0 ? Compacted(packet, record.compactHead)
                                  : RdmaFrame::Wrap(packet));
}

uint64_t
QbbRemoteChannel::GetSentFrames() const
{
    return m_sent;
}

uint64_t
QbbRemoteChannel::GetReceivedFrames() const
{
    return m_received;
}

} // namespace ns3
