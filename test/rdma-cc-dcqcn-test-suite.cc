/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN (Zhu et al., SIGCOMM 2015) driven through its RdmaCcState without a
 * network: the rate decrease on a CNP, the increase stages (fast recovery,
 * additive, hyper), the periodic decrease of the HPCC simulator, the
 * NVIDIA firmware preset, and the notification point's CNP pacing
 * (RdmaCnpGenerator), each against values worked out by hand from the
 * paper's equations.
 *
 * Timers run on the Simulator; every case destroys it at the end. Every time
 * here is a whole nanosecond, so the values are exact whether the runner
 * keeps ns-3's default resolution or the module's picoseconds.
 */

#include "rdma-test-cc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-cnp-generator.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// DCQCN rate decrease (eq. 1), alpha decay (eq. 2), minimum rate.
class DcqcnDecreaseTestCase : public TestCase
{
  public:
    DcqcnDecreaseTestCase()
        : TestCase("DCQCN: rate decrease on CNP, alpha update and decay, min rate")
    {
    }

  private:
    void DoRun() override
    {
        const double g = 1.0 / 256;
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 1.0, 1e-15, "alpha starts at InitialAlpha 1");

        Simulator::Schedule(Time(0), [&]() {
            cc->OnCnp(state);
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                                  DataRate("50Gbps"),
                                  "eq. 1: RC = 100G (1 - alpha/2) with alpha 1 = 50G");
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("100Gbps"),
                                  "eq. 1: RT = RC before the cut = 100G");
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      (1 - g) * 1.0 + g,
                                      1e-15,
                                      "eq. 1: alpha = (1-g) alpha + g = 1");
            NS_TEST_EXPECT_MSG_EQ(cc->GetDecreaseCount(), 1, "one decrease");
        });
        Simulator::Schedule(NanoSeconds(54999), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 1.0, 1e-15, "eq. 2: no decay before K");
        });
        Simulator::Schedule(MicroSeconds(55), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      1 - g,
                                      1e-15,
                                      "eq. 2: after K = 55 us without CNP alpha = (1-g) alpha");
        });
        Simulator::Schedule(MicroSeconds(110), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      (1 - g) * (1 - g),
                                      1e-15,
                                      "eq. 2: after 2K alpha = (1-g)^2");
        });
        // A CNP at 120 us: alpha decayed twice, the cut uses it, then it rises.
        Simulator::Schedule(MicroSeconds(120), [&]() {
            double rc = Bps(state);
            double a = (1 - g) * (1 - g);
            cc->OnCnp(state);
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state),
                                      std::round(rc * (1 - a / 2)),
                                      1.0,
                                      "eq. 1: RC = RC (1 - alpha/2) with the decayed alpha");
            NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(cc->GetTargetRate().GetBitRate()),
                                      rc,
                                      1.0,
                                      "eq. 1: RT = RC");
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      (1 - g) * a + g,
                                      1e-15,
                                      "eq. 1: alpha = (1-g) alpha + g");
        });
        Simulator::Schedule(MicroSeconds(175), [&]() {
            double a = (1 - g) * ((1 - g) * (1 - g) * (1 - g) + g);
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      a,
                                      1e-15,
                                      "eq. 2: the alpha timer restarts at each CNP");
        });
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        Simulator::Destroy();

        // Minimum rate.
        state = MakeState();
        cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("MinRate", DataRateValue(DataRate("30Gbps")));
        cc->Init(state);
        cc->OnCnp(state);
        cc->OnCnp(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                              DataRate("30Gbps"),
                              "RC = max(50G x 1/2, MinRate 30G)");
        cc->Dispose();
        Simulator::Destroy();
    }
};

/// DCQCN fast recovery, additive and hyper increase (timer T, byte counter B).
class DcqcnIncreaseTestCase : public TestCase
{
  public:
    DcqcnIncreaseTestCase()
        : TestCase("DCQCN: fast recovery, additive and hyper increase from timer and bytes")
    {
    }

