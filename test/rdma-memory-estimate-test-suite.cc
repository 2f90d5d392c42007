/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaMemoryEstimate (per-item costs x counts), the sizes sim.maxMemory
 * takes (RdmaParseByteSize, RdmaMakeByteSizeChecker), the machine's
 * available memory and the construction progress line (RdmaBuildProgress,
 * RdmaTopologyHelper::SetBuildProgress).
 */

#include "ns3/nstime.h"
#include "ns3/rdma-build-progress.h"
#include "ns3/rdma-byte-size.h"
#include "ns3/rdma-value-text.h"
#include "ns3/rdma-memory-estimate.h"
#include "ns3/rdma-partition.h"
#include "ns3/rdma-topology-helper.h"
#include "ns3/rdma-value-check.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdlib>
#include <limits>
#include <sstream>
#include <tuple>
#include <unistd.h>

using namespace ns3;

namespace
{

/// Costs that tell the items apart: each a distinct power of two.
const RdmaMemoryEstimate::Costs kCosts{1u << 20,
                                       1u << 12,
                                       1u << 14,
                                       1u << 9,
                                       1u << 6,
                                       1u << 3,
                                       1u << 10,
                                       1u << 13,
                                       1u << 11};

/// \return counts with the given items
RdmaMemoryEstimate::Counts
MakeCounts(uint64_t hosts, uint64_t switches, uint64_t links, uint64_t routeHops, uint64_t flows,
           uint64_t qpPairs, uint64_t pipelines)
{
    RdmaMemoryEstimate::Counts c;
    c.hosts = hosts;
    c.switches = switches;
    c.links = links;
    c.routeHops = routeHops;
    c.flows = flows;
    c.qpPairsAtOnce = qpPairs;
    c.pipelines = pipelines;
    return c;
}

/// Counts of a topology, and the estimate as the sum of count x cost.
class RdmaMemoryEstimateArithmeticTestCase : public TestCase
{
  public:
    RdmaMemoryEstimateArithmeticTestCase()
        : TestCase("the estimate is base + hosts, switches, ports (2 per link), routes "
                   "(switches x hosts), route next hops, flows, QP pairs at once and NIC "
                   "pipelines, each x its cost")
    {
    }

