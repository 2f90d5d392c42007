/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-pfc-watchdog.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPfcWatchdog");

NS_OBJECT_ENSURE_REGISTERED(RdmaPfcWatchdog);

TypeId
RdmaPfcWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaPfcWatchdog")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaPfcWatchdog>()
            .AddAttribute("Enabled",
                          "Whether the watchdog watches (SONiC enables pfcwd by default).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaPfcWatchdog::m_enabled),
                          MakeBooleanChecker())
            .AddAttribute("DetectionTime",
                          "Time a class must stay paused without a break to be declared "
                          "stormed. Default 200 ms, SONiC pfcwd's detection_time.",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&RdmaPfcWatchdog::m_detectionTime),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RestorationTime",
                          "A stormed class is restored after this long without receiving a "
                          "pause. Default 200 ms, SONiC pfcwd's restoration_time.",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&RdmaPfcWatchdog::m_restorationTime),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "Action",
                "What a stormed class does: Drop (ignore pauses, discard its frames; "
                "SONiC's default) or Ignore (ignore pauses, keep forwarding).",
                EnumValue(RdmaPfcWatchdog::DROP),
                MakeEnumAccessor(&RdmaPfcWatchdog::m_action),
                MakeEnumChecker(RdmaPfcWatchdog::DROP, "Drop", RdmaPfcWatchdog::IGNORE, "Ignore"))
            .AddTraceSource("Storm",
                            "A class was declared stormed: port, class, time paused.",
                            MakeTraceSourceAccessor(&RdmaPfcWatchdog::m_stormTrace),
                            "ns3::RdmaPfcWatchdog::StormTracedCallback")
            .AddTraceSource("Restore",
                            "A stormed class obeys pauses again: port, class.",
                            MakeTraceSourceAccessor(&RdmaPfcWatchdog::m_restoreTrace),
                            "ns3::RdmaPfcWatchdog::RestoreTracedCallback");
    return tid;
}

RdmaPfcWatchdog::RdmaPfcWatchdog()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaPfcWatchdog::DoDispose()
{
    for (Port& p : m_ports)
    {
        for (uint8_t c = 0; p.cls && c < QbbNetDevice::NUM_CLASSES; ++c)
        {
            Simulator::Cancel((*p.cls)[c].check);
        }
        if (Ptr<QbbPfcController> pfc = p.device->GetPfcController())
        {
            pfc->SetPauseStateWatch(nullptr);
        }
        p.device = nullptr;
    }
    m_ports.clear();
    m_stormedNow = 0;
    m_stormCallback = MakeNullCallback<void, uint32_t, uint8_t>();
    Object::DoDispose();
}

uint32_t
RdmaPfcWatchdog::AddPort(Ptr<QbbNetDevice> device)
{
    uint32_t index = static_cast<uint32_t>(m_ports.size());
    m_ports.push_back(Port{device, nullptr});
    device->GetPfcController()->SetPauseStateWatch(
        [this, index](uint8_t cls, bool paused) { PauseStateChanged(index, cls, paused); });
    return index;
}

RdmaPfcWatchdog::ClassState&
RdmaPfcWatchdog::State(uint32_t port, uint8_t cls)
{
    Port& p = m_ports[port];
    if (!p.cls)
    {
        p.cls = std::make_unique<Classes>();
    }
    return (*p.cls)[cls];
}

void
RdmaPfcWatchdog::SetStormCallback(Callback<void, uint32_t, uint8_t> callback)
{
    m_stormCallback = callback;
}

bool
RdmaPfcWatchdog::IsStormed(uint32_t port, uint8_t cls) const
{
    // Storms are rare: the count spares the per-class state a look per frame.
    return m_stormedNow > 0 && m_ports[port].cls && (*m_ports[port].cls)[cls].stormed;
}

RdmaPfcWatchdog::Action
RdmaPfcWatchdog::GetAction() const
{
    return m_action;
}

uint64_t
RdmaPfcWatchdog::GetStormCount() const
{
    return m_storms;
}

void
RdmaPfcWatchdog::PauseStateChanged(uint32_t port, uint8_t cls, bool paused)
{
    if (!m_enabled)
    {
        return;
    }
    ClassState& c = State(port, cls);
    if (c.stormed)
    {
        return;
    }
    if (paused)
    {
        c.pausedSince = Simulator::Now();
        Simulator::Cancel(c.check);
        c.check = Simulator::Schedule(m_detectionTime, &RdmaPfcWatchdog::Detect, this, port, cls);
    }
    else
    {
        Simulator::Cancel(c.check);
    }
}

void
RdmaPfcWatchdog::Detect(uint32_t port, uint8_t cls)
{
    Port& p = m_ports[port];
    ClassState& c = State(port, cls);
    if (!p.device->GetPfcController()->IsPaused(cls))
    {
        return;
    }
    c.stormed = true;
    ++m_storms;
    ++m_stormedNow;
    Time pausedFor = Simulator::Now() - c.pausedSince;
    NS_LOG_INFO("PFC storm on port " << port << " class " << +cls << " after " << pausedFor);
    m_stormTrace(port, cls, pausedFor);
    c.pauseRxSeen = p.device->GetPfcController()->GetStats().pauseRx[cls];
    p.device->GetPfcController()->SetRxEnabled(cls, false);
    if (m_action == DROP && !m_stormCallback.IsNull())
    {
        m_stormCallback(port, cls);
    }
    c.check =
        Simulator::Schedule(m_restorationTime, &RdmaPfcWatchdog::CheckRestore, this, port, cls);
}

void
RdmaPfcWatchdog::CheckRestore(uint32_t port, uint8_t cls)
{
    Port& p = m_ports[port];
    ClassState& c = State(port, cls);
    uint64_t pauses = p.device->GetPfcController()->GetStats().pauseRx[cls];
    if (pauses != c.pauseRxSeen)
    {
        c.pauseRxSeen = pauses;
        c.check =
            Simulator::Schedule(m_restorationTime, &RdmaPfcWatchdog::CheckRestore, this, port, cls);
        return;
    }
    c.stormed = false;
    --m_stormedNow;
    p.device->GetPfcController()->SetRxEnabled(cls, true);
    NS_LOG_INFO("PFC storm over on port " << port << " class " << +cls);
    m_restoreTrace(port, cls);
}

} // namespace ns3
