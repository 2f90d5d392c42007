/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-topology-helper.h"

#include "rdma-hpcc-topology-reader.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"
#include "ns3/switch-mmu.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTopologyHelper");

RdmaTopologyHelper::RdmaTopologyHelper()
{
    m_switchFactory.SetTypeId("ns3::RdmaSwitch");
}

RdmaTopologyHelper::~RdmaTopologyHelper() = default;

void
RdmaTopologyHelper::SetTierLink(uint32_t tier, const RdmaLinkParams& params)
{
    NS_ABORT_MSG_IF(tier > 2, "RdmaTopologyHelper::SetTierLink: tier " << tier << " is not 0-2");
    m_tiers[tier] = params;
}

const RdmaLinkParams&
RdmaTopologyHelper::GetTierLink(uint32_t tier) const
{
    NS_ABORT_MSG_IF(tier > 2, "RdmaTopologyHelper::GetTierLink: tier " << tier << " is not 0-2");
    return m_tiers[tier];
}

void
RdmaTopologyHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_link.SetDeviceAttribute(name, value);
}

void
RdmaTopologyHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_link.SetChannelAttribute(name, value);
}

void
RdmaTopologyHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
RdmaTopologyHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuAttributes.emplace_back(name, value.Copy());
}

void
RdmaTopologyHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_rdma.SetNicAttribute(name, value);
}

void
RdmaTopologyHelper::SetRdmaHelper(const RdmaHelper& rdma)
{
    m_rdma = rdma;
}

void
RdmaTopologyHelper::SetSwitchEcn(const SwitchEcnParams& ecn)
{
    m_ecn = true;
    m_ecnParams = ecn;
}

void
RdmaTopologyHelper::SetBuildProgress(
    std::function<void(const std::string& what, uint64_t done, uint64_t total)> progress)
{
    m_progress = std::move(progress);
}

void
RdmaTopologyHelper::SetBaseAddress(Ipv4Address base)
{
    m_base = base;
}

void
RdmaTopologyHelper::SetSystemIds(std::vector<uint32_t> rankOf, uint32_t me)
{
    NS_ABORT_MSG_IF(m_installed, "RdmaTopologyHelper::SetSystemIds: before InstallFabric");
    m_systemIds = std::move(rankOf);
    m_rank = me;
}

bool
RdmaTopologyHelper::BuildsLink(const RdmaTopologySpec::Link& l) const
{
    return BuildsLink(m_systemIds, m_rank, l);
}

bool
RdmaTopologyHelper::BuildsLink(const std::vector<uint32_t>& rankOf,
                               uint32_t rank,
                               const RdmaTopologySpec::Link& l)
{
    return rankOf.empty() || rankOf[l.a] == rank || rankOf[l.b] == rank;
}

void
RdmaTopologyHelper::InstallOrDie(const std::function<RdmaTopologySpec()>& make)
{
    RdmaTopologySpec spec;
    try
    {
        spec = make();
        spec.Validate();
    }
    catch (const RdmaTopologyError& e)
    {
        NS_FATAL_ERROR(e.what());
    }
    Install(spec);
}

void
RdmaTopologyHelper::InstallFatTree(uint32_t k)
{
    InstallOrDie([&] { return RdmaTopologySpec::FatTree(k, m_tiers[0], m_tiers[1], m_tiers[2]); });
}

void
RdmaTopologyHelper::InstallLeafSpine(uint32_t leaves,
                                     uint32_t spines,
                                     uint32_t hostsPerLeaf,
                                     double oversubscription)
{
    InstallOrDie([&] {
        return RdmaTopologySpec::LeafSpine(leaves,
                                           spines,
                                           hostsPerLeaf,
                                           m_tiers[0],
                                           m_tiers[1],
                                           oversubscription);
    });
}

void
RdmaTopologyHelper::InstallDumbbell(uint32_t left, uint32_t right)
{
    InstallOrDie([&] { return RdmaTopologySpec::Dumbbell(left, right, m_tiers[0], m_tiers[1]); });
}

void
RdmaTopologyHelper::InstallStar(uint32_t hosts)
{
    InstallOrDie([&] { return RdmaTopologySpec::Star(hosts, m_tiers[0]); });
}

void
RdmaTopologyHelper::InstallHpccFile(const std::string& path)
{
    InstallOrDie([&] { return RdmaHpccTopologyReader::ReadFile(path); });
}

void
RdmaTopologyHelper::Install(const RdmaTopologySpec& spec)
{
    InstallFabric(spec);
    InstallHosts();
}

