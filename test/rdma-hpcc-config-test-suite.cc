/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaParseHpccConfig: the HPCC simulator's config.txt, as its run.py
 * writes it, read as rdma-sim keys; unknown keys and values not modelled as
 * warnings; malformed values as errors naming file and line.
 */

#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/rdma-hpcc-config.h"
#include "ns3/test.h"

#include <map>
#include <set>

using namespace ns3;

namespace
{

/// run.py's config_template filled for --cc dcqcn --bw 100 (lines 5-63), plus one unknown key.
const char* g_runPyDcqcn = "ENABLE_QCN 1\n"
                           "USE_DYNAMIC_PFC_THRESHOLD 1\n"
                           "\n"
                           "PACKET_PAYLOAD_SIZE 1000\n"
                           "\n"
                           "TOPOLOGY_FILE mix/fat.txt\n"
                           "FLOW_FILE mix/flow.txt\n"
                           "TRACE_FILE mix/trace.txt\n"
                           "TRACE_OUTPUT_FILE mix/mix_fat_flow_dcqcn.tr\n"
                           "FCT_OUTPUT_FILE mix/fct_fat_flow_dcqcn.txt\n"
                           "PFC_OUTPUT_FILE mix/pfc_fat_flow_dcqcn.txt\n"
                           "\n"
                           "SIMULATOR_STOP_TIME 4.00\n"
                           "\n"
                           "CC_MODE 1\n"
                           "ALPHA_RESUME_INTERVAL 1\n"
                           "RATE_DECREASE_INTERVAL 4\n"
                           "CLAMP_TARGET_RATE 0\n"
                           "RP_TIMER 300\n"
                           "EWMA_GAIN 0.00390625\n"
                           "FAST_RECOVERY_TIMES 1\n"
                           "RATE_AI 20Mb/s\n"
                           "RATE_HAI 200Mb/s\n"
                           "MIN_RATE 1000Mb/s\n"
                           "DCTCP_RATE_AI 1000Mb/s\n"
                           "\n"
                           "ERROR_RATE_PER_LINK 0.0000\n"
                           "L2_CHUNK_SIZE 4000\n"
                           "L2_ACK_INTERVAL 1\n"
                           "L2_BACK_TO_ZERO 0\n"
                           "\n"
                           "HAS_WIN 0\n"
                           "GLOBAL_T 1\n"
                           "VAR_WIN 0\n"
                           "FAST_REACT 0\n"
                           "U_TARGET 0.95\n"
                           "MI_THRESH 0\n"
                           "INT_MULTI 1\n"
                           "MULTI_RATE 0\n"
                           "SAMPLE_FEEDBACK 0\n"
                           "PINT_LOG_BASE 1.01\n"
                           "PINT_PROB 1.0\n"
                           "\n"
                           "RATE_BOUND 1\n"
                           "\n"
                           "ACK_HIGH_PRIO 1\n"
                           "\n"
                           "LINK_DOWN 0 0 0\n"
                           "\n"
                           "ENABLE_TRACE 0\n"
                           "\n"
                           "KMAX_MAP 2 100000000000 1600 400000000000 6400\n"
                           "KMIN_MAP 2 100000000000 400 400000000000 1600\n"
                           "PMAX_MAP 2 100000000000 0.20 400000000000 0.20\n"
                           "BUFFER_SIZE 32\n"
                           "QLEN_MON_FILE mix/qlen_fat_flow_dcqcn.txt\n"
                           "QLEN_MON_START 2000000000\n"
                           "QLEN_MON_END 3000000000\n"
                           "NEW_SIMULATOR_KEY 7\n";

/// ConWeave's run.py config_template for --lb fecmp --pfc 1 --irn 0 --simul_time 0.005
/// --netload 50 --topo leaf_spine_128_100G_OS2 (its maps: six rates, Pmax 0 at two).
const char* g_conweaveFecmp =
    "TOPOLOGY_FILE config/leaf_spine_128_100G_OS2.txt\n"
    "FLOW_FILE config/L_25.00_CDF_AliStorage2019_N_128_T_5ms_B_100_flow.txt\n"
    "\n"
    "FLOW_INPUT_FILE mix/output/1/1_in.txt\n"
    "CNP_OUTPUT_FILE mix/output/1/1_out_cnp.txt\n"
    "FCT_OUTPUT_FILE mix/output/1/1_out_fct.txt\n"
    "PFC_OUTPUT_FILE mix/output/1/1_out_pfc.txt\n"
    "QLEN_MON_FILE mix/output/1/1_out_qlen.txt\n"
    "VOQ_MON_FILE mix/output/1/1_out_voq.txt\n"
    "VOQ_MON_DETAIL_FILE mix/output/1/1_out_voq_per_dst.txt\n"
    "UPLINK_MON_FILE mix/output/1/1_out_uplink.txt\n"
    "CONN_MON_FILE mix/output/1/1_out_conn.txt\n"
    "EST_ERROR_MON_FILE mix/output/1/1_out_est_error.txt\n"
    "\n"
    "QLEN_MON_START 2.0\n"
    "QLEN_MON_END 2.005\n"
    "SW_MONITORING_INTERVAL 10000\n"
    "\n"
    "FLOWGEN_START_TIME 2.0\n"
    "FLOWGEN_STOP_TIME 2.005\n"
    "BUFFER_SIZE 9\n"
    "\n"
    "CC_MODE 1\n"
    "LB_MODE 0\n"
    "ENABLE_PFC 1\n"
    "ENABLE_IRN 0\n"
    "\n"
    "CONWEAVE_TX_EXPIRY_TIME 1000\n"
    "CONWEAVE_REPLY_TIMEOUT_EXTRA 4\n"
    "CONWEAVE_PATH_PAUSE_TIME 16\n"
    "CONWEAVE_EXTRA_VOQ_FLUSH_TIME 64\n"
    "CONWEAVE_DEFAULT_VOQ_WAITING_TIME 400\n"
    "\n"
    "ALPHA_RESUME_INTERVAL 1\n"
    "RATE_DECREASE_INTERVAL 4\n"
    "CLAMP_TARGET_RATE 0\n"
    "RP_TIMER 300 \n"
    "FAST_RECOVERY_TIMES 1\n"
    "EWMA_GAIN 0.00390625\n"
    "RATE_AI 40.0Mb/s\n"
    "RATE_HAI 100.0Mb/s\n"
    "MIN_RATE 100Mb/s\n"
    "DCTCP_RATE_AI 1000Mb/s\n"
    "\n"
    "ERROR_RATE_PER_LINK 0.0000\n"
    "L2_CHUNK_SIZE 4000\n"
    "L2_ACK_INTERVAL 1\n"
    "L2_BACK_TO_ZERO 0\n"
    "\n"
    "RATE_BOUND 1\n"
    "HAS_WIN 0\n"
    "VAR_WIN 0\n"
    "FAST_REACT 0\n"
    "MI_THRESH 0\n"
    "INT_MULTI 1\n"
    "GLOBAL_T 1\n"
    "U_TARGET 0.95\n"
    "MULTI_RATE 0\n"
    "SAMPLE_FEEDBACK 0\n"
    "\n"
    "ENABLE_QCN 1\n"
    "USE_DYNAMIC_PFC_THRESHOLD 1\n"
    "PACKET_PAYLOAD_SIZE 1000\n"
    "\n"
    "\n"
    "LINK_DOWN 0 0 0\n"
    "KMAX_MAP 6 20000000000 400 50000000000 400 100000000000 400 200000000000 400 "
    "250000000000 400 400000000000 400\n"
    "KMIN_MAP 6 20000000000 100 50000000000 100 100000000000 100 200000000000 100 "
    "250000000000 100 400000000000 100\n"
    "PMAX_MAP 6 20000000000 0 50000000000 0 100000000000 0.20 200000000000 0.20 "
    "250000000000 0.20 400000000000 0.20\n"
    "LOAD 50\n"
    "RANDOM_SEED 1\n";

/// \return the message of the RdmaHpccConfigError parsing the text throws, or ""
std::string
ErrorOf(const std::string& text)
{
    try
    {
        RdmaParseHpccConfig(text, "config.txt");
    }
    catch (const RdmaHpccConfigError& e)
    {
        return e.what();
    }
    return "";
}

/// run.py's DCQCN config as keys.
class HpccConfigReadTestCase : public TestCase
{
  public:
    HpccConfigReadTestCase()
        : TestCase("config.txt as run.py writes it for --cc dcqcn --bw 100: keys, file:line "
                   "origins, warnings for ACK_HIGH_PRIO, the payload size and unknown keys")
    {
    }

