/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Workload inputs: the flow-size CDF (HPCC traffic_gen format, validation
 * and sampling), the HPCC flow-file reader, and the flow generators
 * (Poisson load, incast, permutation, all-to-all, operation mix).
 * Statistical checks state their bound: k standard deviations of the
 * quantity, with the standard deviation computed from the CDF itself.
 */

#include "rdma-test-data.h"

#include "ns3/random-variable-stream.h"
#include "ns3/rdma-module.h"
#include "ns3/test.h"

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// A file of the module's data/ folder.
std::string
Data(const std::string& name)
{
    return rdmatest::DataPath("../../data/" + name);
}

/// Second moment E[S^2] of the piecewise-linear CDF: sizes uniform inside
/// each segment, E[S^2 | segment] = (a^2 + ab + b^2) / 3.
double
SecondMoment(const RdmaFlowSizeCdf& cdf)
{
    const auto& p = cdf.GetPoints();
    double s = 0;
    for (std::size_t i = 1; i < p.size(); ++i)
    {
        double a = p[i - 1].first;
        double b = p[i].first;
        s += (a * a + a * b + b * b) / 3 * (p[i].second - p[i - 1].second) / 100;
    }
    return s;
}

/// \return the message of the runtime_error fn throws, or "" if none
template <typename F>
std::string
ErrorOf(F fn)
{
    try
    {
        fn();
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}

/// One malformed input and the error it must give.
struct BadInput
{
    const char* text;     //!< the input
    const char* where;    //!< how the message starts ("<name>:<line>:")
    const char* expected; //!< what the message must contain
};

/// A test case that feeds malformed inputs to a parser.
class BadInputTestCase : public TestCase
{
  public:
    /// \param name the case's name
    explicit BadInputTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /// Parse each input; its error must start with `where` and contain `expected`.
    void CheckErrors(const std::vector<BadInput>& cases,
                     const std::function<void(std::istream&)>& parse)
    {
        for (const BadInput& c : cases)
        {
            std::istringstream in(c.text);
            std::string e = ErrorOf([&]() { parse(in); });
            NS_TEST_EXPECT_MSG_EQ(e.rfind(c.where, 0), 0u, "'" << e << "' starts with " << c.where);
            NS_TEST_EXPECT_MSG_NE(e.find(c.expected), std::string::npos, e);
        }
    }
};

/// The four CDFs: point counts and trapezoid means.
class CdfFilesTestCase : public TestCase
{
  public:
    CdfFilesTestCase()
        : TestCase("the four HPCC CDFs: point counts, trapezoid means (custom_rand.getAvg)")
    {
    }

  private:
    void DoRun() override
    {
        // Means by the trapezoid rule, sum (x0 + x1) / 2 x (y1 - y0) / 100,
        // worked by hand for the small files from their points.
        struct
        {
            const char* file;
            std::size_t points;
            double mean;
            double max;
        } files[] = {
            {"WebSearch_distribution.txt", 12, 1711250.0, 30e6},
            {"FbHdp_distribution.txt", 20, 120420.75, 10e6},
            {"AliStorage2019.txt", 9, 40869.8, 2e6},
            {"GoogleRPC2008.txt", 843, 2891.62125005, 15158197},
        };

        for (const auto& f : files)
        {
            RdmaFlowSizeCdf cdf = RdmaFlowSizeCdf::FromFile(Data(std::string("cdf/") + f.file));
            NS_TEST_EXPECT_MSG_EQ(cdf.GetPoints().size(), f.points, f.file);
            NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetMean(), f.mean, f.mean * 1e-9, f.file);
            NS_TEST_EXPECT_MSG_EQ(cdf.GetMax(), f.max, f.file);
        }
        // WebSearch by hand: 5000 x 15 + 15000 x 5 + 25000 x 10 + 40000 x 10
        // + 65000 x 13 + 140000 x 7 + 600000 x 10 + 1.5e6 x 10 + 3.5e6 x 10
        // + 7.5e6 x 7 + 20e6 x 3 = 171125000, / 100.
        NS_TEST_EXPECT_MSG_EQ(5000 * 15 + 15000 * 5 + 25000 * 10 + 40000 * 10 + 65000 * 13 +
                                  140000 * 7 + 600000 * 10 + 1500000 * 10 + 3500000 * 10 +
                                  7500000 * 7 + 20000000 * 3,
                              171125000,
                              "hand sum");
    }
};

