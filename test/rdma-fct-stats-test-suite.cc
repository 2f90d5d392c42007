/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FCT statistics and outputs: the ideal FCT against the HPCC simulator's
 * own outputs, fct.txt byte for byte against its sample files, slowdown
 * percentiles by size bucket, atomic file writes.
 */

#include "rdma-test-data.h"

#include "ns3/rdma-module.h"
#include "ns3/test.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// The whole text of a file.
std::string
Slurp(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// One line of HPCC's fct.txt, parsed.
struct HpccLine
{
    uint32_t sip, dip, sport, dport;
    uint64_t size, start, fct, ideal;
};

/// Parse an HPCC fct.txt.
std::vector<HpccLine>
ReadHpccFct(const std::string& path)
{
    std::vector<HpccLine> lines;
    std::ifstream in(path);
    HpccLine l;
    while (in >> std::hex >> l.sip >> l.dip >> std::dec >> l.sport >> l.dport >> l.size >>
           l.start >> l.fct >> l.ideal)
    {
        lines.push_back(l);
    }
    return lines;
}

/// Ideal FCT: HPCC's numbers and ours.
class IdealFctTestCase : public TestCase
{
  public:
    IdealFctTestCase()
        : TestCase("ideal FCT = base RTT + (size + ceil(size over payload) x overhead) x 8 over "
                   "rate, HPCC sample-output values and the RoCEv2 wire")
    {
    }

  private:
    void DoRun() override
    {
        // HPCC sample-output/*.fct.txt (topology.txt: one switch, two 1 us
        // 100 Gb/s hops): base RTT = 2 x 2 us + 2 x 1000 x 8 / 100e9 = 4160 ns.
        RdmaIdealFct hpcc = RdmaIdealFct::Hpcc();
        Time base = NanoSeconds(4160);
        DataRate r("100Gbps");
        NS_TEST_EXPECT_MSG_EQ(hpcc.Compute(200000000, base, r).GetNanoSeconds(),
                              16772160,
                              "example_hpcc.fct.txt: 200 MB");
        NS_TEST_EXPECT_MSG_EQ(hpcc.Compute(5000000, base, r).GetNanoSeconds(),
                              423360,
                              "incast64_dcqcn_smallbuf.fct.txt: 5 MB");
        for (const HpccLine& l : ReadHpccFct(DataPath("hpcc/incast64_dcqcn_smallbuf.fct.txt")))
        {
            NS_TEST_EXPECT_MSG_EQ(hpcc.Compute(l.size, base, r).GetNanoSeconds(),
                                  int64_t(l.ideal),
                                  "ideal of a " << l.size << " B flow");
        }
        // RoCEv2, 1024-byte MTU, 82 bytes a packet: 1e6 B is 977 packets,
        // 1e6 + 977 x 82 = 1080114 B = 86409.12 ns at 100 Gb/s, + 2 us.
        RdmaIdealFct roce;
        NS_TEST_EXPECT_MSG_EQ(roce.Compute(1000000, NanoSeconds(2000), r).GetNanoSeconds(),
                              88409,
                              "1 MB on the RoCEv2 wire");
        NS_TEST_EXPECT_MSG_EQ(roce.Compute(18, Time(0), r).GetNanoSeconds(),
                              8,
                              "18 B: one packet of 100 B = 8 ns");
        NS_TEST_EXPECT_MSG_EQ(RdmaSlowdown(NanoSeconds(90), NanoSeconds(100)), 1.0, "floor at 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(RdmaSlowdown(NanoSeconds(250), NanoSeconds(100)),
                                  2.5,
                                  1e-12,
                                  "ratio");
    }
};

/// fct.txt reproduces HPCC's files.
class HpccFctFormatTestCase : public TestCase
{
  public:
    HpccFctFormatTestCase()
        : TestCase("fct.txt: records made from HPCC's sample outputs print the same bytes")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* name :
             {"hpcc/example_hpcc.fct.txt", "hpcc/incast64_dcqcn_smallbuf.fct.txt"})
        {
            std::string path = DataPath(name);
            std::vector<RdmaFctRecord> records;
            uint32_t id = 0;
            for (const HpccLine& l : ReadHpccFct(path))
            {
                RdmaFctRecord r;
                r.flow.id = id++;
                r.flow.src = (l.sip >> 8) & 0xffff; // the analysis scripts' rule
                r.flow.dst = (l.dip >> 8) & 0xffff;
                r.flow.dport = static_cast<uint16_t>(l.dport);
                r.flow.size = l.size;
                r.flow.start = NanoSeconds(l.start);
                r.completed = true;
                r.fct = NanoSeconds(l.fct);
                r.ideal = NanoSeconds(l.ideal);
                records.push_back(r);
            }
            NS_TEST_ASSERT_MSG_GT(records.size(), 1u, name);
            // Completion order is the file order; shuffle to show the writer sorts.
            std::reverse(records.begin(), records.end());
            NS_TEST_EXPECT_MSG_EQ(RdmaFormatHpccFctTxt(records), Slurp(path), name);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaHpccHostIp(13), 0x0b000d01u, "node 13 is 0b000d01");
        NS_TEST_EXPECT_MSG_EQ(RdmaHpccHostIp(300), 0x0b012c01u, "node 300 is 11.1.44.1");
    }
};

