/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-loss-recovery.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaLossRecovery);
NS_OBJECT_ENSURE_REGISTERED(RdmaGoBackN);
NS_OBJECT_ENSURE_REGISTERED(RdmaSelectiveRepeat);

TypeId
RdmaLossRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaLossRecovery").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

void
RdmaLossRecovery::OnAck(RdmaRecoveryState&)
{
}

void
RdmaLossRecovery::OnTrimmed(RdmaRecoveryState& state, uint32_t expectedPsn, uint32_t)
{
    if (PsnDiff(state.nextPsn, expectedPsn) > 0)
    {
        state.nextPsn = expectedPsn;
    }
}

Time
RdmaLossRecovery::GetAckRequestPeriod() const
{
    return Time(0);
}

Time
RdmaLossRecovery::GetLossDeadline(const RdmaRecoveryState&, Time) const
{
    return Time(0);
}

void
RdmaLossRecovery::OnLossTimer(RdmaRecoveryState&, Time)
{
}

uint32_t
RdmaLossRecovery::GetQpContextBits(uint32_t) const
{
    return 0;
}

void
RdmaLossRecovery::OnSackBitmap(RdmaRecoveryState& state,
                               uint32_t expectedPsn,
                               uint32_t sackPsn,
                               uint64_t,
                               Time now)
{
    OnSequenceNak(state, expectedPsn, sackPsn, true, now);
}

uint32_t
RdmaLossRecovery::GetSackCoalescing() const
{
    return 1;
}

uint32_t
RdmaLossRecovery::GetAckBytes() const
{
    return 0;
}

Time
RdmaLossRecovery::GetSackDelay() const
{
    return Time(0);
}

Time
RdmaLossRecovery::GetNakInterval() const
{
    return Time(0);
}

TypeId
RdmaGoBackN::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaGoBackN")
            .SetParent<RdmaLossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaGoBackN>()
            .AddAttribute("NakInterval",
                          "0 (the default): the responder NAKs a gap once and drops what "
                          "follows until the expected PSN arrives (IBA 9.7.5.1.2, C9-106, as "
                          "Linux rxe). Above 0: it NAKs the gap again when an out-of-order "
                          "packet arrives this long after its last NAK, and the requester goes "
                          "back on each NAK, as the HPCC and ConWeave simulators do (rdma-hw.cc "
                          "ReceiverCheckSeq, nack_interval 4 us).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaGoBackN::m_nakInterval),
                          MakeTimeChecker(Time(0)));
    return tid;
}

Time
RdmaGoBackN::GetNakInterval() const
{
    return m_nakInterval;
}

std::string
RdmaGoBackN::GetName() const
{
    return "RdmaGoBackN";
}

bool
RdmaGoBackN::ResponderKeepsOutOfOrder() const
{
    return false;
}

uint32_t
RdmaGoBackN::GetWindowPackets(uint32_t) const
{
    return 0;
}

void
RdmaGoBackN::OnSequenceNak(RdmaRecoveryState& state, uint32_t expectedPsn, uint32_t, bool, Time)
{
    NS_LOG_FUNCTION(this << expectedPsn);
    state.nextPsn = expectedPsn;
}

void
RdmaGoBackN::OnTimeout(RdmaRecoveryState& state)
{
    NS_LOG_FUNCTION(this << state.una);
    state.nextPsn = state.una;
}

Time
RdmaGoBackN::GetRetransmitTimeout(const RdmaRecoveryState&, Time localAckTimeout) const
{
    return localAckTimeout;
}

