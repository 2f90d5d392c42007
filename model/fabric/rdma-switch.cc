/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-switch.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/int-header.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/qbb-channel.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-frame-editor.h"
#include "ns3/rdma-frame-view.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitch");

NS_OBJECT_ENSURE_REGISTERED(RdmaSwitch);

TypeId
RdmaSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSwitch")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSwitch>()
            .AddAttribute("EcmpSeed",
                          "Seed of this switch's ECMP flow hash; give switches different seeds "
                          "so that consecutive tiers do not split flows alike (polarization). "
                          "RdmaTopologyHelper, and so rdma-sim's switch.EcmpSeed, gives switch "
                          "i the seed i + 1 + EcmpSeed * 0x9E3779B9 (mod 2^32; "
                          "RdmaTopologyHelper::SwitchEcmpSeed): another value draws another, "
                          "independent placement of the same flows.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSwitch::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "LoadBalancing",
                "How a frame picks one of its destination's equal-cost ports: Ecmp "
                "(per-flow 5-tuple hash, RFC 2992), Spray (per packet, uniform), "
                "Drill (DRILL, SIGCOMM'17), LetFlow (flowlets, NSDI'17), Adaptive "
                "(per packet, the least-loaded port not paused) or Conga (CONGA, "
                "SIGCOMM'14: flowlets on the least congested uplink of a two-tier "
                "leaf-spine, from congestion fed back between leaves). Each policy's "
                "own attributes are those of its TypeId (ns3::RdmaDrill, "
                "ns3::RdmaLetFlow, ns3::RdmaConga).",
                EnumValue(RdmaSwitch::LB_ECMP),
                MakeEnumAccessor(&RdmaSwitch::SetLoadBalancing, &RdmaSwitch::GetLoadBalancing),
                MakeEnumChecker(RdmaSwitch::LB_ECMP,
                                "Ecmp",
                                RdmaSwitch::LB_SPRAY,
                                "Spray",
                                RdmaSwitch::LB_DRILL,
                                "Drill",
                                RdmaSwitch::LB_LETFLOW,
                                "LetFlow",
                                RdmaSwitch::LB_ADAPTIVE,
                                "Adaptive",
                                RdmaSwitch::LB_CONGA,
                                "Conga"))
            .AddAttribute(
                "EcnEnabled",
                "Mark ECN-capable frames CE, RED-style on the egress class queue "
                "(RdmaEcnMarker with SwitchEcnParams; DCQCN's congestion point).",
                BooleanValue(true),
                MakeBooleanAccessor(&RdmaSwitch::SetEcnEnabled, &RdmaSwitch::GetEcnEnabled),
                MakeBooleanChecker())
            .AddAttribute(
                "EcnAtDequeue",
                "Decide ECN marks as frames leave the egress queue, on the bytes "
                "still queued behind them (shared-buffer switch ASICs; the HPCC "
                "simulator's SwitchNode::SwitchNotifyDequeue). False: as they join "
                "it, on the bytes ahead of them.",
                BooleanValue(true),
                MakeBooleanAccessor(&RdmaSwitch::SetEcnAtDequeue, &RdmaSwitch::GetEcnAtDequeue),
                MakeBooleanChecker())
            .AddAttribute(
                "IntEnabled",
                "Stamp an INT hop record (IntHeader, HPCC) on frames to UDP port "
                "IntHeader::UDP_PORT.",
                BooleanValue(false),
                MakeBooleanAccessor(&RdmaSwitch::SetIntEnabled, &RdmaSwitch::GetIntEnabled),
                MakeBooleanChecker())
            .AddAttribute(
                "IntAtDequeue",
                "Stamp INT records as frames leave the egress queue, as the HPCC "
                "simulator does (SwitchNode::SwitchNotifyDequeue): departure time, "
                "bytes the port sent before the frame, bytes queued behind it. "
                "False: as they join it (arrival time, bytes sent by then, bytes "
                "queued ahead).",
                BooleanValue(false),
                MakeBooleanAccessor(&RdmaSwitch::SetIntAtDequeue, &RdmaSwitch::GetIntAtDequeue),
                MakeBooleanChecker())
            .AddAttribute("DecrementTtl",
                          "Decrement the IPv4 TTL / IPv6 Hop Limit of every frame forwarded "
                          "and drop frames that arrive with 1 or 0 (TTL_EXPIRED; RFC 1812 "
                          "5.3.1), so that a routing loop ends. The HPCC simulator does not.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaSwitch::m_decrementTtl),
                          MakeBooleanChecker())
            .AddAttribute("Mmu",
                          "The shared-buffer manager (set its attributes before AddPort).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_mmu),
                          MakePointerChecker<SwitchMmu>())
            .AddAttribute("Trimmer",
                          "Packet trimming at the ports (QbbTrimmer: which classes are cut to "
                          "their headers instead of dropped; set its attributes before "
                          "AddPort).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_trimmer),
                          MakePointerChecker<QbbTrimmer>())
            .AddAttribute("Watchdog",
                          "The PFC watchdog of the ports (set its attributes before AddPort).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_watchdog),
                          MakePointerChecker<RdmaPfcWatchdog>())
            .AddTraceSource("Drop",
                            "A frame was dropped: frame, ingress port, reason.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_dropTrace),
                            "ns3::RdmaSwitch::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A frame was marked CE: egress port, class, the class queue's "
                            "bytes the decision looked at.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_ecnMarkTrace),
                            "ns3::RdmaSwitch::EcnMarkTracedCallback");
    return tid;
}

