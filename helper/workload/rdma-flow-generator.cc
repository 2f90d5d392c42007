/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-generator.h"

#include "ns3/log.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowGenerator");
NS_OBJECT_ENSURE_REGISTERED(RdmaFlowGenerator);

TypeId
RdmaFlowGenerator::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaFlowGenerator")
                            .SetParent<Object>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaFlowGenerator>();
    return tid;
}

RdmaFlowGenerator::RdmaFlowGenerator()
    : m_gap(CreateObject<ExponentialRandomVariable>()),
      m_dst(CreateObject<UniformRandomVariable>()),
      m_size(CreateObject<UniformRandomVariable>()),
      m_pick(CreateObject<UniformRandomVariable>()),
      m_op(CreateObject<UniformRandomVariable>()),
      m_mix{1, 0, 0}
{
}

int64_t
RdmaFlowGenerator::AssignStreams(int64_t stream)
{
    m_gap->SetStream(stream);
    m_dst->SetStream(stream + 1);
    m_size->SetStream(stream + 2);
    m_pick->SetStream(stream + 3);
    m_op->SetStream(stream + 4);
    return 5;
}

void
RdmaFlowGenerator::SetOperationMix(double write, double read, double send)
{
    if (!(write >= 0 && read >= 0 && send >= 0) || write + read + send <= 0)
    {
        throw std::runtime_error("operation mix: expected weights >= 0 with a positive sum, got "
                                 "WRITE " +
                                 std::to_string(write) + ", READ " + std::to_string(read) +
                                 ", SEND " + std::to_string(send));
    }
    m_mix[0] = write;
    m_mix[1] = read;
    m_mix[2] = send;
}

void
RdmaFlowGenerator::Emit(std::vector<RdmaFlow>& flows,
                        uint32_t id,
                        uint32_t src,
                        uint32_t dst,
                        uint64_t size,
                        Time start,
                        uint8_t priority,
                        uint16_t dport)
{
    RdmaFlow f;
    f.id = id;
    f.src = src;
    f.dst = dst;
    f.size = size;
    f.start = start;
    f.priority = priority;
    f.dport = dport;
    f.op = PickOp();
    flows.push_back(f);
}

RdmaFlowOp
RdmaFlowGenerator::PickOp()
{
    int used = (m_mix[0] > 0) + (m_mix[1] > 0) + (m_mix[2] > 0);
    if (used == 1)
    {
        return m_mix[0] > 0 ? RdmaFlowOp::WRITE
                            : (m_mix[1] > 0 ? RdmaFlowOp::READ : RdmaFlowOp::SEND);
    }
    double u = m_op->GetValue(0, m_mix[0] + m_mix[1] + m_mix[2]);
    if (u < m_mix[0])
    {
        return RdmaFlowOp::WRITE;
    }
    return u < m_mix[0] + m_mix[1] ? RdmaFlowOp::READ : RdmaFlowOp::SEND;
}

void
RdmaFlowGenerator::CheckHosts(const std::string& pattern, const std::vector<uint32_t>& hosts)
{
    if (hosts.size() < 2)
    {
        throw std::runtime_error(pattern + ": expected at least 2 hosts, got " +
                                 std::to_string(hosts.size()));
    }
    std::set<uint32_t> seen(hosts.begin(), hosts.end());
    if (seen.size() != hosts.size())
    {
        throw std::runtime_error(pattern + ": expected distinct hosts, a host is listed twice");
    }
}

namespace
{

/// Throw unless size > 0.
void
CheckSize(const std::string& pattern, uint64_t size)
{
    if (size == 0)
    {
        throw std::runtime_error(pattern + ": expected a flow size > 0 bytes, got 0");
    }
}

} // namespace

std::vector<RdmaFlow>
RdmaFlowGenerator::Poisson(const PoissonConfig& c, const RdmaFlowSizeCdf& cdf, uint32_t firstId)
{
    CheckHosts("Poisson", c.hosts);
    if (!(c.load > 0 && c.load <= 1))
    {
        throw std::runtime_error("Poisson: expected load in (0, 1], got " + std::to_string(c.load));
    }
    if (c.hostRate.GetBitRate() == 0 || c.duration.IsStrictlyNegative() ||
        c.start.IsStrictlyNegative())
    {
        throw std::runtime_error("Poisson: expected hostRate > 0, start >= 0 and duration >= 0");
    }
    // traffic_gen.py: avg_inter_arrival = 1 / (bandwidth * load / 8 / avg) in ns.
    const double meanGapNs = cdf.GetMean() * 8.0 / (c.hostRate.GetBitRate() * c.load) * 1e9;
    const int64_t startNs = c.start.GetNanoSeconds();
    const int64_t endNs = startNs + c.duration.GetNanoSeconds();
    const auto n = static_cast<uint32_t>(c.hosts.size());
    using Arrival = std::pair<int64_t, uint32_t>; // (time ns, host index)
    std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> pending;
    for (uint32_t i = 0; i < n; ++i)
    {
        pending.emplace(startNs + static_cast<int64_t>(m_gap->GetValue(meanGapNs, 0)), i);
    }
    std::vector<RdmaFlow> flows;
    uint32_t id = firstId;
    while (!pending.empty())
    {
        auto [t, i] = pending.top();
        pending.pop();
        auto gap = static_cast<int64_t>(m_gap->GetValue(meanGapNs, 0));
        uint32_t j = m_dst->GetInteger(0, n - 2);
        j += (j >= i); // uniform over the other n - 1 hosts
        if (t + gap > endNs)
        {
            continue; // traffic_gen.py drops this host (and its arrival at t)
        }
        Emit(flows,
             id++,
             c.hosts[i],
             c.hosts[j],
             cdf.Sample(m_size),
             NanoSeconds(t),
             c.priority,
             c.dport);
        pending.emplace(t + gap, i);
    }
    NS_LOG_INFO("Poisson: " << flows.size() << " flows, mean gap " << meanGapNs << " ns");
    return flows;
}

