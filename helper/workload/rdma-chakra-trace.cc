/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-chakra-trace.h"

#include "et_def.pb.h"

#include <filesystem>
#include <fstream>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

using ChakraProtoMsg::AttributeProto;

/// \return "file: node ID (NAME): " for messages about a node
std::string
At(const std::string& file, const ChakraProtoMsg::Node& n)
{
    return file + ": node " + std::to_string(n.id()) + " (" + n.name() + "): ";
}

/**
 * \return an integer attribute's value (any of et_def.proto's integer
 * types) \param a the attribute \param where for messages
 * \throws std::runtime_error if it holds no integer
 */
int64_t
Integer(const AttributeProto& a, const std::string& where)
{
    switch (a.value_case())
    {
    case AttributeProto::kInt32Val:
        return a.int32_val();
    case AttributeProto::kInt64Val:
        return a.int64_val();
    case AttributeProto::kUint32Val:
        return a.uint32_val();
    case AttributeProto::kUint64Val:
        if (a.uint64_val() > uint64_t(INT64_MAX))
        {
            throw std::runtime_error(where + a.name() + " = " + std::to_string(a.uint64_val()) +
                                     ": too large");
        }
        return static_cast<int64_t>(a.uint64_val());
    case AttributeProto::kSint32Val:
        return a.sint32_val();
    case AttributeProto::kSint64Val:
        return a.sint64_val();
    case AttributeProto::kFixed32Val:
        return a.fixed32_val();
    case AttributeProto::kFixed64Val:
        if (a.fixed64_val() > uint64_t(INT64_MAX))
        {
            throw std::runtime_error(where + a.name() + " = " + std::to_string(a.fixed64_val()) +
                                     ": too large");
        }
        return static_cast<int64_t>(a.fixed64_val());
    case AttributeProto::kSfixed32Val:
        return a.sfixed32_val();
    case AttributeProto::kSfixed64Val:
        return a.sfixed64_val();
    default:
        throw std::runtime_error(where + a.name() + ": expected an integer value");
    }
}

/// \return the name et_def.proto's CollectiveCommType gives value v, or "#v"
std::string
CollectiveName(int64_t v)
{
    if (v >= 0 && v <= INT32_MAX && ChakraProtoMsg::CollectiveCommType_IsValid(int(v)))
    {
        return ChakraProtoMsg::CollectiveCommType_Name(
            static_cast<ChakraProtoMsg::CollectiveCommType>(v));
    }
    return "#" + std::to_string(v);
}

/**
 * \return one Node message as an RdmaChakraNode \param n the message
 * \param file for messages \throws std::runtime_error on a bad attribute
 */
RdmaChakraNode
FromMessage(const ChakraProtoMsg::Node& n, const std::string& file)
{
    RdmaChakraNode node;
    node.id = n.id();
    node.name = n.name();
    node.deps.assign(n.ctrl_deps().begin(), n.ctrl_deps().end());
    node.deps.insert(node.deps.end(), n.data_deps().begin(), n.data_deps().end());
    const std::string where = At(file, n);
    switch (n.type())
    {
    case ChakraProtoMsg::COMP_NODE:
        node.kind = RdmaChakraNode::COMPUTE;
        break;
    case ChakraProtoMsg::COMM_SEND_NODE:
        node.kind = RdmaChakraNode::SEND;
        break;
    case ChakraProtoMsg::COMM_RECV_NODE:
        node.kind = RdmaChakraNode::RECV;
        break;
    case ChakraProtoMsg::COMM_COLL_NODE:
        node.kind = RdmaChakraNode::COLLECTIVE;
        break;
    case ChakraProtoMsg::MEM_LOAD_NODE:
    case ChakraProtoMsg::MEM_STORE_NODE:
        node.kind = RdmaChakraNode::MEMORY;
        break;
    case ChakraProtoMsg::METADATA_NODE:
        node.kind = RdmaChakraNode::METADATA;
        break;
    default:
        throw std::runtime_error(where + "node type " + std::to_string(n.type()) +
                                 ": expected METADATA_NODE, MEM_LOAD_NODE, MEM_STORE_NODE, "
                                 "COMP_NODE, COMM_SEND_NODE, COMM_RECV_NODE or COMM_COLL_NODE");
    }
    if (n.duration_micros() > uint64_t(INT64_MAX) / 1000000)
    {
        throw std::runtime_error(where + "duration_micros " + std::to_string(n.duration_micros()) +
                                 ": too large");
    }
    node.duration = MicroSeconds(static_cast<int64_t>(n.duration_micros()));
    for (const AttributeProto& a : n.attr())
    {
        if (a.name() == "comm_type")
        {
            node.collective = CollectiveName(Integer(a, where));
        }
        else if (a.name() == "comm_size")
        {
            const int64_t v = Integer(a, where);
            if (v < 0)
            {
                throw std::runtime_error(where + "comm_size " + std::to_string(v) +
                                         ": expected bytes, 0 or more");
            }
            node.bytes = static_cast<uint64_t>(v);
        }
        else if ((a.name() == "comm_dst" && node.kind == RdmaChakraNode::SEND) ||
                 (a.name() == "comm_src" && node.kind == RdmaChakraNode::RECV))
        {
            node.peer = Integer(a, where);
        }
        else if (a.name() == "comm_tag" &&
                 (node.kind == RdmaChakraNode::SEND || node.kind == RdmaChakraNode::RECV))
        {
            node.tag = Integer(a, where);
        }
        else if (a.name() == "pg_name")
        {
            if (a.value_case() != AttributeProto::kStringVal)
            {
                throw std::runtime_error(where + "pg_name: expected a string value");
            }
            node.group = a.string_val();
        }
        else if (a.name() == "involved_dim")
        {
            if (a.value_case() != AttributeProto::kBoolList)
            {
                throw std::runtime_error(where + "involved_dim: expected a bool list");
            }
            node.involvedDims.assign(a.bool_list().values().begin(), a.bool_list().values().end());
        }
    }
    return node;
}

} // namespace

