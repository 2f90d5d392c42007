/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The bookkeeping every congestion-control algorithm shares, driven through
 * its RdmaCcState without a network: RdmaCongestionOps' counters, RTT samples
 * and rate limits, RdmaNoCc, and Fork() of each algorithm. The update rules
 * of each algorithm are in its own suite (rdma-cc-dcqcn, -hpcc, -timely,
 * -dctcp, -swift), as ns-3's tcp-*-test.cc are one per algorithm.
 *
 * Timers run on the Simulator; every case destroys it at the end. Every time
 * here is a whole nanosecond, so the values are exact whether the runner
 * keeps ns-3's default resolution or the module's picoseconds.
 */

#include "rdma-test-cc.h"

#include "ns3/double.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-dctcp.h"
#include "ns3/rdma-hpcc.h"
#include "ns3/rdma-swift.h"
#include "ns3/rdma-timely.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

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
                                 "ns3::RdmaSwift",
                                 "ns3::RdmaNscc"})
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

/// The rdma-cc suite
class RdmaCcTestSuite : public TestSuite
{
  public:
    RdmaCcTestSuite()
        : TestSuite("rdma-cc", UNIT)
    {
        AddTestCase(new CcBaseTestCase, TestCase::QUICK);
    }
};

RdmaCcTestSuite g_rdmaCcTestSuite; //!< static instance

} // namespace
