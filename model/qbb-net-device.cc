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
#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
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
constexpr uint16_t g_minPayloadBytes = 46;
/// "No cached wire time" marker for m_wireTimeBytes.
constexpr uint32_t g_noCachedSize = std::numeric_limits<uint32_t>::max();
/// EtherType of an 802.1Q-tagged frame.
constexpr uint16_t g_ethertypeVlan = 0x8100;
/// EtherType of IPv4.
constexpr uint16_t g_ethertypeIpv4 = 0x0800;
/// EtherType of IPv6.
constexpr uint16_t g_ethertypeIpv6 = 0x86DD;
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
            .AddAttribute("TxQueueMaxBytes",
                          "Capacity of the transmit queues, bytes of frames waiting in all eight "
                          "classes together (the frame being serialized and PFC frames are not "
                          "counted); a frame that does not fit is dropped (Drop trace, "
                          "QUEUE_FULL).",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&QbbNetDevice::m_txQueueMaxBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Scheduler",
                          "How the transmitter chooses among the classes that have frames and "
                          "are not paused: StrictPriority (highest class first, IEEE 802.1Q "
                          "8.6.8.1) or Dwrr (deficit-weighted round robin with DwrrQuanta, "
                          "counting frame bytes).",
                          EnumValue(QbbNetDevice::STRICT_PRIORITY),
                          MakeEnumAccessor(&QbbNetDevice::m_scheduler),
                          MakeEnumChecker(QbbNetDevice::STRICT_PRIORITY,
                                          "StrictPriority",
                                          QbbNetDevice::DWRR,
                                          "Dwrr"))
            .AddAttribute("DwrrQuanta",
                          "DWRR quantum of each class, bytes: 8 numbers above 0, class 0 first. "
                          "A class's share of the link among backlogged classes is its quantum "
                          "over the sum of theirs.",
                          QbbDwrrQuantaValue(QbbDwrrQuanta()),
                          MakeQbbDwrrQuantaAccessor(&QbbNetDevice::m_dwrrQuanta),
                          MakeQbbDwrrQuantaChecker())
            .AddAttribute("DscpToClass",
                          "Traffic class (0-7) of each DSCP of an untagged IPv4 or IPv6 frame: "
                          "64 numbers, DSCP 0 first. Default: the class selector, DSCP >> 3 "
                          "(RFC 2474). Tagged frames go to their PCP, other frames to class 7.",
                          QbbDscpClassMapValue(QbbDscpClassMap()),
                          MakeQbbDscpClassMapAccessor(&QbbNetDevice::m_dscpMap),
                          MakeQbbDscpClassMapChecker())
            .AddAttribute("PfcRxEnable",
                          "Classes (bit c = class c) whose received PFC or 802.3x pauses this "
                          "port obeys; pauses of other classes are counted and traced but "
                          "change nothing (a class without PFC, or a PFC watchdog ignoring "
                          "pauses).",
                          UintegerValue(0xFF),
                          MakeUintegerAccessor(&QbbNetDevice::m_pfcRxEnable),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcPauseQuanta",
                          "Pause time SetPfcHold sends, quanta of 512 bit times (65535, the "
                          "largest, is 335.5 us at 100 Gb/s).",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&QbbNetDevice::m_pfcHoldQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PfcRefreshMargin",
                          "While a class is held, its pause is sent again this long before the "
                          "previous one expires at the peer (counted from the start of each "
                          "pause frame's transmission). It must exceed the wait behind one "
                          "frame in serialization (9 KB: 0.72 us at 100 Gb/s, 7.2 us at "
                          "10 Gb/s) and be below the PfcPauseQuanta time.",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&QbbNetDevice::m_pfcRefreshMargin),
                          MakeTimeChecker(Time(0)))
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
                            "A frame was dropped, with the reason (queue full, link down, "
                            "corrupt, bad size).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_dropTrace),
                            "ns3::QbbNetDevice::DropTracedCallback")
            .AddTraceSource("PfcPauseTx",
                            "A PFC frame started its transmission: one call per class it "
                            "enables, with the pause time in quanta (0 = XON).",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_pfcPauseTxTrace),
                            "ns3::QbbNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcPauseRx",
                            "A PFC frame (or an 802.3x PAUSE, for all 8 classes) was received: "
                            "one call per class it enables, with the pause time in quanta "
                            "(0 = XON), whether or not PfcRxEnable lets it act.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_pfcPauseRxTrace),
                            "ns3::QbbNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcPauseState",
                            "A class's transmission became paused (true) or free again "
                            "(false: the pause expired or an XON arrived); a pause that "
                            "extends a running one fires nothing.",
                            MakeTraceSourceAccessor(&QbbNetDevice::m_pfcPauseStateTrace),
                            "ns3::QbbNetDevice::PfcPauseStateTracedCallback");
    return tid;
}

