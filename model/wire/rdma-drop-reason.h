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
 * \brief Why a frame was dropped: the one vocabulary of every drop, its
 * counters and its traces: the switch (RdmaSwitch), its shared-buffer MMU
 * (SwitchMmu), the egress queues (QbbEgressQueue), the links' devices
 * (QbbNetDevice: from DROP_LINK_DOWN), a NIC's receive buffer
 * (RdmaNicRxBuffer) and the NIC itself (RdmaNic: from DROP_BAD_ICRC). A
 * component that counts drops by reason keeps counters for its own range
 * only (RdmaDropRange), so that a port does not carry a NIC's.
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
    // A link's device (QbbNetDevice).
    DROP_LINK_DOWN, //!< on the wire while the link was down (counted by the sender)
    DROP_CORRUPT,   //!< corrupted (ReceiveErrorModel), standard receive path only
    DROP_BAD_SIZE,  //!< too short for an Ethernet header or longer than the device's Mtu allows
    // A NIC (RdmaNic).
    DROP_BAD_ICRC,       //!< ICRC mismatch (corrupted on the wire)
    DROP_MALFORMED,      //!< truncated, bad length, bad pad, unsupported
    DROP_NOT_ROCE,       //!< not RoCEv2 (nothing else is handled by a NIC)
    DROP_UNKNOWN_QP,     //!< no QP with the packet's DestQP
    DROP_NOT_FOR_US,     //!< destination IP is not this host
    DROP_UNKNOWN_OPCODE, //!< an opcode this module does not implement
    DROP_RX_BUFFER_FULL, //!< no room in the NIC's receive buffer (RdmaNicRxBuffer)
    DROP_REASON_COUNT    //!< number of values (not a reason)
};

/**
 * \ingroup rdma
 * \brief The reasons from First to Last, counted by one component:
 * Counters holds one counter per reason of the range, indexed by the
 * reason itself.
 */
template <RdmaDropReason First, RdmaDropReason Last>
struct RdmaDropRange
{
    static_assert(First <= Last, "an empty range");
    /// Reasons in the range.
    static constexpr uint32_t SIZE = Last - First + 1;

    /// One counter per reason of the range.
    struct Counters
    {
        uint64_t count[SIZE]{}; //!< by reason - First

        /// \return the counter of a reason of the range \param r the reason
        uint64_t& operator[](RdmaDropReason r)
        {
            return count[r - First];
        }

        /// \return the counter of a reason of the range \param r the reason
        uint64_t operator[](RdmaDropReason r) const
        {
            return count[r - First];
        }

        /// \brief Add another component's counts of the range. \param o them \return *this
        Counters& operator+=(const Counters& o)
        {
            for (uint32_t i = 0; i < SIZE; ++i)
            {
                count[i] += o.count[i];
            }
            return *this;
        }

        /// \return every counter summed
        uint64_t Total() const
        {
            uint64_t sum = 0;
            for (uint64_t c : count)
            {
                sum += c;
            }
            return sum;
        }
    };
};

/// The drops a switch and its egress queues count (RdmaSwitch::Stats::drops,
/// QbbEgressQueue::Stats::drops): the buffers' reasons, DROP_NONE included
/// (an admission's "admitted", never counted).
using RdmaBufferDrops = RdmaDropRange<DROP_NONE, DROP_TTL_EXPIRED>;
/// The drops a link's device counts (QbbNetDevice::Stats::drops).
using RdmaLinkDrops = RdmaDropRange<DROP_LINK_DOWN, DROP_BAD_SIZE>;
/// The drops a NIC counts (RdmaNic::Stats::rxDrops).
using RdmaNicDrops = RdmaDropRange<DROP_BAD_ICRC, DROP_RX_BUFFER_FULL>;

/**
 * \ingroup rdma
 * \param reason a drop reason
 * \return its name without the DROP_ prefix ("QUEUE_FULL"; "NONE" for DROP_NONE)
 */
const char* RdmaDropReasonName(RdmaDropReason reason);

} // namespace ns3

#endif /* RDMA_DROP_REASON_H */
