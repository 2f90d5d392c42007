/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Flow runner: runs of workloads on the TwoHosts fixture
 * (two hosts on one 100 Gb/s link, 1 us propagation delay): every flow
 * completes, FCT >= ideal FCT (and close to it for a flow alone on the
 * link), QP pools and send-queue backlogs, fct.txt lines in HPCC's format,
 * identical fct.csv for the same seed.
 */

#include "rdma-test-data.h"
#include "rdma-test-hosts.h"

#include "ns3/error-model.h"
#include "ns3/rdma-module.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Path of the TwoHosts link: base RTT 2 x 1 us, 100 Gb/s.
RdmaPathInfo
TwoHostPath(uint32_t, uint32_t)
{
    return {NanoSeconds(2000), DataRate("100Gbps")};
}

/// A run on two hosts.
struct TwoHostRun
{
    Ptr<RdmaFlowRunner> runner;         //!< the runner
    std::vector<RdmaFctRecord> records; //!< its records
    std::string csv;                    //!< fct.csv text
    std::string txt;                    //!< fct.txt text
};

/// Run flows on a fresh TwoHosts fixture.
TwoHostRun
RunTwoHosts(const std::vector<RdmaFlow>& flows,
            bool reuse,
            uint32_t qps,
            uint32_t maxWr,
            const std::function<void(TwoHosts&, Ptr<RdmaFlowRunner>)>& setup = {})
{
    TwoHosts::Options o;
    o.dataMode = false;
    TwoHosts h(o);
    TwoHostRun run;
    run.runner = CreateObject<RdmaFlowRunner>();
    run.runner->SetAttribute("QpReuse", BooleanValue(reuse));
    run.runner->SetAttribute("QpsPerPair", UintegerValue(qps));
    run.runner->SetAttribute("MaxSendWr", UintegerValue(maxWr));
    run.runner->SetHosts(h.nodes);
    if (setup)
    {
        setup(h, run.runner);
    }
    run.runner->SetFlows(flows);
    run.runner->Start();
    Simulator::Run();
    run.records = RdmaMakeFctRecords(run.runner->GetFlows(),
                                     run.runner->GetResults(),
                                     &TwoHostPath,
                                     RdmaIdealFct());
    run.csv = RdmaFormatFctCsv(run.records);
    run.txt = RdmaFormatHpccFctTxt(run.records);
    Simulator::Destroy();
    return run;
}

/**
 * The test runner keeps ns-3's default time resolution (ns), so the link
 * truncates each frame's wire time to a whole step (a 1106-byte frame takes
 * 88.48 ns at 100 Gb/s and is sent in 88): a flow of n packets can finish up
 * to n + 1 steps (its frames and the ACK) before the ideal FCT. At the
 * picosecond resolution rdma-sim runs at, that is n + 1 ps.
 * \return the rounding allowance of a record
 */
Time
Rounding(const RdmaFctRecord& r)
{
    return TimeStep((r.flow.size + 1023) / 1024 + 1);
}

/// A flow.
RdmaFlow
Flow(uint32_t id, uint32_t src, RdmaFlowOp op, uint64_t size, Time start)
{
    RdmaFlow f;
    f.id = id;
    f.src = src;
    f.dst = 1 - src;
    f.op = op;
    f.size = size;
    f.start = start;
    return f;
}

