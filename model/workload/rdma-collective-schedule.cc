/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-collective-schedule.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

namespace
{

/// Names of RdmaCollectiveKind, by value.
const char* const g_collectiveNames[] =
    {"all-reduce", "all-gather", "reduce-scatter", "broadcast", "all-to-all", "send-recv"};
/// Names of RdmaCollectiveAlgorithm, by value.
const char* const g_algorithmNames[] = {"ring", "tree", "halving-doubling", "pairwise", "direct"};

/**
 * \brief What each byte range of one rank's buffer depends on: the
 * operations received into it since it was last overwritten (a receive
 * with reduce adds itself, one without replaces). Ranges are half-open and
 * do not overlap.
 */
class RangeSources
{
  public:
    /// \brief A receive. \param a first byte \param b one past the last
    /// \param op the operation \param reduce it adds to the range
    void Record(uint64_t a, uint64_t b, uint32_t op, bool reduce)
    {
        SplitAt(a);
        SplitAt(b);
        std::vector<std::pair<uint64_t, uint64_t>> gaps;
        uint64_t cursor = a;
        for (auto it = m_entries.lower_bound(a); it != m_entries.end() && it->first < b; ++it)
        {
            if (it->first > cursor)
            {
                gaps.emplace_back(cursor, it->first);
            }
            if (!reduce)
            {
                it->second.ops.clear();
            }
            it->second.ops.push_back(op);
            cursor = it->second.end;
        }
        if (cursor < b)
        {
            gaps.emplace_back(cursor, b);
        }
        for (const auto& [from, to] : gaps)
        {
            m_entries[from] = Entry{to, {op}};
        }
    }

    /// \brief A send: append the operations it depends on. \param a first byte
    /// \param b one past the last \param out receives them (unsorted, may repeat)
    void Collect(uint64_t a, uint64_t b, std::vector<uint32_t>& out) const
    {
        auto it = m_entries.upper_bound(a);
        if (it != m_entries.begin() && std::prev(it)->second.end > a)
        {
            --it;
        }
        for (; it != m_entries.end() && it->first < b; ++it)
        {
            out.insert(out.end(), it->second.ops.begin(), it->second.ops.end());
        }
    }

  private:
    /// A range and its sources.
    struct Entry
    {
        uint64_t end;              //!< one past its last byte
        std::vector<uint32_t> ops; //!< the operations it depends on
    };

    /// Make x the start of an entry if an entry covers it. \param x a byte
    void SplitAt(uint64_t x)
    {
        auto it = m_entries.upper_bound(x);
        if (it == m_entries.begin())
        {
            return;
        }
        --it;
        if (it->first < x && it->second.end > x)
        {
            Entry tail{it->second.end, it->second.ops};
            it->second.end = x;
            m_entries.emplace(x, std::move(tail));
        }
    }