/// Sampling rule: interpolation, truncation, 0 -> 1.
class CdfSamplingRuleTestCase : public TestCase
{
  public:
    CdfSamplingRuleTestCase()
        : TestCase("CDF sampling follows custom_rand.getValueFromPercentile, int(), 0 -> 1")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowSizeCdf ws = RdmaFlowSizeCdf::FromFile(Data("cdf/WebSearch_distribution.txt"));
        NS_TEST_EXPECT_MSG_EQ(ws.SizeAt(0), 1u, "r = 0 gives size 0, made 1");
        NS_TEST_EXPECT_MSG_EQ(ws.SizeAt(7.5), 5000u, "half of the first segment");
        NS_TEST_EXPECT_MSG_EQ(ws.SizeAt(15), 10000u, "a point exactly");
        NS_TEST_EXPECT_MSG_EQ(ws.SizeAt(17.5), 15000u, "10000 + 10000 x 2.5 / 5");
        // 10e6 + 20e6 x (99 - 97) / 3 = 23333333.33, truncated.
        NS_TEST_EXPECT_MSG_EQ(ws.SizeAt(99), 23333333u, "truncated, not rounded");
        NS_TEST_EXPECT_MSG_EQ(ws.SizeAt(99.999999), 29999993u, "near the top");
        // A CDF that does not start at size 0.
        RdmaFlowSizeCdf c({{1000, 0}, {3000, 50}, {5000, 100}});
        NS_TEST_EXPECT_MSG_EQ(c.SizeAt(25), 2000u, "first segment");
        NS_TEST_EXPECT_MSG_EQ(c.SizeAt(75), 4000u, "second segment");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.GetMean(), 3000.0, 1e-9, "(2000 x 50 + 4000 x 50) / 100");
    }
};

/// Sample means against the CDF means.
class CdfSampleMeanTestCase : public TestCase
{
  public:
    CdfSampleMeanTestCase()
        : TestCase(
              "mean of 10^6 samples within 4 sigma over sqrt(n) plus 1 B of the CDF mean, each CDF")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 1000000;
        int64_t stream = 100;
        for (const char* f : {"WebSearch_distribution.txt",
                              "FbHdp_distribution.txt",
                              "AliStorage2019.txt",
                              "GoogleRPC2008.txt"})
        {
            RdmaFlowSizeCdf cdf = RdmaFlowSizeCdf::FromFile(Data(std::string("cdf/") + f));
            auto u = CreateObject<UniformRandomVariable>();
            u->SetStream(stream++);
            double sum = 0;
            for (uint32_t i = 0; i < n; ++i)
            {
                sum += cdf.Sample(u);
            }
            double mean = cdf.GetMean();
            double sigma = std::sqrt(SecondMoment(cdf) - mean * mean);
            // Truncation to an integer lowers a sample by < 1 byte (and 0 -> 1
            // raises a rare one by 1).
            double bound = 4 * sigma / std::sqrt(double(n)) + 1;
            NS_TEST_EXPECT_MSG_EQ_TOL(sum / n, mean, bound, f);
        }
    }
};

/// Every malformed CDF names its line.
class CdfErrorsTestCase : public BadInputTestCase
{
  public:
    CdfErrorsTestCase()
        : BadInputTestCase("bad CDF files: each error names the file, line and what was expected")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<BadInput> cases = {
            {"0 1\n10 100\n", "bad.txt:1:", "first point's cumulative_percent to be 0"},
            {"0 0\n10 50\n20 90\n", "bad.txt:3:", "last point's cumulative_percent to be 100"},
            {"0 0\n10 50\n10 60\n20 100\n", "bad.txt:3:", "size_bytes to increase"},
            {"0 0\n10 50\n20 50\n30 100\n", "bad.txt:3:", "cumulative_percent to increase"},
            {"0 0\n10\n20 100\n", "bad.txt:2:", "'<size_bytes> <cumulative_percent>', got 1"},
            {"0 0\n10 50 7\n20 100\n", "bad.txt:2:", "got 3 fields"},
            {"0 0\nten 50\n20 100\n", "bad.txt:2:", "size_bytes (a number), got 'ten'"},
            {"0 0\n10 5O\n20 100\n", "bad.txt:2:", "cumulative_percent (a number), got '5O'"},
            {"-5 0\n10 100\n", "bad.txt:1:", "size_bytes >= 0"},
            {"0 0\n\n10 40\n10 100\n", "bad.txt:4:", "size_bytes to increase"},
            {"0 0\n", "bad.txt:1:", "at least two points"},
            // Found by fuzz-cdf: SizeAt converted 1e54 to uint64_t (undefined).
            {"0 0\n1e54 100\n", "bad.txt:2:", "size_bytes <= 2^53, got"},
            {"", "bad.txt:0:", "at least two points"},
        };

