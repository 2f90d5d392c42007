/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-topology-spec.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

RdmaTopologyError::RdmaTopologyError(const std::string& what)
    : std::runtime_error(what)
{
}

uint32_t
RdmaTopologySpec::Servers::GetGpus() const
{
    return count * gpusPerServer;
}

uint32_t
RdmaTopologySpec::Servers::GetIntraHost(uint32_t gpu) const
{
    return GetGpus() + gpu;
}

uint32_t
RdmaTopologySpec::Servers::GetServer(uint32_t gpu) const
{
    return gpu / gpusPerServer;
}

uint32_t
RdmaTopologySpec::GetNNodes() const
{
    return isSwitch.size();
}

uint32_t
RdmaTopologySpec::GetNSwitches() const
{
    uint32_t n = 0;
    for (bool s : isSwitch)
    {
        n += s ? 1 : 0;
    }
    return n;
}

uint32_t
RdmaTopologySpec::GetNHosts() const
{
    return GetNNodes() - GetNSwitches();
}

DataRate
RdmaTopologySpec::GetHostLinkRate() const
{
    for (const auto& l : links)
    {
        if ((l.a < isSwitch.size() && !isSwitch[l.a]) || (l.b < isSwitch.size() && !isSwitch[l.b]))
        {
            return DataRate(l.rate.GetBitRate() * planes);
        }
    }
    return DataRate(100'000'000'000ULL);
}

void
RdmaTopologySpec::AddLink(uint32_t a, uint32_t b, const RdmaLinkParams& params, uint32_t tier)
{
    Link l;
    l.a = a;
    l.b = b;
    l.rate = params.rate;
    l.delay = params.delay;
    l.errorRate = params.errorRate;
    l.tier = tier;
    l.where = name + ": link " + std::to_string(links.size());
    links.push_back(std::move(l));
}

namespace
{

/**
 * \param l a link
 * \param n the topology's nodes
 * \return what is wrong with it, or "" (a stream is made only for an error:
 * Validate asks this of every link of fabrics of thousands)
 */
std::string
LinkProblem(const RdmaTopologySpec::Link& l, uint32_t n)
{
    if (l.a >= n || l.b >= n)
    {
        return "node " + std::to_string(l.a >= n ? l.a : l.b) + " does not exist (" +
               std::to_string(n) + " nodes, ids 0-" + std::to_string(n == 0 ? 0 : n - 1) + ")";
    }
    if (l.a == l.b)
    {
        return "links node " + std::to_string(l.a) + " to itself";
    }
    if (l.rate.GetBitRate() == 0)
    {
        return "rate must be above 0 bit/s";
    }
    if (l.delay.IsStrictlyNegative())
    {
        return "delay must not be negative";
    }
    if (!(l.errorRate >= 0 && l.errorRate <= 1))
    {
        std::ostringstream err;
        err << "error rate " << l.errorRate << " is not a probability in [0, 1]";
        return err.str();
    }
    return "";
}

} // namespace

void
RdmaTopologySpec::Validate() const
{
    const uint32_t n = GetNNodes();
    std::vector<uint32_t> degree(n, 0);
    for (const Link& l : links)
    {
        const std::string problem = LinkProblem(l, n);
        if (!problem.empty())
        {
            throw RdmaTopologyError(l.where + ": " + problem);
        }
        ++degree[l.a];
        ++degree[l.b];
    }
    if (GetNHosts() == 0)
    {
        throw RdmaTopologyError(name + ": no hosts (every node is a switch)");
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!isSwitch[i] && degree[i] != planes)
        {
            std::ostringstream err;
            err << name << ": host " << i << " has " << degree[i] << " links; a host needs "
                << (planes == 1 ? std::string("exactly one (its NIC port)")
                                : "one per plane (" + std::to_string(planes) + ")");
            throw RdmaTopologyError(err.str());
        }
    }
}

