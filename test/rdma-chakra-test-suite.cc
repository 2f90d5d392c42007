/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Chakra execution traces (MLCommons Chakra's et_def.proto): the reader
 * (RdmaReadChakraTrace, RdmaParseChakraRank) on the traces Chakra's own
 * generator writes (src/generator/generator.py, --num_npus 4, shipped in
 * data/chakra/generator/) and on damaged copies of them, and the steps a
 * job runs (RdmaChakraSteps) on traces built here.
 */

#include "rdma-test-data.h"

#include "ns3/rdma-chakra-steps.h"
#include "ns3/rdma-chakra-trace.h"
#include "ns3/rdma-data-dir.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// \return the prefix of one of Chakra's generator traces
std::string
Generated(const std::string& name)
{
    return RdmaDataDir() + "/chakra/generator/" + name;
}

/// \return a file's bytes
std::string
Bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The generator's traces read back: the nodes, kinds, sizes and dependencies it wrote.
class GeneratorTracesTestCase : public TestCase
{
  public:
    GeneratorTracesTestCase()
        : TestCase("Chakra's generator traces: 4 ranks, the node each rank has, its "
                   "comm_type, comm_size, duration and dependencies")
    {
    }

  private:
    void DoRun() override
    {
        const RdmaChakraTrace ar = RdmaReadChakraTrace(Generated("ALL_REDUCE"));
        NS_TEST_ASSERT_MSG_EQ(ar.ranks.size(), 4u, "--num_npus 4: a file per rank");
        for (std::size_t r = 0; r < 4; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(ar.files[r],
                                  Generated("ALL_REDUCE." + std::to_string(r) + ".et"),
                                  "file of rank " << r);
            NS_TEST_EXPECT_MSG_EQ(ar.versions[r], "1.0.0", "GlobalMetadata version");
            NS_TEST_ASSERT_MSG_EQ(ar.ranks[r].size(), 1u, "one node");
            const RdmaChakraNode& n = ar.ranks[r][0];
            NS_TEST_EXPECT_MSG_EQ(n.kind, RdmaChakraNode::COLLECTIVE, "COMM_COLL_NODE");
            NS_TEST_EXPECT_MSG_EQ(n.collective, "ALL_REDUCE", "comm_type 0");
            NS_TEST_EXPECT_MSG_EQ(n.bytes, 65536u, "--default_comm_size 65536");
            NS_TEST_EXPECT_MSG_EQ(n.name, "ALL_REDUCE", "its name");
        }
        for (const char* name : {"ALL_GATHER", "REDUCE_SCATTER", "BROADCAST", "ALL_TO_ALL"})
        {
            const RdmaChakraTrace t = RdmaReadChakraTrace(Generated(name));
            NS_TEST_EXPECT_MSG_EQ(t.ranks[3][0].collective, name, "comm_type");
        }
        const RdmaChakraNode barrier = RdmaReadChakraTrace(Generated("BARRIER")).ranks[0][0];
        NS_TEST_EXPECT_MSG_EQ(barrier.collective, "BARRIER", "comm_type 9");
        NS_TEST_EXPECT_MSG_EQ(barrier.bytes, 0u, "comm_size 0");

        const RdmaChakraTrace dep = RdmaReadChakraTrace(Generated("two_comp_nodes_dependent"));
        const auto& nodes = dep.ranks[2];
        NS_TEST_ASSERT_MSG_EQ(nodes.size(), 2u, "parent and child");
        NS_TEST_EXPECT_MSG_EQ(nodes[0].kind, RdmaChakraNode::COMPUTE, "COMP_NODE");
        NS_TEST_EXPECT_MSG_EQ(nodes[0].duration, MicroSeconds(5), "--default_runtime 5");
        NS_TEST_EXPECT_MSG_EQ(nodes[1].deps.size(), 1u, "one data dependency");
        NS_TEST_EXPECT_MSG_EQ(nodes[1].deps[0], nodes[0].id, "on the parent");

        const auto meta = RdmaReadChakraTrace(Generated("one_metadata_node_all_types")).ranks[0];
        NS_TEST_EXPECT_MSG_EQ(meta[0].kind,
                              RdmaChakraNode::METADATA,
                              "every attribute type parses");
        const auto load = RdmaReadChakraTrace(Generated("one_remote_mem_load_node")).ranks[0];
        NS_TEST_EXPECT_MSG_EQ(load[0].kind, RdmaChakraNode::MEMORY, "MEM_LOAD_NODE");
        const auto send = RdmaReadChakraTrace(Generated("one_comm_send_node")).ranks[0];
        NS_TEST_EXPECT_MSG_EQ(send[0].kind, RdmaChakraNode::SEND, "COMM_SEND_NODE");
        NS_TEST_EXPECT_MSG_EQ(send[0].peer, -1, "the generator gives it no comm_dst");

        // A folder holding one set reads as its prefix; the generator's, with
        // fourteen sets, is refused, naming them.
        const std::string dir = CreateTempDirFilename("one-set");
        std::filesystem::create_directories(dir);
        for (int r = 0; r < 4; ++r)
        {
            const std::string f = "ALL_GATHER." + std::to_string(r) + ".et";
            std::filesystem::copy_file(Generated(f), dir + "/" + f);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaReadChakraTrace(dir).ranks.size(), 4u, "the folder's set");
        const std::string many = rdmatest::ErrorOf<std::runtime_error>(
            [] { RdmaReadChakraTrace(RdmaDataDir() + "/chakra/generator"); });
        NS_TEST_EXPECT_MSG_NE(many.find("expected one set of Chakra traces"),
                              std::string::npos,
                              many);
        NS_TEST_EXPECT_MSG_NE(many.find("ALL_GATHER, ALL_REDUCE"), std::string::npos, many);
    }
};

/// Damaged traces: each refused, naming the file and what is wrong.
class BadTracesTestCase : public TestCase
{
  public:
    BadTracesTestCase()
        : TestCase("Bad traces: empty, not a trace, cut short, an id twice, no files")
    {
    }

  private:
    void DoRun() override
    {
        const std::string good = Bytes(Generated("ALL_REDUCE.0.et"));
        const std::string f = "x.0.et";
        auto parse = [&f](const std::string& bytes) {
            return rdmatest::ErrorOf<std::runtime_error>(
                [&] { RdmaParseChakraRank(bytes, f, nullptr); });
        };
        NS_TEST_EXPECT_MSG_EQ(parse(""),
                              f + ": empty: expected a GlobalMetadata message, then the nodes",
                              "empty");
        const std::string junk = parse(std::string("\x05\xff\xff\xff\xff\xff", 6));
        NS_TEST_EXPECT_MSG_NE(junk.find("its GlobalMetadata message does not parse"),
                              std::string::npos,
                              junk);
        const std::string cut = parse(good.substr(0, good.size() - 3));
        NS_TEST_EXPECT_MSG_NE(cut.find(f + ": the message at byte "), std::string::npos, cut);
        NS_TEST_EXPECT_MSG_NE(cut.find("does not parse as a Node"), std::string::npos, cut);
        // [length][GlobalMetadata][length][Node]: the node again.
        const std::size_t node = 1 + static_cast<uint8_t>(good[0]);
        const std::string twice = parse(good + good.substr(node));
        NS_TEST_EXPECT_MSG_NE(twice.find("its id is given to an earlier node too"),
                              std::string::npos,
                              twice);
        const std::string none = rdmatest::ErrorOf<std::runtime_error>(
            [] { RdmaReadChakraTrace("/nonexistent/trace"); });
        NS_TEST_EXPECT_MSG_EQ(none.rfind("/nonexistent/trace.0.et: cannot open", 0), 0u, none);
    }
};

/// A node of a trace built here
RdmaChakraNode
Node(uint64_t id, RdmaChakraNode::Kind kind, std::vector<uint64_t> deps = {})
{
    RdmaChakraNode n;
    n.id = id;
    n.name = "n" + std::to_string(id);
    n.kind = kind;
    n.deps = std::move(deps);
    return n;
}

/// A COMP_NODE of us microseconds
RdmaChakraNode
Comp(uint64_t id, int64_t us, std::vector<uint64_t> deps = {})
{
    RdmaChakraNode n = Node(id, RdmaChakraNode::COMPUTE, std::move(deps));
    n.duration = MicroSeconds(us);
    return n;
}

/// A COMM_COLL_NODE
RdmaChakraNode
Coll(uint64_t id, const std::string& type, uint64_t bytes, std::vector<uint64_t> deps = {})
{
    RdmaChakraNode n = Node(id, RdmaChakraNode::COLLECTIVE, std::move(deps));
    n.collective = type;
    n.bytes = bytes;
    return n;
}

/// \return a trace of these ranks' nodes, files r<k>.et
RdmaChakraTrace
Trace(std::vector<std::vector<RdmaChakraNode>> ranks)
{
    RdmaChakraTrace t;
    for (std::size_t r = 0; r < ranks.size(); ++r)
    {
        t.files.push_back("r." + std::to_string(r) + ".et");
        t.versions.emplace_back("1.0.0");
    }
    t.ranks = std::move(ranks);
    return t;
}

/// The steps: compute summed per rank between collectives, in dependency order.
class StepsTestCase : public TestCase
{
  public:
    StepsTestCase()
        : TestCase("Steps: each rank's compute between its collectives, in an order of the "
                   "dependencies; what is left out warned")
    {
    }

  private:
    void DoRun() override
    {
        // Rank 0 lists its nodes out of order: the dependencies order them.
        const RdmaChakraTrace t =
            Trace({{Comp(3, 5, {2}), Coll(2, "ALL_REDUCE", 1 << 20, {1}), Comp(1, 10)},
                   {Comp(1, 20),
                    Node(4, RdmaChakraNode::METADATA),
                    Coll(2, "ALL_REDUCE", 1 << 20, {1}),
                    Comp(3, 5, {2}),
                    Node(5, RdmaChakraNode::MEMORY, {3})}});
        std::vector<std::string> warnings;
        const auto steps = RdmaChakraSteps(t, &warnings);
        NS_TEST_ASSERT_MSG_EQ(steps.size(), 3u, "gap, collective, gap");
        NS_TEST_EXPECT_MSG_EQ(steps[0].collective, false, "compute first");
        NS_TEST_EXPECT_MSG_EQ(steps[0].compute[0], MicroSeconds(10), "rank 0's 10 us");
        NS_TEST_EXPECT_MSG_EQ(steps[0].compute[1], MicroSeconds(20), "rank 1's 20 us");
        NS_TEST_EXPECT_MSG_EQ(steps[1].collective, true, "then the all-reduce");
        NS_TEST_EXPECT_MSG_EQ(steps[1].type, "ALL_REDUCE", "its type");
        NS_TEST_EXPECT_MSG_EQ(steps[1].bytes, uint64_t(1) << 20, "its size");
        NS_TEST_EXPECT_MSG_EQ(steps[1].where, "r.0.et: node 2 (n2)", "rank 0's node");
        NS_TEST_EXPECT_MSG_EQ(steps[2].compute[1], MicroSeconds(5), "5 us after it");
        NS_TEST_ASSERT_MSG_EQ(warnings.size(), 1u, "the memory node");
        NS_TEST_EXPECT_MSG_NE(warnings[0].find("1 memory node(s)"), std::string::npos, warnings[0]);

        // A compute node nothing orders against the collective could overlap it.
        std::vector<std::string> w2;
        RdmaChakraSteps(Trace({{Comp(1, 10), Coll(2, "ALL_GATHER", 4096)},
                               {Comp(1, 10), Coll(2, "ALL_GATHER", 4096)}}),
                        &w2);
        NS_TEST_ASSERT_MSG_EQ(w2.size(), 1u, "the overlap the trace allows");
        NS_TEST_EXPECT_MSG_NE(w2[0].find("2 collective(s) could run beside other nodes"),
                              std::string::npos,
                              w2[0]);

        // A compute node without a duration takes none, and says so.
        std::vector<std::string> w3;
        RdmaChakraSteps(Trace({{Comp(1, 0), Coll(2, "ALL_GATHER", 4096, {1})},
                               {Comp(1, 0), Coll(2, "ALL_GATHER", 4096, {1})}}),
                        &w3);
        NS_TEST_ASSERT_MSG_EQ(w3.size(), 1u, "the untimed compute");
        NS_TEST_EXPECT_MSG_NE(w3[0].find("2 COMP_NODE(s) without duration_micros"),
                              std::string::npos,
                              w3[0]);
    }
};

/// Traces the steps cannot run: each refused, naming the file and node.
class StepsErrorsTestCase : public TestCase
{
  public:
    StepsErrorsTestCase()
        : TestCase("Steps refused: a missing dependency, a cycle, point-to-point, a collective "
                   "without comm_type or on some dimensions, ranks that differ")
    {
    }

  private:
    void DoRun() override
    {
        auto error = [](std::vector<std::vector<RdmaChakraNode>> ranks) {
            return rdmatest::ErrorOf<std::runtime_error>(
                [&] { RdmaChakraSteps(Trace(std::move(ranks)), nullptr); });
        };
        RdmaChakraNode partial = Coll(1, "ALL_REDUCE", 64);
        partial.involvedDims = {true, false};
        RdmaChakraNode send = Node(1, RdmaChakraNode::SEND);
        send.peer = 1;
        const std::vector<std::pair<std::vector<std::vector<RdmaChakraNode>>, std::string>> cases{
            {{{Comp(1, 1, {7})}},
             "r.0.et: node 1 (n1) depends on node 7, which the file does not have"},
            {{{Comp(1, 1, {2}), Comp(2, 1, {1})}},
             "r.0.et: node 1 (n1) is on a cycle of dependencies"},
            {{{send}}, "r.0.et: node 1 (n1): COMM_SEND_NODE: point-to-point nodes are not run"},
            {{{Coll(1, "", 64)}}, "r.0.et: node 1 (n1): a COMM_COLL_NODE without comm_type"},
            {{{partial}}, "r.0.et: node 1 (n1): involved_dim leaves out a network dimension"},
            {{{Coll(1, "ALL_REDUCE", 64)}, {Coll(1, "ALL_REDUCE", 128)}},
             "r.1.et: node 1 (n1): collective 1 of rank 1 is ALL_REDUCE of 128 bytes, rank 0's "
             "(r.0.et: node 1 (n1)) is ALL_REDUCE of 64 bytes"},
            {{{Coll(1, "ALL_REDUCE", 64)},
              {Coll(1, "ALL_REDUCE", 64), Coll(2, "ALL_REDUCE", 64, {1})}},
             "r.1.et: rank 1 runs 2 collectives, rank 0 (r.0.et) 1"},
        };
        for (const auto& [ranks, expected] : cases)
        {
            const std::string e = error(ranks);
            NS_TEST_EXPECT_MSG_EQ(e.rfind(expected, 0),
                                  0u,
                                  "'" << e << "' starts with '" << expected << "'");
        }
    }
};

} // namespace

/// The Chakra execution trace suite.
class RdmaChakraTestSuite : public TestSuite
{
  public:
    RdmaChakraTestSuite()
        : TestSuite("rdma-chakra", UNIT)
    {
        AddTestCase(new GeneratorTracesTestCase, TestCase::QUICK);
        AddTestCase(new BadTracesTestCase, TestCase::QUICK);
        AddTestCase(new StepsTestCase, TestCase::QUICK);
        AddTestCase(new StepsErrorsTestCase, TestCase::QUICK);
    }
};

static RdmaChakraTestSuite g_rdmaChakraTestSuite; //!< registers the suite