        CheckErrors(cases, [](std::istream& in) { RdmaFlowSizeCdf::Parse(in, "bad.txt"); });
        // Blank lines are skipped; the rest of the file is still read.
        std::istringstream ok("0 0\n\n10 40\n   \n20 100\n");
        NS_TEST_EXPECT_MSG_EQ(RdmaFlowSizeCdf::Parse(ok, "ok").GetPoints().size(), 3u, "blank");
        // From a file on disk: its path in the message.
        std::string path = CreateTempDirFilename("bad-cdf.txt");
        RdmaWriteFileAtomically(path, "0 0\n10 60\n5 100\n");
        std::string e = ErrorOf([&path]() { RdmaFlowSizeCdf::FromFile(path); });
        NS_TEST_EXPECT_MSG_EQ(e.rfind(path + ":3: expected size_bytes to increase", 0), 0u, e);
        e = ErrorOf([]() { RdmaFlowSizeCdf::FromFile("/nonexistent/cdf.txt"); });
        NS_TEST_EXPECT_MSG_EQ(e, "/nonexistent/cdf.txt: cannot open file", "missing file");
        e = ErrorOf([]() { RdmaFlowSizeCdf({{0, 0}, {10, 100}, {20, 100}}, "points"); });
        NS_TEST_EXPECT_MSG_NE(e.find("points: point 3: expected cumulative_percent to increase"),
                              std::string::npos,
                              e);
    }
};

/// The reference HPCC flow files.
class FlowFileReferenceTestCase : public TestCase
{
  public:
    FlowFileReferenceTestCase()
        : TestCase("HPCC flow files: counts, first and last records, flow.txt reads only its 2")
    {
    }

  private:
    void Expect(const RdmaFlow& f,
                uint32_t src,
                uint32_t dst,
                uint64_t size,
                int64_t startNs,
                const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(f.src, src, what << " src");
        NS_TEST_EXPECT_MSG_EQ(f.dst, dst, what << " dst");
        NS_TEST_EXPECT_MSG_EQ(+f.priority, 3, what << " pg");
        NS_TEST_EXPECT_MSG_EQ(f.dport, 100, what << " dport");
        NS_TEST_EXPECT_MSG_EQ(f.size, size, what << " size");
        NS_TEST_EXPECT_MSG_EQ(f.start.GetNanoSeconds(), startNs, what << " start");
        NS_TEST_EXPECT_MSG_EQ(RdmaFlowOpName(f.op), "WRITE", what << " op");
    }