RdmaTopologySpec
RdmaTopologySpec::WithPlanes(uint32_t p) const
{
    if (p == 0 || p > MAX_PLANES)
    {
        throw RdmaTopologyError(name + ": " + std::to_string(p) + " planes: expected 1 to " +
                                std::to_string(MAX_PLANES));
    }
    if (planes != 1)
    {
        throw RdmaTopologyError(name + ": has " + std::to_string(planes) + " planes already");
    }
    if (p == 1)
    {
        return *this;
    }
    const uint32_t n = GetNNodes();
    const uint32_t nSwitches = GetNSwitches();
    std::vector<uint32_t> switchIndex(n, 0);
    for (uint32_t u = 0, i = 0; u < n; ++u)
    {
        switchIndex[u] = isSwitch[u] ? i++ : 0;
    }
    RdmaTopologySpec s = *this;
    s.name = name + " x " + std::to_string(p) + " planes";
    s.planes = p;
    s.isSwitch.resize(n + (p - 1) * nSwitches, true);
    s.links.reserve(links.size() * p);
    for (uint32_t plane = 1; plane < p; ++plane)
    {
        const auto copy = [&](uint32_t u) {
            return isSwitch[u] ? n + (plane - 1) * nSwitches + switchIndex[u] : u;
        };
        for (const Link& l : links)
        {
            Link c = l;
            c.a = copy(l.a);
            c.b = copy(l.b);
            c.plane = plane;
            c.where = l.where + " (plane " + std::to_string(plane) + ")";
            s.links.push_back(c);
        }
        for (uint32_t u = 0; u < n && u < nodeNames.size(); ++u)
        {
            if (isSwitch[u] && !nodeNames[u].empty())
            {
                s.nodeNames.resize(s.isSwitch.size());
                s.nodeNames[copy(u)] = "plane" + std::to_string(plane) + "." + nodeNames[u];
            }
        }
    }
    return s;
}

RdmaTopologySpec
RdmaTopologySpec::FatTree(uint32_t k,
                          const RdmaLinkParams& host,
                          const RdmaLinkParams& edgeAgg,
                          const RdmaLinkParams& aggCore)
{
    if (k < 2 || k % 2 != 0)
    {
        throw RdmaTopologyError("fat-tree: k = " + std::to_string(k) +
                                " must be even and at least 2");
    }
    const uint32_t half = k / 2;
    const uint32_t nHosts = k * k * k / 4;
    const uint32_t nEdge = k * half;
    const uint32_t nAgg = k * half;
    const uint32_t nCore = half * half;
    const uint32_t edge0 = nHosts;
    const uint32_t agg0 = edge0 + nEdge;
    const uint32_t core0 = agg0 + nAgg;
    RdmaTopologySpec s;
    s.name = "fat-tree k=" + std::to_string(k);
    s.isSwitch.assign(core0 + nCore, true);
    std::fill(s.isSwitch.begin(), s.isSwitch.begin() + nHosts, false);
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        s.AddLink(h, edge0 + h / half, host, 0);
    }
    for (uint32_t e = 0; e < nEdge; ++e)
    {
        const uint32_t pod = e / half;
        for (uint32_t j = 0; j < half; ++j)
        {
            s.AddLink(edge0 + e, agg0 + pod * half + j, edgeAgg, 1);
        }
    }
    for (uint32_t a = 0; a < nAgg; ++a)
    {
        const uint32_t j = a % half;
        for (uint32_t c = 0; c < half; ++c)
        {
            s.AddLink(agg0 + a, core0 + j * half + c, aggCore, 2);
        }
    }
    return s;
}

RdmaTopologySpec
RdmaTopologySpec::LeafSpine(uint32_t leaves,
                            uint32_t spines,
                            uint32_t hostsPerLeaf,
                            const RdmaLinkParams& host,
                            const RdmaLinkParams& fabric,
                            double oversubscription)
{
    if (leaves == 0 || spines == 0 || hostsPerLeaf == 0)
    {
        throw RdmaTopologyError("leaf-spine: leaves, spines and hosts per leaf must be at least 1");
    }
    if (!(oversubscription >= 0) || std::isinf(oversubscription))
    {
        throw RdmaTopologyError("leaf-spine: oversubscription must be a finite ratio >= 0 (0: use "
                                "the fabric link rate)");
    }
    RdmaLinkParams up = fabric;
    if (oversubscription > 0)
    {
        const double bps = double(hostsPerLeaf) * double(host.rate.GetBitRate()) /
                           (double(spines) * oversubscription);
        if (bps < 1)
        {
            throw RdmaTopologyError(
                "leaf-spine: oversubscription gives an uplink rate below 1 bit/s");
        }
        up.rate = DataRate(uint64_t(std::llround(bps)));
    }
    const uint32_t nHosts = leaves * hostsPerLeaf;
    const uint32_t leaf0 = nHosts;
    const uint32_t spine0 = leaf0 + leaves;
    RdmaTopologySpec s;
    s.name = "leaf-spine " + std::to_string(leaves) + "x" + std::to_string(spines) + "x" +
             std::to_string(hostsPerLeaf);
    s.isSwitch.assign(spine0 + spines, true);
    std::fill(s.isSwitch.begin(), s.isSwitch.begin() + nHosts, false);
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        s.AddLink(h, leaf0 + h / hostsPerLeaf, host, 0);
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t p = 0; p < spines; ++p)
        {
            s.AddLink(leaf0 + l, spine0 + p, up, 1);
        }
    }
    return s;
}

