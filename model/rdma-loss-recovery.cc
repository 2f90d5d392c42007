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

TypeId
RdmaSelectiveRepeat::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSelectiveRepeat")
            .SetParent<RdmaLossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSelectiveRepeat>()
            .AddAttribute("BdpBytes",
                          "In-flight cap in bytes, the path's bandwidth-delay product (IRN, "
                          "SIGCOMM 2018 section 3.2). Default: 100 Gb/s x 10 us.",
                          UintegerValue(125000),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_bdpBytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

RdmaSelectiveRepeat::RdmaSelectiveRepeat()
    : m_bdpBytes(125000)
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
RdmaSelectiveRepeat::OnSequenceNak(RdmaRecoveryState& state,
                                   uint32_t expectedPsn,
                                   uint32_t sackPsn,
                                   bool hasSack)
{
    NS_LOG_FUNCTION(this << expectedPsn << sackPsn << hasSack);
    if (!hasSack || PsnDiff(sackPsn, expectedPsn) <= 0)
    {
        if (state.resent.count(expectedPsn) == 0)
        {
            state.retransmit.insert(expectedPsn);
        }
        return;
    }
    state.sacked.insert(sackPsn);
    // A PSN below the highest SACKed one that is not SACKed is lost (IRN
    // 3.1): send it again once per loss; later NAKs of the same episode,
    // one per out-of-order arrival, do not resend it again (a timeout does).
    for (uint32_t psn = expectedPsn; PsnDiff(psn, sackPsn) < 0; psn = PsnAdd(psn, 1))
    {
        if (state.sacked.count(psn) == 0 && state.resent.count(psn) == 0 &&
            PsnDiff(psn, state.highestSent) < 0)
        {
            state.retransmit.insert(psn);
        }
    }
}

void
RdmaSelectiveRepeat::OnTimeout(RdmaRecoveryState& state)
{
    NS_LOG_FUNCTION(this << state.una);
    // After a timeout nothing outstanding is trusted: resend every PSN not SACKed.
    state.resent.clear();
    for (uint32_t psn = state.una; PsnDiff(psn, state.highestSent) < 0; psn = PsnAdd(psn, 1))
    {
        if (state.sacked.count(psn) == 0)
        {
            state.retransmit.insert(psn);
        }
    }
}

} // namespace ns3
