/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QbbNetDevice's priority flow control (IEEE 802.1Qbb): received PFC and
 * 802.3x PAUSE frames pause classes for the time they give, and the device
 * sends PFC frames for the classes its owner holds (SetPfcHold), refreshed
 * before the pause runs out.
 */

#include "qbb-net-device.h"

#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbNetDevicePfc");

namespace
{
/// Frame bytes a MAC Control frame is read to: header, opcode, class-enable vector, 8 times.
constexpr uint32_t g_macControlBytes = 14 + 2 + 2 + 2 * 8;
} // namespace

void
QbbNetDevice::ReceiveMacControl(Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    // Opcode at bytes 14-15; PFC: class-enable vector 16-17 (low octet 17),
    // times 18-33; 802.3x PAUSE: one time at 16-17 (IEEE 802.3 Annex 31B/31D).
    uint8_t b[g_macControlBytes] = {};
    const uint32_t n = std::min<uint32_t>(frame->GetSize(), g_macControlBytes);
    frame->CopyData(b, n);
    const uint16_t opcode = n >= 16 ? static_cast<uint16_t>((b[14] << 8) | b[15]) : 0;
    auto time = [&b](uint32_t at) { return static_cast<uint16_t>((b[at] << 8) | b[at + 1]); };
    uint8_t enable = 0;
    std::array<uint16_t, NUM_CLASSES> quanta{};
    if (opcode == PfcHeader::OPCODE_PFC && n == g_macControlBytes)
    {
        ++m_stats.pfcFramesRx;
        enable = b[17];
        for (uint8_t c = 0; c < NUM_CLASSES; ++c)
        {
            quanta[c] = time(18 + 2 * c);
        }
    }
    else if (opcode == PfcHeader::OPCODE_PAUSE && n >= 18)
    {
        ++m_stats.pauseFramesRx;
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
            ++m_stats.pfcPauseRx[c];
        }
        else
        {
            ++m_stats.pfcResumeRx[c];
        }
        m_pfcPauseRxTrace(c, quanta[c]);
        if (m_pfcRxEnable & (1U << c))
        {
            PauseClass(c, quanta[c]);
        }
    }
    // Every class's new state is in place before the scheduler picks.
    StartNextFrame();
}

void
QbbNetDevice::PauseClass(uint8_t cls, uint16_t quanta)
{
    const Time duration = PfcHeader::QuantaToTime(quanta, m_rate);
    const uint8_t bit = 1U << cls;
    if (!duration.IsStrictlyPositive())
    {
        if (m_pausedMask & bit)
        {
            ResumeClass(cls);
        }
        return;
    }
    PauseState& p = m_pause[cls];
    if (!(m_pausedMask & bit))
    {
        m_pausedMask |= bit;
        p.since = Simulator::Now();
        NS_LOG_LOGIC("class " << +cls << " paused for " << duration);
        m_pfcPauseStateTrace(cls, true);
    }
    // A new time replaces the running one (IEEE 802.1Qbb).
    Simulator::Cancel(p.expiry);
    p.until = Simulator::Now() + duration;
    p.expiry = Simulator::Schedule(duration, &QbbNetDevice::PauseExpired, this);
}

void
QbbNetDevice::PauseExpired()
{
    // Every class whose pause ends now resumes before the scheduler picks,
    // so classes freed at the same instant are served in priority order.
    const Time now = Simulator::Now();
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        if ((m_pausedMask & (1U << c)) && m_pause[c].until <= now)
        {
            ResumeClass(c);
        }
    }
    StartNextFrame();
}

void
QbbNetDevice::ResumeClass(uint8_t cls)
{
    PauseState& p = m_pause[cls];
    Simulator::Cancel(p.expiry);
    m_pausedMask &= ~(1U << cls);
    m_stats.pausedTime[cls] += Simulator::Now() - p.since;
    NS_LOG_LOGIC("class " << +cls << " resumed");
    m_pfcPauseStateTrace(cls, false);
}

