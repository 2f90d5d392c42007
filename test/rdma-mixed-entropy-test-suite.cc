/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// htsim_uec's default load balancer: RdmaPathPenalty's walk and scores, and
// RdmaMixedEntropy feeding it from ACKs and trimmed packets' NAKs.

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
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

/**
 * RdmaPathPenalty against UecMpBitmap's walk taken step by step: when every
 * entropy has a score, a call passes one whole round (one wrap, one draw)
 * and ends at the position it began, under the new order. The class takes
 * that round at once; the ports, the scores and the draws must be the walk's.
 */
class PathPenaltyFullRoundTestCase : public TestCase
{
  public:
    PathPenaltyFullRoundTestCase()
        : TestCase("PathPenalty, 1 to 16 paths, every score from 0 to 15: each call gives the "
                   "port, leaves the scores and takes the draws of uet-htsim's step-by-step walk, "
                   "whole rounds with every entropy penalized included")
    {
    }

  private:
    /// The walk one position at a time (UecMpBitmap::nextEntropy's loop).
    struct Walk
    {
        uint32_t mask{0};
        uint32_t paths{0};
        uint16_t upper{0};
        uint32_t xr{0};
        uint32_t index{0};
        std::vector<uint8_t> score;

        void Advance(const std::function<uint16_t()>& draw)
        {
            if (++index > mask)
            {
                index = 0;
                xr = draw() & mask;
            }
        }

        uint16_t Next(const std::function<uint16_t()>& draw)
        {
            while (((index ^ xr) & mask) >= paths)
            {
                Advance(draw);
            }
            uint32_t e = (index ^ xr) & mask;
            bool skipped = false;
            for (uint32_t tried = 0; score[e] > 0 && tried <= mask; ++tried)
            {
                if (!skipped)
                {
                    --score[e];
                    skipped = true;
                }
                do
                {
                    Advance(draw);
                    e = (index ^ xr) & mask;
                } while (e >= paths);
            }
            const auto port = static_cast<uint16_t>(upper | ((index ^ xr) & mask));
            Advance(draw);
            return port;
        }
    };

    void DoRun() override
    {
        // One linear congruential sequence feeds both sides, each its own copy.
        uint32_t classState = 12345;
        uint32_t walkState = 12345;
        uint64_t classDraws = 0;
        uint64_t walkDraws = 0;
        const std::function<uint16_t()> classDraw = [&]() {
            ++classDraws;
            classState = classState * 1103515245U + 12345U;
            return static_cast<uint16_t>(classState >> 16);
        };
        const std::function<uint16_t()> walkDraw = [&]() {
            ++walkDraws;
            walkState = walkState * 1103515245U + 12345U;
            return static_cast<uint16_t>(walkState >> 16);
        };
        uint32_t fullRounds = 0;
        for (uint32_t paths : {1U, 2U, 3U, 4U, 7U, 8U, 16U})
        {
            RdmaPathPenalty p(paths, classDraw);
            Walk w;
            w.paths = paths;
            while (w.mask + 1 < paths)
            {
                w.mask = (w.mask << 1) | 1;
            }
            w.upper = static_cast<uint16_t>(0xC000 | (walkDraw() & ~w.mask & 0x3FFF));
            w.xr = walkDraw() & w.mask;
            w.score.assign(paths, 0);
            for (uint32_t call = 0; call < 400; ++call)
            {
                // Every 40 calls, penalize every port; in between, now and
                // then one (trim or ECN), so scores run from 15 down to 0.
                if (call % 40 == 0)
                {
                    for (uint32_t i = 0; i < paths; ++i)
                    {
                        const auto port = static_cast<uint16_t>(w.upper | i);
                        for (int k = 0; k < 4; ++k)
                        {
                            p.Penalize(port, RdmaPathPenalty::TRIM_PENALTY);
                        }
                        w.score[i] = RdmaPathPenalty::MAX_PENALTY;
                    }
                }
                else if (call % 7 == 3)
                {
                    const uint32_t i = (call * 5) % paths;
                    const uint8_t penalty =
                        call % 2 ? RdmaPathPenalty::TRIM_PENALTY : RdmaPathPenalty::ECN_PENALTY;
                    p.Penalize(static_cast<uint16_t>(w.upper | i), penalty);
                    w.score[i] = static_cast<uint8_t>(
                        std::min<uint32_t>(w.score[i] + penalty, RdmaPathPenalty::MAX_PENALTY));
                }
                bool all = paths == w.mask + 1;
                for (uint8_t sc : w.score)
                {
                    all = all && sc > 1;
                }
                fullRounds += all ? 1 : 0;
                NS_TEST_ASSERT_MSG_EQ(p.Next(classDraw),
                                      w.Next(walkDraw),
                                      paths << " paths, call " << call);
                NS_TEST_ASSERT_MSG_EQ(classDraws, walkDraws, paths << " paths, call " << call);
                for (uint32_t i = 0; i < paths; ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(+p.GetPenalty(static_cast<uint16_t>(w.upper | i)),
                                          +w.score[i],
                                          paths << " paths, call " << call << ", entropy " << i);
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(fullRounds, 500u, "whole rounds with every entropy penalized");
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
        AddTestCase(new PathPenaltyFullRoundTestCase, TestCase::QUICK);
        AddTestCase(new MixedEntropyTestCase, TestCase::QUICK);
    }
};

/// The instance.
RdmaMixedEntropyTestSuite g_rdmaMixedEntropyTestSuite;

} // namespace
