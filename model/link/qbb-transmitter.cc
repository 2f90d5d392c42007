/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-transmitter.h"

#include "ns3/abort.h"
#include "ns3/rdma-wire.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace ns3
{

namespace
{
/// "No cached wire time" marker for m_wireTimeBytes.
constexpr uint32_t g_noCachedSize = std::numeric_limits<uint32_t>::max();
} // namespace

QbbTransmitter::QbbTransmitter(QbbDeviceStats& stats,
                               const TracedCallback<Ptr<const Packet>>& txEnd)
    : m_stats(stats),
      m_txEndTrace(txEnd),
      m_rate(DataRate(100'000'000'000ULL)),
      m_wireOverhead(RdmaWire::WIRE_OVERHEAD_BYTES)
{
    m_wireTimeBytes.fill(g_noCachedSize);
}

void
QbbTransmitter::SetDataRate(DataRate rate)
{
    m_rate = rate;
    m_wireTimeBytes.fill(g_noCachedSize);
}

DataRate
QbbTransmitter::GetDataRate() const
{
    return m_rate;
}

void
QbbTransmitter::SetWireOverhead(uint32_t bytes)
{
    m_wireOverhead = bytes;
    m_wireTimeBytes.fill(g_noCachedSize);
}

uint32_t
QbbTransmitter::GetWireOverhead() const
{
    return m_wireOverhead;
}

Time
QbbTransmitter::GetWireTime(uint32_t frameBytes) const
{
    if (frameBytes == m_wireTimeBytes[0])
    {
        return m_wireTime[0];
    }
    // Found further down, or computed in the place of the oldest: either way
    // it moves to the front and the ones before it move back by one.
    std::size_t i = 1;
    while (i + 1 < WIRE_TIMES_KEPT && m_wireTimeBytes[i] != frameBytes)
    {
        ++i;
    }
    const Time t = m_wireTimeBytes[i] == frameBytes ? m_wireTime[i]
                                                    : WireTime(m_rate, frameBytes, m_wireOverhead);
    for (; i > 0; --i)
    {
        m_wireTimeBytes[i] = m_wireTimeBytes[i - 1];
        m_wireTime[i] = m_wireTime[i - 1];
    }
    m_wireTimeBytes[0] = frameBytes;
    m_wireTime[0] = t;
    return t;
}

Time
QbbTransmitter::WireTime(DataRate rate, uint32_t frameBytes, uint32_t overheadBytes)
{
    return rate.CalculateBytesTxTime(std::max(frameBytes, RdmaWire::MIN_FRAME_BYTES) +
                                     overheadBytes);
}

void
QbbTransmitter::SetCompletionEvent(Ptr<EventImpl> completion)
{
    m_completion = completion;
}

Time
QbbTransmitter::Start(Ptr<RdmaFrame> frame)
{
    NS_ASSERT_MSG(!m_frame, "transmission started while another is in progress");
    const Time wireTime = GetWireTime(frame->GetSize());
    m_frame = std::move(frame);
    m_end = Simulator::Now() + wireTime;
    return wireTime;
}

bool
QbbTransmitter::Settle() const
{
    if (m_frame && !m_completionPending && Simulator::Now() >= m_end)
    {
        End();
    }
    return m_frame != nullptr;
}

bool
QbbTransmitter::IsCompletionPending() const
{
    return m_completionPending;
}

void
QbbTransmitter::ScheduleCompletion(Time delay)
{
    Simulator::Schedule(delay, m_completion);
    m_completionPending = true;
}

void
QbbTransmitter::NeedCompletion()
{
    if (m_frame && !m_completionPending)
    {
        ScheduleCompletion(m_end - Simulator::Now());
    }
}

void
QbbTransmitter::Complete()
{
    m_completionPending = false;
    End();
}

void
QbbTransmitter::Dispose()
{
    if (m_completionPending)
    {
        m_completion->Cancel(); // the scheduler keeps its own reference
        m_completionPending = false;
    }
    m_completion = nullptr;
    m_frame = nullptr;
}

void
QbbTransmitter::End() const
{
    Ptr<RdmaFrame> frame = m_frame;
    m_frame = nullptr;
    ++m_stats.txFrames;
    m_stats.txBytes += frame->GetSize();
    FireFrameTrace(m_txEndTrace, *frame);
}

} // namespace ns3