  private:
    void DoRun() override
    {
        // Paper defaults, timer only: two CNPs give RT = 50G, RC = 25G.
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->Init(state);
        Simulator::Schedule(Time(0), [&]() { cc->OnCnp(state); });
        Simulator::Schedule(MicroSeconds(1), [&]() {
            cc->OnCnp(state);
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("25Gbps"), "second cut");
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(), DataRate("50Gbps"), "RT = 50G");
        });
        // The timer T = 55 us restarted at 1 us: events at 56, 111, ... us.
        const double expectFr[] = {37.5e9, 43.75e9, 46.875e9, 48.4375e9, 49.21875e9};
        for (int i = 0; i < 5; ++i)
        {
            Simulator::Schedule(MicroSeconds(1 + 55 * (i + 1)) + NanoSeconds(1), [&, i]() {
                NS_TEST_EXPECT_MSG_EQ(cc->GetTimerStage(), static_cast<uint32_t>(i + 1), "T");
                NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state),
                                          expectFr[i],
                                          1.0,
                                          "fast recovery step " << i + 1
                                                                << ": RC = (RT + RC)/2, RT = 50G");
                NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                      DataRate("50Gbps"),
                                      "fast recovery leaves RT");
            });
        }
        // T = 6 > F = 5, BC = 0: additive increase, RT += 40 Mb/s.
        Simulator::Schedule(MicroSeconds(1 + 55 * 6) + NanoSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("50040Mbps"),
                                  "additive increase: RT = 50G + R_AI 40M");
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state),
                                      (50.04e9 + 49.21875e9) / 2,
                                      1.0,
                                      "additive increase: RC = (RT + RC)/2");
        });
        Simulator::Schedule(MicroSeconds(1 + 55 * 7) + NanoSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("50080Mbps"),
                                  "no byte events: additive again, never hyper");
        });
        Simulator::Stop(MicroSeconds(400));
        Simulator::Run();
        cc->Dispose();
        Simulator::Destroy();

        // F = 1, T = 10 us, B = 1000 bytes: hyper increase needs both counters > F.
        state = MakeState();
        cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("Threshold", UintegerValue(1));
        cc->SetAttribute("TimeReset", TimeValue(MicroSeconds(10)));
        cc->SetAttribute("ByteReset", UintegerValue(1000));
        cc->Init(state);
        Simulator::Schedule(Time(0), [&]() { cc->OnCnp(state); });
        Simulator::Schedule(MicroSeconds(1), [&]() { cc->OnCnp(state); });
        Simulator::Schedule(MicroSeconds(11) + NanoSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 37.5e9, 1.0, "T=1 <= F: fast recovery");
        });
        Simulator::Schedule(MicroSeconds(21) + NanoSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("50040Mbps"),
                                  "T=2 > F, BC=0: additive");
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 43.77e9, 1.0, "RC = (50.04G + 37.5G)/2");
        });
        Simulator::Schedule(MicroSeconds(25), [&]() {
            cc->OnSend(state, 999);
            NS_TEST_EXPECT_MSG_EQ(cc->GetByteStage(), 0, "999 bytes: no byte event yet");
            cc->OnSend(state, 1);
            NS_TEST_EXPECT_MSG_EQ(cc->GetByteStage(), 1, "B bytes sent: BC = 1");
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("50080Mbps"),
                                  "T=2, BC=1: additive");
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 46.925e9, 1.0, "RC = (50.08G + 43.77G)/2");
            cc->OnSend(state, 1000);
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("50480Mbps"),
                                  "T=2, BC=2 > F: hyper, RT += (2-1) x R_HAI 400M");
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 48.7025e9, 1.0, "RC = (50.48G + 46.925G)/2");
            cc->OnSend(state, 1000);
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("50880Mbps"),
                                  "T=2, BC=3: hyper, i = min(T, BC) - F = 1");
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 49.79125e9, 1.0, "RC = (50.88G + 48.7025G)/2");
        });
        Simulator::Schedule(MicroSeconds(31) + NanoSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("51680Mbps"),
                                  "T=3, BC=3: hyper, i = 2, RT += 800M");
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 50.735625e9, 1.0, "RC = (51.68G + 49.79125G)/2");
        });
        Simulator::Stop(MicroSeconds(35));
        Simulator::Run();
        cc->Dispose();
        Simulator::Destroy();

        // Back at line rate the increase timer stops.
        state = MakeState();
        cc = CreateObject<RdmaDcqcn>();
        cc->Init(state);
        cc->OnCnp(state);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                              DataRate("100Gbps"),
                              "fast recovery converges to RT = line rate");
        NS_TEST_EXPECT_MSG_EQ((Simulator::GetEventCount() < 60),
                              true,
                              "the increase timer stops at line rate ("
                                  << Simulator::GetEventCount() << " events)");
        cc->Dispose();
        Simulator::Destroy();
    }
};

