/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-rccc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRccc");
NS_OBJECT_ENSURE_REGISTERED(RdmaRcccPacer);

namespace
{
/// \return the signed distance from `base` to `wire` modulo `modulus` (a power of two)
int64_t
WrapDiff(uint64_t wire, uint64_t base, uint64_t modulus)
{
    const uint64_t d = (wire - base) & (modulus - 1);
    return d >= modulus / 2 ? static_cast<int64_t>(d) - static_cast<int64_t>(modulus)
                            : static_cast<int64_t>(d);
}

/// \return bytes in whole quanta, rounded up \param bytes a count
uint64_t
QuantaCeil(int64_t bytes)
{
    return bytes <= 0 ? 0
                      : (static_cast<uint64_t>(bytes) + RdmaRcccSender::QUANTUM_BYTES - 1) /
                            RdmaRcccSender::QUANTUM_BYTES;
}
} // namespace

void
RdmaRcccSender::Init(uint64_t maxCredit, uint32_t mtu)
{
    m_maxCredit = maxCredit;
    m_mtu = mtu;
    m_credit = static_cast<int64_t>(maxCredit);
    m_pull = 0;
    m_speculating = true;
}

bool
RdmaRcccSender::CanSend() const
{
    return m_credit > 0;
}

int64_t
RdmaRcccSender::GetCredit() const
{
    return m_credit;
}

bool
RdmaRcccSender::IsSpeculating() const
{
    return m_speculating;
}

uint16_t
RdmaRcccSender::OnSend(uint32_t bytes,
                       uint64_t backlog,
                       uint64_t resend,
                       uint64_t window,
                       uint32_t activeSenders)
{
    m_credit -= bytes;
    return PullTarget(backlog, resend, window, activeSenders);
}

uint16_t
RdmaRcccSender::PullTarget(uint64_t backlog,
                           uint64_t resend,
                           uint64_t window,
                           uint32_t activeSenders) const
{
    int64_t want = static_cast<int64_t>(backlog + resend);
    if (window > 0)
    {
        want = std::min<int64_t>(want, static_cast<int64_t>(window + m_mtu));
    }
    want = std::min<int64_t>(want, static_cast<int64_t>(m_maxCredit)) - m_credit;
    if (m_speculating && want < static_cast<int64_t>(m_mtu) && backlog > 0)
    {
        want = m_mtu; // a short transfer still asks for a packet's worth
    }
    if (activeSenders > 1)
    {
        want /= static_cast<int64_t>(activeSenders);
    }
    const uint64_t target = m_pull + QuantaCeil(want);
    return static_cast<uint16_t>(target & (TARGET_MODULUS - 1));
}

bool
RdmaRcccSender::OnCredit(uint32_t wirePull)
{
    const int64_t more = WrapDiff(wirePull, m_pull, PULL_MODULUS);
    if (more <= 0)
    {
        return false;
    }
    m_pull += more;
    m_credit = std::min<int64_t>(m_credit + more * QUANTUM_BYTES, m_maxCredit);
    return true;
}

void
RdmaRcccSender::OnTimeout()
{
    StopSpeculating();
    if (m_credit <= 0)
    {
        m_credit = 1; // one request: UecSrc sends an RTS with its pull target
    }
}

void
RdmaRcccSender::StopSpeculating()
{
    if (m_speculating)
    {
        m_speculating = false;
        m_credit = std::min<int64_t>(m_credit, 0);
    }
}

