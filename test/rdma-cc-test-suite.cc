/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The congestion-control algorithms driven through their RdmaCcState,
 * without a network: each update rule against values worked out by hand
 * from the paper's equations (DCQCN, SIGCOMM 2015; HPCC, SIGCOMM 2019;
 * TIMELY, SIGCOMM 2015; DCTCP, SIGCOMM 2010 / RFC 8257; Swift,
 * SIGCOMM 2020), the CNP pacing of the notification point, the common
 * bookkeeping of RdmaCongestionOps, Fork() and the NVIDIA DCQCN preset.
 * Timers run on the Simulator; every case destroys it at the end.
 *
 * Every time here is a whole nanosecond, so the values are exact whether
 * the runner keeps ns-3's default resolution or the module's picoseconds.
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-cnp-generator.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-dctcp.h"
#include "ns3/rdma-hpcc.h"
#include "ns3/rdma-swift.h"
#include "ns3/rdma-timely.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

using namespace ns3;

namespace
{

/**
 * \brief A QP state with its path constants set.
 * \param lineRate the NIC's rate
 * \param baseRtt the base RTT
 * \param mtu bytes per packet
 * \return the state
 */
Ptr<RdmaCcState>
MakeState(DataRate lineRate = DataRate("100Gbps"),
          Time baseRtt = MicroSeconds(10),
          uint32_t mtu = 1000)
{
    Ptr<RdmaCcState> state = CreateObject<RdmaCcState>();
    state->m_lineRate = lineRate;
    state->m_baseRtt = baseRtt;
    state->m_mtu = mtu;
    return state;
}

/// \return the state's rate in bits per second, as a double
double
Bps(Ptr<const RdmaCcState> state)
{
    return static_cast<double>(state->m_rate.Get().GetBitRate());
}

/**
 * \brief An ACK of `bytes` with an RTT sample.
 * \param bytes bytes acknowledged
 * \param rtt the RTT sample (0 = none)
 * \param ecn whether it echoes a CE mark
 * \return the ACK
 */
RdmaAckInfo
Ack(uint64_t bytes, Time rtt = Time(0), bool ecn = false)
{
    RdmaAckInfo ack;
    ack.ackedBytes = bytes;
    ack.rtt = rtt;
    ack.ecnEcho = ecn;
    return ack;
}

/**
 * \brief One INT record.
 * \param rate the egress link's rate
 * \param ts its timestamp
 * \param txBytes its cumulative transmitted bytes
 * \param qlen its queue length, bytes
 * \return the record
 */
RdmaIntHop
Hop(DataRate rate, Time ts, uint64_t txBytes, uint32_t qlen)
{
    RdmaIntHop hop;
    hop.linkRate = rate;
    hop.timestamp = ts;
    hop.txBytes = txBytes;
    hop.qlenBytes = qlen;
    return hop;
}

/// An algorithm that asks for twice the line rate on a CNP and 0 on a NAK.
class OutOfRangeCc : public RdmaCongestionOps
{
  public:
    std::string GetName() const override
    {
        return "OutOfRangeCc";
    }

    Ptr<RdmaCongestionOps> Fork() override
    {
        return CreateObject<OutOfRangeCc>();
    }

  private:
    void DoOnCnp(Ptr<RdmaCcState> state) override
    {
        state->m_rate = DataRate("200Gbps");
    }

    void DoOnNak(Ptr<RdmaCcState> state) override
    {
        state->m_rate = DataRate(0);
    }
};

/// Counters, RTT samples and limits kept by the base class; RdmaNoCc; Fork.
class CcBaseTestCase : public TestCase
{
  public:
    CcBaseTestCase()
        : TestCase("RdmaCongestionOps bookkeeping, RdmaNoCc, Fork and the factory")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaNoCc> none = CreateObject<RdmaNoCc>();
        state->m_window = 777;
        state->m_rate = DataRate("1Gbps");
        none->Init(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                              DataRate("100Gbps"),
                              "RdmaNoCc: line rate after Init");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 0, "RdmaNoCc: no window after Init");
        NS_TEST_EXPECT_MSG_EQ(none->GetName(), "RdmaNoCc", "name");

