/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * cc.preset (RdmaCcPreset): the keys each preset sets and their sources,
 * the user's keys winning, the DCQCN timer-only increase rule of the HPCC
 * simulator, and the notification and reaction points of the nvidia preset
 * together under a standing queue (the PFC storm of the nvidia preset).
 */

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/rdma-cc-preset.h"
#include "ns3/rdma-cnp-generator.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>

using namespace ns3;

namespace
{

/// \return the preset's keys as a map key -> value
std::map<std::string, std::string>
Values(const std::string& name, const std::string& algorithm, DataRate rate)
{
    std::map<std::string, std::string> m;
    for (const auto& v : RdmaCcPreset(name, algorithm, rate))
    {
        m[v.key] = v.value;
    }
    return m;
}

/// hpcc-sim: run.py's values at bw = 100 and 25 Gb/s, each with its run.py line.
class HpccSimValuesTestCase : public TestCase
{
  public:
    HpccSimValuesTestCase()
        : TestCase("hpcc-sim: run.py's values for --cc dcqcn and hp at bw 100 and 25, each citing "
                   "its line; the user's keys win; unknown presets are refused")
    {
    }

  private:
    void DoRun() override
    {
        auto d = Values("hpcc-sim", "dcqcn", DataRate("100Gbps"));
        // run.py l.100-101: ai = 5 * bw / 25, hai = 50 * bw / 25 (Mb/s).
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.AiRate"], "20Mbps", "5 x 100 / 25");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.HaiRate"], "200Mbps", "50 x 100 / 25");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.TimeReset"], "300us", "RP_TIMER 300");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.RateReduceMonitorPeriod"], "4us", "t_dec 4");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.AlphaUpdateInterval"], "1us", "t_alpha 1");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.DecreaseTiming"], "Periodic", "CheckRateDecreaseMlx");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.MinRate"], "1000Mbps", "MIN_RATE");
        // run.py l.83: bfsz = 16 * bw / 50 MB, third.cc: x 1024 x 1024.
        NS_TEST_EXPECT_MSG_EQ(d["pfc.BufferSize"], "33554432", "32 MiB at 100G");
        NS_TEST_EXPECT_MSG_EQ(d["transport.AckReqInterval"], "1", "L2_ACK_INTERVAL 1");
        NS_TEST_EXPECT_MSG_EQ(d["cc.cnp.MinTimeBetweenCnps"], "0s", "a CNP per CE ACK");
        NS_TEST_EXPECT_MSG_EQ(d.count("cc.hpcc.MaxStage"), 0, "no HPCC keys for dcqcn");
        NS_TEST_EXPECT_MSG_EQ(d["switch.EcnAtDequeue"], "true", "SwitchNotifyDequeue marks");
        NS_TEST_EXPECT_MSG_EQ(d["switch.DecrementTtl"], "false", "TTL left alone");
        NS_TEST_EXPECT_MSG_EQ(d["nic.tx.ResponsesFirst"], "true", "the ACK queue first");
        NS_TEST_EXPECT_MSG_EQ(d["link.WireOverhead"], "0", "frames timed by their size alone");
        auto h = Values("hpcc-sim", "hpcc", DataRate("25Gbps"));
        NS_TEST_EXPECT_MSG_EQ(h["cc.hpcc.RateAi"], "10Mbps", "l.112: 10 x 25 / 25");
        NS_TEST_EXPECT_MSG_EQ(h["cc.hpcc.MaxStage"], "0", "--mi 0");
        NS_TEST_EXPECT_MSG_EQ(h["pfc.BufferSize"], "8388608", "16 x 25 / 50 = 8 MiB");
        for (const auto& v : RdmaCcPreset("hpcc-sim", "hpcc", DataRate("100Gbps")))
        {
            NS_TEST_EXPECT_MSG_EQ(v.source.rfind("HPCC simulator", 0),
                                  0,
                                  v.key << " cites the simulator: " << v.source);
        }

        // Through a configuration: the user's key wins, the rest get the preset
        // with an origin naming it.
        RdmaConfig c = RdmaMakeExperimentConfig();
        c.Set("cc.preset", "hpcc-sim", "test");
        c.Set("cc.dcqcn.TimeReset", "55us", "test");
        RdmaApplyCcPreset(c, DataRate("100Gbps"));
        NS_TEST_EXPECT_MSG_EQ(c.Get("cc.dcqcn.TimeReset"), "55us", "the user's value wins");
        NS_TEST_EXPECT_MSG_EQ(c.Get("cc.dcqcn.G"), "0.00390625", "the preset's");
        NS_TEST_EXPECT_MSG_EQ(c.GetOrigin("cc.dcqcn.G").rfind("cc.preset = hpcc-sim (", 0),
                              0,
                              "origin names the preset");
        c.Set("cc.preset", "mellanox", "cli");
        bool refused = false;
        try
        {
            RdmaApplyCcPreset(c, DataRate("100Gbps"));
        }
        catch (const RdmaConfigError& e)
        {
            refused = std::string(e.what()).find(
                          "expected paper, nvidia, hpcc-sim or conweave-sim") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "unknown preset refused with the choices");
        NS_TEST_EXPECT_MSG_EQ(RdmaCcPreset("paper", "dcqcn", DataRate("100Gbps")).size(),
                              0,
                              "paper: the attribute defaults");
    }
};

