/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-net-device.h"

#include "qbb-channel.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/int-header.h"
#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <istream>
#include <limits>
#include <ostream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbNetDevice");

NS_OBJECT_ENSURE_REGISTERED(QbbNetDevice);

namespace
{
/// Smallest Ethernet payload (IEEE 802.3); Send() pads shorter payloads.
constexpr uint16_t g_minPayloadBytes = RdmaWire::MIN_PAYLOAD_BYTES;
} // namespace

TypeId
QbbNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QbbNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Rdma")
            .AddConstructor<QbbNetDevice>()
            .AddAttribute("Mtu",
                          "Largest Ethernet payload, bytes (the frame adds a 14-byte header and "
                          "SendFrame() allows a 4-byte 802.1Q tag on top).",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&QbbNetDevice::SetMtu, &QbbNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(g_minPayloadBytes))
            .AddAttribute(
                "DataRate",
                "Line rate, bits per second. A frame of B bytes (no FCS) occupies "
                "the wire for (max(B, 60) + 24) * 8 / DataRate.",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&QbbNetDevice::SetDataRate, &QbbNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute(
                "WireOverhead",
                "Bytes each frame occupies on the wire beyond its header and payload: FCS 4, "
                "preamble and SFD 8, minimum inter-packet gap 12 (IEEE 802.3 clauses 3.1.1, "
                "4.4.2), 24 in all. 0 puts only the frame's own bytes on the wire, as the HPCC "
                "simulator's QbbNetDevice does (its TransmitStart times a packet by its size): "
                "for runs compared with it, not a physical Ethernet. PFC headroom "
                "(PfcHeader::ComputeHeadroom) keeps the 24 bytes: a larger, safe headroom.",
                UintegerValue(WIRE_OVERHEAD_BYTES),
                MakeUintegerAccessor(&QbbNetDevice::SetWireOverhead,
                                     &QbbNetDevice::GetWireOverhead),
                MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("TxQueue",
                          "The egress queue: class FIFOs, the class scheduler and, on a switch "
                          "port, the buffer admission, ECN and INT policies (QbbEgressQueue; "
                          "its MaxBytes, Scheduler and DwrrQuanta attributes).",
                          PointerValue(),
                          MakePointerAccessor(&QbbNetDevice::SetTxQueue,
                                              &QbbNetDevice::GetTxQueue),
                          MakePointerChecker<QbbEgressQueue>())
            .AddAttribute("PfcController",
                          "The port's priority flow control (QbbPfcController; its RxEnable, "
                          "PauseQuanta and RefreshMargin attributes).",
                          PointerValue(),
                          MakePointerAccessor(&QbbNetDevice::SetPfcController,
                                              &QbbNetDevice::GetPfcController),
                          MakePointerChecker<QbbPfcController>())
            .AddAttribute("DscpToClass",
                          "Traffic class (0-7) of each DSCP of an untagged IPv4 or IPv6 frame: "
                          "64 numbers, DSCP 0 first. Default: the class selector, DSCP >> 3 "
                          "(RFC 2474). Tagged frames go to their PCP, other frames to class 7.",
                          QbbDscpClassMapValue(QbbDscpClassMap()),
                          MakeQbbDscpClassMapAccessor(&QbbNetDevice::m_dscpMap),
                          MakeQbbDscpClassMapChecker())
            .AddAttribute("ReceiveErrorModel",
                          "Error model applied to every received frame; a frame it declares "
                          "corrupt gets one bit flipped (see CorruptTailBytes).",
                          PointerValue(),
                          MakePointerAccessor(&QbbNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddAttribute("CorruptTailBytes",
                          "Span, bytes counted back from the end of the frame, in which the "
                          "bit flipped in a corrupted frame lies (drawn uniformly from the "
                          "device's random stream; never inside the 14-byte Ethernet header "
                          "unless the frame is nothing else). The default 4 is the ICRC of a "
                          "RoCEv2 frame, so an ICRC check always detects the damage; larger "
                          "spans reach the payload and, in short frames, header fields the "
                          "ICRC masks (IP TTL/DSCP/ECN/checksum, UDP checksum, BTH resv8a).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&QbbNetDevice::m_corruptTailBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("MacTx",
                            "A frame was accepted for transmission (by Send, SendFrom or "
                            "SendFrame), before it is queued or dropped by the queue.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A received frame was passed up: to the frame callback, or on the "
                            "standard path a frame for this host, broadcast or multicast.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "The first bit of a frame was put on the wire.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "The last bit of a frame was put on the wire (wire time, overhead "
                            "included, after PhyTxBegin).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "The last bit of a frame arrived and the frame is passed to the "
                            "MAC (a corrupted copy on the frame-callback path).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was corrupt and dropped (standard path).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Drop",
                            "A frame was dropped by the device, with the reason (link down, "
                            "corrupt, bad size; the queue's drops are its own Drop trace).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_dropTrace),
                            "ns3::QbbNetDevice::DropTracedCallback");
    return tid;
}

QbbNetDevice::QbbNetDevice()
    : m_tx(m_stats, m_phyTxEndTrace),
      m_mtu(9000),
      m_corruptTailBytes(4)
{
    NS_LOG_FUNCTION(this);
    SetTxQueue(CreateObject<QbbEgressQueue>());
    SetPfcController(CreateObject<QbbPfcController>());
    // One event object serves every transmission (adopt MakeEvent's reference).
    m_tx.SetCompletionEvent(
        Ptr<EventImpl>(MakeEvent(&QbbNetDevice::TransmitComplete, this), false));
}

QbbNetDevice::~QbbNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
QbbNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_tx.Dispose();
    m_queue->Dispose();
    m_queue = nullptr;
    m_pfc->Dispose();
    m_pfc = nullptr;
    m_node = nullptr;
    m_channel = nullptr;
    m_receiveErrorModel = nullptr;
    m_corruptRng.Dispose();
    m_txReadyCallback.Nullify();
    m_frameRxCallback.Nullify();
    m_rxCallback.Nullify();
    m_promiscRxCallback.Nullify();
    NetDevice::DoDispose();
}

bool
QbbNetDevice::Attach(Ptr<QbbChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    if (!channel->Attach(this))
    {
        return false;
    }
    m_channel = channel;
    m_linkChangeCallbacks();
    return true;
}

void
QbbNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "QbbNetDevice: DataRate must be above 0 bit/s");
    m_tx.SetDataRate(rate);
    m_pfc->SetDataRate(rate);
}