  private:
    void DoRun() override
    {
        // Al-Fares k=4: 16 hosts, 20 switches, 48 links (16 + 16 + 16).
        const RdmaLinkParams l;
        const RdmaTopologySpec ft = RdmaTopologySpec::FatTree(4, l, l, l);
        const RdmaMemoryEstimate e(MakeCounts(16, 20, 48, 512, 100, 16, 0), kCosts);
        const auto& t = e.GetTerms();
        NS_TEST_ASSERT_MSG_EQ(t.size(), 9u, "nine items");
        NS_TEST_EXPECT_MSG_EQ(t[1].count, 16u, "hosts k^3/4");
        NS_TEST_EXPECT_MSG_EQ(t[2].count, 20u, "switches 5k^2/4");
        NS_TEST_EXPECT_MSG_EQ(t[3].count, 96u, "ports: two per link, 3k^3/4 links");
        NS_TEST_EXPECT_MSG_EQ(t[4].count, 320u, "routes: switches x hosts");
        NS_TEST_EXPECT_MSG_EQ(t[5].count, 512u, "route next hops");
        NS_TEST_EXPECT_MSG_EQ(t[6].count, 100u, "flows");
        NS_TEST_EXPECT_MSG_EQ(t[7].count, 16u, "QP pairs at once");
        NS_TEST_EXPECT_MSG_EQ(t[8].count, 0u, "no NIC pipelines");
        const uint64_t expected = (1u << 20) + 16 * (1u << 12) + 20 * (1u << 14) +
                                  96 * (1u << 9) + 320 * (1u << 6) + 512 * (1u << 3) +
                                  100 * (1u << 10) + 16 * (1u << 13);
        NS_TEST_EXPECT_MSG_EQ(e.GetTotalBytes(), expected, "sum of count x cost");

        // From the spec and a workload: 16 flows at 0, then 3 at 5 us, one at 7 us.
        std::vector<RdmaFlow> flows(20);
        for (uint32_t i = 0; i < flows.size(); ++i)
        {
            flows[i].start = i < 16 ? Time(0) : MicroSeconds(i < 19 ? 5 : 7);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaMemoryEstimate::GetLargestStartGroup(flows), 16u, "at 0");
        std::swap(flows[0], flows[19]);
        NS_TEST_EXPECT_MSG_EQ(RdmaMemoryEstimate::GetLargestStartGroup(flows), 16u, "any order");
        NS_TEST_EXPECT_MSG_EQ(RdmaMemoryEstimate::GetLargestStartGroup({}), 0u, "none");
        const RdmaMemoryEstimate fromSpec(ft, flows, true);
        const auto& ts = fromSpec.GetTerms();
        NS_TEST_EXPECT_MSG_EQ(ts[1].count, 16u, "hosts k^3/4");
        NS_TEST_EXPECT_MSG_EQ(ts[2].count, 20u, "switches 5k^2/4");
        NS_TEST_EXPECT_MSG_EQ(ts[3].count, 96u, "ports: two per link, 3k^3/4 links");
        NS_TEST_EXPECT_MSG_EQ(ts[4].count, 320u, "routes: switches x hosts");
        NS_TEST_EXPECT_MSG_EQ(ts[5].count, 16u * 32u, "next hops: k^3/2 per host");
        NS_TEST_EXPECT_MSG_EQ(ts[6].count, 20u, "flows from the workload");
        NS_TEST_EXPECT_MSG_EQ(ts[7].count, 16u, "QP pairs: the flows starting together");
        NS_TEST_EXPECT_MSG_EQ(ts[8].count, 16u, "a pipeline per host");
        const auto& measured = RdmaMemoryEstimate::GetMeasuredCosts();
        NS_TEST_EXPECT_MSG_EQ(ts[1].bytesEach, measured.host, "the measured costs");
        NS_TEST_EXPECT_MSG_EQ(ts[8].bytesEach, measured.pipeline, "the measured costs");

        // Next hops of the other generators: leaf-spine 4 x 2 with 3 hosts a
        // leaf (L x S per host), a star and a dumbbell (1 per route).
        const auto ls = RdmaTopologySpec::LeafSpine(4, 2, 3, l, l, 0);
        NS_TEST_EXPECT_MSG_EQ(RdmaMemoryEstimate::GetRouteHops(ls), 12u * 8u, "L x S per host");
        NS_TEST_EXPECT_MSG_EQ(RdmaMemoryEstimate::GetRouteHops(RdmaTopologySpec::Star(5, l)),
                              5u,
                              "one per route");
        NS_TEST_EXPECT_MSG_EQ(
            RdmaMemoryEstimate::GetRouteHops(RdmaTopologySpec::Dumbbell(3, 2, l, l)),
            10u,
            "one per route");

        // Describe names each item with its count, cost and product.
        const std::string d = e.Describe();
        for (const char* part : {"base 1.00 MiB",
                                 "16 hosts x 4.00 KiB = 64.00 KiB",
                                 "20 switches x 16.00 KiB = 320.00 KiB",
                                 "96 ports x 512 B = 48.00 KiB",
                                 "320 routes (switches x hosts) x 64 B = 20.00 KiB",
                                 "512 route next hops x 8 B = 4.00 KiB",
                                 "100 flows x 1.00 KiB = 100.00 KiB",
                                 "16 QP pairs at once (flows starting together) x 8.00 KiB"})
        {
            NS_TEST_EXPECT_MSG_NE(d.find(part), std::string::npos, part << " in " << d);
        }
        NS_TEST_EXPECT_MSG_EQ(d.find("NIC pipelines"), std::string::npos, "zero counts left out");

        // Counts beyond any memory saturate instead of wrapping around.
        const uint64_t big = uint64_t(1) << 40;
        const RdmaMemoryEstimate huge(MakeCounts(big, big, 1, 0, 1, 1, 0), kCosts);
        NS_TEST_EXPECT_MSG_EQ(huge.GetTotalBytes(),
                              std::numeric_limits<uint64_t>::max(),
                              "2^80 route entries saturate");
        NS_TEST_EXPECT_MSG_EQ(huge.IsLarge(), true, "large");
        NS_TEST_EXPECT_MSG_EQ(e.IsLarge(), false, "a k=4 fat-tree is not large");
        const RdmaMemoryEstimate gib(MakeCounts(0, 0, 0, 0, (uint64_t(1) << 30) / 1024, 0, 0),
                                     kCosts);
        NS_TEST_EXPECT_MSG_EQ(gib.IsLarge(), true, "1 GiB and more is large");
    }
};

/// Counts from a generator's sizes equal the counts of what it builds.
class RdmaFabricCountsTestCase : public TestCase
{
  public:
    RdmaFabricCountsTestCase()
        : TestCase("counts from the sizes alone (the check before building) equal the counts "
                   "of the built fat tree, leaf-spine, dumbbell and star")
    {
    }