void
RdmaTopologyHelper::InstallFabric(const RdmaTopologySpec& spec)
{
    NS_ABORT_MSG_IF(m_installed, "RdmaTopologyHelper::Install: one topology per helper");
    try
    {
        spec.Validate();
    }
    catch (const RdmaTopologyError& e)
    {
        NS_FATAL_ERROR(e.what());
    }
    NS_ABORT_MSG_IF(uint64_t(m_base.Get()) + spec.GetNHosts() > 0xFFFFFFFFULL,
                    "RdmaTopologyHelper: " << spec.GetNHosts() << " host addresses from " << m_base
                                           << " pass 255.255.255.255");
    m_installed = true;
    m_spec = spec;
    m_routes = std::make_unique<RdmaRouteComputer>(m_spec);
    // The routes object made here stays the intact fabric's (a failure moves
    // it to m_builtRoutes, never destroys it).
    m_paths = std::make_unique<RdmaFabricPaths>(
        m_spec,
        *m_routes,
        [this](uint32_t link, uint32_t frameBytes) { return WireTime(link, frameBytes); });
    MakeNodes();
    const std::vector<std::vector<Ptr<QbbNetDevice>>> ports = InstallLinks();
    InstallSwitches(ports);
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        // Null for another rank's host whose link has no end here.
        const auto& hostPorts = ports[m_routes->GetHostNode(h)];
        m_hostPorts.push_back(hostPorts);
    }

    const uint64_t entries = InstallRoutes();
    NS_LOG_INFO(m_spec.name << ": " << m_hosts.GetN() << " hosts, " << m_switches.size()
                            << " switches, " << m_links.size() << " links, " << entries
                            << " route entries");
}

void
RdmaTopologyHelper::MakeNodes()
{
    const uint32_t n = m_spec.GetNNodes();
    NS_ABORT_MSG_UNLESS(m_systemIds.empty() || m_systemIds.size() == n,
                        "RdmaTopologyHelper: " << m_systemIds.size() << " system ids for " << n
                                               << " nodes");
    for (uint32_t u = 0; u < n; ++u)
    {
        m_nodes.Add(CreateObject<Node>(m_systemIds.empty() ? 0 : m_systemIds[u]));
    }
    for (uint32_t u = 0; u < n; ++u)
    {
        (m_spec.isSwitch[u] ? m_switchNodes : m_hosts).Add(m_nodes.Get(u));
    }
}

void
RdmaTopologyHelper::SlowLink(uint32_t link, bool fromA, bool fromB, double fraction)
{
    NS_ABORT_MSG_UNLESS(fraction > 0 && fraction < 1,
                        "RdmaTopologyHelper::SlowLink: fraction " << fraction << " not in (0, 1)");
    m_slowLinks[link] = {fromA, fromB, fraction};
}

void
RdmaTopologyHelper::SlowDown(uint32_t link, const LinkInfo& info)
{
    const auto it = m_slowLinks.find(link);
    if (it == m_slowLinks.end())
    {
        return;
    }
    const auto [fromA, fromB, fraction] = it->second;
    for (const auto& [slows, dev] : {std::make_pair(fromA, info.deviceA),
                                     std::make_pair(fromB, info.deviceB)})
    {
        if (!slows || !dev)
        {
            continue;
        }
        dev->SetDataRate(DataRate(static_cast<uint64_t>(dev->GetDataRate().GetBitRate() *
                                                        fraction)));
        Ptr<QbbEgressQueue> q = dev->GetTxQueue();
        UintegerValue maxBytes;
        q->GetAttribute("MaxBytes", maxBytes);
        q->SetAttribute("MaxBytes",
                        UintegerValue(static_cast<uint64_t>(maxBytes.Get() * fraction)));
        m_slowDevices[PeekPointer(dev)] = fraction;
    }
}

