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
 * \brief One step of a job read from Chakra traces: the compute every rank
 * does before its next collective, or that collective.
 */
struct RdmaChakraStep
{
    bool collective{false}; //!< a collective (else a compute gap)
    /// Collective: et_def.proto's CollectiveCommType name ("ALL_REDUCE", ...)
    std::string type;
    uint64_t bytes{0};         //!< collective: comm_size
    std::vector<Time> compute; //!< compute gap: per rank, its COMP_NODE durations summed
    std::string name;          //!< collective: rank 0's node's name
    std::string where;         //!< collective: rank 0's file and node, for messages
};

/**
 * \ingroup rdma
 * \brief The steps of a job whose ranks run Chakra execution traces.
 *
 * Each rank's nodes run in a topological order of their dependencies
 * (ctrl_deps and data_deps; of the nodes ready at once, the first in the
 * file first), one at a time: a COMP_NODE takes its duration_micros, a
 * COMM_COLL_NODE is a collective of every rank, METADATA_NODEs take no
 * time. The runner runs one sequence of collectives on every rank, so every
 * rank's k-th collective must be the same (comm_type, comm_size, pg_name);
 * the compute between two collectives may differ from rank to rank.
 *
 * What the traces ask and these steps leave out is said in `warnings`:
 * MEM_LOAD_NODE and MEM_STORE_NODE (ASTRA-sim's memory model), and nodes the
 * trace lets run beside a collective, which run after it here (as SimAI's
 * text workloads run their collectives in turn); a collective's pg_name,
 * taken as every rank.
 *
 * \param t the traces
 * \param warnings receives what is left out, once per kind
 * \return the steps, compute gaps and collectives in turn (a gap of zero
 *         everywhere is left out)
 * \throws std::runtime_error naming the file and node: a dependency on a
 *         node the file does not have, a cycle, a point-to-point node
 *         (COMM_SEND_NODE, COMM_RECV_NODE: not run), a collective without
 *         comm_type or over some network dimensions only (involved_dim), or
 *         ranks whose collectives differ
 */
std::vector<RdmaChakraStep> RdmaChakraSteps(const RdmaChakraTrace& t,
                                            std::vector<std::string>* warnings);

} // namespace ns3

#endif /* RDMA_CHAKRA_STEPS_H */