  private:
    /// Assert two counts' fabric items are equal.
    void Expect(const RdmaMemoryEstimate::Counts& sizes,
                const RdmaTopologySpec& built,
                const std::string& what)
    {
        const auto b = RdmaMemoryEstimate::Count(built, {}, false);
        NS_TEST_EXPECT_MSG_EQ(sizes.hosts, b.hosts, what << ": hosts");
        NS_TEST_EXPECT_MSG_EQ(sizes.switches, b.switches, what << ": switches");
        NS_TEST_EXPECT_MSG_EQ(sizes.links, b.links, what << ": links");
        NS_TEST_EXPECT_MSG_EQ(sizes.routeHops, b.routeHops, what << ": route next hops");
        NS_TEST_EXPECT_MSG_EQ(sizes.flows + sizes.qpPairsAtOnce + sizes.pipelines,
                              0u,
                              what << ": no workload");
    }

    void DoRun() override
    {
        const RdmaLinkParams l;
        for (uint32_t k : {2u, 4u, 6u, 8u, 16u})
        {
            Expect(RdmaMemoryEstimate::CountFatTree(k),
                   RdmaTopologySpec::FatTree(k, l, l, l),
                   "fat-tree k=" + std::to_string(k));
        }
        for (const auto& [leaves, spines, perLeaf] :
             std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>{{1, 1, 1},
                                                                   {4, 2, 3},
                                                                   {8, 8, 16},
                                                                   {3, 5, 2}})
        {
            Expect(RdmaMemoryEstimate::CountLeafSpine(leaves, spines, perLeaf),
                   RdmaTopologySpec::LeafSpine(leaves, spines, perLeaf, l, l, 0),
                   "leaf-spine " + std::to_string(leaves) + "x" + std::to_string(spines));
        }
        Expect(RdmaMemoryEstimate::CountDumbbell(3, 2),
               RdmaTopologySpec::Dumbbell(3, 2, l, l),
               "dumbbell");
        Expect(RdmaMemoryEstimate::CountStar(17), RdmaTopologySpec::Star(17, l), "star");
        // Sizes beyond any machine saturate instead of wrapping around.
        NS_TEST_EXPECT_MSG_EQ(RdmaMemoryEstimate::CountStar(uint64_t(1) << 40).routeHops,
                              uint64_t(1) << 40,
                              "2^40 hosts, one next hop each");
        NS_TEST_EXPECT_MSG_EQ(RdmaMemoryEstimate::CountFatTree(uint64_t(1) << 32).routeHops,
                              std::numeric_limits<uint64_t>::max(),
                              "k = 2^32 saturates");
    }
};

/// Sizes: units, rounding, refusals; the checker sim.maxMemory declares.
class RdmaByteSizeTestCase : public TestCase
{
  public:
    RdmaByteSizeTestCase()
        : TestCase("sizes: decimal and binary units of IEC 80000-13, bare bytes; blanks, "
                   "signs, unknown units and 2^64 bytes refused")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& [text, bytes] :
             std::vector<std::pair<std::string, uint64_t>>{{"1024", 1024},
                                                           {"512B", 512},
                                                           {"1.5KiB", 1536},
                                                           {"500MB", 500000000},
                                                           {"2kB", 2000},
                                                           {"8GiB", uint64_t(8) << 30},
                                                           {"1TiB", uint64_t(1) << 40},
                                                           {"0.5GB", 500000000},
                                                           {"1e3MB", 1000000000}})
        {
            uint64_t v = 0;
            NS_TEST_EXPECT_MSG_EQ(RdmaParseByteSize(text, &v), true, text);
            NS_TEST_EXPECT_MSG_EQ(v, bytes, text);
        }
        for (const char* bad :
             {"", "GiB", "8 GiB", "-1GiB", "8gib", "8GiBs", "8XB", "16EiB", "1e30GiB", "nan"})
        {
            uint64_t v = 7;
            NS_TEST_EXPECT_MSG_EQ(RdmaParseByteSize(bad, &v), false, bad);
            NS_TEST_EXPECT_MSG_EQ(v, 7, "left alone on failure");
        }
        // The number part: digits, one '.', an exponent only when it has digits.
        for (const auto& [text, length] :
             std::vector<std::pair<std::string, std::size_t>>{{"12", 2},
                                                              {"1.5KiB", 3},
                                                              {"5.", 2},
                                                              {".25us", 3},
                                                              {"1e9", 3},
                                                              {"2E-3s", 4},
                                                              {"1e", 1},
                                                              {"1e+", 1},
                                                              {"1eB", 1},
                                                              {"1.2.3", 3},
                                                              {".", 0},
                                                              {"", 0},
                                                              {"-1", 0},
                                                              {"e5", 0}})
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaDecimalLength(text), length, text);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaFormatByteSize(512), "512 B", "bytes");
        NS_TEST_EXPECT_MSG_EQ(RdmaFormatByteSize(1536), "1.50 KiB", "KiB");
        NS_TEST_EXPECT_MSG_EQ(RdmaFormatByteSize(uint64_t(3) << 30), "3.00 GiB", "GiB");
        NS_TEST_EXPECT_MSG_EQ(RdmaFormatByteSize(uint64_t(5) << 50), "5120.00 TiB", "TiB at most");

        const auto checker = RdmaMakeByteSizeChecker(1 << 20, "available");
        NS_TEST_EXPECT_MSG_EQ(RdmaCheckValue(checker, "8GiB"), "", "a size");
        NS_TEST_EXPECT_MSG_EQ(RdmaCheckValue(checker, "available"), "", "the word");
        NS_TEST_EXPECT_MSG_EQ(RdmaCheckValue(checker, "1MiB"), "", "the minimum");
        for (const char* bad : {"1KiB", "0", "lots", "8 GiB", "Available"})
        {
            const std::string e = RdmaCheckValue(checker, bad);
            NS_TEST_EXPECT_MSG_NE(e.find("a size with its unit"), std::string::npos, bad << ": " << e);
            NS_TEST_EXPECT_MSG_NE(e.find("of at least 1.00 MiB, or available"),
                                  std::string::npos,
                                  bad << ": " << e);
        }
    }
};

