/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_COLLECTIVE_SCHEDULE_H
#define RDMA_COLLECTIVE_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A collective operation, as NCCL and nccl-tests name them.
 *
 * Each counts its message size S as nccl-tests does: all-reduce and
 * broadcast the buffer; all-gather the output (n pieces of S/n, one from
 * each rank); reduce-scatter the input (each rank keeps S/n reduced);
 * all-to-all the send buffer of one rank (S/n to each peer).
 */
enum class RdmaCollectiveKind : uint8_t
{
    ALL_REDUCE = 0,     //!< every rank ends with the sum of every rank's buffer
    ALL_GATHER = 1,     //!< every rank ends with every rank's piece
    REDUCE_SCATTER = 2, //!< rank r ends with the sum of every rank's piece r
    BROADCAST = 3,      //!< every rank ends with rank 0's buffer
    ALL_TO_ALL = 4,     //!< rank r's piece p goes to rank p (MoE dispatch and combine)
    /// Point-to-point sends (ncclSend and ncclRecv; pipeline stages, a
    /// Chakra trace's COMM_SEND_NODE): each transfer carries its bytes from
    /// one rank to another. As a collective of n ranks, nccl-tests'
    /// sendrecv: rank r sends S to r + 1 mod n.
    SEND_RECV = 5,
};

/**
 * \ingroup rdma
 * \brief How a collective's data moves between ranks.
 */
enum class RdmaCollectiveAlgorithm : uint8_t
{
    RING = 0,             //!< ring (NCCL's ring; broadcast: a pipeline chain from rank 0)
    TREE = 1,             //!< NCCL's double binary tree (all-reduce)
    HALVING_DOUBLING = 2, //!< recursive halving then doubling (Rabenseifner; all-reduce)
    PAIRWISE = 3,         //!< pairwise exchange, step k to rank r + k (all-to-all)
    DIRECT = 4,           //!< each transfer straight from sender to receiver (send-recv)
};

/// \return "all-reduce", "all-gather", "reduce-scatter", "broadcast", "all-to-all" or
/// "send-recv"
/// \param kind a collective
const char* RdmaCollectiveName(RdmaCollectiveKind kind);
/// \return "ring", "tree", "halving-doubling", "pairwise" or "direct" \param algorithm an
/// algorithm
const char* RdmaCollectiveAlgorithmName(RdmaCollectiveAlgorithm algorithm);
/**
 * \brief Parse a collective's name (as RdmaCollectiveName writes it).
 * \param name the name \param kind set on success \return whether it is known
 */
bool RdmaParseCollective(const std::string& name, RdmaCollectiveKind& kind);
/**
 * \brief Parse an algorithm's name (as RdmaCollectiveAlgorithmName writes it).
 * \param name the name \param algorithm set on success \return whether it is known
 */
bool RdmaParseCollectiveAlgorithm(const std::string& name, RdmaCollectiveAlgorithm& algorithm);
/// \return the algorithms a collective has here, its default (NCCL's) first \param kind it
std::vector<RdmaCollectiveAlgorithm> RdmaCollectiveAlgorithms(RdmaCollectiveKind kind);
/**
 * \brief nccl-tests' bus bandwidth factor (its doc/PERFORMANCE.md): busbw =
 * algbw x factor, algbw = S / time, so that busbw of every collective
 * compares with the link's rate.
 * \param kind the collective \param ranks n (>= 1)
 * \return 2(n-1)/n for all-reduce; (n-1)/n for all-gather, reduce-scatter
 *         and all-to-all; 1 for broadcast and send-recv
 */
double RdmaBusBandwidthFactor(RdmaCollectiveKind kind, uint32_t ranks);