    std::map<uint64_t, Entry> m_entries; //!< by first byte
};

/// \return the index of name in names, or -1 \param names the names \param name one
template <std::size_t N>
int
IndexOf(const char* const (&names)[N], const std::string& name)
{
    for (std::size_t i = 0; i < N; ++i)
    {
        if (name == names[i])
        {
            return static_cast<int>(i);
        }
    }
    return -1;
}

/// \return whether x is a power of two \param x a count
bool
IsPowerOfTwo(uint32_t x)
{
    return x != 0 && (x & (x - 1)) == 0;
}

/**
 * \return each rank's parent in NCCL's binary tree over n ranks rooted at 0
 * (trees.cc, ncclGetBtree): with b the lowest set bit of r, the parent is
 * r with b cleared and the next bit set, or with b cleared alone if that is
 * not a rank; the root's entry is RdmaCollectiveSchedule::NONE
 * \param n ranks
 */
std::vector<uint32_t>
BinaryTreeParents(uint32_t n)
{
    std::vector<uint32_t> parent(n, RdmaCollectiveSchedule::NONE);
    for (uint32_t r = 1; r < n; ++r)
    {
        const uint32_t bit = r & (~r + 1);
        uint32_t up = (r ^ bit) | (bit << 1);
        parent[r] = up < n ? up : (r ^ bit);
    }
    return parent;
}

/**
 * \return the second tree of NCCL's double binary tree (trees.cc,
 * ncclGetDtree) given the first, `parent0`, over n ranks: its mirror for
 * even n, its shift by one rank for odd n
 */
std::vector<uint32_t>
SecondTreeParents(const std::vector<uint32_t>& parent0, uint32_t n)
{
    std::vector<uint32_t> parent(n, RdmaCollectiveSchedule::NONE);
    for (uint32_t r = 0; r < n; ++r)
    {
        if (n % 2 == 0)
        {
            const uint32_t p = parent0[n - 1 - r];
            parent[r] =
                p == RdmaCollectiveSchedule::NONE ? RdmaCollectiveSchedule::NONE : n - 1 - p;
        }
        else
        {
            const uint32_t p = parent0[(r + n - 1) % n];
            parent[r] =
                p == RdmaCollectiveSchedule::NONE ? RdmaCollectiveSchedule::NONE : (p + 1) % n;
        }
    }
    return parent;
}

/**
 * A tree's depths (the root's 0) and heights (a leaf's 0), given each rank's
 * parent (RdmaCollectiveSchedule::NONE at the root).
 * \param parent each rank's parent
 * \param depth receives each rank's depth
 * \param height receives each rank's height
 * \return the largest height
 */
uint32_t
TreeDepthsAndHeights(const std::vector<uint32_t>& parent,
                     std::vector<uint32_t>& depth,
                     std::vector<uint32_t>& height)
{
    const uint32_t n = static_cast<uint32_t>(parent.size());
    depth.assign(n, 0);
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint32_t u = r; parent[u] != RdmaCollectiveSchedule::NONE; u = parent[u])
        {
            ++depth[r];
        }
    }
    std::vector<uint32_t> deepestFirst(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        deepestFirst[r] = r;
    }
    std::stable_sort(deepestFirst.begin(), deepestFirst.end(), [&](uint32_t a, uint32_t b) {
        return depth[a] > depth[b];
    });
    height.assign(n, 0);
    uint32_t tallest = 0;
    for (uint32_t r : deepestFirst)
    {
        if (parent[r] != RdmaCollectiveSchedule::NONE)
        {
            height[parent[r]] = std::max(height[parent[r]], height[r] + 1);
        }
        tallest = std::max(tallest, height[r]);
    }
    return tallest;
}

} // namespace

const char*
RdmaCollectiveName(RdmaCollectiveKind kind)
{
    return g_collectiveNames[static_cast<uint8_t>(kind)];
}

const char*
RdmaCollectiveAlgorithmName(RdmaCollectiveAlgorithm algorithm)
{
    return g_algorithmNames[static_cast<uint8_t>(algorithm)];
}

bool
RdmaParseCollective(const std::string& name, RdmaCollectiveKind& kind)
{
    const int i = IndexOf(g_collectiveNames, name);
    if (i >= 0)
    {
        kind = static_cast<RdmaCollectiveKind>(i);
    }
    return i >= 0;
}

bool
RdmaParseCollectiveAlgorithm(const std::string& name, RdmaCollectiveAlgorithm& algorithm)
{
    const int i = IndexOf(g_algorithmNames, name);
    if (i >= 0)
    {
        algorithm = static_cast<RdmaCollectiveAlgorithm>(i);
    }
    return i >= 0;
}

std::vector<RdmaCollectiveAlgorithm>
RdmaCollectiveAlgorithms(RdmaCollectiveKind kind)
{
    using A = RdmaCollectiveAlgorithm;
    switch (kind)
    {
    case RdmaCollectiveKind::ALL_REDUCE:
        return {A::RING, A::TREE, A::HALVING_DOUBLING};
    case RdmaCollectiveKind::ALL_TO_ALL:
        return {A::PAIRWISE};
    case RdmaCollectiveKind::SEND_RECV:
        return {A::DIRECT};
    default:
        return {A::RING};
    }
}

double
RdmaBusBandwidthFactor(RdmaCollectiveKind kind, uint32_t ranks)
{
    const double n = ranks;
    switch (kind)
    {
    case RdmaCollectiveKind::ALL_REDUCE:
        return 2 * (n - 1) / n;
    case RdmaCollectiveKind::BROADCAST:
    case RdmaCollectiveKind::SEND_RECV:
        return 1;
    default:
        return (n - 1) / n;
    }
}