/// Flows still running at the run's end: counted, with lower bounds.
class UnfinishedFlowsTestCase : public TestCase
{
  public:
    UnfinishedFlowsTestCase()
        : TestCase("unfinished flows: slowdown >= (end - start) over ideal, counted per bucket, "
                   "and lower bounds on the percentiles with them")
    {
    }

  private:
    void DoRun() override
    {
        // Four 1 MB flows from t = 0 on a path of base RTT 2 us at 100 Gb/s:
        // ideal 88,409 ns each (IdealFctTestCase). Two finish (slowdown 1 and
        // 2), one is still running at the end (2 ms), one fails.
        std::vector<RdmaFlow> flows(4);
        std::vector<RdmaFlowResult> results(4);
        for (uint32_t i = 0; i < 4; ++i)
        {
            flows[i].id = i;
            flows[i].src = 0;
            flows[i].dst = 1;
            flows[i].size = 1000000;
            flows[i].start = Time(0);
        }
        results[0].completed = true;
        results[0].completion = NanoSeconds(88409);
        results[1].completed = true;
        results[1].completion = NanoSeconds(2 * 88409);
        results[3].completed = true;
        results[3].status = IBV_WC_RETRY_EXC_ERR;
        results[3].completion = MicroSeconds(500);
        const auto path = [](uint32_t, uint32_t) {
            return RdmaPathInfo{NanoSeconds(2000), DataRate("100Gbps")};
        };
        const auto records =
            RdmaMakeFctRecords(flows, results, path, RdmaIdealFct(), MilliSeconds(2));
        NS_TEST_EXPECT_MSG_EQ(records[2].Unfinished(), true, "no completion, a QP: unfinished");
        NS_TEST_EXPECT_MSG_EQ(records[2].StatusName(), "INCOMPLETE", "fct.csv's status");
        NS_TEST_EXPECT_MSG_EQ(records[3].Unfinished(), false, "a failed flow is not unfinished");
        NS_TEST_EXPECT_MSG_EQ_TOL(records[2].slowdownAtLeast,
                                  2e6 / 88409,
                                  1e-9,
                                  "2 ms so far over the ideal 88,409 ns");
        const auto b = RdmaSlowdownPercentiles(records);
        NS_TEST_EXPECT_MSG_EQ(b[3].flows, 2u, "the percentiles rest on the two done");
        NS_TEST_EXPECT_MSG_EQ(b[3].p99, 2.0, "p99 of {1, 2}");
        NS_TEST_EXPECT_MSG_EQ(b[3].unfinished, 1u, "one unfinished in 1-10 MB");
        NS_TEST_EXPECT_MSG_EQ_TOL(b[3].unfinishedAtLeast, 2e6 / 88409, 1e-9, "its bound");
        NS_TEST_EXPECT_MSG_EQ(b[3].p50AtLeast, 2.0, "{1, 2, 22.6}: ceil(1.5) = 2nd");
        NS_TEST_EXPECT_MSG_EQ_TOL(b[3].p99AtLeast, 2e6 / 88409, 1e-9, "p99 is the unfinished flow");
        NS_TEST_EXPECT_MSG_EQ(b[0].unfinished, 0u, "none elsewhere");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(b[0].p99AtLeast), true, "no bound without unfinished flows");
    }
};

