/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-trimmer.h"

#include "ns3/double.h"
#include "ns3/icrc-trailer.h"
#include "ns3/int-header.h"
#include "ns3/log.h"
#include "ns3/rdma-frame-editor.h"
#include "ns3/rdma-frame-view.h"
#include "ns3/rdma-wire.h"
#include "ns3/roce-frame.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbTrimmer");
NS_OBJECT_ENSURE_REGISTERED(QbbTrimmer);

TypeId
QbbTrimmer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QbbTrimmer")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<QbbTrimmer>()
            .AddAttribute("Classes",
                          "Bit mask of the traffic classes whose frames a switch trims to "
                          "their headers instead of dropping them (NDP, SIGCOMM 2017; UEC 1.0 "
                          "packet trimming). Default 0: none, every refused frame is dropped.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&QbbTrimmer::m_classes),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("TrimClass",
                          "Traffic class (0-7) trimmed frames are queued in, at every hop. "
                          "Default 7: above the data classes under strict priority, as UEC "
                          "queues trimmed packets ahead of data.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&QbbTrimmer::m_trimClass),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("Dscp",
                          "DSCP written into a trimmed frame, which marks it as trimmed (UEC "
                          "marks trimmed packets by DSCP and leaves the value to the "
                          "operator). Default 63: RFC 2474's pool 2, experimental or local "
                          "use, which the default DscpToClass maps to class 7.",
                          UintegerValue(63),
                          MakeUintegerAccessor(&QbbTrimmer::m_dscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("Threshold",
                          "Trim a frame of a trimmed class as soon as its class queue at the "
                          "egress holds this many bytes (NDP trims above a queue of 8 "
                          "packets), bytes. Default 0: only where the frame would be dropped.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&QbbTrimmer::m_threshold),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MaxBytes",
                          "Bytes of trimmed frames one port may hold, beside its data and not "
                          "counted in the queue's MaxBytes nor in the shared buffer (switch "
                          "ASICs keep trimmed headers in a queue of their own; htsim's "
                          "CompositeQueue gives them twice the data queue's size); a trimmed "
                          "frame that does not fit is dropped. Default 0: the queue's MaxBytes.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&QbbTrimmer::m_maxBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("QueuedVictimProbability",
                          "Probability that a full queue cuts its newest queued frame of the "
                          "arriving frame's class (and queues the arriving frame in its place) "
                          "rather than the arriving frame. htsim's CompositeQueue, which UEC's "
                          "simulator uses: 0.5. Default 0: always the arriving frame.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&QbbTrimmer::m_queuedVictim),
                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

QbbTrimmer::QbbTrimmer() = default;

QbbTrimmer::~QbbTrimmer() = default;

uint64_t
QbbTrimmer::GetMaxBytes() const
{
    return m_maxBytes;
}

bool
QbbTrimmer::CutQueued()
{
    if (m_queuedVictim <= 0 || m_queuedVictim >= 1)
    {
        return m_queuedVictim >= 1;
    }
    if (!m_rng)
    {
        // Made only where it draws: an RNG takes a stream number, and runs
        // that never draw here keep theirs as they were.
        m_rng = CreateObject<UniformRandomVariable>();
    }
    return m_rng->GetValue() < m_queuedVictim;
}

int64_t
QbbTrimmer::AssignStreams(int64_t stream)
{
    if (!IsEnabled() || m_queuedVictim <= 0 || m_queuedVictim >= 1)
    {
        return 0;
    }
    if (!m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    m_rng->SetStream(stream);
    return 1;
}

bool
QbbTrimmer::IsEnabled() const
{
    return m_classes != 0;
}

bool
QbbTrimmer::Trims(uint8_t cls) const
{
    return (m_classes >> cls) & 1;
}

bool
QbbTrimmer::AboveThreshold(uint8_t cls, uint64_t queueBytes) const
{
    return m_threshold > 0 && Trims(cls) && queueBytes >= m_threshold;
}

namespace
{

/// \return the 16-bit big-endian value at p \param p two bytes
uint16_t
ReadU16(const uint8_t* p)
{
    return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

/// Write v big-endian at p \param p two bytes \param v the value
void
WriteU16(uint8_t* p, uint32_t v)
{
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

} // namespace

Ptr<RdmaFrame>
QbbTrimmer::TrimCompact(const RdmaFrame& frame, bool& done) const
{
    // The head of a compact frame is every header up to the payload, as
    // RoceFrame::Build wrote it; the rest is the payload's zeros, the pad
    // and the ICRC. The trimmed frame is that head with the fields that
    // depend on the payload or mark the trim rewritten: what parsing the
    // frame and building it again without its payload gives, byte for byte.
    done = false;
    const uint32_t headLen = frame.GetHeadLength();
    uint8_t head[RdmaFrame::HEAD_CAPACITY];
    if (frame.CopyData(head, headLen) != headLen || headLen < RdmaWire::ETHERNET_HEADER_BYTES)
    {
        return nullptr;
    }
    uint32_t ip = RdmaWire::ETHERNET_HEADER_BYTES;
    uint16_t type = ReadU16(head + 12);
    const bool tagged = type == RdmaWire::ETHERTYPE_VLAN;
    if (tagged)
    {
        ip += RdmaWire::VLAN_TAG_BYTES;
        type = ReadU16(head + 16);
    }
    const bool ipv6 = type == RoceFrame::ETHERTYPE_IPV6;
    if (!ipv6 && (type != RoceFrame::ETHERTYPE_IPV4 || head[ip] != 0x45))
    {
        return nullptr; // another L3, or IPv4 options: parse it (Trim)
    }
    const uint32_t udp = ip + (ipv6 ? RdmaWire::IPV6_HEADER_BYTES : RdmaWire::IPV4_HEADER_BYTES);
    const uint32_t bth = udp + RdmaWire::UDP_HEADER_BYTES;
    if (headLen < bth + RdmaWire::BTH_BYTES || head[ipv6 ? ip + 6 : ip + 9] != 17 ||
        ReadU16(head + udp + 2) != RoceFrame::UDP_PORT)
    {
        return nullptr;
    }
    done = true;
    if (frame.GetSize() == headLen + RdmaFrame::TRAILER_BYTES)
    {
        return nullptr; // no payload (an ACK, a request without data, a trimmed frame)
    }
    if (tagged)
    {
        head[14] = static_cast<uint8_t>((head[14] & 0x1F) | (m_trimClass << 5)); // PCP
    }
    const uint32_t trailer = RdmaFrame::TRAILER_BYTES;
    if (ipv6)
    {
        // Traffic class: 4 bits in each of the first two bytes.
        const uint8_t tos = static_cast<uint8_t>(m_dscp << 2 | ((head[ip + 1] >> 4) & 0x3));
        head[ip] = static_cast<uint8_t>((head[ip] & 0xF0) | (tos >> 4));
        head[ip + 1] = static_cast<uint8_t>((head[ip + 1] & 0x0F) | (tos << 4));
        WriteU16(head + ip + 4, headLen - udp + trailer);
    }
    else
    {
        head[ip + 1] = static_cast<uint8_t>(m_dscp << 2 | (head[ip + 1] & 0x3));
        WriteU16(head + ip + 2, headLen - ip + trailer);
        WriteU16(head + ip + 10,
                 RdmaFrameEditor::Ipv4Checksum(head + ip, RdmaWire::IPV4_HEADER_BYTES));
    }
    WriteU16(head + udp + 4, headLen - udp + trailer);
    head[bth + 1] &= 0xCF; // PadCnt 0 (IBA 9.2.4): no payload, no pad
    const uint32_t icrc =
        IcrcTrailer::Compute(ipv6 ? IcrcTrailer::IPV6 : IcrcTrailer::IPV4, head + ip, headLen - ip);
    return RdmaFrame::Compact(head, headLen, 0, icrc);
}

Ptr<RdmaFrame>
QbbTrimmer::Trim(RdmaFrame& frame) const
{
    if (frame.IsCompact() && !frame.HasIntSlots())
    {
        bool done = false;
        Ptr<RdmaFrame> trimmed = TrimCompact(frame, done);
        if (done)
        {
            return trimmed;
        }
    }
    RoceFrame f;
    IntHeader intHeader;
    bool hasInt = false;
    if (RoceFrame::ParseEthernetFrameWithInt(frame, f, intHeader, hasInt) != RoceFrame::OK ||
        !f.payload || f.payload->GetSize() == 0)
    {
        return nullptr;
    }
    f.payload = RdmaPayload();
    f.payloadZeros = false;
    f.dscp = m_dscp;
    if (f.hasVlan)
    {
        f.vlan.SetPcp(m_trimClass);
    }
    f.computeIcrc = true;
    if (!hasInt)
    {
        return f.BuildFrame();
    }
    RdmaFrameView view;
    view.Parse(frame);
    Ptr<RdmaFrame> trimmed = f.BuildFrame(intHeader, view.GetDstPort());
    trimmed->GetIntEgress() = frame.GetIntEgress();
    return trimmed;
}

uint8_t
QbbTrimmer::GetTrimClass() const
{
    return m_trimClass;
}

uint8_t
QbbTrimmer::GetDscp() const
{
    return m_dscp;
}

} // namespace ns3
