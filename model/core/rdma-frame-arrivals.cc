/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-frame-arrivals.h"

#include "rdma-event-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFrameArrivals");

namespace
{
/// \param bytes a length \return it rounded up to a multiple of 8
std::size_t
RoundUp8(std::size_t bytes)
{
    return (bytes + 7) / 8 * 8;
}

/// \return whether a arrives before b (time, then key)
bool
Earlier(const RdmaFrameBatch::Record& a, const RdmaFrameBatch::Record& b)
{
    return a.arrivalTs != b.arrivalTs ? a.arrivalTs < b.arrivalTs : a.key < b.key;
}
} // namespace

RdmaFrameArrivals::~RdmaFrameArrivals()
{
    Clear();
}

void
RdmaFrameArrivals::SetArrivalCallback(ArrivalCallback cb)
{
    m_arrival = cb;
}

uint32_t
RdmaFrameArrivals::Add(Ptr<const RdmaFrameBatch::Received> batch,
                       const std::function<void(const RdmaFrameBatch::Record&)>& notice)
{
    NS_LOG_FUNCTION(this << batch->GetBytes());
    const std::size_t before = m_frames.size();
    // Room for exactly its frames, counted first: a growing vector would
    // hold up to twice their records, and three times while it moves them.
    std::size_t frames = 0;
    RdmaFrameBatch::Read(batch,
                         [&frames](const RdmaFrameBatch::Record& r) { frames += bool(r.frame); });
    m_frames.reserve(before + frames);
    RdmaFrameBatch::Read(batch, [&](const RdmaFrameBatch::Record& record) {
        if (record.frame)
        {
            NS_ABORT_MSG_IF(TimeStep(record.arrivalTs) < Simulator::Now(),
                            "RdmaFrameArrivals: a frame for node "
                                << record.node << " due at " << TimeStep(record.arrivalTs)
                                << ", before now (" << Simulator::Now() << ")");
            m_frames.push_back(record);
        }
        else
        {
            notice(record);
        }
    });
    // In place (std::inplace_merge would take a buffer as large).
    std::sort(m_frames.begin() + std::ptrdiff_t(m_next), m_frames.end(), Earlier);
    if (m_next < m_frames.size() && !(m_scheduled && m_frames[m_next].key == m_scheduledKey))
    {
        // A new earliest frame (or none was scheduled): its event takes the
        // scheduled one's place (which then finds itself stale, ArriveNext).
        ScheduleNext();
    }
    return uint32_t(m_frames.size() - before);
}

void
RdmaFrameArrivals::Compact()
{
    NS_LOG_FUNCTION(this);
    m_frames.erase(m_frames.begin(), m_frames.begin() + std::ptrdiff_t(m_next));
    m_next = 0;
    std::size_t bytes = 0;
    for (const RdmaFrameBatch::Record& r : m_frames)
    {
        bytes += RoundUp8(r.frame.GetSerializedSize());
    }
    const Ptr<RdmaFrameBatch::Received> kept = Create<RdmaFrameBatch::Received>(bytes);
    std::size_t at = 0;
    for (RdmaFrameBatch::Record& r : m_frames)
    {
        const uint32_t length = r.frame.GetSerializedSize();
        r.frame.CopyTo(kept->GetData() + at);
        r.frame = RdmaFrameBatch::SerializedFrame(kept, at, length);
        at += RoundUp8(length);
    }
    m_frames.shrink_to_fit();
}

void
RdmaFrameArrivals::Clear()
{
    // No simulator call: this may run after Simulator::Destroy. An arrival
    // event still scheduled then finds nothing waiting (ArriveNext).
    m_frames.clear();
    m_frames.shrink_to_fit();
    m_next = 0;
    m_scheduled = false;
    ++m_generation;
}

std::size_t
RdmaFrameArrivals::GetWaiting() const
{
    return m_frames.size() - m_next;
}

std::size_t
RdmaFrameArrivals::GetWaitingBytes() const
{
    std::size_t bytes = 0;
    for (std::size_t i = m_next; i < m_frames.size(); ++i)
    {
        bytes += m_frames[i].frame.GetSerializedSize();
    }
    return bytes;
}

void
RdmaFrameArrivals::ScheduleNext()
{
    const RdmaFrameBatch::Record& r = m_frames[m_next];
    m_scheduled = true;
    m_scheduledKey = r.key;
    RdmaEventScheduler::SetNextKey(r.key);
    Simulator::ScheduleWithContext(r.node,
                                   TimeStep(r.arrivalTs) - Simulator::Now(),
                                   &RdmaFrameArrivals::ArriveNext,
                                   this,
                                   ++m_generation);
}

void
RdmaFrameArrivals::ArriveNext(uint64_t generation)
{
    if (generation != m_generation)
    {
        return; // another frame took its place, or cleared
    }
    m_scheduled = false;
    NS_ABORT_MSG_IF(m_arrival.IsNull(),
                    "RdmaFrameArrivals: a frame arrived and no callback takes it");
    const RdmaFrameBatch::Record record = m_frames[m_next];
    m_frames[m_next].frame = RdmaFrameBatch::SerializedFrame();
    ++m_next;
    if (m_next < m_frames.size())
    {
        ScheduleNext();
    }
    else
    {
        m_frames.clear();
        m_next = 0;
    }
    m_arrival(record);
}

} // namespace ns3
