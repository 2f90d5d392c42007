/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-pfc-controller.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbPfcController");

NS_OBJECT_ENSURE_REGISTERED(QbbPfcController);

namespace
{
/// Frame bytes a MAC Control frame is read to: header, opcode, class-enable vector, 8 times.
constexpr uint32_t g_macControlBytes = RdmaWire::ETHERNET_HEADER_BYTES + 2 + 2 + 2 * 8;
} // namespace

TypeId
QbbPfcController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QbbPfcController")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<QbbPfcController>()
            .AddAttribute("RxEnable",
                          "Classes (bit c = class c) whose received PFC or 802.3x pauses this "
                          "port obeys; pauses of other classes are counted and traced but "
                          "change nothing (a class without PFC, or a PFC watchdog ignoring "
                          "pauses).",
                          UintegerValue(0xFF),
                          MakeUintegerAccessor(&QbbPfcController::m_rxEnable),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PauseQuanta",
                          "Pause time SetHold sends, quanta of 512 bit times (65535, the "
                          "largest, is 335.5 us at 100 Gb/s).",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&QbbPfcController::m_holdQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("RefreshMargin",
                          "While a class is held, its pause is sent again this long before the "
                          "previous one expires at the peer (counted from the start of each "
                          "pause frame's transmission). It must exceed the wait behind one "
                          "frame in serialization (9 KB: 0.72 us at 100 Gb/s, 7.2 us at "
                          "10 Gb/s) and be below the PauseQuanta time.",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&QbbPfcController::m_refreshMargin),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("PauseTx",
                            "A PFC frame started its transmission: one call per class it "
                            "enables, with the pause time in quanta (0 = XON).",
                            MakeTraceSourceAccessor(&QbbPfcController::m_pauseTxTrace),
                            "ns3::QbbPfcController::PauseTracedCallback")
            .AddTraceSource("PauseRx",
                            "A PFC frame (or an 802.3x PAUSE, for all 8 classes) was received: "
                            "one call per class it enables, with the pause time in quanta "
                            "(0 = XON), whether or not RxEnable lets it act.",
                            MakeTraceSourceAccessor(&QbbPfcController::m_pauseRxTrace),
                            "ns3::QbbPfcController::PauseTracedCallback")
            .AddTraceSource("PauseState",
                            "A class's transmission became paused (true) or free again "
                            "(false: the pause expired or an XON arrived); a pause that "
                            "extends a running one fires nothing.",
                            MakeTraceSourceAccessor(&QbbPfcController::m_pauseStateTrace),
                            "ns3::QbbPfcController::PauseStateTracedCallback");
    return tid;
}

QbbPfcController::QbbPfcController()
    : m_refreshMargin(MicroSeconds(20))
{
    NS_LOG_FUNCTION(this);
}

QbbPfcController::~QbbPfcController() = default;

void
QbbPfcController::DoDispose()
{
    for (uint8_t c = 0; m_state && c < NUM_CLASSES; ++c)
    {
        Simulator::Cancel(m_state->pause[c].expiry);
        Simulator::Cancel(m_state->refresh[c]);
    }
    m_pausedMask = 0;
    m_pendingMask = 0;
    m_holdMask = 0;
    m_transmit = nullptr;
    m_pauseWatch = nullptr;
    m_pauseTxWatch = nullptr;
    Object::DoDispose();
}

void
QbbPfcController::CheckClass(uint8_t cls, const char* caller)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "QbbPfcController::" << caller << ": class " << +cls << " is not 0-7");
}

void
QbbPfcController::SetDataRate(DataRate rate)
{
    m_rate = rate;
}

void
QbbPfcController::SetTransmitCallback(std::function<void()> transmit)
{
    m_transmit = transmit;
}

void
QbbPfcController::SetPauseStateWatch(std::function<void(uint8_t, bool)> watch)
{
    m_pauseWatch = std::move(watch);
}

void
QbbPfcController::SetPauseTxWatch(std::function<void(uint8_t, uint16_t)> watch)
{
    m_pauseTxWatch = std::move(watch);
}