    void DoRun() override
    {
        auto flow = RdmaReadHpccFlowFile(Data("flows/flow.txt"));
        NS_TEST_ASSERT_MSG_EQ(flow.size(), 2u, "flow.txt declares 2 of its 263 records");
        Expect(flow[0], 2, 1, 200000000, 2000000000, "flow.txt #0");
        Expect(flow[1], 3, 1, 200000000, 2000000000, "flow.txt #1");

        auto incast = RdmaReadHpccFlowFile(Data("flows/incast64.txt"));
        NS_TEST_ASSERT_MSG_EQ(incast.size(), 64u, "incast64");
        std::set<uint32_t> senders;
        for (const RdmaFlow& f : incast)
        {
            NS_TEST_EXPECT_MSG_EQ(f.dst, 1u, "into host 1");
            senders.insert(f.src);
        }
        NS_TEST_EXPECT_MSG_EQ(senders.size(), 64u, "64 distinct senders");

        auto ws1 = RdmaReadHpccFlowFile(Data("flows/ws_fat_l30_t0.001.txt"));
        NS_TEST_ASSERT_MSG_EQ(ws1.size(), 405u, "ws_fat_l30_t0.001");
        Expect(ws1.front(), 13, 6, 24375, 2000000962, "ws 1 ms first");
        Expect(ws1.back(), 191, 155, 60469, 2000950245, "ws 1 ms last");
        NS_TEST_EXPECT_MSG_EQ(ws1.back().id, 404u, "ids are record indices");
        auto ws5 = RdmaReadHpccFlowFile(Data("flows/ws_fat_l30_t0.005.txt"));
        NS_TEST_ASSERT_MSG_EQ(ws5.size(), 3201u, "ws_fat_l30_t0.005");
        Expect(ws5.back(), 54, 60, 348577, 2004977362, "ws 5 ms last");
        for (const RdmaFlow& f : ws5)
        {
            NS_TEST_ASSERT_MSG_LT(std::max(f.src, f.dst), 320u, "hosts of fat.txt");
        }

        // The counts agree with traffic_gen.py's arrival rule (see
        // RdmaFlowGenerator::Poisson): per host lambda T - 1 + exp(-lambda T)
        // flows, lambda T = T / (avg x 8 / (100 Gb/s x 0.3)), avg = WebSearch
        // mean; the count's standard deviation is at most sqrt(320 lambda T).
        double avg = 1711250.0;
        for (auto [count, seconds] : {std::make_pair(ws1.size(), 1e-3), {ws5.size(), 5e-3}})
        {
            double lt = seconds / (avg * 8 / (100e9 * 0.3));
            double expected = 320 * (lt - 1 + std::exp(-lt));
            NS_TEST_EXPECT_MSG_EQ_TOL(double(count),
                                      expected,
                                      3 * std::sqrt(320 * lt),
                                      "flow count of the " << seconds << " s file");
        }
    }
};

/// Malformed flow files.
class FlowFileErrorsTestCase : public BadInputTestCase
{
  public:
    FlowFileErrorsTestCase()
        : BadInputTestCase(
              "bad HPCC flow files: each error names the file, line and what was expected")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<BadInput> cases = {
            {"", "f.txt:0:", "expected N_flows (the record count), found end of file"},
            {"two\n", "f.txt:1:", "expected N_flows (the record count, a whole number), got 'two'"},
            {"2\n1 2 3 100 1000 2.0\n", "f.txt:2:", "record 2 of 2 (N_flows): src, found end"},
            {"1\n1 2 3 100\n", "f.txt:2:", "record 1 of 1 (N_flows): size_bytes, found end"},
            {"1\n1 1 3 100 1000 2.0\n", "f.txt:2:", "expected dst different from src"},
            {"1\n1 2 9 100 1000 2\n", "f.txt:2:", "expected pg (priority 0-7), got '9'"},
            {"1\n1 2 3 70000 1000 2\n", "f.txt:2:", "expected dport (0-65535), got '70000'"},
            {"1\n1 2 3 100 0 2\n", "f.txt:2:", "expected size_bytes (1-4294967295), got '0'"},
            {"1\n1 2 3 100 4294967296 2\n",
             "f.txt:2:",
             "size_bytes (1-4294967295), got '4294967296'"},
            {"1\n1 2 3 100 1.5 2\n", "f.txt:2:", "size_bytes (1-4294967295), got '1.5'"},
            {"1\n-1 2 3 100 10 2\n", "f.txt:2:", "expected src (a node id), got '-1'"},
            {"1\n1 2 3 100 10 abc\n", "f.txt:2:", "expected start_time_s (seconds), got 'abc'"},
            {"1\n1 2 3 100 10 -2\n", "f.txt:2:", "expected start_time_s >= 0"},
            {"3\n1 2 3 100 10 2.5\n3 4 3 100 10 2.5\n5 6 3 100 10 2.4\n",
             "f.txt:4:",
             "expected start_time_s >= the previous record's 2.500000000 (records sorted by start "
             "time, oldest first), got '2.4'"},
            {"1\n1 2\n3 100\nx 2\n", "f.txt:4:", "size_bytes (1-4294967295), got 'x'"},
            // ConWeave's five fields (its traffic_gen.py writes no dport): every
            // record then on a line of its own with five fields.
            {"2\n1 2 3 4995 2.0\n3 4 3 100 10 2.5\n",
             "f.txt:3:",
             "record 2 of 2 (N_flows): expected five fields on the line (src dst pg size_bytes "
             "start_time_s, as the first record), got 6"},
            {"1\n1 2 3 0 2.0\n", "f.txt:2:", "expected size_bytes (1-4294967295), got '0'"},
            // Found by fuzz-hpcc-flows: the count alone reserved 160 GB.
            {"4000000000\n1 2 3 100 10 2\n", "f.txt:2:", "record 2 of 4000000000 (N_flows): src"},
        };

