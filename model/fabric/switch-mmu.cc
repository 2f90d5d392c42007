/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-mmu.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");

NS_OBJECT_ENSURE_REGISTERED(SwitchMmu);

TypeId
SwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchMmu")
            .SetParent<QbbAdmission>()
            .SetGroupName("Rdma")
            .AddConstructor<SwitchMmu>()
            .AddAttribute("BufferSize",
                          "Shared packet buffer of the switch, bytes. Default 12 MiB: the HPCC "
                          "simulator's SwitchMmu buffer_size and Broadcom Trident2's 12 MB.",
                          UintegerValue(12 * 1024 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ReservedBytes",
                          "Bytes guaranteed to each ingress (port, lossless class) before it "
                          "uses the shared pool. Default 4 KiB, the HPCC simulator's reserve.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&SwitchMmu::m_reservedBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomBytes",
                          "PFC headroom of each (port, lossless class), bytes; 0 (default) "
                          "computes it per port with ComputeHeadroom (IEEE 802.1Qbb delay "
                          "model: 2 x delay x rate + 2 max frames + the PFC frame).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SwitchMmu::m_headroomBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "ThresholdMode",
                "XOFF threshold: Dynamic (Alpha x free shared buffer, Choudhury and "
                "Hahne's dynamic threshold as in Broadcom MMUs and the HPCC "
                "simulator) or Static (StaticThresholdBytes).",
                EnumValue(SwitchMmu::DYNAMIC),
                MakeEnumAccessor(&SwitchMmu::m_mode),
                MakeEnumChecker(SwitchMmu::DYNAMIC, "Dynamic", SwitchMmu::STATIC, "Static"))
            .AddAttribute("Alpha",
                          "Dynamic-threshold factor (dimensionless, > 0). Default 1/8: the HPCC "
                          "simulator's pfc_a_shift = 3.",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SwitchMmu::m_alpha),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("StaticThresholdBytes",
                          "XOFF threshold on an ingress (port, class)'s shared bytes in Static "
                          "mode, bytes.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_staticThreshold),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffsetBytes",
                          "XON hysteresis, bytes: a paused class resumes when its shared bytes "
                          "are at most the threshold minus this. Default 3 KiB, the HPCC "
                          "simulator's resume_offset.",
                          UintegerValue(3 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LosslessClasses",
                          "Bit mask of the lossless (PFC) traffic classes. Default 0x08: class "
                          "3, where RoCEv2 data (DSCP 26, priority 3) runs in the usual "
                          "lossless RoCE configuration.",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&SwitchMmu::m_losslessClasses),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcEnabled",
                          "Whether PFC is on; when off every class is lossy.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SwitchMmu::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddTraceSource("PfcXoff",
                            "An ingress (port, class) crossed its XOFF condition and its "
                            "upstream is paused: port, class, ingress bytes, shared bytes, "
                            "threshold.",
                            MakeTraceSourceAccessor(&SwitchMmu::m_xoffTrace),
                            "ns3::SwitchMmu::PfcDecisionTracedCallback")
            .AddTraceSource("PfcXon",
                            "A paused ingress (port, class) met its resume condition: port, "
                            "class, ingress bytes, shared bytes, threshold.",
                            MakeTraceSourceAccessor(&SwitchMmu::m_xonTrace),
                            "ns3::SwitchMmu::PfcDecisionTracedCallback");
    return tid;
}

SwitchMmu::SwitchMmu()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
SwitchMmu::ComputeHeadroom(DataRate rate, Time delay, uint32_t maxFrameBytes)
{
    return PfcHeader::ComputeHeadroom(rate, delay, maxFrameBytes);
}

void
SwitchMmu::DoDispose()
{
    m_pfc.clear();
    Object::DoDispose();
}

uint64_t
SwitchMmu::PortFixedBytes(uint64_t reservedBytes,
                          uint64_t headroomBytes,
                          uint32_t losslessClasses,
                          DataRate rate,
                          Time delay,
                          uint32_t maxFrameBytes)
{
    const uint64_t h = headroomBytes ? headroomBytes : ComputeHeadroom(rate, delay, maxFrameBytes);
    return (h + reservedBytes) * losslessClasses;
}