void
QbbPfcController::Receive(Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    // Opcode at bytes 14-15; PFC: class-enable vector 16-17 (low octet 17),
    // times 18-33 (802.1Q-2018 36.1.3.2); 802.3x PAUSE: one time at 16-17
    // (IEEE 802.3 Annex 31B).
    uint8_t b[g_macControlBytes] = {};
    const uint32_t n = std::min<uint32_t>(frame->GetSize(), g_macControlBytes);
    frame->CopyData(b, n);
    const uint16_t opcode = n >= 16 ? static_cast<uint16_t>((b[14] << 8) | b[15]) : 0;
    auto time = [&b](uint32_t at) { return static_cast<uint16_t>((b[at] << 8) | b[at + 1]); };
    uint8_t enable = 0;
    std::array<uint16_t, NUM_CLASSES> quanta{};
    if (opcode == PfcHeader::OPCODE_PFC && n == g_macControlBytes)
    {
        ++State().stats.framesRx;
        enable = b[17];
        for (uint8_t c = 0; c < NUM_CLASSES; ++c)
        {
            quanta[c] = time(18 + 2 * c);
        }
    }
    else if (opcode == PfcHeader::OPCODE_PAUSE && n >= 18)
    {
        ++State().stats.pauseFramesRx;
        enable = 0xFF;
        quanta.fill(time(16));
    }
    else
    {
        NS_LOG_LOGIC("MAC Control frame with opcode " << opcode << " ignored");
        return;
    }
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        if (!(enable & (1U << c)))
        {
            continue;
        }
        if (quanta[c] > 0)
        {
            ++m_state->stats.pauseRx[c];
        }
        else
        {
            ++m_state->stats.resumeRx[c];
        }
        m_pauseRxTrace(c, quanta[c]);
        if (m_rxEnable & (1U << c))
        {
            Pause(c, quanta[c]);
        }
    }
}

void
QbbPfcController::Pause(uint8_t cls, uint16_t quanta)
{
    const Time duration = PfcHeader::QuantaToTime(quanta, m_rate);
    const uint8_t bit = 1U << cls;
    if (!duration.IsStrictlyPositive())
    {
        if (m_pausedMask & bit)
        {
            Resume(cls);
        }
        return;
    }
    PauseState& p = State().pause[cls];
    if (!(m_pausedMask & bit))
    {
        m_pausedMask |= bit;
        p.since = Simulator::Now();
        NS_LOG_LOGIC("class " << +cls << " paused for " << duration);
        if (m_pauseWatch)
        {
            m_pauseWatch(cls, true);
        }
        m_pauseStateTrace(cls, true);
    }
    // A new time replaces the running one (802.1Q-2018 36.1.3.3).
    Simulator::Cancel(p.expiry);
    p.until = Simulator::Now() + duration;
    p.expiry = Simulator::Schedule(duration, &QbbPfcController::PauseExpired, this);
}

void
QbbPfcController::PauseExpired()
{
    // Every class whose pause ends now resumes before the port's scheduler
    // picks, so classes freed at the same instant are served in order.
    const Time now = Simulator::Now();
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        if ((m_pausedMask & (1U << c)) && m_state->pause[c].until <= now)
        {
            Resume(c);
        }
    }
    if (m_transmit)
    {
        m_transmit();
    }
}

void
QbbPfcController::Resume(uint8_t cls)
{
    PauseState& p = m_state->pause[cls]; // paused, so the state exists
    Simulator::Cancel(p.expiry);
    m_pausedMask &= ~(1U << cls);
    m_state->stats.pausedTime[cls] += Simulator::Now() - p.since;
    NS_LOG_LOGIC("class " << +cls << " resumed");
    if (m_pauseWatch)
    {
        m_pauseWatch(cls, false);
    }
    m_pauseStateTrace(cls, false);
}

