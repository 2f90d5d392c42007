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
    m_sent.push_back({psn & 0xFFFFFF, entropy, false});
}

RdmaReps::Sent*
RdmaReps::Latest(uint32_t psn)
{
    // The latest copy sent of the PSN (a resend's, if any): the newest match.
    for (auto it = m_sent.rbegin(); it != m_sent.rend(); ++it)
    {
        if (it->psn == psn)
        {
            return &*it;
        }
    }
    return nullptr;
}

bool
RdmaReps::EntropyOf(uint32_t psn, uint16_t& entropy)
{
    const Sent* s = Latest(psn & 0xFFFFFF);
    if (s)
    {
        entropy = s->ev;
    }
    return s != nullptr;
}

void
RdmaReps::Recycle(uint16_t entropy)
{
    const uint32_t n = static_cast<uint32_t>(m_buffer.size());
    m_buffer[m_head] = entropy;
    m_head = (m_head + 1) % n;
    if (m_valid < n)
    {
        ++m_valid;
    }
}

void
RdmaReps::Forget(uint32_t psn)
{
    while (!m_sent.empty() && PsnAtOrBefore(m_sent.front().psn, psn))
    {
        m_sent.pop_front();
    }
}

void
RdmaReps::OnAck(uint32_t psn, bool ecnEcho)
{
    psn &= 0xFFFFFF;
    Sent* acked = Latest(psn);
    if (acked && !acked->recycled && !ecnEcho)
    {
        Recycle(acked->ev);
    }
    Forget(psn);
}

void
RdmaReps::OnSack(uint32_t expectedPsn, uint32_t sackPsn, bool ecnEcho)
{
    sackPsn &= 0xFFFFFF;
    Forget((expectedPsn - 1) & 0xFFFFFF);
    Sent* arrived = Latest(sackPsn);
    if (arrived && !arrived->recycled)
    {
        arrived->recycled = true;
        if (!ecnEcho)
        {
            Recycle(arrived->ev);
        }
    }
}

} // namespace ns3