  private:
    void DoRun() override
    {
        RdmaHpccConfig hc = RdmaParseHpccConfig(g_runPyDcqcn, "config.txt");
        std::map<std::string, std::string> v;
        std::map<std::string, std::string> where;
        for (const auto& s : hc.settings)
        {
            v[s.key] = s.value;
            where[s.key] = s.where;
        }
        NS_TEST_EXPECT_MSG_EQ(v["topology.type"], "hpcc", "TOPOLOGY_FILE");
        NS_TEST_EXPECT_MSG_EQ(v["topology.file"], "mix/fat.txt", "path as written");
        NS_TEST_EXPECT_MSG_EQ(where["topology.file"], "config.txt:6", "file:line");
        NS_TEST_EXPECT_MSG_EQ(v["traffic.flowFile"], "mix/flow.txt", "FLOW_FILE");
        NS_TEST_EXPECT_MSG_EQ(v["cc.algorithm"], "dcqcn", "CC_MODE 1");
        NS_TEST_EXPECT_MSG_EQ(v["cc.preset"], "hpcc-sim", "the simulator's model of mode 1");
        NS_TEST_EXPECT_MSG_EQ(v["sim.stopTime"], "4s", "SIMULATOR_STOP_TIME");
        NS_TEST_EXPECT_MSG_EQ(v["cc.dcqcn.TimeReset"], "300000ns", "RP_TIMER in us");
        NS_TEST_EXPECT_MSG_EQ(v["cc.dcqcn.AlphaUpdateInterval"], "1000ns", "ALPHA_RESUME_INTERVAL");
        NS_TEST_EXPECT_MSG_EQ(v["cc.dcqcn.AiRate"], "20000000bps", "RATE_AI");
        NS_TEST_EXPECT_MSG_EQ(v["cc.dcqcn.ClampTargetRate"], "false", "CLAMP_TARGET_RATE 0");
        NS_TEST_EXPECT_MSG_EQ(v["pfc.BufferSize"], "33554432", "BUFFER_SIZE 32 (MB = MiB)");
        NS_TEST_EXPECT_MSG_EQ(v["ecn.kmin"], "0", "4 KB per Gb/s: the per-rate default");
        NS_TEST_EXPECT_MSG_EQ(v["ecn.kmax"], "0", "16 KB per Gb/s: the per-rate default");
        NS_TEST_EXPECT_MSG_EQ(v["ecn.pmax"], "0.2", "PMAX_MAP");
        NS_TEST_EXPECT_MSG_EQ(v["transport.pathMtu"], "1024", "nearest IB MTU to 1000");
        NS_TEST_EXPECT_MSG_EQ(v["transport.AckReqInterval"], "1", "L2_ACK_INTERVAL 1");
        NS_TEST_EXPECT_MSG_EQ(v["switch.EcnEnabled"], "true", "ENABLE_QCN 1");
        NS_TEST_EXPECT_MSG_EQ(hc.warnings.size(), 3, "payload, ACK_HIGH_PRIO, unknown key");
        NS_TEST_EXPECT_MSG_EQ(hc.warnings.back(),
                              "config.txt:59: NEW_SIMULATOR_KEY: unknown key, ignored",
                              "the unknown key with file:line");

        // Into a configuration: the keys all exist; the user's keys win.
        RdmaConfig c = RdmaMakeExperimentConfig();
        c.Set("cc.dcqcn.TimeReset", "55us", "command line");
        for (const auto& s : hc.settings)
        {
            NS_TEST_EXPECT_MSG_EQ(c.HasKey(s.key), true, s.key << " is a key of rdma-sim");
            if (c.GetOrigin(s.key) == "default")
            {
                c.Set(s.key, s.value, s.where);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(c.GetTime("cc.dcqcn.TimeReset"), MicroSeconds(55), "user wins");
        NS_TEST_EXPECT_MSG_EQ(c.GetTime("cc.dcqcn.RateReduceMonitorPeriod"),
                              MicroSeconds(4),
                              "RATE_DECREASE_INTERVAL");

        // A single Kmin for every rate is a fixed threshold.
        hc = RdmaParseHpccConfig("KMIN_MAP 2 25000000000 50 100000000000 50\n", "k.txt");
        NS_TEST_EXPECT_MSG_EQ(hc.settings.at(0).value, "50000", "50 KB at every rate");
    }
};

/// ConWeave's config.txt: its keys, and maps read at the topology's rates.
class ConweaveConfigTestCase : public TestCase
{
  public:
    ConweaveConfigTestCase()
        : TestCase("ConWeave's config.txt (fecmp, PFC): LB_MODE, ENABLE_PFC and ENABLE_IRN, the "
                   "stop time from FLOWGEN_STOP_TIME, cc.preset conweave-sim, no unknown keys; "
                   "per-rate maps read at the topology's link rates")
    {
    }

  private:
    void DoRun() override
    {
        const std::set<uint64_t> rates{100000000000ULL};
        RdmaHpccConfig hc = RdmaParseHpccConfig(g_conweaveFecmp, "config.txt", rates);
        std::map<std::string, std::string> v;
        std::map<std::string, std::string> where;
        for (const auto& s : hc.settings)
        {
            v[s.key] = s.value;
            where[s.key] = s.where;
        }
        NS_TEST_EXPECT_MSG_EQ(hc.warnings.size(), 1, "only the payload size is not taken as it is");
        NS_TEST_EXPECT_MSG_EQ(hc.warnings.at(0).find("PACKET_PAYLOAD_SIZE 1000"),
                              std::string("config.txt:63: ").size(),
                              hc.warnings.at(0));
        NS_TEST_EXPECT_MSG_EQ(v["switch.LoadBalancing"], "Ecmp", "LB_MODE 0: per-flow ECMP");
        NS_TEST_EXPECT_MSG_EQ(v["pfc.PfcEnabled"], "true", "ENABLE_PFC 1");
        NS_TEST_EXPECT_MSG_EQ(v["transport.recovery"], "go-back-n", "ENABLE_IRN 0");
        NS_TEST_EXPECT_MSG_EQ(v["sim.stopTime"], "12.005s", "FLOWGEN_STOP_TIME + 10 s");
        NS_TEST_EXPECT_MSG_EQ(where["sim.stopTime"], "config.txt:20", "from its line");
        NS_TEST_EXPECT_MSG_EQ(v["sim.seed"], "1", "RANDOM_SEED");
        NS_TEST_EXPECT_MSG_EQ(v["cc.preset"], "conweave-sim", "ConWeave's simulator's choices");
        NS_TEST_EXPECT_MSG_EQ(v["cc.dcqcn.AiRate"], "40000000bps", "RATE_AI 40.0Mb/s");
        NS_TEST_EXPECT_MSG_EQ(v["ecn.kmin"], "100000", "100 KB at every rate");
        NS_TEST_EXPECT_MSG_EQ(v["ecn.kmax"], "400000", "400 KB at every rate");
        NS_TEST_EXPECT_MSG_EQ(v["ecn.pmax"], "0.2", "Pmax at 100 Gb/s (0 only at 20 and 50)");
        NS_TEST_EXPECT_MSG_EQ(v["pfc.BufferSize"], "9437184", "BUFFER_SIZE 9");

        // Without the topology's rates every entry counts: two Pmax values.
        std::string e;
        try
        {
            RdmaParseHpccConfig(g_conweaveFecmp, "config.txt");
        }
        catch (const RdmaHpccConfigError& err)
        {
            e = err.what();
        }
        NS_TEST_EXPECT_MSG_EQ(e.find("config.txt:69: PMAX_MAP: only one Pmax"), 0, e);

        // The other modes; SIMULATOR_STOP_TIME wins over FLOWGEN_STOP_TIME.
        hc = RdmaParseHpccConfig("LB_MODE 2\nENABLE_PFC 0\nENABLE_IRN 1\nCC_MODE 1\n"
                                 "FLOWGEN_STOP_TIME 2.1\nSIMULATOR_STOP_TIME 3\n",
                                 "c.txt");
        v.clear();
        for (const auto& s : hc.settings)
        {
            v[s.key] = s.value;
        }
        NS_TEST_EXPECT_MSG_EQ(v["switch.LoadBalancing"], "Drill", "LB_MODE 2");
        NS_TEST_EXPECT_MSG_EQ(v["pfc.PfcEnabled"], "false", "ENABLE_PFC 0");
        NS_TEST_EXPECT_MSG_EQ(v["transport.recovery"], "irn", "ENABLE_IRN 1");
        NS_TEST_EXPECT_MSG_EQ(v["sim.stopTime"], "3s", "SIMULATOR_STOP_TIME given");
        NS_TEST_EXPECT_MSG_EQ(v["cc.preset"], "conweave-sim", "LB_MODE is ConWeave's");
        hc = RdmaParseHpccConfig("LB_MODE 6\n", "c.txt");
        NS_TEST_EXPECT_MSG_EQ(hc.settings.at(0).value, "LetFlow", "LB_MODE 6");
        hc = RdmaParseHpccConfig("LB_MODE 3\n", "c.txt");
        NS_TEST_EXPECT_MSG_EQ(hc.settings.at(0).key, "switch.LoadBalancing", "LB_MODE 3");
        NS_TEST_EXPECT_MSG_EQ(hc.settings.at(0).value, "Conga", "LB_MODE 3: CONGA");
        e = ErrorOf("LB_MODE 9\n");
        NS_TEST_EXPECT_MSG_EQ(e.find("config.txt:1: LB_MODE: expected 0 (per-flow ECMP), 2 (DRILL), "
                                     "3 (CONGA) or 6 (LetFlow), got '9'"),
                              0,
                              e);
        // The HPCC simulator's own file keeps hpcc-sim.
        hc = RdmaParseHpccConfig(g_runPyDcqcn, "config.txt", rates);
        for (const auto& s : hc.settings)
        {
            if (s.key == "cc.preset")
            {
                NS_TEST_EXPECT_MSG_EQ(s.value, "hpcc-sim", "no ConWeave key");
            }
        }
    }
};

/// Malformed values: file:line and what was expected.
class HpccConfigErrorsTestCase : public TestCase
{
  public:
    HpccConfigErrorsTestCase()
        : TestCase("config.txt errors name file:line and the key: bad number, bad rate, map "
                   "counts, unmodelled mode and maps, repeated key")
    {
    }

  private:
    void DoRun() override
    {
        auto has = [](const std::string& message, const std::string& part) {
            return message.find(part) != std::string::npos;
        };
        std::string e = ErrorOf("CC_MODE 1\nRP_TIMER fast\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:2:") && has(e, "RP_TIMER"), true, e);
        e = ErrorOf("RATE_AI 5 Mb/s\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:1: RATE_AI: expected one value"), true, e);
        e = ErrorOf("MIN_RATE fast\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:1: MIN_RATE: expected an ns-3 rate"), true, e);
        e = ErrorOf("\nKMAX_MAP 2 100000000000 1600\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:2: KMAX_MAP: 2 entries need 4 values"), true, e);
        e = ErrorOf("KMIN_MAP 2 100000000000 100 400000000000 1600\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:1: KMIN_MAP: only one value"), true, e);
        e = ErrorOf("CC_MODE 10\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:1: CC_MODE: expected 1 (DCQCN)"), true, e);
        e = ErrorOf("BUFFER_SIZE 16\nBUFFER_SIZE 32\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:2: BUFFER_SIZE: given twice"), true, e);
        e = ErrorOf("ENABLE_QCN 2\n");
        NS_TEST_EXPECT_MSG_EQ(has(e, "config.txt:1:"), true, e);
    }
};

class RdmaHpccConfigTestSuite : public TestSuite
{
  public:
    RdmaHpccConfigTestSuite()
        : TestSuite("rdma-hpcc-config", UNIT)
    {
        AddTestCase(new HpccConfigReadTestCase, TestCase::QUICK);
        AddTestCase(new HpccConfigErrorsTestCase, TestCase::QUICK);
        AddTestCase(new ConweaveConfigTestCase, TestCase::QUICK);
    }
};

RdmaHpccConfigTestSuite g_rdmaHpccConfigTestSuite; //!< static instance

} // namespace