Ptr<Packet>
QbbPfcController::BuildFrame(Mac48Address source)
{
    static const Mac48Address pfcDestination = PfcHeader::GetDestination();
    ClassState& state = State();
    PfcHeader pfc;
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        if (m_pendingMask & (1U << c))
        {
            pfc.SetPause(c, state.pending[c]);
        }
    }
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    EthernetHeader eth(false);
    eth.SetSource(source);
    eth.SetDestination(pfcDestination);
    eth.SetLengthType(PfcHeader::ETHERTYPE);
    frame->AddHeader(eth);

    ++state.stats.framesTx;
    const uint8_t classes = m_pendingMask;
    m_pendingMask = 0;
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        const uint8_t bit = 1U << c;
        if (!(classes & bit))
        {
            continue;
        }
        const uint16_t quanta = state.pending[c];
        if (quanta > 0)
        {
            ++state.stats.pauseTx[c];
        }
        else
        {
            ++state.stats.resumeTx[c];
        }
        if (m_pauseTxWatch)
        {
            m_pauseTxWatch(c, quanta);
        }
        m_pauseTxTrace(c, quanta);
        if ((m_holdMask & bit) && quanta == m_holdQuanta)
        {
            // Counted from this frame's first bit: the peer's pause runs
            // from its last bit, one wire time plus the delay later, and so
            // does the refresh's, unless it waits behind a data frame.
            Simulator::Cancel(state.refresh[c]);
            state.refresh[c] =
                Simulator::Schedule(RefreshInterval(), &QbbPfcController::Refresh, this, c);
        }
    }
    return frame;
}

Time
QbbPfcController::RefreshInterval() const
{
    const Time pause = PfcHeader::QuantaToTime(m_holdQuanta, m_rate);
    NS_ABORT_MSG_UNLESS(m_refreshMargin < pause,
                        "QbbPfcController: RefreshMargin ("
                            << m_refreshMargin.As(Time::US)
                            << ") must be below the time of PauseQuanta (" << m_holdQuanta
                            << " quanta = " << pause.As(Time::US) << " at " << m_rate << ")");
    return pause - m_refreshMargin;
}

void
QbbPfcController::Refresh(uint8_t cls)
{
    if (m_holdMask & (1U << cls))
    {
        SendPause(cls, m_holdQuanta);
    }
}

void
QbbPfcController::SendPause(uint8_t cls, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +cls << quanta);
    CheckClass(cls, "SendPause");
    m_pendingMask |= 1U << cls;
    State().pending[cls] = quanta;
    if (m_transmit)
    {
        m_transmit();
    }
}

void
QbbPfcController::SendResume(uint8_t cls)
{
    SendPause(cls, 0);
}

void
QbbPfcController::SetHold(uint8_t cls, bool hold)
{
    NS_LOG_FUNCTION(this << +cls << hold);
    CheckClass(cls, "SetHold");
    const uint8_t bit = 1U << cls;
    if (hold == bool(m_holdMask & bit))
    {
        return;
    }
    if (hold)
    {
        RefreshInterval(); // check the configuration now
        m_holdMask |= bit;
        SendPause(cls, m_holdQuanta);
    }
    else
    {
        m_holdMask &= ~bit;
        Simulator::Cancel(State().refresh[cls]);
        SendResume(cls);
    }
}

bool
QbbPfcController::IsHeld(uint8_t cls) const
{
    CheckClass(cls, "IsHeld");
    return m_holdMask & (1U << cls);
}

bool
QbbPfcController::IsPaused(uint8_t cls) const
{
    CheckClass(cls, "IsPaused");
    return m_pausedMask & (1U << cls);
}

void
QbbPfcController::SetRxEnabled(uint8_t cls, bool enabled)
{
    CheckClass(cls, "SetRxEnabled");
    const uint8_t bit = 1U << cls;
    if (enabled)
    {
        m_rxEnable |= bit;
        return;
    }
    m_rxEnable &= ~bit;
    if (m_pausedMask & bit)
    {
        Resume(cls);
        if (m_transmit)
        {
            m_transmit();
        }
    }
}

Time
QbbPfcController::GetPausedTime(uint8_t cls) const
{
    CheckClass(cls, "GetPausedTime");
    if (!m_state)
    {
        return Time();
    }
    Time t = m_state->stats.pausedTime[cls];
    if (m_pausedMask & (1U << cls))
    {
        t += Simulator::Now() - m_state->pause[cls].since;
    }
    return t;
}

const QbbPfcController::Stats&
QbbPfcController::GetStats() const
{
    static const Stats none;
    return m_state ? m_state->stats : none;
}

QbbPfcController::ClassState&
QbbPfcController::State()
{
    if (!m_state)
    {
        m_state = std::make_unique<ClassState>();
    }
    return *m_state;
}

} // namespace ns3
