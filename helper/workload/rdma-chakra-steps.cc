/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-chakra-steps.h"

#include <algorithm>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>
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

/// One thing a rank does in turn: compute, a collective, or a send or receive.
struct Entry
{
    /// What it is
    enum Kind
    {
        COMPUTE,    //!< consecutive COMP_NODEs, summed
        COLLECTIVE, //!< a COMM_COLL_NODE
        P2P,        //!< a COMM_SEND_NODE or COMM_RECV_NODE
    };

    Kind kind{COMPUTE};                  //!< what it is
    Time compute;                        //!< COMPUTE: how long
    const RdmaChakraNode* node{nullptr}; //!< COLLECTIVE, P2P: the node
};

/// One rank's trace walked: what it does, in turn.
struct RankWalk
{
    std::vector<Entry> entries; //!< in the order run
    uint32_t collectives{0};    //!< COLLECTIVE entries
    uint64_t memoryNodes{0};    //!< MEM_LOAD_NODE and MEM_STORE_NODE left out
    uint64_t untimed{0};        //!< COMP_NODEs without duration_micros
    uint64_t overlapped{0};     //!< communication run while other nodes were ready too
    std::string group;          //!< a pg_name seen, or empty
};

/**
 * \brief Check a collective node: a comm_type, over every network dimension.
 * \param n the node \param file its file \throws std::runtime_error
 */
void
CheckCollective(const RdmaChakraNode& n, const std::string& file)
{
    if (n.collective.empty())
    {
        throw std::runtime_error(NodeText(file, n) + ": a COMM_COLL_NODE without comm_type");
    }
    for (bool d : n.involvedDims)
    {
        if (!d)
        {
            throw std::runtime_error(NodeText(file, n) +
                                     ": involved_dim leaves out a network dimension: the "
                                     "collective would run over some ranks only, and the "
                                     "runner runs it over every rank");
        }
    }
}

/**
 * \brief Check a send or receive node's peer: given, a rank of the job, not its own.
 * \param n the node \param file its file \param rank its rank \param ranks the job's ranks
 * \throws std::runtime_error
 */
void
CheckPeer(const RdmaChakraNode& n, const std::string& file, uint32_t rank, uint32_t ranks)
{
    const bool send = n.kind == RdmaChakraNode::SEND;
    const std::string key = send ? "comm_dst" : "comm_src";
    const std::string type = send ? "COMM_SEND_NODE" : "COMM_RECV_NODE";
    if (n.peer < 0)
    {
        throw std::runtime_error(NodeText(file, n) + ": a " + type + " without " + key +
                                 ": the peer rank is not given");
    }
    if (n.peer >= int64_t(ranks) || n.peer == int64_t(rank))
    {
        throw std::runtime_error(NodeText(file, n) + ": " + key + " " + std::to_string(n.peer) +
                                 (n.peer == int64_t(rank)
                                      ? ": the node's own rank"
                                      : ": not a rank of the job (ranks 0 to " +
                                            std::to_string(ranks - 1) + ", a file each)"));
    }
}

/**
 * \return one rank's nodes run in a topological order of their dependencies,
 * of the nodes ready at once the first in the file first
 * \param nodes the rank's nodes \param file its file (for messages)
 * \param rank its rank \param ranks the job's ranks
 * \throws std::runtime_error as RdmaChakraSteps
 */
