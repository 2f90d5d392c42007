/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-frame.h"

#include "icrc-trailer.h"
#include "rdma-raw-header.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace ns3
{

namespace
{

#if defined(__SANITIZE_ADDRESS__)
constexpr bool g_pooled = false; // every record its own allocation: ASan sees each one
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool g_pooled = false;
#else
constexpr bool g_pooled = true;
#endif
#else
constexpr bool g_pooled = true;
#endif

/// Records given back, each holding the next one's address in its first bytes.
void* g_free = nullptr;

} // namespace

void*
RdmaFrame::operator new(std::size_t bytes)
{
    if (g_pooled && g_free && bytes == sizeof(RdmaFrame))
    {
        void* p = g_free;
        std::memcpy(&g_free, p, sizeof(void*));
        return p;
    }
    return ::operator new(bytes);
}

void
RdmaFrame::operator delete(void* p)
{
    if (!g_pooled || !p)
    {
        ::operator delete(p);
        return;
    }
    std::memcpy(p, &g_free, sizeof(void*));
    g_free = p;
}

Ptr<RdmaFrame>
RdmaFrame::Compact(const uint8_t* head, uint32_t headLen, uint32_t zeros, uint32_t icrc)
{
    NS_ABORT_MSG_IF(headLen > HEAD_CAPACITY,
                    "RdmaFrame: a head of " << headLen << " bytes does not fit " << HEAD_CAPACITY);
    Ptr<RdmaFrame> f = Ptr<RdmaFrame>(new RdmaFrame(), false);
    std::memcpy(f->m_head, head, headLen);
    f->m_headLen = static_cast<uint8_t>(headLen);
    f->m_size = headLen + zeros + TRAILER_BYTES;
    f->m_icrc = icrc;
    return f;
}

Ptr<RdmaFrame>
RdmaFrame::Wrap(Ptr<Packet> packet)
{
    NS_ABORT_MSG_IF(!packet, "RdmaFrame: no packet to wrap");
    Ptr<RdmaFrame> f = Ptr<RdmaFrame>(new RdmaFrame(), false);
    f->m_size = packet->GetSize();
    f->m_packet = packet;
    return f;
}

uint32_t
RdmaFrame::CopyData(uint8_t* buffer, uint32_t size) const
{
    if (m_packet)
    {
        return m_packet->CopyData(buffer, size);
    }
    const uint32_t n = std::min(size, m_size);
    const uint32_t fromHead = std::min<uint32_t>(n, m_headLen);
    std::memcpy(buffer, m_head, fromHead);
    const uint32_t zerosEnd = m_size - TRAILER_BYTES;
    if (n > fromHead)
    {
        const uint32_t zeros = std::min(n, zerosEnd) - fromHead;
        std::memset(buffer + fromHead, 0, zeros);
    }
    for (uint32_t i = zerosEnd; i < n; ++i)
    {
        buffer[i] = static_cast<uint8_t>(m_icrc >> (8 * (i - zerosEnd)));
    }
    return n;
}

void
RdmaFrame::RewriteHead(const uint8_t* head, uint32_t n)
{
    NS_ABORT_MSG_IF(n > m_size, "RdmaFrame: " << n << " bytes rewritten of " << m_size);
    if (m_packet || n > m_headLen)
    {
        if (!m_packet)
        {
            m_packet = ToPacket(); // past the head: as a Packet from now on
        }
        // The bytes taken off leave room in front of the buffer: putting n
        // bytes back writes into it without an allocation, unless the buffer
        // is shared with another Packet (then it is copied, copy-on-write).
        m_packet->RemoveAtStart(n);
        m_packet->AddHeader(RdmaRawHeader(head, n));
        return;
    }
    std::memcpy(m_head, head, n);
}

Ptr<Packet>
RdmaFrame::ToPacket() const
{
    if (m_packet)
    {
        return m_packet;
    }
    Ptr<Packet> p = Create<Packet>(m_size - m_headLen - TRAILER_BYTES);
    p->AddHeader(RdmaRawHeader(m_head, m_headLen));
    IcrcTrailer trailer;
    trailer.SetIcrc(m_icrc);
    p->AddTrailer(trailer);
    return p;
}

uint32_t
RdmaFrame::ReadIcrc(uint32_t end) const
{
    if (!m_packet && end == m_size)
    {
        return m_icrc;
    }
    IcrcTrailer trailer;
    ToPacket()->CreateFragment(end - TRAILER_BYTES, TRAILER_BYTES)->RemoveTrailer(trailer);
    return trailer.GetIcrc();
}

Ptr<Packet>
RdmaFrame::CreateFragment(uint32_t offset, uint32_t length) const
{
    NS_ABORT_MSG_IF(offset + length > m_size, "RdmaFrame: fragment past the frame's end");
    if (!m_packet && offset >= m_headLen && offset + length <= m_size - TRAILER_BYTES)
    {
        return Create<Packet>(length); // zeros only
    }
    return ToPacket()->CreateFragment(offset, length);
}

} // namespace ns3
