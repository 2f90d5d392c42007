/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-memory-estimate.h"

#include "rdma-byte-size.h"

#include <algorithm>
#include <fstream>
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
    // Least-squares fit of peak RSS over the runs of doc/rdma.rst, "Memory"
    // (Release build, glibc malloc, x86-64), rounded up to 64 bytes.
    static const Costs costs{20u << 20, 6144, 1024, 16384, 192, 512, 13312, 13312};
    return costs;
}

RdmaMemoryEstimate::RdmaMemoryEstimate(const RdmaTopologySpec& topology,
                                       const std::vector<RdmaFlow>& flows,
                                       bool pipeline)
    : RdmaMemoryEstimate(topology.GetNHosts(),
                         topology.GetNSwitches(),
                         topology.links.size(),
                         flows.size(),
                         GetLargestStartGroup(flows),
                         pipeline ? topology.GetNHosts() : 0,
                         GetMeasuredCosts())
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

RdmaMemoryEstimate::RdmaMemoryEstimate(uint64_t hosts,
                                       uint64_t switches,
                                       uint64_t links,
                                       uint64_t flows,
                                       uint64_t qpPairsAtOnce,
                                       uint64_t pipelines,
                                       const Costs& costs)
{
    m_terms = {{"base", 1, costs.base},
               {"hosts", hosts, costs.host},
               {"switches", switches, costs.sw},
               {"ports", SaturatingProduct(2, links), costs.port},
               {"routes (switches x hosts)", SaturatingProduct(switches, hosts), costs.route},
               {"flows", flows, costs.flow},
               {"QP pairs at once (flows starting together)", qpPairsAtOnce, costs.qpPair},
               {"NIC pipelines", pipelines, costs.pipeline}};
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

} // namespace ns3
