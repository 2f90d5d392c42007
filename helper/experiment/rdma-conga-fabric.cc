/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-conga-fabric.h"

#include "ns3/abort.h"
#include "ns3/rdma-conga.h"
#include "ns3/rdma-nodes-csv.h"
#include "ns3/rdma-switch.h"
#include "ns3/rdma-topology-helper.h"

#include <memory>

namespace ns3
{

RdmaCongaFabric
RdmaCongaFabric::Describe(const RdmaTopologySpec& spec)
{
    RdmaCongaFabric f;
    f.m_spec = spec;
    const uint32_t n = spec.GetNNodes();
    std::vector<bool> hasHost(n, false);
    for (const auto& l : spec.links)
    {
        if (!spec.isSwitch[l.a])
        {
            hasHost[l.b] = true;
        }
        if (!spec.isSwitch[l.b])
        {
            hasHost[l.a] = true;
        }
    }
    f.m_leafOf.assign(n, -1);
    for (uint32_t u = 0; u < n; ++u)
    {
        if (spec.isSwitch[u] && hasHost[u])
        {
            f.m_leafOf[u] = static_cast<int32_t>(f.m_nLeaves++);
        }
    }
    if (f.m_nLeaves >= RdmaCongaOverlay::NO_LEAF)
    {
        throw RdmaTopologyError(spec.name + ": " + std::to_string(f.m_nLeaves) +
                                " leaves, more than CONGA's tables hold here (65534)");
    }
    std::vector<uint32_t> uplinks(n, 0);
    for (const auto& l : spec.links)
    {
        if (!spec.isSwitch[l.a] || !spec.isSwitch[l.b])
        {
            continue; // a host link: its switch is a leaf
        }
        const bool leafA = f.m_leafOf[l.a] >= 0;
        const bool leafB = f.m_leafOf[l.b] >= 0;
        if (leafA == leafB)
        {
            const std::string where = l.where.empty() ? "" : l.where + ": ";
            const std::vector<std::string> names = RdmaNodeNames(spec);
            throw RdmaTopologyError(
                where + spec.name + ": the link between " + names[l.a] + " (node " +
                std::to_string(l.a) + ") and " + names[l.b] + " (node " + std::to_string(l.b) +
                ") joins two " + (leafA ? "leaves" : "spines") +
                " (switches " + (leafA ? "with" : "without") +
                " hosts): CONGA needs a two-tier leaf-spine, where every switch link joins a "
                "leaf to a spine");
        }
        ++uplinks[leafA ? l.a : l.b];
    }
    for (uint32_t u = 0; u < n; ++u)
    {
        if (f.m_leafOf[u] >= 0 && uplinks[u] == 0)
        {
            throw RdmaTopologyError(spec.name + ": leaf switch " + RdmaNodeNames(spec)[u] +
                                    " (node " + std::to_string(u) +
                                    ") has no link to a spine: CONGA needs a two-tier "
                                    "leaf-spine");
        }
        if (uplinks[u] > 256)
        {
            throw RdmaTopologyError(spec.name + ": leaf switch (node " + std::to_string(u) +
                                    ") has " + std::to_string(uplinks[u]) +
                                    " uplinks, more than CONGA's LBTag holds here (256)");
        }
    }
    return f;
}

void
RdmaCongaFabric::Install(const RdmaTopologyHelper& topo) const
{
    const uint32_t n = m_spec.GetNNodes();
    auto leafOf = std::make_shared<RdmaConga::LeafMap>();
    std::vector<std::vector<bool>> uplinks(n);
    for (const auto& l : m_spec.links)
    {
        for (auto [me, peer] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
        {
            if (!m_spec.isSwitch[me])
            {
                const uint32_t h = topo.GetHostIndexOfNode(me);
                (*leafOf)[topo.GetHostAddress(h).Get()] = static_cast<uint16_t>(m_leafOf[peer]);
            }
            else
            {
                // Ports are numbered in link order (RdmaTopologyHelper).
                uplinks[me].push_back(m_spec.isSwitch[peer]);
            }
        }
    }
    for (uint32_t u = 0; u < n; ++u)
    {
        if (m_leafOf[u] < 0)
        {
            continue;
        }
        Ptr<RdmaSwitch> sw = topo.GetNode(u)->GetObject<RdmaSwitch>();
        if (!sw)
        {
            continue; // another MPI rank's
        }
        Ptr<RdmaConga> conga = DynamicCast<RdmaConga>(sw->GetLoadBalancer());
        NS_ABORT_MSG_IF(!conga, "RdmaCongaFabric: switch " << u << " does not run CONGA");
        conga->SetLeaf(static_cast<uint16_t>(m_leafOf[u]),
                       static_cast<uint16_t>(m_nLeaves),
                       uplinks[u],
                       leafOf);
    }
}

uint32_t
RdmaCongaFabric::GetNLeaves() const
{
    return m_nLeaves;
}

int32_t
RdmaCongaFabric::GetLeafIndex(uint32_t node) const
{
    return m_leafOf.at(node);
}

} // namespace ns3
