/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-fabric.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

void
RdmaFabric::CheckInstalled() const
{
    NS_ABORT_MSG_IF(!m_installed, "RdmaTopologyHelper: no topology installed yet");
}

const RdmaTopologySpec&
RdmaFabric::GetSpec() const
{
    CheckInstalled();
    return m_spec;
}

const RdmaRouteComputer&
RdmaFabric::GetRoutes() const
{
    CheckInstalled();
    return *m_routes;
}

const RdmaFabricPaths&
RdmaFabric::GetPaths() const
{
    CheckInstalled();
    return *m_paths;
}

uint32_t
RdmaFabric::GetNHosts() const
{
    return m_hosts.GetN();
}

const NodeContainer&
RdmaFabric::GetHosts() const
{
    return m_hosts;
}

Ptr<Node>
RdmaFabric::GetHost(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_hosts.GetN(), "no host " << i);
    return m_hosts.Get(i);
}

Ptr<RdmaNic>
RdmaFabric::GetNic(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nics.size(), "no host " << i);
    return m_nics[i];
}

Ptr<RdmaNicIds>
RdmaFabric::GetHostIds(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_hostIds.size(), "no host " << i);
    return m_hostIds[i];
}

Ptr<QbbNetDevice>
RdmaFabric::GetHostDevice(uint32_t i) const
{
    const Ptr<RdmaNic> nic = GetNic(i);
    return nic ? nic->GetDevice() : nullptr;
}

uint32_t
RdmaFabric::GetNPlanes() const
{
    return m_spec.planes;
}

Ipv4Address
RdmaFabric::GetHostAddress(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_hosts.GetN(), "no host " << i);
    return Ipv4Address(m_base.Get() + i);
}

uint32_t
RdmaFabric::GetHostIndex(Ipv4Address address) const
{
    auto it = m_byAddress.find(address.Get());
    return it == m_byAddress.end() ? UINT32_MAX : it->second;
}

uint32_t
RdmaFabric::GetHostIndexOfNode(uint32_t node) const
{
    const uint32_t h = GetRoutes().GetHostIndex(node);
    NS_ABORT_MSG_IF(h == RdmaRouteComputer::UNREACHABLE, "node " << node << " is a switch");
    return h;
}

uint32_t
RdmaFabric::GetNSwitches() const
{
    return m_switches.size();
}

uint32_t
RdmaFabric::GetNSwitchesBuilt() const
{
    return std::count_if(m_switches.begin(), m_switches.end(), [](const auto& sw) {
        return sw != nullptr;
    });
}

const NodeContainer&
RdmaFabric::GetSwitchNodes() const
{
    return m_switchNodes;
}

Ptr<RdmaSwitch>
RdmaFabric::GetSwitch(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_switches.size(), "no switch " << i);
    return m_switches[i];
}

const NodeContainer&
RdmaFabric::GetNodes() const
{
    return m_nodes;
}

Ptr<Node>
RdmaFabric::GetNode(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_nodes.GetN(), "no node " << id);
    return m_nodes.Get(id);
}

uint32_t
RdmaFabric::GetNLinks() const
{
    return m_links.size();
}

const RdmaFabric::LinkInfo&
RdmaFabric::GetLink(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_links.size(), "no link " << i);
    return m_links[i];
}

const NetDeviceContainer&
RdmaFabric::GetDevices() const
{
    return m_devices;
}

Time
RdmaFabric::WireTime(uint32_t link, uint32_t frameBytes) const
{
    // QbbNetDevice::GetWireTime's rule at the link's rate as built (a slow
    // link's devices run below it: paths and ideal FCTs are the full-speed
    // fabric's), with a built device's framing (every device has the same).
    const Ptr<QbbNetDevice> any = StaticCast<QbbNetDevice>(m_devices.Get(0));
    return QbbTransmitter::WireTime(m_spec.links[link].rate, frameBytes, any->GetWireOverhead());
}

int64_t
RdmaFabric::AssignStreams(int64_t stream)
{
    // Numbered as in a sequential build: what is not built here (another
    // rank's) skips the streams it would have taken there.
    const int64_t first = stream;
    const int64_t perDevice = StaticCast<QbbNetDevice>(m_devices.Get(0))->AssignStreams(0);
    const int64_t perErrorModel = CreateObject<RateErrorModel>()->AssignStreams(0);
    for (uint32_t i = 0; i < m_links.size(); ++i)
    {
        const LinkInfo& l = m_links[i];
        for (const Ptr<QbbNetDevice>& dev : {l.deviceA, l.deviceB})
        {
            stream += dev ? dev->AssignStreams(stream) : perDevice;
        }
        for (uint32_t side = 0; m_spec.links[i].errorRate > 0 && side < 2; ++side)
        {
            const Ptr<RateErrorModel> em = l.channel ? l.errorModels[side] : nullptr;
            stream += em ? em->AssignStreams(stream) : perErrorModel;
        }
    }
    auto built = std::find_if(m_switches.begin(), m_switches.end(), [](const auto& sw) {
        return sw != nullptr;
    });
    const int64_t perSwitch = built == m_switches.end() ? 0 : (*built)->AssignStreams(0);
    for (const Ptr<RdmaSwitch>& sw : m_switches)
    {
        stream += sw ? sw->AssignStreams(stream) : perSwitch;
    }
    return stream - first;
}

bool
RdmaFabric::IsLocalNode(uint32_t u) const
{
    return m_systemIds.empty() || m_systemIds.at(u) == m_rank;
}

Ipv4Address
RdmaFabric::GetBaseAddress() const
{
    return m_base;
}

} // namespace ns3
