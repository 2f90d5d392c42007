/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_VERBS_H
#define RDMA_VERBS_H

#include "rdma-path-mtu.h"

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Queue pair states (IBA Vol 1 10.3.1; verbs enum ibv_qp_state).
 */
enum QpState : uint8_t
{
    IBV_QPS_RESET,
    IBV_QPS_INIT,
    IBV_QPS_RTR,
    IBV_QPS_RTS,
    IBV_QPS_SQD,
    IBV_QPS_SQE,
    IBV_QPS_ERR,
};

/**
 * \ingroup rdma
 * \brief Work completion status, with the values of rdma-core's
 * enum ibv_wc_status (libibverbs/verbs.h).
 */
enum RdmaWcStatus : uint8_t
{
    IBV_WC_SUCCESS = 0,
    IBV_WC_LOC_LEN_ERR = 1,
    IBV_WC_LOC_QP_OP_ERR = 2,
    IBV_WC_LOC_EEC_OP_ERR = 3,
    IBV_WC_LOC_PROT_ERR = 4,
    IBV_WC_WR_FLUSH_ERR = 5,
    IBV_WC_MW_BIND_ERR = 6,
    IBV_WC_BAD_RESP_ERR = 7,
    IBV_WC_LOC_ACCESS_ERR = 8,
    IBV_WC_REM_INV_REQ_ERR = 9,
    IBV_WC_REM_ACCESS_ERR = 10,
    IBV_WC_REM_OP_ERR = 11,
    IBV_WC_RETRY_EXC_ERR = 12,
    IBV_WC_RNR_RETRY_EXC_ERR = 13,
    IBV_WC_LOC_RDD_VIOL_ERR = 14,
    IBV_WC_REM_INV_RD_REQ_ERR = 15,
    IBV_WC_REM_ABORT_ERR = 16,
    IBV_WC_INV_EECN_ERR = 17,
    IBV_WC_INV_EEC_STATE_ERR = 18,
    IBV_WC_FATAL_ERR = 19,
    IBV_WC_RESP_TIMEOUT_ERR = 20,
    IBV_WC_GENERAL_ERR = 21,
};

/**
 * \ingroup rdma
 * \brief Work completion opcode (enum ibv_wc_opcode).
 */
enum RdmaWcOpcode : uint8_t
{
    IBV_WC_SEND = 0,
    IBV_WC_RDMA_WRITE = 1,
    IBV_WC_RDMA_READ = 2,
    IBV_WC_COMP_SWAP = 3,
    IBV_WC_FETCH_ADD = 4,
    IBV_WC_RECV = 128,
    IBV_WC_RECV_RDMA_WITH_IMM = 129,
};

/**
 * \ingroup rdma
 * \brief Send work request opcode (enum ibv_wr_opcode).
 */
enum RdmaWrOpcode : uint8_t
{
    IBV_WR_RDMA_WRITE = 0,
    IBV_WR_RDMA_WRITE_WITH_IMM = 1,
    IBV_WR_SEND = 2,
    IBV_WR_SEND_WITH_IMM = 3,
    IBV_WR_RDMA_READ = 4,
    IBV_WR_ATOMIC_CMP_AND_SWP = 5,
    IBV_WR_ATOMIC_FETCH_AND_ADD = 6,
    IBV_WR_SEND_WITH_INV = 9,
};

/**
 * \param op a send work request opcode
 * \return whether it is an atomic (compare-and-swap or fetch-and-add: one
 *         8-byte operand, answered by an Atomic Acknowledge; IBA 9.4.5)
 */