const char*
QbbNetDevice::DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case DROP_QUEUE_FULL:
        return "QUEUE_FULL";
    case DROP_LINK_DOWN:
        return "LINK_DOWN";
    case DROP_CORRUPT:
        return "CORRUPT";
    case DROP_BAD_SIZE:
        return "BAD_SIZE";
    case DROP_FLUSHED:
        return "FLUSHED";
    case DROP_REASON_COUNT:
        break;
    }
    return "UNKNOWN";
}

QbbNetDevice::QbbNetDevice()
    : m_mtu(9000),
      m_rate(DataRate("100Gbps")),
      m_txQueueMaxBytes(10000000),
      m_corruptTailBytes(4),
      m_pfcHoldQuanta(0xFFFF),
      m_pfcRefreshMargin(MicroSeconds(20)),
      m_wireTimeBytes{g_noCachedSize, g_noCachedSize}
{
    NS_LOG_FUNCTION(this);
    m_corruptRng = CreateObject<UniformRandomVariable>();
    // One event object serves every transmission (adopt MakeEvent's reference).
    m_txCompleteImpl = Ptr<EventImpl>(MakeEvent(&QbbNetDevice::TransmitComplete, this), false);
}

QbbNetDevice::~QbbNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
QbbNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_txCompleteEvent);
    m_txCompleteImpl = nullptr;
    for (auto& q : m_txQueues)
    {
        q.frames.clear();
        q.bytes = 0;
    }
    m_txQueueBytes = 0;
    m_backlogMask = 0;
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        Simulator::Cancel(m_pause[c].expiry);
        Simulator::Cancel(m_pfcRefresh[c]);
    }
    m_pausedMask = 0;
    m_pfcPendingMask = 0;
    m_pfcHoldMask = 0;
    m_txFrame = nullptr;
    m_node = nullptr;
    m_channel = nullptr;
    m_receiveErrorModel = nullptr;
    m_corruptRng = nullptr;
    m_txReadyCallback.Nullify();
    m_txStartHook.Nullify();
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
    m_rate = rate;
    m_wireTimeBytes = {g_noCachedSize, g_noCachedSize};
}

DataRate
QbbNetDevice::GetDataRate() const
{
    return m_rate;
}

Time
QbbNetDevice::GetWireTime(uint32_t frameBytes) const
{
    // A port mostly sends frames of two sizes (full data packets, and
    // ACKs for flows the other way): keep the last two results instead of
    // a 128-bit division per frame.
    if (frameBytes == m_wireTimeBytes[0])
    {
        return m_wireTime[0];
    }
    if (frameBytes != m_wireTimeBytes[1])
    {
        m_wireTime[1] = m_rate.CalculateBytesTxTime(std::max(frameBytes, MIN_FRAME_BYTES) +
                                                    WIRE_OVERHEAD_BYTES);
        m_wireTimeBytes[1] = frameBytes;
    }
    std::swap(m_wireTimeBytes[0], m_wireTimeBytes[1]); // most recent first
    std::swap(m_wireTime[0], m_wireTime[1]);
    return m_wireTime[0];
}

bool
QbbNetDevice::SendFrame(Ptr<Packet> frame)
{
    return DoSendFrame(frame, NO_CLASS);
}

