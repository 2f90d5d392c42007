/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-letflow.h"

#include "rdma-frame-view.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaLetFlow);

TypeId
RdmaLetFlow::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaLetFlow")
            .SetParent<RdmaLoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaLetFlow>()
            .AddAttribute("FlowletTimeout",
                          "A gap between two frames of a flow longer than this starts a new "
                          "flowlet, which may take another port (LetFlow, NSDI'17: its "
                          "resilience holds over a wide range of timeouts).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaLetFlow::m_timeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FlowletTableSize",
                          "Entries of the flowlet table, indexed by the flow hash, entries.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaLetFlow::m_tableSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24));
    return tid;
}

uint32_t
RdmaLetFlow::DoSelect(const RdmaRouteTable::Group& group, const RdmaFrameView& view, uint32_t seed)
{
    if (m_table.empty())
    {
        m_table.resize(m_tableSize);
    }
    Entry& e = m_table[view.FlowHash(seed) % m_table.size()];
    const int64_t now = Simulator::Now().GetPicoSeconds();
    const bool inGroup = std::find(group.begin(), group.end(), e.port) != group.end();
    if (e.lastPs < 0 || now - e.lastPs > m_timeout.GetPicoSeconds() || !inGroup)
    {
        e.port = group[Draw(static_cast<uint32_t>(group.size()))];
    }
    e.lastPs = now;
    return e.port;
}

} // namespace ns3
