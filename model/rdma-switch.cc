/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-switch.h"

#include "int-header.h"
#include "qbb-channel.h"
#include "rdma-frame-editor.h"
#include "rdma-frame-view.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitch");

NS_OBJECT_ENSURE_REGISTERED(RdmaSwitch);

static_assert(RdmaSwitch::DROP_BUFFER_FULL - RdmaSwitch::DROP_INGRESS_LIMIT ==
                      SwitchMmu::DROP_BUFFER_FULL - SwitchMmu::DROP_INGRESS_LIMIT &&
                  RdmaSwitch::DROP_HEADROOM_FULL - RdmaSwitch::DROP_INGRESS_LIMIT ==
                      SwitchMmu::DROP_HEADROOM_FULL - SwitchMmu::DROP_INGRESS_LIMIT,
              "the switch's MMU drop reasons follow SwitchMmu::Admission's order");

const char*
RdmaSwitch::DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case DROP_NOT_IP:
        return "NOT_IP";
    case DROP_NO_ROUTE:
        return "NO_ROUTE";
    case DROP_INGRESS_LIMIT:
    case DROP_BUFFER_FULL:
    case DROP_HEADROOM_FULL:
        return SwitchMmu::AdmissionName(
            SwitchMmu::Admission(reason - DROP_INGRESS_LIMIT + SwitchMmu::DROP_INGRESS_LIMIT));
    case DROP_PFC_STORM:
        return "PFC_STORM";
    case DROP_EGRESS_REFUSED:
        return "EGRESS_REFUSED";
    case DROP_REASON_COUNT:
        break;
    }
    return "UNKNOWN";
}

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
                          "so that consecutive tiers do not split flows alike (polarization).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSwitch::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnEnabled",
                          "Mark ECN-capable frames CE, RED-style on the egress class queue "
                          "(SwitchEcnParams; DCQCN's switch behaviour).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("IntEnabled",
                          "Stamp an INT hop record (IntHeader, HPCC) on frames to UDP port "
                          "IntHeader::UDP_PORT.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaSwitch::m_intEnabled),
                          MakeBooleanChecker())
            .AddAttribute("IntAtDequeue",
                          "Stamp INT records as frames leave the egress queue, as the HPCC "
                          "simulator does (SwitchNode::SwitchNotifyDequeue): departure time, "
                          "bytes the port sent before the frame, bytes queued behind it. "
                          "False: as they join it (arrival time, bytes sent by then, bytes "
                          "queued ahead).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaSwitch::m_intAtDequeue),
                          MakeBooleanChecker())
            .AddAttribute("Mmu",
                          "The shared-buffer manager (set its attributes before AddPort).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_mmu),
                          MakePointerChecker<SwitchMmu>())
            .AddAttribute("Watchdog",
                          "The PFC watchdog of the ports (set its attributes before AddPort).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_watchdog),
                          MakePointerChecker<RdmaPfcWatchdog>())
            .AddTraceSource("Drop",
                            "A frame was dropped: frame, ingress port, reason.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_dropTrace),
                            "ns3::RdmaSwitch::DropTracedCallback")
            .AddTraceSource("PfcXoff",
                            "An ingress (port, class) crossed its XOFF condition and its "
                            "upstream is paused: port, class, ingress bytes, shared bytes, "
                            "threshold.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_xoffTrace),
                            "ns3::RdmaSwitch::PfcDecisionTracedCallback")
            .AddTraceSource("PfcXon",
                            "A paused ingress (port, class) met its resume condition: port, "
                            "class, ingress bytes, shared bytes, threshold.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_xonTrace),
                            "ns3::RdmaSwitch::PfcDecisionTracedCallback")
            .AddTraceSource("EcnMark",
                            "A frame was marked CE: egress port, class, queued bytes.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_ecnMarkTrace),
                            "ns3::RdmaSwitch::EcnMarkTracedCallback");
    return tid;
}

RdmaSwitch::RdmaSwitch()
    : m_mmu(CreateObject<SwitchMmu>()),
      m_watchdog(CreateObject<RdmaPfcWatchdog>()),
      m_ecnRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

RdmaSwitch::~RdmaSwitch() = default;

void
RdmaSwitch::DoDispose()
{
    for (Port& p : m_ports)
    {
        p.device->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback());
        p.device = nullptr;
    }
    m_ports.clear();
    m_watchdog->Dispose();
    m_watchdog = nullptr;
    m_mmu = nullptr;
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
        device->GetMtu() + QbbNetDevice::ETHERNET_HEADER_BYTES + QbbNetDevice::VLAN_TAG_BYTES;
    uint32_t mmuIndex = m_mmu->AddPort(device->GetDataRate(), channel->GetDelay(), maxFrame);
    uint32_t wdIndex = m_watchdog->AddPort(device);
    m_watchdog->SetStormCallback(MakeCallback(&RdmaSwitch::FlushStormed, this));
    NS_ABORT_MSG_IF(mmuIndex != index || wdIndex != index,
                    "RdmaSwitch: the MMU and watchdog must be used by this switch only");
    Port port;
    port.device = device;
    port.ecn.fill(SwitchEcnParams::ForRate(device->GetDataRate()));
    m_ports.push_back(port);
    device->SetFrameReceiveCallback(MakeCallback(&RdmaSwitch::Receive, this, index));
    device->SetTxStartHook(MakeCallback(&RdmaSwitch::EgressDequeue, this, index));
    return index;
}