bool
QbbNetDevice::SendFrame(Ptr<Packet> frame, uint8_t cls)
{
    NS_ASSERT_MSG(cls < NUM_CLASSES, "class " << +cls << " out of range");
    return DoSendFrame(frame, cls);
}

bool
QbbNetDevice::DoSendFrame(Ptr<Packet> frame, uint8_t knownClass)
{
    // Per-frame path: no NS_LOG_FUNCTION here or below (see the class notes).
    const uint32_t size = frame->GetSize();
    if (size < ETHERNET_HEADER_BYTES ||
        size > uint32_t{m_mtu} + ETHERNET_HEADER_BYTES + VLAN_TAG_BYTES)
    {
        NS_LOG_LOGIC("frame of " << size << " bytes does not fit Mtu " << m_mtu);
        Drop(frame, DROP_BAD_SIZE);
        return false;
    }
    if (!m_channel)
    {
        NS_LOG_WARN("QbbNetDevice " << this << " has no channel; frame not sent");
        return false;
    }
    m_macTxTrace(frame);
    const bool busy = SettleTx();
    if (!busy && m_pausedMask == 0)
    {
        // Idle transmitter and no class paused, so nothing waits: straight
        // to the wire without classifying.
        TransmitData(frame, knownClass);
        return true;
    }
    const uint8_t cls = knownClass == NO_CLASS ? Classify(frame) : knownClass;
    const uint8_t bit = 1U << cls;
    if (!busy && !(m_pausedMask & bit))
    {
        // Idle: whatever waits belongs to paused classes.
        TransmitData(frame, cls);
        return true;
    }
    if (m_txQueueBytes + size > m_txQueueMaxBytes)
    {
        NS_LOG_LOGIC("queue full (" << m_txQueueBytes << " bytes)");
        Drop(frame, DROP_QUEUE_FULL);
        return false;
    }
    TxQueue& q = m_txQueues[cls];
    q.frames.push_back(frame);
    q.bytes += size;
    m_txQueueBytes += size;
    m_backlogMask |= bit;
    NeedTxComplete();
    return true;
}

uint8_t
QbbNetDevice::Classify(Ptr<const Packet> frame) const
{
    // Bytes 12-13 EtherType; then the PCP (byte 14) of a tag, or the first
    // two bytes of an IP header (DSCP in byte 15 for IPv4, bytes 14-15 for IPv6).
    uint8_t b[16];
    const uint32_t n = std::min<uint32_t>(frame->GetSize(), sizeof(b));
    if (n < 15)
    {
        return NUM_CLASSES - 1;
    }
    frame->CopyData(b, n);
    return ClassifyHead(b, n);
}

uint8_t
QbbNetDevice::ClassifyHead(const uint8_t* b, uint32_t n) const
{
    if (n < 15)
    {
        return NUM_CLASSES - 1;
    }
    const uint16_t type = static_cast<uint16_t>((b[12] << 8) | b[13]);
    if (type == g_ethertypeVlan)
    {
        return b[14] >> 5;
    }
    if (n < 16)
    {
        return NUM_CLASSES - 1;
    }
    if (type == g_ethertypeIpv4)
    {
        return m_dscpMap.cls[b[15] >> 2];
    }
    if (type == g_ethertypeIpv6)
    {
        return m_dscpMap.cls[((b[14] & 0x0F) << 2) | (b[15] >> 6)];
    }
    return NUM_CLASSES - 1;
}

Ptr<Packet>
QbbNetDevice::PopFrame(uint8_t cls)
{
    TxQueue& q = m_txQueues[cls];
    Ptr<Packet> frame = q.frames.front();
    q.frames.pop_front();
    const uint32_t size = frame->GetSize();
    q.bytes -= size;
    m_txQueueBytes -= size;
    if (q.frames.empty())
    {
        m_backlogMask &= ~(1U << cls);
    }
    return frame;
}

