/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-channel.h"

#include "qbb-net-device.h"
#include "qbb-remote-port.h"

#include "ns3/log.h"
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
        if (w)
        {
            w->Clear();
        }
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
    if (m_nDevices == 2)
    {
        // The wires, made when there are two devices to join (a channel
        // between ranks, with one, has none).
        for (uint32_t dst = 0; dst < m_wires.size(); ++dst)
        {
            m_wires[dst] = Create<QbbWire>();
            m_wires[dst]->SetEnds(PeekPointer(m_devices[1 - dst]), PeekPointer(m_devices[dst]));
        }
    }
    return true;
}

bool
QbbChannel::AttachFarEnd(Ptr<QbbRemotePort> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_LOG_WARN("QbbChannel " << this << " joins two devices of one process, no far end");
    return false;
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
    QbbWire& w = *m_wires[dst];
    w.Push(frame, wireTime + m_delay, w.GetDownCount(), RdmaEventScheduler::TakeKey());
    return true;
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
    for (auto& w : m_wires)
    {
        if (w)
        {
            w->LinkDown();
        }
    }
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
