/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-channel.h"

#include "qbb-net-device.h"

#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/node.h"
#include "ns3/rdma-event-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbChannel");

NS_OBJECT_ENSURE_REGISTERED(QbbChannel);

TypeId
QbbChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QbbChannel")
            .SetParent<Channel>()
            .SetGroupName("Rdma")
            .AddConstructor<QbbChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable, time from a bit leaving one end "
                          "to its arrival at the other (1 us by default, the link delay of "
                          "the HPCC simulator's data-center topologies; about 200 m of fiber).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&QbbChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("LinkState",
                            "The link went down (false) or came up (true).",
                            MakeTraceSourceAccessor(&QbbChannel::m_linkStateTrace),
                            "ns3::QbbChannel::LinkStateTracedCallback");
    return tid;
}

QbbChannel::QbbChannel()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t dst = 0; dst < m_wires.size(); ++dst)
    {
        // MakeEvent returns the event with one reference: adopt it.
        m_wires[dst].arrival = Ptr<EventImpl>(MakeEvent(&QbbChannel::Deliver, this, dst), false);
    }
}

QbbChannel::~QbbChannel()
{
    NS_LOG_FUNCTION(this);
}

void
QbbChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& w : m_wires)
    {
        // A pending arrival keeps its own reference: make it a no-op.
        w.arrival->Cancel();
        w.frames.clear();
    }
    for (auto& d : m_devices)
    {
        d = nullptr;
    }
    m_nDevices = 0;
    Channel::DoDispose();
}

bool
QbbChannel::Attach(Ptr<QbbNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ASSERT(device);
    if (m_nDevices >= m_devices.size())
    {
        NS_LOG_WARN("QbbChannel " << this << " already joins two devices");
        return false;
    }
    m_devices[m_nDevices++] = device;
    return true;
}

bool
QbbChannel::TransmitStart(Ptr<RdmaFrame> frame, const QbbNetDevice* src, Time wireTime)
{
    if (!m_linkUp || m_nDevices < 2)
    {
        return false;
    }
    const uint32_t dst = (PeekPointer(m_devices[0]) == src) ? 1 : 0;
    NS_ASSERT_MSG(PeekPointer(m_devices[1 - dst]) == src, "sender is not attached here");
    Wire& w = m_wires[dst];
    const Time arrival = Simulator::Now() + wireTime + m_delay;
    // One transmitter per direction, one frame at a time: arrivals are in order.
    NS_ASSERT(w.frames.empty() || w.frames.back().arrival <= arrival);
    w.frames.push_back(InFlight{frame, arrival, m_downCount, RdmaEventScheduler::TakeKey()});
    if (w.frames.size() == 1)
    {
        ScheduleArrival(dst, wireTime + m_delay, w.frames.back().order);
    }
    return true;
}

void
QbbChannel::ScheduleArrival(uint32_t dst, Time delay, uint64_t order)
{
    Wire& w = m_wires[dst];
    const Ptr<Node> node = m_devices[dst]->GetNode();
    const uint32_t context = node ? node->GetId() : Simulator::GetContext();
    // The simulator takes over one reference per scheduling and drops it
    // after the event has run.
    w.arrival->Ref();
    RdmaEventScheduler::SetNextKey(order);
    Simulator::ScheduleWithContext(context, delay, PeekPointer(w.arrival));
}

void
QbbChannel::Deliver(uint32_t dst)
{
    Wire& w = m_wires[dst];
    if (w.frames.empty())
    {
        return; // disposed
    }
    InFlight f = std::move(w.frames.front());
    w.frames.pop_front();
    // Schedule the next arrival before passing the frame up: the receiver
    // may cause new transmissions on this link.
    if (!w.frames.empty())
    {
        ScheduleArrival(dst, w.frames.front().arrival - Simulator::Now(), w.frames.front().order);
    }
    if (f.downCount != m_downCount)
    {
        // The link went down while some of the frame was on the wire.
        m_devices[1 - dst]->LostOnLink(f.frame);
        return;
    }
    m_devices[dst]->Receive(f.frame);
}

void
QbbChannel::PassUp(Ptr<QbbNetDevice> device, Ptr<RdmaFrame> frame)
{
    device->Receive(frame);
}

void
QbbChannel::SetLinkDown()
{
    NS_LOG_FUNCTION(this);
    if (!m_linkUp)
    {
        return;
    }
    m_linkUp = false;
    ++m_downCount;
    m_linkStateTrace(false);
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_devices[i]->NotifyLinkChange();
    }
}

void
QbbChannel::SetLinkUp()
{
    NS_LOG_FUNCTION(this);
    if (m_linkUp)
    {
        return;
    }
    m_linkUp = true;
    m_linkStateTrace(true);
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_devices[i]->NotifyLinkChange();
    }
}

bool
QbbChannel::IsLinkUp() const
{
    return m_linkUp;
}

Time
QbbChannel::GetDelay() const
{
    return m_delay;
}

Ptr<QbbNetDevice>
QbbChannel::GetQbbDevice(std::size_t i) const
{
    return i < m_nDevices ? m_devices[i] : nullptr;
}

std::size_t
QbbChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
QbbChannel::GetDevice(std::size_t i) const
{
    return GetQbbDevice(i);
}

} // namespace ns3