/**
 * \ingroup rdma
 * \brief One collective as a schedule of RDMA WRITE-with-immediate
 * operations between ranks, with what each waits for: the algorithm, apart
 * from the engine that posts it on queue pairs (RdmaCollectiveRunner), so a
 * schedule can be checked without a network.
 *
 * An operation (Op) is one WRITE with immediate from rank src to rank dst on
 * channel c (NCCL's channels: the message is cut into c equal parts, each
 * run by the same algorithm on its own QP per peer), carrying the byte range
 * [offset, offset + bytes) of the collective's buffer; the receiver learns
 * that it landed from the receive completion the immediate produces, as
 * NCCL's IB transport does. reduce says the receiver adds the bytes into
 * its own (the reduction costs time: RdmaCollectiveRunner's ReduceRate);
 * otherwise it keeps them. Each algorithm cuts the data it sends in a step
 * into chunks of at most chunkBytes (NCCL's Simple protocol posts one WRITE
 * per 512 KiB step: NCCL_BUFFSIZE 4 MiB over NCCL_STEPS 8), so steps
 * pipeline chunk by chunk.
 *
 * What an operation waits for follows from the data (Finish): before rank
 * r sends a range, every operation r received in an earlier step that wrote
 * part of that range must have landed (and been reduced): the chunk it
 * forwards, the children's chunks a tree node sums. A receive with reduce
 * adds to what the range depends on, one without replaces it. Pairwise
 * all-to-all has no data dependency between its steps; step k + 1's chunk
 * j waits for step k's chunk j to arrive (the exchange's pacing).
 *
 * Ranks are 0..n-1; the ring is rank order (r sends to r + 1 mod n).
 */
class RdmaCollectiveSchedule
{
  public:
    /// No operation.
    static constexpr uint32_t NONE = UINT32_MAX;

    /// One RDMA WRITE with immediate.
    struct Op
    {
        uint32_t src{0};     //!< sending rank
        uint32_t dst{0};     //!< receiving rank
        uint32_t channel{0}; //!< channel: the QP of the (src, dst) pair it goes on
        uint32_t step{0};    //!< the algorithm's step (0-based)
        uint64_t offset{0};  //!< first byte in the buffer
        uint64_t bytes{0};   //!< payload bytes (>= 1)
        bool reduce{false};  //!< the receiver reduces it into its own data
    };

    /// One point-to-point transfer (PointToPoint).
    struct Transfer
    {
        uint32_t src{0};   //!< sending rank
        uint32_t dst{0};   //!< receiving rank
        uint64_t bytes{0}; //!< payload bytes (>= channels)
        /// Earlier transfers (their indices) received by src that must have
        /// landed before this one is sent: what the sender's program does
        /// before its send (a pipeline stage forwards what it received)
        std::vector<uint32_t> after{};
    };

    /**
     * \brief Build the schedule of a collective.
     * \param kind the collective
     * \param algorithm one of RdmaCollectiveAlgorithms(kind)
     * \param ranks n (>= 2; halving-doubling: a power of two)
     * \param bytes S, nccl-tests' size (>= ranks x channels)
     * \param channels c (>= 1)
     * \param chunkBytes the largest WRITE (>= 1)
     * \return the schedule, finished
     * \throws std::invalid_argument naming what does not fit
     */
    static RdmaCollectiveSchedule Build(RdmaCollectiveKind kind,
                                        RdmaCollectiveAlgorithm algorithm,
                                        uint32_t ranks,
                                        uint64_t bytes,
                                        uint32_t channels,
                                        uint64_t chunkBytes);

