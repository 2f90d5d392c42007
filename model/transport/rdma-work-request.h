/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_WORK_REQUEST_H
#define RDMA_WORK_REQUEST_H

#include "rdma-verbs.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A send queue work request (struct ibv_send_wr, RC fields).
 *
 * SEND/WRITE gather their payload from sgList; READ scatters the response
 * into sgList; atomics write the 8-byte original value to sgList[0].
 */
struct RdmaSendWr
{
    uint64_t wrId{0};                      //!< returned in the completion
    RdmaWrOpcode opcode{IBV_WR_SEND};      //!< operation
    std::vector<RdmaSge> sgList;           //!< local buffers
    uint32_t sendFlags{IBV_SEND_SIGNALED}; //!< RdmaSendFlags
    uint32_t immData{0};                   //!< immediate data (WITH_IMM opcodes)
    uint32_t invalidateRkey{0};            //!< R_Key to invalidate (IBV_WR_SEND_WITH_INV)
    uint64_t remoteAddr{0};                //!< remote VA (WRITE, READ, atomics)
    uint32_t rkey{0};                      //!< remote key (WRITE, READ, atomics)
    uint64_t compareAdd{0};                //!< compare (CMP_AND_SWP) or add (FETCH_AND_ADD) value
    uint64_t swap{0};                      //!< swap value (CMP_AND_SWP)

    /// \return the total bytes of the scatter/gather list
    uint64_t TotalLength() const;
};

/**
 * \ingroup rdma
 * \brief A receive queue work request (struct ibv_recv_wr).
 */
struct RdmaRecvWr
{
    uint64_t wrId{0};            //!< returned in the completion
    std::vector<RdmaSge> sgList; //!< buffers an incoming SEND fills in order

    /// \return the total bytes of the scatter/gather list
    uint64_t TotalLength() const;
};

/// \return the total bytes of a scatter/gather list
uint64_t RdmaSgListLength(const std::vector<RdmaSge>& sgList);

} // namespace ns3

#endif // RDMA_WORK_REQUEST_H