Ptr<Packet>
QbbNetDevice::DequeueFrame(uint8_t& cls)
{
    const uint8_t eligible = m_backlogMask & ~m_pausedMask;
    if (eligible == 0)
    {
        return nullptr;
    }
    if (m_scheduler == STRICT_PRIORITY)
    {
        uint8_t c = NUM_CLASSES - 1;
        while (!(eligible & (1U << c)))
        {
            --c;
        }
        cls = c;
        return PopFrame(c);
    }
    const uint8_t c = DwrrSelect(eligible);
    cls = c;
    Ptr<Packet> frame = PopFrame(c);
    m_deficit[c] -= frame->GetSize();
    if (m_txQueues[c].frames.empty())
    {
        // An idle class keeps no credit; the turn passes on.
        m_deficit[c] = 0;
        m_dwrrClass = (c + 1) % NUM_CLASSES;
        m_dwrrCredited = false;
    }
    return frame;
}

uint8_t
QbbNetDevice::DwrrSelect(uint8_t eligible)
{
    // Visit the classes in turn; an eligible class gets its quantum once
    // per turn and keeps the turn while its head frame fits its credit.
    // Paused classes with frames keep their credit and lose their turn.
    while (true)
    {
        const uint8_t c = m_dwrrClass;
        if (eligible & (1U << c))
        {
            if (!m_dwrrCredited)
            {
                m_deficit[c] += m_dwrrQuanta.bytes[c];
                m_dwrrCredited = true;
            }
            if (m_txQueues[c].frames.front()->GetSize() <= m_deficit[c])
            {
                return c;
            }
        }
        m_dwrrClass = (c + 1) % NUM_CLASSES;
        m_dwrrCredited = false;
    }
}

bool
QbbNetDevice::StartNextFrame()
{
    if (SettleTx())
    {
        NeedTxComplete(); // it starts the next frame when this one ends
        return false;
    }
    if (m_pfcPendingMask)
    {
        TransmitStart(BuildPfcFrame());
        return true;
    }
    uint8_t cls = 0;
    Ptr<Packet> next = DequeueFrame(cls);
    if (!next)
    {
        return false;
    }
    TransmitData(next, cls);
    return true;
}

void
QbbNetDevice::TransmitData(Ptr<Packet> frame, uint8_t cls)
{
    if (!m_txStartHook.IsNull())
    {
        if (cls == NO_CLASS)
        {
            cls = Classify(frame);
        }
        const uint32_t size = frame->GetSize();
        frame = m_txStartHook(frame, cls);
        NS_ASSERT_MSG(frame->GetSize() == size, "the dequeue hook changed the frame's size");
    }
    TransmitStart(frame);
}

void
QbbNetDevice::SetTxStartHook(TxStartHook hook)
{
    m_txStartHook = hook;
}

void
QbbNetDevice::TransmitStart(Ptr<Packet> frame)
{
    NS_ASSERT_MSG(!m_txFrame, "transmission started while another is in progress");
    m_txFrame = frame;
    const Time wireTime = GetWireTime(frame->GetSize());
    m_txEnd = Simulator::Now() + wireTime;
    m_phyTxBeginTrace(frame); // may queue a PFC frame here (NeedTxComplete)
    if ((m_backlogMask != 0 || m_pfcPendingMask != 0 || !m_txReadyCallback.IsNull() ||
         !m_phyTxEndTrace.IsEmpty()) &&
        !m_txCompleteEvent.IsRunning())
    {
        m_txCompleteEvent = Simulator::Schedule(wireTime, m_txCompleteImpl);
    }
    if (!m_channel->TransmitStart(frame, this, wireTime))
    {
        // The transmitter serializes the frame anyway; it is lost on the wire.
        Drop(frame, DROP_LINK_DOWN);
    }
}

void
QbbNetDevice::EndTx() const
{
    Ptr<Packet> frame = m_txFrame;
    m_txFrame = nullptr;
    ++m_stats.txFrames;
    m_stats.txBytes += frame->GetSize();
    m_phyTxEndTrace(frame);
}