/// conweave-sim: ConWeave's run.py values and its simulator's own choices over hpcc-sim.
class ConweaveSimValuesTestCase : public TestCase
{
  public:
    ConweaveSimValuesTestCase()
        : TestCase("conweave-sim: ACKs ahead of data, run.py's DCQCN steps, 9 MiB buffer, Kmin "
                   "and Kmax 100 and 400 KB, PFC alpha 1 in 16, its go-back-N and IRN "
                   "senders and timers, the rest as hpcc-sim, each citing its source")
    {
    }

  private:
    void DoRun() override
    {
        auto d = Values("conweave-sim", "dcqcn", DataRate("100Gbps"));
        auto hs = Values("hpcc-sim", "dcqcn", DataRate("100Gbps"));
        NS_TEST_EXPECT_MSG_EQ(d["nic.AckPriority"], "7", "AckHighPrio 1, ack_q_idx 0");
        NS_TEST_EXPECT_MSG_EQ(d["nic.CnpPriority"], "7", "the CNP a flag on the ACK");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.AiRate"], "40Mbps", "ai = 10 x 100 / 25");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.HaiRate"], "100Mbps", "hai = 25 x 100 / 25");
        NS_TEST_EXPECT_MSG_EQ(d["cc.dcqcn.MinRate"], "100Mbps", "MIN_RATE 100Mb/s");
        NS_TEST_EXPECT_MSG_EQ(d["pfc.BufferSize"], "9437184", "--buffer 9 (MB = MiB)");
        NS_TEST_EXPECT_MSG_EQ(d["pfc.Alpha"], "0.0625", "switch-mmu.cc IngressAlpha");
        NS_TEST_EXPECT_MSG_EQ(d["ecn.kmin"], "100000", "kmin_map 100 KB");
        NS_TEST_EXPECT_MSG_EQ(d["ecn.kmax"], "400000", "kmax_map 400 KB");
        NS_TEST_EXPECT_MSG_EQ(d["transport.timeout"], "10", "m_timeout 4 ms: 4.096 us x 2^10");
        NS_TEST_EXPECT_MSG_EQ(d["transport.gbn.NakInterval"], "4us", "NACKGenerationInterval");
        NS_TEST_EXPECT_MSG_EQ(d["cc.cnp.CnpOnNak"], "true", "the CNP flag on every NACK");
        NS_TEST_EXPECT_MSG_EQ(d["transport.irn.RecoverAll"], "true", "RecoverQueue");
        NS_TEST_EXPECT_MSG_EQ(d["transport.irn.RtoLow"], "454us", "IrnRtoLow");
        NS_TEST_EXPECT_MSG_EQ(d["transport.irn.RtoHigh"], "1350us", "IrnRtoHigh");
        NS_TEST_EXPECT_MSG_EQ(d["switch.lb.ControlByHash"], "true", "control packets by ECMP");
        NS_TEST_EXPECT_MSG_EQ(d["switch.drill.MemoryPerDestination"], "true", "per dst IP");
        NS_TEST_EXPECT_MSG_EQ(d.size(), hs.size() + 13, "hpcc-sim's keys and 13 of its own");
        for (const char* k : {"cc.dcqcn.G",
                              "cc.dcqcn.TimeReset",
                              "cc.dcqcn.DecreaseTiming",
                              "ecn.pmax",
                              "transport.AckReqInterval",
                              "nic.tx.ResponsesFirst",
                              "link.WireOverhead",
                              "switch.EcnAtDequeue"})
        {
            NS_TEST_EXPECT_MSG_EQ(d[k], hs[k], k << " as hpcc-sim");
        }
        for (const auto& v : RdmaCcPreset("conweave-sim", "dcqcn", DataRate("100Gbps")))
        {
            const bool cites = v.source.rfind("ConWeave simulator", 0) == 0 ||
                               v.source.rfind("as hpcc-sim: HPCC simulator", 0) == 0;
            NS_TEST_EXPECT_MSG_EQ(cites, true, v.key << " cites its source: " << v.source);
        }
    }
};

