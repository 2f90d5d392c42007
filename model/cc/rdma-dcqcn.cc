/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDcqcn");
NS_OBJECT_ENSURE_REGISTERED(RdmaDcqcn);

TypeId
RdmaDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaDcqcn")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaDcqcn>()
            .AddAttribute("G",
                          "Gain g of the alpha estimate (DCQCN eq. 1 and 2). Default 1/256 "
                          "(DCQCN paper, SIGCOMM 2015); NVIDIA preset 5/1024 (DCE_TCP_G=1019 "
                          "read as the old alpha's weight in 1024ths).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&RdmaDcqcn::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialAlpha",
                          "Alpha before the first CNP, in [0, 1]. Default 1 (DCQCN paper); "
                          "NVIDIA INITIAL_ALPHA_VALUE=1023 (in 1024ths).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RdmaDcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaUpdate",
                          "Alpha rule. OnCnp (default, DCQCN paper eq. 1 and 2): alpha rises "
                          "at each CNP and decays after each AlphaUpdateInterval without one. "
                          "Periodic (NVIDIA firmware): every AlphaUpdateInterval alpha rises if "
                          "a CNP arrived in the interval, else decays.",
                          EnumValue(RdmaDcqcn::ALPHA_ON_CNP),
                          MakeEnumAccessor(&RdmaDcqcn::m_alphaMode),
                          MakeEnumChecker(RdmaDcqcn::ALPHA_ON_CNP,
                                          "OnCnp",
                                          RdmaDcqcn::ALPHA_PERIODIC,
                                          "Periodic"))
            .AddAttribute("IncreaseRule",
                          "Which counters choose the increase phase. Paper (default, DCQCN "
                          "paper section 3.1): timer and byte counter, hyper increase "
                          "i x HaiRate once both pass Threshold. TimerOnly (the HPCC "
                          "simulator's RdmaHw::RateIncEventMlx, simulation/src/point-to-point/"
                          "model/rdma-hw.cc in github.com/alibaba-edu/"
                          "High-Precision-Congestion-Control): the timer alone; additive "
                          "increase at the (Threshold + 1)-th event, one HaiRate per event "
                          "after.",
                          EnumValue(RdmaDcqcn::INCREASE_PAPER),
                          MakeEnumAccessor(&RdmaDcqcn::m_increaseRule),
                          MakeEnumChecker(RdmaDcqcn::INCREASE_PAPER,
                                          "Paper",
                                          RdmaDcqcn::INCREASE_TIMER_ONLY,
                                          "TimerOnly"))
            .AddAttribute("AlphaUpdateInterval",
                          "Alpha timer K. Default 55 us (DCQCN paper); NVIDIA DCE_TCP_RTT=1 us.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaDcqcn::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateReduceMonitorPeriod",
                          "Least time between two rate decreases of the QP; 0 = every CNP "
                          "decreases. Default 0 (DCQCN paper); NVIDIA "
                          "RATE_REDUCE_MONITOR_PERIOD=4 us.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaDcqcn::m_decreasePeriod),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DecreaseTiming",
                          "When a CNP cuts the rate. OnCnp (default; DCQCN paper section 3.1: "
                          "at the CNP): at once, or RateReduceMonitorPeriod after the previous "
                          "cut if that is later. Periodic (the HPCC simulator's "
                          "RdmaHw::CheckRateDecreaseMlx, rdma-hw.cc in github.com/alibaba-edu/"
                          "High-Precision-Congestion-Control): the QP's first CNP starts a "
                          "check every RateReduceMonitorPeriod (the first one period + 1 ns "
                          "after it) and each check cuts once if a CNP arrived since the "
                          "previous one; the first CNP itself does not cut (its "
                          "RateOnFirstCnp 1.0). Periodic with a period of 0 is OnCnp.",
                          EnumValue(RdmaDcqcn::DECREASE_ON_CNP),
                          MakeEnumAccessor(&RdmaDcqcn::m_decreaseTiming),
                          MakeEnumChecker(RdmaDcqcn::DECREASE_ON_CNP,
                                          "OnCnp",
                                          RdmaDcqcn::DECREASE_PERIODIC,
                                          "Periodic"))
            .AddAttribute("ClampTargetRate",
                          "Whether every decrease sets RT = RC (DCQCN paper eq. 1, default). "
                          "False: only if a timer increase event happened since the previous "
                          "decrease (NVIDIA CLAMP_TGT_RATE=0, CLAMP_TGT_RATE_AFTER_TIME_INC=1).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaDcqcn::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("TimeReset",
                          "Rate-increase timer T. Default 55 us (DCQCN paper); NVIDIA "
                          "RPG_TIME_RESET=300 us.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaDcqcn::m_timeReset),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteReset",
                          "Byte counter B, bytes sent between rate-increase events; 0 = off. "
                          "Default 10 MiB (DCQCN paper's 10 MB); NVIDIA RPG_BYTE_RESET=32767.",
                          UintegerValue(10 * 1024 * 1024),
                          MakeUintegerAccessor(&RdmaDcqcn::m_byteReset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Threshold",
                          "F: increase events of each counter spent in fast recovery before "
                          "additive and hyper increase. Default 5 (DCQCN paper); NVIDIA "
                          "RPG_THRESHOLD=1.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaDcqcn::m_threshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AiRate",
                          "Additive-increase step R_AI of RT. Default 40 Mb/s (DCQCN paper "
                          "section 5, not re-checked against the paper); NVIDIA "
                          "RPG_AI_RATE=5 Mb/s. The HPCC simulator scales it with the line "
                          "rate (x rate/25 Gb/s).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcn::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("HaiRate",
                          "Hyper-increase step R_HAI of RT. Default 400 Mb/s (this module: "
                          "10 x AiRate, QCN's ratio; not checked against the paper); "
                          "NVIDIA RPG_HAI_RATE=50 Mb/s.",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcn::m_haiRate),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest RC. Default 100 Mb/s (this module; the HPCC simulator uses "
                          "1 Gb/s); NVIDIA RPG_MIN_RATE=1 Mb/s.",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcn::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

RdmaDcqcn::RdmaDcqcn()
    : m_g(1.0 / 256),
      m_initialAlpha(1.0),
      m_alphaMode(ALPHA_ON_CNP),
      m_increaseRule(INCREASE_PAPER),
      m_decreaseTiming(DECREASE_ON_CNP),
      m_alphaInterval(MicroSeconds(55)),
      m_decreasePeriod(0),
      m_clampTargetRate(true),
      m_timeReset(MicroSeconds(55)),
      m_byteReset(10 * 1024 * 1024),
      m_threshold(5),
      m_aiRate(DataRate(40'000'000ULL)),
      m_haiRate(DataRate(400'000'000ULL)),
      m_minRate(DataRate(100'000'000ULL))
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcn::RdmaDcqcn(const RdmaDcqcn& other)
    : RdmaCongestionOps(other),
      m_g(other.m_g),
      m_initialAlpha(other.m_initialAlpha),
      m_alphaMode(other.m_alphaMode),
      m_increaseRule(other.m_increaseRule),
      m_decreaseTiming(other.m_decreaseTiming),
      m_alphaInterval(other.m_alphaInterval),
      m_decreasePeriod(other.m_decreasePeriod),
      m_clampTargetRate(other.m_clampTargetRate),
      m_timeReset(other.m_timeReset),
      m_byteReset(other.m_byteReset),
      m_threshold(other.m_threshold),
      m_aiRate(other.m_aiRate),
      m_haiRate(other.m_haiRate),
      m_minRate(other.m_minRate)
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcn::~RdmaDcqcn()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaDcqcn::GetName() const
{
    return "RdmaDcqcn";
}

Ptr<RdmaCongestionOps>
RdmaDcqcn::Fork()
{
    return CopyObject<RdmaDcqcn>(this);
}

bool
RdmaDcqcn::NeedsSendRecords() const
{
    return false;
}

std::vector<std::pair<std::string, Ptr<AttributeValue>>>
RdmaDcqcn::NvidiaFirmwareDefaults()
{
    return {
        {"G", Create<DoubleValue>((1024.0 - 1019.0) / 1024.0)},
        {"InitialAlpha", Create<DoubleValue>(1023.0 / 1024.0)},
        {"AlphaUpdate", Create<EnumValue>(ALPHA_PERIODIC)},
        {"AlphaUpdateInterval", Create<TimeValue>(MicroSeconds(1))},
        {"RateReduceMonitorPeriod", Create<TimeValue>(MicroSeconds(4))},
        {"ClampTargetRate", Create<BooleanValue>(false)},
        {"TimeReset", Create<TimeValue>(MicroSeconds(300))},
        {"ByteReset", Create<UintegerValue>(32767)},
        {"Threshold", Create<UintegerValue>(1)},
        {"AiRate", Create<DataRateValue>(DataRate(5'000'000ULL))},
        {"HaiRate", Create<DataRateValue>(DataRate(50'000'000ULL))},
        {"MinRate", Create<DataRateValue>(DataRate(1'000'000ULL))},
    };
}

void
RdmaDcqcn::SetNvidiaFirmwareDefaults(ObjectFactory& factory)
{
    for (const auto& [name, value] : NvidiaFirmwareDefaults())
    {
        factory.Set(name, *value);
    }
}

void
RdmaDcqcn::SetNvidiaFirmwareDefaults()
{
    for (const auto& [name, value] : NvidiaFirmwareDefaults())
    {
        SetAttribute(name, *value);
    }
}

double
RdmaDcqcn::GetAlpha() const
{
    return AlphaAt(Simulator::Now());
}

DataRate
RdmaDcqcn::GetTargetRate() const
{
    return DataRate(static_cast<uint64_t>(std::llround(m_targetRate)));
}

uint32_t
RdmaDcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
RdmaDcqcn::GetByteStage() const
{
    return m_byteStage;
}

uint64_t
RdmaDcqcn::GetDecreaseCount() const
{
    return m_decreases;
}

void
RdmaDcqcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_state = nullptr;
    RdmaCongestionOps::DoDispose();
}

void
RdmaDcqcn::DoInit(Ptr<RdmaCcState> state)
{
    NS_LOG_FUNCTION(this << state);
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_state = state;
    m_targetRate = static_cast<double>(state->m_lineRate.GetBitRate());
    m_alpha = m_initialAlpha;
    m_alphaTime = Simulator::Now();
    m_alphaStarted = false;
    m_cnpInInterval = false;
    m_increasing = false;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
    m_decreased = false;
    m_lastDecrease = Time(0);
    m_decreases = 0;
    m_gridStarted = false;
    m_gridOrigin = Time(0);
    m_cnpSinceCheck = false;
}

double
RdmaDcqcn::AlphaAt(Time now) const
{
    if (!m_alphaStarted || now < m_alphaTime)
    {
        return m_alpha;
    }
    int64_t n = (now - m_alphaTime).GetTimeStep() / m_alphaInterval.GetTimeStep();
    if (n == 0)
    {
        return m_alpha;
    }
    if (m_alphaMode == ALPHA_ON_CNP)
    {
        // DCQCN eq. 2: one decay per K without a CNP.
        return m_alpha * std::pow(1.0 - m_g, static_cast<double>(n));
    }
    // Periodic: the interval that ends first saw the pending CNP (if any),
    // the n - 1 after it saw none.
    double first = (1.0 - m_g) * m_alpha + (m_cnpInInterval ? m_g : 0.0);
    return first * std::pow(1.0 - m_g, static_cast<double>(n - 1));
}

void
RdmaDcqcn::AdvanceAlpha(Time now)
{
    if (!m_alphaStarted || now < m_alphaTime)
    {
        return;
    }
    int64_t n = (now - m_alphaTime).GetTimeStep() / m_alphaInterval.GetTimeStep();
    if (n == 0)
    {
        return;
    }
    m_alpha = AlphaAt(now);
    m_alphaTime += m_alphaInterval * n;
    m_cnpInInterval = false;
}

void
RdmaDcqcn::DoOnCnp(Ptr<RdmaCcState> state)
{
    Time now = Simulator::Now();
    NS_LOG_FUNCTION(this << state << now);
    if (!m_alphaStarted)
    {
        m_alphaStarted = true;
        m_alpha = m_initialAlpha;
        m_alphaTime = now;
        m_cnpInInterval = false;
    }
    else
    {
        AdvanceAlpha(now);
    }
    const bool periodic = m_decreaseTiming == DECREASE_PERIODIC && !m_decreasePeriod.IsZero();
    bool mayDecrease = !periodic && (m_decreasePeriod.IsZero() || !m_decreased ||
                                     now - m_lastDecrease >= m_decreasePeriod);
    if (m_alphaMode == ALPHA_ON_CNP)
    {
        // DCQCN eq. 1: the cut uses alpha before this CNP's update; the
        // alpha timer K restarts at the CNP.
        if (mayDecrease)
        {
            DecreaseRate();
        }
        m_alpha = (1.0 - m_g) * m_alpha + m_g;
        m_alphaTime = now;
    }
    else
    {
        m_cnpInInterval = true;
        if (mayDecrease)
        {
            DecreaseRate();
        }
    }
    if (periodic)
    {
        NoteCnpForPeriodicCheck(now);
    }
    else if (!mayDecrease && !m_decreaseEvent.IsRunning())
    {
        m_decreaseEvent = Simulator::Schedule(m_lastDecrease + m_decreasePeriod - now,
                                              &RdmaDcqcn::DeferredDecrease,
                                              this);
    }
}

void
RdmaDcqcn::NoteCnpForPeriodicCheck(Time now)
{
    if (!m_gridStarted)
    {
        // rdma-hw.cc cnp_received_mlx: ScheduleDecreaseRateMlx(q, 1), "1 ns to
        // make sure rate decrease is after alpha update"; the first CNP counts.
        m_gridStarted = true;
        m_gridOrigin = now + NanoSeconds(1);
    }
    m_cnpSinceCheck = true;
    if (m_decreaseEvent.IsRunning())
    {
        return;
    }
    // The simulator's check reschedules itself forever; here a check is an
    // event only when a CNP waits for it, at the same grid point.
    int64_t k = 1;
    if (now >= m_gridOrigin)
    {
        k += (now - m_gridOrigin).GetTimeStep() / m_decreasePeriod.GetTimeStep();
    }
    m_decreaseEvent = Simulator::Schedule(m_gridOrigin + m_decreasePeriod * k - now,
                                          &RdmaDcqcn::PeriodicDecreaseCheck,
                                          this);
}

void
RdmaDcqcn::PeriodicDecreaseCheck()
{
    NS_LOG_FUNCTION(this);
    if (!m_cnpSinceCheck)
    {
        return;
    }
    m_cnpSinceCheck = false;
    AdvanceAlpha(Simulator::Now());
    DecreaseRate();
}

void
RdmaDcqcn::DeferredDecrease()
{
    NS_LOG_FUNCTION(this);
    AdvanceAlpha(Simulator::Now());
    DecreaseRate();
}

void
RdmaDcqcn::DecreaseRate()
{
    double rc = static_cast<double>(m_state->m_rate.Get().GetBitRate());
    double alpha = m_alpha;
    if (m_clampTargetRate || m_timerStage > 0)
    {
        m_targetRate = rc;
    }
    double minRate = static_cast<double>(m_minRate.GetBitRate());
    SetRate(m_state, std::max(rc * (1.0 - alpha / 2.0), minRate));
    NS_LOG_LOGIC("decrease: alpha " << alpha << " RT " << m_targetRate << " RC " << rc << " -> "
                                    << m_state->m_rate.Get());
    m_decreased = true;
    m_lastDecrease = Simulator::Now();
    ++m_decreases;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
    m_increasing = m_state->m_rate.Get() < m_state->m_lineRate;
    // This cut answers any CNP held back by RateReduceMonitorPeriod: a
    // pending deferred cut would be a second one for the same CNPs.
    m_decreaseEvent.Cancel();
    m_increaseEvent.Cancel();
    if (m_increasing)
    {
        m_increaseEvent = Simulator::Schedule(m_timeReset, &RdmaDcqcn::IncreaseTimerExpired, this);
    }
}

void
RdmaDcqcn::DoOnSend(Ptr<RdmaCcState>, uint32_t bytes)
{
    if (!m_increasing || m_byteReset == 0 || m_increaseRule == INCREASE_TIMER_ONLY)
    {
        return;
    }
    m_bytesCounted += bytes;
    while (m_increasing && m_bytesCounted >= m_byteReset)
    {
        m_bytesCounted -= m_byteReset;
        ++m_byteStage;
        IncreaseRate();
    }
}

void
RdmaDcqcn::IncreaseTimerExpired()
{
    NS_LOG_FUNCTION(this);
    ++m_timerStage;
    IncreaseRate();
    if (m_increasing)
    {
        m_increaseEvent = Simulator::Schedule(m_timeReset, &RdmaDcqcn::IncreaseTimerExpired, this);
    }
}

void
RdmaDcqcn::IncreaseRate()
{
    double line = static_cast<double>(m_state->m_lineRate.GetBitRate());
    uint32_t most = std::max(m_timerStage, m_byteStage);
    uint32_t least = std::min(m_timerStage, m_byteStage);
    if (m_increaseRule == INCREASE_TIMER_ONLY)
    {
        most = m_timerStage;
        // AI at T = F + 1 (least <= F), one HAI step from T = F + 2.
        least = m_timerStage > m_threshold + 1 ? m_threshold + 1 : m_threshold;
    }
    if (most <= m_threshold)
    {
        // Fast recovery: RT unchanged.
    }
    else if (least > m_threshold)
    {
        double i = static_cast<double>(least - m_threshold);
        m_targetRate += i * static_cast<double>(m_haiRate.GetBitRate());
    }
    else
    {
        m_targetRate += static_cast<double>(m_aiRate.GetBitRate());
    }
    m_targetRate = std::min(m_targetRate, line);
    double rc = static_cast<double>(m_state->m_rate.Get().GetBitRate());
    SetRate(m_state, (m_targetRate + rc) / 2.0);
    NS_LOG_LOGIC("increase T " << m_timerStage << " BC " << m_byteStage << " RT " << m_targetRate
                               << " RC " << m_state->m_rate.Get());
    if (m_state->m_rate.Get() >= m_state->m_lineRate)
    {
        m_increasing = false;
        m_increaseEvent.Cancel();
    }
}

} // namespace ns3
