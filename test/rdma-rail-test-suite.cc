/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the rail-optimized fabric (RdmaTopologySpec::Rail, its routes and
 * nodes.csv), collectives run by groups of ranks at once
 * (RdmaCollectiveSchedule::Grouped) and the reader of SimAI's workload
 * files (RdmaSimaiWorkload).
 *
 * Figures come from the definitions: a rail fabric of S servers of G GPUs
 * and P spines has 2 S G hosts (a NIC and an NVLink port per GPU), G rail
 * switches, S NVSwitches and P spines; NIC i of every server is on rail i,
 * so two GPUs of one rail are 2 links apart and of two rails 4 (through a
 * spine, P ways); a GPU's NVLink port reaches its server's other ports in 2
 * links and nothing else. A workload's header gives TP, DP = all_gpus /
 * (TP x pp), EP and DP / EP; SimAI's Workload.cc gives each collective's
 * group (plain: TP forward and input gradient, DP weight gradient).
 */

#include "ns3/rdma-collective-schedule.h"
#include "ns3/rdma-nodes-csv.h"
#include "ns3/rdma-route-computer.h"
#include "ns3/rdma-simai-workload.h"
#include "ns3/rdma-topology-spec.h"
#include "ns3/test.h"

#include <set>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// \return a rail fabric of 3 servers of 4 GPUs and 2 spines
RdmaTopologySpec
SmallRail()
{
    RdmaLinkParams nic;
    RdmaLinkParams fabric;
    RdmaLinkParams intra;
    intra.rate = DataRate("3600Gbps");
    return RdmaTopologySpec::Rail(3, 4, 2, nic, fabric, intra);
}

/// The rail fabric's nodes, links, routes and names.
class RailSpecTestCase : public TestCase
{
  public:
    RailSpecTestCase()
        : TestCase("rail fabric: nodes, links, routes and nodes.csv names")
    {
    }

  private:
    void DoRun() override
    {
        const RdmaTopologySpec s = SmallRail();
        s.Validate();
        const uint32_t gpus = 12;
        NS_TEST_EXPECT_MSG_EQ(s.GetNHosts(), 2 * gpus, "a NIC and an NVLink port per GPU");
        NS_TEST_EXPECT_MSG_EQ(s.GetNSwitches(), 4 + 3 + 2, "rails, NVSwitches, spines");
        NS_TEST_EXPECT_MSG_EQ(s.links.size(), gpus + 4 * 2 + gpus, "NIC, rail-spine, NVLink");
        NS_TEST_EXPECT_MSG_EQ(s.servers.GetGpus(), gpus, "GPUs");
        NS_TEST_EXPECT_MSG_EQ(s.servers.GetIntraHost(5), gpus + 5, "NVLink port of GPU 5");
        NS_TEST_EXPECT_MSG_EQ(s.servers.GetServer(5), 1, "GPU 5 is in server 1");
        NS_TEST_EXPECT_MSG_EQ(s.GetHostLinkRate(), DataRate("100Gbps"), "the NIC's rate");
        for (uint32_t h = 0; h < gpus; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(s.links[h].b, 2 * gpus + h % 4, "NIC i on rail i");
            NS_TEST_EXPECT_MSG_EQ(s.links[gpus + 8 + h].rate, DataRate("3600Gbps"), "NVLink");
        }
        RdmaRouteComputer routes(s);
        // GPU 1 and 5 share rail 1; GPU 1 and 6 do not; NVLink ports 12 and 13 share server 0.
        NS_TEST_EXPECT_MSG_EQ(routes.GetDistance(routes.GetHostNode(1), 5), 2, "one rail");
        NS_TEST_EXPECT_MSG_EQ(routes.GetDistance(routes.GetHostNode(1), 6), 4, "via a spine");
        NS_TEST_EXPECT_MSG_EQ(routes.GetNNextHops(2 * gpus + 1, 6), 2, "two spines");
        NS_TEST_EXPECT_MSG_EQ(routes.GetDistance(routes.GetHostNode(12), 13), 2, "NVSwitch");
        NS_TEST_EXPECT_MSG_EQ(routes.GetDistance(routes.GetHostNode(12), 16),
                              RdmaRouteComputer::UNREACHABLE,
                              "NVLink does not leave the server");
        NS_TEST_EXPECT_MSG_EQ(routes.GetDistance(routes.GetHostNode(12), 0),
                              RdmaRouteComputer::UNREACHABLE,
                              "NVLink ports and NICs are apart");
        const std::string csv = RdmaFormatNodesCsv(s);
        for (const char* line : {"\n5,host,s1.nic1,", "\n17,host,s1.nvl1,", "\n25,switch,rail1,",
                                 "\n29,switch,s1.nvswitch,", "\n31,switch,spine0,"})
        {
            NS_TEST_EXPECT_MSG_NE(csv.find(line), std::string::npos, "nodes.csv has " << line);
        }
        bool threw = false;
        try
        {
            RdmaTopologySpec::Rail(2, 0, 1, RdmaLinkParams(), RdmaLinkParams(), RdmaLinkParams());
        }
        catch (const RdmaTopologyError&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "no GPUs per server is refused");
    }
};

