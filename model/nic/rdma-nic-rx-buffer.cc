/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic-rx-buffer.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNicRxBuffer");
NS_OBJECT_ENSURE_REGISTERED(RdmaNicRxBuffer);

TypeId
RdmaNicRxBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNicRxBuffer")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNicRxBuffer>()
            .AddAttribute("BufferBytes",
                          "Receive buffer of each traffic class, bytes. Default 128 KiB, "
                          "Corundum's per-port receive FIFO (mqnic core parameter "
                          "RX_FIFO_DEPTH = 131072 in its PFC-enabled 100 Gb/s builds), given "
                          "here to each class.",
                          UintegerValue(128 * 1024),
                          MakeUintegerAccessor(&RdmaNicRxBuffer::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("HeadroomBytes",
                          "PFC headroom of each lossless class, bytes; 0 (default) computes "
                          "it from the link (PfcHeader::ComputeHeadroom: IEEE 802.1Qbb delay "
                          "model, 2 x delay x rate + 2 max frames + the PFC frame).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNicRxBuffer::m_headroomAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffsetBytes",
                          "XON hysteresis, bytes: a paused class resumes when it holds at most "
                          "XOFF minus this. Default 3 KiB, as the switch MMU's "
                          "(SwitchMmu::XonOffsetBytes, the HPCC simulator's resume offset).",
                          UintegerValue(3 * 1024),
                          MakeUintegerAccessor(&RdmaNicRxBuffer::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LosslessClasses",
                          "Bit mask of the lossless (PFC) classes. Default 0x08, class 3, as "
                          "SwitchMmu::LosslessClasses.",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&RdmaNicRxBuffer::m_losslessClasses),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcEnabled",
                          "Whether the NIC sends PFC; when off every class is lossy.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNicRxBuffer::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddTraceSource("Occupancy",
                            "A class's occupancy changed: class and bytes held.",
                            MakeTraceSourceAccessor(&RdmaNicRxBuffer::m_occupancyTrace),
                            "ns3::RdmaNicRxBuffer::OccupancyTracedCallback")
            .AddTraceSource("Drop",
                            "A frame did not fit: class, bytes and reason (BUFFER_FULL for "
                            "a lossy class, HEADROOM_FULL for a lossless one).",
                            MakeTraceSourceAccessor(&RdmaNicRxBuffer::m_dropTrace),
                            "ns3::RdmaNicRxBuffer::DropTracedCallback");
    return tid;
}

RdmaNicRxBuffer::RdmaNicRxBuffer()
    : m_bufferBytes(128 * 1024),
      m_headroomAttr(0),
      m_xonOffset(3 * 1024),
      m_losslessClasses(0x08),
      m_pfcEnabled(true)
{
}

std::string
RdmaNicRxBuffer::Configure(DataRate rate, Time delay, uint32_t maxFrameBytes)
{
    NS_LOG_FUNCTION(this << rate << delay << maxFrameBytes);
    m_headroom = m_headroomAttr > 0 ? m_headroomAttr
                                    : PfcHeader::ComputeHeadroom(rate, delay, maxFrameBytes);
    m_configured = true;
    if (m_pfcEnabled && m_losslessClasses != 0 && m_bufferBytes < maxFrameBytes + m_headroom)
    {
        return "BufferBytes (" + std::to_string(m_bufferBytes) + ") is below one largest frame (" +
               std::to_string(maxFrameBytes) + ") plus the PFC headroom (" +
               std::to_string(m_headroom) + ")";
    }
    return "";
}

void
RdmaNicRxBuffer::SetPfcHoldCallback(Callback<void, uint8_t, bool> cb)
{
    m_pfcHold = cb;
}

bool
RdmaNicRxBuffer::IsLossless(uint8_t cls) const
{
    return m_pfcEnabled && cls < NUM_CLASSES && ((m_losslessClasses >> cls) & 1);
}

uint64_t
RdmaNicRxBuffer::GetXoffBytes() const
{
    return m_bufferBytes > m_headroom ? m_bufferBytes - m_headroom : 0;
}

RdmaDropReason
RdmaNicRxBuffer::Enqueue(uint8_t cls, uint32_t bytes)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "RdmaNicRxBuffer: class " << unsigned(cls));
    NS_ABORT_MSG_IF(!m_configured, "RdmaNicRxBuffer: Enqueue before Configure");
    uint64_t& held = m_bytes[cls];
    if (held + bytes > m_bufferBytes)
    {
        const RdmaDropReason why = IsLossless(cls) ? DROP_HEADROOM_FULL : DROP_BUFFER_FULL;
        ++m_drops;
        m_dropTrace(cls, bytes, why);
        return why;
    }
    held += bytes;
    m_maxBytes[cls] = std::max(m_maxBytes[cls], held);
    m_occupancyTrace(cls, held);
    if (IsLossless(cls) && !((m_pausing >> cls) & 1) && held > GetXoffBytes())
    {
        m_pausing |= uint8_t(1u << cls);
        NS_LOG_INFO("class " << unsigned(cls) << " XOFF at " << held << " bytes");
        if (!m_pfcHold.IsNull())
        {
            m_pfcHold(cls, true);
        }
    }
    return DROP_NONE;
}

void
RdmaNicRxBuffer::Dequeue(uint8_t cls, uint32_t bytes)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES || m_bytes[cls] < bytes,
                    "RdmaNicRxBuffer: Dequeue of bytes not held");
    uint64_t& held = m_bytes[cls];
    held -= bytes;
    m_occupancyTrace(cls, held);
    const uint64_t xoff = GetXoffBytes();
    const uint64_t xon = xoff > m_xonOffset ? xoff - m_xonOffset : 0;
    if (((m_pausing >> cls) & 1) && held <= xon)
    {
        m_pausing &= uint8_t(~(1u << cls));
        NS_LOG_INFO("class " << unsigned(cls) << " XON at " << held << " bytes");
        if (!m_pfcHold.IsNull())
        {
            m_pfcHold(cls, false);
        }
    }
}

RdmaDropReason
RdmaNicRxBuffer::Admit(uint8_t cls, uint32_t bytes)
{
    const RdmaDropReason reason = Enqueue(cls, bytes);
    if (reason == DROP_NONE)
    {
        m_held.push_back({cls, bytes});
    }
    return reason;
}

void
RdmaNicRxBuffer::ReleaseOldest()
{
    NS_ABORT_MSG_IF(m_held.empty(), "RdmaNicRxBuffer: ReleaseOldest with nothing admitted");
    const Held h = m_held.front();
    m_held.pop_front();
    Dequeue(h.cls, h.bytes);
}

uint64_t
RdmaNicRxBuffer::GetBytes(uint8_t cls) const
{
    return m_bytes.at(cls);
}

uint64_t
RdmaNicRxBuffer::GetMaxBytes(uint8_t cls) const
{
    return m_maxBytes.at(cls);
}

uint64_t
RdmaNicRxBuffer::GetHeadroomBytes() const
{
    return m_headroom;
}

bool
RdmaNicRxBuffer::IsPausing(uint8_t cls) const
{
    return cls < NUM_CLASSES && ((m_pausing >> cls) & 1);
}

uint64_t
RdmaNicRxBuffer::GetDrops() const
{
    return m_drops;
}

} // namespace ns3