RankWalk
Walk(const std::vector<RdmaChakraNode>& nodes,
     const std::string& file,
     uint32_t rank,
     uint32_t ranks)
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
    // Overlap the trace allows (ASTRA-sim runs communication beside
    // compute): the COMP_NODEs ready now, and those run so far.
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
    std::size_t run = 0;
    while (!ready.empty())
    {
        const std::size_t i = ready.top();
        ready.pop();
        const RdmaChakraNode& n = nodes[i];
        switch (n.kind)
        {
        case RdmaChakraNode::COMPUTE:
            w.untimed += n.duration.IsZero();
            --readyCompute;
            ++computeRun;
            if (n.duration.IsStrictlyPositive())
            {
                if (w.entries.empty() || w.entries.back().kind != Entry::COMPUTE)
                {
                    w.entries.push_back(Entry{});
                }
                w.entries.back().compute += n.duration;
            }
            break;
        case RdmaChakraNode::MEMORY:
            ++w.memoryNodes;
            break;
        case RdmaChakraNode::SEND:
        case RdmaChakraNode::RECV:
        case RdmaChakraNode::COLLECTIVE: {
            const bool collective = n.kind == RdmaChakraNode::COLLECTIVE;
            if (collective)
            {
                CheckCollective(n, file);
                ++w.collectives;
                w.group = n.group.empty() ? w.group : n.group;
            }
            else
            {
                CheckPeer(n, file, rank, ranks);
            }
            // Compute ready beside it, or run while it waited: ASTRA-sim
            // would run them at once.
            w.overlapped += readyCompute > 0 || computeRun > readyAt[i] ? 1 : 0;
            w.entries.push_back(Entry{collective ? Entry::COLLECTIVE : Entry::P2P, Time(0), &n});
            break;
        }
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

/// A rank's entry: (rank, index in its walk).
using Place = std::pair<uint32_t, std::size_t>;

/// \return "COMM_SEND_NODE to rank 2 (comm_tag 7)" \param n a send or receive
std::string
P2pText(const RdmaChakraNode& n)
{
    const bool send = n.kind == RdmaChakraNode::SEND;
    return std::string(send ? "COMM_SEND_NODE to rank " : "COMM_RECV_NODE from rank ") +
           std::to_string(n.peer) + " (comm_tag " + std::to_string(n.tag) + ")";
}

/**
 * \return per rank, per entry, the place of the node a send or receive
 * matches (the k-th send from a to b with tag t, the k-th receive at b from
 * a with tag t) \param walks the ranks' walks \param files their files
 * \throws std::runtime_error naming a node without a match, or whose size
 *         is not its match's
 */
std::vector<std::vector<Place>>
Match(const std::vector<RankWalk>& walks, const std::vector<std::string>& files)
{
    // (src, dst, tag) -> the sends, and the receives, in their ranks' order
    std::map<std::tuple<int64_t, int64_t, int64_t>,
             std::pair<std::vector<Place>, std::vector<Place>>>
        byKey;
    for (uint32_t r = 0; r < walks.size(); ++r)
    {
        for (std::size_t i = 0; i < walks[r].entries.size(); ++i)
        {
            const RdmaChakraNode* n = walks[r].entries[i].node;
            if (walks[r].entries[i].kind != Entry::P2P)
            {
                continue;
            }
            if (n->kind == RdmaChakraNode::SEND)
            {
                byKey[{r, n->peer, n->tag}].first.emplace_back(r, i);
            }
            else
            {
                byKey[{n->peer, r, n->tag}].second.emplace_back(r, i);
            }
        }
    }
    std::vector<std::vector<Place>> partner(walks.size());
    for (uint32_t r = 0; r < walks.size(); ++r)
    {
        partner[r].resize(walks[r].entries.size());
    }
    const auto node = [&](const Place& p) { return walks[p.first].entries[p.second].node; };
    for (const auto& [key, ends] : byKey)
    {
        const auto& [sends, recvs] = ends;
        for (std::size_t k = 0; k < std::min(sends.size(), recvs.size()); ++k)
        {
            const RdmaChakraNode& s = *node(sends[k]);
            const RdmaChakraNode& d = *node(recvs[k]);
            if (s.bytes != d.bytes)
            {
                throw std::runtime_error(
                    NodeText(files[sends[k].first], s) + ": " + P2pText(s) + " sends " +
                    std::to_string(s.bytes) + " bytes, its COMM_RECV_NODE (" +
                    NodeText(files[recvs[k].first], d) + ") receives " + std::to_string(d.bytes) +
                    ": a send and its receive must give one comm_size");
            }
            partner[sends[k].first][sends[k].second] = recvs[k];
            partner[recvs[k].first][recvs[k].second] = sends[k];
        }
        if (sends.size() != recvs.size())
        {
            const bool moreSends = sends.size() > recvs.size();
            const Place& p = moreSends ? sends[recvs.size()] : recvs[sends.size()];
            const auto [src, dst, tag] = key;
            throw std::runtime_error(
                NodeText(files[p.first], *node(p)) + ": " + P2pText(*node(p)) +
                " has no match: rank " + std::to_string(src) + " sends " +
                std::to_string(sends.size()) + " time(s) to rank " + std::to_string(dst) +
                " with comm_tag " + std::to_string(tag) + ", rank " + std::to_string(dst) +
                " receives " + std::to_string(recvs.size()) + " time(s) from it with that tag");
        }
    }
    return partner;
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

namespace
{

/**
 * \brief The ranks' walks merged into one sequence of steps (see
 * RdmaChakraSteps).
 */
class Merger
{
  public:
    /// \param t the traces \param walks their walks
    Merger(const RdmaChakraTrace& t, const std::vector<RankWalk>& walks)
        : m_t(t),
          m_walks(walks),
          m_partner(Match(walks, t.files)),
          m_head(walks.size(), 0)
    {
    }

    /// \return the steps \throws std::runtime_error as RdmaChakraSteps
    std::vector<RdmaChakraStep> Run()
    {
        while (!AllDone())
        {
            if (!Compute() && !Transfers() && !Collective())
            {
                Stuck();
            }
        }
        return std::move(m_steps);
    }

  private:
    /// \return rank r's next entry, or null if it has none left \param r the rank
    const Entry* Head(uint32_t r) const
    {
        return m_head[r] < m_walks[r].entries.size() ? &m_walks[r].entries[m_head[r]] : nullptr;
    }

    /// \return whether every rank has run every entry
    bool AllDone() const
    {
        for (uint32_t r = 0; r < m_walks.size(); ++r)
        {
            if (Head(r))
            {
                return false;
            }
        }
        return true;
    }

    /// A compute gap of every rank that computes next. \return whether one computes
    bool Compute()
    {
        RdmaChakraStep gap;
        gap.compute.assign(m_walks.size(), Time(0));
        bool any = false;
        for (uint32_t r = 0; r < m_walks.size(); ++r)
        {
            const Entry* e = Head(r);
            if (e && e->kind == Entry::COMPUTE)
            {
                gap.compute[r] = e->compute;
                ++m_head[r];
                any = true;
            }
        }
        if (any)
        {
            m_steps.push_back(std::move(gap));
        }
        return any;
    }

    /**
     * \brief Every send and receive that can run now: each rank's
     * consecutive ones from its next entry, cut before the first whose
     * match its peer cannot reach in this step.
     * \return whether there is one
     */
    bool Transfers()
    {
        const auto n = static_cast<uint32_t>(m_walks.size());
        std::vector<std::size_t> end(m_head);
        for (uint32_t r = 0; r < n; ++r)
        {
            while (end[r] < m_walks[r].entries.size() &&
                   m_walks[r].entries[end[r]].kind == Entry::P2P)
            {
                ++end[r];
            }
        }
        for (bool changed = true; changed;)
        {
            changed = false;
            for (uint32_t r = 0; r < n; ++r)
            {
                for (std::size_t i = m_head[r]; i < end[r]; ++i)
                {
                    const Place& p = m_partner[r][i];
                    if (p.second >= end[p.first])
                    {
                        end[r] = i;
                        changed = true;
                        break;
                    }
                }
            }
        }
        // Each send in the step is a transfer, numbered in rank order.
        std::map<Place, uint32_t> number;
        std::vector<Place> sends;
        for (uint32_t r = 0; r < n; ++r)
        {
            for (std::size_t i = m_head[r]; i < end[r]; ++i)
            {
                if (m_walks[r].entries[i].node->kind == RdmaChakraNode::SEND)
                {
                    number[{r, i}] = static_cast<uint32_t>(sends.size());
                    sends.emplace_back(r, i);
                }
            }
        }
        if (sends.empty())
        {
            return false;
        }
        std::vector<RdmaChakraTransfer> transfers;
        for (const Place& s : sends)
        {
            const RdmaChakraNode& node = *m_walks[s.first].entries[s.second].node;
            RdmaChakraTransfer x;
            x.src = s.first;
            x.dst = static_cast<uint32_t>(node.peer);
            x.bytes = node.bytes;
            for (std::size_t i = m_head[s.first]; i < s.second; ++i)
            {
                if (m_walks[s.first].entries[i].node->kind == RdmaChakraNode::RECV)
                {
                    x.after.push_back(number.at(m_partner[s.first][i]));
                }
            }
            transfers.push_back(std::move(x));
        }
        RdmaChakraStep step;
        step.kind = RdmaChakraStep::TRANSFERS;
        step.transfers = InOrder(transfers, sends);
        const RdmaChakraNode& first = *m_walks[sends[0].first].entries[sends[0].second].node;
        step.name = first.name;
        step.where = NodeText(m_t.files[sends[0].first], first);
        m_head = end;
        m_steps.push_back(std::move(step));
        return true;
    }

    /**
     * \return the transfers ordered so each comes after those it waits for
     * (of those free at once, the lowest number first), `after` renumbered
     * \param transfers in rank order \param sends their nodes' places
     * \throws std::runtime_error naming a node if they wait for each other
     */
    std::vector<RdmaChakraTransfer> InOrder(const std::vector<RdmaChakraTransfer>& transfers,
                                            const std::vector<Place>& sends) const
    {
        const std::size_t n = transfers.size();
        std::vector<uint32_t> waiting(n, 0);
        std::vector<std::vector<uint32_t>> dependents(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            waiting[i] = static_cast<uint32_t>(transfers[i].after.size());
            for (uint32_t a : transfers[i].after)
            {
                dependents[a].push_back(i);
            }
        }
        std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (waiting[i] == 0)
            {
                free.push(i);
            }
        }
        std::vector<uint32_t> position(n, UINT32_MAX);
        std::vector<RdmaChakraTransfer> out;
        while (!free.empty())
        {
            const uint32_t i = free.top();
            free.pop();
            position[i] = static_cast<uint32_t>(out.size());
            out.push_back(transfers[i]);
            for (uint32_t& a : out.back().after)
            {
                a = position[a];
            }
            for (uint32_t d : dependents[i])
            {
                if (--waiting[d] == 0)
                {
                    free.push(d);
                }
            }
        }
        if (out.size() < n)
        {
            const uint32_t i = static_cast<uint32_t>(
                std::find(position.begin(), position.end(), UINT32_MAX) - position.begin());
            const Place& s = sends[i];
            const RdmaChakraNode& node = *m_walks[s.first].entries[s.second].node;
            throw std::runtime_error(
                NodeText(m_t.files[s.first], node) + ": " + P2pText(node) +
                " waits for a receive before it, whose sender waits in turn for this rank: "
                "the ranks' sends and receives wait for each other (a deadlock)");
        }
        return out;
    }

    /// Every rank's next collective, if every rank has come to one.
    /// \return whether they had \throws std::runtime_error if they differ
    bool Collective()
    {
        for (uint32_t r = 0; r < m_walks.size(); ++r)
        {
            const Entry* e = Head(r);
            if (!e || e->kind != Entry::COLLECTIVE)
            {
                return false;
            }
        }
        const RdmaChakraNode& first = *Head(0)->node;
        for (uint32_t r = 1; r < m_walks.size(); ++r)
        {
            const RdmaChakraNode& own = *Head(r)->node;
            if (!Same(own, first))
            {
                throw std::runtime_error(NodeText(m_t.files[r], own) + ": collective " +
                                         std::to_string(m_collectives + 1) + " of rank " +
                                         std::to_string(r) + " is " + Describe(own) +
                                         ", rank 0's (" + NodeText(m_t.files[0], first) + ") is " +
                                         Describe(first) +
                                         ": every rank must run the same collectives in the same "
                                         "order");
            }
        }
        RdmaChakraStep c;
        c.kind = RdmaChakraStep::COLLECTIVE;
        c.type = first.collective;
        c.bytes = first.bytes;
        c.name = first.name;
        c.where = NodeText(m_t.files[0], first);
        m_steps.push_back(std::move(c));
        for (std::size_t& h : m_head)
        {
            ++h;
        }
        ++m_collectives;
        return true;
    }

    /// Nothing can run: say why. \throws std::runtime_error always
    [[noreturn]] void Stuck() const
    {
        for (uint32_t r = 0; r < m_walks.size(); ++r)
        {
            const Entry* e = Head(r);
            if (e && e->kind == Entry::P2P)
            {
                const Place& p = m_partner[r][m_head[r]];
                const RdmaChakraNode& match = *m_walks[p.first].entries[p.second].node;
                const RdmaChakraNode& blocking = *Head(p.first)->node;
                throw std::runtime_error(
                    NodeText(m_t.files[r], *e->node) + ": " + P2pText(*e->node) +
                    " cannot run: rank " + std::to_string(p.first) + " comes to its match (" +
                    NodeText(m_t.files[p.first], match) + ") only after " +
                    NodeText(m_t.files[p.first], blocking) +
                    ", which waits for this rank: a send and its receive must lie between "
                    "the same collectives of both ranks, and neither rank may first wait for "
                    "the other");
            }
        }
        // Every rank left is at a collective: some ranks have run out of them.
        uint32_t at = 0;
        while (!Head(at))
        {
            ++at;
        }
        uint32_t without = 0;
        while (Head(without))
        {
            ++without;
        }
        throw std::runtime_error(m_t.files[without] + ": rank " + std::to_string(without) +
                                 " runs " + std::to_string(m_walks[without].collectives) +
                                 " collectives, rank " + std::to_string(at) + " (" + m_t.files[at] +
                                 ") " + std::to_string(m_walks[at].collectives) +
                                 ": every rank must run the same collectives");
    }

    const RdmaChakraTrace& m_t;                //!< the traces
    const std::vector<RankWalk>& m_walks;      //!< their walks
    std::vector<std::vector<Place>> m_partner; //!< per rank and entry, its match
    std::vector<std::size_t> m_head;           //!< per rank, its next entry
    std::vector<RdmaChakraStep> m_steps;       //!< so far
    uint32_t m_collectives{0};                 //!< collectives so far
};

} // namespace

std::vector<RdmaChakraStep>
RdmaChakraSteps(const RdmaChakraTrace& t, std::vector<std::string>* warnings)
{
    std::vector<RankWalk> walks;
    const auto ranks = static_cast<uint32_t>(t.ranks.size());
    for (uint32_t r = 0; r < ranks; ++r)
    {
        walks.push_back(Walk(t.ranks[r], t.files[r], r, ranks));
    }
    if (walks.empty())
    {
        return {};
    }
    std::vector<RdmaChakraStep> steps = Merger(t, walks).Run();
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
                            " communication node(s) could run beside other nodes (nothing "
                            "orders them); nodes run one at a time here, in an order of their "
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