/// A grouped collective: each group runs the whole schedule among its ranks.
class GroupedScheduleTestCase : public TestCase
{
  public:
    GroupedScheduleTestCase()
        : TestCase("grouped collective: every group's ring, on its own ranks")
    {
    }

  private:
    void DoRun() override
    {
        const auto one = RdmaCollectiveSchedule::Build(RdmaCollectiveKind::ALL_REDUCE,
                                                       RdmaCollectiveAlgorithm::RING,
                                                       4,
                                                       4096,
                                                       1,
                                                       1024);
        const std::vector<std::vector<uint32_t>> groups{{0, 2, 4, 6}, {1, 3, 5, 7}};
        const auto s = RdmaCollectiveSchedule::Grouped(one, groups, 8);
        NS_TEST_EXPECT_MSG_EQ(s.GetRanks(), 8, "the job's ranks");
        NS_TEST_EXPECT_MSG_EQ(s.GetGroupRanks(), 4, "a group's ranks (nccl-tests' n)");
        NS_TEST_EXPECT_MSG_EQ(s.GetOps().size(), 2 * one.GetOps().size(), "both groups");
        for (uint32_t r = 0; r < 8; ++r)
        {
            // 2(n-1) steps of S/n bytes each, to the next rank of the group.
            NS_TEST_EXPECT_MSG_EQ(s.GetBytesSent(r), 2 * 3 * 1024, "rank " << r);
            for (uint32_t op : s.GetSends(r))
            {
                NS_TEST_EXPECT_MSG_EQ(s.GetOps()[op].dst, (r + 2) % 8, "ring of the group");
                for (uint32_t d : s.GetDeps(op))
                {
                    NS_TEST_EXPECT_MSG_EQ(s.GetOps()[d].dst, r, "waits for its own receives");
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(s.GetDeps(one.GetOps().size() + 5).size(),
                              one.GetDeps(5).size(),
                              "the same dependencies");
        bool threw = false;
        try
        {
            RdmaCollectiveSchedule::Grouped(one, {{0, 1, 2, 3}, {3, 4, 5, 6}}, 8);
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "a rank in two groups is refused");
    }
};

/// A small workload in SimAI's format: header, 3 layers.
const char* SMALL_WORKLOAD =
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 2 pp: 1 vpp: 1 ga: 1 "
    "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n"
    "3\n"
    "attention\t-1\t2000\tALLREDUCE\t65536\t3000\tALLGATHER\t65536\t1000\tREDUCESCATTER\t131072\t0\n"
    "moe\t-1\t1500\tALLTOALL_EP\t32768\t2500\tNONE\t0\t900\tALLREDUCE_DP_EP\t4096\t0\n"
    "head\t-1\t0\tNONE\t0\t0\tNONE\t0\t700\tNONE\t0\t0\n";

/// The reader: header, layers, groups, the iteration's order.
class WorkloadParseTestCase : public TestCase
{
  public:
    WorkloadParseTestCase()
        : TestCase("SimAI workload: header, layers, groups and SimAI's order")
    {
    }

  private:
    void DoRun() override
    {
        std::istringstream in(SMALL_WORKLOAD);
        const auto w = RdmaSimaiWorkload::Parse(in, "small.txt");
        NS_TEST_EXPECT_MSG_EQ(w.tp, 2, "TP");
        NS_TEST_EXPECT_MSG_EQ(w.GetDp(), 4, "DP = 8 / (2 x 1)");
        NS_TEST_EXPECT_MSG_EQ(w.GetGroupSize(RdmaSimaiWorkload::Group::DP_EP), 2, "DP / EP");
        NS_TEST_EXPECT_MSG_EQ(w.layers.size(), 3, "layer count");
        const auto& attention = w.layers[0];
        NS_TEST_EXPECT_MSG_EQ(attention.line, 3, "its line");
        NS_TEST_EXPECT_MSG_EQ(attention.compute[0], 2000, "forward compute, ns");
        NS_TEST_EXPECT_MSG_EQ(attention.compute[1], 3000, "input-gradient compute, ns");
        NS_TEST_EXPECT_MSG_EQ(attention.compute[2], 1000, "weight-gradient compute, ns");
        NS_TEST_EXPECT_MSG_EQ(attention.comm[0].bytes, 65536, "forward bytes");
        NS_TEST_EXPECT_MSG_EQ(attention.comm[2].bytes, 131072, "weight-gradient bytes");
        NS_TEST_EXPECT_MSG_EQ((attention.comm[0].group == RdmaSimaiWorkload::Group::TP), true,
                              "a plain forward collective is tensor parallel");
        NS_TEST_EXPECT_MSG_EQ((attention.comm[2].group == RdmaSimaiWorkload::Group::DP), true,
                              "a plain weight-gradient collective is data parallel");
        NS_TEST_EXPECT_MSG_EQ((w.layers[1].comm[0].group == RdmaSimaiWorkload::Group::EP &&
                               w.layers[1].comm[0].kind == RdmaCollectiveKind::ALL_TO_ALL),
                              true,
                              "ALLTOALL_EP");
        NS_TEST_EXPECT_MSG_EQ(w.layers[1].comm[1].none, true, "NONE");
        // Groups in Megatron-LM's order: TP fastest.
        const auto tp = w.GetGroups(RdmaSimaiWorkload::Group::TP);
        NS_TEST_EXPECT_MSG_EQ((tp[1] == std::vector<uint32_t>{2, 3}), true, "TP group 1");
        const auto dp = w.GetGroups(RdmaSimaiWorkload::Group::DP);
        NS_TEST_EXPECT_MSG_EQ((dp[1] == std::vector<uint32_t>{1, 3, 5, 7}), true, "DP group 1");
        const auto ep = w.GetGroups(RdmaSimaiWorkload::Group::EP);
        NS_TEST_EXPECT_MSG_EQ((ep[0] == std::vector<uint32_t>{0, 2}), true, "EP group 0");
        const auto dpEp = w.GetGroups(RdmaSimaiWorkload::Group::DP_EP);
        NS_TEST_EXPECT_MSG_EQ((dpEp[0] == std::vector<uint32_t>{0, 4}), true, "DP_EP group 0");
        // Forward in order, then backward in reverse: input gradient, weight gradient.
        std::ostringstream order;
        for (const auto& it : w.GetIteration())
        {
            order << (it.compute ? "c" + std::to_string(it.computeNs) : it.comm->type) << ' ';
        }
        NS_TEST_EXPECT_MSG_EQ(order.str(),
                              "c2000 ALLREDUCE c1500 ALLTOALL_EP c4100 ALLREDUCE_DP_EP c3000 "
                              "ALLGATHER c1000 REDUCESCATTER ",
                              "SimAI's TransformerFwdInBckwd order, gaps merged");
        NS_TEST_EXPECT_MSG_EQ(w.warnings.size(), 1, "weight-gradient overlap");
        NS_TEST_EXPECT_MSG_EQ(w.warnings[0].rfind("small.txt:3: ", 0), 0, "names file:line");
    }
};

/// \return the iteration as "c<ns>" for compute and the collective's type \param w a workload
std::string
IterationText(const RdmaSimaiWorkload& w)
{
    std::ostringstream order;
    for (const auto& it : w.GetIteration())
    {
        order << (it.compute ? "c" + std::to_string(it.computeNs) : it.comm->type) << ' ';
    }
    return order.str();
}

/// \return whether one of w's warnings begins with `text` \param w a workload \param text it
bool
Warns(const RdmaSimaiWorkload& w, const std::string& text)
{
    for (const auto& warning : w.warnings)
    {
        if (warning.rfind(text, 0) == 0)
        {
            return true;
        }
    }
    return false;
}

/// AICB's other files, read as SimAI's loader reads them.
class WorkloadPoliciesTestCase : public TestCase
{
  public:
    WorkloadPoliciesTestCase()
        : TestCase("SimAI workload: an older AICB header takes the job's GPUs; MICRO and DATA run "
                   "the weight-gradient collectives over every GPU; BROADCAST is left out")
    {
    }

  private:
    void DoRun() override
    {
        // An older AICB header: no all_gpus. Nothing runs until the GPUs are given.
        std::istringstream old("HYBRID_TRANSFORMER_FWD_IN_BCKWD\tmodel_parallel_NPU_group: 2 "
                               "checkpoints: 0 checkpoint_initiates: 0\n2\n"
                               "norm\t-1\t0\tBROADCAST\t16384\t1\tNONE\t0\t1\tNONE\t0\t100\n"
                               "mlp\t-1\t50\tALLGATHER\t4096\t60\tNONE\t0\t70\tALLREDUCE\t8192\t0\n");
        auto w = RdmaSimaiWorkload::Parse(old, "old.txt");
        NS_TEST_EXPECT_MSG_EQ(w.allGpus, 0, "not in the file");
        NS_TEST_EXPECT_MSG_EQ(w.GetIteration().size(), 0, "no iteration before SetAllGpus");
        NS_TEST_EXPECT_MSG_EQ(Warns(w, "old.txt:3: 1 BROADCAST collective(s) left out"),
                              true,
                              "BROADCAST named");
        w.SetAllGpus(8);
        NS_TEST_EXPECT_MSG_EQ(w.GetDp(), 4, "DP = 8 / 2");
        NS_TEST_EXPECT_MSG_EQ(Warns(w, "old.txt:1: no all_gpus on line 1"), true, "said");
        NS_TEST_EXPECT_MSG_EQ(IterationText(w),
                              "c50 ALLGATHER c130 ALLREDUCE c2 ",
                              "the broadcast runs nothing: forward 0 + 50; backward mlp's 60 + "
                              "70, then norm's 1 + 1");
        bool threw = false;
        try
        {
            std::istringstream again("HYBRID_TRANSFORMER model_parallel_NPU_group: 2\n1\n"
                                     "l -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n");
            RdmaSimaiWorkload::Parse(again, "odd.txt").SetAllGpus(3);
        }
        catch (const std::runtime_error& e)
        {
            threw = std::string(e.what()).rfind("odd.txt:1: all_gpus 3 is not a multiple", 0) == 0;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "the job's GPUs are checked as all_gpus is");

        // MICRO (AICB's micro tests): each line's collective over every GPU, in
        // order. The layer count says 3, the file has 2 lines (as AICB's own
        // L65B file): SimAI reads the third as an empty layer.
        std::istringstream micro("MICRO\n3\n"
                                 "micro_test\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t4096\t1\n"
                                 "micro_test\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLTOALL\t8192\t1\n");
        w = RdmaSimaiWorkload::Parse(micro, "micro.txt");
        NS_TEST_EXPECT_MSG_EQ(Warns(w, "micro.txt:2: the layer count is 3, the file has 2"),
                              true,
                              "short file said");
        w.SetAllGpus(8);
        NS_TEST_EXPECT_MSG_EQ(IterationText(w), "ALLREDUCE ALLTOALL ", "one after another");
        const auto all = w.GetGroups(RdmaSimaiWorkload::Group::DP);
        NS_TEST_EXPECT_MSG_EQ(all.size(), 1, "one group");
        NS_TEST_EXPECT_MSG_EQ(all[0].size(), 8, "of every GPU");

        // DATA (SimAI's iterate_data_parallel): forward computes, then per
        // layer in reverse the weight-gradient compute and collective and the
        // input-gradient compute; the forward collective is not run.
        std::istringstream data("DATA\n2\n"
                                "a\t-1\t10\tALLREDUCE\t64\t20\tNONE\t0\t30\tALLREDUCE\t128\t1\n"
                                "b\t-1\t11\tNONE\t0\t21\tNONE\t0\t31\tALLGATHER\t256\t1\n");
        w = RdmaSimaiWorkload::Parse(data, "data.txt");
        w.SetAllGpus(4);
        NS_TEST_EXPECT_MSG_EQ(IterationText(w),
                              "c52 ALLGATHER c51 ALLREDUCE c20 ",
                              "10 + 11 + 31, b's collective, 21 + 30, a's, 20");
        NS_TEST_EXPECT_MSG_EQ(Warns(w, "data.txt:3: 1 forward or input-gradient collective(s) "
                                       "left out"),
                              true,
                              "the forward ALLREDUCE named");
        NS_TEST_EXPECT_MSG_EQ(w.GetGroups(RdmaSimaiWorkload::Group::DP)[0].size(), 4, "every GPU");
    }
};

/// Bad files: each error names the file and line.
class WorkloadErrorTestCase : public TestCase
{
  public:
    WorkloadErrorTestCase()
        : TestCase("SimAI workload: bad files name file:line")
    {
    }

  private:
    void DoRun() override
    {
        const std::string header =
            "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 all_gpus: 8\n";
        const std::string layer = "l -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n";
        const std::pair<std::string, std::string> cases[] = {
            {header + "1\nl -1 1 ALLFOO 8 1 NONE 0 1 NONE 0 0\n", "w.txt:3: unknown collective"},
            {header + "2\n", "w.txt:2: expected 2 layer lines (line 2), found none"},
            {header + "1\n" + layer + layer, "w.txt:4: more layer lines"},
            {header + "1\nl -1 x NONE 0 1 NONE 0 1 NONE 0 0\n", "w.txt:3: expected a compute"},
            {header + "1\nl -1 1 NONE 0 1 NONE 0\n", "w.txt:3: expected 12 fields"},
            {"MODEL model_parallel_NPU_group: 1 all_gpus: 8\n1\n" + layer, "w.txt:1: parallelism"},
            {"HYBRID_TRANSFORMER model_parallel_NPU_group: 3 all_gpus: 8\n1\n" + layer,
             "w.txt:1: all_gpus 8 is not a multiple"},
            {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 colour: 8\n", "w.txt:1: unknown"},
            {header + "many\n", "w.txt:2: expected the layer count"},
        };
        for (const auto& [text, message] : cases)
        {
            std::istringstream in(text);
            std::string what;
            try
            {
                RdmaSimaiWorkload::Parse(in, "w.txt");
            }
            catch (const std::runtime_error& e)
            {
                what = e.what();
            }
            NS_TEST_EXPECT_MSG_EQ(what.rfind(message, 0),
                                  0,
                                  "'" << what << "' begins with '" << message << "'");
        }
    }
};

/// The rail fabric, grouped collectives and SimAI's workload files.
class RdmaRailTestSuite : public TestSuite
{
  public:
    RdmaRailTestSuite()
        : TestSuite("rdma-rail", UNIT)
    {
        AddTestCase(new RailSpecTestCase(), TestCase::QUICK);
        AddTestCase(new GroupedScheduleTestCase(), TestCase::QUICK);
        AddTestCase(new WorkloadParseTestCase(), TestCase::QUICK);
        AddTestCase(new WorkloadErrorTestCase(), TestCase::QUICK);
        AddTestCase(new WorkloadPoliciesTestCase(), TestCase::QUICK);
    }
};

RdmaRailTestSuite g_rdmaRailTestSuite; //!< static instance

} // namespace
