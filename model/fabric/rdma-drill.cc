/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-drill.h"

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
                          "d: equal-cost ports drawn at random per packet (DRILL, SIGCOMM'17: "
                          "d = 2 recommended).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RdmaDrill::m_samples),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("Memory",
                          "m: least-loaded ports remembered from the previous decision of the "
                          "same group (DRILL: m = 1 recommended).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaDrill::m_memory),
                          MakeUintegerChecker<uint32_t>(0, 64));
    return tid;
}

uint32_t
RdmaDrill::DoSelect(const RdmaRouteTable::Group& group,
                    const RdmaFrameView& /* view */,
                    uint32_t /* seed */)
{
    std::vector<uint32_t>& memory = m_remembered[&group];
    // Candidates: the remembered ports, then d draws, each port once.
    std::vector<uint32_t> candidates = memory;
    for (uint32_t i = 0; i < m_samples; ++i)
    {
        const uint32_t port = group[Draw(static_cast<uint32_t>(group.size()))];
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

} // namespace ns3