std::vector<std::vector<Ptr<QbbNetDevice>>>
RdmaTopologyHelper::InstallLinks()
{
    std::vector<std::vector<Ptr<QbbNetDevice>>> ports(m_spec.GetNNodes());
    // Each node's port count so far in link order: a node's interface
    // index on the rank that builds it whole, which MPI messages name.
    std::vector<uint32_t> ifIndex(m_spec.GetNNodes(), 0);
    Report("links", 0, m_spec.links.size());
    for (const RdmaTopologySpec::Link& l : m_spec.links)
    {
        const uint32_t ifA = ifIndex[l.a]++;
        const uint32_t ifB = ifIndex[l.b]++;
        if (!BuildsLink(l))
        {
            LinkInfo far; // both ends another rank's: nothing here uses it
            far.a = l.a;
            far.b = l.b;
            m_links.push_back(far);
            Report("links", m_links.size(), m_spec.links.size());
            continue;
        }
        m_link.SetDeviceAttribute("DataRate", DataRateValue(l.rate));
        m_link.SetChannelAttribute("Delay", TimeValue(l.delay));
        NetDeviceContainer d = m_link.Install(m_nodes.Get(l.a), m_nodes.Get(l.b));
        // The far end of a cut link (another rank's node) is numbered as
        // its own rank numbers its device, where frames sent to it arrive.
        d.Get(0)->SetIfIndex(ifA);
        d.Get(1)->SetIfIndex(ifB);
        LinkInfo info;
        info.a = l.a;
        info.b = l.b;
        // Null for the far end of a cut link (a QbbRemotePort).
        info.deviceA = DynamicCast<QbbNetDevice>(d.Get(0));
        info.deviceB = DynamicCast<QbbNetDevice>(d.Get(1));
        info.channel = (info.deviceA ? info.deviceA : info.deviceB)->GetQbbChannel();
        for (const Ptr<QbbNetDevice>& dev : {info.deviceA, info.deviceB})
        {
            if (l.errorRate > 0)
            {
                Ptr<RateErrorModel> em;
                if (dev)
                {
                    em = CreateObject<RateErrorModel>();
                    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
                    em->SetRate(l.errorRate);
                    dev->SetReceiveErrorModel(em);
                }
                info.errorModels.push_back(em);
            }
            if (dev)
            {
                m_devices.Add(dev);
            }
        }
        SlowDown(m_links.size(), info);
        ports[l.a].push_back(info.deviceA);
        ports[l.b].push_back(info.deviceB);
        m_links.push_back(info);
        Report("links", m_links.size(), m_spec.links.size());
    }
    return ports;
}

uint32_t
RdmaTopologyHelper::SwitchEcmpSeed(uint64_t set, uint32_t index)
{
    return static_cast<uint32_t>(set * 0x9E3779B9ULL + index + 1);
}

void
RdmaTopologyHelper::InstallSwitches(const std::vector<std::vector<Ptr<QbbNetDevice>>>& ports)
{
    Report("switches", 0, m_spec.GetNSwitches());
    for (uint32_t u = 0; u < m_spec.GetNNodes(); ++u)
    {
        if (!m_spec.isSwitch[u])
        {
            continue;
        }
        const uint32_t s = m_switchIds.size();
        m_switchIds.push_back(u);
        if (!IsLocalNode(u))
        {
            m_switches.push_back(nullptr); // another rank's: its index kept
            Report("switches", m_switches.size(), m_spec.GetNSwitches());
            continue;
        }
        Ptr<RdmaSwitch> sw = m_switchFactory.Create<RdmaSwitch>();
        // Each switch its own hash (no polarization between tiers), offset by
        // the EcmpSeed set (SetSwitchAttribute or the attribute's default,
        // rdma-sim's switch.EcmpSeed), the same on every rank.
        UintegerValue base;
        sw->GetAttribute("EcmpSeed", base);
        sw->SetAttribute("EcmpSeed", UintegerValue(SwitchEcmpSeed(base.Get(), s)));
        // The switch made its MMU (RdmaSwitch's constructor); set it up before AddPort.
        for (const auto& [name, value] : m_mmuAttributes)
        {
            sw->GetMmu()->SetAttribute(name, *value);
        }
        m_nodes.Get(u)->AggregateObject(sw);
        for (const Ptr<QbbNetDevice>& dev : ports[u])
        {
            const uint32_t expected = sw->GetNPorts();
            NS_ABORT_MSG_IF(sw->AddPort(dev) != expected, "switch port numbering");
        }
        for (uint32_t p = 0; m_ecn && p < sw->GetNPorts(); ++p)
        {
            const auto slow = m_slowDevices.find(PeekPointer(ports[u][p]));
            SwitchEcnParams ecn = m_ecnParams;
            if (slow != m_slowDevices.end())
            {
                ecn.kminBytes = static_cast<uint64_t>(ecn.kminBytes * slow->second);
                ecn.kmaxBytes = static_cast<uint64_t>(ecn.kmaxBytes * slow->second);
            }
            for (uint8_t cls = 0; cls < QbbNetDevice::NUM_CLASSES; ++cls)
            {
                sw->SetEcnParams(p, cls, ecn);
            }
        }
        m_switches.push_back(sw);
        Report("switches", m_switches.size(), m_spec.GetNSwitches());
    }
}

uint64_t
RdmaTopologyHelper::InstallRoutes()
{
    // Every next hop toward every host, destination by destination (one
    // BFS of the route computer each).
    uint64_t entries = 0;
    std::vector<uint32_t> hops;
    Report("route tables", 0, m_hosts.GetN());
    for (uint32_t d = 0; d < m_hosts.GetN(); ++d)
    {
        const Ipv4Address dst(m_base.Get() + d);
        for (uint32_t s = 0; s < m_switches.size(); ++s)
        {
            if (!m_switches[s])
            {
                continue;
            }
            m_routes->GetNextHops(m_switchIds[s], d, hops);
            if (!hops.empty())
            {
                m_switches[s]->SetRoute(dst, hops);
                entries += hops.size();
            }
        }
        Report("route tables", d + 1, m_hosts.GetN());
    }
    ShareAlikeRoutes();
    // The distance rows of every destination were for this; a run asks
    // only a few paths again before its end (RdmaFabricPaths).
    m_routes->ReleaseRows();
    return entries;
}

