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
#include <unordered_map>

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

/// Records are multiples of this many bytes (the fixed part's alignment).
constexpr uint32_t GRAIN = 8;
/// Bytes of the INT slots' egress IDs in a record that has them.
constexpr uint32_t INT_SLOT_BYTES = sizeof(IntHeader::EgressIds);
/// The largest record: the fixed part, a full head, the INT slots.
constexpr uint32_t MAX_RECORD =
    sizeof(RdmaFrame) + (RdmaFrame::HEAD_CAPACITY + GRAIN - 1) / GRAIN * GRAIN + INT_SLOT_BYTES;

static_assert(sizeof(RdmaFrame) == 24, "the fixed part the class's docstring gives");
static_assert(sizeof(RdmaFrame) % GRAIN == 0, "the area after the fixed part is aligned");
static_assert(alignof(IntHeader::EgressIds) <= GRAIN, "the INT slots are aligned");
static_assert(MAX_RECORD <= 255, "a record's size fits m_recordBytes");

/// \return n rounded up to a multiple of GRAIN
constexpr uint32_t
RoundUp(uint32_t n)
{
    return (n + GRAIN - 1) / GRAIN * GRAIN;
}

/// Per record size / GRAIN, the records given back, each holding the next
/// one's address in its first bytes.
void* g_free[MAX_RECORD / GRAIN + 1] = {};

/// CONGA's overlay fields of the frames that have them (RdmaFrame::m_conga);
/// never destroyed, so a frame freed during the process's exit still finds it.
std::unordered_map<const RdmaFrame*, RdmaCongaOverlay>&
CongaOverlays()
{
    static auto* overlays = new std::unordered_map<const RdmaFrame*, RdmaCongaOverlay>();
    return *overlays;
}

} // namespace

RdmaFrame*
RdmaFrame::Allocate(uint32_t areaBytes)
{
    const uint32_t bytes = sizeof(RdmaFrame) + areaBytes;
    NS_ASSERT(bytes % GRAIN == 0 && bytes <= MAX_RECORD);
    void* p = nullptr;
    void*& list = g_free[bytes / GRAIN];
    if (g_pooled && list)
    {
        p = list;
        std::memcpy(&list, p, sizeof(void*));
    }
    else
    {
        p = ::operator new(bytes);
    }
    RdmaFrame* f = new (p) RdmaFrame();
    f->m_recordBytes = static_cast<uint8_t>(bytes);
    return f;
}

RdmaFrame::~RdmaFrame()
{
    if (m_conga)
    {
        CongaOverlays().erase(this);
    }
}

void
RdmaFrameDeleter::Delete(RdmaFrame* frame)
{
    const uint32_t bytes = frame->m_recordBytes;
    frame->~RdmaFrame();
    if (!g_pooled)
    {
        ::operator delete(frame);
        return;
    }
    void*& list = g_free[bytes / GRAIN];
    std::memcpy(static_cast<void*>(frame), &list, sizeof(void*));
    list = frame;
}

Ptr<RdmaFrame>
RdmaFrame::Compact(const uint8_t* head,
                   uint32_t headLen,
                   uint32_t zeros,
                   uint32_t icrc,
                   bool intSlots)
{
    NS_ABORT_MSG_IF(headLen > HEAD_CAPACITY,
                    "RdmaFrame: a head of " << headLen << " bytes does not fit " << HEAD_CAPACITY);
    RdmaFrame* f = Allocate(RoundUp(headLen) + (intSlots ? INT_SLOT_BYTES : 0));
    std::memcpy(f->Area(), head, headLen);
    f->m_headLen = static_cast<uint8_t>(headLen);
    f->m_size = headLen + zeros + TRAILER_BYTES;
    f->m_icrc = icrc;
    if (intSlots)
    {
        f->m_intSlots = true;
        new (f->Area() + RoundUp(headLen)) IntHeader::EgressIds{};
    }
    return Ptr<RdmaFrame>(f, false);
}

Ptr<RdmaFrame>
RdmaFrame::Wrap(Ptr<Packet> packet)
{
    NS_ABORT_MSG_IF(!packet, "RdmaFrame: no packet to wrap");
    RdmaFrame* f = Allocate(INT_SLOT_BYTES);
    f->m_size = packet->GetSize();
    f->m_packet = packet;
    f->m_intSlots = true;
    new (f->Area()) IntHeader::EgressIds{};
    return Ptr<RdmaFrame>(f, false);
}

RdmaCongaOverlay&
RdmaFrame::GetCongaOverlay()
{
    m_conga = true;
    return CongaOverlays()[this];
}

IntHeader::EgressIds&
RdmaFrame::GetIntEgress()
{
    NS_ABORT_MSG_UNLESS(m_intSlots,
                        "RdmaFrame: a frame built without an INT header has no INT slots");
    // std::launder: the array was placement-new'd at this address.
    return *std::launder(reinterpret_cast<IntHeader::EgressIds*>(Area() + RoundUp(m_headLen)));
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
    std::memcpy(buffer, Area(), fromHead);
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
    std::memcpy(Area(), head, n);
}

Ptr<Packet>
RdmaFrame::ToPacket() const
{
    if (m_packet)
    {
        return m_packet;
    }
    Ptr<Packet> p = Create<Packet>(m_size - m_headLen - TRAILER_BYTES);
    p->AddHeader(RdmaRawHeader(Area(), m_headLen));
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

RdmaPayload
RdmaFrame::GetPayload(uint32_t offset, uint32_t length) const
{
    NS_ABORT_MSG_IF(offset + length > m_size, "RdmaFrame: fragment past the frame's end");
    if (!m_packet && offset >= m_headLen && offset + length <= m_size - TRAILER_BYTES)
    {
        return RdmaPayload::Zeros(length);
    }
    return RdmaPayload(ToPacket()->CreateFragment(offset, length));
}

} // namespace ns3
