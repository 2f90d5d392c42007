/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TRIM_CONFIG_H
#define RDMA_TRIM_CONFIG_H

#include "rdma-config.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Read and check packet trimming (the switch.trim keys, QbbTrimmer's
 * attributes): the DSCP the NICs take as trimmed (RdmaNic's TrimmedDscp).
 * \param c the configuration
 * \param dataTos the IP TOS the QPs' data packets carry besides their
 *        traffic.priority (RdmaConnectionConfig::trafficClass)
 * \return switch.trim.Dscp, or -1 when no class is trimmed (switch.trim.Classes = 0)
 * \throws RdmaConfigError naming the key: switch.trim.TrimClass one of the
 *         trimmed classes (a trimmed frame would queue behind the data it
 *         was cut from), link.DscpToClass not mapping switch.trim.Dscp to
 *         switch.trim.TrimClass (an untagged trimmed frame would leave that
 *         class at the next hop), or switch.trim.Dscp a DSCP the NICs send
 *         data, ACKs or CNPs with (every such frame would be taken as trimmed)
 */
int8_t RdmaReadTrimming(const RdmaConfig& c, uint8_t dataTos);

} // namespace ns3

#endif // RDMA_TRIM_CONFIG_H