        CheckErrors(cases, [](std::istream& in) { RdmaParseHpccFlowFile(in, "f.txt"); });
        // Line breaks carry no meaning; what follows N_flows records is ignored.
        std::istringstream split("1\n7 9\n3 200\n1000\n2.000000001\nleftover words\n");
        auto flows = RdmaParseHpccFlowFile(split, "split");
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 1u, "one record over four lines");
        NS_TEST_EXPECT_MSG_EQ(flows[0].dport, 200, "dport");
        NS_TEST_EXPECT_MSG_EQ(flows[0].start.GetNanoSeconds(), 2000000001, "start rounded to ns");
        // ConWeave's simulator's flow file (traffic_gen.py: "%d %d 3 %d %.9f", and a
        // count line "N " with a trailing blank): five fields, dport 100.
        std::istringstream cw("2 \n13 47 3 4995 2.000000027\n9 5 3 3931 2.000000376\nrest\n");
        flows = RdmaParseHpccFlowFile(cw, "cw");
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 2u, "two five-field records");
        NS_TEST_EXPECT_MSG_EQ(flows[0].src, 13u, "src");
        NS_TEST_EXPECT_MSG_EQ(flows[0].dst, 47u, "dst");
        NS_TEST_EXPECT_MSG_EQ(+flows[0].priority, 3, "pg");
        NS_TEST_EXPECT_MSG_EQ(flows[0].size, 4995u, "the fourth field is the size");
        NS_TEST_EXPECT_MSG_EQ(flows[0].dport, 100, "no dport in the file: 100");
        NS_TEST_EXPECT_MSG_EQ(flows[0].start.GetNanoSeconds(), 2000000027, "fifth: start");
        NS_TEST_EXPECT_MSG_EQ(flows[1].src, 9u, "the next line is the next record");
        NS_TEST_EXPECT_MSG_EQ(flows[1].start.GetNanoSeconds(), 2000000376, "its start");
        std::string e = ErrorOf([]() { RdmaReadHpccFlowFile("/nonexistent/flows.txt"); });
        NS_TEST_EXPECT_MSG_EQ(e, "/nonexistent/flows.txt: cannot open file", "missing file");
    }
};

/**
 * htsim connection matrices (RdmaParseConnectionMatrix), as htsim's
 * ConnectionMatrix::load reads them: an incast with a comment, a start of
 * 1.7 us taken as 1 us (htsim's timeFromUs((uint32_t)start)), and every
 * error naming the line.
 */
class ConnectionMatrixTestCase : public BadInputTestCase
{
  public:
    ConnectionMatrixTestCase()
        : BadInputTestCase("htsim connection matrices: flows as htsim reads them (whole "
                           "microseconds); each error names the line")
    {
    }