/**
 * DecreaseTiming Periodic, the HPCC simulator's RdmaHw::CheckRateDecreaseMlx:
 * the first CNP starts checks every period (the first period + 1 ns after it),
 * each cutting once if a CNP arrived since the previous check.
 */
class DcqcnPeriodicDecreaseTestCase : public TestCase
{
  public:
    DcqcnPeriodicDecreaseTestCase()
        : TestCase("DCQCN DecreaseTiming Periodic: cuts on the 4 us grid of the first CNP")
    {
    }

  private:
    void DoRun() override
    {
        const double g = 1.0 / 256;
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("DecreaseTiming", EnumValue(RdmaDcqcn::DECREASE_PERIODIC));
        cc->SetAttribute("RateReduceMonitorPeriod", TimeValue(MicroSeconds(4)));
        cc->SetAttribute("AlphaUpdate", EnumValue(RdmaDcqcn::ALPHA_PERIODIC));
        cc->SetAttribute("AlphaUpdateInterval", TimeValue(MicroSeconds(1)));
        cc->Init(state);
        auto cnp = [&]() { cc->OnCnp(state); };
        auto expectCuts = [&](uint64_t n, const std::string& why) {
            NS_TEST_EXPECT_MSG_EQ(cc->GetDecreaseCount(), n, why);
        };
        Simulator::Schedule(Time(0), [&]() {
            cnp();
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                                  DataRate("100Gbps"),
                                  "the first CNP does not cut (RateOnFirstCnp 1.0)");
        });
        Simulator::Schedule(MicroSeconds(4), [&]() { expectCuts(0, "no cut before the check"); });
        Simulator::Schedule(MicroSeconds(4) + NanoSeconds(2), [&]() {
            expectCuts(1, "the check at 4 us + 1 ns cuts for the first CNP");
            // Alpha: 1 at the CNP, an interval with it, three without.
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state),
                                      100e9 * (1 - std::pow(1 - g, 3) / 2),
                                      1.0,
                                      "RC (1 - alpha/2)");
        });
        Simulator::Schedule(MicroSeconds(5), cnp);
        Simulator::Schedule(MicroSeconds(6), cnp);
        Simulator::Schedule(MicroSeconds(8), [&]() { expectCuts(1, "CNPs wait for the check"); });
        Simulator::Schedule(MicroSeconds(8) + NanoSeconds(2),
                            [&]() { expectCuts(2, "one cut at 8 us + 1 ns for two CNPs"); });
        Simulator::Schedule(MicroSeconds(13),
                            [&]() { expectCuts(2, "a check without a CNP does not cut"); });
        Simulator::Schedule(MicroSeconds(20), cnp);
        Simulator::Schedule(MicroSeconds(20) + NanoSeconds(2), [&]() {
            expectCuts(3, "the grid keeps its phase: a CNP at 20 us is cut at 20 us + 1 ns");
        });
        Simulator::Stop(MicroSeconds(30));
        Simulator::Run();
        cc->Dispose();
        Simulator::Destroy();
    }
};

/// DCQCN firmware rules: monitor period, target-rate clamp, periodic alpha; preset; Dispose.
class DcqcnFirmwareTestCase : public TestCase
{
  public:
    DcqcnFirmwareTestCase()
        : TestCase("DCQCN: rate-reduce monitor period, ClampTargetRate, periodic alpha, "
                   "NVIDIA preset, Dispose")
    {
    }

