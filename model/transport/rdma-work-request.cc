/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-work-request.h"

namespace ns3
{

uint64_t
RdmaSgListLength(const std::vector<RdmaSge>& sgList)
{
    uint64_t total = 0;
    for (const RdmaSge& sge : sgList)
    {
        total += sge.length;
    }
    return total;
}

uint64_t
RdmaSendWr::TotalLength() const
{
    return RdmaSgListLength(sgList);
}

uint64_t
RdmaRecvWr::TotalLength() const
{
    return RdmaSgListLength(sgList);
}

} // namespace ns3
