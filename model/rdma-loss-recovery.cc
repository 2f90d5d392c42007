/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-loss-recovery.h"

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

Time
RdmaLossRecovery::GetAckRequestPeriod() const
{
    return Time(0);
}

TypeId
RdmaGoBackN::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaGoBackN")
                            .SetParent<RdmaLossRecovery>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaGoBackN>();
    return tid;
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
RdmaGoBackN::OnSequenceNak(RdmaRecoveryState& state, uint32_t expectedPsn, uint32_t, bool)
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
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("RtoHigh",
                          "RTO_high: retransmission timeout with more packets in flight, an "
                          "estimate of the largest RTT (IRN, SIGCOMM 2018 section 3.1: 320 us "
                          "at 40 Gb/s). Must be positive.",
                          TimeValue(MicroSeconds(320)),
                          MakeTimeAccessor(&RdmaSelectiveRepeat::m_rtoHigh),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("RtoLowThreshold",
                          "N: RTO_low applies while at most this many packets are sent, not "
                          "acknowledged and not SACKed (IRN, SIGCOMM 2018 section 3.1: N = 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_rtoLowThreshold),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RdmaSelectiveRepeat::RdmaSelectiveRepeat()
    : m_bdpBytes(125000),
      m_rtoLow(MicroSeconds(100)),
      m_rtoHigh(MicroSeconds(320)),
      m_rtoLowThreshold(3)
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
                                   bool hasSack)
{
    NS_LOG_FUNCTION(this << expectedPsn << sackPsn << hasSack);
    EnterRecovery(state);
    if (!hasSack || PsnDiff(sackPsn, expectedPsn) <= 0 ||
        PsnDiff(sackPsn, state.highestSent) >= 0)
    {
        // No usable SACK: the cumulative ACK's PSN is the one missing.
        if (state.resent.count(expectedPsn) == 0)
        {
            state.retransmit.insert(expectedPsn);
        }
        return;
    }
    // Holes below this SACK not seen by an earlier one of the episode.
    uint32_t from = expectedPsn;
    if (!state.sacked.empty() && PsnDiff(state.highestSacked, expectedPsn) > 0)
    {
        from = state.highestSacked;
    }
    state.sacked.insert(sackPsn);
    if (state.sacked.size() == 1 || PsnDiff(PsnAdd(sackPsn, 1), state.highestSacked) > 0)
    {
        state.highestSacked = PsnAdd(sackPsn, 1);
    }
    // The cumulative ACK's PSN is the first hole (IRN 3.1: the first packet
    // resent on entering recovery); every PSN below the highest SACKed one
    // that is not SACKed is lost, and is sent again once per episode.
    if (state.resent.count(expectedPsn) == 0)
    {
        state.retransmit.insert(expectedPsn);
    }
    for (uint32_t psn = from; PsnDiff(psn, sackPsn) < 0; psn = PsnAdd(psn, 1))
    {
        if (state.sacked.count(psn) == 0 && state.resent.count(psn) == 0)
        {
            state.retransmit.insert(psn);
        }
    }
    // Lost retransmissions: the SACKed PSN left after them.
    for (const auto& [psn, mark] : state.resent)
    {
        if (PsnDiff(sackPsn, mark) >= 0 && PsnDiff(psn, expectedPsn) >= 0 &&
            state.sacked.count(psn) == 0)
        {
            state.retransmit.insert(psn);
        }
    }
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
            state.retransmit.insert(psn);
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
