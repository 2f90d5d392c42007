/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CHAKRA_STEPS_H
#define RDMA_CHAKRA_STEPS_H

#include "rdma-chakra-trace.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One point-to-point transfer of a step: a COMM_SEND_NODE and the
 * COMM_RECV_NODE it matches.
 */
struct RdmaChakraTransfer
{
    uint32_t src{0};   //!< the sending rank
    uint32_t dst{0};   //!< the receiving rank
    uint64_t bytes{0}; //!< comm_size
    /// Transfers of the same step (their indices) the sender received
    /// before this send in its order: sent once they have landed
    std::vector<uint32_t> after{};
};

/**
 * \ingroup rdma
 * \brief One step of a job read from Chakra traces: the compute the ranks
 * do before their next communication, a collective of every rank, or
 * point-to-point transfers between some ranks.
 */
struct RdmaChakraStep
{
    /// What the step is
    enum Kind
    {
        COMPUTE,    //!< per rank, a compute gap (zero for a rank that has none here)
        COLLECTIVE, //!< a collective of every rank
        TRANSFERS,  //!< sends and their receives; ranks with none go on at once
    };

    Kind kind{COMPUTE}; //!< what it is
    /// COLLECTIVE: et_def.proto's CollectiveCommType name ("ALL_REDUCE", ...)
    std::string type;
    uint64_t bytes{0};         //!< COLLECTIVE: comm_size
    std::vector<Time> compute; //!< COMPUTE: per rank, its COMP_NODE durations summed
    std::vector<RdmaChakraTransfer> transfers; //!< TRANSFERS: in the ranks' order
    std::string name;  //!< COLLECTIVE, TRANSFERS: rank 0's (the first sender's) node's name
    std::string where; //!< COLLECTIVE, TRANSFERS: that file and node, for messages
};

/**
 * \ingroup rdma
 * \brief The steps of a job whose ranks run Chakra execution traces.
 *
 * Each rank's nodes run in a topological order of their dependencies
 * (ctrl_deps and data_deps; of the nodes ready at once, the first in the
 * file first), one at a time: a COMP_NODE takes its duration_micros, a
 * COMM_COLL_NODE is a collective of every rank, a COMM_SEND_NODE sends
 * comm_size bytes to rank comm_dst, a COMM_RECV_NODE waits for comm_size
 * bytes from rank comm_src, METADATA_NODEs take no time.
 *
 * A send matches a receive as MPI matches them (and ASTRA-sim): the k-th
 * send from rank a to rank b with comm_tag t is the k-th receive at b from
 * a with tag t. The runner runs one sequence of steps on every rank, and
 * each rank does only its own part of a step, so the ranks' orders are
 * merged into one: compute first wherever a rank computes next; then every
 * send whose receive its peer can take in turn (a rank's consecutive sends
 * and receives are one step, as an NCCL group; a send waits for the
 * receives before it); a collective once every rank has come to it. A
 * rank waits only for its own receives and WRITEs, so the merge changes no
 * rank's times. Every rank's k-th collective must be the same (comm_type,
 * comm_size, pg_name).
 *
 * What the traces ask and these steps leave out is said in `warnings`:
 * MEM_LOAD_NODE and MEM_STORE_NODE (ASTRA-sim's memory model), and
 * communication the trace lets run beside other nodes, which runs in turn
 * here (as SimAI's text workloads run their collectives); a collective's
 * pg_name, taken as every rank.
 *
 * \param t the traces
 * \param warnings receives what is left out, once per kind
 * \return the steps (a gap of zero everywhere is left out)
 * \throws std::runtime_error naming the file and node: a dependency on a
 *         node the file does not have, a cycle, a collective without
 *         comm_type or over some network dimensions only (involved_dim),
 *         ranks whose collectives differ, a send or receive without its
 *         peer, naming a rank outside the job or itself, without a match,
 *         of another size than its match, or that cannot be placed (its
 *         peer comes to its match only after a collective or a receive that
 *         waits for this rank)
 */
std::vector<RdmaChakraStep> RdmaChakraSteps(const RdmaChakraTrace& t,
                                            std::vector<std::string>* warnings);

} // namespace ns3

#endif /* RDMA_CHAKRA_STEPS_H */