  private:
    void DoRun() override
    {
        std::istringstream cm("# an incast\nNodes 16\nConnections 2\n0->15 start 0 size 2000000\n"
                              "14->15 id 7 start 1.7 size 4096 prio 2000000\n");
        RdmaConnectionMatrix m = RdmaParseConnectionMatrix(cm, "m.cm");
        NS_TEST_EXPECT_MSG_EQ(m.nodes, 16u, "Nodes");
        NS_TEST_ASSERT_MSG_EQ(m.flows.size(), 2u, "two connections");
        NS_TEST_EXPECT_MSG_EQ(m.flows[1].id, 1u, "ids count from 0, as fct.csv's");
        NS_TEST_EXPECT_MSG_EQ(m.flows[1].src, 14u, "src");
        NS_TEST_EXPECT_MSG_EQ(m.flows[1].dst, 15u, "dst");
        NS_TEST_EXPECT_MSG_EQ(m.flows[1].size, 4096u, "size");
        NS_TEST_EXPECT_MSG_EQ(m.flows[1].start, MicroSeconds(1), "whole microseconds");
        NS_TEST_EXPECT_MSG_EQ((m.flows[0].op == RdmaFlowOp::WRITE), true, "a WRITE");
        std::vector<BadInput> cases = {
            {"Connections 1\n0->1 start 0 size 10\n", "m.cm:2:", "before the 'Nodes' and"},
            {"Nodes 4\nConnections 1\n0->4 start 0 size 10\n", "m.cm:3:", "the destination, a node (0-3)"},
            {"Nodes 4\nConnections 1\n2->2 start 0 size 10\n", "m.cm:3:", "from node 2 to itself"},
            {"Nodes 4\nConnections 1\n0->1 size 10\n", "m.cm:3:", "without 'start'"},
            {"Nodes 4\nConnections 1\n0->1 start 0\n", "m.cm:3:", "without 'size'"},
            {"Nodes 4\nConnections 1\n0->1 start 0 size 0\n", "m.cm:3:", "a size in bytes (1-2147483648)"},
            {"Nodes 4\nConnections 1\n0->1 start -1 size 10\n", "m.cm:3:", "expected a start in"},
            {"Nodes 4\nConnections 1\n0->1 start 0 size 10 color red\n", "m.cm:3:", "got 'color'"},
            {"Nodes 4\nConnections 1\n0->1 start 0 size 10 id\n", "m.cm:3:", "'id' without its value"},
            {"Nodes 4\nConnections 1\n0->1 start 0 size 10 prio 5\n", "m.cm:3:", "no counterpart here"},
            {"Nodes 4\nConnections 1\n0->1 id 1 size 10 trigger 1\n", "m.cm:3:", "htsim's triggers"},
            {"Nodes 4\nConnections 1\nTriggers 1\n", "m.cm:3:", "are not read here"},
            {"Nodes 4\nConnections 1\n0->1 start 0 size 10\n1->0 start 0 size 10\n",
             "m.cm:4:",
             "more connections than the 1"},
            {"Nodes 4\nConnections 2\n0->1 start 0 size 10\n", "m.cm:", "but 1 connections"},
            {"Nodes four\n", "m.cm:1:", "a count"},
            {"", "m.cm:", "expected 'Nodes <N>' and 'Connections <C>'"},
        };
        CheckErrors(cases, [](std::istream& in) { RdmaParseConnectionMatrix(in, "m.cm"); });
    }
};

/// Writer and reader agree.
class FlowFileRoundTripTestCase : public TestCase
{
  public:
    FlowFileRoundTripTestCase()
        : TestCase("generated flows written as an HPCC flow file read back field for field")
    {
    }

  private:
    void DoRun() override
    {
        auto gen = CreateObject<RdmaFlowGenerator>();
        gen->AssignStreams(7);
        RdmaFlowGenerator::PoissonConfig c;
        c.hosts = {0, 1, 2, 3, 4, 5, 6, 7};
        c.start = Seconds(2);
        c.duration = MilliSeconds(5);
        auto flows = gen->Poisson(c, RdmaFlowSizeCdf::FromFile(Data("cdf/FbHdp_distribution.txt")));
        NS_TEST_ASSERT_MSG_GT(flows.size(), 100u, "a few hundred flows");
        std::string path = CreateTempDirFilename("flows.txt");
        RdmaWriteHpccFlowFile(path, flows);
        auto back = RdmaReadHpccFlowFile(path);
        NS_TEST_ASSERT_MSG_EQ(back.size(), flows.size(), "count line");
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(back[i].src, flows[i].src, "src " << i);
            NS_TEST_EXPECT_MSG_EQ(back[i].dst, flows[i].dst, "dst " << i);
            NS_TEST_EXPECT_MSG_EQ(back[i].size, flows[i].size, "size " << i);
            NS_TEST_EXPECT_MSG_EQ(back[i].start, flows[i].start, "start " << i);
        }
    }
};

} // namespace

/// The workload-input suite.
class RdmaWorkloadTestSuite : public TestSuite
{
  public:
    RdmaWorkloadTestSuite()
        : TestSuite("rdma-workload", UNIT)
    {
        AddTestCase(new CdfFilesTestCase, TestCase::QUICK);
        AddTestCase(new CdfSamplingRuleTestCase, TestCase::QUICK);
        AddTestCase(new CdfSampleMeanTestCase, TestCase::QUICK);
        AddTestCase(new CdfErrorsTestCase, TestCase::QUICK);
        AddTestCase(new FlowFileReferenceTestCase, TestCase::QUICK);
        AddTestCase(new FlowFileErrorsTestCase, TestCase::QUICK);
        AddTestCase(new FlowFileRoundTripTestCase, TestCase::QUICK);
        AddTestCase(new ConnectionMatrixTestCase, TestCase::QUICK);
    }
};

static RdmaWorkloadTestSuite g_rdmaWorkloadTestSuite; //!< registers the suite