uint32_t
SwitchMmu::AddPort(DataRate rate, Time delay, uint32_t maxFrameBytes, Ptr<QbbPfcController> pfc)
{
    m_pfc.push_back(pfc);
    // Headroom of one lossless class (PortFixedBytes without reserve, one class).
    const uint64_t h = PortFixedBytes(0, m_headroomBytes, 1, rate, delay, maxFrameBytes);
    m_headroom.push_back(h);
    m_ingress.resize(m_ingress.size() + NUM_CLASSES);
    m_totalHeadroom += h * LosslessCount();
    m_totalReserved = m_reservedBytes * GetNPorts() * LosslessCount();
    NS_ABORT_MSG_IF(GetTotalReserved() + m_totalHeadroom >= m_bufferSize,
                    "SwitchMmu: BufferSize (" << m_bufferSize
                                              << " bytes) is not larger than ReservedBytes and "
                                                 "headroom of all ports ("
                                              << GetTotalReserved() + m_totalHeadroom << " bytes)");
    return static_cast<uint32_t>(m_headroom.size() - 1);
}

uint32_t
SwitchMmu::GetNPorts() const
{
    return static_cast<uint32_t>(m_headroom.size());
}

uint32_t
SwitchMmu::LosslessCount() const
{
    if (!m_pfcEnabled)
    {
        return 0;
    }
    uint32_t n = 0;
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        n += (m_losslessClasses >> c) & 1;
    }
    return n;
}

bool
SwitchMmu::IsLossless(uint8_t cls) const
{
    return m_pfcEnabled && ((m_losslessClasses >> cls) & 1);
}

SwitchMmu::Ingress&
SwitchMmu::At(uint32_t port, uint8_t cls)
{
    NS_ABORT_MSG_IF(port >= GetNPorts() || cls >= NUM_CLASSES,
                    "SwitchMmu: no port " << port << " class " << +cls);
    return m_ingress[port * NUM_CLASSES + cls];
}

const SwitchMmu::Ingress&
SwitchMmu::At(uint32_t port, uint8_t cls) const
{
    NS_ABORT_MSG_IF(port >= GetNPorts() || cls >= NUM_CLASSES,
                    "SwitchMmu: no port " << port << " class " << +cls);
    return m_ingress[port * NUM_CLASSES + cls];
}

uint64_t
SwitchMmu::GetTotalReserved() const
{
    return m_totalReserved;
}

uint64_t
SwitchMmu::GetTotalHeadroom() const
{
    return m_totalHeadroom;
}

uint64_t
SwitchMmu::GetSharedPoolSize() const
{
    uint64_t fixed = GetTotalReserved() + m_totalHeadroom;
    return m_bufferSize > fixed ? m_bufferSize - fixed : 0;
}

uint64_t
SwitchMmu::GetXoffThreshold() const
{
    if (m_mode == STATIC)
    {
        return m_staticThreshold;
    }
    uint64_t pool = GetSharedPoolSize();
    uint64_t freeBytes = pool > m_sharedUsed ? pool - m_sharedUsed : 0;
    return static_cast<uint64_t>(m_alpha * static_cast<double>(freeBytes));
}

uint64_t
SwitchMmu::SharedPart(uint64_t bytes, bool lossless) const
{
    const uint64_t reserve = lossless ? m_reservedBytes : 0;
    return bytes > reserve ? bytes - reserve : 0;
}

RdmaDropReason
SwitchMmu::Admit(uint32_t port, uint8_t cls, uint32_t bytes)
{
    Ingress& q = At(port, cls);
    const bool lossless = IsLossless(cls);
    const uint64_t sharedNow = SharedPart(q.bytes, lossless);
    const uint64_t sharedAfter = SharedPart(q.bytes + bytes, lossless);
    const uint64_t growth = sharedAfter - sharedNow;
    const bool poolFull = m_sharedUsed + growth > GetSharedPoolSize();
    const bool overThreshold = growth > 0 && sharedAfter > GetXoffThreshold();
    if (!lossless)
    {
        if (poolFull)
        {
            return DROP_BUFFER_FULL;
        }
        if (overThreshold)
        {
            return DROP_INGRESS_LIMIT;
        }
    }
    else if (q.paused || q.headroom > 0 || poolFull || overThreshold)
    {
        if (q.headroom + bytes > m_headroom[port])
        {
            return DROP_HEADROOM_FULL;
        }
        q.headroom += bytes;
        q.maxHeadroom = std::max(q.maxHeadroom, q.headroom);
        m_bufferUsed += bytes;
        return DROP_NONE;
    }
    q.bytes += bytes;
    m_sharedUsed += growth;
    m_bufferUsed += bytes;
    return DROP_NONE;
}

