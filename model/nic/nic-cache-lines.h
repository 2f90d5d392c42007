/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_CACHE_LINES_H
#define NIC_CACHE_LINES_H

#include "ns3/ptr.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief The lines of a NicCache, grouped in sets, and the choice of the
 * line a miss fills (the replacement policy).
 *
 * Lines [s x Ways, (s + 1) x Ways) form set s. Each set keeps its lines in a
 * list from head to tail: the most recently looked up (LRU) or newest filled
 * (FIFO) at the head, invalid lines at the tail, so the tail is invalid
 * whenever any line of the set is. A victim is an invalid line if there is
 * one; otherwise, among the lines not waiting for a fill: the one nearest
 * the tail (LRU, FIFO), a uniform one (RANDOM, from the stream given) or the
 * one with the fewest lookups since its fill, ties to the least recently
 * used (LFU). ChooseVictimIn makes the same choice among a range of a
 * set's ways (a way partition). NicCache decides when a line moves (MoveToHead on a lookup
 * under LRU and on a fill, MoveToTail when it is invalidated).
 */
class NicCacheLines
{
  public:
    /// Replacement policy.
    enum Policy
    {
        LRU,    //!< least recently used
        FIFO,   //!< first in (filled), first out
        RANDOM, //!< uniformly random line of the set
        LFU     //!< least frequently used since fill, ties to LRU
    };

    /// One line of the cache.
    struct Line
    {
        uint64_t key{0};     //!< key held
        uint64_t lastUse{0}; //!< NicCache's lookup counter at the last lookup
        uint32_t uses{0};    //!< lookups since the fill (LFU)
        uint32_t prev{0};    //!< neighbour towards the set's head
        uint32_t next{0};    //!< neighbour towards the set's tail
        bool valid{false};   //!< holds key (filled or being filled)
        bool pending{false}; //!< its fill is in flight (MarkPending, ClearPending)
        bool dirty{false};   //!< modified since the fill
    };

    /// No line / end of a set's list.
    static constexpr uint32_t NIL = std::numeric_limits<uint32_t>::max();

    /**
     * \brief Set up entries / ways sets of ways lines, all invalid; each
     * set's list runs in line order.
     * \param entries lines, a multiple of ways (NicCache checks it)
     * \param ways lines per set, at least 1
     */
    void Build(uint32_t entries, uint32_t ways);
    /// \return the number of sets, entries / ways of the last Build
    uint32_t GetSets() const;
    /// \param line a line \return it
    Line& operator[](uint32_t line);
    /// \param line a line \return it
    const Line& operator[](uint32_t line) const;
    /// \param line its fill starts (it is counted in its set)
    void MarkPending(uint32_t line);
    /// \param line its fill completed
    void ClearPending(uint32_t line);
    /**
     * \param set a set
     * \param policy the replacement policy
     * \param rng the RANDOM policy's stream
     * \return a line to fill in set, or NIL if every line is pending
     */
    uint32_t ChooseVictim(uint32_t set, Policy policy, Ptr<UniformRandomVariable> rng);
    /**
     * \brief The victim among the ways [firstWay, endWay) of a set only (a
     * way partition): an invalid line of those ways first, then the policy's
     * choice among those not waiting for a fill.
     * \param set a set
     * \param policy the replacement policy
     * \param rng the RANDOM policy's stream
     * \param firstWay first way of the partition
     * \param endWay one past its last way, at most Ways and above firstWay
     * \return a line to fill, or NIL if every line of the partition is pending
     */
    uint32_t ChooseVictimIn(uint32_t set,
                            Policy policy,
                            Ptr<UniformRandomVariable> rng,
                            uint32_t firstWay,
                            uint32_t endWay);
    /// \param line move to the head of its set's list
    void MoveToHead(uint32_t line);
    /// \param line move to the tail of its set's list
    void MoveToTail(uint32_t line);

  private:
    /**
     * \param lo first line
     * \param hi one past the last line
     * \return the line of [lo, hi) not waiting for a fill with the fewest
     * lookups since its fill, ties to the least recently used; NIL if none
     */
    uint32_t LeastFrequent(uint32_t lo, uint32_t hi) const;
    /// \param line unlink from its set's list
    void Unlink(uint32_t line);
    /**
     * \brief MoveToHead (head true) or MoveToTail (false): one body for the
     * two mirror images.
     * \param line the line
     * \param head which end of its set's list
     */
    void MoveToEnd(uint32_t line, bool head);

    uint32_t m_ways{0};                   //!< lines per set
    uint32_t m_sets{0};                   //!< entries / ways
    std::vector<Line> m_lines;            //!< set s holds [s * ways, (s + 1) * ways)
    std::vector<uint32_t> m_head;         //!< per set: most recent (LRU) / newest (FIFO)
    std::vector<uint32_t> m_tail;         //!< per set: the victim end; invalid lines sit here
    std::vector<uint32_t> m_pendingInSet; //!< per set: lines waiting for a fill
};

} // namespace ns3

#endif // NIC_CACHE_LINES_H