RdmaSwitch::RdmaSwitch()
    : m_mmu(CreateObject<SwitchMmu>()),
      m_trimmer(CreateObject<QbbTrimmer>()),
      m_watchdog(CreateObject<RdmaPfcWatchdog>()),
      m_ecnRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
    SetLoadBalancing(LB_ECMP);
}

void
RdmaSwitch::SetLoadBalancing(LoadBalancing mode)
{
    static const char* const typeIds[] = {"ns3::RdmaEcmp",
                                          "ns3::RdmaSpray",
                                          "ns3::RdmaDrill",
                                          "ns3::RdmaLetFlow",
                                          "ns3::RdmaAdaptiveRouting",
                                          "ns3::RdmaConga"};
    if (m_lb && mode == m_lbMode)
    {
        return;
    }
    m_lbMode = mode;
    if (m_lb)
    {
        m_lb->Dispose();
    }
    ObjectFactory factory(typeIds[mode]);
    m_lb = factory.Create<RdmaLoadBalancer>();
    for (const Port& p : m_ports)
    {
        m_lb->AddPort(p.device);
    }
}

RdmaSwitch::LoadBalancing
RdmaSwitch::GetLoadBalancing() const
{
    return m_lbMode;
}

Ptr<RdmaLoadBalancer>
RdmaSwitch::GetLoadBalancer() const
{
    return m_lb;
}

RdmaSwitch::~RdmaSwitch() = default;

void
RdmaSwitch::DoDispose()
{
    for (Port& p : m_ports)
    {
        p.device->SetFrameHandler(QbbNetDevice::FrameHandler());
        p.device = nullptr;
        p.marker = nullptr;
    }
    m_ports.clear();
    m_lb->Dispose();
    m_lb = nullptr;
    m_watchdog->Dispose();
    m_watchdog = nullptr;
    m_mmu = nullptr;
    m_trimmer = nullptr;
    m_ecnRng = nullptr;
    Object::DoDispose();
}

uint32_t
RdmaSwitch::AddPort(Ptr<QbbNetDevice> device)
{
    NS_ABORT_MSG_IF(!device, "RdmaSwitch::AddPort: null device");
    Ptr<QbbChannel> channel = device->GetQbbChannel();
    NS_ABORT_MSG_IF(!channel, "RdmaSwitch::AddPort: the device is not attached to a channel");
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    const uint32_t maxFrame =
        device->GetMtu() + RdmaWire::ETHERNET_HEADER_BYTES + RdmaWire::VLAN_TAG_BYTES;
    const uint32_t mmuIndex = m_mmu->AddPort(device->GetDataRate(),
                                             channel->GetDelay(),
                                             maxFrame,
                                             device->GetPfcController());
    const uint32_t wdIndex = m_watchdog->AddPort(device);
    m_watchdog->SetStormCallback(MakeCallback(&RdmaSwitch::FlushStormed, this));
    NS_ABORT_MSG_IF(mmuIndex != index || wdIndex != index,
                    "RdmaSwitch: the MMU and watchdog must be used by this switch only");
    Port port;
    port.device = device;
    port.marker = CreateObject<RdmaEcnMarker>();
    port.marker->SetRandomVariable(m_ecnRng); // one draw sequence for the whole switch
    for (uint8_t c = 0; c < RdmaWire::NUM_CLASSES; ++c)
    {
        port.marker->SetParams(c, SwitchEcnParams::ForRate(device->GetDataRate()));
    }
    m_ports.push_back(port);
    m_lb->AddPort(device);
    Ptr<QbbEgressQueue> queue = device->GetTxQueue();
    queue->SetAdmission(m_mmu);
    queue->SetTrimmer(m_trimmer);
    // The queue counts its own drops (GetStats adds them); the switch's
    // Drop trace reports them too.
    queue->SetDropCallback([this](const RdmaFrame& frame, uint32_t inPort, RdmaDropReason reason) {
        FireFrameTrace(m_dropTrace, frame, inPort, reason);
    });
    queue->SetMarkCallback(
        [this, index](uint8_t cls, uint64_t queueBytes) { m_ecnMarkTrace(index, cls, queueBytes); });
    ApplyPolicies(index);
    device->SetFrameHandler([this, index](Ptr<QbbNetDevice> dev, Ptr<RdmaFrame> frame) {
        Receive(index, std::move(dev), std::move(frame));
    });
    return index;
}