Ptr<Packet>
QbbNetDevice::BuildPfcFrame()
{
    static const Mac48Address pfcDestination = PfcHeader::GetDestination();
    PfcHeader pfc;
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        if (m_pfcPendingMask & (1U << c))
        {
            pfc.SetPause(c, m_pfcPending[c]);
        }
    }
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    EthernetHeader eth(false);
    eth.SetSource(m_address);
    eth.SetDestination(pfcDestination);
    eth.SetLengthType(PfcHeader::ETHERTYPE);
    frame->AddHeader(eth);

    ++m_stats.pfcFramesTx;
    const uint8_t classes = m_pfcPendingMask;
    m_pfcPendingMask = 0;
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        const uint8_t bit = 1U << c;
        if (!(classes & bit))
        {
            continue;
        }
        const uint16_t quanta = m_pfcPending[c];
        if (quanta > 0)
        {
            ++m_stats.pfcPauseTx[c];
        }
        else
        {
            ++m_stats.pfcResumeTx[c];
        }
        m_pfcPauseTxTrace(c, quanta);
        if ((m_pfcHoldMask & bit) && quanta == m_pfcHoldQuanta)
        {
            // Counted from this frame's first bit: the peer's pause runs
            // from its last bit, one wire time plus the delay later, and so
            // does the refresh's, unless it waits behind a data frame.
            Simulator::Cancel(m_pfcRefresh[c]);
            m_pfcRefresh[c] =
                Simulator::Schedule(PfcRefreshInterval(), &QbbNetDevice::RefreshPfcHold, this, c);
        }
    }
    return frame;
}

Time
QbbNetDevice::PfcRefreshInterval() const
{
    const Time pause = PfcHeader::QuantaToTime(m_pfcHoldQuanta, m_rate);
    NS_ABORT_MSG_UNLESS(m_pfcRefreshMargin < pause,
                        "QbbNetDevice: PfcRefreshMargin ("
                            << m_pfcRefreshMargin.As(Time::US)
                            << ") must be below the time of PfcPauseQuanta (" << m_pfcHoldQuanta
                            << " quanta = " << pause.As(Time::US) << " at " << m_rate << ")");
    return pause - m_pfcRefreshMargin;
}

void
QbbNetDevice::RefreshPfcHold(uint8_t cls)
{
    if (m_pfcHoldMask & (1U << cls))
    {
        SendPfcPause(cls, m_pfcHoldQuanta);
    }
}

void
QbbNetDevice::SendPfcPause(uint8_t cls, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +cls << quanta);
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    if (!m_channel)
    {
        NS_LOG_WARN("QbbNetDevice " << this << " has no channel; PFC frame not sent");
        return;
    }
    m_pfcPendingMask |= 1U << cls;
    m_pfcPending[cls] = quanta;
    StartNextFrame();
}

void
QbbNetDevice::SendPfcResume(uint8_t cls)
{
    SendPfcPause(cls, 0);
}

void
QbbNetDevice::SetPfcHold(uint8_t cls, bool hold)
{
    NS_LOG_FUNCTION(this << +cls << hold);
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    const uint8_t bit = 1U << cls;
    if (hold == bool(m_pfcHoldMask & bit))
    {
        return;
    }
    if (hold)
    {
        PfcRefreshInterval(); // check the configuration now
        m_pfcHoldMask |= bit;
        SendPfcPause(cls, m_pfcHoldQuanta);
    }
    else
    {
        m_pfcHoldMask &= ~bit;
        Simulator::Cancel(m_pfcRefresh[cls]);
        SendPfcResume(cls);
    }
}

bool
QbbNetDevice::IsPfcHeld(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    return m_pfcHoldMask & (1U << cls);
}

bool
QbbNetDevice::IsClassPaused(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    return m_pausedMask & (1U << cls);
}

void
QbbNetDevice::SetPfcRxEnabled(uint8_t cls, bool enabled)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    const uint8_t bit = 1U << cls;
    if (enabled)
    {
        m_pfcRxEnable |= bit;
        return;
    }
    m_pfcRxEnable &= ~bit;
    if (m_pausedMask & bit)
    {
        ResumeClass(cls);
        StartNextFrame();
    }
}

Time
QbbNetDevice::GetPausedTime(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES, "QbbNetDevice: class " << +cls << " is not 0-7");
    Time t = m_stats.pausedTime[cls];
    if (m_pausedMask & (1U << cls))
    {
        t += Simulator::Now() - m_pause[cls].since;
    }
    return t;
}

} // namespace ns3
