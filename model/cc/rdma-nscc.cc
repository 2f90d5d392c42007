/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nscc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNscc");
NS_OBJECT_ENSURE_REGISTERED(RdmaNscc);

TypeId
RdmaNscc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNscc")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNscc>()
            .AddAttribute("TargetQueueDelay",
                          "Target queueing delay T, the delay above which ECN-echoed ACKs "
                          "decrease the window and unmarked ones only increase it fairly. 0 "
                          "(default) = TargetBaseRtts x the network's base RTT (RdmaNic "
                          "BaseRtt).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaNscc::m_target),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TargetBaseRtts",
                          "T in base RTTs when TargetQueueDelay is 0. Default 1, UEC's "
                          "reference model without trimming; it takes 0.75 with trimming "
                          "(rdma-sim sets 0.75 when switch.trim trims a class and this key "
                          "is not given).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RdmaNscc::m_targetRtts),
                          MakeDoubleChecker<double>(0.01))
            .AddAttribute("ReferenceRate",
                          "Line rate of NSCC's reference network, which the gains scale from "
                          "(a = BDP / reference BDP). Default 100 Gb/s (UEC 1.0).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&RdmaNscc::m_referenceRate),
                          MakeDataRateChecker())
            .AddAttribute("ReferenceRtt",
                          "RTT of NSCC's reference network (b = T / ReferenceRtt). Default "
                          "12 us (UEC 1.0).",
                          TimeValue(MicroSeconds(12)),
                          MakeTimeAccessor(&RdmaNscc::m_referenceRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FairIncrease",
                          "Fair increase, in MSS x a per acknowledged byte, applied as "
                          "pending / W (so about FairIncrease x a MSS per RTT). Default 5.",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&RdmaNscc::m_fairIncrease),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("ProportionalIncrease",
                          "Proportional increase gain: alpha = this x MSS x a x b / T. "
                          "Default 4.",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&RdmaNscc::m_propIncrease),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Eta",
                          "Increase added once per base RTT, in MSS x a. Default 0.15.",
                          DoubleValue(0.15),
                          MakeDoubleAccessor(&RdmaNscc::m_eta),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FastIncreaseScale",
                          "Fast increase, window bytes per acknowledged byte, times a. "
                          "Default 0.25.",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&RdmaNscc::m_fastScale),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FastIncreaseDelay",
                          "Fast increase starts once a window's worth of bytes is "
                          "acknowledged with a delay below this. Default 1 us.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RdmaNscc::m_fastDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Gamma",
                          "Multiplicative decrease gain: W x max(1 - Gamma (D - T) / D, 1/2). "
                          "Default 0.8.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&RdmaNscc::m_gamma),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("DelayEwmaWeight",
                          "Weight of a new sample in the average delay D. Default 0.0125.",
                          DoubleValue(0.0125),
                          MakeDoubleAccessor(&RdmaNscc::m_delayWeight),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxWindowBdp",
                          "Largest window, in bandwidth-delay products (line rate x base "
                          "RTT). Default 1.5.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&RdmaNscc::m_maxWindowBdp),
                          MakeDoubleChecker<double>(0.01))
            .AddAttribute("QuickAdapt",
                          "Quick adapt: after a trimming NAK or a delay above 4 T, a period "
                          "that acknowledged less than MaxWindow / 2^QuickAdaptGate sets the "
                          "window to what it acknowledged. Default on.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNscc::m_quickAdapt),
                          MakeBooleanChecker())
            .AddAttribute("QuickAdaptGate",
                          "Quick adapt acts below MaxWindow / 2^QuickAdaptGate acknowledged "
                          "bytes per period. Default 3.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaNscc::m_quickAdaptGate),
                          MakeUintegerChecker<uint32_t>(0, 30))
            .AddAttribute("InitialWindow",
                          "Window at the QP's start, bytes; 0 (default) = the largest "
                          "window (MaxWindowBdp BDPs).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNscc::m_initialWindow),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

RdmaNscc::RdmaNscc()
    : m_target(Time(0)),
      m_targetRtts(1.0),
      m_referenceRate("100Gbps"),
      m_referenceRtt(MicroSeconds(12)),
      m_fairIncrease(5.0),
      m_propIncrease(4.0),
      m_eta(0.15),
      m_fastScale(0.25),
      m_fastDelay(MicroSeconds(1)),
      m_gamma(0.8),
      m_delayWeight(0.0125),
      m_maxWindowBdp(1.5),
      m_quickAdaptGate(3),
      m_quickAdapt(true),
      m_initialWindow(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaNscc::RdmaNscc(const RdmaNscc& other)
    : RdmaCongestionOps(other),
      m_target(other.m_target),
      m_targetRtts(other.m_targetRtts),
      m_referenceRate(other.m_referenceRate),
      m_referenceRtt(other.m_referenceRtt),
      m_fairIncrease(other.m_fairIncrease),
      m_propIncrease(other.m_propIncrease),
      m_eta(other.m_eta),
      m_fastScale(other.m_fastScale),
      m_fastDelay(other.m_fastDelay),
      m_gamma(other.m_gamma),
      m_delayWeight(other.m_delayWeight),
      m_maxWindowBdp(other.m_maxWindowBdp),
      m_quickAdaptGate(other.m_quickAdaptGate),
      m_quickAdapt(other.m_quickAdapt),
      m_initialWindow(other.m_initialWindow)
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaNscc::GetName() const
{
    return "RdmaNscc";
}

Ptr<RdmaCongestionOps>
RdmaNscc::Fork()
{
    return CopyObject<RdmaNscc>(this);
}

double
RdmaNscc::GetCwnd() const
{
    return m_cwnd;
}

Time
RdmaNscc::GetAverageDelay() const
{
    return Seconds(m_avgDelay);
}

Time
RdmaNscc::GetTarget() const
{
    return Seconds(m_targetSec);
}

double
RdmaNscc::GetMaxWindow() const
{
    return m_maxWnd;
}

void
RdmaNscc::DoInit(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    m_lineBytesPerSec = static_cast<double>(state->m_lineRate.GetBitRate()) / 8;
    m_networkRtt = state->m_baseRtt.GetSeconds();
    m_targetSec =
        m_target.IsStrictlyPositive() ? m_target.GetSeconds() : m_targetRtts * m_networkRtt;
    m_mss = state->m_mtu;
    const double refRtt = m_referenceRtt.GetSeconds();
    const double refBdp = static_cast<double>(m_referenceRate.GetBitRate()) / 8 * refRtt;
    const double a = m_lineBytesPerSec * m_networkRtt / refBdp;
    const double b = m_targetSec / refRtt;
    m_fi = m_fairIncrease * m_mss * a;
    m_alpha = m_propIncrease * m_mss * a * b / m_targetSec;
    m_etaBytes = m_eta * m_mss * a;
    m_fiScale = m_fastScale * a;
    m_adjustBytes = 8 * m_mss;

    m_baseRtt = m_networkRtt;
    m_maxWnd = m_maxWindowBdp * m_lineBytesPerSec * m_baseRtt;
    m_cwnd = m_initialWindow > 0 ? static_cast<double>(m_initialWindow) : m_maxWnd;
    m_avgDelay = 0;
    m_pending = 0;
    m_received = 0;
    m_achieved = 0;
    m_fastCount = 0;
    m_increasing = false;
    m_toIgnore = 0;
    m_ignored = 0;
    m_triggerQa = false;
    m_qaEnd = Time(0);
    m_lastDecrease = Time(0);
    m_lastAdjust = Time(0);
    m_inFlight = 0;
    // A packet starts only if all of it fits the window (UE 1.0's NSCC;
    // UecSrc::can_send_NSCC: cwnd >= in flight + the packet).
    state->m_wholePacketWindow = true;
    Apply(state);
}

void
RdmaNscc::DoOnSend(Ptr<RdmaCcState> state, uint32_t)
{
    m_inFlight = static_cast<double>(state->m_bytesInFlight);
}

void
RdmaNscc::LowerBaseRtt(Time rtt)
{
    if (rtt.GetSeconds() < m_baseRtt)
    {
        m_baseRtt = rtt.GetSeconds();
        m_maxWnd = m_maxWindowBdp * m_lineBytesPerSec * m_baseRtt;
    }
}

void
RdmaNscc::UpdateAverage(double delay, bool ecn)
{
    // Delay above the target that no switch marked is not queueing the
    // window caused: it counts as a quarter of the base RTT.
    const double sample = (!ecn && delay > m_targetSec) ? 0.25 * m_baseRtt : delay;
    m_avgDelay = m_delayWeight * sample + (1 - m_delayWeight) * m_avgDelay;
}

void
RdmaNscc::DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << state << ack.ackedBytes << ack.rtt << ack.ecnEcho);
    m_inFlight = static_cast<double>(state->m_bytesInFlight);
    const double acked = static_cast<double>(ack.ackedBytes);
    m_achieved += acked;
    m_received += acked;
    m_ignored += acked;

    double delay = m_avgDelay;
    if (ack.rtt.IsStrictlyPositive())
    {
        LowerBaseRtt(ack.rtt);
        if (ack.rtt.GetSeconds() >= m_baseRtt)
        {
            delay = ack.rtt.GetSeconds() - m_baseRtt;
            UpdateAverage(delay, ack.ecnEcho);
        }
    }

    if (QuickAdapt(false, ack.ecnEcho, delay))
    {
        Apply(state);
        return;
    }
    if (!ack.ecnEcho && delay >= m_targetSec)
    {
        m_pending += m_fi * acked;
    }
    else if (!ack.ecnEcho)
    {
        Increase(acked, delay);
    }
    else if (delay >= m_targetSec)
    {
        Decrease();
    }
    // ECN below the target: the window stays (the echo moves the path).
    m_cwnd = std::clamp(m_cwnd, m_mss, std::max(m_mss, m_maxWnd));
    const Time now = Simulator::Now();
    if (m_received > m_adjustBytes || (now - m_lastAdjust).GetSeconds() > m_networkRtt)
    {
        Fulfill();
    }
    Apply(state);
}