TypeId
RdmaSelectiveRepeat::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSelectiveRepeat")
            .SetParent<RdmaLossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSelectiveRepeat>()
            .AddAttribute("BdpBytes",
                          "BDP-FC: at most this many bytes (rounded up to whole MTUs) of PSNs "
                          "beyond the cumulative ACK, the path's bandwidth-delay product (IRN, "
                          "SIGCOMM 2018 section 3.2). Default: 100 Gb/s x 10 us. At least one MTU.",
                          UintegerValue(125000),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_bdpBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("RtoLow",
                          "RTO_low: retransmission timeout while at most RtoLowThreshold "
                          "packets are in flight (IRN, SIGCOMM 2018 section 3.1: 100 us at "
                          "40 Gb/s). Must be positive.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaSelectiveRepeat::m_rtoLow),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RtoHigh",
                          "RTO_high: retransmission timeout with more packets in flight, an "
                          "estimate of the largest RTT (IRN, SIGCOMM 2018 section 3.1: 320 us "
                          "at 40 Gb/s). Must be positive.",
                          TimeValue(MicroSeconds(320)),
                          MakeTimeAccessor(&RdmaSelectiveRepeat::m_rtoHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RtoLowThreshold",
                          "N: RTO_low applies while at most this many packets are sent, not "
                          "acknowledged and not SACKed (IRN, SIGCOMM 2018 section 3.1: N = 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_rtoLowThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReorderWindow",
                          "A PSN not SACKed is declared lost once this many PSNs sent after "
                          "it are SACKed (a duplicate threshold, RFC 6675's DupThresh). "
                          "Default 1: at the first SACK past it, as IRN does; on fabrics "
                          "that spread a QP over many paths, set it above the reordering "
                          "the packets meet (the reordering block of summary.json measures "
                          "it). At least 1.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_reorderWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReorderTime",
                          "A PSN not SACKed is also declared lost this long after the first "
                          "SACK of a PSN sent after it arrived (RACK's reordering window, "
                          "RFC 8985 section 6, whose default is a quarter of the minimum "
                          "RTT). Default 0: no time rule, only ReorderWindow and the "
                          "timeouts.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaSelectiveRepeat::m_reorderTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SackCoalescing",
                          "Out-of-order arrivals the responder reports in one SACK, packets. "
                          "Default 1: a SACK for each, as IRN does (SIGCOMM 2018 section "
                          "3.1). Above 1: one SACK for this many (or fewer after SackDelay) "
                          "carrying the newest PSN and a 64-bit bitmap of the PSNs received "
                          "after the cumulative ACK (ACK coalescing and the SACK bitmap of "
                          "the Ultra Ethernet Transport 1.0). At least 1.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_sackCoalescing),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SackDelay",
                          "With SackCoalescing above 1: the longest the responder holds an "
                          "out-of-order arrival before it sends the SACK that reports it, "
                          "timed from the first one not yet reported. Must be positive.",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&RdmaSelectiveRepeat::m_sackDelay),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AckBytes",
                          "Request payload bytes after which the responder answers, bytes, "
                          "counted over every request that arrives, in order or not: a "
                          "cumulative ACK, or past a gap a SACK with its bitmap (as "
                          "SackCoalescing's). It answers at once too for a request that asks "
                          "(AckReq), one marked CE, a duplicate and a trimmed header. The "
                          "requester then asks for an ACK only with the request that fills "
                          "its window, the last of a message and a resend (besides "
                          "AckReqInterval), not with every request under a window "
                          "(RdmaQpCc::AckEveryPacketWithWindow). This is the Ultra Ethernet "
                          "Transport 1.0's ACK coalescing; htsim_uec's sink answers every "
                          "16,384 bytes (UecSink::_bytes_unacked_threshold). Default 0: "
                          "AckReq and SackCoalescing decide; with AckBytes set, "
                          "SackCoalescing and SackDelay are not used.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_ackBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RecoverAll",
                          "false (the default): the requester resends what the reorder rule "
                          "declares lost (IRN, SIGCOMM 2018 section 3.1). true: on the NAK that "
                          "starts an episode it resends every PSN from the cumulative ACK to "
                          "the highest sent that is not SACKed when its turn comes, those "
                          "still in flight included, as the ConWeave simulator's IRN does "
                          "(rdma-hw.cc RecoverQueue sets snd_nxt = snd_una; GetBytesLeft "
                          "skips SACKed blocks).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaSelectiveRepeat::m_recoverAll),
                          MakeBooleanChecker());
    return tid;
}

