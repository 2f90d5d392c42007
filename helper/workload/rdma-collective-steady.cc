/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-collective-steady.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

namespace
{
constexpr uint8_t POSTED = 1;    //!< m_state bit: posted
constexpr uint8_t LANDED = 2;    //!< m_state bit: landed at its receiver
constexpr uint8_t COMPLETED = 4; //!< m_state bit: completed at its sender
} // namespace

RdmaSteadyCollective::RdmaSteadyCollective(const RdmaCollectiveSchedule& c,
                                           uint32_t window,
                                           double tolerance)
    : m_c(c),
      m_window(window),
      m_tolerance(tolerance),
      m_streams(c.GetRanks()),
      m_state(c.GetOps().size(), 0),
      m_landedAt(c.GetOps().size())
{
    NS_ABORT_MSG_IF(window < 2, "RdmaSteadyCollective: a window of at least 2 landings");
    for (uint32_t r = 0; r < m_streams.size(); ++r)
    {
        Stream& s = m_streams[r];
        s.at.resize(window + 1);
        s.bytes.resize(window + 1);
        s.total = c.GetRecvs(r).size();
        m_ready += s.total < window;
    }
}

bool
RdmaSteadyCollective::IsStream(const RdmaCollectiveSchedule& c)
{
    for (uint32_t r = 0; r < c.GetRanks(); ++r)
    {
        const auto& recvs = c.GetRecvs(r);
        for (uint32_t op : recvs)
        {
            if (c.GetOps()[op].src != c.GetOps()[recvs.front()].src)
            {
                return false;
            }
        }
    }
    return true;
}

bool
RdmaSteadyCollective::Entered()
{
    return ++m_entered == m_streams.size();
}

void
RdmaSteadyCollective::Posted(uint32_t op)
{
    m_state[op] |= POSTED;
    ++m_inFlight;
}

void
RdmaSteadyCollective::Landed(uint32_t op, Time at)
{
    m_state[op] |= LANDED;
    m_landedAt[op] = at;
    m_inFlight -= (m_state[op] & COMPLETED) != 0;
    const uint32_t r = m_c.GetOps()[op].dst;
    Stream& s = m_streams[r];
    const uint32_t slot = s.count % (m_window + 1);
    s.at[slot] = at;
    s.bytes[slot] = m_c.GetOps()[op].bytes;
    ++s.count;
    Update(r);
}

void
RdmaSteadyCollective::Completed(uint32_t op, Time at)
{
    m_state[op] |= COMPLETED;
    if (m_state[op] & LANDED)
    {
        --m_inFlight;
        m_ackDelay = at - m_landedAt[op];
    }
}

void
RdmaSteadyCollective::Update(uint32_t r)
{
    Stream& s = m_streams[r];
    const bool wasReady = s.steady || s.total - (s.count - 1) < m_window;
    s.steady = false;
    if (s.count > m_window)
    {
        // The window's intervals, oldest first: bytes landed over the time since the previous.
        double lo = 0;
        double hi = 0;
        bool first = true;
        bool ok = true;
        for (uint32_t k = 0; k < m_window && ok; ++k)
        {
            const uint32_t a = (s.count - 1 - m_window + k) % (m_window + 1);
            const uint32_t b = (a + 1) % (m_window + 1);
            const int64_t dt = (s.at[b] - s.at[a]).GetTimeStep();
            ok = dt > 0;
            const double rate = ok ? double(s.bytes[b]) / dt : 0;
            lo = first ? rate : std::min(lo, rate);
            hi = first ? rate : std::max(hi, rate);
            first = false;
        }
        s.steady = ok && hi <= lo * (1 + m_tolerance);
    }
    const bool ready = s.steady || s.total - s.count < m_window;
    m_ready += ready;
    m_ready -= wasReady;
}

bool
RdmaSteadyCollective::IsSteady() const
{
    if (m_entered < m_streams.size() || m_ready < m_streams.size())
    {
        return false;
    }
    bool worth = false;
    for (const Stream& s : m_streams)
    {
        const uint32_t left = s.total - s.count;
        if (left > 0 && s.count <= m_window)
        {
            return false; // no rate measured to continue it with
        }
        worth = worth || (s.steady && left >= m_window);
    }
    return worth;
}

uint64_t
RdmaSteadyCollective::GetInFlight() const
{
    return m_inFlight;
}

RdmaSteadyCollective::Plan
RdmaSteadyCollective::Extrapolate(Time now, const std::vector<bool>& inside) const
{
    const auto& ops = m_c.GetOps();
    std::vector<Time> landAt(ops.size());
    Plan plan;
    plan.done.assign(m_streams.size(), Time());
    plan.lastLanded = Time();
    for (uint32_t r = 0; r < m_streams.size(); ++r)
    {
        const Stream& s = m_streams[r];
        if (s.count == s.total)
        {
            continue;
        }
        // Its rate over the window: the bytes that landed after its first landing.
        const uint32_t last = (s.count - 1) % (m_window + 1);
        const uint32_t oldest = (s.count - 1 - m_window) % (m_window + 1);
        uint64_t bytes = 0;
        for (uint32_t k = 1; k <= m_window; ++k)
        {
            bytes += s.bytes[(oldest + k) % (m_window + 1)];
        }
        const double stepsPerByte = double((s.at[last] - s.at[oldest]).GetTimeStep()) / bytes;
        Time t = s.at[last];
        for (uint32_t op : m_c.GetRecvs(r))
        {
            if (!(m_state[op] & LANDED))
            {
                t += TimeStep(static_cast<uint64_t>(ops[op].bytes * stepsPerByte + 0.5));
                landAt[op] = t;
                plan.bytes += ops[op].bytes;
                if (t >= plan.lastLanded)
                {
                    plan.lastLanded = t;
                    plan.lastOp = op;
                }
            }
        }
    }
    for (uint32_t r = 0; r < m_streams.size(); ++r)
    {
        if (!inside[r])
        {
            continue;
        }
        Time done = now;
        for (uint32_t op : m_c.GetRecvs(r))
        {
            done = std::max(done, (m_state[op] & LANDED) ? m_landedAt[op] : landAt[op]);
        }
        for (uint32_t op : m_c.GetSends(r))
        {
            if (!(m_state[op] & COMPLETED))
            {
                done = std::max(done, landAt[op] + m_ackDelay);
            }
        }
        plan.done[r] = done;
    }
    return plan;
}

} // namespace ns3