/// Percentiles by size bucket.
class PercentileTestCase : public TestCase
{
  public:
    PercentileTestCase()
        : TestCase("slowdown p50, p95, p99 per size bucket by nearest rank; failures left out")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<RdmaFctRecord> records;
        for (uint32_t k = 1; k <= 100; ++k)
        {
            RdmaFctRecord r;
            r.flow.size = 1000 + k; // bucket [0, 10 KB)
            r.completed = true;
            r.slowdown = 101 - k; // 100 .. 1, unsorted
            records.push_back(r);
        }
        for (uint32_t k = 1; k <= 10; ++k)
        {
            RdmaFctRecord r;
            r.flow.size = 2000000; // bucket [1 MB, 10 MB)
            r.completed = true;
            r.slowdown = k;
            records.push_back(r);
        }
        RdmaFctRecord failed;
        failed.flow.size = 2000000;
        failed.completed = true;
        failed.status = IBV_WC_RETRY_EXC_ERR;
        failed.slowdown = 1000;
        records.push_back(failed);
        auto b = RdmaSlowdownPercentiles(records);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 5u, "default buckets");
        NS_TEST_EXPECT_MSG_EQ(b[0].flows, 100u, "small flows");
        NS_TEST_EXPECT_MSG_EQ(b[0].p50, 50.0, "ceil(0.5 x 100) = 50th");
        NS_TEST_EXPECT_MSG_EQ(b[0].p95, 95.0, "95th");
        NS_TEST_EXPECT_MSG_EQ(b[0].p99, 99.0, "99th");
        NS_TEST_EXPECT_MSG_EQ(b[1].flows, 0u, "10-100 KB empty");
        NS_TEST_EXPECT_MSG_EQ(b[1].HasFlows(), false, "an empty bucket measured nothing");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(b[1].p50) && std::isnan(b[1].p95) && std::isnan(b[1].p99),
                              true,
                              "an empty bucket has no percentiles (NaN), not a slowdown of 0");
        NS_TEST_EXPECT_MSG_EQ(b[3].flows, 10u, "the failed flow is left out");
        NS_TEST_EXPECT_MSG_EQ(b[3].p50, 5.0, "ceil(0.5 x 10) = 5th");
        NS_TEST_EXPECT_MSG_EQ(b[3].p95, 10.0, "ceil(9.5) = 10th");
        NS_TEST_EXPECT_MSG_EQ(b[3].minSize, 1000000u, "bucket start");
        NS_TEST_EXPECT_MSG_EQ(b[3].maxSize, 10000000u, "bucket end");
    }
};

/// Atomic file writes.
class AtomicWriteTestCase : public TestCase
{
  public:
    AtomicWriteTestCase()
        : TestCase("outputs are written atomically: content replaced, no temporary file left, "
                   "errors name the path")
    {
    }

  private:
    void DoRun() override
    {
        std::string e;
        // Atomic writes: the content, no temporary left, errors name the path.
        std::string path = CreateTempDirFilename("fct.csv");
        RdmaWriteFileAtomically(path, "old\n");
        RdmaWriteFileAtomically(path, "new\n");
        NS_TEST_EXPECT_MSG_EQ(Slurp(path), "new\n", "replaced");
        std::string dir = path.substr(0, path.rfind('/'));
        uint32_t temps = 0;
        if (DIR* d = opendir(dir.c_str()))
        {
            while (dirent* entry = readdir(d))
            {
                temps += std::string(entry->d_name).find(".tmp.") != std::string::npos;
            }
            closedir(d);
        }
        NS_TEST_EXPECT_MSG_EQ(temps, 0u, "no temporary file left");
        e.clear();
        try
        {
            RdmaWriteFileAtomically("/nonexistent-dir/fct.csv", "x");
        }
        catch (const std::runtime_error& x)
        {
            e = x.what();
        }
        NS_TEST_EXPECT_MSG_EQ(e.rfind("/nonexistent-dir/fct.csv: cannot create", 0), 0u, e);
        // A new file (the output stage's): written whole with a plain
        // create's mode; one that exists is refused and left as it was.
        const std::string fresh = dir + "/qlen.csv";
        RdmaWriteNewFile(fresh, "time_ns\n");
        NS_TEST_EXPECT_MSG_EQ(Slurp(fresh), "time_ns\n", "written");
        struct stat st;
        const mode_t mask = ::umask(0);
        ::umask(mask);
        NS_TEST_ASSERT_MSG_EQ(::stat(fresh.c_str(), &st), 0, "exists");
        NS_TEST_EXPECT_MSG_EQ((st.st_mode & 0777), (0666 & ~mask), "a plain create's mode");
        e.clear();
        try
        {
            RdmaWriteNewFile(fresh, "other\n");
        }
        catch (const std::runtime_error& x)
        {
            e = x.what();
        }
        NS_TEST_EXPECT_MSG_EQ(e, fresh + ": cannot create it: " + std::strerror(EEXIST), e);
        NS_TEST_EXPECT_MSG_EQ(Slurp(fresh), "time_ns\n", "left as it was");
    }
};

} // namespace

/// The FCT-statistics suite.
class RdmaFctStatsTestSuite : public TestSuite
{
  public:
    RdmaFctStatsTestSuite()
        : TestSuite("rdma-fct-stats", UNIT)
    {
        AddTestCase(new IdealFctTestCase, TestCase::QUICK);
        AddTestCase(new HpccFctFormatTestCase, TestCase::QUICK);
        AddTestCase(new PercentileTestCase, TestCase::QUICK);
        AddTestCase(new UnfinishedFlowsTestCase, TestCase::QUICK);
        AddTestCase(new AtomicWriteTestCase, TestCase::QUICK);
    }
};

static RdmaFctStatsTestSuite g_rdmaFctStatsTestSuite; //!< registers the suite