/// Isolated flows of each operation.
class IsolatedFlowsTestCase : public TestCase
{
  public:
    IsolatedFlowsTestCase()
        : TestCase("two hosts: WRITE, READ, SEND flows alone on the link complete with ideal "
                   "<= FCT <= ideal + 20 ns (the ACK or READ request), less wire-time rounding")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<RdmaFlow> flows = {
            Flow(0, 0, RdmaFlowOp::WRITE, 1 << 20, MicroSeconds(10)),
            Flow(1, 1, RdmaFlowOp::READ, 256000, MicroSeconds(200)),
            Flow(2, 0, RdmaFlowOp::SEND, 100000, MicroSeconds(400)),
            Flow(3, 0, RdmaFlowOp::WRITE, 1, MicroSeconds(500)),
            Flow(4, 1, RdmaFlowOp::SEND, 3000, MicroSeconds(600)),
            Flow(5, 1, RdmaFlowOp::WRITE, 5000000, MicroSeconds(700)),
        };
        TwoHostRun run = RunTwoHosts(flows, false, 1, 1024);
        NS_TEST_EXPECT_MSG_EQ(run.runner->GetCompletedCount(), flows.size(), "all completed");
        NS_TEST_EXPECT_MSG_EQ(run.runner->GetQpPairsCreated(), flows.size(), "a QP pair each");
        for (const RdmaFctRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(r.status), "IBV_WC_SUCCESS", r.flow.id);
            NS_TEST_EXPECT_MSG_EQ((r.fct >= r.ideal - Rounding(r)),
                                  true,
                                  "flow " << r.flow.id << ": FCT " << r.fct << " >= ideal "
                                          << r.ideal << " - " << Rounding(r));
            NS_TEST_EXPECT_MSG_EQ((r.fct <= r.ideal + NanoSeconds(20)),
                                  true,
                                  "flow " << r.flow.id << ": FCT " << r.fct << " near ideal "
                                          << r.ideal);
        }
        NS_TEST_EXPECT_MSG_EQ(std::count(run.txt.begin(), run.txt.end(), '\n'),
                              int64_t(flows.size()),
                              "one fct.txt line per flow");
    }
};

/// Pools and backlogs.
class QpPoolTestCase : public TestCase
{
  public:
    QpPoolTestCase()
        : TestCase("QP reuse: 2 QP pairs carry 40 WRITEs round robin with MaxSendWr 2; the last "
                   "completes after all bytes crossed the link")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<RdmaFlow> flows;
        for (uint32_t i = 0; i < 40; ++i)
        {
            flows.push_back(Flow(i, 0, RdmaFlowOp::WRITE, 65536, MicroSeconds(1)));
        }
        TwoHostRun run = RunTwoHosts(flows, true, 2, 2);
        NS_TEST_EXPECT_MSG_EQ(run.runner->GetCompletedCount(), 40u, "all completed");
        NS_TEST_EXPECT_MSG_EQ(run.runner->GetFailedCount(), 0u, "none failed");
        NS_TEST_EXPECT_MSG_EQ(run.runner->GetQpPairsCreated(), 2u, "one pool of 2");
        std::set<uint32_t> qpns;
        Time last;
        for (const RdmaFctRecord& r : run.records)
        {
            qpns.insert(r.qpn);
            last = Max(last, r.fct);
            NS_TEST_EXPECT_MSG_EQ((r.fct >= r.ideal - Rounding(r)), true, "FCT >= ideal");
        }
        NS_TEST_EXPECT_MSG_EQ(qpns.size(), 2u, "flows on 2 QPs");
        NS_TEST_EXPECT_MSG_NE(run.records[0].qpn, run.records[1].qpn, "round robin");
        NS_TEST_EXPECT_MSG_EQ(run.records[0].qpn, run.records[2].qpn, "round robin");
        // All 40 x (65536 + 64 x 82) bytes share one 100 Gb/s link (less one
        // time step of rounding per frame, see Rounding()).
        Time wire = DataRate("100Gbps").CalculateBytesTxTime(40 * (65536 + 64 * 82));
        NS_TEST_EXPECT_MSG_EQ((last >= wire + NanoSeconds(2000) - TimeStep(40 * 65)),
                              true,
                              "last FCT " << last << " >= " << wire << " + RTT");
        NS_TEST_EXPECT_MSG_EQ((last <= wire + NanoSeconds(2000) + MicroSeconds(1)),
                              true,
                              "last FCT " << last << " no gaps while flows waited");
    }
};

