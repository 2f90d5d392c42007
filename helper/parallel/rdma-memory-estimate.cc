/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-memory-estimate.h"

#include "rdma-partition.h"

#include "ns3/rdma-byte-size.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

/// \return a x b, or 2^64 - 1 if it does not fit
uint64_t
SaturatingProduct(uint64_t a, uint64_t b)
{
    return b != 0 && a > std::numeric_limits<uint64_t>::max() / b
               ? std::numeric_limits<uint64_t>::max()
               : a * b;
}

} // namespace

const RdmaMemoryEstimate::Costs&
RdmaMemoryEstimate::GetMeasuredCosts()
{
    // The fit of scripts/memory_costs.py --fit over the runs of doc/rdma.rst,
    // "Memory" (Release build against Debian's libns3 3.37, glibc malloc,
    // x86-64), rounded to the byte. A route is its index in the switch's
    // table (1 byte on a fat tree) and its share of the groups; a next hop
    // costs nothing stored (found from the route computer's distances, one
    // destination at a time). Switches: 0, their objects are too small
    // beside their ports' for the runs to tell apart.
    static const Costs costs{22843763, // base
                             5105,     // host
                             0,        // switch
                             6351,     // port
                             5,        // route
                             0,        // route next hop
                             548,      // flow
                             9676,     // QP pair at once
                             13080};   // NIC pipeline
    return costs;
}

RdmaMemoryEstimate::Counts
RdmaMemoryEstimate::Count(const RdmaTopologySpec& topology,
                          const std::vector<RdmaFlow>& flows,
                          bool pipeline)
{
    Counts c;
    c.hosts = topology.GetNHosts();
    c.switches = topology.GetNSwitches();
    c.links = topology.links.size();
    c.routeHops = GetRouteHops(topology);
    c.flows = flows.size();
    c.qpPairsAtOnce = GetLargestStartGroup(flows);
    c.pipelines = pipeline ? c.hosts : 0;
    return c;
}

RdmaMemoryEstimate::Counts
RdmaMemoryEstimate::CountPart(const Counts& whole,
                              const RdmaTopologySpec& topology,
                              const std::vector<bool>& builtNode,
                              const std::vector<bool>& builtLink)
{
    Counts c = whole;
    c.pipelines = 0;
    c.switches = 0;
    c.hosts = 0;
    for (uint32_t n = 0; n < topology.GetNNodes(); ++n)
    {
        c.switches += topology.isSwitch[n] && builtNode[n];
        c.hosts += !topology.isSwitch[n] && builtNode[n];
    }
    c.links = std::count(builtLink.begin(), builtLink.end(), true);
    c.routeHops = GetRouteHops(topology, builtNode);
    return c;
}

uint64_t
RdmaMemoryEstimate::GetRouteHops(const RdmaTopologySpec& topology,
                                 const std::vector<bool>& builtNode)
{
    std::vector<uint64_t> toSwitches(topology.GetNNodes(), 0);
    for (const auto& l : topology.links)
    {
        if (topology.isSwitch[l.a] && topology.isSwitch[l.b])
        {
            ++toSwitches[l.a];
            ++toSwitches[l.b];
        }
    }
    uint64_t perHost = 0;
    for (uint32_t n = 0; n < topology.GetNNodes(); ++n)
    {
        const bool counted = topology.isSwitch[n] && (builtNode.empty() || builtNode[n]);
        perHost += counted ? std::max<uint64_t>(1, toSwitches[n] / 2) : 0;
    }
    return SaturatingProduct(perHost, topology.GetNHosts());
}

namespace
{

/// Switches alike in their links to other switches.
struct SwitchGroup
{
    uint64_t count;       //!< how many
    uint64_t switchLinks; //!< each one's links to other switches
};

/**
 * \param hosts hosts \param links links \param groups the switches
 * \return the counts, route next hops by GetRouteHops's rule: per host,
 * max(1, links to other switches / 2) for each switch
 */
RdmaMemoryEstimate::Counts
FabricCounts(uint64_t hosts, uint64_t links, std::initializer_list<SwitchGroup> groups)
{
    RdmaMemoryEstimate::Counts c;
    c.hosts = hosts;
    c.links = links;
    uint64_t perHost = 0;
    for (const SwitchGroup& g : groups)
    {
        c.switches += g.count;
        perHost += SaturatingProduct(g.count, std::max<uint64_t>(1, g.switchLinks / 2));
    }
    c.routeHops = SaturatingProduct(perHost, hosts);
    return c;
}

} // namespace

RdmaMemoryEstimate::Counts
RdmaMemoryEstimate::CountFatTree(uint64_t k)
{
    // k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores, k/2
    // hosts per edge (Al-Fares et al., SIGCOMM 2008): k^3/4 links per tier.
    const uint64_t half = k / 2;
    const uint64_t hosts = SaturatingProduct(k, SaturatingProduct(half, half));
    return FabricCounts(hosts,
                        SaturatingProduct(3, hosts),
                        {{k * half, half}, {k * half, k}, {half * half, k}});
}

RdmaMemoryEstimate::Counts
RdmaMemoryEstimate::CountLeafSpine(uint64_t leaves, uint64_t spines, uint64_t hostsPerLeaf)
{
    const uint64_t hosts = SaturatingProduct(leaves, hostsPerLeaf);
    const uint64_t fabric = SaturatingProduct(leaves, spines);
    return FabricCounts(hosts, hosts + fabric, {{leaves, spines}, {spines, leaves}});
}

RdmaMemoryEstimate::Counts
RdmaMemoryEstimate::CountDumbbell(uint64_t left, uint64_t right)
{
    return FabricCounts(left + right, left + right + 1, {{2, 1}});
}