/// The machine's available memory: known on Linux, at most its physical memory.
class RdmaAvailableMemoryTestCase : public TestCase
{
  public:
    RdmaAvailableMemoryTestCase()
        : TestCase(
              "available memory: MemAvailable of the proc meminfo file, above 0 and at most the "
              "physical memory; the ranks on this machine that share it (Open MPI, MPICH, "
              "Slurm's tasks per node, else every rank)")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t available = RdmaAvailableMemory();
        const uint64_t physical =
            uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
        NS_TEST_EXPECT_MSG_GT(available, 0, "known");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(available, physical, "at most MemTotal");
        // The ranks sharing it, as the launcher says (Open MPI, then MPICH).
        const char* saved = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
        const std::string keep = saved ? saved : "";
        unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
        unsetenv("MPI_LOCALNRANKS");
        NS_TEST_EXPECT_MSG_EQ(RdmaLocalRanks(), 1u, "no launcher: one process");
        setenv("MPI_LOCALNRANKS", "4", 1);
        NS_TEST_EXPECT_MSG_EQ(RdmaLocalRanks(), 4u, "MPICH's Hydra");
        setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "3", 1);
        NS_TEST_EXPECT_MSG_EQ(RdmaLocalRanks(), 3u, "Open MPI's mpirun");
        unsetenv("MPI_LOCALNRANKS");
        unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
        // Slurm's srun: "2(x3),1" is 2 tasks on each of nodes 0-2, 1 on node 3.
        NS_TEST_EXPECT_MSG_EQ(RdmaSlurmTasksOnNode("2(x3),1", 0), 2u, "node 0");
        NS_TEST_EXPECT_MSG_EQ(RdmaSlurmTasksOnNode("2(x3),1", 2), 2u, "node 2");
        NS_TEST_EXPECT_MSG_EQ(RdmaSlurmTasksOnNode("2(x3),1", 3), 1u, "node 3");
        NS_TEST_EXPECT_MSG_EQ(RdmaSlurmTasksOnNode("2(x3),1", 4), 0u, "no node 4");
        NS_TEST_EXPECT_MSG_EQ(RdmaSlurmTasksOnNode("8", 0), 8u, "one node");
        for (const char* bad : {"", "x", "2(x0)", "2(3)", "0", "2(x3"})
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaSlurmTasksOnNode(bad, 0), 0u, "'" << bad << "'");
        }
        setenv("SLURM_STEP_TASKS_PER_NODE", "4(x2),3", 1);
        setenv("SLURM_NODEID", "2", 1);
        NS_TEST_EXPECT_MSG_EQ(RdmaLocalRanks(), 3u, "srun: node 2 runs 3 of the step's tasks");
        unsetenv("SLURM_STEP_TASKS_PER_NODE");
        unsetenv("SLURM_NODEID");
        // Another launcher: every rank counted as on this machine.
        RdmaPartition::SetWorld(0, 6);
        NS_TEST_EXPECT_MSG_EQ(RdmaLocalRanks(), 6u, "no launcher variable: all 6 ranks");
        RdmaPartition::SetWorld(0, 1);
        if (saved)
        {
            setenv("OMPI_COMM_WORLD_LOCAL_SIZE", keep.c_str(), 1);
        }
        else
        {
            unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
        }
    }
};