TypeId
RdmaRcccPacer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaRcccPacer")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaRcccPacer>()
            .AddAttribute("Enabled",
                          "RCCC on the NIC: its QPs' requests wait for credit (a window of "
                          "it at first), and it grants credit to the QPs that send to it. "
                          "Every NIC of a run should agree. Default false.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaRcccPacer::m_enabled),
                          MakeBooleanChecker())
            .AddAttribute("PullRate",
                          "Share of the NIC's line rate at which credit is granted, (0, 1] "
                          "(UEC's reference model: 0.99, just below line rate).",
                          DoubleValue(0.99),
                          MakeDoubleAccessor(&RdmaRcccPacer::m_pullRate),
                          MakeDoubleChecker<double>(1e-6, 1))
            .AddAttribute("CreditPerPull",
                          "Credit one credit frame grants at most, bytes (UEC's reference "
                          "model: 4 MTUs of 4 KiB).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&RdmaRcccPacer::m_creditPerPull),
                          MakeUintegerChecker<uint32_t>(RdmaRcccSender::QUANTUM_BYTES))
            .AddAttribute("OversubscribedCc",
                          "The receiver also controls its credit rate by the CE marks and "
                          "trimmed headers of what arrives (RdmaRcccRateControl), for RCCC "
                          "alone on a fabric whose core is oversubscribed: htsim_uec's "
                          "OversubscribedCC, which it turns on there by itself. Default false.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaRcccPacer::m_oversubscribedCc),
                          MakeBooleanChecker())
            .AddAttribute("OversubscribedMinRate",
                          "With OversubscribedCc: the lowest credit rate, a share of PullRate "
                          "in (0, 1] (htsim_uec: 0.9 / the oversubscription ratio, at least "
                          "0.01).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RdmaRcccPacer::m_minRate),
                          MakeDoubleChecker<double>(1e-6, 1));
    return tid;
}

RdmaRcccPacer::RdmaRcccPacer() = default;

RdmaRcccPacer::~RdmaRcccPacer() = default;

void
RdmaRcccPacer::DoDispose()
{
    m_timer.Cancel();
    m_controlTimer.Cancel();
    m_rateControl.reset();
    m_intervalRng = nullptr;
    m_sinks.clear();
    m_active.clear();
    m_idle.clear();
    m_send = SendCredit();
    Object::DoDispose();
}

bool
RdmaRcccPacer::IsEnabled() const
{
    return m_enabled;
}

bool
RdmaRcccPacer::IsSetUp() const
{
    return !m_send.IsNull();
}

void
RdmaRcccPacer::Setup(DataRate lineRate, uint64_t maxCredit, SendCredit send)
{
    NS_ABORT_MSG_IF(lineRate.GetBitRate() == 0, "RdmaRcccPacer::Setup: a line rate of 0");
    m_pullBytesPerSecond = lineRate.GetBitRate() * m_pullRate / 8;
    m_maxCreditQuanta = maxCredit / RdmaRcccSender::QUANTUM_BYTES;
    m_send = send;
}

void
RdmaRcccPacer::SetBaseRtt(Time baseRtt)
{
    m_baseRtt = baseRtt;
}

void
RdmaRcccPacer::CountArrival(bool trimmed, bool ce)
{
    if (!m_oversubscribedCc)
    {
        return;
    }
    if (!m_rateControl)
    {
        m_rateControl = std::make_unique<RdmaRcccRateControl>(m_minRate);
        m_intervalRng = CreateObject<UniformRandomVariable>();
    }
    trimmed ? m_rateControl->OnTrimmed() : m_rateControl->OnRequest(ce);
    if (!m_controlTimer.IsRunning())
    {
        ScheduleControl();
    }
}

void
RdmaRcccPacer::ScheduleControl()
{
    // OversubscribedCC::nextInterval: (0.75 + U / 2) x 1.5 base RTTs.
    const double factor = (0.75 + m_intervalRng->GetValue(0, 1) / 2) * 1.5;
    m_controlTimer = Simulator::Schedule(Seconds(factor * m_baseRtt.GetSeconds()),
                                         &RdmaRcccPacer::ControlRate,
                                         this);
}

void
RdmaRcccPacer::ControlRate()
{
    const bool quiet = m_rateControl->IsQuiet();
    if (m_rateControl->Update() >= 1 && quiet)
    {
        return; // idle at full rate: the next arrival starts an interval
    }
    ScheduleControl();
}

double
RdmaRcccPacer::GetRate() const
{
    return m_rateControl ? m_rateControl->GetRate() : 1.0;
}

RdmaRcccPacer::Sink&
RdmaRcccPacer::Get(uint32_t qpn)
{
    return m_sinks[qpn];
}