RdmaCollectiveSchedule::RdmaCollectiveSchedule(RdmaCollectiveKind kind,
                                               RdmaCollectiveAlgorithm algorithm,
                                               uint32_t ranks,
                                               uint64_t bytes,
                                               uint32_t channels,
                                               uint64_t chunkBytes)
    : m_kind(kind),
      m_algorithm(algorithm),
      m_ranks(ranks),
      m_bytes(bytes),
      m_channels(channels),
      m_chunkBytes(chunkBytes)
{
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::Build(RdmaCollectiveKind kind,
                              RdmaCollectiveAlgorithm algorithm,
                              uint32_t ranks,
                              uint64_t bytes,
                              uint32_t channels,
                              uint64_t chunkBytes)
{
    const std::string name = std::string(RdmaCollectiveName(kind)) + " (" +
                             RdmaCollectiveAlgorithmName(algorithm) + "): ";
    const auto algorithms = RdmaCollectiveAlgorithms(kind);
    if (std::find(algorithms.begin(), algorithms.end(), algorithm) == algorithms.end())
    {
        std::string known;
        for (auto a : algorithms)
        {
            known += std::string(known.empty() ? "" : " or ") + RdmaCollectiveAlgorithmName(a);
        }
        throw std::invalid_argument(name + "no such algorithm for " + RdmaCollectiveName(kind) +
                                    ": expected " + known);
    }
    if (ranks < 2)
    {
        throw std::invalid_argument(name + "expected at least 2 ranks, got " +
                                    std::to_string(ranks));
    }
    if (channels < 1 || chunkBytes < 1)
    {
        throw std::invalid_argument(name + "expected at least 1 channel and 1 byte per chunk");
    }
    if (bytes < uint64_t(ranks) * channels)
    {
        throw std::invalid_argument(name + "expected at least ranks x channels = " +
                                    std::to_string(uint64_t(ranks) * channels) +
                                    " bytes (a byte per rank and channel), got " +
                                    std::to_string(bytes));
    }
    if (algorithm == RdmaCollectiveAlgorithm::HALVING_DOUBLING && !IsPowerOfTwo(ranks))
    {
        throw std::invalid_argument(name + "expected a power-of-two number of ranks, got " +
                                    std::to_string(ranks));
    }
    RdmaCollectiveSchedule s(kind, algorithm, ranks, bytes, channels, chunkBytes);
    switch (kind)
    {
    case RdmaCollectiveKind::ALL_REDUCE:
        s = algorithm == RdmaCollectiveAlgorithm::RING
                ? RingAllReduce(ranks, bytes, channels, chunkBytes)
                : (algorithm == RdmaCollectiveAlgorithm::TREE
                       ? TreeAllReduce(ranks, bytes, channels, chunkBytes)
                       : HalvingDoublingAllReduce(ranks, bytes, channels, chunkBytes));
        break;
    case RdmaCollectiveKind::ALL_GATHER:
        s = RingAllGather(ranks, bytes, channels, chunkBytes);
        break;
    case RdmaCollectiveKind::REDUCE_SCATTER:
        s = RingReduceScatter(ranks, bytes, channels, chunkBytes);
        break;
    case RdmaCollectiveKind::BROADCAST:
        s = RingBroadcast(ranks, bytes, channels, chunkBytes);
        break;
    case RdmaCollectiveKind::ALL_TO_ALL:
        s = PairwiseAllToAll(ranks, bytes, channels, chunkBytes);
        break;
    case RdmaCollectiveKind::SEND_RECV:
        return SendRecvRing(ranks, bytes, channels, chunkBytes); // finished
    }
    s.Finish();
    return s;
}

std::pair<uint64_t, uint64_t>
RdmaCollectiveSchedule::Part(uint64_t total, uint64_t parts, uint64_t i)
{
    const uint64_t base = total / parts;
    const uint64_t rest = total % parts;
    return {i * base + std::min(i, rest), base + (i < rest ? 1 : 0)};
}

uint32_t
RdmaCollectiveSchedule::AddRange(uint32_t src,
                                 uint32_t dst,
                                 uint32_t channel,
                                 uint32_t step,
                                 uint64_t offset,
                                 uint64_t bytes,
                                 bool reduce)
{
    const auto first = static_cast<uint32_t>(m_ops.size());
    const uint64_t chunks = (bytes + m_chunkBytes - 1) / m_chunkBytes;
    for (uint64_t j = 0; j < chunks; ++j)
    {
        const auto [at, length] = Part(bytes, chunks, j);
        Op op;
        op.src = src;
        op.dst = dst;
        op.channel = channel;
        op.step = step;
        op.offset = offset + at;
        op.bytes = length;
        op.reduce = reduce;
        m_ops.push_back(op);
    }
    m_steps = std::max(m_steps, step + 1);
    return first;
}

void
RdmaCollectiveSchedule::AddRing(uint32_t steps, uint32_t reduceSteps)
{
    const uint32_t n = m_ranks;
    for (uint32_t k = 0; k < steps; ++k)
    {
        for (uint32_t c = 0; c < m_channels; ++c)
        {
            const auto [partAt, partBytes] = Part(m_bytes, m_channels, c);
            for (uint32_t r = 0; r < n; ++r)
            {
                const uint32_t segment = (r + 2 * n - k % n) % n;
                const auto [at, length] = Part(partBytes, n, segment);
                AddRange(r, (r + 1) % n, c, k, partAt + at, length, k < reduceSteps);
            }
        }
    }
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::RingAllReduce(uint32_t ranks,
                                      uint64_t bytes,
                                      uint32_t channels,
                                      uint64_t chunkBytes)
{
    RdmaCollectiveSchedule s(RdmaCollectiveKind::ALL_REDUCE,
                             RdmaCollectiveAlgorithm::RING,
                             ranks,
                             bytes,
                             channels,
                             chunkBytes);
    s.AddRing(2 * (ranks - 1), ranks - 1);
    return s;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::RingAllGather(uint32_t ranks,
                                      uint64_t bytes,
                                      uint32_t channels,
                                      uint64_t chunkBytes)
{
    RdmaCollectiveSchedule s(RdmaCollectiveKind::ALL_GATHER,
                             RdmaCollectiveAlgorithm::RING,
                             ranks,
                             bytes,
                             channels,
                             chunkBytes);
    s.AddRing(ranks - 1, 0);
    return s;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::RingReduceScatter(uint32_t ranks,
                                          uint64_t bytes,
                                          uint32_t channels,
                                          uint64_t chunkBytes)
{
    RdmaCollectiveSchedule s(RdmaCollectiveKind::REDUCE_SCATTER,
                             RdmaCollectiveAlgorithm::RING,
                             ranks,
                             bytes,
                             channels,
                             chunkBytes);
    s.AddRing(ranks - 1, ranks - 1);
    return s;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::RingBroadcast(uint32_t ranks,
                                      uint64_t bytes,
                                      uint32_t channels,
                                      uint64_t chunkBytes)
{
    RdmaCollectiveSchedule s(RdmaCollectiveKind::BROADCAST,
                             RdmaCollectiveAlgorithm::RING,
                             ranks,
                             bytes,
                             channels,
                             chunkBytes);
    for (uint32_t hop = 0; hop + 1 < ranks; ++hop)
    {
        for (uint32_t c = 0; c < channels; ++c)
        {
            const auto [at, length] = Part(bytes, channels, c);
            s.AddRange(hop, hop + 1, c, hop, at, length, false);
        }
    }
    return s;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::PairwiseAllToAll(uint32_t ranks,
                                         uint64_t bytes,
                                         uint32_t channels,
                                         uint64_t chunkBytes)
{
    RdmaCollectiveSchedule s(RdmaCollectiveKind::ALL_TO_ALL,
                             RdmaCollectiveAlgorithm::PAIRWISE,
                             ranks,
                             bytes,
                             channels,
                             chunkBytes);
    const uint32_t n = ranks;
    // The previous step's operations by sender and channel: first and count.
    std::vector<std::pair<uint32_t, uint32_t>> previous(n * channels), current(n * channels);
    for (uint32_t k = 1; k < n; ++k)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            const uint32_t peer = (r + k) % n;
            // The piece of r's data for peer lands in peer's output at r's place.
            const auto [pieceAt, pieceBytes] = Part(bytes, n, r);
            for (uint32_t c = 0; c < channels; ++c)
            {
                const auto [at, length] = Part(pieceBytes, channels, c);
                const uint32_t first = s.AddRange(r, peer, c, k - 1, pieceAt + at, length, false);
                const auto count = static_cast<uint32_t>(s.m_ops.size()) - first;
                current[r * channels + c] = {first, count};
                if (k == 1)
                {
                    continue;
                }
                // Pacing: chunk j waits for chunk j of the previous step's receive.
                const uint32_t from = (r + n - (k - 1)) % n;
                const auto [prevFirst, prevCount] = previous[from * channels + c];
                for (uint32_t j = 0; j < count; ++j)
                {
                    s.m_extraDeps.emplace_back(first + j, prevFirst + std::min(j, prevCount - 1));
                }
            }
        }
        std::swap(previous, current);
    }
    return s;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::TreeAllReduce(uint32_t ranks,
                                      uint64_t bytes,
                                      uint32_t channels,
                                      uint64_t chunkBytes)
{
    RdmaCollectiveSchedule s(RdmaCollectiveKind::ALL_REDUCE,
                             RdmaCollectiveAlgorithm::TREE,
                             ranks,
                             bytes,
                             channels,
                             chunkBytes);
    const uint32_t n = ranks;
    // Tree 0 and its mirror (even n) or shift by one (odd n): NCCL's ncclGetDtree.
    std::vector<uint32_t> parent[2];
    parent[0] = BinaryTreeParents(n);
    parent[1] = SecondTreeParents(parent[0], n);
    // Depths (root 0) and heights (leaves 0) of each tree.
    std::vector<uint32_t> height[2], depth[2];
    const uint32_t tallest = std::max(TreeDepthsAndHeights(parent[0], depth[0], height[0]),
                                      TreeDepthsAndHeights(parent[1], depth[1], height[1]));
    for (uint32_t c = 0; c < channels; ++c)
    {
        const auto [partAt, partBytes] = Part(bytes, channels, c);
        for (int t = 0; t < 2; ++t)
        {
            const auto [at, length] = Part(partBytes, 2, t);
            // Reduce: each node sends up once its children's chunks are in.
            for (uint32_t r = 0; r < n; ++r)
            {
                if (parent[t][r] != NONE)
                {
                    s.AddRange(r, parent[t][r], c, height[t][r], partAt + at, length, true);
                }
            }
            // Broadcast: from the root down.
            for (uint32_t r = 0; r < n; ++r)
            {
                if (parent[t][r] != NONE)
                {
                    const uint32_t p = parent[t][r];
                    s.AddRange(p, r, c, tallest + 1 + depth[t][p], partAt + at, length, false);
                }
            }
        }
    }
    return s;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::HalvingDoublingAllReduce(uint32_t ranks,
                                                 uint64_t bytes,
                                                 uint32_t channels,
                                                 uint64_t chunkBytes)
{
    RdmaCollectiveSchedule s(RdmaCollectiveKind::ALL_REDUCE,
                             RdmaCollectiveAlgorithm::HALVING_DOUBLING,
                             ranks,
                             bytes,
                             channels,
                             chunkBytes);
    const uint32_t n = ranks;
    uint32_t levels = 0;
    while ((1u << levels) < n)
    {
        ++levels;
    }
    for (uint32_t c = 0; c < channels; ++c)
    {
        const auto [partAt, partBytes] = Part(bytes, channels, c);
        // Each rank's current range [lo, hi).
        std::vector<uint64_t> lo(n, partAt), hi(n, partAt + partBytes);
        for (uint32_t k = 0; k < levels; ++k)
        {
            const uint32_t distance = n >> (k + 1);
            std::vector<uint64_t> newLo(lo), newHi(hi);
            for (uint32_t r = 0; r < n; ++r)
            {
                const uint64_t mid = lo[r] + (hi[r] - lo[r]) / 2;
                const bool lower = (r & distance) == 0;
                const uint64_t sendLo = lower ? mid : lo[r];
                const uint64_t sendHi = lower ? hi[r] : mid;
                s.AddRange(r, r ^ distance, c, k, sendLo, sendHi - sendLo, true);
                (lower ? newHi[r] : newLo[r]) = mid;
            }
            lo.swap(newLo);
            hi.swap(newHi);
        }
        for (uint32_t k = 0; k < levels; ++k)
        {
            const uint32_t distance = 1u << k;
            std::vector<uint64_t> newLo(lo), newHi(hi);
            for (uint32_t r = 0; r < n; ++r)
            {
                const uint32_t partner = r ^ distance;
                s.AddRange(r, partner, c, levels + k, lo[r], hi[r] - lo[r], false);
                newLo[r] = std::min(lo[r], lo[partner]);
                newHi[r] = std::max(hi[r], hi[partner]);
            }
            lo.swap(newLo);
            hi.swap(newHi);
        }
    }
    return s;
}

void
RdmaCollectiveSchedule::Finish()
{
    IndexByRank();
    std::vector<uint32_t> depFirst(m_ops.size(), 0);
    std::vector<uint32_t> depCount(m_ops.size(), 0);
    std::vector<uint32_t> pool;
    if (m_kind != RdmaCollectiveKind::ALL_TO_ALL && !m_depsGiven)
    {
        FindDataDeps(depFirst, depCount, pool);
    }
    StoreDeps(depFirst, depCount, pool);
    CountOpsPerQp();
}

void
RdmaCollectiveSchedule::IndexByRank()
{
    const auto nOps = static_cast<uint32_t>(m_ops.size());
    // Operations by rank, in index order.
    m_sends.assign(m_ranks, {});
    m_recvs.assign(m_ranks, {});
    m_sendIndex.assign(nOps, 0);
    m_recvIndex.assign(nOps, 0);
    m_activeRanks = 0;
    for (uint32_t i = 0; i < nOps; ++i)
    {
        const Op& op = m_ops[i];
        m_sendIndex[i] = static_cast<uint32_t>(m_sends[op.src].size());
        m_sends[op.src].push_back(i);
        m_recvIndex[i] = static_cast<uint32_t>(m_recvs[op.dst].size());
        m_recvs[op.dst].push_back(i);
    }
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        m_activeRanks += IsActive(r) ? 1 : 0;
    }
}

void
RdmaCollectiveSchedule::FindDataDeps(std::vector<uint32_t>& depFirst,
                                     std::vector<uint32_t>& depCount,
                                     std::vector<uint32_t>& pool) const
{
    // What each send waits for: its sender's receives of earlier steps that
    // wrote its range (RangeSources). A rank's ranges change only by its own
    // receives and are read only by its own sends, so the ranks are derived
    // one after another, each in step order (a step's sends before that
    // step's receives): one rank's ranges in memory at a time.
    const auto byStep = [this](uint32_t a, uint32_t b) { return m_ops[a].step < m_ops[b].step; };
    std::vector<uint32_t> sends;
    std::vector<uint32_t> recvs;
    std::vector<uint32_t> found;
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        sends = m_sends[r];
        recvs = m_recvs[r];
        std::stable_sort(sends.begin(), sends.end(), byStep);
        std::stable_sort(recvs.begin(), recvs.end(), byStep);
        RangeSources ranges;
        auto recv = recvs.begin();
        for (auto send = sends.begin(); send != sends.end(); ++send)
        {
            const Op& op = m_ops[*send];
            for (; recv != recvs.end() && m_ops[*recv].step < op.step; ++recv)
            {
                const Op& in = m_ops[*recv];
                ranges.Record(in.offset, in.offset + in.bytes, *recv, in.reduce);
            }
            found.clear();
            ranges.Collect(op.offset, op.offset + op.bytes, found);
            std::sort(found.begin(), found.end());
            found.erase(std::unique(found.begin(), found.end()), found.end());
            depFirst[*send] = static_cast<uint32_t>(pool.size());
            depCount[*send] = static_cast<uint32_t>(found.size());
            pool.insert(pool.end(), found.begin(), found.end());
        }
    }
}

void
RdmaCollectiveSchedule::StoreDeps(const std::vector<uint32_t>& depFirst,
                                  const std::vector<uint32_t>& depCount,
                                  std::vector<uint32_t>& pool)
{
    const auto nOps = static_cast<uint32_t>(m_ops.size());
    // Compressed: deps by op (with the dependencies not from data), and the
    // reverse (dependents by op).
    std::sort(m_extraDeps.begin(), m_extraDeps.end());
    auto extra = m_extraDeps.begin();
    m_depStart.assign(nOps + 1, 0);
    m_deps.clear();
    m_deps.reserve(pool.size() + m_extraDeps.size());
    std::vector<uint32_t> dependentCount(nOps, 0);
    std::vector<uint32_t> d;
    for (uint32_t i = 0; i < nOps; ++i)
    {
        d.assign(pool.begin() + depFirst[i], pool.begin() + depFirst[i] + depCount[i]);
        for (; extra != m_extraDeps.end() && extra->first == i; ++extra)
        {
            d.push_back(extra->second);
        }
        std::sort(d.begin(), d.end());
        d.erase(std::unique(d.begin(), d.end()), d.end());
        m_deps.insert(m_deps.end(), d.begin(), d.end());
        m_depStart[i + 1] = static_cast<uint32_t>(m_deps.size());
        for (uint32_t w : d)
        {
            ++dependentCount[w];
        }
    }
    m_extraDeps.clear();
    m_extraDeps.shrink_to_fit();
    pool = {};
    m_dependentStart.assign(nOps + 1, 0);
    for (uint32_t i = 0; i < nOps; ++i)
    {
        m_dependentStart[i + 1] = m_dependentStart[i] + dependentCount[i];
    }
    m_dependents.assign(m_deps.size(), 0);
    std::vector<uint32_t> fill(m_dependentStart.begin(), m_dependentStart.end() - 1);
    for (uint32_t i = 0; i < nOps; ++i)
    {
        for (uint32_t w : GetDeps(i))
        {
            m_dependents[fill[w]++] = i;
        }
    }
}

void
RdmaCollectiveSchedule::CountOpsPerQp()
{
    // The most operations on one (src, dst, channel) QP: per sender, counted
    // by (dst, channel).
    m_mostOpsPerQp = 0;
    std::unordered_map<uint64_t, uint32_t> perQp;
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        perQp.clear();
        for (uint32_t i : m_sends[r])
        {
            const uint64_t key = uint64_t(m_ops[i].dst) * m_channels + m_ops[i].channel;
            m_mostOpsPerQp = std::max(m_mostOpsPerQp, ++perQp[key]);
        }
    }
}

uint64_t
RdmaCollectiveSchedule::GetMemoryBytes() const
{
    uint64_t bytes = sizeof(*this) + m_ops.capacity() * sizeof(Op) +
                     m_extraDeps.capacity() * sizeof(m_extraDeps[0]) +
                     (m_depStart.capacity() + m_deps.capacity() + m_dependentStart.capacity() +
                      m_dependents.capacity() + m_sendIndex.capacity() + m_recvIndex.capacity()) *
                         sizeof(uint32_t);
    for (const auto* perRank : {&m_sends, &m_recvs})
    {
        bytes += perRank->capacity() * sizeof(std::vector<uint32_t>);
        for (const auto& v : *perRank)
        {
            bytes += v.capacity() * sizeof(uint32_t);
        }
    }
    return bytes;
}

RdmaCollectiveSchedule
RdmaCollectiveSchedule::Grouped(const RdmaCollectiveSchedule& one,
                                const std::vector<std::vector<uint32_t>>& groups,
                                uint32_t ranks)
{
    std::vector<bool> used(ranks, false);
    for (const auto& g : groups)
    {
        if (g.size() != one.m_ranks)
        {
            throw std::invalid_argument("grouped collective: a group of " +
                                        std::to_string(g.size()) + " ranks for a schedule of " +
                                        std::to_string(one.m_ranks));
        }
        for (uint32_t r : g)
        {
            if (r >= ranks || used[r])
            {
                throw std::invalid_argument("grouped collective: rank " + std::to_string(r) +
                                            (r >= ranks ? " is not one of the " +
                                                              std::to_string(ranks) + " ranks"
                                                        : " is in two groups"));
            }
            used[r] = true;
        }
    }
    RdmaCollectiveSchedule s(one.m_kind,
                             one.m_algorithm,
                             ranks,
                             one.m_bytes,
                             one.m_channels,
                             one.m_chunkBytes);
    s.m_groupRanks = one.m_ranks;
    s.m_steps = one.m_steps;
    const auto nOps = static_cast<uint32_t>(one.m_ops.size());
    s.m_ops.reserve(uint64_t(nOps) * groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
    {
        const auto base = static_cast<uint32_t>(g * nOps);
        for (uint32_t i = 0; i < nOps; ++i)
        {
            Op op = one.m_ops[i];
            op.src = groups[g][op.src];
            op.dst = groups[g][op.dst];
            s.m_ops.push_back(op);
            for (uint32_t d : one.GetDeps(i))
            {
                s.m_extraDeps.emplace_back(base + i, base + d);
            }
        }
    }
    s.m_depsGiven = true; // each group's dependencies are one's, not derived again
    s.Finish();
    return s;
}

RdmaCollectiveKind
RdmaCollectiveSchedule::GetKind() const
{
    return m_kind;
}

RdmaCollectiveAlgorithm
RdmaCollectiveSchedule::GetAlgorithm() const
{
    return m_algorithm;
}

uint32_t
RdmaCollectiveSchedule::GetRanks() const
{
    return m_ranks;
}

uint32_t
RdmaCollectiveSchedule::GetGroupRanks() const
{
    return m_groupRanks == 0 ? m_ranks : m_groupRanks;
}

uint64_t
RdmaCollectiveSchedule::GetBytes() const
{
    return m_bytes;
}

uint32_t
RdmaCollectiveSchedule::GetChannels() const
{
    return m_channels;
}

uint64_t
RdmaCollectiveSchedule::GetChunkBytes() const
{
    return m_chunkBytes;
}

uint32_t
RdmaCollectiveSchedule::GetSteps() const
{
    return m_steps;
}

const std::vector<RdmaCollectiveSchedule::Op>&
RdmaCollectiveSchedule::GetOps() const
{
    return m_ops;
}

RdmaCollectiveSchedule::Span
RdmaCollectiveSchedule::GetDeps(uint32_t op) const
{
    return Span{m_deps.data() + m_depStart[op], m_deps.data() + m_depStart[op + 1]};
}

RdmaCollectiveSchedule::Span
RdmaCollectiveSchedule::GetDependents(uint32_t op) const
{
    return Span{m_dependents.data() + m_dependentStart[op],
                m_dependents.data() + m_dependentStart[op + 1]};
}

const std::vector<uint32_t>&
RdmaCollectiveSchedule::GetSends(uint32_t rank) const
{
    return m_sends[rank];
}

const std::vector<uint32_t>&
RdmaCollectiveSchedule::GetRecvs(uint32_t rank) const
{
    return m_recvs[rank];
}

uint32_t
RdmaCollectiveSchedule::GetSendIndex(uint32_t op) const
{
    return m_sendIndex[op];
}

uint32_t
RdmaCollectiveSchedule::GetRecvIndex(uint32_t op) const
{
    return m_recvIndex[op];
}

uint64_t
RdmaCollectiveSchedule::GetBytesSent(uint32_t rank) const
{
    uint64_t total = 0;
    for (uint32_t i : m_sends[rank])
    {
        total += m_ops[i].bytes;
    }
    return total;
}

uint64_t
RdmaCollectiveSchedule::GetLargestOp() const
{
    uint64_t largest = 0;
    for (const Op& op : m_ops)
    {
        largest = std::max(largest, op.bytes);
    }
    return largest;
}

uint32_t
RdmaCollectiveSchedule::GetMostOpsPerQp() const
{
    return m_mostOpsPerQp;
}

uint32_t
RdmaCollectiveSchedule::GetMostRecvsPerRank() const
{
    std::size_t most = 0;
    for (const auto& r : m_recvs)
    {
        most = std::max(most, r.size());
    }
    return static_cast<uint32_t>(most);
}

} // namespace ns3
