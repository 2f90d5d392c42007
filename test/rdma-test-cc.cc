/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-test-cc.h"

namespace ns3
{
namespace rdmatest
{

Ptr<RdmaCcState>
MakeState(DataRate lineRate, Time baseRtt, uint32_t mtu)
{
    Ptr<RdmaCcState> state = CreateObject<RdmaCcState>();
    state->m_lineRate = lineRate;
    state->m_baseRtt = baseRtt;
    state->m_mtu = mtu;
    return state;
}

double
Bps(Ptr<const RdmaCcState> state)
{
    return static_cast<double>(state->m_rate.Get().GetBitRate());
}

RdmaAckInfo
Ack(uint64_t bytes, Time rtt, bool ecn)
{
    RdmaAckInfo ack;
    ack.ackedBytes = bytes;
    ack.rtt = rtt;
    ack.ecnEcho = ecn;
    return ack;
}

RdmaIntHop
Hop(DataRate rate, Time ts, uint64_t txBytes, uint32_t qlen)
{
    RdmaIntHop hop;
    hop.linkRate = rate;
    hop.timestamp = ts;
    hop.txBytes = txBytes;
    hop.qlenBytes = qlen;
    return hop;
}

} // namespace rdmatest
} // namespace ns3