bool
RdmaNscc::QuickAdapt(bool loss, bool ecn, double delay)
{
    if (!m_quickAdapt)
    {
        return false;
    }
    bool done = false;
    const Time now = Simulator::Now();
    if (m_ignored < m_toIgnore && ecn)
    {
        done = true; // a NAK or mark of what was in flight when it last acted
    }
    else if (now > m_qaEnd)
    {
        const double gate = m_maxWnd / std::ldexp(1.0, static_cast<int>(m_quickAdaptGate));
        if (!m_qaEnd.IsZero() && (m_triggerQa || loss || delay > 4 * m_targetSec) &&
            m_achieved < gate)
        {
            m_cwnd = std::max(m_achieved, m_mss);
            m_toIgnore = m_inFlight;
            m_ignored = 0;
            m_triggerQa = false;
            done = true;
            NS_LOG_LOGIC("quick adapt to " << m_cwnd);
        }
        m_achieved = 0;
        m_qaEnd = now + Seconds(m_baseRtt + m_targetSec);
    }
    if (done)
    {
        m_pending = 0;
        m_received = 0;
    }
    return done;
}

void
RdmaNscc::Increase(double acked, double delay)
{
    if (delay < m_fastDelay.GetSeconds())
    {
        m_fastCount += acked;
        if (m_fastCount > m_cwnd || m_increasing)
        {
            m_cwnd += acked * m_fiScale;
            m_increasing = true;
            return;
        }
    }
    else
    {
        m_fastCount = 0;
    }
    m_increasing = false;
    m_pending += m_alpha * acked * (m_targetSec - delay);
}