/// DCQCN IncreaseRule TimerOnly (HPCC simulator RateIncEventMlx), F = 1.
class TimerOnlyIncreaseTestCase : public TestCase
{
  public:
    TimerOnlyIncreaseTestCase()
        : TestCase("DCQCN TimerOnly: fast recovery at T <= F, AI at T = F + 1, one HAI per "
                   "event after")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCcState> state = CreateObject<RdmaCcState>();
        state->m_lineRate = DataRate("100Gbps");
        state->m_mtu = 1000;
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("IncreaseRule", EnumValue(RdmaDcqcn::INCREASE_TIMER_ONLY));
        cc->SetAttribute("Threshold", UintegerValue(1));
        cc->SetAttribute("TimeReset", TimeValue(MicroSeconds(300)));
        cc->SetAttribute("AiRate", DataRateValue(DataRate("20Mbps")));
        cc->SetAttribute("HaiRate", DataRateValue(DataRate("200Mbps")));
        cc->SetAttribute("ByteReset", UintegerValue(1000)); // ignored by TimerOnly
        cc->Init(state);
        // Two cuts with alpha 1 (ClampTargetRate true): RT = RC = 50G, RC = 25G.
        cc->OnCnp(state);
        cc->OnCnp(state);
        cc->OnSend(state, 1000000); // a megabyte: no byte-counter event under TimerOnly
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("25Gbps"), "two cuts, no increase");
        const double rt0 = 50e9;
        const double ai = 20e6;
        const double hai = 200e6;
        double rc = 25e9;
        // T = 1 fast recovery; T = 2 AI; T = 3 and 4: one HAI each.
        const double expectRt[] = {rt0, rt0 + ai, rt0 + ai + hai, rt0 + ai + 2 * hai};
        for (int t = 0; t < 4; ++t)
        {
            rc = (rc + expectRt[t]) / 2;
            const double expectRc = rc;
            const double expectT = expectRt[t];
            Simulator::Schedule(MicroSeconds(300 * (t + 1)) + NanoSeconds(1), [=, &cc, &state]() {
                NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(cc->GetTargetRate().GetBitRate()),
                                          expectT,
                                          1.0,
                                          "RT after timer event " << t + 1);
                NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(state->m_rate.Get().GetBitRate()),
                                          expectRc,
                                          1.0,
                                          "RC = (RT + RC) / 2 after timer event " << t + 1);
            });
        }
        Simulator::Stop(MicroSeconds(1201));
        Simulator::Run();
        cc->Dispose();
        Simulator::Destroy();
    }
};

/**
 * The nvidia preset's notification and reaction points under a standing
 * queue: a CE-marked packet every 100 ns (a 100 Gb/s stream over Kmax) for
 * 100 us, each CNP the NP decides given to the RP at once. With the
 * firmware's MIN_TIME_BETWEEN_CNPS = 2 us the NP sends 50 CNPs and the RP
 * (RATE_REDUCE_MONITOR_PERIOD 4 us, alpha near 1) cuts every 4 us: 25 cuts
 * take 100 Gb/s below 1 Gb/s. With the paper's 50 us spacing under the
 * firmware's 1 us alpha period (the storm's cause) alpha decayed to ~0.8
 * between CNPs, three cuts left RC near 20 Gb/s, and the queue stayed.
 */
class NvidiaStandingQueueTestCase : public TestCase
{
  public:
    NvidiaStandingQueueTestCase()
        : TestCase("nvidia preset: NP every 2 us and RP every 4 us cut a 100G sender below 1G "
                   "within 100 us of a standing queue")
    {
    }

  private:
    void DoRun() override
    {
        RdmaConfig c = RdmaMakeExperimentConfig();
        c.Set("cc.preset", "nvidia", "test");
        RdmaApplyCcPreset(c, DataRate("100Gbps"));
        c.Apply();
        Ptr<RdmaCnpGenerator> np = CreateObject<RdmaCnpGenerator>();
        Ptr<RdmaDcqcn> rp = CreateObject<RdmaDcqcn>();
        Config::Reset();
        Ptr<RdmaCcState> state = CreateObject<RdmaCcState>();
        state->m_lineRate = DataRate("100Gbps");
        state->m_mtu = 1000;
        rp->Init(state);
        for (int i = 0; i < 1000; ++i)
        {
            Simulator::Schedule(NanoSeconds(100 * i), [&]() {
                if (np->OnCongestionExperienced(Simulator::Now()))
                {
                    rp->OnCnp(state);
                }
            });
        }
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(np->GetCnpsSent(), 50, "one CNP per 2 us over 100 us");
        NS_TEST_EXPECT_MSG_EQ(rp->GetDecreaseCount(), 25, "one cut per 4 us over 100 us");
        NS_TEST_EXPECT_MSG_LT(state->m_rate.Get().GetBitRate(),
                              1000000000ULL,
                              "the sender is below 1 Gb/s");
        rp->Dispose();
        Simulator::Destroy();
    }
};

class RdmaCcPresetTestSuite : public TestSuite
{
  public:
    RdmaCcPresetTestSuite()
        : TestSuite("rdma-cc-preset", UNIT)
    {
        AddTestCase(new HpccSimValuesTestCase, TestCase::QUICK);
        AddTestCase(new ConweaveSimValuesTestCase, TestCase::QUICK);
        AddTestCase(new TimerOnlyIncreaseTestCase, TestCase::QUICK);
        AddTestCase(new NvidiaStandingQueueTestCase, TestCase::QUICK);
    }
};

RdmaCcPresetTestSuite g_rdmaCcPresetTestSuite; //!< static instance

} // namespace
