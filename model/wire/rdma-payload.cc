/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-payload.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

RdmaPayload
RdmaPayload::Zeros(uint32_t length)
{
    RdmaPayload p;
    p.m_zeros = length;
    return p;
}

Ptr<Packet>
RdmaPayload::ToPacket() const
{
    if (m_bytes || m_zeros == 0)
    {
        return m_bytes;
    }
    return Create<Packet>(m_zeros);
}

uint32_t
RdmaPayload::CopyData(uint8_t* buffer, uint32_t size) const
{
    if (m_bytes)
    {
        return m_bytes->CopyData(buffer, size);
    }
    const uint32_t n = std::min(size, m_zeros);
    if (n > 0)
    {
        std::memset(buffer, 0, n); // buffer may be null when n is 0
    }
    return n;
}

} // namespace ns3
