/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-path-penalty.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

RdmaPathPenalty::RdmaPathPenalty(uint32_t paths, const std::function<uint16_t()>& draw)
    : m_mask(0),
      m_penalty(paths, 0)
{
    NS_ABORT_MSG_IF(paths == 0 || paths > 16384,
                    "RdmaPathPenalty: " << paths << " paths; 1 to 16384 are possible");
    while (m_mask + 1 < paths)
    {
        m_mask = (m_mask << 1) | 1; // the next power of two, less one
    }
    m_upper = static_cast<uint16_t>(0xC000 | (draw() & ~m_mask & 0x3FFF));
    m_xor = draw() & m_mask;
}

uint16_t
RdmaPathPenalty::PortOf(uint32_t index) const
{
    return static_cast<uint16_t>(m_upper | ((index ^ m_xor) & m_mask));
}

void
RdmaPathPenalty::Advance(const std::function<uint16_t()>& draw)
{
    if (++m_index > m_mask)
    {
        m_index = 0;
        m_xor = draw() & m_mask;
    }
}

uint16_t
RdmaPathPenalty::Next(const std::function<uint16_t()>& draw)
{
    const uint32_t paths = static_cast<uint32_t>(m_penalty.size());
    // Positions past P (P not a power of two) are not entropies: passed over.
    while (((m_index ^ m_xor) & m_mask) >= paths)
    {
        Advance(draw);
    }
    uint32_t entropy = (m_index ^ m_xor) & m_mask;
    bool skipped = false;
    for (uint32_t tried = 0; m_penalty[entropy] > 0 && tried <= m_mask; ++tried)
    {
        if (!skipped)
        {
            // A skip forgives a little, once per call.
            if (--m_penalty[entropy] == 0)
            {
                --m_penalized;
            }
            skipped = true;
            if (m_penalized == paths && paths == m_mask + 1)
            {
                // Every entropy still has a score, and none changes during
                // the walk: it would pass all P positions, one round that
                // wraps (and draws) once and ends where it began.
                m_xor = draw() & m_mask;
                break;
            }
        }
        do
        {
            Advance(draw);
            entropy = (m_index ^ m_xor) & m_mask;
        } while (entropy >= paths);
    }
    const uint16_t port = PortOf(m_index);
    Advance(draw);
    return port;
}

void
RdmaPathPenalty::Penalize(uint16_t port, uint8_t penalty)
{
    if ((port & ~m_mask) != m_upper)
    {
        return; // not one of this sender's entropies (a recycled port is)
    }
    if ((port & m_mask) >= m_penalty.size())
    {
        return;
    }
    uint8_t& score = m_penalty[port & m_mask];
    if (score == 0 && penalty > 0)
    {
        ++m_penalized;
    }
    score = static_cast<uint8_t>(std::min<uint32_t>(score + penalty, MAX_PENALTY));
}

uint8_t
RdmaPathPenalty::GetPenalty(uint16_t port) const
{
    return (port & ~m_mask) == m_upper && (port & m_mask) < m_penalty.size()
               ? m_penalty[port & m_mask]
               : 0;
}

} // namespace ns3