RdmaSelectiveRepeat::RdmaSelectiveRepeat()
    : m_bdpBytes(125000),
      m_rtoLow(MicroSeconds(100)),
      m_rtoHigh(MicroSeconds(320)),
      m_rtoLowThreshold(3),
      m_reorderWindow(1),
      m_reorderTime(0),
      m_sackCoalescing(1),
      m_sackDelay(MicroSeconds(2)),
      m_ackBytes(0)
{
}

std::string
RdmaSelectiveRepeat::GetName() const
{
    return "RdmaSelectiveRepeat";
}

bool
RdmaSelectiveRepeat::ResponderKeepsOutOfOrder() const
{
    return true;
}

uint32_t
RdmaSelectiveRepeat::GetWindowPackets(uint32_t mtu) const
{
    uint64_t packets = (m_bdpBytes + mtu - 1) / mtu;
    return static_cast<uint32_t>(std::max<uint64_t>(packets, 1));
}

void
RdmaSelectiveRepeat::EnterRecovery(RdmaRecoveryState& state)
{
    if (!state.inRecovery)
    {
        state.inRecovery = true;
        state.recoverySeq = state.highestSent;
        ++state.episodes;
    }
}

void
RdmaSelectiveRepeat::OnSequenceNak(RdmaRecoveryState& state,
                                   uint32_t expectedPsn,
                                   uint32_t sackPsn,
                                   bool hasSack,
                                   Time now)
{
    NS_LOG_FUNCTION(this << expectedPsn << sackPsn << hasSack);
    if (!hasSack || PsnDiff(sackPsn, expectedPsn) <= 0 ||
        PsnDiff(sackPsn, state.highestSent) >= 0)
    {
        // No usable SACK: the cumulative ACK's PSN is the one missing.
        EnterRecovery(state);
        if (state.resent.count(expectedPsn) == 0)
        {
            state.Lose(expectedPsn);
        }
        return;
    }
    AddSack(state, sackPsn, now);
    if (m_recoverAll)
    {
        RecoverAll(state);
        return;
    }
    DetectLosses(state, now);
}

void
RdmaSelectiveRepeat::OnTrimmed(RdmaRecoveryState& state, uint32_t, uint32_t trimmedPsn)
{
    NS_LOG_FUNCTION(this << trimmedPsn);
    // Known lost, whether it was an original or a retransmission: sent
    // again once (the trimmed copy's own NAK asks for no more).
    if (PsnDiff(trimmedPsn, state.una) >= 0 && PsnDiff(trimmedPsn, state.highestSent) < 0 &&
        state.sacked.count(trimmedPsn) == 0)
    {
        state.Lose(trimmedPsn);
    }
}

bool
RdmaOldestPsnFrom(const std::set<uint32_t>& psns, uint32_t from, uint32_t& psn)
{
    // Numerically from `from` on, then from 0: the first PSN met is the
    // oldest after `from`, if it is after it at all.
    auto it = psns.lower_bound(from);
    if (it == psns.end())
    {
        it = psns.begin();
    }
    if (it == psns.end() || PsnDiff(*it, from) < 0)
    {
        return false;
    }
    psn = *it;
    return true;
}

void
RdmaSelectiveRepeat::RecoverAll(RdmaRecoveryState& state)
{
    for (auto it = state.retransmit.begin(); it != state.retransmit.end();)
    {
        it = state.sacked.count(*it) ? state.retransmit.erase(it) : std::next(it);
    }
    if (state.inRecovery)
    {
        return;
    }
    EnterRecovery(state);
    for (uint32_t psn = state.una; psn != state.highestSent; psn = PsnAdd(psn, 1))
    {
        if (state.sacked.count(psn) == 0 && state.resent.count(psn) == 0)
        {
            state.Lose(psn);
        }
    }
}