void
RdmaSwitch::ApplyPolicies(uint32_t port)
{
    const Port& p = m_ports[port];
    Ptr<QbbEgressQueue> queue = p.device->GetTxQueue();
    queue->SetEcnMarker(m_ecnEnabled ? p.marker : nullptr, m_ecnAtDequeue);
    const QbbEgressQueue::IntStamping mode =
        !m_intEnabled ? QbbEgressQueue::INT_OFF
                      : (m_intAtDequeue ? QbbEgressQueue::INT_AT_DEQUEUE
                                        : QbbEgressQueue::INT_AT_ENQUEUE);
    queue->SetIntStamping(mode);
}

void
RdmaSwitch::SetPolicy(bool& flag, bool value)
{
    flag = value;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        ApplyPolicies(i);
    }
}

void
RdmaSwitch::SetEcnEnabled(bool enabled)
{
    SetPolicy(m_ecnEnabled, enabled);
}

void
RdmaSwitch::SetEcnAtDequeue(bool dequeue)
{
    SetPolicy(m_ecnAtDequeue, dequeue);
}

void
RdmaSwitch::SetIntEnabled(bool enabled)
{
    SetPolicy(m_intEnabled, enabled);
}

void
RdmaSwitch::SetIntAtDequeue(bool dequeue)
{
    SetPolicy(m_intAtDequeue, dequeue);
}

bool
RdmaSwitch::GetEcnEnabled() const
{
    return m_ecnEnabled;
}

bool
RdmaSwitch::GetEcnAtDequeue() const
{
    return m_ecnAtDequeue;
}

bool
RdmaSwitch::GetIntEnabled() const
{
    return m_intEnabled;
}

bool
RdmaSwitch::GetIntAtDequeue() const
{
    return m_intAtDequeue;
}

bool
RdmaSwitch::IsIntFrame(const RdmaFrameView& view)
{
    return view.GetProtocol() == RdmaFrameView::PROTO_UDP &&
           view.GetDstPort() == IntHeader::UDP_PORT;
}

uint32_t
RdmaSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<QbbNetDevice>
RdmaSwitch::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "RdmaSwitch: no port " << i);
    return m_ports[i].device;
}

int32_t
RdmaSwitch::GetPortIndex(Ptr<const NetDevice> device) const
{
    for (std::size_t i = 0; i < m_ports.size(); ++i)
    {
        if (PeekPointer(m_ports[i].device) == PeekPointer(device))
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

void
RdmaSwitch::AddRoute(Ipv4Address dst, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "RdmaSwitch::AddRoute: no port " << port << " (the switch has "
                                                     << m_ports.size() << ")");
    OwnRoutes().Add(dst, port);
}

void
RdmaSwitch::AddRoute(Ipv6Address dst, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "RdmaSwitch::AddRoute: no port " << port << " (the switch has "
                                                     << m_ports.size() << ")");
    OwnRoutes().Add(dst, port);
}

void
RdmaSwitch::SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports)
{
    for (uint32_t port : ports)
    {
        NS_ABORT_MSG_IF(port >= m_ports.size(),
                        "RdmaSwitch::SetRoute: no port " << port << " (the switch has "
                                                         << m_ports.size() << ")");
    }
    OwnRoutes().Set(dst, ports);
}

void
RdmaSwitch::ClearRoutes()
{
    m_routes = std::make_shared<RdmaRouteTable>();
}

RdmaRouteTable&
RdmaSwitch::OwnRoutes()
{
    if (m_routes.use_count() > 1)
    {
        m_routes = std::make_shared<RdmaRouteTable>(*m_routes);
    }
    return *m_routes;
}

bool
RdmaSwitch::ShareRoutes(const RdmaSwitch& other)
{
    if (m_routes != other.m_routes)
    {
        if (!(*m_routes == *other.m_routes))
        {
            return false;
        }
        m_routes = other.m_routes;
    }
    return true;
}

const RdmaRouteTable&
RdmaSwitch::GetRoutes() const
{
    return *m_routes;
}

int32_t
RdmaSwitch::SelectEgress(Ptr<const Packet> frame) const
{
    RdmaFrameView view;
    if (!view.Parse(frame))
    {
        return -1;
    }
    const RdmaRouteTable::Group* group =
        view.IsIpv6() ? m_routes->Lookup(view.GetDstIpv6()) : m_routes->Lookup(view.GetDstIpv4());
    if (!group)
    {
        return -1;
    }
    return static_cast<int32_t>(RdmaRouteTable::Select(*group, view.FlowHash(m_ecmpSeed)));
}