void
SwitchMmu::Release(uint32_t port, uint8_t cls, uint32_t bytes)
{
    Ingress& q = At(port, cls);
    const uint64_t fromHeadroom = std::min<uint64_t>(bytes, q.headroom);
    q.headroom -= fromHeadroom;
    const uint64_t rest = bytes - fromHeadroom;
    NS_ABORT_MSG_IF(rest > q.bytes,
                    "SwitchMmu: release of " << bytes << " bytes on port " << port << " class "
                                             << +cls << " exceeds its accounted bytes");
    const bool lossless = IsLossless(cls);
    m_sharedUsed -= SharedPart(q.bytes, lossless) - SharedPart(q.bytes - rest, lossless);
    q.bytes -= rest;
    m_bufferUsed -= bytes;
}

bool
SwitchMmu::ShouldPause(uint32_t port, uint8_t cls) const
{
    const Ingress& q = At(port, cls);
    return IsLossless(cls) && !q.paused &&
           (q.headroom > 0 || SharedPart(q.bytes, true) >= GetXoffThreshold());
}

bool
SwitchMmu::ShouldResume(uint32_t port, uint8_t cls) const
{
    const Ingress& q = At(port, cls);
    if (!q.paused || q.headroom > 0)
    {
        return false;
    }
    const uint64_t shared = SharedPart(q.bytes, true);
    return shared == 0 || shared + m_xonOffset <= GetXoffThreshold();
}

void
SwitchMmu::SetPaused(uint32_t port, uint8_t cls, bool paused)
{
    At(port, cls).paused = paused;
}

bool
SwitchMmu::IsPaused(uint32_t port, uint8_t cls) const
{
    return At(port, cls).paused;
}

void
SwitchMmu::CheckXoff(uint32_t port, uint8_t cls)
{
    if (!ShouldPause(port, cls))
    {
        return;
    }
    SetPaused(port, cls, true);
    ++m_xoffCount;
    m_xoffTrace(port,
                cls,
                GetIngressBytes(port, cls),
                GetSharedBytes(port, cls),
                GetXoffThreshold());
    if (m_pfc[port])
    {
        m_pfc[port]->SetHold(cls, true);
    }
}

void
SwitchMmu::CheckXon(uint32_t port, uint8_t cls)
{
    if (!ShouldResume(port, cls))
    {
        return;
    }
    SetPaused(port, cls, false);
    ++m_xonCount;
    m_xonTrace(port, cls, GetIngressBytes(port, cls), GetSharedBytes(port, cls), GetXoffThreshold());
    if (m_pfc[port])
    {
        m_pfc[port]->SetHold(cls, false);
    }
}

uint64_t
SwitchMmu::GetXoffCount() const
{
    return m_xoffCount;
}

uint64_t
SwitchMmu::GetXonCount() const
{
    return m_xonCount;
}

uint64_t
SwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SwitchMmu::GetBufferUsed() const
{
    return m_bufferUsed;
}

uint64_t
SwitchMmu::GetHeadroom(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= GetNPorts(), "SwitchMmu: no port " << port);
    return m_headroom[port];
}

uint64_t
SwitchMmu::GetIngressBytes(uint32_t port, uint8_t cls) const
{
    const Ingress& q = At(port, cls);
    return q.bytes + q.headroom;
}

uint64_t
SwitchMmu::GetSharedBytes(uint32_t port, uint8_t cls) const
{
    return SharedPart(At(port, cls).bytes, IsLossless(cls));
}

uint64_t
SwitchMmu::GetHeadroomUsed(uint32_t port, uint8_t cls) const
{
    return At(port, cls).headroom;
}

uint64_t
SwitchMmu::GetMaxHeadroomUsed(uint32_t port, uint8_t cls) const
{
    return At(port, cls).maxHeadroom;
}

} // namespace ns3