void
QbbNetDevice::SetWireOverhead(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    m_tx.SetWireOverhead(bytes);
}

uint32_t
QbbNetDevice::GetWireOverhead() const
{
    return m_tx.GetWireOverhead();
}

DataRate
QbbNetDevice::GetDataRate() const
{
    return m_tx.GetDataRate();
}

Time
QbbNetDevice::GetWireTime(uint32_t frameBytes) const
{
    return m_tx.GetWireTime(frameBytes);
}

void
QbbNetDevice::SetTxQueue(Ptr<QbbEgressQueue> queue)
{
    NS_ABORT_MSG_IF(!queue, "QbbNetDevice: TxQueue cannot be null");
    NS_ABORT_MSG_IF(m_queue && !m_queue->IsEmpty(),
                    "QbbNetDevice: TxQueue replaced while it holds frames");
    m_queue = queue;
    m_queue->SetIntRecordCallback([this](uint64_t qlen) { return IntRecord(qlen); },
                                  [this]() { return IntEgressId(); });
}

uint64_t
QbbNetDevice::IntRecord(uint64_t queueBytes) const
{
    // GetStats settles a frame whose end has passed, so its bytes count as sent.
    return IntHeader::EncodeHop(GetDataRate(), Simulator::Now(), GetStats().txBytes, queueBytes);
}

uint64_t
QbbNetDevice::IntEgressId() const
{
    Ptr<Node> node = GetNode();
    return node ? (static_cast<uint64_t>(node->GetId()) + 1) << 32 | GetIfIndex() : 0;
}

Ptr<QbbEgressQueue>
QbbNetDevice::GetTxQueue() const
{
    return m_queue;
}

void
QbbNetDevice::SetPfcController(Ptr<QbbPfcController> pfc)
{
    NS_ABORT_MSG_IF(!pfc, "QbbNetDevice: PfcController cannot be null");
    m_pfc = pfc;
    m_pfc->SetDataRate(m_tx.GetDataRate());
    m_pfc->SetTransmitCallback([this]() { Kick(); });
}

Ptr<QbbPfcController>
QbbNetDevice::GetPfcController() const
{
    return m_pfc;
}

bool
QbbNetDevice::Accept(const Ptr<RdmaFrame>& frame)
{
    // Per-frame path: no NS_LOG_FUNCTION here or below (see the class notes).
    const uint32_t size = frame->GetSize();
    if (size < ETHERNET_HEADER_BYTES ||
        size > uint32_t{m_mtu} + ETHERNET_HEADER_BYTES + VLAN_TAG_BYTES)
    {
        NS_LOG_LOGIC("frame of " << size << " bytes does not fit Mtu " << m_mtu);
        Drop(*frame, DROP_BAD_SIZE);
        return false;
    }
    if (!m_channel)
    {
        NS_LOG_WARN("QbbNetDevice " << this << " has no channel; frame not sent");
        return false;
    }
    FireFrameTrace(m_macTxTrace, *frame);
    return true;
}

