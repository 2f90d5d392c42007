/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-remote-channel.h"

#include "qbb-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <map>
#include <vector>

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
    if (!QbbChannel::Attach(device))
    {
        return false;
    }
    const Ptr<Node> node = device->GetNode();
    NS_ABORT_MSG_UNLESS(node, "QbbRemoteChannel::Attach: the device needs its node first");
    if (node->GetSystemId() == MpiInterface::GetSystemId())
    {
        NS_ABORT_MSG_IF(device->GetObject<MpiReceiver>(),
                        "QbbRemoteChannel::Attach: node " << node->GetId() << " device "
                                                          << device->GetIfIndex()
                                                          << " has an MpiReceiver already");
        Ptr<MpiReceiver> rx = CreateObject<MpiReceiver>();
        rx->SetReceiveCallback(MakeCallback(&QbbRemoteChannel::Arrive, this).Bind(device));
        device->AggregateObject(rx);
    }
    return true;
}

bool
QbbRemoteChannel::TransmitStart(Ptr<RdmaFrame> rdmaFrame, const QbbNetDevice* src, Time wireTime)
{
    if (!IsLinkUp() || GetNDevices() < 2)
    {
        return false;
    }
    const Ptr<QbbNetDevice> dst =
        PeekPointer(GetQbbDevice(0)) == src ? GetQbbDevice(1) : GetQbbDevice(0);
    const Ptr<Packet> frame = rdmaFrame->ToPacket(); // what MPI carries
    const uint32_t bytes = frame->GetSerializedSize() + MESSAGE_HEADER_BYTES;
    NS_ABORT_MSG_IF(bytes > MAX_MESSAGE_BYTES,
                    "QbbRemoteChannel: a " << frame->GetSize() << "-byte frame to node "
                                           << dst->GetNode()->GetId() << " serializes to "
                                           << bytes << " bytes, above ns-3.37's "
                                           << MAX_MESSAGE_BYTES
                                           << "-byte MPI message buffer (real payload bytes "
                                              "need a smaller MTU across ranks)");
    const Time arrival = Simulator::Now() + wireTime + GetDelay();
    MpiInterface::SendPacket(frame, arrival, dst->GetNode()->GetId(), dst->GetIfIndex());
    ++m_sent;
    return true;
}

namespace
{

/// A frame from another rank waiting for its node's Flush.
struct Pending
{
    Ptr<QbbNetDevice> device; //!< the receiving device
    Ptr<RdmaFrame> frame;     //!< the frame
};

/// Frames from other ranks not passed up yet, by node id.
std::map<uint32_t, std::vector<Pending>> g_pending;

} // namespace

void
QbbRemoteChannel::Arrive(Ptr<QbbNetDevice> device, Ptr<Packet> frame)
{
    ++m_received;
    if (MpiInterface::GetSize() <= 2)
    {
        // One other rank: its frames come in the order it sent them.
        PassUp(device, RdmaFrame::Wrap(frame));
        return;
    }
    const uint32_t node = device->GetNode()->GetId();
    std::vector<Pending>& waiting = g_pending[node];
    if (waiting.empty())
    {
        Simulator::ScheduleWithContext(node, Time(0), &QbbRemoteChannel::Flush, node);
    }
    waiting.push_back({device, RdmaFrame::Wrap(frame)});
}

void
QbbRemoteChannel::Flush(uint32_t node)
{
    auto it = g_pending.find(node);
    if (it == g_pending.end())
    {
        return;
    }
    std::vector<Pending> frames = std::move(it->second);
    g_pending.erase(it);
    // Each port's frames stay in their order (one sender per direction).
    std::stable_sort(frames.begin(), frames.end(), [](const Pending& a, const Pending& b) {
        return a.device->GetIfIndex() < b.device->GetIfIndex();
    });
    for (Pending& p : frames)
    {
        PassUp(p.device, p.frame);
    }
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
