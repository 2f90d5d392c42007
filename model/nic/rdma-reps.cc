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

bool
RdmaReps::EntropyOf(uint32_t psn, uint16_t& entropy) const
{
    psn &= 0xFFFFFF;
    bool found = false;
    for (const Sent& s : m_sent)
    {
        if (s.psn == psn)
        {
            entropy = s.ev; // the latest copy's
            found = true;
        }
    }
    return found;
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
    // The latest copy sent of the ACKed PSN (a resend's, if any).
    Sent* acked = nullptr;
    for (Sent& s : m_sent)
    {
        if (s.psn == psn)
        {
            acked = &s;
        }
    }
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
    Sent* arrived = nullptr;
    for (Sent& s : m_sent)
    {
        if (s.psn == sackPsn)
        {
            arrived = &s;
        }
    }
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