        none->OnSend(state, 1000);
        none->OnSend(state, 1000);
        none->OnSend(state, 1000);
        NS_TEST_EXPECT_MSG_EQ(state->m_sndNxt, 3000, "OnSend counts sent bytes");
        NS_TEST_EXPECT_MSG_EQ(state->m_bytesInFlight, 3000, "OnSend counts bytes in flight");
        none->OnAck(state, Ack(1000, MicroSeconds(5)));
        NS_TEST_EXPECT_MSG_EQ(state->m_sndUna, 1000, "OnAck counts acknowledged bytes");
        NS_TEST_EXPECT_MSG_EQ(state->m_bytesInFlight, 2000, "OnAck removes bytes from flight");
        NS_TEST_EXPECT_MSG_EQ(state->m_lastRtt, MicroSeconds(5), "latest RTT");
        none->OnAck(state, Ack(1000, MicroSeconds(3)));
        none->OnAck(state, Ack(0, MicroSeconds(4)));
        NS_TEST_EXPECT_MSG_EQ(state->m_minRtt, MicroSeconds(3), "smallest RTT");
        NS_TEST_EXPECT_MSG_EQ(state->m_lastRtt, MicroSeconds(4), "latest RTT");
        none->OnAck(state, Ack(0));
        NS_TEST_EXPECT_MSG_EQ(state->m_lastRtt, MicroSeconds(4), "an ACK without RTT keeps it");
        none->OnTimeout(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_bytesInFlight, 0, "a timeout empties the flight");
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("100Gbps"), "RdmaNoCc keeps line rate");
        NS_TEST_EXPECT_MSG_EQ(state->GetBdpBytes(), 125000, "BDP = 100 Gb/s x 10 us / 8");

        Ptr<OutOfRangeCc> wild = CreateObject<OutOfRangeCc>();
        wild->Init(state);
        wild->OnCnp(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                              DataRate("100Gbps"),
                              "the hooks keep the rate at most the line rate");
        wild->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate(1), "and above zero");

        // Fork copies the attributes, not the per-QP state.
        ObjectFactory factory("ns3::RdmaDcqcn");
        factory.Set("G", DoubleValue(0.5));
        Ptr<RdmaCongestionOps> proto = factory.Create<RdmaCongestionOps>();
        Ptr<RdmaCongestionOps> copy = proto->Fork();
        NS_TEST_EXPECT_MSG_NE(PeekPointer(copy), PeekPointer(proto), "Fork makes a new instance");
        DoubleValue g;
        copy->GetAttribute("G", g);
        NS_TEST_EXPECT_MSG_EQ_TOL(g.Get(), 0.5, 1e-15, "Fork copies the attributes");
        NS_TEST_EXPECT_MSG_EQ(copy->GetName(), "RdmaDcqcn", "the copy is a DCQCN");
        for (const char* name : {"ns3::RdmaNoCc",
                                 "ns3::RdmaHpcc",
                                 "ns3::RdmaTimely",
                                 "ns3::RdmaDctcp",
                                 "ns3::RdmaSwift"})
        {
            ObjectFactory f(name);
            Ptr<RdmaCongestionOps> cc = f.Create<RdmaCongestionOps>();
            Ptr<RdmaCongestionOps> forked = cc->Fork();
            NS_TEST_EXPECT_MSG_EQ(forked->GetInstanceTypeId().GetName(),
                                  std::string(name),
                                  "Fork keeps the type");
            Ptr<RdmaCcState> s = MakeState();
            forked->Init(s);
            NS_TEST_EXPECT_MSG_GT(Bps(s), 0, name << " sets a positive rate at Init");
        }
        Simulator::Destroy();
    }
};

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
        Simulator::Destroy();
    }
};

/// HPCC: U from INT, the window rule of Algorithm 1, W_c once per RTT, fast reaction.
class HpccTestCase : public TestCase
{
  public:
    HpccTestCase()
        : TestCase("HPCC: U from INT, Algorithm 1 window rule, maxStage, fast reaction")
    {
    }

