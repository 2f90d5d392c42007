/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-wire.h"

#include "qbb-net-device.h"

#include "ns3/node.h"
#include "ns3/rdma-event-scheduler.h"
#include "ns3/simulator.h"

namespace ns3
{

void
QbbWire::SetEnds(QbbNetDevice* tx, QbbNetDevice* rx)
{
    m_tx = tx;
    m_rx = rx;
    m_hasContext = false;
}

void
QbbWire::Push(const Ptr<RdmaFrame>& frame, Time delay, uint32_t downCount, uint64_t order)
{
    const Time arrival = Simulator::Now() + delay;
    if (m_inline < INLINE_SLOTS && m_overflow.empty())
    {
        // One transmitter per direction, one frame at a time: arrivals are in order.
        NS_ASSERT(m_inline == 0 ||
                  m_slots[(m_head + m_inline - 1) % INLINE_SLOTS].arrival <= arrival);
        InFlight& slot = m_slots[(m_head + m_inline) % INLINE_SLOTS];
        slot.frame = frame;
        slot.arrival = arrival;
        slot.downCount = downCount;
        slot.order = order;
        ++m_inline;
    }
    else
    {
        m_overflow.push_back(InFlight{frame, arrival, downCount, order});
    }
    if (m_inline == 1 && m_overflow.empty())
    {
        ScheduleFront();
    }
}

void
QbbWire::ScheduleFront()
{
    if (!m_hasContext)
    {
        const Ptr<Node> node = m_rx->GetNode();
        if (node)
        {
            m_context = node->GetId();
            m_hasContext = true;
        }
    }
    const InFlight& f = Front();
    // The simulator takes over one reference per scheduling and drops it
    // after the event has run.
    Ref();
    RdmaEventScheduler::SetNextKey(f.order);
    Simulator::ScheduleWithContext(m_hasContext ? m_context : Simulator::GetContext(),
                                   f.arrival - Simulator::Now(),
                                   this);
}

void
QbbWire::Notify()
{
    if (m_inline == 0 || !m_rx)
    {
        return; // disposed
    }
    InFlight f = std::move(Front());
    Front() = InFlight();
    m_head = (m_head + 1) % INLINE_SLOTS;
    --m_inline;
    if (!m_overflow.empty())
    {
        m_slots[(m_head + m_inline) % INLINE_SLOTS] = std::move(m_overflow.front());
        m_overflow.pop_front();
        ++m_inline;
    }
    // Schedule the next arrival before passing the frame up: the receiver
    // may cause new transmissions on this link.
    if (m_inline > 0)
    {
        ScheduleFront();
    }
    if (f.downCount != m_downCount)
    {
        // The link went down while some of the frame was on the wire.
        m_tx->LostOnLink(f.frame);
        return;
    }
    m_rx->Receive(f.frame);
}

void
QbbWire::LinkDown()
{
    ++m_downCount;
}

void
QbbWire::Clear()
{
    // A pending arrival keeps its own reference: make it a no-op.
    Cancel();
    for (InFlight& f : m_slots)
    {
        f = InFlight();
    }
    m_head = 0;
    m_inline = 0;
    m_overflow.clear();
    SetEnds(nullptr, nullptr);
}

} // namespace ns3