RdmaMemoryEstimate::Counts
RdmaMemoryEstimate::CountStar(uint64_t hosts)
{
    return FabricCounts(hosts, hosts, {{1, 0}});
}

RdmaMemoryEstimate::RdmaMemoryEstimate(const RdmaTopologySpec& topology,
                                       const std::vector<RdmaFlow>& flows,
                                       bool pipeline)
    : RdmaMemoryEstimate(Count(topology, flows, pipeline), GetMeasuredCosts())
{
}

uint64_t
RdmaMemoryEstimate::GetLargestStartGroup(const std::vector<RdmaFlow>& flows)
{
    std::vector<int64_t> starts;
    starts.reserve(flows.size());
    for (const RdmaFlow& f : flows)
    {
        starts.push_back(f.start.GetTimeStep());
    }
    std::sort(starts.begin(), starts.end());
    uint64_t largest = 0;
    for (std::size_t i = 0, j = 0; i < starts.size(); i = j)
    {
        while (j < starts.size() && starts[j] == starts[i])
        {
            ++j;
        }
        largest = std::max<uint64_t>(largest, j - i);
    }
    return largest;
}

RdmaMemoryEstimate::RdmaMemoryEstimate(const Counts& c, const Costs& costs)
{
    m_terms = {{"base", 1, costs.base},
               {"hosts", c.hosts, costs.host},
               {"switches", c.switches, costs.sw},
               {"ports", SaturatingProduct(2, c.links), costs.port},
               {"routes (switches x hosts)", SaturatingProduct(c.switches, c.hosts), costs.route},
               {"route next hops", c.routeHops, costs.routeHop},
               {"flows", c.flows, costs.flow},
               {"QP pairs at once (flows starting together)", c.qpPairsAtOnce, costs.qpPair},
               {"NIC pipelines", c.pipelines, costs.pipeline}};
}

const std::vector<RdmaMemoryEstimate::Term>&
RdmaMemoryEstimate::GetTerms() const
{
    return m_terms;
}

uint64_t
RdmaMemoryEstimate::GetTotalBytes() const
{
    uint64_t total = 0;
    for (const Term& t : m_terms)
    {
        const uint64_t bytes = SaturatingProduct(t.count, t.bytesEach);
        total = bytes > std::numeric_limits<uint64_t>::max() - total
                    ? std::numeric_limits<uint64_t>::max()
                    : total + bytes;
    }
    return total;
}

std::string
RdmaMemoryEstimate::Describe() const
{
    std::ostringstream os;
    for (const Term& t : m_terms)
    {
        if (t.count == 0)
        {
            continue;
        }
        if (os.tellp() > 0)
        {
            os << ", ";
        }
        if (t.name == "base")
        {
            os << "base " << RdmaFormatByteSize(t.bytesEach);
            continue;
        }
        os << t.count << " " << t.name << " x " << RdmaFormatByteSize(t.bytesEach) << " = "
           << RdmaFormatByteSize(SaturatingProduct(t.count, t.bytesEach));
    }
    return os.str();
}

bool
RdmaMemoryEstimate::IsLarge() const
{
    return GetTotalBytes() >= (uint64_t(1) << 30);
}

uint64_t
RdmaAvailableMemory()
{
    // "MemAvailable:   23834068 kB" (proc(5)).
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line))
    {
        std::istringstream fields(line);
        std::string name;
        uint64_t kib = 0;
        std::string unit;
        if (fields >> name >> kib >> unit && name == "MemAvailable:" && unit == "kB")
        {
            return kib * 1024;
        }
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long pageBytes = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageBytes > 0 ? uint64_t(pages) * uint64_t(pageBytes) : 0;
}

uint32_t
RdmaSlurmTasksOnNode(const std::string& tasksPerNode, uint32_t node)
{
    // "2(x3),1": nodes 0 to 2 run 2 tasks each, node 3 one (srun(1),
    // SLURM_STEP_TASKS_PER_NODE).
    std::istringstream in(tasksPerNode);
    std::string item;
    uint32_t first = 0;
    while (std::getline(in, item, ','))
    {
        unsigned long tasks = 0;
        unsigned long repeat = 1;
        char open = 0;
        char x = 0;
        char close = 0;
        std::istringstream one(item);
        if (!(one >> tasks) || tasks == 0)
        {
            return 0;
        }
        if (one >> open)
        {
            if (open != '(' || !(one >> x >> repeat >> close) || x != 'x' || close != ')' ||
                repeat == 0)
            {
                return 0;
            }
        }
        if (node < first + repeat)
        {
            return static_cast<uint32_t>(tasks);
        }
        first += static_cast<uint32_t>(repeat);
    }
    return 0;
}

uint32_t
RdmaLocalRanks()
{
    // Set by the launchers for each process they start: Open MPI's mpirun
    // (OMPI_COMM_WORLD_LOCAL_SIZE) and MPICH's Hydra (MPI_LOCALNRANKS).
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    {
        const char* value = std::getenv(name);
        if (value && std::atoi(value) > 0)
        {
            return static_cast<uint32_t>(std::atoi(value));
        }
    }
    // Slurm's srun: the step's tasks per node, and this task's node.
    const char* perNode = std::getenv("SLURM_STEP_TASKS_PER_NODE");
    const char* node = std::getenv("SLURM_NODEID");
    if (perNode && node && std::atoi(node) >= 0)
    {
        const uint32_t here = RdmaSlurmTasksOnNode(perNode, static_cast<uint32_t>(std::atoi(node)));
        if (here > 0)
        {
            return here;
        }
    }
    // Another launcher: as if every rank ran on this machine (the safe side).
    return RdmaPartition::GetWorldSize();
}

} // namespace ns3