inline bool
RdmaWrIsAtomic(RdmaWrOpcode op)
{
    return op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

/**
 * \ingroup rdma
 * \brief Memory region and QP access flags (enum ibv_access_flags).
 */
enum RdmaAccessFlags : uint32_t
{
    IBV_ACCESS_LOCAL_WRITE = 1,
    IBV_ACCESS_REMOTE_WRITE = 2,
    IBV_ACCESS_REMOTE_READ = 4,
    IBV_ACCESS_REMOTE_ATOMIC = 8,
};

/**
 * \ingroup rdma
 * \brief Send flags (enum ibv_send_flags).
 */
enum RdmaSendFlags : uint32_t
{
    IBV_SEND_FENCE = 1,
    IBV_SEND_SIGNALED = 2,
    IBV_SEND_SOLICITED = 4,
};

/**
 * \ingroup rdma
 * \brief ModifyQp attribute mask bits (enum ibv_qp_attr_mask).
 */
enum RdmaQpAttrMask : uint32_t
{
    IBV_QP_STATE = 1 << 0,
    IBV_QP_CUR_STATE = 1 << 1,
    IBV_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2,
    IBV_QP_ACCESS_FLAGS = 1 << 3,
    IBV_QP_PKEY_INDEX = 1 << 4,
    IBV_QP_PORT = 1 << 5,
    IBV_QP_QKEY = 1 << 6,
    IBV_QP_AV = 1 << 7,
    IBV_QP_PATH_MTU = 1 << 8,
    IBV_QP_TIMEOUT = 1 << 9,
    IBV_QP_RETRY_CNT = 1 << 10,
    IBV_QP_RNR_RETRY = 1 << 11,
    IBV_QP_RQ_PSN = 1 << 12,
    IBV_QP_MAX_QP_RD_ATOMIC = 1 << 13,
    IBV_QP_ALT_PATH = 1 << 14,
    IBV_QP_MIN_RNR_TIMER = 1 << 15,
    IBV_QP_SQ_PSN = 1 << 16,
    IBV_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
    IBV_QP_PATH_MIG_STATE = 1 << 18,
    IBV_QP_CAP = 1 << 19,
    IBV_QP_DEST_QPN = 1 << 20,
};

/**
 * \ingroup rdma
 * \brief Address vector of a RoCEv2 RC QP: where its packets go.
 */
struct RdmaAddressVector
{
    Ipv4Address destGid;     //!< destination IPv4 address (the RoCEv2 GID)
    uint8_t trafficClass{0}; //!< IP TOS byte the QP sends with: DSCP << 2 (ECN set by the NIC)
    uint8_t sl{0};           //!< service level: the 802.1p priority (PCP) / traffic class
};

/**
 * \ingroup rdma
 * \brief QP attributes for ModifyQp/QueryQp (struct ibv_qp_attr, RC fields).
 */
struct RdmaQpAttr
{
    QpState qpState{IBV_QPS_RESET};    //!< state to move to
    QpState curQpState{IBV_QPS_RESET}; //!< asserted current state (IBV_QP_CUR_STATE)
    RdmaMtu pathMtu{RdmaPathMtu::DEFAULT}; //!< path MTU
    uint32_t rqPsn{0};                 //!< responder's first expected PSN (24 bits)
    uint32_t sqPsn{0};                 //!< requester's first PSN (24 bits)
    uint32_t destQpNum{0};             //!< remote QPN
    uint32_t qpAccessFlags{0};         //!< RdmaAccessFlags the QP allows remote peers
    RdmaAddressVector ahAttr;          //!< address vector
    uint16_t pkeyIndex{0};             //!< P_Key table index (the table holds 0xFFFF)
    uint8_t portNum{1};                //!< port (1)
    uint8_t maxRdAtomic{1};            //!< outstanding READ/atomic as requester
    uint8_t maxDestRdAtomic{1};        //!< READ/atomic resources as responder
    uint8_t minRnrTimer{0};            //!< RNR NAK timer code sent to peers (IBA Table 45)
    uint8_t timeout{14};               //!< local ACK timeout exponent: 4.096 us * 2^timeout
    uint8_t retryCnt{7};               //!< retries on timeout / sequence NAK (3 bits)
    uint8_t rnrRetry{7};               //!< retries on RNR NAK (3 bits, 7 = infinite)
};

/**
 * \ingroup rdma
 * \brief One scatter/gather element (struct ibv_sge).
 */
struct RdmaSge
{
    uint64_t addr{0};   //!< virtual address
    uint32_t length{0}; //!< bytes
    uint32_t lkey{0};   //!< local key of the memory region
};

/// \return the name of a status, e.g. "IBV_WC_RETRY_EXC_ERR"
std::string RdmaWcStatusName(RdmaWcStatus status);
/// \return the name of a QP state, e.g. "RTS"
std::string QpStateName(QpState state);

} // namespace ns3

#endif // RDMA_VERBS_H
