/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TEST_CC_H
#define RDMA_TEST_CC_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-ops.h"

#include <cstdint>

namespace ns3
{
namespace rdmatest
{

/**
 * \brief A QP state (for the congestion-control suites) with its path constants set.
 * \param lineRate the NIC's rate
 * \param baseRtt the base RTT
 * \param mtu bytes per packet
 * \return the state
 */
Ptr<RdmaCcState> MakeState(DataRate lineRate = DataRate("100Gbps"),
                           Time baseRtt = MicroSeconds(10),
                           uint32_t mtu = 1000);

/// \return the state's rate in bits per second, as a double
double Bps(Ptr<const RdmaCcState> state);

/**
 * \brief An ACK of `bytes` with an RTT sample.
 * \param bytes bytes acknowledged
 * \param rtt the RTT sample (0 = none)
 * \param ecn whether it echoes a CE mark
 * \return the ACK
 */
RdmaAckInfo Ack(uint64_t bytes, Time rtt = Time(0), bool ecn = false);

/**
 * \brief One INT record.
 * \param rate the egress link's rate
 * \param ts its timestamp
 * \param txBytes its cumulative transmitted bytes
 * \param qlen its queue length, bytes
 * \return the record
 */
RdmaIntHop Hop(DataRate rate, Time ts, uint64_t txBytes, uint32_t qlen);

} // namespace rdmatest
} // namespace ns3

#endif /* RDMA_TEST_CC_H */