  private:
    /**
     * \brief Deliver an ACK of one MTU carrying one INT hop at 100 Gb/s.
     * \param ts the hop's timestamp
     * \param tx its cumulative bytes
     * \param q its queue length
     */
    void AckHop(Time ts, uint64_t tx, uint32_t q)
    {
        RdmaAckInfo ack = Ack(1000);
        ack.intHops.push_back(Hop(DataRate("100Gbps"), ts, tx, q));
        m_cc->OnAck(m_state, ack);
    }

    void DoRun() override
    {
        // 100 Gb/s, T = 10 us: W_init = 125000 B; W_AI = 40 Mb/s x 10 us = 50 B.
        m_state = MakeState();
        m_cc = CreateObject<RdmaHpcc>();
        m_cc->Init(m_state);
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 125000, "W_init = B x T");
        NS_TEST_EXPECT_MSG_EQ(m_state->m_rate.Get(), DataRate("100Gbps"), "line rate at start");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetWindowAi(), 50.0, 1e-9, "W_AI = 10 Mb/s x 4 x T");

        for (int i = 0; i < 3; ++i)
        {
            m_cc->OnSend(m_state, 1000);
        }
        AckHop(MicroSeconds(1), 0, 0); // first INT: recorded only
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 125000, "the first INT only records");

        // Fast reaction: qlen 0, txRate = B over 10 us: U_j = 1, U = 1.
        AckHop(MicroSeconds(11), 125000, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(), 1.0, 1e-12, "U = 0/(BT) + B/B = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetWindow(),
                                  125000 * 0.95 + 50,
                                  1e-6,
                                  "W = W_c/(U/eta) + W_AI = 118800");
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 118800, "window published");
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), 95.04e9, 1.0, "rate = W/T = 95.04 Gb/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                  125000.0,
                                  1e-9,
                                  "fast reaction leaves W_c");

        // Half the rate over 5 us: tau = T/2, U = 0.5 x 1 + 0.5 x 0.5 = 0.75 < eta.
        AckHop(MicroSeconds(16), 125000 + 31250, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.75,
                                  1e-12,
                                  "EWMA: U = (1 - tau/T) U + (tau/T) u");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetWindow(),
                                  125000.0,
                                  1e-9,
                                  "W = W_c + W_AI, capped at W_init");

        // The next ACK acknowledges data sent after the first INT: W_c is updated.
        m_cc->OnSend(m_state, 1000);
        AckHop(MicroSeconds(26), 156250 + 125000, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                  118800.0,
                                  1e-6,
                                  "once per RTT: W_c = W = 125000 x 0.95 + 50");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(), 0, "multiplicative step: incStage 0");

        // Five updates at U = 0.93 < eta: W_c + W_AI each, incStage 1..5.
        uint64_t tx = 281250;
        Time ts = MicroSeconds(26);
        for (int i = 1; i <= 5; ++i)
        {
            m_cc->OnSend(m_state, 1000);
            tx += 116250;
            ts += MicroSeconds(10);
            AckHop(ts, tx, 0);
            NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(), 0.93, 1e-9, "U = 0.93");
            NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                      118800.0 + 50 * i,
                                      1e-6,
                                      "U < eta: W_c = W_c + W_AI");
            NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(),
                                  static_cast<uint32_t>(i),
                                  "incStage counts additive steps");
        }
        // incStage = maxStage: the multiplicative rule even below eta.
        m_cc->OnSend(m_state, 1000);
        tx += 116250;
        ts += MicroSeconds(10);
        AckHop(ts, tx, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetReferenceWindow(),
                                  119050.0 * 0.95 / 0.93 + 50,
                                  1e-6,
                                  "incStage >= maxStage: W = W_c/(U/eta) + W_AI");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(), 0, "incStage reset");

        // Queue term with the smaller of two queue lengths; the largest hop wins.
        m_state = MakeState();
        m_cc = CreateObject<RdmaHpcc>();
        m_cc->Init(m_state);
        m_cc->OnSend(m_state, 1000);
        AckHop(Time(0), 0, 50000);
        AckHop(MicroSeconds(10), 0, 25000);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.2,
                                  1e-12,
                                  "U = min(25000, 50000) B / (100 Gb/s x 10 us) = 0.2");
        RdmaAckInfo first = Ack(0);
        first.intHops = {Hop(DataRate("100Gbps"), MicroSeconds(20), 0, 0),
                         Hop(DataRate("40Gbps"), MicroSeconds(20), 0, 10000)};
        m_cc->OnAck(m_state, first); // hop count changed: recorded only
        RdmaAckInfo second = Ack(0);
        second.intHops = {Hop(DataRate("100Gbps"), MicroSeconds(30), 62500, 0),
                          Hop(DataRate("40Gbps"), MicroSeconds(30), 50000, 20000)};
        m_cc->OnAck(m_state, second);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  1.2,
                                  1e-12,
                                  "U = max(0.5, 10000 B/(40 Gb/s x 10 us) + 40G/40G = 1.2)");
        Simulator::Destroy();
    }

    Ptr<RdmaCcState> m_state; //!< the QP's state
    Ptr<RdmaHpcc> m_cc;       //!< the algorithm
};