    /**
     * \brief Ring all-reduce (NCCL's ring; Patarasuk and Yuan, JPDC 2009):
     * each channel's part in n segments; 2(n-1) steps, in step k rank r
     * sends segment (r - k) mod n to r + 1: n-1 steps of reduce-scatter
     * (reduced at the receiver), then n-1 of all-gather. Each rank sends
     * 2(n-1) S/n bytes.
     * \param ranks n \param bytes S \param channels c \param chunkBytes largest WRITE
     * \return the schedule (not finished)
     */
    static RdmaCollectiveSchedule RingAllReduce(uint32_t ranks,
                                                uint64_t bytes,
                                                uint32_t channels,
                                                uint64_t chunkBytes);
    /// \brief Ring all-gather: the all-gather half of RingAllReduce, n-1 steps from
    /// each rank's own segment. \param ranks n \param bytes S (the output)
    /// \param channels c \param chunkBytes largest WRITE \return the schedule
    static RdmaCollectiveSchedule RingAllGather(uint32_t ranks,
                                                uint64_t bytes,
                                                uint32_t channels,
                                                uint64_t chunkBytes);
    /// \brief Ring reduce-scatter: the reduce-scatter half of RingAllReduce,
    /// n-1 steps. \param ranks n \param bytes S (the input)
    /// \param channels c \param chunkBytes largest WRITE \return the schedule
    static RdmaCollectiveSchedule RingReduceScatter(uint32_t ranks,
                                                    uint64_t bytes,
                                                    uint32_t channels,
                                                    uint64_t chunkBytes);
    /**
     * \brief Ring (pipeline) broadcast from rank 0, as NCCL's ring broadcast:
     * the chain 0 -> 1 -> ... -> n-1; step h is hop h; each chunk is
     * forwarded as soon as it lands.
     * \param ranks n \param bytes S \param channels c \param chunkBytes largest WRITE
     * \return the schedule
     */
    static RdmaCollectiveSchedule RingBroadcast(uint32_t ranks,
                                                uint64_t bytes,
                                                uint32_t channels,
                                                uint64_t chunkBytes);
    /**
     * \brief Pairwise-exchange all-to-all (as MPI's pairwise algorithm):
     * n-1 steps, in step k (1..n-1) rank r sends its piece for r + k mod n
     * (S/n bytes) and receives from r - k.
     * \param ranks n \param bytes S (one rank's send buffer) \param channels c
     * \param chunkBytes largest WRITE \return the schedule
     */
    static RdmaCollectiveSchedule PairwiseAllToAll(uint32_t ranks,
                                                   uint64_t bytes,
                                                   uint32_t channels,
                                                   uint64_t chunkBytes);
    /**
     * \brief NCCL's double binary tree all-reduce (Sanders, Speck and
     * Traeff, Parallel Computing 2009; NCCL 2.4's trees.cc): each
     * channel's part in two halves, one per tree; tree 0 is the binary tree
     * rooted at rank 0 in which rank r's parent is r with its lowest set bit
     * moved one place up (or cleared if that leaves the ranks), tree 1 its
     * mirror (r -> n-1-r) for even n or its shift by one for odd n, so a
     * rank that is a leaf in one tree is inside the other. Each chunk is
     * reduced up the tree (a node sends when its children's chunks have
     * landed) and broadcast down from the root.
     * \param ranks n \param bytes S \param channels c \param chunkBytes largest WRITE
     * \return the schedule
     */
    static RdmaCollectiveSchedule TreeAllReduce(uint32_t ranks,
                                                uint64_t bytes,
                                                uint32_t channels,
                                                uint64_t chunkBytes);
    /**
     * \brief Recursive halving-doubling all-reduce (Rabenseifner, 2004;
     * Thakur, Rabenseifner and Gropp, IJHPCA 2005): log2 n steps of
     * reduce-scatter by recursive halving (step k: exchange half of the
     * current range with rank r xor n/2^(k+1), reduced), then log2 n of
     * all-gather by recursive doubling. Each rank sends 2(n-1) S/n bytes
     * in 2 log2 n steps.
     * \param ranks n, a power of two \param bytes S \param channels c
     * \param chunkBytes largest WRITE \return the schedule
     */
    static RdmaCollectiveSchedule HalvingDoublingAllReduce(uint32_t ranks,
                                                           uint64_t bytes,
                                                           uint32_t channels,
                                                           uint64_t chunkBytes);

    /**
     * \brief Point-to-point transfers as one schedule (a group of ncclSend
     * and ncclRecv calls, ncclGroupStart to ncclGroupEnd): each transfer
     * cut into c equal parts, one per channel, each part into chunks of at
     * most chunkBytes; a transfer's operations wait for those of the
     * transfers it comes after and for nothing else. Ranks with no
     * transfer do nothing. GetBytes() is the largest transfer's bytes,
     * GetGroupRanks() the ranks that send or receive.
     * \param ranks n (>= 2)
     * \param transfers the transfers (at least one)
     * \param channels c (>= 1)
     * \param chunkBytes the largest WRITE (>= 1)
     * \return the finished schedule, kind SEND_RECV, algorithm DIRECT
     * \throws std::invalid_argument naming the transfer: a rank out of
     *         range, a rank sending to itself, fewer bytes than channels, or
     *         an `after` that names a transfer not earlier or not received by
     *         its sender
     */
    static RdmaCollectiveSchedule PointToPoint(uint32_t ranks,
                                               const std::vector<Transfer>& transfers,
                                               uint32_t channels,
                                               uint64_t chunkBytes);