void
RdmaSwitch::SetEcnParams(uint32_t port, uint8_t cls, const SwitchEcnParams& params)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "RdmaSwitch::SetEcnParams: no port " << port);
    m_ports[port].marker->SetParams(cls, params);
}

const SwitchEcnParams&
RdmaSwitch::GetEcnParams(uint32_t port, uint8_t cls) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "RdmaSwitch::GetEcnParams: no port " << port);
    return m_ports[port].marker->GetParams(cls);
}

Ptr<SwitchMmu>
RdmaSwitch::GetMmu() const
{
    return m_mmu;
}

Ptr<RdmaPfcWatchdog>
RdmaSwitch::GetWatchdog() const
{
    return m_watchdog;
}

Ptr<QbbTrimmer>
RdmaSwitch::GetTrimmer() const
{
    return m_trimmer;
}

RdmaSwitch::Stats
RdmaSwitch::GetStats() const
{
    Stats st = m_stats;
    for (const Port& p : m_ports)
    {
        const QbbEgressQueue::Stats& q = p.device->GetTxQueue()->GetStats();
        st.drops += q.drops;
        st.ecnMarked += q.marks;
        st.trimmed += q.trimmed;
        st.intStamped += q.intStamped;
    }
    st.pfcXoff = m_mmu->GetXoffCount();
    st.pfcXon = m_mmu->GetXonCount();
    return st;
}

int64_t
RdmaSwitch::AssignStreams(int64_t stream)
{
    m_ecnRng->SetStream(stream);
    const int64_t lb = m_lb->AssignStreams(stream + 1); // ECMP draws nothing: one stream, as before
    return 1 + lb + m_trimmer->AssignStreams(stream + 1 + lb);
}

std::vector<uint64_t>
RdmaSwitch::GetQueuedBytesByIngress(uint32_t egress, uint8_t cls) const
{
    NS_ABORT_MSG_IF(egress >= m_ports.size(), "RdmaSwitch: no port " << egress);
    return m_ports[egress].device->GetTxQueue()->GetBytesByIngress(cls, GetNPorts());
}

void
RdmaSwitch::Drop(const RdmaFrame& frame, uint32_t inPort, RdmaDropReason reason)
{
    ++m_stats.drops[reason];
    FireFrameTrace(m_dropTrace, frame, inPort, reason);
}

void
RdmaSwitch::Receive(uint32_t inPort, Ptr<QbbNetDevice> /* device */, Ptr<RdmaFrame> frame)
{
    ++m_stats.rxFrames;
    RdmaFrameView view;
    if (!view.Parse(*frame))
    {
        Drop(*frame, inPort, DROP_NOT_IP);
        return;
    }
    const RdmaRouteTable::Group* group =
        view.IsIpv6() ? m_routes->Lookup(view.GetDstIpv6()) : m_routes->Lookup(view.GetDstIpv4());
    if (!group)
    {
        Drop(*frame, inPort, DROP_NO_ROUTE);
        return;
    }
    if (m_decrementTtl)
    {
        if (view.GetTtl() <= 1)
        {
            Drop(*frame, inPort, DROP_TTL_EXPIRED);
            return;
        }
        RdmaFrameEditor::DecrementTtl(*frame, view);
    }
    const uint32_t out = m_lb->Select(*group, view, m_ecmpSeed);
    m_lb->Forwarded(*frame, view, inPort, out);
    Port& egress = m_ports[out];
    QbbQueueItem item;
    item.cls = egress.device->GetClassMap().ClassifyHead(view.GetHead(), view.GetHeadLength());
    if (m_watchdog->IsStormed(out, item.cls) && m_watchdog->GetAction() == RdmaPfcWatchdog::DROP)
    {
        Drop(*frame, inPort, DROP_PFC_STORM);
        return;
    }
    item.frame = frame;
    item.inPort = inPort;
    item.ecn = view.GetEcn();
    item.ipv6 = view.IsIpv6();
    item.ipOffset = static_cast<uint8_t>(view.GetIpOffset());
    if (m_intEnabled && IsIntFrame(view))
    {
        // The IntHeader follows the UDP header.
        item.intOffset = static_cast<uint8_t>(view.GetL4Offset() + RdmaWire::UDP_HEADER_BYTES);
    }
    if (egress.device->Enqueue(std::move(item)))
    {
        ++m_stats.txFrames;
    }
}

void
RdmaSwitch::FlushStormed(uint32_t port, uint8_t cls)
{
    m_ports[port].device->GetTxQueue()->Flush(cls);
}

} // namespace ns3
