/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-frame-batch.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

namespace
{
/// \param bytes a length \return it rounded up to a multiple of 8
std::size_t
RoundUp8(std::size_t bytes)
{
    return (bytes + 7) / 8 * 8;
}
} // namespace

namespace
{
/// A record's kind (the low half of its header's last word; a frame's
/// compact head is the high half).
enum Kind : uint32_t
{
    FRAME = 0,  //!< a frame and its arrival
    NOTICE = 1, //!< a notice: no frame
};
} // namespace

uint8_t*
RdmaFrameBatch::AppendHeader(uint64_t ts,
                             uint64_t key,
                             uint32_t node,
                             uint32_t word,
                             uint32_t length,
                             uint32_t kind,
                             std::size_t bytes)
{
    const std::size_t words = bytes / 8;
    if (m_chunks.empty() || m_chunks.back().capacity() - m_chunks.back().size() < words)
    {
        // A new chunk: the record does not fit in the last one.
        m_chunks.emplace_back();
        m_chunks.back().reserve(std::max(CHUNK_BYTES, bytes) / 8);
    }
    std::vector<uint64_t>& chunk = m_chunks.back();
    const std::size_t at = chunk.size();
    chunk.resize(at + words, 0); // within its capacity: no reallocation
    m_bytes += bytes;
    uint8_t* record = reinterpret_cast<uint8_t*>(chunk.data() + at);
    std::memcpy(record, &ts, 8);
    std::memcpy(record + 8, &key, 8);
    std::memcpy(record + 16, &node, 4);
    std::memcpy(record + 20, &word, 4);
    std::memcpy(record + 24, &length, 4);
    std::memcpy(record + 28, &kind, 4);
    m_earliest = std::min(m_earliest, ts);
    return record;
}

void
RdmaFrameBatch::Append(Ptr<const Packet> frame,
                       Time arrival,
                       uint64_t key,
                       uint32_t node,
                       uint32_t ifIndex,
                       uint32_t compactHead)
{
    NS_ABORT_MSG_IF(compactHead > 0xFFFF,
                    "RdmaFrameBatch: a compact head of " << compactHead << " bytes");
    const uint32_t length = frame->GetSerializedSize();
    uint8_t* record = AppendHeader(uint64_t(arrival.GetTimeStep()),
                                   key,
                                   node,
                                   ifIndex,
                                   length,
                                   FRAME | (compactHead << 16),
                                   HEADER_BYTES + RoundUp8(length));
    NS_ABORT_MSG_UNLESS(frame->Serialize(record + HEADER_BYTES, length),
                        "RdmaFrameBatch: a frame did not serialize into its own size");
    ++m_frames;
}

void
RdmaFrameBatch::AppendNotice(Time at, uint64_t key, uint32_t node, uint32_t argument)
{
    AppendHeader(uint64_t(at.GetTimeStep()), key, node, argument, 0, NOTICE, HEADER_BYTES);
    ++m_notices;
}

uint32_t
RdmaFrameBatch::GetFrames() const
{
    return m_frames;
}

uint32_t
RdmaFrameBatch::GetNotices() const
{
    return m_notices;
}

std::size_t
RdmaFrameBatch::GetBytes() const
{
    return m_bytes;
}

std::vector<RdmaFrameBatch::Chunk>
RdmaFrameBatch::GetChunks() const
{
    std::vector<Chunk> chunks;
    for (const std::vector<uint64_t>& c : m_chunks)
    {
        if (!c.empty())
        {
            chunks.push_back({reinterpret_cast<const uint8_t*>(c.data()), c.size() * 8});
        }
    }
    return chunks;
}

void
RdmaFrameBatch::CopyTo(uint8_t* dst) const
{
    for (const Chunk& c : GetChunks())
    {
        std::memcpy(dst, c.data, c.bytes);
        dst += c.bytes;
    }
}

uint64_t
RdmaFrameBatch::GetEarliestArrival() const
{
    return m_earliest;
}

void
RdmaFrameBatch::Clear()
{
    m_chunks.resize(std::min<std::size_t>(m_chunks.size(), 1));
    if (!m_chunks.empty())
    {
        m_chunks[0].clear();
    }
    m_bytes = 0;
    m_frames = 0;
    m_notices = 0;
    m_earliest = uint64_t(INT64_MAX);
}