void
RdmaTopologyHelper::ShareAlikeRoutes()
{
    // Switches whose tables are equal keep one between them (a k=16 fat
    // tree's 64 cores one, each pod's 8 aggregation switches one): the
    // same lookups in less memory, and fewer distinct tables in the caches.
    std::unordered_map<std::size_t, std::vector<uint32_t>> byHash;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        if (!m_switches[s])
        {
            continue;
        }
        std::vector<uint32_t>& alike = byHash[m_switches[s]->GetRoutes().Hash()];
        bool shared = false;
        for (uint32_t other : alike)
        {
            if (m_switches[s]->ShareRoutes(*m_switches[other]))
            {
                shared = true;
                break;
            }
        }
        if (!shared)
        {
            alike.push_back(s);
        }
    }
}

void
RdmaTopologyHelper::ScheduleLinkFailure(uint32_t link, Time at, Time convergence)
{
    CheckInstalled();
    NS_ABORT_MSG_IF(link >= m_links.size(),
                    "RdmaTopologyHelper::ScheduleLinkFailure: no link " << link);
    if (m_links[link].channel)
    {
        Simulator::Schedule(at, &QbbChannel::SetLinkDown, m_links[link].channel);
    }
    Simulator::Schedule(at + convergence, &RdmaTopologyHelper::RerouteAround, this, link);
}

bool
RdmaTopologyHelper::PlaneReaches(uint32_t node, uint32_t plane, Ipv4Address dst) const
{
    const uint32_t dstHost = GetHostIndex(dst);
    const auto& ports = m_routes->GetPorts(node);
    if (dstHost == UINT32_MAX || plane >= ports.size())
    {
        return false;
    }
    const RdmaRouteComputer::Port& p = ports[plane];
    return (m_down.empty() || !m_down[p.link]) &&
           m_routes->GetDistance(p.peer, dstHost) != RdmaRouteComputer::UNREACHABLE;
}

void
RdmaTopologyHelper::RerouteAround(uint32_t link)
{
    if (m_down.empty())
    {
        m_down.assign(m_links.size(), false);
    }
    m_down[link] = true;
    if (!m_builtRoutes)
    {
        m_builtRoutes = std::move(m_routes);
    }
    m_routes = std::make_unique<RdmaRouteComputer>(m_spec, m_down);
    const uint64_t entries = InstallRoutes();
    for (uint32_t h = 0; m_spec.planes > 1 && h < m_nics.size(); ++h)
    {
        if (m_nics[h])
        {
            m_nics[h]->InvalidatePlanes();
        }
    }
    NS_LOG_INFO("routes around link " << link << " (" << m_links[link].a << "-"
                                      << m_links[link].b << "): " << entries << " entries");
}

void
RdmaTopologyHelper::InstallHosts()
{
    CheckInstalled();
    NS_ABORT_MSG_IF(!m_nics.empty(), "RdmaTopologyHelper::InstallHosts: hosts installed already");
    Report("hosts", 0, m_hosts.GetN());
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        const Ipv4Address address(m_base.Get() + h);
        const uint32_t node = m_hosts.Get(h)->GetId();
        m_byAddress[address.Get()] = h;
        if (!IsLocalNode(node))
        {
            // Another rank's: what its peers here need of its NIC.
            m_nics.push_back(nullptr);
            m_hostIds.push_back(Create<RdmaNicIds>(address, node));
            Report("hosts", h + 1, m_hosts.GetN());
            continue;
        }
        try
        {
            const auto& ports = m_hostPorts[h];
            m_nics.push_back(m_rdma.Install(
                m_hosts.Get(h),
                ports.empty() ? nullptr : ports[0],
                address,
                std::vector<Ptr<QbbNetDevice>>(ports.begin() + std::min<std::size_t>(1, ports.size()),
                                               ports.end())));
            if (m_spec.planes > 1)
            {
                m_nics.back()->SetPlaneReachability([this, node](uint32_t plane, Ipv4Address dst) {
                    return PlaneReaches(node, plane, dst);
                });
            }
            m_hostIds.push_back(m_nics.back()->GetIds());
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(std::string(e.what()) + " of host " + std::to_string(h) +
                                        "'s link");
        }
        Report("hosts", h + 1, m_hosts.GetN());
    }
}

void
RdmaTopologyHelper::Report(const std::string& what, uint64_t done, uint64_t total) const
{
    if (m_progress)
    {
        m_progress(what, done, total);
    }
}

} // namespace ns3