  private:
    void DoRun() override
    {
        const double g = 1.0 / 256;
        // At most one decrease per 4 us; a CNP inside the period is acted on at its end.
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("RateReduceMonitorPeriod", TimeValue(MicroSeconds(4)));
        cc->Init(state);
        Simulator::Schedule(Time(0), [&]() { cc->OnCnp(state); });
        Simulator::Schedule(MicroSeconds(1), [&]() { cc->OnCnp(state); });
        Simulator::Schedule(MicroSeconds(2), [&]() {
            cc->OnCnp(state);
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                                  DataRate("50Gbps"),
                                  "no second decrease within the monitor period");
        });
        Simulator::Schedule(MicroSeconds(4) + NanoSeconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                                  DataRate("25Gbps"),
                                  "the held-back decrease happens at the period's end");
            NS_TEST_EXPECT_MSG_EQ(cc->GetDecreaseCount(), 2, "one held-back decrease for two CNPs");
        });
        Simulator::Stop(MicroSeconds(10));
        Simulator::Run();
        cc->Dispose();
        Simulator::Destroy();

        // ClampTargetRate false: RT = RC only after a timer increase event.
        state = MakeState();
        cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("ClampTargetRate", BooleanValue(false));
        cc->Init(state);
        Simulator::Schedule(Time(0), [&]() { cc->OnCnp(state); });
        Simulator::Schedule(MicroSeconds(1), [&]() {
            cc->OnCnp(state);
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("100Gbps"),
                                  "no timer event since the last cut: RT kept");
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("25Gbps"), "RC cut");
        });
        // Timer at 56 us: fast recovery to (100G + 25G)/2 = 62.5G; CNP at 60 us.
        Simulator::Schedule(MicroSeconds(60), [&]() {
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("62.5Gbps"), "fast recovery");
            cc->OnCnp(state);
            NS_TEST_EXPECT_MSG_EQ(cc->GetTargetRate(),
                                  DataRate("62.5Gbps"),
                                  "after a timer event a cut sets RT = RC");
            NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state),
                                      62.5e9 * (1 - (1 - g) / 2),
                                      1.0,
                                      "RC = 62.5G (1 - alpha/2), alpha decayed once");
        });
        Simulator::Stop(MicroSeconds(61));
        Simulator::Run();
        cc->Dispose();
        Simulator::Destroy();

        // Periodic alpha: every K = 1 us, alpha = (1-g) alpha + g [CNP in the interval].
        state = MakeState();
        cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("AlphaUpdate", EnumValue(RdmaDcqcn::ALPHA_PERIODIC));
        cc->SetAttribute("AlphaUpdateInterval", TimeValue(MicroSeconds(1)));
        cc->Init(state);
        Simulator::Schedule(Time(0), [&]() {
            cc->OnCnp(state);
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("50Gbps"), "cut with alpha 1");
        });
        Simulator::Schedule(NanoSeconds(1500), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      1.0,
                                      1e-15,
                                      "interval with a CNP: (1-g) 1 + g = 1");
        });
        Simulator::Schedule(NanoSeconds(2500), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 1 - g, 1e-15, "interval without: (1-g)");
            cc->OnCnp(state);
        });
        Simulator::Schedule(NanoSeconds(3500), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      (1 - g) * (1 - g) + g,
                                      1e-15,
                                      "interval with a CNP: (1-g) alpha + g");
        });
        Simulator::Schedule(NanoSeconds(5500), [&]() {
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                      ((1 - g) * (1 - g) + g) * (1 - g) * (1 - g),
                                      1e-15,
                                      "two intervals without: two decays");
        });
        Simulator::Stop(MicroSeconds(6));
        Simulator::Run();
        cc->Dispose();
        Simulator::Destroy();

        // The NVIDIA preset, on an instance and on a factory.
        cc = CreateObject<RdmaDcqcn>();
        cc->SetNvidiaFirmwareDefaults();
        TimeValue t;
        cc->GetAttribute("TimeReset", t);
        NS_TEST_EXPECT_MSG_EQ(t.Get(), MicroSeconds(300), "RPG_TIME_RESET = 300 us");
        UintegerValue u;
        cc->GetAttribute("Threshold", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 1, "RPG_THRESHOLD = 1");
        cc->GetAttribute("ByteReset", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 32767, "RPG_BYTE_RESET = 32767");
        DataRateValue r;
        cc->GetAttribute("AiRate", r);
        NS_TEST_EXPECT_MSG_EQ(r.Get(), DataRate("5Mbps"), "RPG_AI_RATE = 5 Mb/s");
        ObjectFactory factory("ns3::RdmaDcqcn");
        RdmaDcqcn::SetNvidiaFirmwareDefaults(factory);
        Ptr<RdmaDcqcn> fromFactory = factory.Create<RdmaDcqcn>();
        fromFactory->GetAttribute("RateReduceMonitorPeriod", t);
        NS_TEST_EXPECT_MSG_EQ(t.Get(), MicroSeconds(4), "RATE_REDUCE_MONITOR_PERIOD = 4 us");
        fromFactory->GetAttribute("HaiRate", r);
        NS_TEST_EXPECT_MSG_EQ(r.Get(), DataRate("50Mbps"), "RPG_HAI_RATE = 50 Mb/s");

        // Dispose cancels the timers: the rate no longer moves.
        state = MakeState();
        cc = CreateObject<RdmaDcqcn>();
        cc->Init(state);
        cc->OnCnp(state);
        cc->Dispose();
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                              DataRate("50Gbps"),
                              "no increase event after Dispose");
        Simulator::Destroy();
    }
};