RdmaFrameBatch::Received::Received(std::size_t bytes)
    : m_words(bytes / 8, 0)
{
    NS_ABORT_MSG_UNLESS(bytes % 8 == 0,
                        "RdmaFrameBatch: a batch of " << bytes << " bytes not aligned to 8 bytes");
}

uint8_t*
RdmaFrameBatch::Received::GetData()
{
    return reinterpret_cast<uint8_t*>(m_words.data());
}

const uint8_t*
RdmaFrameBatch::Received::GetData() const
{
    return reinterpret_cast<const uint8_t*>(m_words.data());
}

std::size_t
RdmaFrameBatch::Received::GetBytes() const
{
    return m_words.size() * 8;
}

RdmaFrameBatch::SerializedFrame::SerializedFrame(Ptr<const Received> batch,
                                                 std::size_t offset,
                                                 uint32_t length)
    : m_batch(batch),
      m_offset(uint32_t(offset)),
      m_length(length)
{
    NS_ABORT_MSG_UNLESS(batch && offset % 8 == 0 && offset <= batch->GetBytes() &&
                            length <= batch->GetBytes() - offset,
                        "RdmaFrameBatch: a frame of " << length << " bytes at byte " << offset
                                                      << " is not in its batch");
}

uint32_t
RdmaFrameBatch::SerializedFrame::GetSerializedSize() const
{
    return m_length;
}

void
RdmaFrameBatch::SerializedFrame::CopyTo(uint8_t* dst) const
{
    NS_ABORT_MSG_UNLESS(m_batch, "RdmaFrameBatch: a notice has no frame");
    std::memcpy(dst, m_batch->GetData() + m_offset, m_length);
}

Ptr<Packet>
RdmaFrameBatch::SerializedFrame::ToPacket() const
{
    NS_ABORT_MSG_UNLESS(m_batch, "RdmaFrameBatch: a notice has no frame");
    return Create<Packet>(m_batch->GetData() + m_offset, m_length, true);
}

uint32_t
RdmaFrameBatch::Read(Ptr<const Received> batch, const std::function<void(const Record&)>& each)
{
    const uint8_t* data = batch->GetData();
    const std::size_t bytes = batch->GetBytes();
    NS_ABORT_MSG_IF(bytes > std::size_t(UINT32_MAX),
                    "RdmaFrameBatch: a batch of " << bytes << " bytes, above 4 GiB");
    uint32_t records = 0;
    std::size_t at = 0;
    while (at < bytes)
    {
        NS_ABORT_MSG_IF(bytes - at < HEADER_BYTES,
                        "RdmaFrameBatch: a batch ends inside a record's header (byte "
                            << at << " of " << bytes << ")");
        const uint8_t* record = data + at;
        Record r;
        uint32_t word = 0;
        uint32_t length = 0;
        uint32_t kind = 0;
        std::memcpy(&r.arrivalTs, record, 8);
        std::memcpy(&r.key, record + 8, 8);
        std::memcpy(&r.node, record + 16, 4);
        std::memcpy(&word, record + 20, 4);
        std::memcpy(&length, record + 24, 4);
        std::memcpy(&kind, record + 28, 4);
        const uint32_t compactHead = kind >> 16;
        kind &= 0xFFFF;
        NS_ABORT_MSG_UNLESS(kind == FRAME || (kind == NOTICE && length == 0 && compactHead == 0),
                            "RdmaFrameBatch: a record of kind " << kind << " and length " << length
                                                                << " at byte " << at);
        const std::size_t size = HEADER_BYTES + RoundUp8(length);
        NS_ABORT_MSG_IF(size > bytes - at,
                        "RdmaFrameBatch: a " << length << "-byte frame at byte " << at
                                             << " runs past the batch's " << bytes << " bytes");
        if (kind == FRAME)
        {
            r.ifIndex = word;
            r.compactHead = compactHead;
            r.frame = SerializedFrame(batch, at + HEADER_BYTES, length);
        }
        else
        {
            r.argument = word;
        }
        each(r);
        at += size;
        ++records;
    }
    return records;
}

} // namespace ns3
