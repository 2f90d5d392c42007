/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FLOW_H
#define RDMA_FLOW_H

#include "ns3/nstime.h"
#include "ns3/rdma-verbs.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The verbs operation that carries a flow.
 */
enum class RdmaFlowOp : uint8_t
{
    WRITE = 0, //!< IBV_WR_RDMA_WRITE posted by the source
    READ = 1,  //!< IBV_WR_RDMA_READ posted by the destination (it pulls the bytes)
    SEND = 2,  //!< IBV_WR_SEND posted by the source, one receive posted by the destination
};

/**
 * \param op an operation
 * \return "WRITE", "READ" or "SEND"
 */
std::string RdmaFlowOpName(RdmaFlowOp op);
/**
 * \brief Parse an operation name (upper case, as RdmaFlowOpName writes it).
 * \param name "WRITE", "READ" or "SEND"
 * \param op set on success
 * \return whether the name is known
 */
bool RdmaFlowOpFromName(const std::string& name, RdmaFlowOp& op);

/**
 * \ingroup rdma
 * \brief One flow (message) of a workload: `size` bytes that move from host
 * `src` to host `dst`, starting at `start`.
 *
 * src and dst always name the direction the data moves, whatever the
 * operation: a WRITE or SEND is posted by src; a READ is posted by dst (the
 * requester, which pulls the bytes from src). Hosts are numbered as the
 * workload's inputs number them (HPCC flow files: node ids; generators: the
 * indices given to them); the flow runner maps them onto NICs.
 */
struct RdmaFlow
{
    uint32_t id{0};                   //!< flow id, unique in a workload
    uint32_t src{0};                  //!< host the bytes leave
    uint32_t dst{0};                  //!< host the bytes reach
    RdmaFlowOp op{RdmaFlowOp::WRITE}; //!< operation
    uint64_t size{0};                 //!< message bytes (1 to 2^31, the IBA message limit)
    Time start;                       //!< when the operation is posted
    uint8_t priority{3};              //!< priority (traffic class 0-7; HPCC's pg, 3 in its flows)
    uint16_t dport{100}; //!< HPCC's dport tag: 100 background, 200 incast (echoed in fct.txt)
};

/**
 * \ingroup rdma
 * \brief What became of a flow in a run (kept by the flow runner, one per
 * flow, indexed like the flows).
 */
struct RdmaFlowResult
{
    bool started{false};                 //!< the operation was posted (or queued for its QP)
    bool completed{false};               //!< its work completion arrived
    Time completion;                     //!< when the requester's completion was generated
    RdmaWcStatus status{IBV_WC_SUCCESS}; //!< the completion's status (valid if completed)
    uint32_t qpn{0};                     //!< the requester QP's number
    /// No QP pair could be created for it (CreateQp returned null, as
    /// ibv_create_qp fails with ENOMEM when the NIC's QP context memory is
    /// full); it was never posted and counts as failed.
    bool noQp{false};
};

} // namespace ns3

#endif // RDMA_FLOW_H
