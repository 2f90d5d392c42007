/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-event-calendar.h"

#include "ns3/assert.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// Ring slot of a bucket.
constexpr uint64_t SLOT_MASK = RdmaEventCalendar::RING_BUCKETS - 1;
/// Entries a ring slot's vector may keep room for when empty: a bucket
/// holds a few events, a burst's (every host at one time) thousands.
constexpr std::size_t KEPT_CAPACITY = 32;
/// Words of the ring's bitmap.
constexpr uint32_t WORDS = RdmaEventCalendar::RING_BUCKETS / 64;

static_assert((RdmaEventCalendar::RING_BUCKETS & SLOT_MASK) == 0 &&
                  RdmaEventCalendar::RING_BUCKETS % 64 == 0,
              "the ring is a power of two of at least 64 buckets");

/// "Runs later": the far heap is a max-heap of it (its front runs first)
/// and the current bucket is sorted by it (latest first, taken from the
/// back); a type, so that it inlines.
struct RunsLater
{
    /// \param a an entry \param b an entry \return whether a runs after b
    bool operator()(const RdmaEventCalendar::Entry& a, const RdmaEventCalendar::Entry& b) const
    {
        return RdmaEventCalendar::Before(b, a);
    }
};

/// That order.
constexpr RunsLater Later{};

/**
 * \param v entries
 * \param uid an event's uid
 * \return where that event is in v, or v.end()
 */
std::vector<RdmaEventCalendar::Entry>::iterator
FindUid(std::vector<RdmaEventCalendar::Entry>& v, uint32_t uid)
{
    return std::find_if(v.begin(), v.end(), [uid](const auto& e) { return e.uid == uid; });
}
} // namespace

RdmaEventCalendar::RdmaEventCalendar(uint32_t shift)
    : m_shift(shift),
      m_ring(RING_BUCKETS),
      m_occupied(WORDS, 0)
{
    NS_ASSERT(shift < 64);
}

void
RdmaEventCalendar::Place(const Entry& e)
{
    const uint64_t bucket = e.ts >> m_shift;
    if (bucket - m_current < RING_BUCKETS)
    {
        const uint64_t slot = bucket & SLOT_MASK;
        m_ring[slot].push_back(e);
        m_occupied[slot / 64] |= uint64_t(1) << (slot % 64);
        ++m_inRing;
    }
    else
    {
        m_far.push_back(e);
        std::push_heap(m_far.begin(), m_far.end(), Later);
    }
}

void
RdmaEventCalendar::Insert(const Entry& e)
{
    ++m_size;
    if ((e.ts >> m_shift) <= m_current)
    {
        m_now.insert(std::upper_bound(m_now.begin(), m_now.end(), e, Later), e);
        return;
    }
    Place(e);
}

void
RdmaEventCalendar::Refill()
{
    uint64_t next = UINT64_MAX;
    if (m_inRing > 0)
    {
        // The first slot set after the current bucket's, going round once:
        // the ring holds buckets m_current+1 .. m_current+N-1 only.
        const uint64_t start = (m_current + 1) & SLOT_MASK;
        for (uint32_t i = 0; i <= WORDS; ++i)
        {
            const uint32_t w = (start / 64 + i) % WORDS;
            uint64_t bits = m_occupied[w];
            if (i == 0)
            {
                bits &= ~uint64_t(0) << (start % 64);
            }
            if (bits != 0)
            {
                const uint64_t slot = w * 64 + uint64_t(__builtin_ctzll(bits));
                next = m_current + 1 + ((slot - start) & SLOT_MASK);
                break;
            }
        }
        NS_ASSERT(next != UINT64_MAX);
    }
    if (!m_far.empty())
    {
        next = std::min(next, m_far.front().ts >> m_shift);
    }
    m_current = next;
    // The far heap's events that the ring now spans move into it (the new
    // current bucket's included).
    while (!m_far.empty() && (m_far.front().ts >> m_shift) - m_current < RING_BUCKETS)
    {
        std::pop_heap(m_far.begin(), m_far.end(), Later);
        Place(m_far.back());
        m_far.pop_back();
    }
    const uint64_t slot = m_current & SLOT_MASK;
    m_now.swap(m_ring[slot]); // the empty vector's capacity goes to the ring
    if (m_ring[slot].capacity() > KEPT_CAPACITY)
    {
        std::vector<Entry>().swap(m_ring[slot]); // a burst's: freed, not passed round
    }
    m_occupied[slot / 64] &= ~(uint64_t(1) << (slot % 64));
    m_inRing -= m_now.size();
    if (m_now.size() > 1)
    {
        std::sort(m_now.begin(), m_now.end(), Later);
    }
}

const RdmaEventCalendar::Entry&
RdmaEventCalendar::PeekNext()
{
    Advance();
    NS_ASSERT(!m_now.empty());
    return m_now.back();
}

RdmaEventCalendar::Entry
RdmaEventCalendar::RemoveNext()
{
    Advance();
    NS_ASSERT(!m_now.empty());
    const Entry e = m_now.back();
    m_now.pop_back();
    --m_size;
    return e;
}

bool
RdmaEventCalendar::Remove(uint32_t uid)
{
    if (auto it = FindUid(m_now, uid); it != m_now.end())
    {
        m_now.erase(it); // still sorted
    }
    else if (auto far = FindUid(m_far, uid); far != m_far.end())
    {
        m_far.erase(far);
        std::make_heap(m_far.begin(), m_far.end(), Later);
    }
    else
    {
        uint64_t slot = 0;
        auto found = m_ring[0].end();
        while (slot < RING_BUCKETS && (found = FindUid(m_ring[slot], uid)) == m_ring[slot].end())
        {
            ++slot;
        }
        if (slot == RING_BUCKETS)
        {
            return false;
        }
        std::vector<Entry>& bucket = m_ring[slot];
        *found = bucket.back(); // the ring's buckets are unsorted
        bucket.pop_back();
        if (bucket.empty())
        {
            m_occupied[slot / 64] &= ~(uint64_t(1) << (slot % 64));
        }
        --m_inRing;
    }
    --m_size;
    return true;
}

} // namespace ns3
