/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-deadlock-detector.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDeadlockDetector");

NS_OBJECT_ENSURE_REGISTERED(RdmaDeadlockDetector);

bool
RdmaDeadlockDetector::Hop::operator==(const Hop& o) const
{
    return switchIndex == o.switchIndex && port == o.port && cls == o.cls;
}

bool
RdmaDeadlockDetector::Hop::operator<(const Hop& o) const
{
    if (switchIndex != o.switchIndex)
    {
        return switchIndex < o.switchIndex;
    }
    if (port != o.port)
    {
        return port < o.port;
    }
    return cls < o.cls;
}

TypeId
RdmaDeadlockDetector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaDeadlockDetector")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaDeadlockDetector>()
            .AddTraceSource("Deadlock",
                            "A new cycle in the pause-wait graph: its hops "
                            "(switch, paused egress port, class).",
                            MakeTraceSourceAccessor(&RdmaDeadlockDetector::m_deadlockTrace),
                            "ns3::RdmaDeadlockDetector::DeadlockTracedCallback");
    return tid;
}

namespace
{

using Hop = RdmaDeadlockDetector::Hop;
using Cycle = RdmaDeadlockDetector::Cycle;
/// The pause-wait graph: each paused egress class's out-edges.
using PauseWaitGraph = std::map<Hop, std::vector<Hop>>;

/**
 * The pause-wait graph over `switches`: vertices are paused egress classes;
 * an edge runs from (s, p, c) to each paused egress class (t, r, c) of the
 * switch t at the other end of s's port p whose bytes arrived on that link
 * (RdmaDeadlockDetector's class description).
 */
PauseWaitGraph
BuildPauseWaitGraph(const std::vector<Ptr<RdmaSwitch>>& switches)
{
    // Which switch port each device is.
    std::map<const NetDevice*, std::pair<uint32_t, uint32_t>> owner;
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        for (uint32_t p = 0; p < switches[s]->GetNPorts(); ++p)
        {
            owner[PeekPointer(switches[s]->GetPort(p))] = {s, p};
        }
    }
    PauseWaitGraph edges;
    auto makeHop = [&switches](uint32_t s, uint32_t p, uint8_t c) {
        Ptr<Node> node = switches[s]->GetObject<Node>();
        return Hop{s, node ? node->GetId() : std::numeric_limits<uint32_t>::max(), p, c};
    };
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        for (uint32_t p = 0; p < switches[s]->GetNPorts(); ++p)
        {
            Ptr<QbbNetDevice> dev = switches[s]->GetPort(p);
            for (uint8_t c = 0; c < QbbNetDevice::NUM_CLASSES; ++c)
            {
                if (!dev->GetPfcController()->IsPaused(c))
                {
                    continue;
                }
                std::vector<Hop>& out = edges[makeHop(s, p, c)];
                Ptr<Channel> ch = dev->GetChannel();
                for (std::size_t i = 0; ch && i < ch->GetNDevices(); ++i)
                {
                    auto it = owner.find(PeekPointer(ch->GetDevice(i)));
                    if (ch->GetDevice(i) == dev || it == owner.end())
                    {
                        continue;
                    }
                    const uint32_t t = it->second.first;
                    const uint32_t q = it->second.second;
                    for (uint32_t r = 0; r < switches[t]->GetNPorts(); ++r)
                    {
                        if (switches[t]->GetPort(r)->GetPfcController()->IsPaused(c) &&
                            switches[t]->GetQueuedBytesByIngress(r, c)[q] > 0)
                        {
                            out.push_back(makeHop(t, r, c));
                        }
                    }
                }
            }
        }
    }
    return edges;
}

/**
 * \return the graph's cycles, found by depth-first search (each back edge
 * closes one), each rotated to start at its least hop, in order
 */
std::set<Cycle>
CyclesOf(PauseWaitGraph& edges)
{
    std::set<Cycle> found;
    std::map<Hop, int> color; // 0 new, 1 on the stack, 2 done
    std::vector<Hop> stack;
    std::function<void(const Hop&)> visit = [&](const Hop& v) {
        color[v] = 1;
        stack.push_back(v);
        for (const Hop& w : edges[v])
        {
            if (color[w] == 1)
            {
                auto from = std::find(stack.begin(), stack.end(), w);
                Cycle cycle(from, stack.end());
                std::rotate(cycle.begin(),
                            std::min_element(cycle.begin(), cycle.end()),
                            cycle.end());
                found.insert(cycle);
            }
            else if (color[w] == 0 && edges.count(w))
            {
                visit(w);
            }
        }
        stack.pop_back();
        color[v] = 2;
    };
    for (const auto& [v, out] : edges)
    {
        if (color[v] == 0)
        {
            visit(v);
        }
    }
    return found;
}

} // namespace

std::vector<RdmaDeadlockDetector::Cycle>
RdmaDeadlockDetector::FindCycles(const std::vector<Ptr<RdmaSwitch>>& switches)
{
    PauseWaitGraph edges = BuildPauseWaitGraph(switches);
    const std::set<Cycle> found = CyclesOf(edges);
    return std::vector<Cycle>(found.begin(), found.end());
}

void
RdmaDeadlockDetector::Start(const std::vector<Ptr<RdmaSwitch>>& switches, Time interval)
{
    NS_ABORT_MSG_IF(!interval.IsStrictlyPositive(),
                    "RdmaDeadlockDetector::Start: the interval must be positive");
    m_switches = switches;
    m_interval = interval;
    Simulator::Cancel(m_event);
    m_event = Simulator::Schedule(m_interval, &RdmaDeadlockDetector::Check, this);
}

void
RdmaDeadlockDetector::Stop()
{
    Simulator::Cancel(m_event);
}

const std::vector<RdmaDeadlockDetector::Cycle>&
RdmaDeadlockDetector::GetReported() const
{
    return m_reported;
}

void
RdmaDeadlockDetector::Check()
{
    for (const Cycle& cycle : FindCycles(m_switches))
    {
        if (m_seen.insert(cycle).second)
        {
            NS_LOG_WARN("PFC deadlock: a cycle of " << cycle.size() << " paused queues");
            m_reported.push_back(cycle);
            m_deadlockTrace(cycle);
        }
    }
    m_event = Simulator::Schedule(m_interval, &RdmaDeadlockDetector::Check, this);
}

void
RdmaDeadlockDetector::DoDispose()
{
    Simulator::Cancel(m_event);
    m_switches.clear();
    Object::DoDispose();
}

} // namespace ns3
