/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-cache-lines.h"

#include "ns3/random-variable-stream.h"

namespace ns3
{

void
NicCacheLines::Build(uint32_t entries, uint32_t ways)
{
    m_ways = ways;
    m_sets = entries / ways;
    m_lines.assign(entries, Line());
    m_head.assign(m_sets, NIL);
    m_tail.assign(m_sets, NIL);
    m_pendingInSet.assign(m_sets, 0);
    for (uint32_t s = 0; s < m_sets; ++s)
    {
        uint32_t base = s * m_ways;
        for (uint32_t w = 0; w < m_ways; ++w)
        {
            m_lines[base + w].prev = w == 0 ? NIL : base + w - 1;
            m_lines[base + w].next = w + 1 == m_ways ? NIL : base + w + 1;
        }
        m_head[s] = base;
        m_tail[s] = base + m_ways - 1;
    }
}

uint32_t
NicCacheLines::GetSets() const
{
    return m_sets;
}

NicCacheLines::Line&
NicCacheLines::operator[](uint32_t line)
{
    return m_lines[line];
}

const NicCacheLines::Line&
NicCacheLines::operator[](uint32_t line) const
{
    return m_lines[line];
}

void
NicCacheLines::MarkPending(uint32_t line)
{
    m_lines[line].pending = true;
    ++m_pendingInSet[line / m_ways];
}

void
NicCacheLines::ClearPending(uint32_t line)
{
    m_lines[line].pending = false;
    --m_pendingInSet[line / m_ways];
}

void
NicCacheLines::Unlink(uint32_t line)
{
    uint32_t s = line / m_ways;
    Line& l = m_lines[line];
    if (l.prev != NIL)
    {
        m_lines[l.prev].next = l.next;
    }
    else
    {
        m_head[s] = l.next;
    }
    if (l.next != NIL)
    {
        m_lines[l.next].prev = l.prev;
    }
    else
    {
        m_tail[s] = l.prev;
    }
    l.prev = NIL;
    l.next = NIL;
}

void
NicCacheLines::MoveToHead(uint32_t line)
{
    MoveToEnd(line, true);
}

void
NicCacheLines::MoveToTail(uint32_t line)
{
    MoveToEnd(line, false);
}

void
NicCacheLines::MoveToEnd(uint32_t line, bool head)
{
    const uint32_t s = line / m_ways;
    // The end the line goes to, the other end, and the two links that face
    // them: at the head the line's next is the old head, whose prev is the
    // line; at the tail the mirror image.
    uint32_t& end = head ? m_head[s] : m_tail[s];
    uint32_t& other = head ? m_tail[s] : m_head[s];
    uint32_t Line::*outward = head ? &Line::next : &Line::prev;
    uint32_t Line::*inward = head ? &Line::prev : &Line::next;
    if (end == line)
    {
        return;
    }
    Unlink(line);
    m_lines[line].*outward = end;
    if (end != NIL)
    {
        m_lines[end].*inward = line;
    }
    end = line;
    if (other == NIL)
    {
        other = line;
    }
}

uint32_t
NicCacheLines::ChooseVictim(uint32_t set, Policy policy, Ptr<UniformRandomVariable> rng)
{
    // Invalid lines are kept at the tail of their set's list, so the tail is
    // invalid whenever any line of the set is.
    uint32_t tail = m_tail[set];
    if (!m_lines[tail].valid)
    {
        return tail;
    }
    if (m_pendingInSet[set] == m_ways)
    {
        return NIL;
    }
    uint32_t base = set * m_ways;
    switch (policy)
    {
    case LRU:
    case FIFO:
        for (uint32_t l = tail; l != NIL; l = m_lines[l].prev)
        {
            if (!m_lines[l].pending)
            {
                return l;
            }
        }
        return NIL;
    case RANDOM: {
        uint32_t candidates = m_ways - m_pendingInSet[set];
        uint32_t k = rng->GetInteger(0, candidates - 1);
        if (m_pendingInSet[set] == 0)
        {
            return base + k;
        }
        for (uint32_t l = base; l < base + m_ways; ++l)
        {
            if (!m_lines[l].pending && k-- == 0)
            {
                return l;
            }
        }
        return NIL;
    }
    case LFU:
        return LeastFrequent(base, base + m_ways);
    }
    return NIL;
}

uint32_t
NicCacheLines::LeastFrequent(uint32_t lo, uint32_t hi) const
{
    uint32_t best = NIL;
    for (uint32_t l = lo; l < hi; ++l)
    {
        const Line& c = m_lines[l];
        if (c.pending)
        {
            continue;
        }
        if (best == NIL || c.uses < m_lines[best].uses ||
            (c.uses == m_lines[best].uses && c.lastUse < m_lines[best].lastUse))
        {
            best = l;
        }
    }
    return best;
}

uint32_t
NicCacheLines::ChooseVictimIn(uint32_t set,
                              Policy policy,
                              Ptr<UniformRandomVariable> rng,
                              uint32_t firstWay,
                              uint32_t endWay)
{
    const uint32_t lo = set * m_ways + firstWay;
    const uint32_t hi = set * m_ways + endWay;
    auto inside = [lo, hi](uint32_t l) { return l >= lo && l < hi; };
    // Walking from the tail meets the set's invalid lines first, then the
    // valid ones from the least recently used (LRU) or oldest (FIFO).
    uint32_t candidates = 0;
    for (uint32_t l = m_tail[set]; l != NIL; l = m_lines[l].prev)
    {
        if (!inside(l) || m_lines[l].pending)
        {
            continue;
        }
        if (!m_lines[l].valid || policy == LRU || policy == FIFO)
        {
            return l;
        }
        ++candidates;
    }
    if (candidates == 0)
    {
        return NIL;
    }
    if (policy == LFU)
    {
        return LeastFrequent(lo, hi);
    }
    uint32_t k = rng->GetInteger(0, candidates - 1);
    for (uint32_t l = lo; l < hi; ++l)
    {
        if (!m_lines[l].pending && k-- == 0)
        {
            return l;
        }
    }
    return NIL;
}

} // namespace ns3