bool
QbbNetDevice::SettleTx() const
{
    if (m_txFrame && Simulator::Now() >= m_txEnd && !m_txCompleteEvent.IsRunning())
    {
        EndTx();
    }
    return m_txFrame != nullptr;
}

void
QbbNetDevice::NeedTxComplete()
{
    if (m_txFrame && !m_txCompleteEvent.IsRunning())
    {
        m_txCompleteEvent = Simulator::Schedule(m_txEnd - Simulator::Now(), m_txCompleteImpl);
    }
}

void
QbbNetDevice::TransmitComplete()
{
    EndTx();
    if (!StartNextFrame() && m_txQueueBytes == 0 && !m_txReadyCallback.IsNull())
    {
        m_txReadyCallback();
    }
}

void
QbbNetDevice::Receive(Ptr<Packet> frame)
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
        macControl = ((eth[12] << 8) | eth[13]) == PfcHeader::ETHERTYPE;
    }
    Ptr<Packet> rx = frame;
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        ++m_stats.rxCorrupt;
        if (macControl || m_frameRxCallback.IsNull())
        {
            // The MAC's FCS check drops MAC Control frames on either path.
            NS_LOG_LOGIC("corrupt frame dropped");
            m_phyRxDropTrace(frame);
            Drop(frame, DROP_CORRUPT);
            return;
        }
        rx = CorruptCopy(frame);
    }
    if (macControl)
    {
        m_phyRxEndTrace(frame);
        ReceiveMacControl(frame);
        return;
    }
    ++m_stats.rxFrames;
    m_stats.rxBytes += rx->GetSize();
    m_phyRxEndTrace(rx);
    if (!m_frameRxCallback.IsNull())
    {
        m_macRxTrace(rx);
        m_frameRxCallback(this, rx);
        return;
    }
    ForwardUp(rx);
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

Ptr<Packet>
QbbNetDevice::CorruptCopy(Ptr<const Packet> frame)
{
    const uint32_t size = frame->GetSize();
    std::vector<uint8_t> bytes(size);
    frame->CopyData(bytes.data(), size);
    const uint32_t beyondHeader =
        size > ETHERNET_HEADER_BYTES ? size - ETHERNET_HEADER_BYTES : size;
    const uint32_t span = std::min(m_corruptTailBytes, beyondHeader);
    const uint32_t bit = m_corruptRng->GetInteger(0, span * 8 - 1);
    const uint32_t byte = size - span + bit / 8;
    bytes[byte] ^= static_cast<uint8_t>(1U << (bit % 8));
    NS_LOG_LOGIC("flipped bit " << bit % 8 << " of byte " << byte << " of " << size);
    return Create<Packet>(bytes.data(), size);
}

uint32_t
QbbNetDevice::FlushClass(uint8_t cls)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    uint32_t n = 0;
    while (!m_txQueues[cls].frames.empty())
    {
        Drop(PopFrame(cls), DROP_FLUSHED);
        ++n;
    }
    return n;
}

void
QbbNetDevice::SetDscpClass(uint8_t dscp, uint8_t cls)
{
    NS_ABORT_MSG_IF(dscp >= m_dscpMap.cls.size(), "QbbNetDevice: DSCP " << +dscp << " is not 0-63");
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    m_dscpMap.cls[dscp] = cls;
}

uint8_t
QbbNetDevice::GetDscpClass(uint8_t dscp) const
{
    NS_ABORT_MSG_IF(dscp >= m_dscpMap.cls.size(), "QbbNetDevice: DSCP " << +dscp << " is not 0-63");
    return m_dscpMap.cls[dscp];
}

void
QbbNetDevice::SetDwrrQuantum(uint8_t cls, uint32_t bytes)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    NS_ABORT_MSG_IF(bytes == 0, "QbbNetDevice: a DWRR quantum must be above 0 bytes");
    m_dwrrQuanta.bytes[cls] = bytes;
}

void
QbbNetDevice::LostOnLink(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    Drop(frame, DROP_LINK_DOWN);
}

void
QbbNetDevice::NotifyLinkChange()
{
    NS_LOG_FUNCTION(this);
    m_linkChangeCallbacks();
}

