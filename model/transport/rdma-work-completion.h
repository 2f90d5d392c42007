/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_WORK_COMPLETION_H
#define RDMA_WORK_COMPLETION_H

#include "rdma-verbs.h"

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A work completion (struct ibv_wc, RC fields), plus the simulation
 * time at which the work request was posted and completed.
 */
struct RdmaWorkCompletion
{
    /// wcFlags bits (enum ibv_wc_flags).
    enum Flags : uint32_t
    {
        IBV_WC_WITH_IMM = 1 << 1, //!< immData is valid
        IBV_WC_WITH_INV = 1 << 3, //!< invalidatedRkey is valid
    };

    uint64_t wrId{0};                    //!< the work request's id
    RdmaWcStatus status{IBV_WC_SUCCESS}; //!< outcome
    RdmaWcOpcode opcode{IBV_WC_SEND};    //!< operation (valid on success)
    uint32_t byteLen{0};                 //!< bytes received (receive completions)
    uint32_t immData{0};                 //!< immediate data
    uint32_t invalidatedRkey{0};         //!< R_Key a SEND with invalidate invalidated
    uint32_t qpNum{0};                   //!< local QPN
    uint32_t srcQp{0};                   //!< remote QPN
    uint32_t wcFlags{0};                 //!< Flags
    Time posted;                         //!< when the work request was posted
    Time completed;                      //!< when the completion was generated
};

} // namespace ns3

#endif // RDMA_WORK_COMPLETION_H