/**
 * HPCC with a QP's packets over two paths: slot 0's record comes from
 * egress A or egress B in turn. Each record is compared with the last one
 * of its own egress (Algorithm 1's per-hop differences need the same
 * link), never with the other path's.
 */
class HpccPerEgressTestCase : public TestCase
{
  public:
    HpccPerEgressTestCase()
        : TestCase("HPCC: INT records compared per egress when packets take several paths")
    {
    }

  private:
    /**
     * \brief Deliver an ACK carrying one INT hop at 100 Gb/s from one egress.
     * \param egress the egress that wrote it
     * \param ts its timestamp
     * \param tx its cumulative bytes
     */
    void AckFrom(uint64_t egress, Time ts, uint64_t tx)
    {
        RdmaAckInfo ack = Ack(1000);
        RdmaIntHop hop = Hop(DataRate("100Gbps"), ts, tx, 0);
        hop.egressId = egress;
        ack.intHops.push_back(hop);
        m_cc->OnAck(m_state, ack);
    }

    void DoRun() override
    {
        // 100 Gb/s, T = 10 us (B x T = 125000 B). Egress B has sent far more
        // (other flows) than egress A: a difference across them is no rate.
        const uint64_t a = (1ULL << 32) | 1;
        const uint64_t b = (2ULL << 32) | 1;
        const uint64_t bBase = 1000000000;
        m_state = MakeState();
        m_cc = CreateObject<RdmaHpcc>();
        m_cc->Init(m_state);
        m_cc->OnSend(m_state, 1000);
        AckFrom(a, MicroSeconds(0), 0); // first INT: recorded only
        AckFrom(b, MicroSeconds(5), bBase);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  1.0,
                                  1e-12,
                                  "B's first record has no reference: U stays at its start");
        NS_TEST_EXPECT_MSG_EQ(m_state->m_window.Get(), 125000, "no measurement, W = W_init");
        // A at half rate over T: tau = T, U = u_A = 62500 x 8 / 10 us / 100 Gb/s = 0.5.
        AckFrom(a, MicroSeconds(10), 62500);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.5,
                                  1e-12,
                                  "A compared with A's previous record: U = 0.5");
        // B at 0.9 of its rate over T: U = 0.9.
        AckFrom(b, MicroSeconds(15), bBase + 112500);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetUtilization(),
                                  0.9,
                                  1e-12,
                                  "B compared with B's previous record: U = 0.9");
        Simulator::Destroy();
    }

    Ptr<RdmaCcState> m_state; //!< the QP's state
    Ptr<RdmaHpcc> m_cc;       //!< the algorithm
};

/// TIMELY: T_low, T_high, gradient rules, hyperactive increase, once per RTT.
class TimelyTestCase : public TestCase
{
  public:
    TimelyTestCase()
        : TestCase("TIMELY: T_low and T_high rules, RTT gradient, hyperactive increase")
    {
    }

  private:
    /**
     * \brief One RTT round: a packet sent and acknowledged with an RTT sample.
     * \param rtt the sample
     */
    void Round(Time rtt)
    {
        m_cc->OnSend(m_state, 1000);
        m_cc->OnAck(m_state, Ack(1000, rtt));
    }