RdmaTopologySpec
RdmaTopologySpec::Dumbbell(uint32_t left,
                           uint32_t right,
                           const RdmaLinkParams& host,
                           const RdmaLinkParams& bottleneck)
{
    if (left == 0 || right == 0)
    {
        throw RdmaTopologyError("dumbbell: each side needs at least one host");
    }
    const uint32_t nHosts = left + right;
    RdmaTopologySpec s;
    s.name = "dumbbell " + std::to_string(left) + "x" + std::to_string(right);
    s.isSwitch.assign(nHosts + 2, false);
    s.isSwitch[nHosts] = true;
    s.isSwitch[nHosts + 1] = true;
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        s.AddLink(h, h < left ? nHosts : nHosts + 1, host, 0);
    }
    s.AddLink(nHosts, nHosts + 1, bottleneck, 1);
    return s;
}

RdmaTopologySpec
RdmaTopologySpec::Star(uint32_t hosts, const RdmaLinkParams& host)
{
    if (hosts < 2)
    {
        throw RdmaTopologyError("star: needs at least two hosts");
    }
    RdmaTopologySpec s;
    s.name = "star " + std::to_string(hosts);
    s.isSwitch.assign(hosts + 1, false);
    s.isSwitch[hosts] = true;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        s.AddLink(h, hosts, host, 0);
    }
    return s;
}

RdmaTopologySpec
RdmaTopologySpec::Rail(uint32_t servers,
                       uint32_t gpusPerServer,
                       uint32_t spines,
                       const RdmaLinkParams& nic,
                       const RdmaLinkParams& fabric,
                       const RdmaLinkParams& intra)
{
    if (servers == 0 || gpusPerServer == 0 || spines == 0)
    {
        throw RdmaTopologyError("rail: servers, GPUs per server and spines must be at least 1");
    }
    const uint32_t gpus = servers * gpusPerServer;
    const uint32_t rail0 = 2 * gpus;
    const uint32_t nvswitch0 = rail0 + gpusPerServer;
    const uint32_t spine0 = nvswitch0 + servers;
    RdmaTopologySpec s;
    s.name = "rail " + std::to_string(servers) + "x" + std::to_string(gpusPerServer) + "x" +
             std::to_string(spines);
    s.servers.count = servers;
    s.servers.gpusPerServer = gpusPerServer;
    s.isSwitch.assign(spine0 + spines, true);
    std::fill(s.isSwitch.begin(), s.isSwitch.begin() + rail0, false);
    s.nodeNames.resize(s.isSwitch.size());
    for (uint32_t h = 0; h < gpus; ++h)
    {
        const std::string server = "s" + std::to_string(h / gpusPerServer);
        const std::string gpu = std::to_string(h % gpusPerServer);
        s.nodeNames[h] = server + ".nic" + gpu;
        s.nodeNames[gpus + h] = server + ".nvl" + gpu;
    }
    for (uint32_t i = 0; i < gpusPerServer; ++i)
    {
        s.nodeNames[rail0 + i] = "rail" + std::to_string(i);
    }
    for (uint32_t v = 0; v < servers; ++v)
    {
        s.nodeNames[nvswitch0 + v] = "s" + std::to_string(v) + ".nvswitch";
    }
    for (uint32_t p = 0; p < spines; ++p)
    {
        s.nodeNames[spine0 + p] = "spine" + std::to_string(p);
    }
    for (uint32_t h = 0; h < gpus; ++h)
    {
        s.AddLink(h, rail0 + h % gpusPerServer, nic, 0);
    }
    for (uint32_t i = 0; i < gpusPerServer; ++i)
    {
        for (uint32_t p = 0; p < spines; ++p)
        {
            s.AddLink(rail0 + i, spine0 + p, fabric, 1);
        }
    }
    for (uint32_t h = 0; h < gpus; ++h)
    {
        s.AddLink(gpus + h, nvswitch0 + h / gpusPerServer, intra, 2);
    }
    return s;
}

} // namespace ns3
