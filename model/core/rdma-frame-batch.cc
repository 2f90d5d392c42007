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

void
RdmaFrameBatch::Append(Ptr<const Packet> frame,
                       Time arrival,
                       uint64_t key,
                       uint32_t node,
                       uint32_t ifIndex)
{
    const uint32_t length = frame->GetSerializedSize();
    const std::size_t at = m_words.size();
    m_words.resize(at + (HEADER_BYTES + RoundUp8(length)) / 8, 0);
    uint8_t* record = reinterpret_cast<uint8_t*>(m_words.data() + at);
    const uint64_t ts = uint64_t(arrival.GetTimeStep());
    const uint32_t zero = 0;
    std::memcpy(record, &ts, 8);
    std::memcpy(record + 8, &key, 8);
    std::memcpy(record + 16, &node, 4);
    std::memcpy(record + 20, &ifIndex, 4);
    std::memcpy(record + 24, &length, 4);
    std::memcpy(record + 28, &zero, 4);
    NS_ABORT_MSG_UNLESS(frame->Serialize(record + HEADER_BYTES, length),
                        "RdmaFrameBatch: a frame did not serialize into its own size");
    m_earliest = std::min(m_earliest, ts);
    ++m_frames;
}

uint32_t
RdmaFrameBatch::GetFrames() const
{
    return m_frames;
}

std::size_t
RdmaFrameBatch::GetBytes() const
{
    return m_words.size() * 8;
}

const uint8_t*
RdmaFrameBatch::GetData() const
{
    return reinterpret_cast<const uint8_t*>(m_words.data());
}

uint64_t
RdmaFrameBatch::GetEarliestArrival() const
{
    return m_earliest;
}

void
RdmaFrameBatch::Clear()
{
    m_words.clear();
    m_frames = 0;
    m_earliest = uint64_t(INT64_MAX);
}

uint32_t
RdmaFrameBatch::Read(const uint8_t* data,
                     std::size_t bytes,
                     const std::function<void(const Record&)>& each)
{
    NS_ABORT_MSG_UNLESS(reinterpret_cast<uintptr_t>(data) % 8 == 0 && bytes % 8 == 0,
                        "RdmaFrameBatch: a batch of " << bytes << " bytes not aligned to 8 bytes");
    uint32_t records = 0;
    std::size_t at = 0;
    while (at < bytes)
    {
        NS_ABORT_MSG_IF(bytes - at < HEADER_BYTES,
                        "RdmaFrameBatch: a batch ends inside a record's header (byte "
                            << at << " of " << bytes << ")");
        const uint8_t* record = data + at;
        Record r;
        uint32_t length = 0;
        std::memcpy(&r.arrivalTs, record, 8);
        std::memcpy(&r.key, record + 8, 8);
        std::memcpy(&r.node, record + 16, 4);
        std::memcpy(&r.ifIndex, record + 20, 4);
        std::memcpy(&length, record + 24, 4);
        const std::size_t size = HEADER_BYTES + RoundUp8(length);
        NS_ABORT_MSG_IF(size > bytes - at,
                        "RdmaFrameBatch: a " << length << "-byte frame at byte " << at
                                             << " runs past the batch's " << bytes << " bytes");
        r.frame = Create<Packet>(record + HEADER_BYTES, length, true);
        each(r);
        at += size;
        ++records;
    }
    return records;
}

} // namespace ns3
