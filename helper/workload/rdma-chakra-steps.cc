/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-chakra-steps.h"

#include <queue>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

namespace
{

/// \return "file: node ID (NAME)" \param file the file \param n the node
std::string
NodeText(const std::string& file, const RdmaChakraNode& n)
{
    return file + ": node " + std::to_string(n.id) + " (" + n.name + ")";
}

/// One rank's trace walked: its compute gaps and collectives in turn.
struct RankWalk
{
    std::vector<Time> gaps; //!< the compute before each collective, then after the last
    std::vector<const RdmaChakraNode*> collectives; //!< in the order run
    uint64_t memoryNodes{0};                        //!< MEM_LOAD_NODE and MEM_STORE_NODE left out
    uint64_t untimed{0};                            //!< COMP_NODEs without duration_micros
    uint64_t overlapped{0}; //!< collectives run while other nodes were ready too
    std::string group;      //!< a pg_name seen, or empty
};

/**
 * \return one rank's nodes run in a topological order of their dependencies,
 * of the nodes ready at once the first in the file first
 * \param nodes the rank's nodes \param file its file (for messages)
 * \throws std::runtime_error as RdmaChakraSteps
 */
RankWalk
Walk(const std::vector<RdmaChakraNode>& nodes, const std::string& file)
{
    std::unordered_map<uint64_t, std::size_t> index;
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        index[nodes[i].id] = i;
    }
    std::vector<uint32_t> waiting(nodes.size(), 0);
    std::vector<std::vector<std::size_t>> children(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        for (uint64_t d : nodes[i].deps)
        {
            auto it = index.find(d);
            if (it == index.end())
            {
                throw std::runtime_error(NodeText(file, nodes[i]) + " depends on node " +
                                         std::to_string(d) + ", which the file does not have");
            }
            children[it->second].push_back(i);
            ++waiting[i];
        }
    }
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
    // Overlap the trace allows (ASTRA-sim runs a collective beside compute):
    // the COMP_NODEs ready now, and those run so far.
    uint64_t readyCompute = 0;
    uint64_t computeRun = 0;
    std::vector<uint64_t> readyAt(nodes.size(), 0); // computeRun when it became ready
    auto push = [&](std::size_t i) {
        ready.push(i);
        readyAt[i] = computeRun;
        readyCompute += nodes[i].kind == RdmaChakraNode::COMPUTE;
    };
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        if (waiting[i] == 0)
        {
            push(i);
        }
    }
    RankWalk w;
    w.gaps.emplace_back(0);
    std::size_t run = 0;
    while (!ready.empty())
    {
        const std::size_t i = ready.top();
        ready.pop();
        const RdmaChakraNode& n = nodes[i];
        switch (n.kind)
        {
        case RdmaChakraNode::COMPUTE:
            w.gaps.back() += n.duration;
            w.untimed += n.duration.IsZero();
            --readyCompute;
            ++computeRun;
            break;
        case RdmaChakraNode::MEMORY:
            ++w.memoryNodes;
            break;
        case RdmaChakraNode::SEND:
        case RdmaChakraNode::RECV:
            throw std::runtime_error(
                NodeText(file, n) + ": " +
                (n.kind == RdmaChakraNode::SEND ? "COMM_SEND_NODE" : "COMM_RECV_NODE") +
                ": point-to-point nodes are not run (a job's ranks run one sequence of "
                "collectives); only COMP_NODE, COMM_COLL_NODE, METADATA_NODE and memory nodes "
                "are read");
        case RdmaChakraNode::COLLECTIVE:
            if (n.collective.empty())
            {
                throw std::runtime_error(NodeText(file, n) + ": a COMM_COLL_NODE without "
                                                             "comm_type");
            }
            for (bool d : n.involvedDims)
            {
                if (!d)
                {
                    throw std::runtime_error(NodeText(file, n) +
                                             ": involved_dim leaves out a network dimension: "
                                             "the collective would run over some ranks only, "
                                             "and the runner runs it over every rank");
                }
            }
            // Compute ready beside it, or run while it waited: ASTRA-sim
            // would run them at once.
            w.overlapped += readyCompute > 0 || computeRun > readyAt[i] ? 1 : 0;
            w.collectives.push_back(&n);
            w.gaps.emplace_back(0);
            if (!n.group.empty())
            {
                w.group = n.group;
            }
            break;
        case RdmaChakraNode::METADATA:
            break;
        }
        ++run;
        for (std::size_t c : children[i])
        {
            if (--waiting[c] == 0)
            {
                push(c);
            }
        }
    }
    if (run < nodes.size())
    {
        for (std::size_t i = 0; i < nodes.size(); ++i)
        {
            if (waiting[i] > 0)
            {
                throw std::runtime_error(NodeText(file, nodes[i]) +
                                         " is on a cycle of dependencies (or waits for one): "
                                         "it never becomes ready");
            }
        }
    }
    return w;
}