bool
RdmaRcccPacer::TakeTarget(uint32_t qpn, uint16_t wireTarget)
{
    Sink& s = Get(qpn);
    const uint64_t target =
        s.latestPull + WrapDiff(wireTarget, s.latestPull, RdmaRcccSender::TARGET_MODULUS);
    if (static_cast<int64_t>(target) <= static_cast<int64_t>(s.highestTarget))
    {
        return false;
    }
    s.highestTarget = target;
    return true;
}

void
RdmaRcccPacer::OnRequest(uint32_t qpn, uint16_t wireTarget)
{
    if (TakeTarget(qpn, wireTarget) && !Get(qpn).active)
    {
        Activate(qpn);
    }
}

void
RdmaRcccPacer::OnTrimmed(uint32_t qpn, uint16_t wireTarget)
{
    TakeTarget(qpn, wireTarget);
    if (!Get(qpn).active)
    {
        Activate(qpn); // the resend needs credit (its sender asks if it has none)
    }
}

void
RdmaRcccPacer::RemoveQp(uint32_t qpn)
{
    m_sinks.erase(qpn); // stale list entries are skipped when met
}

void
RdmaRcccPacer::Activate(uint32_t qpn)
{
    Get(qpn).active = true;
    m_active.push_back(qpn);
    if (!m_timer.IsRunning())
    {
        m_timer = Simulator::ScheduleNow(&RdmaRcccPacer::Pace, this);
    }
}

void
RdmaRcccPacer::Pace()
{
    const uint64_t perPull = m_creditPerPull / RdmaRcccSender::QUANTUM_BYTES;
    uint32_t qpn = 0;
    uint64_t granted = 0;
    bool found = false;
    while (!found && !m_active.empty())
    {
        qpn = m_active.front();
        m_active.pop_front();
        auto it = m_sinks.find(qpn);
        if (it == m_sinks.end() || !it->second.active)
        {
            continue; // destroyed
        }
        found = true;
        Sink& s = it->second;
        // Only as much as it asked for (UecSink::pull).
        const uint64_t before = s.latestPull;
        s.latestPull = std::max(before, std::min(before + perPull, s.highestTarget));
        granted = s.latestPull - before;
        if (s.highestTarget > s.latestPull)
        {
            m_active.push_back(qpn);
        }
        else
        {
            s.active = false;
            if (!s.idle)
            {
                s.idle = true;
                m_idle.push_back(qpn);
            }
        }
    }
    while (!found && !m_idle.empty())
    {
        qpn = m_idle.front();
        m_idle.pop_front();
        auto it = m_sinks.find(qpn);
        if (it == m_sinks.end() || !it->second.idle)
        {
            continue;
        }
        found = true;
        // A slow pull: credit beyond the demand, up to MaxCredit of it.
        Sink& s = it->second;
        s.latestPull += perPull;
        granted = perPull;
        ++m_stats.slowCredits;
        const uint64_t ahead = s.latestPull > s.highestTarget ? s.latestPull - s.highestTarget : 0;
        if (s.highestTarget <= s.latestPull && ahead < m_maxCreditQuanta)
        {
            m_idle.push_back(qpn);
        }
        else
        {
            s.idle = false;
        }
    }
    if (!found)
    {
        return; // nothing to pace until a request arrives
    }
    ++m_stats.credits;
    m_stats.grantedBytes += granted * RdmaRcccSender::QUANTUM_BYTES;
    m_send(qpn, static_cast<uint32_t>(m_sinks[qpn].latestPull & (RdmaRcccSender::PULL_MODULUS - 1)));
    // The next grant after this one's bytes at PullRate (a frame that granted
    // nothing still takes 1 KiB's time, as UecPullPacer).
    const uint64_t quanta = granted > 0 ? granted : 1024 / RdmaRcccSender::QUANTUM_BYTES;
    m_timer = Simulator::Schedule(
        Seconds(quanta * RdmaRcccSender::QUANTUM_BYTES / (m_pullBytesPerSecond * GetRate())),
        &RdmaRcccPacer::Pace,
        this);
}

const RdmaRcccPacer::Stats&
RdmaRcccPacer::GetStats() const
{
    return m_stats;
}

} // namespace ns3
