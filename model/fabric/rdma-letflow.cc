/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-letflow.h"

#include "ns3/rdma-frame-view.h"
#include "ns3/uinteger.h"


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
                          MakeUintegerAccessor(&RdmaLetFlow::SetTableSize,
                                               &RdmaLetFlow::GetTableSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24));
    return tid;
}

void
RdmaLetFlow::SetTableSize(uint32_t entries)
{
    m_tableSize = entries;
    m_table.SetSize(entries);
}

uint32_t
RdmaLetFlow::GetTableSize() const
{
    return m_tableSize;
}

uint32_t
RdmaLetFlow::DoSelect(const RdmaRouteTable::Group& group, const RdmaFrameView& view, uint32_t seed)
{
    return m_table.Lookup(view.FlowHash(seed), group, m_timeout, [this, &group]() {
        return group[Draw(static_cast<uint32_t>(group.size()))];
    });
}

} // namespace ns3