/// \return whether two ranks' k-th collectives are the same
bool
Same(const RdmaChakraNode& a, const RdmaChakraNode& b)
{
    return a.collective == b.collective && a.bytes == b.bytes && a.group == b.group;
}

/// \return a collective as a message names it: "ALL_REDUCE of 65536 bytes"
std::string
Describe(const RdmaChakraNode& n)
{
    return n.collective + " of " + std::to_string(n.bytes) + " bytes" +
           (n.group.empty() ? std::string() : " in process group '" + n.group + "'");
}

} // namespace

std::vector<RdmaChakraStep>
RdmaChakraSteps(const RdmaChakraTrace& t, std::vector<std::string>* warnings)
{
    std::vector<RankWalk> walks;
    for (std::size_t r = 0; r < t.ranks.size(); ++r)
    {
        walks.push_back(Walk(t.ranks[r], t.files[r]));
    }
    if (walks.empty())
    {
        return {};
    }
    const RankWalk& first = walks[0];
    for (std::size_t r = 1; r < walks.size(); ++r)
    {
        const RankWalk& w = walks[r];
        const std::size_t n = std::min(w.collectives.size(), first.collectives.size());
        for (std::size_t k = 0; k < n; ++k)
        {
            if (!Same(*w.collectives[k], *first.collectives[k]))
            {
                throw std::runtime_error(
                    NodeText(t.files[r], *w.collectives[k]) + ": collective " +
                    std::to_string(k + 1) + " of rank " + std::to_string(r) + " is " +
                    Describe(*w.collectives[k]) + ", rank 0's (" +
                    NodeText(t.files[0], *first.collectives[k]) + ") is " +
                    Describe(*first.collectives[k]) +
                    ": every rank must run the same collectives in the same order");
            }
        }
        if (w.collectives.size() != first.collectives.size())
        {
            throw std::runtime_error(t.files[r] + ": rank " + std::to_string(r) + " runs " +
                                     std::to_string(w.collectives.size()) +
                                     " collectives, rank 0 (" + t.files[0] + ") " +
                                     std::to_string(first.collectives.size()) +
                                     ": every rank must run the same collectives");
        }
    }
    std::vector<RdmaChakraStep> steps;
    for (std::size_t k = 0; k < first.gaps.size(); ++k)
    {
        RdmaChakraStep gap;
        bool any = false;
        for (const RankWalk& w : walks)
        {
            gap.compute.push_back(w.gaps[k]);
            any = any || w.gaps[k].IsStrictlyPositive();
        }
        if (any)
        {
            steps.push_back(gap);
        }
        if (k < first.collectives.size())
        {
            RdmaChakraStep c;
            c.collective = true;
            c.type = first.collectives[k]->collective;
            c.bytes = first.collectives[k]->bytes;
            c.name = first.collectives[k]->name;
            c.where = NodeText(t.files[0], *first.collectives[k]);
            steps.push_back(c);
        }
    }
    uint64_t memory = 0;
    uint64_t untimed = 0;
    uint64_t overlapped = 0;
    std::string group;
    for (const RankWalk& w : walks)
    {
        memory += w.memoryNodes;
        untimed += w.untimed;
        overlapped += w.overlapped;
        group = group.empty() ? w.group : group;
    }
    if (warnings && memory > 0)
    {
        warnings->push_back(t.files[0] +
                            " (and the other ranks' files): " + std::to_string(memory) +
                            " memory node(s) (MEM_LOAD_NODE, MEM_STORE_NODE) are left out: "
                            "they take no time here");
    }
    if (warnings && untimed > 0)
    {
        warnings->push_back(t.files[0] +
                            " (and the other ranks' files): " + std::to_string(untimed) +
                            " COMP_NODE(s) without duration_micros take no time here "
                            "(ASTRA-sim's roofline model, from num_ops, is not run)");
    }
    if (warnings && overlapped > 0)
    {
        warnings->push_back(t.files[0] +
                            " (and the other ranks' files): " + std::to_string(overlapped) +
                            " collective(s) could run beside other nodes (nothing orders "
                            "them); nodes run one at a time here, in an order of their "
                            "dependencies, so the overlap the trace allows is not taken");
    }
    if (warnings && !group.empty())
    {
        warnings->push_back(t.files[0] + ": collectives name process group '" + group +
                            "' (pg_name): every collective runs over every rank of the job");
    }
    return steps;
}

} // namespace ns3