/// The notification point: at most one CNP per QP per interval.
class CnpGeneratorTestCase : public TestCase
{
  public:
    CnpGeneratorTestCase()
        : TestCase("DCQCN notification point: one CNP per QP per MinTimeBetweenCnps")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCnpGenerator> np = CreateObject<RdmaCnpGenerator>();
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(Time(0)), true, "first CE: CNP");
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(MicroSeconds(10)),
                              false,
                              "10 us later: none");
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(NanoSeconds(49999)),
                              false,
                              "49.999 us later: none");
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(MicroSeconds(50)),
                              true,
                              "50 us (N) later: CNP");
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(MicroSeconds(60)),
                              false,
                              "10 us after that: none");
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(MicroSeconds(200)), true, "CNP");
        NS_TEST_EXPECT_MSG_EQ(np->GetCeMarkedPackets(), 6, "CE-marked packets");
        NS_TEST_EXPECT_MSG_EQ(np->GetCnpsSent(), 3, "CNPs");

        np->SetAttribute("MinTimeBetweenCnps", TimeValue(MicroSeconds(4)));
        Ptr<RdmaCnpGenerator> other = np->Fork();
        NS_TEST_EXPECT_MSG_EQ(other->GetCnpsSent(), 0, "Fork starts without history");
        NS_TEST_EXPECT_MSG_EQ(other->OnCongestionExperienced(MicroSeconds(200)), true, "CNP");
        NS_TEST_EXPECT_MSG_EQ(other->OnCongestionExperienced(MicroSeconds(203)),
                              false,
                              "Fork keeps the 4 us interval");
        NS_TEST_EXPECT_MSG_EQ(other->OnCongestionExperienced(MicroSeconds(204)), true, "CNP");

        np->SetAttribute("MinTimeBetweenCnps", TimeValue(Time(0)));
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(MicroSeconds(200)),
                              true,
                              "interval 0: a CNP for every CE packet");
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(MicroSeconds(200)), true, "again");

        // Enabled false (a UEC NIC): CE marks counted, no CNP, in a Fork too.
        np->SetAttribute("Enabled", BooleanValue(false));
        const uint64_t marked = np->GetCeMarkedPackets();
        const uint64_t sent = np->GetCnpsSent();
        NS_TEST_EXPECT_MSG_EQ(np->OnCongestionExperienced(MicroSeconds(900)), false, "no CNP");
        np->SetAttribute("CnpOnNak", BooleanValue(true));
        NS_TEST_EXPECT_MSG_EQ(np->OnSequenceNakSent(MicroSeconds(1000)), false, "nor for a NAK");
        NS_TEST_EXPECT_MSG_EQ(np->Fork()->OnCongestionExperienced(MicroSeconds(900)),
                              false,
                              "Fork keeps it off");
        NS_TEST_EXPECT_MSG_EQ(np->GetCeMarkedPackets(), marked + 1, "the CE mark counted");
        NS_TEST_EXPECT_MSG_EQ(np->GetCnpsSent(), sent, "no CNP counted");
        Simulator::Destroy();
    }
};

/// The rdma-cc-dcqcn suite
class RdmaCcDcqcnTestSuite : public TestSuite
{
  public:
    RdmaCcDcqcnTestSuite()
        : TestSuite("rdma-cc-dcqcn", UNIT)
    {
        AddTestCase(new DcqcnDecreaseTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnIncreaseTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnPeriodicDecreaseTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnFirmwareTestCase, TestCase::QUICK);
        AddTestCase(new CnpGeneratorTestCase, TestCase::QUICK);
    }
};

RdmaCcDcqcnTestSuite g_rdmaCcDcqcnTestSuite; //!< static instance

} // namespace