bool
QbbNetDevice::SendFrame(Ptr<Packet> frame)
{
    return SendFrame(RdmaFrame::Wrap(frame));
}

bool
QbbNetDevice::SendFrame(Ptr<RdmaFrame> frame)
{
    if (!Accept(frame))
    {
        return false;
    }
    if (!m_tx.Settle() && m_pfc->GetPausedMask() == 0 && m_queue->CanBypass())
    {
        // Idle transmitter, no class paused and nothing to account: straight
        // to the wire without classifying.
        TransmitStart(frame);
        return true;
    }
    QbbQueueItem item;
    item.frame = frame;
    item.cls = m_dscpMap.Classify(*frame);
    return Queue(std::move(item));
}

bool
QbbNetDevice::Enqueue(QbbQueueItem item)
{
    if (!Accept(item.frame))
    {
        return false;
    }
    return Queue(std::move(item));
}

bool
QbbNetDevice::Queue(QbbQueueItem&& item)
{
    if (m_queue->CanBypass() && !m_tx.Settle() && !(m_pfc->GetPausedMask() & (1U << item.cls)))
    {
        // Idle: whatever waits belongs to paused classes.
        TransmitStart(item.frame);
        return true;
    }
    if (!m_queue->Enqueue(std::move(item)))
    {
        return false;
    }
    StartNextFrame();
    return true;
}

bool
QbbNetDevice::StartNextFrame()
{
    if (m_tx.Settle())
    {
        m_tx.NeedCompletion(); // it starts the next frame when this one ends
        return false;
    }
    if (!m_channel || m_dequeuing)
    {
        // No wire; or a queue policy called back while the queue chooses
        // (an XON it sends through this port): the frame it chooses goes
        // first, the PFC frame right after (TransmitStart sees it pending).
        return false;
    }
    if (m_pfc->HasPendingFrame())
    {
        TransmitStart(RdmaFrame::Wrap(m_pfc->BuildFrame(m_address)));
        return true;
    }
    QbbQueueItem item;
    m_dequeuing = true;
    const bool found = m_queue->Dequeue(m_pfc->GetPausedMask(), item);
    m_dequeuing = false;
    if (!found)
    {
        return false;
    }
    TransmitStart(item.frame);
    return true;
}

void
QbbNetDevice::Kick()
{
    StartNextFrame();
}

void
QbbNetDevice::TransmitStart(Ptr<RdmaFrame> frame)
{
    const Time wireTime = m_tx.Start(frame);
    FireFrameTrace(m_phyTxBeginTrace, *frame); // may queue a PFC frame here (NeedCompletion)
    if ((!m_queue->IsEmpty() || m_pfc->HasPendingFrame() || !m_txReadyCallback.IsNull() ||
         !m_phyTxEndTrace.IsEmpty()) &&
        !m_tx.IsCompletionPending())
    {
        m_tx.ScheduleCompletion(wireTime);
    }
    if (!m_channel->TransmitStart(frame, this, wireTime))
    {
        // The transmitter serializes the frame anyway; it is lost on the wire.
        Drop(*frame, DROP_LINK_DOWN);
    }
}

void
QbbNetDevice::TransmitComplete()
{
    m_tx.Complete();
    if (!StartNextFrame() && m_queue->IsEmpty() && !m_txReadyCallback.IsNull())
    {
        m_txReadyCallback();
    }
}

void
QbbNetDevice::Drop(const RdmaFrame& frame, RdmaDropReason reason)
{
    NS_LOG_LOGIC("drop " << RdmaDropReasonName(reason) << " " << frame.GetSize() << " bytes");
    ++m_stats.drops[reason];
    FireFrameTrace(m_dropTrace, frame, reason);
}

void
QbbNetDevice::SetTxReadyCallback(Callback<void> callback)
{
    m_txReadyCallback = callback;
}

bool
QbbNetDevice::IsTxIdle() const
{
    return !m_tx.Settle() && m_queue->IsEmpty();
}

const QbbDscpClassMap&
QbbNetDevice::GetClassMap() const
{
    return m_dscpMap;
}

QbbDscpClassMap&
QbbNetDevice::GetClassMap()
{
    return m_dscpMap;
}

const QbbNetDevice::Stats&
QbbNetDevice::GetStats() const
{
    m_tx.Settle();
    return m_stats;
}

int64_t
QbbNetDevice::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_corruptRng.Assign(stream);
    return 1;
}

Ptr<QbbChannel>
QbbNetDevice::GetQbbChannel() const
{
    return m_channel;
}

} // namespace ns3