    /**
     * \brief Derive what every operation waits for and index the operations
     * by rank (see the class description). Call once, after the last Add.
     */
    void Finish();

    /**
     * \brief The same collective run by disjoint groups of ranks at once
     * (a training job's tensor- or data-parallel groups, each its own
     * NCCL communicator): group g's rank i is rank groups[g][i] of the
     * result, each group carrying the whole schedule of one.
     * \param one a finished schedule of m ranks
     * \param groups disjoint groups of m ranks each, ranks below ranks
     * \param ranks the result's rank count (ranks in no group do nothing)
     * \return the finished schedule; GetRanks() = ranks, GetGroupRanks() = m
     * \throws std::invalid_argument if a group's size is not m or a rank is
     *         out of range or in two groups
     */
    static RdmaCollectiveSchedule Grouped(const RdmaCollectiveSchedule& one,
                                          const std::vector<std::vector<uint32_t>>& groups,
                                          uint32_t ranks);

    /// \return the collective
    RdmaCollectiveKind GetKind() const;
    /// \return the algorithm
    RdmaCollectiveAlgorithm GetAlgorithm() const;
    /// \return n
    uint32_t GetRanks() const;
    /// \return the ranks of one group, nccl-tests' n (GetRanks() unless Grouped
    /// or PointToPoint)
    uint32_t GetGroupRanks() const;
    /// \return the ranks that send or receive anything (a collective's are
    /// all of them; a Grouped schedule's, its groups'; PointToPoint's, its
    /// transfers' ends)
    uint32_t GetActiveRanks() const;
    /// \return whether a rank sends or receives anything \param rank the rank
    bool IsActive(uint32_t rank) const;
    /// \return S
    uint64_t GetBytes() const;
    /// \return the channels
    uint32_t GetChannels() const;
    /// \return the largest WRITE allowed
    uint64_t GetChunkBytes() const;
    /// \return the number of steps (the largest step + 1)
    uint32_t GetSteps() const;
    /// \return every operation
    const std::vector<Op>& GetOps() const;
    /// A view of operation indices.
    struct Span
    {
        const uint32_t* first; //!< first index
        const uint32_t* last;  //!< one past the last

        /// \return the first
        const uint32_t* begin() const
        {
            return first;
        }

        /// \return one past the last
        const uint32_t* end() const
        {
            return last;
        }

        /// \return how many
        uint32_t size() const
        {
            return static_cast<uint32_t>(last - first);
        }
    };

    /// \return the operations op waits for (each received by op's src) \param op its index
    Span GetDeps(uint32_t op) const;
    /// \return the operations that wait for op (each sent by op's dst) \param op its index
    Span GetDependents(uint32_t op) const;
    /// \return the operations a rank sends, in index order \param rank the rank
    const std::vector<uint32_t>& GetSends(uint32_t rank) const;
    /// \return the operations a rank receives, in index order \param rank the rank
    const std::vector<uint32_t>& GetRecvs(uint32_t rank) const;
    /// \return op's place in GetSends(src) \param op its index
    uint32_t GetSendIndex(uint32_t op) const;
    /// \return op's place in GetRecvs(dst) \param op its index
    uint32_t GetRecvIndex(uint32_t op) const;
    /// \return the bytes a rank sends \param rank the rank
    uint64_t GetBytesSent(uint32_t rank) const;
    /// \return the largest WRITE of the schedule, bytes
    uint64_t GetLargestOp() const;
    /// \return the most operations a (src, dst, channel) QP carries
    uint32_t GetMostOpsPerQp() const;
    /// \return the most operations one rank receives
    uint32_t GetMostRecvsPerRank() const;
    /**
     * \return the bytes the schedule holds: its operations, their
     * dependencies both ways and the per-rank indexes (what Grouped() copies
     * once per group)
     */
    uint64_t GetMemoryBytes() const;

  private:
    // Finish()'s steps, in their order.

