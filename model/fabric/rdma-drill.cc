/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-drill.h"

#include "ns3/boolean.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaDrill);

TypeId
RdmaDrill::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaDrill")
            .SetParent<RdmaLoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaDrill>()
            .AddAttribute("Samples",
                          "d: distinct equal-cost ports drawn at random per packet (DRILL, "
                          "SIGCOMM'17: d = 2 recommended); all of them if the group has fewer.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RdmaDrill::m_samples),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("Memory",
                          "m: least-loaded ports remembered from the previous decision of the "
                          "same group (DRILL: m = 1 recommended).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaDrill::m_memory),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("MemoryPerDestination",
                          "false (the default): one memory per group of equal-cost ports, the "
                          "paper's per-engine memory. true: one per destination address, as "
                          "the ConWeave simulator's DRILL keeps it (switch-node.cc "
                          "m_previousBestInterfaceMap, keyed by the destination IP).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaDrill::m_perDestination),
                          MakeBooleanChecker());
    return tid;
}

uint32_t
RdmaDrill::DoSelect(const RdmaRouteTable::Group& group,
                    const RdmaFrameView& view,
                    uint32_t /* seed */)
{
    std::vector<uint32_t>& memory = m_remembered[MemoryKey(group, view)];
    // Candidates: the remembered ports, then d distinct ports drawn at
    // random (without replacement: the first d of a partial shuffle).
    std::vector<uint32_t> candidates = memory;
    m_shuffled.assign(group.begin(), group.end());
    const auto n = static_cast<uint32_t>(m_shuffled.size());
    for (uint32_t i = 0; i < std::min(m_samples, n); ++i)
    {
        std::swap(m_shuffled[i], m_shuffled[i + Draw(n - i)]);
        const uint32_t port = m_shuffled[i];
        if (std::find(candidates.begin(), candidates.end(), port) == candidates.end())
        {
            candidates.push_back(port);
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [this](uint32_t a, uint32_t b) {
        return GetQueuedBytes(a) < GetQueuedBytes(b);
    });
    memory.assign(candidates.begin(),
                  candidates.begin() + std::min<std::size_t>(m_memory, candidates.size()));
    return candidates.front();
}

uint64_t
RdmaDrill::MemoryKey(const RdmaRouteTable::Group& group, const RdmaFrameView& view) const
{
    if (!m_perDestination)
    {
        return reinterpret_cast<uintptr_t>(&group);
    }
    if (!view.IsIpv6())
    {
        return (1ULL << 63) | view.GetDstIpv4();
    }
    uint64_t key = 0;
    const uint8_t* a = view.GetDstIpv6();
    for (int i = 0; i < 16; ++i)
    {
        key = RdmaFrameView::Mix64(key ^ a[i]);
    }
    return key | (1ULL << 63);
}

} // namespace ns3
