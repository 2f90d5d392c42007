/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_QUEUE_ITEM_H
#define QBB_QUEUE_ITEM_H

#include "ns3/rdma-frame.h"

#include <cstdint>
#include <limits>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A frame waiting in a port's egress queue (QbbEgressQueue), with
 * what the queue's policies need to know about it without reading its bytes
 * again: its class, the port it came in by (for the switch's shared-buffer
 * accounting) and where its IP and INT headers are (for ECN marking and INT
 * stamping as it leaves); its size is the frame's, which nothing changes
 * while it waits (marking and INT stamping rewrite bytes in place). A NIC's
 * frames carry only frame and class. 16 bytes: a queue of a million frames
 * holds 16 MB of slots besides the frames.
 */
struct QbbQueueItem
{
    /// inPort of a frame that did not come in by a switch port (a NIC's own).
    static constexpr uint32_t NO_PORT = std::numeric_limits<uint32_t>::max();

    Ptr<RdmaFrame> frame;     //!< the Ethernet frame, destination MAC first, no FCS
    uint32_t inPort{NO_PORT}; //!< ingress port index at the switch, or NO_PORT
    uint8_t cls : 3;          //!< traffic class, 0-7
    uint8_t ecn : 2;          //!< the IP ECN field when it arrived (RFC 3168); 0 if not IP
    uint8_t ipv6 : 1;         //!< the IP header is IPv6
    uint8_t trimmed : 1;      //!< cut to its headers here (QbbTrimmer): its own byte budget
    uint8_t ipOffset{0};      //!< the IP header's first byte; 0 if not IP
    uint8_t intOffset{0};     //!< the IntHeader's first byte if it is to be stamped; 0: none

    QbbQueueItem()
        : cls(0),
          ecn(0),
          ipv6(0),
          trimmed(0)
    {
    }

    /// \return the frame's size, bytes (what the buffer accounts)
    uint32_t Bytes() const
    {
        return frame->GetSize();
    }
};

static_assert(sizeof(QbbQueueItem) == 16, "a queued frame's slot: its pointer and 8 bytes");

} // namespace ns3

#endif // QBB_QUEUE_ITEM_H