std::vector<RdmaFlow>
RdmaFlowGenerator::Incast(const IncastConfig& c, uint32_t firstId)
{
    CheckSize("incast", c.size);
    if (c.repeats == 0)
    {
        throw std::runtime_error("incast: expected repeats >= 1, got 0");
    }
    std::vector<uint32_t> senders = c.senders;
    if (senders.empty())
    {
        std::vector<uint32_t> pool;
        for (uint32_t h : c.hosts)
        {
            if (h != c.receiver)
            {
                pool.push_back(h);
            }
        }
        if (c.fanIn == 0 || c.fanIn > pool.size())
        {
            throw std::runtime_error("incast: expected fanIn in 1.." + std::to_string(pool.size()) +
                                     " (hosts other than the receiver), got " +
                                     std::to_string(c.fanIn));
        }
        // Partial Fisher-Yates: the first fanIn of a uniform shuffle.
        for (uint32_t k = 0; k < c.fanIn; ++k)
        {
            uint32_t pick = m_pick->GetInteger(k, static_cast<uint32_t>(pool.size() - 1));
            std::swap(pool[k], pool[pick]);
        }
        senders.assign(pool.begin(), pool.begin() + c.fanIn);
    }
    std::vector<uint32_t> all = senders;
    all.push_back(c.receiver);
    CheckHosts("incast", all);
    std::vector<RdmaFlow> flows;
    uint32_t id = firstId;
    for (uint32_t round = 0; round < c.repeats; ++round)
    {
        Time start = c.start + c.interval * static_cast<int64_t>(round);
        for (uint32_t s : senders)
        {
            Emit(flows, id++, s, c.receiver, c.size, start, c.priority, c.dport);
        }
    }
    return flows;
}

std::vector<RdmaFlow>
RdmaFlowGenerator::Permutation(const PatternConfig& c, uint32_t firstId)
{
    CheckHosts("permutation", c.hosts);
    CheckSize("permutation", c.size);
    const auto n = static_cast<uint32_t>(c.hosts.size());
    std::vector<uint32_t> target(n);
    bool deranged = false;
    while (!deranged)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            target[i] = i;
        }
        for (uint32_t i = n - 1; i > 0; --i)
        {
            std::swap(target[i], target[m_pick->GetInteger(0, i)]);
        }
        deranged = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            deranged = deranged && target[i] != i;
        }
    }
    std::vector<RdmaFlow> flows;
    for (uint32_t i = 0; i < n; ++i)
    {
        Emit(flows,
             firstId + i,
             c.hosts[i],
             c.hosts[target[i]],
             c.size,
             c.start,
             c.priority,
             c.dport);
    }
    return flows;
}

std::vector<RdmaFlow>
RdmaFlowGenerator::AllToAll(const PatternConfig& c, uint32_t firstId)
{
    CheckHosts("all-to-all", c.hosts);
    CheckSize("all-to-all", c.size);
    std::vector<RdmaFlow> flows;
    uint32_t id = firstId;
    for (uint32_t s : c.hosts)
    {
        for (uint32_t d : c.hosts)
        {
            if (s != d)
            {
                Emit(flows, id++, s, d, c.size, c.start, c.priority, c.dport);
            }
        }
    }
    return flows;
}

std::vector<RdmaFlow>
RdmaFlowGenerator::Merge(const std::vector<std::vector<RdmaFlow>>& parts)
{
    std::vector<RdmaFlow> all;
    for (const auto& part : parts)
    {
        all.insert(all.end(), part.begin(), part.end());
    }
    std::stable_sort(all.begin(), all.end(), [](const RdmaFlow& a, const RdmaFlow& b) {
        return a.start < b.start;
    });
    for (uint32_t i = 0; i < all.size(); ++i)
    {
        all[i].id = i;
    }
    return all;
}

} // namespace ns3
