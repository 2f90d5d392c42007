/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-drop-reason.h"

namespace ns3
{

const char*
RdmaDropReasonName(RdmaDropReason reason)
{
    switch (reason)
    {
    case DROP_NONE:
        return "NONE";
    case DROP_NOT_IP:
        return "NOT_IP";
    case DROP_NO_ROUTE:
        return "NO_ROUTE";
    case DROP_INGRESS_LIMIT:
        return "INGRESS_LIMIT";
    case DROP_BUFFER_FULL:
        return "BUFFER_FULL";
    case DROP_HEADROOM_FULL:
        return "HEADROOM_FULL";
    case DROP_PFC_STORM:
        return "PFC_STORM";
    case DROP_QUEUE_FULL:
        return "QUEUE_FULL";
    case DROP_TTL_EXPIRED:
        return "TTL_EXPIRED";
    case DROP_LINK_DOWN:
        return "LINK_DOWN";
    case DROP_CORRUPT:
        return "CORRUPT";
    case DROP_BAD_SIZE:
        return "BAD_SIZE";
    case DROP_BAD_ICRC:
        return "BAD_ICRC";
    case DROP_MALFORMED:
        return "MALFORMED";
    case DROP_NOT_ROCE:
        return "NOT_ROCE";
    case DROP_UNKNOWN_QP:
        return "UNKNOWN_QP";
    case DROP_NOT_FOR_US:
        return "NOT_FOR_US";
    case DROP_UNKNOWN_OPCODE:
        return "UNKNOWN_OPCODE";
    case DROP_RX_BUFFER_FULL:
        return "RX_BUFFER_FULL";
    case DROP_REASON_COUNT:
        break;
    }
    return "UNKNOWN";
}

} // namespace ns3
