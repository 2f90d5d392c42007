/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-load-balancer.h"

#include "ns3/boolean.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-frame-view.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaLoadBalancer);

TypeId
RdmaLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaLoadBalancer")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddAttribute("ControlByHash",
                          "false (the default): every frame goes where the policy says. true: "
                          "RoCEv2 acknowledgements (ACK, NAK, atomic ACK) and CNPs take the "
                          "per-flow hash (ECMP) whatever the policy, as the ConWeave "
                          "simulator's switches route them (switch-node.cc: control packets "
                          "by DoLbFlowECMP under every LB_MODE).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaLoadBalancer::m_controlByHash),
                          MakeBooleanChecker());
    return tid;
}

RdmaLoadBalancer::RdmaLoadBalancer() = default;

void
RdmaLoadBalancer::AddPort(Ptr<QbbNetDevice> port)
{
    m_ports.push_back(port);
}

int64_t
RdmaLoadBalancer::AssignStreams(int64_t stream)
{
    m_rng.Assign(stream);
    return 1;
}

uint32_t
RdmaLoadBalancer::Draw(uint32_t n)
{
    return m_rng.Get()->GetInteger(0, n - 1);
}

void
RdmaLoadBalancer::DoDispose()
{
    m_ports.clear();
    m_rng.Dispose();
    Object::DoDispose();
}

uint32_t
RdmaLoadBalancer::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

void
RdmaLoadBalancer::SetSeesFrames()
{
    m_seesFrames = true;
}

Ptr<QbbNetDevice>
RdmaLoadBalancer::GetPortDevice(uint32_t port) const
{
    return m_ports[port];
}

void
RdmaLoadBalancer::DoForwarded(RdmaFrame& /* frame */,
                              const RdmaFrameView& /* view */,
                              uint32_t /* inPort */,
                              uint32_t /* outPort */)
{
}

uint64_t
RdmaLoadBalancer::GetQueuedBytes(uint32_t port) const
{
    return m_ports[port]->GetTxQueue()->GetBytes();
}

bool
RdmaLoadBalancer::IsPaused(uint32_t port, const RdmaFrameView& view) const
{
    const QbbNetDevice& d = *m_ports[port];
    const uint8_t cls = d.GetClassMap().ClassifyHead(view.GetHead(), view.GetHeadLength());
    return (d.GetPfcController()->GetPausedMask() >> cls) & 1;
}

} // namespace ns3
