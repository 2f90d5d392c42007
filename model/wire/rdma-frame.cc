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

static_assert(sizeof(RdmaFrame) == 16, "the fixed part the class's docstring gives");
static_assert(sizeof(RdmaFrame) % GRAIN == 0, "the area after the fixed part is aligned");
static_assert(alignof(IntHeader::EgressIds) <= GRAIN, "the INT slots are aligned");
static_assert(MAX_RECORD <= 255, "a record's size fits m_recordBytes");

/// \return n rounded up to a multiple of GRAIN
constexpr uint32_t
RoundUp(uint32_t n)
{
    return (n + GRAIN - 1) / GRAIN * GRAIN;
}

/// \return the bytes the head takes at the start of the area: the head
/// rounded up to GRAIN, and at least room for a wrapped frame's Packet
constexpr uint32_t
HeadSlot(uint32_t headLen)
{
    return RoundUp(headLen) > sizeof(Ptr<Packet>) ? RoundUp(headLen) : sizeof(Ptr<Packet>);
}

/**
 * The records' allocator, one per process (RdmaFrame's docstring): blocks of
 * SLAB_BYTES that records are cut from, and per record size a free list of
 * the records given back (each holding the next one's address in its first
 * bytes). Blocks are never returned: a run's peak of frames in flight stays
 * reserved until the process ends, and the next run (ns-3 runs one
 * simulation at a time, on one thread) reuses it. Under ASan every record is
 * its own allocation instead, so each is checked.
 */
class RecordPool
{
  public:
    /// Bytes of each block (one allocation for hundreds of records: no
    /// allocator header per record).
    static constexpr std::size_t SLAB_BYTES = 64 * 1024;

    /// \return a record of `bytes` (a multiple of GRAIN, at most MAX_RECORD)
    void* Take(uint32_t bytes)
    {
        if (!g_pooled)
        {
            return ::operator new(bytes);
        }
        void*& list = m_free[bytes / GRAIN];
        if (!list)
        {
            return CutFromSlab(bytes);
        }
        void* p = list;
        std::memcpy(&list, p, sizeof(void*));
        return p;
    }

    /// \brief Give a record back (its object already destroyed).
    /// \param p the record \param bytes its size, as taken
    void Give(void* p, uint32_t bytes)
    {
        if (!g_pooled)
        {
            ::operator delete(p);
            return;
        }
        void*& list = m_free[bytes / GRAIN];
        std::memcpy(p, &list, sizeof(void*));
        list = p;
    }

  private:
    /// \return `bytes` of the current block, a new block if it is used up
    /// (its tail, smaller than a record, stays unused)
    void* CutFromSlab(uint32_t bytes)
    {
        if (m_slabLeft < bytes)
        {
            m_slab = static_cast<uint8_t*>(::operator new(SLAB_BYTES));
            m_slabLeft = SLAB_BYTES;
        }
        void* p = m_slab;
        m_slab += bytes;
        m_slabLeft -= bytes;
        return p;
    }

    void* m_free[MAX_RECORD / GRAIN + 1] = {}; //!< per record size / GRAIN, the records given back
    uint8_t* m_slab = nullptr;                 //!< the block records are being cut from
    std::size_t m_slabLeft = 0;                //!< bytes left in it
};

/// The process's record pool (constant-initialized: no order of
/// initialization to mind, no guard on the per-frame path).
RecordPool g_records;

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
    void* p = g_records.Take(bytes);
    RdmaFrame* f = new (p) RdmaFrame();
    f->m_recordBytes = static_cast<uint8_t>(bytes);
    return f;
}

RdmaFrame::~RdmaFrame()
{
    if (m_wrapped)
    {
        PacketSlot().~Ptr<Packet>();
    }
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
    g_records.Give(frame, bytes);
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
    RdmaFrame* f = Allocate(HeadSlot(headLen) + (intSlots ? INT_SLOT_BYTES : 0));
    std::memcpy(f->Area(), head, headLen);
    f->m_headLen = static_cast<uint8_t>(headLen);
    f->m_size = headLen + zeros + TRAILER_BYTES;
    f->m_icrc = icrc;
    if (intSlots)
    {
        f->m_intSlots = true;
        new (f->Area() + HeadSlot(headLen)) IntHeader::EgressIds{};
    }
    return Ptr<RdmaFrame>(f, false);
}

Ptr<RdmaFrame>
RdmaFrame::Wrap(Ptr<Packet> packet)
{
    NS_ABORT_MSG_IF(!packet, "RdmaFrame: no packet to wrap");
    RdmaFrame* f = Allocate(HeadSlot(0) + INT_SLOT_BYTES);
    f->m_size = packet->GetSize();
    new (f->Area()) Ptr<Packet>(packet);
    f->m_wrapped = true;
    f->m_intSlots = true;
    new (f->Area() + HeadSlot(0)) IntHeader::EgressIds{};
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
    return *std::launder(reinterpret_cast<IntHeader::EgressIds*>(Area() + HeadSlot(m_headLen)));
}

Ptr<Packet>&
RdmaFrame::PacketSlot() const
{
    NS_ASSERT(m_wrapped != 0); // not the bare bit-field: NS_ASSERT may take its sizeof
    // std::launder: the Ptr was placement-new'd at this address.
    return *std::launder(reinterpret_cast<Ptr<Packet>*>(const_cast<uint8_t*>(Area())));
}

uint32_t
RdmaFrame::CopyData(uint8_t* buffer, uint32_t size) const
{
    if (m_wrapped)
    {
        return PacketSlot()->CopyData(buffer, size);
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
    if (m_wrapped || n > m_headLen)
    {
        if (!m_wrapped)
        {
            // Past the head: as a Packet from now on, kept where the head's
            // bytes were (the INT slots after them do not move).
            Ptr<Packet> packet = ToPacket();
            new (Area()) Ptr<Packet>(packet);
            m_wrapped = true;
        }
        // The bytes taken off leave room in front of the buffer: putting n
        // bytes back writes into it without an allocation, unless the buffer
        // is shared with another Packet (then it is copied, copy-on-write).
        Ptr<Packet>& packet = PacketSlot();
        packet->RemoveAtStart(n);
        packet->AddHeader(RdmaRawHeader(head, n));
        return;
    }
    std::memcpy(Area(), head, n);
}

Ptr<Packet>
RdmaFrame::ToPacket() const
{
    if (m_wrapped)
    {
        return PacketSlot();
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
    if (!m_wrapped && end == m_size)
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
    if (!m_wrapped && offset >= m_headLen && offset + length <= m_size - TRAILER_BYTES)
    {
        return RdmaPayload::Zeros(length);
    }
    return RdmaPayload(ToPacket()->CreateFragment(offset, length));
}

} // namespace ns3