    void DoRun() override
    {
        // 100 Gb/s: delta = 10 Mb/s per 10 Gb/s = 100 Mb/s.
        m_state = MakeState();
        m_cc = CreateObject<RdmaTimely>();
        m_cc->Init(m_state);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetAdditiveStep(), 100e6, 1e-6, "delta = 100 Mb/s");
        Round(MicroSeconds(600));
        NS_TEST_EXPECT_MSG_EQ(m_state->m_rate.Get(),
                              DataRate("100Gbps"),
                              "the first sample only sets prev_rtt");
        Round(MicroSeconds(600));
        double r = 100e9 * (1 - 0.8 * (1 - 500.0 / 600.0));
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state),
                                  r,
                                  2.0,
                                  "rtt > T_high: R = R (1 - beta (1 - T_high/rtt))");
        Round(MicroSeconds(40));
        r += 100e6;
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r, 2.0, "rtt < T_low: R = R + delta");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetRttDiff(),
                                  0.875 * -560e-6,
                                  1e-12,
                                  "rtt_diff = (1 - a) 0 + a (40 - 600) us");
        Round(MicroSeconds(100));
        r += 100e6;
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetRttDiff(),
                                  0.125 * -490e-6 + 0.875 * 60e-6,
                                  1e-12,
                                  "rtt_diff = -8.75 us");
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r, 2.0, "gradient <= 0: R = R + delta");
        Round(MicroSeconds(110));
        double diff = 0.125 * -8.75e-6 + 0.875 * 10e-6; // 7.65625 us
        r *= 1 - 0.8 * diff / 20e-6;
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state),
                                  r,
                                  2.0,
                                  "gradient > 0: R = R (1 - beta rtt_diff/minRTT)");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetIncreaseStage(), 0, "a decrease resets the count");

        // Five increases by delta, then hyperactive increase by N delta = 500 Mb/s.
        for (int i = 0; i < 5; ++i)
        {
            Round(MicroSeconds(40));
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r + 500e6, 2.0, "five increases of delta");
        Round(MicroSeconds(40));
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state),
                                  r + 1000e6,
                                  2.0,
                                  "sixth increase in a row: hyperactive, + 5 delta");
        // Once per RTT: an ACK that acknowledges nothing sent after the last update.
        m_cc->OnAck(m_state, Ack(0, MicroSeconds(40)));
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(m_state), r + 1000e6, 2.0, "no update within the RTT");
        // The floor: two rounds at 100 ms cut to about 0.04 of the rate, below 10 Gb/s.
        m_cc->SetAttribute("MinRate", DataRateValue(DataRate("10Gbps")));
        Round(MilliSeconds(100));
        Round(MilliSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(m_state->m_rate.Get(), DataRate("10Gbps"), "rate >= MinRate");
        Simulator::Destroy();
    }

    Ptr<RdmaCcState> m_state; //!< the QP's state
    Ptr<RdmaTimely> m_cc;     //!< the algorithm
};

