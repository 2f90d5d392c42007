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

/// A COMM_SEND_NODE (dst >= 0) or COMM_RECV_NODE (src >= 0) of bytes with comm_tag 0
RdmaChakraNode
P2p(uint64_t id, bool send, int64_t peer, uint64_t bytes, std::vector<uint64_t> deps = {})
{
    RdmaChakraNode n =
        Node(id, send ? RdmaChakraNode::SEND : RdmaChakraNode::RECV, std::move(deps));
    n.peer = peer;
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
        NS_TEST_EXPECT_MSG_EQ(steps[0].kind, RdmaChakraStep::COMPUTE, "compute first");
        NS_TEST_EXPECT_MSG_EQ(steps[0].compute[0], MicroSeconds(10), "rank 0's 10 us");
        NS_TEST_EXPECT_MSG_EQ(steps[0].compute[1], MicroSeconds(20), "rank 1's 20 us");
        NS_TEST_EXPECT_MSG_EQ(steps[1].kind, RdmaChakraStep::COLLECTIVE, "then the all-reduce");
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
        NS_TEST_EXPECT_MSG_NE(w2[0].find("2 communication node(s) could run beside other nodes"),
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

/// Sends and receives: matched, merged into steps the ranks take in turn.
class StepsPointToPointTestCase : public TestCase
{
  public:
    StepsPointToPointTestCase()
        : TestCase("Steps: sends matched with receives as MPI matches them, each rank's "
                   "consecutive ones one step, a forward after its receive, compute first")
    {
    }

  private:
    void DoRun() override
    {
        // A pipeline of three stages: rank 0 computes and sends, rank 1
        // receives, computes and forwards, rank 2 receives.
        const auto steps = RdmaChakraSteps(
            Trace({{Comp(1, 10), P2p(2, true, 1, 4096, {1})},
                   {P2p(1, false, 0, 4096), Comp(2, 5, {1}), P2p(3, true, 2, 4096, {2})},
                   {P2p(1, false, 1, 4096)}}),
            nullptr);
        NS_TEST_ASSERT_MSG_EQ(steps.size(), 4u, "compute, send, compute, send");
        NS_TEST_EXPECT_MSG_EQ(steps[0].kind, RdmaChakraStep::COMPUTE, "rank 0 computes first");
        NS_TEST_EXPECT_MSG_EQ(steps[0].compute[0], MicroSeconds(10), "10 us");
        NS_TEST_EXPECT_MSG_EQ(steps[0].compute[1], Time(0), "rank 1 has no compute yet");
        NS_TEST_ASSERT_MSG_EQ(steps[1].kind, RdmaChakraStep::TRANSFERS, "then its send");
        NS_TEST_ASSERT_MSG_EQ(steps[1].transfers.size(), 1u, "only 0 -> 1: 1 -> 2 comes later");
        NS_TEST_EXPECT_MSG_EQ(steps[1].transfers[0].src, 0u, "from rank 0");
        NS_TEST_EXPECT_MSG_EQ(steps[1].transfers[0].dst, 1u, "to rank 1");
        NS_TEST_EXPECT_MSG_EQ(steps[1].where, "r.0.et: node 2 (n2)", "the send's node");
        NS_TEST_EXPECT_MSG_EQ(steps[2].compute[1], MicroSeconds(5), "rank 1's 5 us");
        NS_TEST_ASSERT_MSG_EQ(steps[3].transfers.size(), 1u, "then 1 -> 2");
        NS_TEST_EXPECT_MSG_EQ(steps[3].transfers[0].src, 1u, "from rank 1");

        // Without the compute, rank 1 forwards in the same step, after its receive.
        const auto relay =
            RdmaChakraSteps(Trace({{P2p(1, true, 1, 4096)},
                                   {P2p(1, false, 0, 4096), P2p(2, true, 2, 4096, {1})},
                                   {P2p(1, false, 1, 4096)}}),
                            nullptr);
        NS_TEST_ASSERT_MSG_EQ(relay.size(), 1u, "one step");
        NS_TEST_ASSERT_MSG_EQ(relay[0].transfers.size(), 2u, "both sends");
        NS_TEST_EXPECT_MSG_EQ(relay[0].transfers[1].src, 1u, "the forward");
        NS_TEST_EXPECT_MSG_EQ((relay[0].transfers[1].after == std::vector<uint32_t>{0}),
                              true,
                              "after the receive of transfer 0");

        // Tags: rank 0 sends tag 2 then tag 1; rank 1 receives tag 1 then
        // tag 2. Each receive takes the send of its tag: one step, no order.
        RdmaChakraNode a = P2p(1, true, 1, 100);
        a.tag = 2;
        RdmaChakraNode b = P2p(2, true, 1, 200, {1});
        b.tag = 1;
        RdmaChakraNode c = P2p(1, false, 0, 200);
        c.tag = 1;
        RdmaChakraNode d = P2p(2, false, 0, 100, {1});
        d.tag = 2;
        const auto tagged = RdmaChakraSteps(Trace({{a, b}, {c, d}}), nullptr);
        NS_TEST_ASSERT_MSG_EQ(tagged.size(), 1u, "one step");
        NS_TEST_ASSERT_MSG_EQ(tagged[0].transfers.size(), 2u, "two sends");
        NS_TEST_EXPECT_MSG_EQ(tagged[0].transfers[0].bytes, 100u, "tag 2's 100 bytes");
        NS_TEST_EXPECT_MSG_EQ(tagged[0].transfers[1].bytes, 200u, "tag 1's 200 bytes");
    }
};

/// Traces the steps cannot run: each refused, naming the file and node.
class StepsErrorsTestCase : public TestCase
{
  public:
    StepsErrorsTestCase()
        : TestCase("Steps refused: a missing dependency, a cycle, a send or receive without a "
                   "peer, a match, one size or a place, a collective without comm_type or on "
                   "some dimensions, ranks that differ")
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
        RdmaChakraNode noPeer = Node(1, RdmaChakraNode::SEND);
        RdmaChakraNode big = P2p(1, false, 0, 64);
        big.bytes = 128;
        const std::vector<std::pair<std::vector<std::vector<RdmaChakraNode>>, std::string>> cases{
            {{{Comp(1, 1, {7})}},
             "r.0.et: node 1 (n1) depends on node 7, which the file does not have"},
            {{{Comp(1, 1, {2}), Comp(2, 1, {1})}},
             "r.0.et: node 1 (n1) is on a cycle of dependencies"},
            {{{noPeer}, {}},
             "r.0.et: node 1 (n1): a COMM_SEND_NODE without comm_dst: the peer rank is not given"},
            {{{P2p(1, true, 5, 64)}, {}},
             "r.0.et: node 1 (n1): comm_dst 5: not a rank of the job (ranks 0 to 1, a file each)"},
            {{{P2p(1, false, 0, 64)}, {}}, "r.0.et: node 1 (n1): comm_src 0: the node's own rank"},
            {{{P2p(1, true, 1, 64)}, {}},
             "r.0.et: node 1 (n1): COMM_SEND_NODE to rank 1 (comm_tag 0) has no match: rank 0 "
             "sends 1 time(s) to rank 1 with comm_tag 0, rank 1 receives 0 time(s) from it with "
             "that tag"},
            {{{P2p(1, true, 1, 64)}, {big}},
             "r.0.et: node 1 (n1): COMM_SEND_NODE to rank 1 (comm_tag 0) sends 64 bytes, its "
             "COMM_RECV_NODE (r.1.et: node 1 (n1)) receives 128"},
            // Rank 1 receives only after an all-reduce rank 0 comes to after its send.
            {{{P2p(1, true, 1, 64), Coll(2, "ALL_REDUCE", 64, {1})},
              {Coll(1, "ALL_REDUCE", 64), P2p(2, false, 0, 64, {1})}},
             "r.0.et: node 1 (n1): COMM_SEND_NODE to rank 1 (comm_tag 0) cannot run: rank 1 "
             "comes to its match (r.1.et: node 2 (n2)) only after r.1.et: node 1 (n1), which "
             "waits for this rank"},
            // Both receive first.
            {{{P2p(1, false, 1, 64), P2p(2, true, 1, 64, {1})},
              {P2p(1, false, 0, 64), P2p(2, true, 0, 64, {1})}},
             "r.0.et: node 2 (n2): COMM_SEND_NODE to rank 1 (comm_tag 0) waits for a receive "
             "before it, whose sender waits in turn for this rank"},
            {{{Coll(1, "", 64)}}, "r.0.et: node 1 (n1): a COMM_COLL_NODE without comm_type"},
            {{{partial}}, "r.0.et: node 1 (n1): involved_dim leaves out a network dimension"},
            {{{Coll(1, "ALL_REDUCE", 64)}, {Coll(1, "ALL_REDUCE", 128)}},
             "r.1.et: node 1 (n1): collective 1 of rank 1 is ALL_REDUCE of 128 bytes, rank 0's "
             "(r.0.et: node 1 (n1)) is ALL_REDUCE of 64 bytes"},
            {{{Coll(1, "ALL_REDUCE", 64)},
              {Coll(1, "ALL_REDUCE", 64), Coll(2, "ALL_REDUCE", 64, {1})}},
             "r.0.et: rank 0 runs 1 collectives, rank 1 (r.1.et) 2"},
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
        AddTestCase(new StepsPointToPointTestCase, TestCase::QUICK);
        AddTestCase(new StepsErrorsTestCase, TestCase::QUICK);
    }
};

static RdmaChakraTestSuite g_rdmaChakraTestSuite; //!< registers the suite