uint64_t
RdmaSwitch::IntRecord(const Port& egress) const
{
    return IntHeader::EncodeHop(egress.device->GetDataRate(),
                                Simulator::Now(),
                                egress.device->GetStats().txBytes,
                                egress.device->GetTxQueueBytes());
}

bool
RdmaSwitch::IsIntFrame(const RdmaFrameView& view)
{
    return view.GetProtocol() == RdmaFrameView::PROTO_UDP &&
           view.GetDstPort() == IntHeader::UDP_PORT;
}

Ptr<Packet>
RdmaSwitch::EgressDequeue(uint32_t port, Ptr<Packet> frame, uint8_t cls)
{
    // The frame's record is the first of its class: the port's class queues
    // and these FIFOs see the same frames in the same order. (PFC frames the
    // port sends itself do not come here: they are not in the buffer.)
    Port& egress = m_ports[port];
    std::deque<Pending>& fifo = egress.pending[cls];
    NS_ASSERT_MSG(!fifo.empty(), "RdmaSwitch: port " << port << " sent a frame it was not given");
    if (fifo.empty())
    {
        return frame;
    }
    const Pending rec = fifo.front();
    fifo.pop_front();
    if (rec.intOffset != 0 && RdmaFrameEditor::StampInt(frame, rec.intOffset, IntRecord(egress)))
    {
        ++m_stats.intStamped;
    }
    ReleaseBuffer(rec.inPort, cls, rec.bytes);
    return frame;
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
    m_routes.Add(dst, port);
}

void
RdmaSwitch::AddRoute(Ipv6Address dst, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "RdmaSwitch::AddRoute: no port " << port << " (the switch has "
                                                     << m_ports.size() << ")");
    m_routes.Add(dst, port);
}

void
RdmaSwitch::ClearRoutes()
{
    m_routes.Clear();
}

const RdmaRouteTable&
RdmaSwitch::GetRoutes() const
{
    return m_routes;
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
        view.IsIpv6() ? m_routes.Lookup(view.GetDstIpv6()) : m_routes.Lookup(view.GetDstIpv4());
    if (!group)
    {
        return -1;
    }
    return static_cast<int32_t>(RdmaRouteTable::Select(*group, view.FlowHash(m_ecmpSeed)));
}

void
RdmaSwitch::SetEcnParams(uint32_t port, uint8_t cls, const SwitchEcnParams& params)
{
    NS_ABORT_MSG_IF(port >= m_ports.size() || cls >= QbbNetDevice::NUM_CLASSES,
                    "RdmaSwitch::SetEcnParams: no port " << port << " class " << +cls);
    NS_ABORT_MSG_IF(params.kmaxBytes < params.kminBytes || params.pmax < 0 || params.pmax > 1,
                    "RdmaSwitch::SetEcnParams: need Kmin <= Kmax and 0 <= Pmax <= 1");
    m_ports[port].ecn[cls] = params;
}

const SwitchEcnParams&
RdmaSwitch::GetEcnParams(uint32_t port, uint8_t cls) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size() || cls >= QbbNetDevice::NUM_CLASSES,
                    "RdmaSwitch::GetEcnParams: no port " << port << " class " << +cls);
    return m_ports[port].ecn[cls];
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

const RdmaSwitch::Stats&
RdmaSwitch::GetStats() const
{
    return m_stats;
}

int64_t
RdmaSwitch::AssignStreams(int64_t stream)
{
    m_ecnRng->SetStream(stream);
    return 1;
}

std::vector<uint64_t>
RdmaSwitch::GetQueuedBytesByIngress(uint32_t egress, uint8_t cls) const
{
    NS_ABORT_MSG_IF(egress >= m_ports.size() || cls >= QbbNetDevice::NUM_CLASSES,
                    "RdmaSwitch: no port " << egress << " class " << +cls);
    std::vector<uint64_t> bytes(m_ports.size(), 0);
    for (const Pending& p : m_ports[egress].pending[cls])
    {
        bytes[p.inPort] += p.bytes;
    }
    return bytes;
}

void
RdmaSwitch::Drop(Ptr<const Packet> frame, uint32_t inPort, DropReason reason)
{
    ++m_stats.drops[reason];
    m_dropTrace(frame, inPort, reason);
}

