/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// htsim_uec's default load balancer: RdmaPathPenalty's walk and scores, and
// RdmaMixedEntropy feeding it from ACKs and trimmed packets' NAKs.

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <functional>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// RdmaPathPenalty: the walk, its scores, their cap.
class PathPenaltyTestCase : public TestCase
{
  public:
    PathPenaltyTestCase()
        : TestCase("PathPenalty, 4 paths: a round gives the 4 ports (shared upper bits, in "
                   "0xC000-0xFFFF); a trimmed packet's port (4) is skipped at its next 4 turns, "
                   "an ECN-echoed one (1) at 1; scores cap at 15 (uet-htsim's UecMpBitmap)")
    {
    }

  private:
    void DoRun() override
    {
        // A draw that keeps every round's order 0, 1, 2, 3 (XOR 0x1234 & 3 = 0).
        const std::function<uint16_t()> draw = []() { return uint16_t(0x1234); };
        RdmaPathPenalty p(4, draw);
        std::vector<uint16_t> port;
        for (int i = 0; i < 4; ++i)
        {
            port.push_back(p.Next(draw));
            const bool dynamic = port.back() >= 0xC000;
            NS_TEST_EXPECT_MSG_EQ(dynamic, true, "dynamic range");
            const uint16_t expected = uint16_t(((0xC000U | 0x1234U) & ~3U) | uint32_t(i));
            NS_TEST_EXPECT_MSG_EQ(port.back(), expected, "shared upper bits, index i");
        }
        p.Penalize(port[1], RdmaPathPenalty::TRIM_PENALTY);
        p.Penalize(port[3], RdmaPathPenalty::ECN_PENALTY);
        p.Penalize(0x1111, RdmaPathPenalty::TRIM_PENALTY); // not one of its ports
        NS_TEST_EXPECT_MSG_EQ(+p.GetPenalty(port[1]), 4, "trim: 4");
        NS_TEST_EXPECT_MSG_EQ(+p.GetPenalty(port[3]), 1, "ECN: 1");
        NS_TEST_EXPECT_MSG_EQ(+p.GetPenalty(0x1111), 0, "foreign port ignored");
        // Each turn of a penalized port skips it and takes one off its score
        // (only the first skip of a call does): 1 is skipped at its next 4
        // turns, 3 at its next one.
        const std::vector<int> expect = {0, 2, 0, 2, 3, 0, 2, 3, 0, 2, 3, 0, 1};
        for (std::size_t k = 0; k < expect.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(p.Next(draw), port[expect[k]], "call " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(+p.GetPenalty(port[1]), 0, "forgiven");
        for (int i = 0; i < 5; ++i)
        {
            p.Penalize(port[3], RdmaPathPenalty::TRIM_PENALTY);
        }
        NS_TEST_EXPECT_MSG_EQ(+p.GetPenalty(port[3]), +RdmaPathPenalty::MAX_PENALTY, "capped");
        // 3 paths: the walk over 0-3 passes over 3.
        RdmaPathPenalty three(3, draw);
        std::set<uint16_t> seen;
        for (int i = 0; i < 6; ++i)
        {
            seen.insert(three.Next(draw));
        }
        NS_TEST_EXPECT_MSG_EQ(seen.size(), 3u, "3 ports, each twice in 6 calls");
        NS_TEST_EXPECT_MSG_EQ(seen.count(port[3]), 0u, "not the fourth");
    }
};

/// RdmaMixedEntropy: recycled ports first, the walk without; NAKs and echoes penalize.
class MixedEntropyTestCase : public TestCase
{
  public:
    MixedEntropyTestCase()
        : TestCase("Mixed entropy, 4 paths: with nothing recycled a QP walks its 4 ports; a "
                   "port ACKed without ECN echo is reused first; a trimmed packet's NAK and an "
                   "ECN-echoed ACK penalize their packets' ports (uet-htsim's UecMpMixed)")
    {
    }

  private:
    static RoceFrame Request(uint32_t psn, uint16_t port)
    {
        RoceFrame f;
        f.bth.SetOpcode(RC_RDMA_WRITE_MIDDLE);
        f.bth.SetDestQp(7);
        f.bth.SetPsn(psn);
        f.udpSrcPort = port;
        return f;
    }

    static RoceFrame Response(uint32_t psn, bool trimNak, uint32_t msn, bool becn)
    {
        RoceFrame f;
        f.bth.SetOpcode(RC_ACKNOWLEDGE);
        f.bth.SetDestQp(1); // the requester's QP
        f.bth.SetPsn(psn);
        f.bth.SetBecn(becn);
        if (trimNak)
        {
            f.aeth.SetNak(AethHeader::NAK_TRIMMED);
            f.aeth.SetMsn(msn);
        }
        else
        {
            f.aeth.SetAck();
        }
        return f;
    }

    void DoRun() override
    {
        const Time flowlet = MicroSeconds(100);
        const uint32_t buffer = 8;
        const uint32_t paths = 4;
        RdmaEntropyParams params{flowlet, buffer, paths};
        Ptr<RdmaMixedEntropy> e = CreateObject<RdmaMixedEntropy>();
        e->Succeed(nullptr, &params);
        e->AssignStreams(5);
        std::vector<uint16_t> ports;
        for (uint32_t psn = 0; psn < 4; ++psn)
        {
            ports.push_back(e->Pick(1, 7));
            e->Sent(1, Request(psn, ports.back()));
        }
        NS_TEST_ASSERT_MSG_EQ(std::set<uint16_t>(ports.begin(), ports.end()).size(),
                              4u,
                              "the 4 ports of its walk");
        // PSN 1 trimmed: its port is skipped for the next 4 rounds.
        e->Acked(Response(0, true, 1, false), false);
        // PSN 2 ACKed with an ECN echo: its port skipped once, not recycled.
        e->Acked(Response(2, false, 0, true), false);
        std::multiset<uint16_t> next;
        for (uint32_t psn = 4; psn < 10; ++psn)
        {
            next.insert(e->Pick(1, 7));
            e->Sent(1, Request(psn, ports.back()));
        }
        NS_TEST_EXPECT_MSG_EQ(next.count(ports[1]), 0u, "the trimmed packet's port avoided");
        NS_TEST_EXPECT_MSG_EQ(next.count(ports[0]) + next.count(ports[3]), 5u, "the clean ones");
        // PSN 10 sent on port 0's, ACKed clean: reused before any walk.
        e->Sent(1, Request(10, ports[0]));
        e->Acked(Response(10, false, 0, false), false);
        NS_TEST_EXPECT_MSG_EQ(e->Pick(1, 7), ports[0], "recycled first");
        e->Dispose();
    }
};

/// The suite.
class RdmaMixedEntropyTestSuite : public TestSuite
{
  public:
    RdmaMixedEntropyTestSuite()
        : TestSuite("rdma-mixed-entropy", UNIT)
    {
        AddTestCase(new PathPenaltyTestCase, TestCase::QUICK);
        AddTestCase(new MixedEntropyTestCase, TestCase::QUICK);
    }
};

/// The instance.
RdmaMixedEntropyTestSuite g_rdmaMixedEntropyTestSuite;

} // namespace