void
RdmaNscc::Decrease()
{
    m_increasing = false;
    m_fastCount = 0;
    const Time now = Simulator::Now();
    if (m_avgDelay > m_targetSec && (now - m_lastDecrease).GetSeconds() > m_baseRtt)
    {
        m_cwnd *= std::max(1 - m_gamma * (m_avgDelay - m_targetSec) / m_avgDelay, 0.5);
        m_cwnd = std::max(m_cwnd, m_mss);
        m_lastDecrease = now;
        NS_LOG_LOGIC("decrease to " << m_cwnd);
    }
}

void
RdmaNscc::Fulfill()
{
    m_cwnd += m_pending / m_cwnd;
    const Time now = Simulator::Now();
    if ((now - m_lastAdjust).GetSeconds() >= m_networkRtt)
    {
        m_cwnd += m_etaBytes;
        m_lastAdjust = now;
    }
    m_pending = 0;
    m_received = 0;
}

void
RdmaNscc::DoOnTrimNak(Ptr<RdmaCcState> state, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << state << bytes);
    m_inFlight = static_cast<double>(state->m_bytesInFlight);
    m_ignored += bytes;
    // A trimmed packet queued about as long as the network's RTT.
    UpdateAverage(m_networkRtt, true);
    m_triggerQa = true;
    if (!QuickAdapt(true, true, 0))
    {
        m_cwnd -= bytes;
    }
    Apply(state);
}

void
RdmaNscc::DoOnTimeout(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    // What was in flight is to be resent: each such packet leaves the window.
    m_cwnd -= m_inFlight;
    m_inFlight = 0;
    Apply(state);
}

void
RdmaNscc::Apply(Ptr<RdmaCcState> state)
{
    m_cwnd = std::clamp(m_cwnd, m_mss, std::max(m_mss, m_maxWnd));
    state->m_window = static_cast<uint64_t>(std::llround(m_cwnd));
}

} // namespace ns3