/// A few thousand flows, formats and determinism.
class WorkloadRunTestCase : public TestCase
{
  public:
    WorkloadRunTestCase()
        : TestCase("two hosts: ~1500 Poisson AliStorage flows, WRITE READ SEND mix, one QP "
                   "each: all complete, FCT >= ideal, HPCC fct.txt lines, same seed same fct.csv")
    {
    }

  private:
    static std::vector<RdmaFlow> Workload()
    {
        auto g = CreateObject<RdmaFlowGenerator>();
        g->AssignStreams(21);
        g->SetOperationMix(1, 1, 1);
        RdmaFlowGenerator::PoissonConfig c;
        c.hosts = {0, 1};
        c.load = 0.5;
        c.duration = MilliSeconds(5);
        return g->Poisson(c,
                          RdmaFlowSizeCdf::FromFile(DataPath("../../data/cdf/AliStorage2019.txt")));
    }

    void DoRun() override
    {
        std::vector<RdmaFlow> flows = Workload();
        NS_TEST_ASSERT_MSG_GT(flows.size(), 1000u, "thousands of flows");
        TwoHostRun a = RunTwoHosts(flows, false, 1, 1024);
        NS_TEST_EXPECT_MSG_EQ(a.runner->GetCompletedCount(), flows.size(), "all completed");
        NS_TEST_EXPECT_MSG_EQ(a.runner->GetFailedCount(), 0u, "none failed");
        uint32_t below = 0;
        for (const RdmaFctRecord& r : a.records)
        {
            below += r.fct < r.ideal - Rounding(r);
        }
        NS_TEST_EXPECT_MSG_EQ(below, 0u, "no FCT below its ideal");
        // Every fct.txt line in HPCC's "%08x %08x %u %u %lu %lu %lu %lu".
        std::regex line("[0-9a-f]{8} [0-9a-f]{8} [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+");
        std::istringstream txt(a.txt);
        std::string l;
        uint32_t lines = 0;
        while (std::getline(txt, l))
        {
            NS_TEST_ASSERT_MSG_EQ(std::regex_match(l, line), true, "'" << l << "'");
            ++lines;
        }
        NS_TEST_EXPECT_MSG_EQ(lines, flows.size(), "a line per flow");
        NS_TEST_EXPECT_MSG_EQ(a.csv.substr(0, a.csv.find('\n')),
                              "id,src,dst,op,size,start_ns,fct_ns,ideal_fct_ns,slowdown,qp,status",
                              "fct.csv header");
        // Same seed, same workload: the same bytes.
        TwoHostRun b = RunTwoHosts(Workload(), false, 1, 1024);
        NS_TEST_EXPECT_MSG_EQ((a.csv == b.csv), true, "identical fct.csv");
        NS_TEST_EXPECT_MSG_EQ((a.txt == b.txt), true, "identical fct.txt");
    }
};

