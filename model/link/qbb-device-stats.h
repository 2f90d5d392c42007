/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_DEVICE_STATS_H
#define QBB_DEVICE_STATS_H

#include "ns3/rdma-drop-reason.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Counters of a QbbNetDevice (QbbNetDevice::GetStats()). Frame
 * bytes: Ethernet header to payload end, no FCS.
 */
struct QbbDeviceStats
{
    uint64_t txFrames{0};  //!< frames whose transmission ended (lost and PFC ones included)
    uint64_t txBytes{0};   //!< their bytes
    uint64_t rxFrames{0};  //!< frames received and passed up (corrupted copies included)
    uint64_t rxBytes{0};   //!< their bytes
    uint64_t rxCorrupt{0}; //!< frames the ReceiveErrorModel corrupted (either path)
    /// drops by reason (RdmaLinkDrops: DROP_LINK_DOWN, DROP_CORRUPT,
    /// DROP_BAD_SIZE; the egress queue's own drops are its Drop trace)
    RdmaLinkDrops::Counters drops;
};

} // namespace ns3

#endif // QBB_DEVICE_STATS_H