    /// Index the operations by rank: each rank's sends and receives, and
    /// each operation's place among them.
    void IndexByRank();
    /**
     * \brief Find what each send waits for from the data: its sender's
     * receives of earlier steps that wrote its range.
     * \param depFirst receives each operation's first entry in pool
     * \param depCount receives each operation's number of entries
     * \param pool receives the entries
     */
    void FindDataDeps(std::vector<uint32_t>& depFirst,
                      std::vector<uint32_t>& depCount,
                      std::vector<uint32_t>& pool) const;
    /**
     * \brief Store the dependencies compressed (the data's and those added
     * with the operations), and the reverse: each operation's dependents.
     * \param depFirst each operation's first entry in pool
     * \param depCount each operation's number of entries
     * \param pool the data's dependencies (released)
     */
    void StoreDeps(const std::vector<uint32_t>& depFirst,
                   const std::vector<uint32_t>& depCount,
                   std::vector<uint32_t>& pool);
    /// Count the most operations on one (src, dst, channel) QP.
    void CountOpsPerQp();

    RdmaCollectiveSchedule(RdmaCollectiveKind kind,
                           RdmaCollectiveAlgorithm algorithm,
                           uint32_t ranks,
                           uint64_t bytes,
                           uint32_t channels,
                           uint64_t chunkBytes);

    /**
     * \brief Add the WRITEs that carry a range from src to dst in one step:
     * ceil(bytes / chunkBytes) chunks of near-equal size.
     * \param src sender \param dst receiver \param channel the channel
     * \param step the step \param offset first byte \param bytes the range's length
     * \param reduce the receiver reduces it
     * \return the index of the first chunk's operation
     */
    uint32_t AddRange(uint32_t src,
                      uint32_t dst,
                      uint32_t channel,
                      uint32_t step,
                      uint64_t offset,
                      uint64_t bytes,
                      bool reduce);
    /// \return the first byte and the length of part i of n of [0, total) \param total bytes
    /// \param parts n \param i which
    static std::pair<uint64_t, uint64_t> Part(uint64_t total, uint64_t parts, uint64_t i);
    /**
     * \brief nccl-tests' sendrecv as a collective: rank r sends S to r + 1 mod n.
     * \param ranks n \param bytes S \param channels c \param chunkBytes largest WRITE
     * \return the finished schedule (PointToPoint's)
     */
    static RdmaCollectiveSchedule SendRecvRing(uint32_t ranks,
                                               uint64_t bytes,
                                               uint32_t channels,
                                               uint64_t chunkBytes);
    /**
     * \brief Add a ring over n segments of every channel's part: in step k
     * rank r sends segment (r - k) mod n to r + 1.
     * \param steps steps \param reduceSteps the first this many steps reduce
     */
    void AddRing(uint32_t steps, uint32_t reduceSteps);

    RdmaCollectiveKind m_kind;           //!< the collective
    RdmaCollectiveAlgorithm m_algorithm; //!< its algorithm
    uint32_t m_ranks;                    //!< n
    uint32_t m_groupRanks{0};            //!< ranks of a group (Grouped), 0: m_ranks
    bool m_depsGiven{false};             //!< m_extraDeps hold every dependency (Grouped)
    uint64_t m_bytes;                    //!< S
    uint32_t m_channels;                 //!< channels
    uint64_t m_chunkBytes;               //!< largest WRITE
    uint32_t m_steps{0};                 //!< largest step + 1
    std::vector<Op> m_ops;               //!< the operations
    std::vector<std::pair<uint32_t, uint32_t>> m_extraDeps; //!< (op, waits for) not from data
    std::vector<uint32_t> m_depStart;    //!< CSR: op's deps in m_deps
    std::vector<uint32_t> m_deps;        //!< CSR values
    std::vector<uint32_t> m_dependentStart; //!< CSR: op's dependents
    std::vector<uint32_t> m_dependents;  //!< CSR values
    std::vector<std::vector<uint32_t>> m_sends; //!< per rank
    std::vector<std::vector<uint32_t>> m_recvs; //!< per rank
    std::vector<uint32_t> m_sendIndex;   //!< per op
    std::vector<uint32_t> m_recvIndex;   //!< per op
    uint32_t m_mostOpsPerQp{0};          //!< per (src, dst, channel)
    uint32_t m_activeRanks{0};           //!< ranks that send or receive
};

} // namespace ns3

#endif // RDMA_COLLECTIVE_SCHEDULE_H