/// Error completions and unfinished flows in the outputs.
class FailedFlowsTestCase : public TestCase
{
  public:
    FailedFlowsTestCase()
        : TestCase("a lost link: the first flow ends IBV_WC_RETRY_EXC_ERR, the next on its QP "
                   "IBV_WC_WR_FLUSH_ERR, one past the stop INCOMPLETE; fct.txt lists none")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<RdmaFlow> flows = {
            Flow(0, 0, RdmaFlowOp::WRITE, 10000, MicroSeconds(1)),
            Flow(1, 0, RdmaFlowOp::WRITE, 10000, MicroSeconds(2)),
            Flow(2, 0, RdmaFlowOp::WRITE, 10000, Seconds(1)),
        };
        TwoHostRun run = RunTwoHosts(flows, true, 1, 16, [](TwoHosts& h, Ptr<RdmaFlowRunner> r) {
            auto em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(1.0));
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            h.SetReceiveErrorModel(1, em); // B receives nothing
            RdmaConnectionConfig c;
            c.timeout = 4; // 4.096 us x 2^4 = 65.5 us
            c.retryCnt = 1;
            r->SetConnectionConfig(c);
            Simulator::Stop(MilliSeconds(10));
        });
        const auto& rec = run.records;
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(rec[0].status), "IBV_WC_RETRY_EXC_ERR", "flow 0");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(rec[1].status), "IBV_WC_WR_FLUSH_ERR", "flow 1");
        NS_TEST_EXPECT_MSG_EQ(rec[2].completed, false, "flow 2 never started");
        NS_TEST_EXPECT_MSG_EQ(run.runner->GetFailedCount(), 2u, "two failures");
        // The first try and one retry each wait the local ACK timeout,
        // 4.096 us x 2^4 (IBA 9.7.6.1.3): FCT = 2 x 65.536 us.
        NS_TEST_EXPECT_MSG_EQ(rec[0].fct, NanoSeconds(131072), "FCT of the failed flow");
        std::istringstream csv(run.csv);
        std::string header;
        std::string row[3];
        std::getline(csv, header);
        for (auto& r : row)
        {
            std::getline(csv, r);
        }
        NS_TEST_EXPECT_MSG_EQ(row[0],
                              "0,0,1,WRITE,10000,1000,131072," +
                                  std::to_string(rec[0].ideal.GetNanoSeconds()) + ",," +
                                  std::to_string(rec[0].qpn) + ",IBV_WC_RETRY_EXC_ERR",
                              "no slowdown for a failed flow");
        NS_TEST_EXPECT_MSG_EQ(row[2].substr(row[2].rfind(',')), ",INCOMPLETE", row[2]);
        NS_TEST_EXPECT_MSG_NE(row[2].find(",1000000000,,"), std::string::npos, "no fct_ns");
        NS_TEST_EXPECT_MSG_EQ(run.txt, "", "fct.txt lists successful flows only");
    }
};

/// Bad flows and atomic files.
class RunnerErrorsTestCase : public TestCase
{
  public:
    RunnerErrorsTestCase()
        : TestCase("runner refuses flows naming a non-host or an oversize message")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts h;
        auto runner = CreateObject<RdmaFlowRunner>();
        runner->SetHosts(h.nodes);
        std::string e;
        try
        {
            runner->SetFlows({Flow(7, 0, RdmaFlowOp::WRITE, 100, Time(0)), [] {
                                  RdmaFlow f;
                                  f.id = 8;
                                  f.src = 0;
                                  f.dst = 2;
                                  f.size = 1;
                                  return f;
                              }()});
        }
        catch (const std::runtime_error& x)
        {
            e = x.what();
        }
        NS_TEST_EXPECT_MSG_EQ(e,
                              "flow 8: expected src and dst to be hosts (ids below 2 with an "
                              "RdmaNic), got 0 -> 2",
                              "not a host");
        e.clear();
        try
        {
            runner->SetFlows({Flow(9, 1, RdmaFlowOp::READ, (1ULL << 31) + 1, Time(0))});
        }
        catch (const std::runtime_error& x)
        {
            e = x.what();
        }
        NS_TEST_EXPECT_MSG_NE(e.find("flow 9: expected a size of 1 to 2^31 bytes"),
                              std::string::npos,
                              e);
        Simulator::Destroy();
    }
};

} // namespace

/// The flow-run suite.
class RdmaFlowRunTestSuite : public TestSuite
{
  public:
    RdmaFlowRunTestSuite()
        : TestSuite("rdma-flow-run", SYSTEM)
    {
        AddTestCase(new IsolatedFlowsTestCase, TestCase::QUICK);
        AddTestCase(new QpPoolTestCase, TestCase::QUICK);
        AddTestCase(new WorkloadRunTestCase, TestCase::QUICK);
        AddTestCase(new FailedFlowsTestCase, TestCase::QUICK);
        AddTestCase(new RunnerErrorsTestCase, TestCase::QUICK);
    }
};

static RdmaFlowRunTestSuite g_rdmaFlowRunTestSuite; //!< registers the suite