/// DCTCP: alpha per window, cut once per window, one MTU per window, loss.
class DctcpTestCase : public TestCase
{
  public:
    DctcpTestCase()
        : TestCase("DCTCP: alpha per window of data, cut by alpha over 2, one MTU per window")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaDctcp> cc = CreateObject<RdmaDctcp>();
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 125000, "W starts at the BDP");
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("100Gbps"), "line rate");
        for (int i = 0; i < 4; ++i)
        {
            cc->OnSend(state, 1000);
        }
        cc->OnAck(state, Ack(1000));
        cc->OnAck(state, Ack(1000, Time(0), true));
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(),
                              62500,
                              "ECN echo: W = 125000 (1 - 1/2) with alpha 1");
        cc->OnAck(state, Ack(1000, Time(0), true));
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "at most one cut per window");
        cc->OnAck(state, Ack(1000));
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                  (1 - 1.0 / 16) * 1.0 + 0.5 / 16,
                                  1e-15,
                                  "half the window's bytes marked: alpha = 15/16 + 1/32");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "no increase in a marked window");

        // Unmarked data: each completed window adds one MTU and decays alpha.
        for (int i = 0; i < 4; ++i)
        {
            cc->OnSend(state, 1000);
        }
        cc->OnAck(state, Ack(1000)); // completes the window that ended at 4000 B
        double alpha = 0.96875 * 15 / 16;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-15, "F = 0: alpha (1-g)");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 63500, "W + 1 MTU");
        cc->OnAck(state, Ack(1000));
        cc->OnAck(state, Ack(1000));
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 63500, "no increase inside a window");
        cc->OnAck(state, Ack(1000));
        alpha *= 15.0 / 16;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-15, "alpha (1-g) again");
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 64500, "W + 1 MTU per window");
        cc->OnSend(state, 1000);
        cc->OnAck(state, Ack(1000, Time(0), true));
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                  64500 * (1 - alpha / 2),
                                  1e-6,
                                  "a later mark cuts with the current alpha");

        // Loss: a NAK halves once per window, a timeout leaves one MTU.
        state = MakeState();
        cc = CreateObject<RdmaDctcp>();
        cc->Init(state);
        cc->OnSend(state, 1000);
        cc->OnSend(state, 1000);
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "NAK: W / 2");
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 62500, "one loss cut per window");
        cc->OnTimeout(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 1000, "timeout: one MTU");
        Simulator::Destroy();
    }
};

/// Swift: target delay, AI, MD bounded by max_mdf once per RTT, pacing, host window.
class SwiftTestCase : public TestCase
{
  public:
    SwiftTestCase()
        : TestCase("Swift: target, AI below it, MD once per RTT bounded by max_mdf, pacing")
    {
    }

  private:
    /**
     * \param cwnd a window, packets
     * \return the flow-scaling delay for the default attributes, seconds
     * (fs_range 125 us, fs_min_cwnd 0.1, fs_max_cwnd 100)
     */
    static double Fs(double cwnd)
    {
        double a = 125e-6 / (1 / std::sqrt(0.1) - 1 / std::sqrt(100.0));
        double b = -a / std::sqrt(100.0);
        return std::max(0.0, std::min(a / std::sqrt(cwnd) + b, 125e-6));
    }

    /**
     * \brief An ACK of one MTU.
     * \param rtt its RTT sample
     * \param hops switch hops
     * \param remote the host delay
     * \return the ACK
     */
    static RdmaAckInfo SwiftAck(Time rtt, uint32_t hops, Time remote = Time(0))
    {
        RdmaAckInfo ack = Ack(1000, rtt);
        ack.hops = hops;
        ack.remoteDelay = remote;
        return ack;
    }