/// The construction progress line: where, when, how it ends.
class RdmaBuildProgressTestCase : public TestCase
{
  public:
    RdmaBuildProgressTestCase()
        : TestCase("construction progress: a line when a part starts, rewritten in place, "
                   "ended by a newline; nothing without a stream")
    {
    }

  private:
    void DoRun() override
    {
        std::ostringstream os;
        {
            RdmaBuildProgress p(&os);
            p.Report("hosts", 0, 8192);
            const std::string line = os.str();
            NS_TEST_EXPECT_MSG_EQ(line.rfind("\r[rdma-sim] building: 0 of 8192 hosts; wall ", 0),
                                  0,
                                  line);
            NS_TEST_EXPECT_MSG_EQ(line.find('\n'), std::string::npos, "no newline yet");
            p.Finish();
            NS_TEST_EXPECT_MSG_EQ(os.str().back(), '\n', "Finish ends the line");
            p.Finish();
        }
        NS_TEST_EXPECT_MSG_EQ(os.str().find('\n'), os.str().size() - 1, "one newline only");
        std::ostringstream quiet;
        {
            RdmaBuildProgress p(nullptr);
            p.Report("hosts", 0, 10);
        }
        RdmaBuildProgress unused(&quiet);
        unused.Finish();
        NS_TEST_EXPECT_MSG_EQ(quiet.str(), "", "no line printed, no newline");
    }
};

/// RdmaTopologyHelper reports each part of the construction, in order.
class RdmaTopologyBuildProgressTestCase : public TestCase
{
  public:
    RdmaTopologyBuildProgressTestCase()
        : TestCase("RdmaTopologyHelper::SetBuildProgress: links, switches, route tables, "
                   "hosts, each from 0 to its count")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::tuple<std::string, uint64_t, uint64_t>> calls;
        {
            RdmaTopologyHelper topo;
            topo.SetBuildProgress([&calls](const std::string& what, uint64_t done, uint64_t total) {
                calls.emplace_back(what, done, total);
            });
            topo.InstallFatTree(4);
        }
        Simulator::Destroy();
        // Parts in order, with their totals (k=4: 16 hosts, 48 links, 20 switches;
        // the route tables are filled destination by destination).
        const std::vector<std::pair<std::string, uint64_t>> parts{{"links", 48},
                                                                  {"switches", 20},
                                                                  {"route tables", 16},
                                                                  {"hosts", 16}};
        std::size_t i = 0;
        for (const auto& [what, total] : parts)
        {
            NS_TEST_ASSERT_MSG_LT(i, calls.size(), what << " reported");
            NS_TEST_EXPECT_MSG_EQ(std::get<0>(calls[i]), what, "part order");
            NS_TEST_EXPECT_MSG_EQ(std::get<1>(calls[i]), 0u, what << " starts at 0");
            uint64_t last = 0;
            for (; i < calls.size() && std::get<0>(calls[i]) == what; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(std::get<2>(calls[i]), total, what << " total");
                last = std::get<1>(calls[i]);
            }
            NS_TEST_EXPECT_MSG_EQ(last, total, what << " ends at its total");
        }
        NS_TEST_EXPECT_MSG_EQ(i, calls.size(), "nothing else reported");
    }
};

/// The suite.
class RdmaMemoryEstimateTestSuite : public TestSuite
{
  public:
    RdmaMemoryEstimateTestSuite()
        : TestSuite("rdma-memory-estimate", UNIT)
    {
        AddTestCase(new RdmaMemoryEstimateArithmeticTestCase, TestCase::QUICK);
        AddTestCase(new RdmaFabricCountsTestCase, TestCase::QUICK);
        AddTestCase(new RdmaByteSizeTestCase, TestCase::QUICK);
        AddTestCase(new RdmaAvailableMemoryTestCase, TestCase::QUICK);
        AddTestCase(new RdmaBuildProgressTestCase, TestCase::QUICK);
        AddTestCase(new RdmaTopologyBuildProgressTestCase, TestCase::QUICK);
    }
};

/// Static instance.
static RdmaMemoryEstimateTestSuite g_rdmaMemoryEstimateTestSuite;

} // namespace