void
QbbNetDevice::Drop(Ptr<const Packet> frame, DropReason reason)
{
    NS_LOG_LOGIC("drop " << DropReasonName(reason) << " " << frame);
    ++m_stats.drops[reason];
    m_dropTrace(frame, reason);
}

void
QbbNetDevice::SetTxReadyCallback(Callback<void> callback)
{
    m_txReadyCallback = callback;
}

void
QbbNetDevice::SetFrameReceiveCallback(FrameReceiveCallback callback)
{
    m_frameRxCallback = callback;
}

bool
QbbNetDevice::IsTxIdle() const
{
    return !SettleTx() && m_txQueueBytes == 0;
}

uint64_t
QbbNetDevice::GetTxQueueBytes() const
{
    return m_txQueueBytes;
}

uint32_t
QbbNetDevice::GetTxQueueFrames() const
{
    std::size_t n = 0;
    for (const auto& q : m_txQueues)
    {
        n += q.frames.size();
    }
    return static_cast<uint32_t>(n);
}

uint64_t
QbbNetDevice::GetTxQueueBytes(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    return m_txQueues[cls].bytes;
}

uint32_t
QbbNetDevice::GetTxQueueFrames(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    return static_cast<uint32_t>(m_txQueues[cls].frames.size());
}

const QbbNetDevice::Stats&
QbbNetDevice::GetStats() const
{
    SettleTx();
    return m_stats;
}

void
QbbNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> em)
{
    NS_LOG_FUNCTION(this << em);
    m_receiveErrorModel = em;
}

int64_t
QbbNetDevice::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_corruptRng->SetStream(stream);
    return 1;
}

Ptr<QbbChannel>
QbbNetDevice::GetQbbChannel() const
{
    return m_channel;
}

void
QbbNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
QbbNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
QbbNetDevice::GetChannel() const
{
    return m_channel;
}

void
QbbNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
QbbNetDevice::GetAddress() const
{
    return m_address;
}

bool
QbbNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    if (mtu < g_minPayloadBytes)
    {
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
QbbNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
QbbNetDevice::IsLinkUp() const
{
    return m_channel && m_channel->GetNDevices() == 2 && m_channel->IsLinkUp();
}

void
QbbNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
QbbNetDevice::IsBroadcast() const
{
    return true;
}

Address
QbbNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
QbbNetDevice::IsMulticast() const
{
    return true;
}

Address
QbbNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
QbbNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
QbbNetDevice::IsBridge() const
{
    return false;
}

bool
QbbNetDevice::IsPointToPoint() const
{
    return true;
}

bool
QbbNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    return DoSend(packet, m_address, Mac48Address::ConvertFrom(dest), protocolNumber);
}

bool
QbbNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    return DoSend(packet,
                  Mac48Address::ConvertFrom(source),
                  Mac48Address::ConvertFrom(dest),
                  protocolNumber);
}

bool
QbbNetDevice::DoSend(Ptr<Packet> packet,
                     Mac48Address source,
                     Mac48Address dest,
                     uint16_t protocolNumber)
{
    const uint32_t payloadBytes = packet->GetSize();
    if (payloadBytes < g_minPayloadBytes)
    {
        packet->AddPaddingAtEnd(g_minPayloadBytes - payloadBytes);
    }
    EthernetHeader eth(false);
    eth.SetSource(source);
    eth.SetDestination(dest);
    eth.SetLengthType(protocolNumber);
    packet->AddHeader(eth);
    if (payloadBytes > m_mtu)
    {
        NS_LOG_LOGIC("payload of " << payloadBytes << " bytes exceeds Mtu " << m_mtu);
        Drop(packet, DROP_BAD_SIZE);
        return false;
    }
    return SendFrame(packet);
}

Ptr<Node>
QbbNetDevice::GetNode() const
{
    return m_node;
}

void
QbbNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
QbbNetDevice::NeedsArp() const
{
    return true;
}

void
QbbNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
QbbNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
QbbNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