std::vector<RdmaChakraNode>
RdmaParseChakraRank(const std::string& bytes, const std::string& name, std::string* version)
{
    google::protobuf::io::ArrayInputStream in(bytes.data(), static_cast<int>(bytes.size()));
    bool cleanEof = false;
    ChakraProtoMsg::GlobalMetadata meta;
    if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&meta, &in, &cleanEof))
    {
        throw std::runtime_error(name + ": " +
                                 (cleanEof ? std::string("empty: expected a GlobalMetadata "
                                                         "message, then the nodes")
                                           : std::string("its GlobalMetadata message does not "
                                                         "parse (not a Chakra execution trace?)")));
    }
    if (version)
    {
        *version = meta.version();
    }
    std::vector<RdmaChakraNode> nodes;
    std::set<uint64_t> ids;
    while (true)
    {
        const int64_t offset = in.ByteCount();
        ChakraProtoMsg::Node n;
        if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&n, &in, &cleanEof))
        {
            if (cleanEof)
            {
                break;
            }
            throw std::runtime_error(name + ": the message at byte " + std::to_string(offset) +
                                     " (after node " + std::to_string(nodes.size()) +
                                     " of the file) does not parse as a Node");
        }
        if (!ids.insert(n.id()).second)
        {
            throw std::runtime_error(At(name, n) + "its id is given to an earlier node too");
        }
        nodes.push_back(FromMessage(n, name));
    }
    return nodes;
}

RdmaChakraTrace
RdmaReadChakraTrace(const std::string& where)
{
    namespace fs = std::filesystem;
    std::string prefix = where;
    std::error_code ec;
    if (fs::is_directory(where, ec))
    {
        // The one <name>.<rank>.et set in the folder, by its rank 0 file.
        std::set<std::string> sets;
        for (const auto& e : fs::directory_iterator(where, ec))
        {
            const std::string f = e.path().filename().string();
            const std::string tail = ".0.et";
            if (f.size() > tail.size() && f.compare(f.size() - tail.size(), tail.size(), tail) == 0)
            {
                sets.insert(f.substr(0, f.size() - tail.size()));
            }
        }
        if (sets.size() != 1)
        {
            std::string names;
            for (const auto& s : sets)
            {
                names += (names.empty() ? "" : ", ") + s;
            }
            throw std::runtime_error(where +
                                     ": expected one set of Chakra traces "
                                     "(<name>.0.et, <name>.1.et, ...) in the folder, found " +
                                     (sets.empty() ? std::string("none") : names));
        }
        prefix = (fs::path(where) / *sets.begin()).string();
    }
    RdmaChakraTrace t;
    for (uint32_t r = 0;; ++r)
    {
        const std::string file = prefix + "." + std::to_string(r) + ".et";
        std::ifstream in(file, std::ios::binary);
        if (!in)
        {
            if (r == 0)
            {
                throw std::runtime_error(file + ": cannot open (" + where +
                                         " names no Chakra traces: expected <prefix>.0.et, "
                                         "<prefix>.1.et, ... or a folder of them)");
            }
            break;
        }
        std::ostringstream bytes;
        bytes << in.rdbuf();
        if (bytes.str().size() > size_t(INT32_MAX))
        {
            throw std::runtime_error(file + ": larger than 2 GiB");
        }
        std::string version;
        t.ranks.push_back(RdmaParseChakraRank(bytes.str(), file, &version));
        t.files.push_back(file);
        t.versions.push_back(version);
    }
    return t;
}

} // namespace ns3