    void DoRun() override
    {
        Ptr<RdmaCcState> state = MakeState();
        Ptr<RdmaSwift> cc = CreateObject<RdmaSwift>();
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 125.0, 1e-9, "cwnd starts at the BDP");
        NS_TEST_EXPECT_MSG_EQ(cc->GetFlowScalingDelay(100), Time(0), "fs(fs_max_cwnd) = 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetFlowScalingDelay(0.1).GetSeconds(),
                                  125e-6,
                                  1e-12,
                                  "fs(fs_min_cwnd) = fs_range");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetFlowScalingDelay(1).GetSeconds(),
                                  112.5e-6 / (std::sqrt(10.0) - 0.1),
                                  1e-9,
                                  "fs(1) = a (1 - 1/sqrt(100)) = 36.74 us");
        NS_TEST_EXPECT_MSG_EQ(cc->GetFabricTarget(3),
                              MicroSeconds(28),
                              "target = base 25 us + 3 hops x 1 us + fs(125) = 0");

        Simulator::Schedule(Time(0), [&]() {
            cc->OnAck(state, SwiftAck(MicroSeconds(20), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      125 + 1.0 / 125,
                                      1e-9,
                                      "delay < target: cwnd += ai x acked / cwnd");
            NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 125008, "window = cwnd x MTU");
            cc->OnAck(state, SwiftAck(MicroSeconds(100), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      (125 + 1.0 / 125) * 0.5,
                                      1e-9,
                                      "1 - beta (100-28)/100 = 0.424 < 1 - max_mdf: cut by 0.5");
            cc->OnAck(state, SwiftAck(MicroSeconds(100), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      (125 + 1.0 / 125) * 0.5,
                                      1e-9,
                                      "at most one decrease per RTT");
        });
        Simulator::Schedule(MicroSeconds(100), [&]() {
            double w = (125 + 1.0 / 125) * 0.5;
            double target = 25e-6 + 3e-6 + Fs(w);
            cc->OnAck(state, SwiftAck(MicroSeconds(40), 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      w * (1 - 0.8 * (40e-6 - target) / 40e-6),
                                      1e-9,
                                      "one RTT later: cwnd (1 - beta (delay - target)/delay)");
            NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(), DataRate("100Gbps"), "no pacing >= 1");
        });
        // Host delay over its target: the host window decides.
        Simulator::Schedule(MicroSeconds(300), [&]() {
            double fabric = cc->GetFabricCwnd();
            cc->OnAck(state, SwiftAck(MicroSeconds(50), 3, MicroSeconds(30)));
            double fabricAfter = fabric + 1 / fabric;
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetFabricCwnd(),
                                      fabricAfter,
                                      1e-9,
                                      "fabric delay 20 us < target: AI");
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetHostCwnd(),
                                      fabricAfter * (1 - 0.8 * 10.0 / 30.0),
                                      1e-9,
                                      "host delay 30 us > 20 us: cwnd (1 - beta 10/30)");
            NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                      cc->GetHostCwnd(),
                                      1e-12,
                                      "cwnd = min(fabric, host)");
        });
        Simulator::Run();
        Simulator::Destroy();

        // Below one packet: paced at cwnd x MTU / RTT.
        state = MakeState();
        cc = CreateObject<RdmaSwift>();
        cc->SetAttribute("InitialCwnd", DoubleValue(0.5));
        cc->Init(state);
        NS_TEST_EXPECT_MSG_EQ(state->m_window.Get(), 500, "window 0.5 x MTU");
        NS_TEST_EXPECT_MSG_EQ(state->m_rate.Get(),
                              DataRate("400Mbps"),
                              "pacing: 0.5 x 1000 B / base RTT 10 us = 400 Mb/s");
        RdmaAckInfo small = SwiftAck(MicroSeconds(20), 0);
        small.ackedBytes = 100;
        cc->OnAck(state, small);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(),
                                  0.6,
                                  1e-12,
                                  "cwnd < 1: cwnd += ai x acked (0.1 packet)");
        NS_TEST_EXPECT_MSG_EQ_TOL(Bps(state), 240e6, 1.0, "pacing: 0.6 x 1000 B / RTT 20 us");

        // Loss: a NAK cuts by max_mdf; repeated timeouts reset to MinCwnd.
        state = MakeState();
        cc = CreateObject<RdmaSwift>();
        cc->Init(state);
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 62.5, 1e-9, "NAK: cwnd (1 - max_mdf)");
        cc->OnNak(state);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 62.5, 1e-9, "once per RTT");
        for (int i = 0; i < 5; ++i)
        {
            cc->OnTimeout(state);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 0.001, 1e-12, "5 timeouts: MinCwnd");
        Simulator::Destroy();
    }
};

/// The rdma-cc suite.
class RdmaCcTestSuite : public TestSuite
{
  public:
    RdmaCcTestSuite()
        : TestSuite("rdma-cc", UNIT)
    {
        AddTestCase(new CcBaseTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnDecreaseTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnIncreaseTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnFirmwareTestCase, TestCase::QUICK);
        AddTestCase(new DcqcnPeriodicDecreaseTestCase, TestCase::QUICK);
        AddTestCase(new CnpGeneratorTestCase, TestCase::QUICK);
        AddTestCase(new HpccTestCase, TestCase::QUICK);
        AddTestCase(new HpccPerEgressTestCase, TestCase::QUICK);
        AddTestCase(new TimelyTestCase, TestCase::QUICK);
        AddTestCase(new DctcpTestCase, TestCase::QUICK);
        AddTestCase(new SwiftTestCase, TestCase::QUICK);
    }
};

RdmaCcTestSuite g_rdmaCcTestSuite; //!< static instance

} // namespace