void
RdmaSwitch::Receive(uint32_t inPort, Ptr<QbbNetDevice> /* device */, Ptr<Packet> frame)
{
    ++m_stats.rxFrames;
    RdmaFrameView view;
    if (!view.Parse(frame))
    {
        Drop(frame, inPort, DROP_NOT_IP);
        return;
    }
    const RdmaRouteTable::Group* group =
        view.IsIpv6() ? m_routes.Lookup(view.GetDstIpv6()) : m_routes.Lookup(view.GetDstIpv4());
    if (!group)
    {
        Drop(frame, inPort, DROP_NO_ROUTE);
        return;
    }
    const uint32_t out = group->size() == 1
                             ? (*group)[0]
                             : RdmaRouteTable::Select(*group, view.FlowHash(m_ecmpSeed));
    Port& egress = m_ports[out];
    const uint8_t cls = egress.device->ClassifyHead(view.GetHead(), view.GetHeadLength());
    if (m_watchdog->IsStormed(out, cls) && m_watchdog->GetAction() == RdmaPfcWatchdog::DROP)
    {
        Drop(frame, inPort, DROP_PFC_STORM);
        return;
    }
    const uint32_t bytes = frame->GetSize();
    const SwitchMmu::Admission admission = m_mmu->Admit(inPort, cls, bytes);
    if (admission != SwitchMmu::ADMIT)
    {
        // The MMU's refusals map in order onto DROP_INGRESS_LIMIT..DROP_HEADROOM_FULL.
        Drop(frame,
             inPort,
             DropReason(DROP_INGRESS_LIMIT + (admission - SwitchMmu::DROP_INGRESS_LIMIT)));
        return;
    }
    if (m_mmu->ShouldPause(inPort, cls))
    {
        m_mmu->SetPaused(inPort, cls, true);
        ++m_stats.pfcXoff;
        m_xoffTrace(inPort,
                    cls,
                    m_mmu->GetIngressBytes(inPort, cls),
                    m_mmu->GetSharedBytes(inPort, cls),
                    m_mmu->GetXoffThreshold());
        m_ports[inPort].device->SetPfcHold(cls, true);
    }
    const uint8_t ecn = view.GetEcn();
    if (m_ecnEnabled && (ecn == 1 || ecn == 2))
    {
        const uint64_t queued = egress.device->GetTxQueueBytes(cls);
        const double p = egress.ecn[cls].MarkProbability(queued);
        if (p > 0 && (p >= 1 || m_ecnRng->GetValue() < p))
        {
            RdmaFrameEditor::MarkCe(frame, view);
            ++m_stats.ecnMarked;
            m_ecnMarkTrace(out, cls, queued);
        }
    }
    uint32_t intOffset = 0; // where the IntHeader is, if one is stamped at dequeue
    if (m_intEnabled && IsIntFrame(view))
    {
        if (m_intAtDequeue)
        {
            intOffset = view.GetL4Offset() + 8; // after the UDP header
        }
        else if (RdmaFrameEditor::StampInt(frame, view, IntRecord(egress)))
        {
            ++m_stats.intStamped;
        }
    }
    // The record goes in first: an idle port starts the frame (and calls
    // EgressDequeue, which pops it) inside SendFrame().
    egress.pending[cls].push_back(Pending{inPort, bytes, intOffset});
    if (!egress.device->SendFrame(frame, cls))
    {
        egress.pending[cls].pop_back();
        ReleaseBuffer(inPort, cls, bytes);
        Drop(frame, inPort, DROP_EGRESS_REFUSED);
        return;
    }
    ++m_stats.txFrames;
}

void
RdmaSwitch::ReleaseBuffer(uint32_t inPort, uint8_t cls, uint32_t bytes)
{
    m_mmu->Release(inPort, cls, bytes);
    if (m_mmu->ShouldResume(inPort, cls))
    {
        m_mmu->SetPaused(inPort, cls, false);
        ++m_stats.pfcXon;
        m_xonTrace(inPort,
                   cls,
                   m_mmu->GetIngressBytes(inPort, cls),
                   m_mmu->GetSharedBytes(inPort, cls),
                   m_mmu->GetXoffThreshold());
        m_ports[inPort].device->SetPfcHold(cls, false);
    }
}

void
RdmaSwitch::FlushStormed(uint32_t port, uint8_t cls)
{
    Port& p = m_ports[port];
    uint32_t n = p.device->FlushClass(cls);
    NS_ASSERT_MSG(n == p.pending[cls].size(),
                  "RdmaSwitch: flushed " << n << " frames, " << p.pending[cls].size()
                                         << " accounted");
    (void)n;
    while (!p.pending[cls].empty())
    {
        const Pending rec = p.pending[cls].front();
        p.pending[cls].pop_front();
        ++m_stats.drops[DROP_PFC_STORM];
        ReleaseBuffer(rec.inPort, cls, rec.bytes);
    }
}

} // namespace ns3
