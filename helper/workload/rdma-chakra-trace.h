/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CHAKRA_TRACE_H
#define RDMA_CHAKRA_TRACE_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One node of a rank's Chakra execution trace (MLCommons Chakra,
 * schema/protobuf/et_def.proto's Node), as far as a run needs it.
 */
struct RdmaChakraNode
{
    /// What the node does (et_def.proto's NodeType)
    enum Kind
    {
        METADATA,   //!< METADATA_NODE: takes no time
        MEMORY,     //!< MEM_LOAD_NODE or MEM_STORE_NODE
        COMPUTE,    //!< COMP_NODE: duration_micros on the GPU
        SEND,       //!< COMM_SEND_NODE: comm_size bytes to comm_dst
        RECV,       //!< COMM_RECV_NODE: comm_size bytes from comm_src
        COLLECTIVE, //!< COMM_COLL_NODE: comm_type over comm_size bytes
    };

    uint64_t id{0};      //!< the node's id, unique in its rank's trace
    std::string name;    //!< its name
    Kind kind{METADATA}; //!< what it does
    /// Nodes it waits for: its ctrl_deps, then its data_deps
    std::vector<uint64_t> deps;
    Time duration; //!< COMPUTE: duration_micros
    /// COLLECTIVE: comm_type as et_def.proto's CollectiveCommType names it
    /// ("ALL_REDUCE", "ALL_GATHER", ...), or "#N" for a value it does not name
    std::string collective;
    uint64_t bytes{0}; //!< COLLECTIVE, SEND, RECV: comm_size (bytes)
    int64_t peer{-1};  //!< SEND: comm_dst; RECV: comm_src; -1 if the node has none
    int64_t tag{0};    //!< SEND, RECV: comm_tag (0 if the node has none)
    std::string group; //!< COLLECTIVE: pg_name, empty if none
    /// COLLECTIVE: involved_dim, one flag per network dimension (ASTRA-sim);
    /// empty if the node has none
    std::vector<bool> involvedDims;
};

/**
 * \ingroup rdma
 * \brief A job's Chakra execution traces: one file per rank,
 * <prefix>.<rank>.et, each a GlobalMetadata message then Node messages,
 * every message preceded by its length as a varint (Chakra's
 * protolib.encodeMessage, protobuf's delimited format).
 */
struct RdmaChakraTrace
{
    std::vector<std::string> files;                 //!< per rank, its file
    std::vector<std::string> versions;              //!< per rank, GlobalMetadata's version
    std::vector<std::vector<RdmaChakraNode>> ranks; //!< per rank, its nodes in file order
};

/**
 * \brief Read a job's Chakra execution traces.
 *
 * \param where a prefix (traces/llama reads traces/llama.0.et,
 *        traces/llama.1.et, ... up to the first rank without a file) or a
 *        folder holding one such set of files (<name>.<rank>.et)
 * \return every rank's nodes
 * \throws std::runtime_error naming the file (and node, or byte offset) on
 *         a missing or unreadable file, a folder with no set or several, a
 *         message that does not parse, a node id given twice, an attribute
 *         of the wrong type (comm_type, comm_size, comm_src, comm_dst,
 *         comm_tag: integers; pg_name: a string; involved_dim: a bool list), or a
 *         negative size
 */
RdmaChakraTrace RdmaReadChakraTrace(const std::string& where);

/**
 * \brief Parse one rank's trace from memory (RdmaReadChakraTrace's work on
 * one file; the fuzz harness's entry).
 * \param bytes the file's content
 * \param name the file's name, for messages
 * \param version receives GlobalMetadata's version
 * \return its nodes in file order
 * \throws std::runtime_error as RdmaReadChakraTrace
 */
std::vector<RdmaChakraNode> RdmaParseChakraRank(const std::string& bytes,
                                                const std::string& name,
                                                std::string* version);

} // namespace ns3

#endif /* RDMA_CHAKRA_TRACE_H */