void
RdmaSelectiveRepeat::AddSack(RdmaRecoveryState& state, uint32_t sackPsn, Time now)
{
    state.sacked.insert(sackPsn);
    if (state.sacked.size() == 1 || PsnDiff(PsnAdd(sackPsn, 1), state.highestSacked) > 0)
    {
        state.highestSacked = PsnAdd(sackPsn, 1);
        // The highest SACK so far: the first past every PSN between it and
        // the one before it (the reorder time's clock starts here).
        if (state.sackRecords.empty() || PsnDiff(sackPsn, state.sackRecords.back().first) > 0)
        {
            state.sackRecords.push_back({sackPsn, now});
        }
    }
}

void
RdmaSelectiveRepeat::OnSackBitmap(RdmaRecoveryState& state,
                                  uint32_t expectedPsn,
                                  uint32_t sackPsn,
                                  uint64_t bitmap,
                                  Time now)
{
    NS_LOG_FUNCTION(this << expectedPsn << sackPsn << bitmap);
    // The bitmap's PSNs in increasing order, so the SACK records stay
    // ordered; those not sent (a corrupt bitmap) are ignored.
    for (uint32_t i = 0; bitmap != 0 && i < 64; ++i, bitmap >>= 1)
    {
        const uint32_t psn = PsnAdd(expectedPsn, 1 + i);
        if ((bitmap & 1) && PsnDiff(psn, state.highestSent) < 0 && psn != sackPsn)
        {
            AddSack(state, psn, now);
        }
    }
    OnSequenceNak(state, expectedPsn, sackPsn, true, now);
}

uint32_t
RdmaSelectiveRepeat::GetSackCoalescing() const
{
    return m_sackCoalescing;
}

Time
RdmaSelectiveRepeat::GetSackDelay() const
{
    return m_sackDelay;
}

uint32_t
RdmaSelectiveRepeat::GetAckBytes() const
{
    return m_ackBytes;
}

uint32_t
RdmaSelectiveRepeat::NthHighestSacked(const RdmaRecoveryState& state, uint32_t n)
{
    // Every SACKed PSN is at or past una (older ones are erased). In PSN
    // order the highest come first: those below una's value (the 24-bit
    // PSN wrapped), then the others, each run from its top.
    auto wrapped = state.sacked.lower_bound(state.una);
    for (auto it = wrapped; it != state.sacked.begin();)
    {
        --it;
        if (--n == 0)
        {
            return *it;
        }
    }
    for (auto it = state.sacked.end(); it != wrapped;)
    {
        --it;
        if (--n == 0)
        {
            return *it;
        }
    }
    NS_ASSERT_MSG(false, "fewer SACKed PSNs than asked for");
    return state.una;
}

