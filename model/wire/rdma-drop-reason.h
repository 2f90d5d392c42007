/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DROP_REASON_H
#define RDMA_DROP_REASON_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Why a buffer or a switch refused a frame: one vocabulary for the
 * switch (RdmaSwitch), its shared-buffer MMU (SwitchMmu), the egress
 * queues (QbbEgressQueue) and a NIC's receive buffer (RdmaNicRxBuffer),
 * their counters and their Drop traces.
 */
enum RdmaDropReason : uint8_t
{
    DROP_NONE = 0,      //!< not dropped: an admission's "admitted"
    DROP_NOT_IP,        //!< not IPv4/IPv6 (MAC Control frames are consumed by the port)
    DROP_NO_ROUTE,      //!< no route to the destination address
    DROP_INGRESS_LIMIT, //!< lossy class above its ingress threshold (SwitchMmu)
    DROP_BUFFER_FULL,   //!< lossy class, shared buffer (or a NIC's buffer) exhausted
    DROP_HEADROOM_FULL, //!< lossless class beyond its PFC headroom (mis-sized headroom)
    DROP_PFC_STORM,     //!< egress class stormed, PFC watchdog action Drop (queued frames flushed)
    DROP_QUEUE_FULL,    //!< the egress queue's MaxBytes
    DROP_TTL_EXPIRED,   //!< IPv4 TTL / IPv6 Hop Limit at 1 or 0 (RFC 1812 5.3.1)
    DROP_REASON_COUNT   //!< number of values (not a reason)
};

/**
 * \ingroup rdma
 * \param reason a drop reason
 * \return its name without the DROP_ prefix ("QUEUE_FULL"; "NONE" for DROP_NONE)
 */
const char* RdmaDropReasonName(RdmaDropReason reason);

} // namespace ns3

#endif /* RDMA_DROP_REASON_H */
