/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * sim.fastForward = check's comparison (RdmaCompareFastForward): two runs'
 * collectives.csv, jobs.csv and fct.csv matched row by row, the relative
 * error of each time, the rows that only one run has, and summary.json's
 * counters side by side.
 */

#include "ns3/rdma-fast-forward-check.h"
#include "ns3/test.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// Write a file. \param path where \param text what
void
Write(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

/// \return a file's text \param path the file
std::string
Read(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// \return a new folder under TMPDIR (or /tmp)
std::string
MakeFolder()
{
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp ? tmp : "/tmp") + "/rdma-ff-check-XXXXXX";
    return mkdtemp(pattern.data()) ? pattern : std::string();
}

/**
 * A collective 1 % slower fast-forwarded, one equal, one the packet-level
 * run did not finish; an iteration 0.5 % faster; a flow equal.
 */
class CompareTestCase : public TestCase
{
  public:
    CompareTestCase()
        : TestCase("check: per-row relative errors, fast over packet-level minus 1 (1 % CCT, 0.5 % "
                   "iteration), "
                   "a row only one run finished, the CSV written")
    {
    }

  private:
    void DoRun() override
    {
        const std::string fast = MakeFolder();
        const std::string packet = MakeFolder();
        NS_TEST_ASSERT_MSG_EQ(fast.empty() || packet.empty(), false, "temporary folders");
        const std::string head = "job,iteration,item,layer,cct_ns,status\n";
        Write(fast + "/collectives.csv", head + "0,0,1,a,1010,done\n0,0,3,b,500,done\n0,0,5,c,70,done\n");
        Write(packet + "/collectives.csv", head + "0,0,1,a,1000,done\n0,0,3,b,500,done\n0,0,5,c,,incomplete\n");
        Write(fast + "/jobs.csv", "job,iteration,time_ns\n0,0,1990\n");
        Write(packet + "/jobs.csv", "job,iteration,time_ns\n0,0,2000\n");
        Write(fast + "/fct.csv", "id,fct_ns\n7,300\n");
        Write(packet + "/fct.csv", "id,fct_ns\n7,300\n");
        Write(fast + "/summary.json",
              R"({"link_transmissions": 980, "ecn_marks": 5, "pfc": {"pause_frames": 3},
                  "link_load": {"tier1": {"tx_bytes": 4000}}})");
        Write(packet + "/summary.json",
              R"({"link_transmissions": 1000, "ecn_marks": 5, "pfc": {"pause_frames": 0},
                  "link_load": {"tier1": {"tx_bytes": 4100}}})");
        const RdmaFastForwardCheck c = RdmaCompareFastForward(fast, packet);
        NS_TEST_EXPECT_MSG_EQ(c.compared, 9, "3 collectives, 1 iteration, 1 flow, 4 counters");
        NS_TEST_EXPECT_MSG_EQ(c.differ, 6, "item 1, item 5 (fast only), the iteration; "
                                           "transmissions, pauses, tier 1 bytes");
        // 980 / 1000 - 1; a counter the packet-level run did not count has no error.
        NS_TEST_EXPECT_MSG_EQ_TOL(c.counterError, 0.02439, 1e-5, "|4000 / 4100 - 1|");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.collectiveError, 0.01, 1e-12, "1010 / 1000 - 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.iterationError, 0.005, 1e-12, "|1990 / 2000 - 1|");
        NS_TEST_EXPECT_MSG_EQ(c.flowError, 0, "equal");
        NS_TEST_EXPECT_MSG_EQ(c.worst, "collective job 0 iteration 0 item 1", "the worst row");
        const std::string csv = Read(fast + "/fast-forward-check.csv");
        NS_TEST_EXPECT_MSG_NE(csv.find("collective,0,0,1,1010,1000,0.01,differs\n"),
                              std::string::npos,
                              csv);
        NS_TEST_EXPECT_MSG_NE(csv.find("collective,0,0,5,70,,,only fast-forwarded\n"),
                              std::string::npos,
                              csv);
        NS_TEST_EXPECT_MSG_NE(csv.find("flow,,,7,300,300,0,same\n"), std::string::npos, csv);
        NS_TEST_EXPECT_MSG_NE(csv.find("counter,,,link_transmissions,980,1000,-0.02,differs\n"),
                              std::string::npos,
                              csv);
        NS_TEST_EXPECT_MSG_NE(csv.find("counter,,,pfc.pause_frames,3,0,0,differs\n"),
                              std::string::npos,
                              csv);
        NS_TEST_EXPECT_MSG_NE(csv.find("counter,,,ecn_marks,5,5,0,same\n"), std::string::npos, csv);
        Write(packet + "/jobs.csv", "job,time_ns\n0,2000\n");
        bool threw = false;
        try
        {
            RdmaCompareFastForward(fast, packet);
        }
        catch (const std::runtime_error& e)
        {
            threw = std::string(e.what()) == packet + "/jobs.csv:1: no column iteration";
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "a missing column names the file");
        for (const std::string& d : {fast, packet})
        {
            for (const char* f : {"collectives.csv",
                                  "jobs.csv",
                                  "fct.csv",
                                  "summary.json",
                                  "fast-forward-check.csv"})
            {
                std::remove((d + "/" + f).c_str());
            }
            std::remove(d.c_str());
        }
    }
};

/// The suite.
class RdmaFastForwardCheckTestSuite : public TestSuite
{
  public:
    RdmaFastForwardCheckTestSuite()
        : TestSuite("rdma-fast-forward-check", UNIT)
    {
        AddTestCase(new CompareTestCase(), TestCase::QUICK);
    }
};

RdmaFastForwardCheckTestSuite g_rdmaFastForwardCheckTestSuite; //!< static instance

} // namespace