void
RdmaSelectiveRepeat::DetectLosses(RdmaRecoveryState& state, Time now) const
{
    while (!state.sackRecords.empty() && PsnDiff(state.sackRecords.front().first, state.una) < 0)
    {
        state.sackRecords.pop_front();
    }
    if (state.sacked.empty())
    {
        return;
    }
    // The loss bound: a PSN sent before it (an original below it, a
    // retransmission whose mark is at or below it) is lost.
    bool found = false;
    uint32_t bound = 0;
    if (state.sacked.size() >= m_reorderWindow)
    {
        bound = NthHighestSacked(state, m_reorderWindow);
        found = true;
    }
    if (m_reorderTime.IsStrictlyPositive())
    {
        // The last record whose time has run out bounds the time rule; the
        // ones before it are spent.
        std::size_t expired = 0;
        while (expired < state.sackRecords.size() &&
               state.sackRecords[expired].second + m_reorderTime <= now)
        {
            ++expired;
        }
        if (expired > 0)
        {
            const uint32_t psn = state.sackRecords[expired - 1].first;
            if (!found || PsnDiff(psn, bound) > 0)
            {
                bound = psn;
                found = true;
            }
            for (std::size_t k = 1; k < expired; ++k)
            {
                state.sackRecords.pop_front();
            }
        }
    }
    if (!found)
    {
        return;
    }
    EnterRecovery(state);
    // The cumulative ACK's PSN is the first hole (IRN 3.1: the first packet
    // resent on entering recovery); every PSN below the bound that is not
    // SACKed is lost, and is sent again once per episode.
    if (state.resent.count(state.una) == 0 && PsnDiff(state.una, bound) < 0)
    {
        state.Lose(state.una);
    }
    // Holes below the bound not declared lost by an earlier one.
    uint32_t from = PsnDiff(state.scannedTo, state.una) > 0 ? state.scannedTo : state.una;
    for (uint32_t psn = from; PsnDiff(psn, bound) < 0; psn = PsnAdd(psn, 1))
    {
        if (state.sacked.count(psn) == 0 && state.resent.count(psn) == 0)
        {
            state.Lose(psn);
        }
    }
    if (PsnDiff(PsnAdd(bound, 1), from) > 0)
    {
        state.scannedTo = PsnAdd(bound, 1);
    }
    // Lost retransmissions: a PSN at or past their mark is beyond the bound.
    for (const auto& [psn, mark] : state.resent)
    {
        if (PsnDiff(bound, mark) >= 0 && PsnDiff(psn, state.una) >= 0 &&
            state.sacked.count(psn) == 0)
        {
            state.Lose(psn);
        }
    }
}

Time
RdmaSelectiveRepeat::GetLossDeadline(const RdmaRecoveryState& state, Time now) const
{
    if (!m_reorderTime.IsStrictlyPositive())
    {
        return Time(0);
    }
    for (const auto& [psn, at] : state.sackRecords)
    {
        if (PsnDiff(psn, state.una) >= 0 && at + m_reorderTime > now)
        {
            return at + m_reorderTime;
        }
    }
    return Time(0);
}

void
RdmaSelectiveRepeat::OnLossTimer(RdmaRecoveryState& state, Time now)
{
    NS_LOG_FUNCTION(this << state.una);
    DetectLosses(state, now);
}

uint32_t
RdmaSelectiveRepeat::GetQpContextBits(uint32_t mtu) const
{
    return 2 * GetWindowPackets(mtu);
}

void
RdmaSelectiveRepeat::OnAck(RdmaRecoveryState& state)
{
    if (state.inRecovery && PsnDiff(state.una, state.recoverySeq) >= 0)
    {
        NS_LOG_LOGIC("recovery episode over at " << state.una);
        state.inRecovery = false;
    }
}

void
RdmaSelectiveRepeat::OnTimeout(RdmaRecoveryState& state)
{
    NS_LOG_FUNCTION(this << state.una);
    EnterRecovery(state);
    // Nothing outstanding is trusted after a timeout: resend every PSN not SACKed.
    state.resent.clear();
    for (uint32_t psn = state.una; PsnDiff(psn, state.highestSent) < 0; psn = PsnAdd(psn, 1))
    {
        if (state.sacked.count(psn) == 0)
        {
            state.Lose(psn);
        }
    }
}

uint32_t
RdmaSelectiveRepeat::InFlight(const RdmaRecoveryState& state)
{
    int32_t outstanding = PsnDiff(state.highestSent, state.una);
    int32_t n = outstanding - static_cast<int32_t>(state.sacked.size());
    return n > 0 ? static_cast<uint32_t>(n) : 0;
}

Time
RdmaSelectiveRepeat::GetRetransmitTimeout(const RdmaRecoveryState& state, Time) const
{
    return InFlight(state) <= m_rtoLowThreshold ? m_rtoLow : m_rtoHigh;
}

Time
RdmaSelectiveRepeat::GetAckRequestPeriod() const
{
    return m_rtoLow / 4;
}

} // namespace ns3
