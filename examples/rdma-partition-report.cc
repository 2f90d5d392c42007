/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// rdma-partition-report TOPOLOGY RANKS...: for an HPCC topology file, the
// maps of the partition rules a distributed run can use (doc/mpi.rst,
// "Partitioning": RdmaPartition::Metis and ByTor) at each rank count, one
// line each: links cut, their capacity, hosts and port capacity per rank.
// Capacities are in units of the slowest link's rate (the weights METIS is
// given). Bad input (an unreadable or malformed file, a rank count that is
// not a whole number >= 2, more ranks than a rule can fill) exits 2.

#include "ns3/rdma-config.h"
#include "ns3/rdma-hpcc-topology-reader.h"
#include "ns3/rdma-partition.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the list "a/b/c"
std::string
Joined(const std::vector<uint64_t>& values)
{
    std::string text;
    for (uint64_t v : values)
    {
        text += (text.empty() ? "" : "/") + std::to_string(v);
    }
    return text;
}

/**
 * \brief Print one rule's map.
 * \param spec the topology
 * \param p the map
 * \param name the rule's name
 */
void
Report(const RdmaTopologySpec& spec, const RdmaPartition& p, const std::string& name)
{
    uint64_t unit = UINT64_MAX;
    for (const auto& l : spec.links)
    {
        unit = std::min(unit, l.rate.GetBitRate());
    }
    std::vector<uint64_t> hosts(p.ranks, 0);
    std::vector<uint64_t> capacity(p.ranks, 0);
    uint64_t cutCapacity = 0;
    for (uint32_t u = 0; u < spec.GetNNodes(); ++u)
    {
        hosts[p.rankOf[u]] += spec.isSwitch[u] ? 0 : 1;
    }
    for (const auto& l : spec.links)
    {
        const uint64_t c = l.rate.GetBitRate() / unit;
        capacity[p.rankOf[l.a]] += c;
        capacity[p.rankOf[l.b]] += c;
        cutCapacity += p.rankOf[l.a] != p.rankOf[l.b] ? c : 0;
    }
    std::cout << p.ranks << " ranks  " << name << ": " << p.crossLinks << " links cut ("
              << cutCapacity << " units), hosts " << Joined(hosts) << ", port capacity "
              << Joined(capacity) << "\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS); // as rdma-sim: link delays below 1 ns
    if (argc < 3)
    {
        std::cerr << "usage: rdma-partition-report TOPOLOGY RANKS...\n";
        return 2;
    }
    try
    {
        const RdmaTopologySpec spec = RdmaHpccTopologyReader::ReadFile(argv[1]);
        std::cout << spec.name << ": " << spec.GetNHosts() << " hosts, " << spec.GetNSwitches()
                  << " switches, " << spec.links.size() << " links\n";
        for (int i = 2; i < argc; ++i)
        {
            const std::string text = argv[i];
            if (text.empty() || text.size() > 6 ||
                text.find_first_not_of("0123456789") != std::string::npos || std::stoul(text) < 2)
            {
                std::cerr << "rdma-partition-report: ranks '" << text
                          << "': expected a whole number >= 2\n";
                return 2;
            }
            const auto ranks = uint32_t(std::stoul(text));
            Report(spec, RdmaPartition::Metis(spec, ranks), "metis ");
            Report(spec, RdmaPartition::ByTor(spec, ranks), "by-tor");
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "rdma-partition-report: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
