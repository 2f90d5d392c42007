/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaNic: the verbs calls, transmit and receive. The hardware path (the
// pipeline's callbacks, the receive buffer) is in rdma-nic-hardware.cc.

#include "rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-int-codec.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-page-size.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{

/**
 * RdmaNic::OnFrameReceived's parse of a received frame into `f`: with
 * `intEnabled`, an INT header after UDP is read into `intHeader` and skipped
 * (`hasInt` says whether there was one); with `verifyIcrc`, the ICRC is checked
 * over the frame as sent, without the INT header.
 * \return the parse's outcome
 */
RoceFrame::ParseStatus
ParseReceived(const RdmaFrame& frame,
              bool intEnabled,
              bool verifyIcrc,
              RoceFrame& f,
              IntHeader& intHeader,
              bool& hasInt)
{
    if (intEnabled && !verifyIcrc)
    {
        // The INT header is read and skipped in a copy of the head.
        return RoceFrame::ParseEthernetFrameWithInt(frame, f, intHeader, hasInt);
    }
    if (intEnabled)
    {
        // The ICRC covers the frame as sent, without the INT header.
        Ptr<Packet> packet = frame.ToPacket();
        hasInt = RdmaIntCodec::Strip(packet, intHeader);
        return RoceFrame::ParseEthernetFrame(packet, f, verifyIcrc);
    }
    return RoceFrame::ParseEthernetFrame(frame, f, verifyIcrc);
}

/// \return the drop reason of a frame whose parse gave `st` (not OK)
RdmaDropReason
ParseDropReason(RoceFrame::ParseStatus st)
{
    switch (st)
    {
    case RoceFrame::BAD_ICRC:
        return DROP_BAD_ICRC;
    case RoceFrame::NOT_ROCE:
        return DROP_NOT_ROCE;
    case RoceFrame::UNKNOWN_OPCODE:
        return DROP_UNKNOWN_OPCODE;
    default:
        return DROP_MALFORMED;
    }
}

} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNic>()
            .AddAttribute("DataMode",
                          "Memory regions registered from now on hold real bytes, so every "
                          "byte a WRITE, READ, SEND or atomic places can be checked (slower).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_dataMode),
                          MakeBooleanChecker())
            .AddAttribute("VerifyIcrc",
                          "Check the ICRC of every received frame and drop mismatches "
                          "(IBA A17.3.3).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_verifyIcrc),
                          MakeBooleanChecker())
            .AddAttribute("ComputeIcrc",
                          "Compute the ICRC of every frame sent (IBA A17.3.3); false sends an "
                          "ICRC of 0, as ns-3's ChecksumEnabled spares IP checksums, for runs "
                          "where no receiver verifies it and no capture reads it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_computeIcrc),
                          MakeBooleanChecker())
            .AddAttribute("Ecn",
                          "ECN codepoint of sent packets: 2 = ECT(0), as RoCE NICs send "
                          "(ConnectX capture, TOS 0xc2); 1 = ECT(1); 0 = Not-ECT; 3 = CE "
                          "(every packet arrives marked, for tests of the notification point).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RdmaNic::m_ecn),
                          MakeUintegerChecker<uint8_t>(0, 3))
            .AddAttribute("Pipeline",
                          "The NIC's clocked hardware pipeline (RdmaNicPipeline: stages, "
                          "PCIe, QPC/MPT/MTT caches). Null (the default): no pipeline, "
                          "packets cost no NIC time.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNic::SetPipeline, &RdmaNic::GetPipeline),
                          MakePointerChecker<RdmaNicPipeline>())
            .AddAttribute("RxBuffer",
                          "The port's receive buffer and its PFC decisions (in the path with a "
                          "Pipeline only).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNic::m_rxBuffer),
                          MakePointerChecker<RdmaNicRxBuffer>())
            .AddAttribute("TxScheduler",
                          "The transmit scheduler across QPs (arbitration and pacing).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNic::m_scheduler),
                          MakePointerChecker<RdmaTxScheduler>())
            .AddAttribute("CnpGenerator",
                          "Notification point prototype, forked for every QP created later "
                          "(its MinTimeBetweenCnps: at most one CNP per QP per interval).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNic::m_cnpPrototype),
                          MakePointerChecker<RdmaCnpGenerator>())
            .AddAttribute("CnpPriority",
                          "Traffic class (0-7) of the CNPs this NIC sends: the CNP's DSCP is "
                          "CnpPriority x 8. Default 6: NVIDIA firmware CNP_802P_PRIO=6, "
                          "CNP_DSCP=48 (NVIDIA's DCQCN parameter table, notification point).",
                          UintegerValue(6),
                          MakeUintegerAccessor(&RdmaNic::m_cnpPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("AckPriority",
                          "Traffic class (0-7) of the ACKs and NAKs this NIC's responders "
                          "send (DSCP AckPriority x 8), so that switches and NICs serve them "
                          "in that class (above data under strict priority, never paused by "
                          "the data class's PFC); -1 (default): the QP's own class, as RoCE "
                          "NICs send them. ConWeave's simulator sends and switches every "
                          "ACK and NACK ahead of data (its queue 0).",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&RdmaNic::m_ackPriority),
                          MakeIntegerChecker<int8_t>(-1, 7))
            .AddAttribute("TrimmedDscp",
                          "DSCP of frames that a switch trimmed to their headers (QbbTrimmer's "
                          "Dscp): a request that arrives with it is lost, and its responder "
                          "NAKs its PSN at once (AethHeader::NAK_TRIMMED); -1 (default): none.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&RdmaNic::m_trimmedDscp),
                          MakeIntegerChecker<int8_t>(-1, 63))
            .AddAttribute("IntEnabled",
                          "Carry in-band telemetry for HPCC: request packets go to UDP port "
                          "4792 with an empty IntHeader that switches with IntEnabled stamp; "
                          "the receiver strips it and echoes the records in its next ACK "
                          "(RdmaIntCodec). Off by default: plain RoCEv2 frames.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_intEnabled),
                          MakeBooleanChecker())
            .AddAttribute("BaseRtt",
                          "RTT of the empty path given to each QP's congestion control (T of "
                          "HPCC, the base of Swift's and TIMELY's delay rules), for QPs created "
                          "later; set it from the topology. Default 10 us, RdmaCcState's "
                          "default.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RdmaNic::m_baseRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Entropy",
                          "How the RoCEv2 UDP source port, the path entropy ECMP switches "
                          "hash (IBA Vol. 1 Annex A17.4.5.1), is chosen for a QP's frames: "
                          "qp (the default: one port per QP, Linux's rdma_calc_flow_label), "
                          "packet (a new random port per frame: oblivious spraying, UEC 1.0), "
                          "flowlet (a new random port after FlowletTimeout without a "
                          "frame: LetFlow, NSDI 2017) or reps (REPS, arXiv:2407.21625: reuse "
                          "the ports of requests ACKed without ECN echo, else a new random "
                          "one) or mixed (htsim_uec's default, uet-htsim's UecMpMixed: "
                          "reps's recycled ports, else the next of EntropyPaths ports not "
                          "penalized by ECN echoes or trimmed packets' NAKs). Ports are drawn from the NIC's own random stream "
                          "(AssignStreams).",
                          EnumValue(RdmaNic::ENTROPY_QP),
                          MakeEnumAccessor(&RdmaNic::SetEntropy, &RdmaNic::GetEntropy),
                          MakeEnumChecker(RdmaNic::ENTROPY_QP,
                                          "qp",
                                          RdmaNic::ENTROPY_PACKET,
                                          "packet",
                                          RdmaNic::ENTROPY_FLOWLET,
                                          "flowlet",
                                          RdmaNic::ENTROPY_REPS,
                                          "reps",
                                          RdmaNic::ENTROPY_MIXED,
                                          "mixed"))
            .AddAttribute("EntropyPaths",
                          "Entropy = mixed: the entropies (UDP source ports) each QP walks "
                          "when it has none recycled, skipping those penalized by ECN echoes "
                          "and trimmed packets' NAKs (uet-htsim's UecMpBitmap; its -paths, "
                          "128 in UEC's validation plan), 1-16384.",
                          UintegerValue(128),
                          MakeUintegerAccessor(&RdmaNic::m_entropyPaths),
                          MakeUintegerChecker<uint32_t>(1, 16384))
            .AddAttribute("RepsBufferSize",
                          "Entropy = reps: entries of each QP's buffer of recycled ports, "
                          "entries (8, the buffer of REPS's evaluation, arXiv:2407.21625).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RdmaNic::m_repsBufferSize),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("FlowletTimeout",
                          "Entropy = flowlet: a QP that has sent nothing for this long starts "
                          "a new flowlet on a new random port. A move reorders nothing when "
                          "the gap exceeds the paths' delay difference (LetFlow, Vanini et "
                          "al., NSDI 2017, section 3). Default 100 us, illustrative: sweep "
                          "it. Must be positive.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaNic::m_flowletTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddTraceSource("RxDrop",
                            "A received frame was dropped: the frame and the reason.",
                            MakeTraceSourceAccessor(&RdmaNic::m_rxDrop),
                            "ns3::RdmaNic::DropTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_dataMode(false),
      m_verifyIcrc(true),
      m_computeIcrc(true),
      m_ecn(2),
      m_nextPd(1),
      m_ids(Create<RdmaNicIds>(Ipv4Address(), UINT32_MAX)),
      m_ipId(0),
      m_scheduler(CreateObject<RdmaTxScheduler>()),
      m_cnpPrototype(CreateObject<RdmaCnpGenerator>()),
      m_rccc(CreateObject<RdmaRcccPacer>()),
      m_baseRtt(MicroSeconds(10)),
      m_cnpPriority(6),
      m_ackPriority(-1),
      m_trimmedDscp(-1),
      m_intEnabled(false),
      m_entropy(ENTROPY_QP),
      m_flowletTimeout(MicroSeconds(100)),
      m_repsBufferSize(8),
      m_entropyPaths(128),
      m_entropyParams{m_flowletTimeout, m_repsBufferSize, m_entropyPaths}
{
    SetEntropy(ENTROPY_QP);
    m_qpFactory.SetTypeId(RdmaQueuePair::GetTypeId());
    m_ccFactory.SetTypeId(RdmaNoCc::GetTypeId());
    m_rxBuffer = CreateObject<RdmaNicRxBuffer>();
    m_scheduler->SetTxReadyCallback(MakeCallback(&RdmaNic::TrySend, this));
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    m_qps.ForEach([](uint32_t, QpEntry& e) { e.qp->Dispose(); });
    m_qps.ForEach([](uint32_t, QpEntry& e) { e.cc->Dispose(); });
    m_cnpQueue.clear();
    if (m_rccc)
    {
        m_rccc->Dispose();
        m_rccc = nullptr;
    }
    if (m_scheduler)
    {
        m_scheduler->Dispose();
    }
    m_scheduler = nullptr;
    m_ccPrototype = nullptr;
    m_cnpPrototype = nullptr;
    m_qps.Clear();
    m_mrs.clear();
    if (m_entropyPolicy)
    {
        m_entropyPolicy->Dispose();
    }
    m_entropyPolicy = nullptr;
    m_ports.Clear();
    m_waiting.clear();
    m_txFrames.clear();
    m_txPorts.clear();
    m_rxBuffer = nullptr;
    if (m_pipeline)
    {
        m_pipeline->Dispose();
    }
    m_pipeline = nullptr;
    Object::DoDispose();
}

void
RdmaNic::Attach(Ptr<QbbNetDevice> device, Ipv4Address address)
{
    NS_ABORT_MSG_IF(m_ports.GetN() > 0, "RdmaNic::Attach: attached already");
    m_address = address;
    m_ids->Place(address, device->GetNode() ? device->GetNode()->GetId() : UINT32_MAX);
    AttachPlane(device);
}

void
RdmaNic::AttachPlane(Ptr<QbbNetDevice> device)
{
    NS_ABORT_MSG_IF(!m_qps.Empty(), "RdmaNic::AttachPlane: QPs exist already");
    const uint32_t port = m_ports.GetN();
    m_ports.Add(device);
    m_waiting.resize(m_ports.GetN() + 1); // the last: QPs that may take any port
    device->SetTxReadyCallback(MakeCallback(&RdmaNic::OnDeviceTxReady, this).Bind(port));
    device->SetFrameHandler(
        [this](Ptr<QbbNetDevice> dev, Ptr<RdmaFrame> frame) { OnFrameReceived(std::move(dev), std::move(frame)); });
}

const RdmaNicPorts&
RdmaNic::GetPorts() const
{
    return m_ports;
}

void
RdmaNic::SetPlaneReachability(RdmaNicPorts::ReachFunction f)
{
    m_ports.SetReachability(std::move(f));
}

void
RdmaNic::InvalidatePlanes()
{
    m_ports.Invalidate();
    TrySend();
}

Ipv4Address
RdmaNic::GetAddress() const
{
    return m_address;
}

Ptr<RdmaNicIds>
RdmaNic::GetIds() const
{
    return m_ids;
}

Ptr<QbbNetDevice>
RdmaNic::GetDevice() const
{
    return m_ports.GetN() > 0 ? m_ports.Get(0) : nullptr;
}

const RdmaNic::Stats&
RdmaNic::GetStats() const
{
    return m_stats;
}

Ptr<RdmaProtectionDomain>
RdmaNic::AllocPd()
{
    return CreateObject<RdmaProtectionDomain>(m_nextPd++);
}

Ptr<RdmaMemoryRegion>
RdmaNic::RegMr(Ptr<RdmaProtectionDomain> pd,
               uint64_t addr,
               uint64_t length,
               uint32_t access,
               uint64_t pageBytes)
{
    // ibv_reg_mr: remote write and atomic need local write (IBA 10.6.3.1).
    bool remoteWrites = access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
    bool badPage = pageBytes != 0 && !RdmaPageSize::IsValid(pageBytes);
    if (!pd || length == 0 || (remoteWrites && !(access & IBV_ACCESS_LOCAL_WRITE)) ||
        addr + length < addr || badPage)
    {
        return nullptr;
    }
    // Key = index << 8 | a per-NIC variant byte, as ConnectX keys look.
    const uint32_t key = m_ids->TakeKey();
    if (m_pipeline &&
        !m_pipeline->GetTables()->AllocateMr(key, addr, length, pageBytes, pd->GetHandle()))
    {
        NS_LOG_INFO("RegMr: MPT/MTT table full (ENOMEM)");
        return nullptr;
    }
    auto mr = CreateObject<RdmaMemoryRegion>(pd, addr, length, access, key, m_dataMode);
    m_mrs[key] = mr;
    return mr;
}

void
RdmaNic::DeregMr(Ptr<RdmaMemoryRegion> mr)
{
    if (mr && m_mrs.erase(mr->GetLkey()) > 0 && m_pipeline)
    {
        m_pipeline->GetTables()->ReleaseMr(mr->GetLkey(), mr->GetAddr(), mr->GetLength());
    }
}

Ptr<RdmaMemoryRegion>
RdmaNic::LookupMr(uint32_t key) const
{
    auto it = m_mrs.find(key);
    return it == m_mrs.end() ? nullptr : it->second;
}

Ptr<RdmaCompletionQueue>
RdmaNic::CreateCq(uint32_t depth)
{
    auto cq = CreateObject<RdmaCompletionQueue>();
    cq->SetDepth(std::max<uint32_t>(depth, 1));
    cq->TraceConnectWithoutContext("Completion", MakeCallback(&RdmaNic::OnCompletion, this));
    return cq;
}

void
RdmaNic::SetQpAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQp(const RdmaQueuePair::InitAttr& init)
{
    if (!init.pd || !init.sendCq || !init.recvCq)
    {
        return nullptr;
    }
    const uint32_t qpn = m_ids->PeekQpn();
    if (m_pipeline && !m_pipeline->GetTables()->AllocateQp(qpn, init.pd->GetHandle()))
    {
        NS_LOG_INFO("CreateQp: QPC table full (ENOMEM)");
        return nullptr;
    }
    m_ids->TakeQpn();
    Ptr<RdmaQueuePair> qp = m_qpFactory.Create<RdmaQueuePair>();
    qp->Initialize(qpn,
                   init,
                   [this](uint32_t key) { return LookupMr(key); },
                   [this](Ptr<RdmaQueuePair> ready) { OnQpTxReady(ready); });
    if (m_pipeline)
    {
        qp->SetMemoryReadCallback(MakeCallback(&RdmaNicPipeline::NoteRead, m_pipeline));
    }
    QpEntry& entry = m_qps[qpn];
    entry.qp = qp;
    if (!m_ccPrototype)
    {
        m_ccPrototype = m_ccFactory.Create<RdmaCongestionOps>();
    }
    auto cc = CreateObject<RdmaQpCc>();
    cc->Setup(m_ccPrototype->Fork(),
              m_cnpPrototype->Fork(),
              m_ports.GetN() > 0 ? m_ports.GetRate() : DataRate(100'000'000'000ULL),
              m_baseRtt);
    qp->TraceConnectWithoutContext("Timeout", MakeCallback(&RdmaQpCc::OnTimeout, cc));
    qp->TraceConnectWithoutContext("Lost", MakeCallback(&RdmaQpCc::OnLost, cc));
    cc->SetResponderCoalesces(qp->GetLossRecovery()->GetAckBytes() > 0);
    if (m_rccc->IsEnabled())
    {
        if (!m_rccc->IsSetUp())
        {
            m_rccc->SetBaseRtt(m_baseRtt);
            m_rccc->Setup(m_ports.GetN() > 0 ? m_ports.GetRate() : DataRate(100'000'000'000ULL),
                          GetRcccMaxCredit(),
                          MakeCallback(&RdmaNic::SendCredit, this));
        }
        cc->EnableRccc(GetRcccMaxCredit());
    }
    entry.cc = cc;
    m_scheduler->AddQp(qp, cc->GetState());
    return qp;
}

void
RdmaNic::SetCongestionControl(const ObjectFactory& factory)
{
    NS_ABORT_MSG_UNLESS(factory.GetTypeId().IsChildOf(RdmaCongestionOps::GetTypeId()),
                        "RdmaNic::SetCongestionControl: " << factory.GetTypeId().GetName()
                                                          << " is not an RdmaCongestionOps");
    m_ccFactory = factory;
    m_ccPrototype = nullptr;
}

Ptr<RdmaTxScheduler>
RdmaNic::GetTxScheduler() const
{
    return m_scheduler;
}

Ptr<RdmaQpCc>
RdmaNic::GetQpCc(uint32_t qpn) const
{
    const QpEntry* e = m_qps.Find(qpn);
    return e ? e->cc : nullptr;
}

void
RdmaNic::DestroyQp(Ptr<RdmaQueuePair> qp)
{
    const QpEntry* entry = qp ? m_qps.Find(qp->GetQpn()) : nullptr;
    if (entry)
    {
        const Ptr<RdmaQpCc> cc = entry->cc;
        m_rcccActive -= entry->rcccActive ? 1 : 0;
        Simulator::Cancel(entry->rcccRetry);
        if (m_rccc)
        {
            m_rccc->RemoveQp(qp->GetQpn());
        }
        m_qps.Erase(qp->GetQpn());
        m_destroyedQpStats += qp->GetStats();
        if (m_pipeline)
        {
            m_pipeline->GetTables()->ReleaseQp(qp->GetQpn());
        }
        m_scheduler->RemoveQp(qp->GetQpn());
        if (m_entropyPolicy) // null once the NIC is disposed
        {
            m_entropyPolicy->Forget(qp->GetQpn());
        }
        cc->Dispose();
        qp->Dispose();
    }
}

RdmaQueuePair::Stats
RdmaNic::GetQpStatsTotal() const
{
    RdmaQueuePair::Stats sum = m_destroyedQpStats;
    m_qps.ForEach([&sum](uint32_t, const QpEntry& e) { sum += e.qp->GetStats(); });
    return sum;
}

uint32_t
RdmaNic::GetNQps() const
{
    return static_cast<uint32_t>(m_qps.Size());
}

Ptr<RdmaQueuePair>
RdmaNic::GetQp(uint32_t qpn) const
{
    const QpEntry* e = m_qps.Find(qpn);
    return e ? e->qp : nullptr;
}

void
RdmaNic::OnQpTxReady(Ptr<RdmaQueuePair> qp)
{
    m_scheduler->Notify(qp->GetQpn());
    TrySend();
}

void
RdmaNic::OnDeviceTxReady(uint32_t port)
{
    for (uint32_t list : {port, m_ports.GetN()})
    {
        for (uint32_t qpn : m_waiting[list])
        {
            m_scheduler->Notify(qpn);
        }
        m_waiting[list].clear();
    }
    TrySend();
}

void
RdmaNic::SendReadyFrames()
{
    // Frames ready for a port go first: CNPs, then frames the pipeline
    // retired (in order).
    for (RdmaFifo<PortFrame>* q : {&m_cnpQueue, &m_txFrames})
    {
        while (!q->empty() && m_ports.Get(q->front().second)->IsTxIdle())
        {
            const PortFrame pf = q->front();
            q->pop_front();
            if (q == &m_txFrames)
            {
                m_pipeline->TxLeft();
            }
            SendToPort(pf.first, pf.second);
        }
    }
}

void
RdmaNic::TrySend()
{
    if (m_ports.GetN() == 0)
    {
        return;
    }
    SendReadyFrames();
    while (CanStartTx())
    {
        Ptr<RdmaQueuePair> qp = m_scheduler->Next();
        if (!qp)
        {
            break;
        }
        uint32_t qpn = qp->GetQpn();
        const RdmaQpAttr& attr = qp->Query();
        // A QP whose port is busy waits for it (without a pipeline, a
        // packet is taken only for an idle port).
        const bool pinned = m_entropy == ENTROPY_QP || m_entropy == ENTROPY_FLOWLET;
        const uint32_t hash = pinned ? RdmaNicPorts::QpHash(m_address, qpn, attr.destQpNum) : 0;
        const uint32_t port = m_ports.Choose(pinned, hash, attr.ahAttr.destGid, !m_pipeline);
        if (port == RdmaNicPorts::NONE)
        {
            m_scheduler->Sent(qpn, 0);
            m_waiting[pinned ? m_ports.Choose(true, hash, attr.ahAttr.destGid, false)
                             : m_ports.GetN()]
                .push_back(qpn);
            continue;
        }
        RoceFrame f;
        if (!qp->BuildNextPacket(f))
        {
            m_scheduler->Sent(qpn, 0);
            continue;
        }
        f.srcMac = Mac48Address::ConvertFrom(m_ports.Get(port)->GetAddress());
        f.dstMac = m_ports.GetPeerMac(port);
        f.srcIpv4 = m_address;
        f.dstIpv4 = attr.ahAttr.destGid;
        f.dscp = attr.ahAttr.trafficClass >> 2;
        if (m_ackPriority >= 0 && f.bth.GetOpcode() == RC_ACKNOWLEDGE)
        {
            f.dscp = static_cast<uint8_t>(m_ackPriority << 3);
        }
        f.ecn = m_ecn;
        f.ipId = m_ipId++;
        f.udpSrcPort = m_entropyPolicy->Pick(qpn, attr.destQpNum);
        m_entropyPolicy->Sent(qpn, f);
        Ptr<RdmaQpCc> cc = m_qps.Find(qpn)->cc;
        cc->OnPacketSent(f, qp->GetMtuBytes(), m_intEnabled);
        if (cc->HasRccc() && !RdmaIsResponseOpcode(f.bth.GetOpcode()))
        {
            SpendCredit(qpn, f);
        }
        uint16_t intPort = 0;
        const IntHeader* intHeader = m_intEnabled ? cc->TakeInt(f, intPort) : nullptr;
        f.computeIcrc = m_computeIcrc;
        Ptr<RdmaFrame> frame = intHeader ? f.BuildFrame(*intHeader, intPort) : f.BuildFrame();
        if (intHeader)
        {
            frame->GetIntEgress() = intHeader->GetEgressIds(); // an echo's metadata
        }
        m_scheduler->Sent(qpn, frame->GetSize());
        Transmit(qpn, f, frame, port);
    }
}

int64_t
RdmaNic::AssignStreams(int64_t stream)
{
    return m_entropyPolicy->AssignStreams(stream);
}

void
RdmaNic::SetEntropy(Entropy mode)
{
    if (m_entropyPolicy && mode == m_entropy)
    {
        return;
    }
    ObjectFactory factory;
    switch (mode)
    {
    case ENTROPY_QP:
        factory.SetTypeId(RdmaQpEntropy::GetTypeId());
        break;
    case ENTROPY_PACKET:
        factory.SetTypeId(RdmaPacketEntropy::GetTypeId());
        break;
    case ENTROPY_FLOWLET:
        factory.SetTypeId(RdmaFlowletEntropy::GetTypeId());
        break;
    case ENTROPY_REPS:
        factory.SetTypeId(RdmaRepsEntropy::GetTypeId());
        break;
    case ENTROPY_MIXED:
        factory.SetTypeId(RdmaMixedEntropy::GetTypeId());
        break;
    }
    Ptr<RdmaEntropy> policy = factory.Create<RdmaEntropy>();
    policy->Succeed(m_entropyPolicy, &m_entropyParams);
    if (m_entropyPolicy)
    {
        m_entropyPolicy->Dispose();
    }
    m_entropyPolicy = policy;
    m_entropy = mode;
}

RdmaNic::Entropy
RdmaNic::GetEntropy() const
{
    return m_entropy;
}

bool
RdmaNic::CanStartTx() const
{
    return m_pipeline ? m_pipeline->CanAcceptTx() : m_ports.AnyIdle();
}

void
RdmaNic::Transmit(uint32_t qpn, const RoceFrame& f, Ptr<RdmaFrame> frame, uint32_t port)
{
    if (m_pipeline)
    {
        if (m_ports.GetN() > 1)
        {
            m_txPorts[PeekPointer(frame)] = port;
        }
        m_pipeline->SubmitTx(qpn, f, frame);
    }
    else
    {
        SendToPort(frame, port);
    }
}

void
RdmaNic::SendToPort(Ptr<RdmaFrame> frame, uint32_t port)
{
    ++m_stats.txFrames;
    m_stats.txBytes += frame->GetSize();
    m_ports.CountTx(port, frame->GetSize());
    m_ports.Get(port)->SendFrame(frame);
}

void
RdmaNic::SendCnp(Ptr<RdmaQueuePair> qp, const RoceFrame& data)
{
    const RdmaQpAttr& attr = qp->Query();
    const uint32_t port = m_ports.Choose(false, 0, data.srcIpv4, false);
    RoceFrame f;
    f.srcMac = Mac48Address::ConvertFrom(m_ports.Get(port)->GetAddress());
    f.dstMac = m_ports.GetPeerMac(port);
    f.srcIpv4 = m_address;
    f.dstIpv4 = data.srcIpv4;
    f.dscp = m_cnpPriority << 3;
    // CNPs are sent Not-ECT (RFC 3168 codepoint 00): this model's choice.
    // The ConnectX-4 Lx CNP of test/data/roce-vectors.txt (TV0, TOS 0xc2)
    // carries ECT(0).
    f.ecn = 0;
    f.ipId = m_ipId++;
    f.udpSrcPort = RoceFrame::UdpSourcePort(qp->GetQpn(), attr.destQpNum);
    f.bth.SetOpcode(ROCE_CNP);
    f.bth.SetDestQp(attr.destQpNum); // the QP that sent the marked data
    f.bth.SetBecn(true);
    f.bth.SetPsn(0);
    f.computeIcrc = m_computeIcrc;
    m_cnpQueue.push_back({f.BuildFrame(), port});
    ++m_stats.cnpsSent;
}

void
RdmaNic::SendCredit(uint32_t qpn, uint32_t wirePull)
{
    if (SendRcccFrame(qpn, RCCC_CREDIT, wirePull, 0))
    {
        ++m_stats.rcccCreditsSent;
    }
}

bool
RdmaNic::SendRcccFrame(uint32_t qpn, uint8_t opcode, uint32_t psn, uint16_t reserved)
{
    const QpEntry* entry = m_qps.Find(qpn);
    if (!entry)
    {
        return false;
    }
    const RdmaQpAttr& attr = entry->qp->Query();
    const uint32_t port = m_ports.Choose(false, 0, attr.ahAttr.destGid, false);
    RoceFrame f;
    f.srcMac = Mac48Address::ConvertFrom(m_ports.Get(port)->GetAddress());
    f.dstMac = m_ports.GetPeerMac(port);
    f.srcIpv4 = m_address;
    f.dstIpv4 = attr.ahAttr.destGid;
    // A control frame: in the ACKs' class where they have one, else the CNPs'.
    f.dscp = static_cast<uint8_t>((m_ackPriority >= 0 ? m_ackPriority : m_cnpPriority) << 3);
    f.ecn = 0;
    f.ipId = m_ipId++;
    f.udpSrcPort = RoceFrame::UdpSourcePort(qpn, attr.destQpNum);
    f.bth.SetOpcode(opcode);
    f.bth.SetDestQp(attr.destQpNum); // the QP at the other end
    f.bth.SetPsn(psn);
    f.bth.SetReservedBits(reserved);
    f.computeIcrc = m_computeIcrc;
    m_cnpQueue.push_back({f.BuildFrame(), port});
    TrySend();
    return true;
}

void
RdmaNic::MaybeRequestCredit(uint32_t qpn)
{
    QpEntry* entry = m_qps.Find(qpn);
    if (!entry || !entry->cc->HasRccc())
    {
        return;
    }
    uint16_t target = 0;
    Time retry;
    if (entry->cc->TakeRcccRequest(entry->qp->GetUnsentBytes(),
                                   entry->qp->GetResendBytes(),
                                   std::max<uint32_t>(m_rcccActive, 1),
                                   target,
                                   retry))
    {
        if (SendRcccFrame(qpn, RCCC_REQUEST, 0, target))
        {
            ++m_stats.rcccRequestsSent;
        }
    }
    else if (retry.IsStrictlyPositive() && !entry->rcccRetry.IsRunning())
    {
        // Once, when the spacing allows: asked again then only if still blocked.
        entry->rcccRetry = Simulator::Schedule(retry, &RdmaNic::MaybeRequestCredit, this, qpn);
    }
}

void
RdmaNic::SpendCredit(uint32_t qpn, RoceFrame& f)
{
    QpEntry& entry = *m_qps.Find(qpn);
    const uint64_t unsent = entry.qp->GetUnsentBytes();
    const uint64_t resend = entry.qp->GetResendBytes();
    const bool active = unsent + resend > 0;
    if (active != entry.rcccActive)
    {
        entry.rcccActive = active;
        m_rcccActive += active ? 1 : -1;
    }
    entry.cc->OnRcccSend(f, unsent, resend, std::max<uint32_t>(m_rcccActive, 1));
}

uint64_t
RdmaNic::GetRcccMaxCredit() const
{
    const DataRate rate = m_ports.GetN() > 0 ? m_ports.GetRate() : DataRate(100'000'000'000ULL);
    return static_cast<uint64_t>(1.5 * rate.GetBitRate() * m_baseRtt.GetSeconds() / 8);
}

void
RdmaNic::CountGoneQp(const RoceFrame& f)
{
    ++m_stats.rxDrops[DROP_UNKNOWN_QP];
    // RC SEND and RDMA WRITE opcodes, 0x00-0x0B (IBA Table 38), with data.
    m_stats.rxRequestsToGoneQps +=
        f.bth.GetOpcode() <= RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE && f.payload && f.payload->GetSize() > 0;
}

void
RdmaNic::Drop(const RdmaFrame& frame, RdmaDropReason reason)
{
    ++m_stats.rxDrops[reason];
    FireFrameTrace(m_rxDrop, frame, reason);
}

void
RdmaNic::OnFrameReceived(Ptr<QbbNetDevice> device, Ptr<RdmaFrame> frame)
{
    ++m_stats.rxFrames;
    m_stats.rxBytes += frame->GetSize();
    const uint32_t port = m_ports.Find(PeekPointer(device));
    if (port != RdmaNicPorts::NONE)
    {
        m_ports.CountRx(port, frame->GetSize());
    }
    IntHeader intHeader;
    bool hasInt = false;
    RoceFrame f;
    const RoceFrame::ParseStatus st =
        ParseReceived(*frame, m_intEnabled, m_verifyIcrc, f, intHeader, hasInt);
    if (st != RoceFrame::OK)
    {
        if (st == RoceFrame::BAD_ICRC)
        {
            NS_LOG_INFO("ICRC error: frame dropped");
        }
        Drop(*frame, ParseDropReason(st));
        return;
    }
    if (f.dstIpv4 != m_address)
    {
        Drop(*frame, DROP_NOT_FOR_US);
        return;
    }
    const QpEntry* entry = m_qps.Find(f.bth.GetDestQp());
    if (f.bth.GetOpcode() == RCCC_REQUEST)
    {
        // A sender with something to send and no credit: its need.
        if (entry && entry->cc->HasRccc())
        {
            ++m_stats.rcccRequestsReceived;
            m_rccc->OnRequest(f.bth.GetDestQp(), f.bth.GetReservedBits());
        }
        return;
    }
    if (f.bth.GetOpcode() == RCCC_CREDIT)
    {
        if (!entry)
        {
            // Slow credit for a QP whose transfer is done and gone: no loss.
            ++m_stats.rcccCreditsToGoneQps;
            return;
        }
        ++m_stats.rcccCreditsReceived;
        if (entry->cc->OnRcccCredit(f.bth.GetPsn()))
        {
            m_scheduler->Notify(f.bth.GetDestQp());
            TrySend();
        }
        return;
    }
    if (f.bth.GetOpcode() == ROCE_CNP)
    {
        if (!entry)
        {
            Drop(*frame, DROP_UNKNOWN_QP);
            return;
        }
        ++m_stats.cnpsReceived;
        entry->cc->OnCnp();
        return;
    }
    if (!entry)
    {
        CountGoneQp(f);
        FireFrameTrace(m_rxDrop, *frame, DROP_UNKNOWN_QP);
        return;
    }
    // Copies: what runs below may create QPs (the table may move).
    const Ptr<RdmaQueuePair> qp = entry->qp;
    const Ptr<RdmaQpCc> cc = entry->cc;
    if (m_trimmedDscp >= 0 && f.dscp == m_trimmedDscp)
    {
        // Headers only: nothing to place (the pipeline not involved); to
        // congestion control a congestion signal.
        ++m_stats.rxTrimmed;
        if (cc->HasRccc() && !RdmaIsResponseOpcode(f.bth.GetOpcode()))
        {
            m_rccc->OnTrimmed(qp->GetQpn(), f.bth.GetReservedBits());
            m_rccc->CountArrival(true, f.ecn == 3);
        }
        if (cc->OnTrimmed())
        {
            SendCnp(qp, f);
        }
        qp->ReceiveTrimmed(f);
        TrySend();
        return;
    }
    if (m_pipeline && !AdmitRx(*frame, m_ports.Get(0)->GetClassMap().Get(f.dscp)))
    {
        return;
    }
    if (f.payload && f.payload->GetSize() > 0)
    {
        ++m_stats.rxPayloadPackets;
    }
    if (cc->HasRccc() && !RdmaIsResponseOpcode(f.bth.GetOpcode()))
    {
        m_rccc->OnRequest(qp->GetQpn(), f.bth.GetReservedBits());
        m_rccc->CountArrival(false, f.ecn == 3);
    }
    // Selective repeat's SACK: a sequence NAK to a QP whose responder keeps
    // what arrives out of order.
    const bool sack = f.bth.GetOpcode() == RC_ACKNOWLEDGE &&
                      f.aeth.GetSyndromeType() == AethHeader::NAK &&
                      f.aeth.GetSyndromeValue() == AethHeader::NAK_PSN_SEQUENCE_ERROR &&
                      qp->GetLossRecovery()->ResponderKeepsOutOfOrder();
    if (m_entropyPolicy->SeesResponses())
    {
        m_entropyPolicy->Acked(f, sack);
    }
    RdmaAckInfo ack;
    if (hasInt)
    {
        intHeader.SetEgressIds(frame->GetIntEgress());
    }
    if (cc->OnPacketReceived(f, ack, hasInt ? &intHeader : nullptr, sack))
    {
        SendCnp(qp, f);
    }
    if (m_pipeline)
    {
        m_pipeline->SubmitRx(f, frame->GetSize(), m_rxPlacement.Find(qp, f));
        TrySend(); // a CNP may be queued
        return;
    }
    DeliverToQp(qp, f);
    TrySend();
}

void
RdmaNic::DeliverToQp(Ptr<RdmaQueuePair> qp, const RoceFrame& f)
{
    const uint64_t naks = qp->GetStats().nakSeqSent;
    qp->Receive(f);
    if (m_rccc->IsEnabled() && RdmaIsResponseOpcode(f.bth.GetOpcode()))
    {
        MaybeRequestCredit(qp->GetQpn()); // a loss it learnt of may need credit
    }
    if (qp->GetStats().nakSeqSent == naks)
    {
        return;
    }
    const QpEntry* entry = m_qps.Find(qp->GetQpn());
    if (entry && entry->cc->OnSequenceNakSent())
    {
        SendCnp(qp, f);
    }
}

} // namespace ns3
