/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-reps.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/// \return whether PSN a is at or before b, in 24-bit serial arithmetic (IBA 9.7.1)
bool
PsnAtOrBefore(uint32_t a, uint32_t b)
{
    return ((b - a) & 0xFFFFFF) < 0x800000;
}

} // namespace

RdmaReps::RdmaReps(uint32_t bufferSize)
    : m_buffer(bufferSize, 0)
{
    NS_ABORT_MSG_IF(bufferSize == 0, "RdmaReps: the buffer needs at least one entry");
}

bool
RdmaReps::Next(uint16_t& entropy)
{
    if (m_valid == 0)
    {
        return false;
    }
    const uint32_t n = static_cast<uint32_t>(m_buffer.size());
    entropy = m_buffer[(m_head + n - m_valid) % n];
    --m_valid;
    return true;
}

void
RdmaReps::OnSent(uint32_t psn, uint16_t entropy)
{
    m_sent.emplace_back(psn & 0xFFFFFF, entropy);
}

void
RdmaReps::OnAck(uint32_t psn, bool ecnEcho)
{
    psn &= 0xFFFFFF;
    bool found = false;
    uint16_t entropy = 0;
    while (!m_sent.empty() && PsnAtOrBefore(m_sent.front().first, psn))
    {
        if (m_sent.front().first == psn)
        {
            found = true;
            entropy = m_sent.front().second; // the latest copy sent wins
        }
        m_sent.pop_front();
    }
    if (!found || ecnEcho)
    {
        return;
    }
    const uint32_t n = static_cast<uint32_t>(m_buffer.size());
    m_buffer[m_head] = entropy;
    m_head = (m_head + 1) % n;
    if (m_valid < n)
    {
        ++m_valid;
    }
}

} // namespace ns3
