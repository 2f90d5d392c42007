/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Loss recovery under scripted loss of chosen PSNs: IRN's selective repeat
 * (Mittal et al., SIGCOMM 2018, section 3.1-3.2) and go-back-N as IBA
 * 9.7.5.1.2 and Linux rxe give it. Each case drops given arrivals of given
 * PSNs and checks which PSNs were sent again, how often, and whether a
 * timeout was needed.
 */

#include "rdma-test-hosts.h"

#include "ns3/boolean.h"
#include "ns3/error-model.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/qbb-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>
#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/**
 * Drops chosen arrivals of chosen PSNs: Drop(psn, {1, 2}) loses the first
 * and the second frame carrying `psn` (requests at the responder's port,
 * responses at the requester's). Other frames pass.
 */
class PsnDropModel : public ErrorModel
{
  public:
    /// \param psn the PSN  \param arrivals which arrivals of it to lose (1 = first)
    void Drop(uint32_t psn, std::set<uint32_t> arrivals)
    {
        m_drop[psn] = arrivals;
    }

    /// \return frames dropped
    uint32_t Dropped() const
    {
        return m_dropped;
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        RoceFrame f;
        if (RoceFrame::ParseEthernetFrame(p, f, false) != RoceFrame::OK)
        {
            return false;
        }
        uint32_t psn = f.bth.GetPsn();
        uint32_t n = ++m_seen[psn];
        auto it = m_drop.find(psn);
        bool drop = it != m_drop.end() && it->second.count(n) > 0;
        m_dropped += drop;
        return drop;
    }

    void DoReset() override
    {
        m_seen.clear();
    }

    std::map<uint32_t, std::set<uint32_t>> m_drop; //!< PSN -> arrivals to lose
    std::map<uint32_t, uint32_t> m_seen;           //!< PSN -> arrivals so far
    uint32_t m_dropped{0};                         //!< frames dropped
};

/// A requester's PacketTx records: the PSNs sent again, in order.
struct Resent
{
    std::vector<uint32_t> psns; //!< retransmitted PSNs, in order

    explicit Resent(Ptr<RdmaQueuePair> qp)
    {
        qp->TraceConnectWithoutContext(
            "PacketTx",
            Callback<void, uint8_t, uint32_t, bool>([this](uint8_t, uint32_t psn, bool re) {
                if (re)
                {
                    psns.push_back(psn);
                }
            }));
    }
};

/// Two hosts with a PSN-drop model on each port, WRITEs of 1 KiB packets.
struct LossyPair
{
    TwoHosts h;                     //!< the hosts
    Ptr<PsnDropModel> toB;          //!< drops requests arriving at B
    Ptr<PsnDropModel> toA;          //!< drops responses arriving at A
    Resent resentA;                 //!< what A sent again

    static TwoHosts::Options Make(const std::string& policy)
    {
        TwoHosts::Options o;
        o.lossRecovery = policy;
        o.connection.timeout = 8; // 1.048576 ms local ACK timeout
        o.regionBytes = 4 << 20;
        return o;
    }

    explicit LossyPair(const std::string& policy)
        : LossyPair(Make(policy))
    {
    }

    explicit LossyPair(const TwoHosts::Options& o)
        : h(o),
          toB(CreateObject<PsnDropModel>()),
          toA(CreateObject<PsnDropModel>()),
          resentA(h.qpA)
    {
        h.SetReceiveErrorModel(1, toB);
        h.SetReceiveErrorModel(0, toA);
    }

    /// Post a WRITE of `packets` x 1 KiB from A's offset to B's, pattern `seed`.
    void Write(uint64_t id, uint64_t offset, uint32_t packets, uint8_t seed)
    {
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A + offset, packets * 1024, seed);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, id, TwoHosts::VA_A + offset, packets * 1024);
        w.remoteAddr = TwoHosts::VA_B + offset;
        h.qpA->PostSend(w);
    }

    /// \return how often psn was sent again
    uint32_t Count(uint32_t psn) const
    {
        return std::count(resentA.psns.begin(), resentA.psns.end(), psn);
    }
};

/// Selective repeat: a loss at the first, a middle or the last PSN of a message.
/**
 * RdmaOldestPsnFrom against a scan of every PSN, about the wrap at 2^24:
 * the PSN whose distance after the cumulative ACK is least, none when every
 * queued PSN is before it.
 */
class OldestPsnFromTestCase : public TestCase
{
  public:
    OldestPsnFromTestCase()
        : TestCase("the oldest queued resend at or after una, across the PSN wrap (IBA 9.7.2)")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t top = 1u << 24;
        const std::set<uint32_t> wrapped{2, 5, top - 3, top - 1};
        const std::set<uint32_t> low{10, 20, (1u << 23) + 30};
        uint32_t psn = 0;
        NS_TEST_ASSERT_MSG_EQ(RdmaOldestPsnFrom(wrapped, top - 4, psn), true, "found");
        NS_TEST_ASSERT_MSG_EQ(psn, top - 3, "the first after una, before the wrap");
        NS_TEST_ASSERT_MSG_EQ(RdmaOldestPsnFrom(wrapped, top - 2, psn), true, "found");
        NS_TEST_ASSERT_MSG_EQ(psn, top - 1, "the last PSN before the wrap");
        NS_TEST_ASSERT_MSG_EQ(RdmaOldestPsnFrom(wrapped, 0, psn), true, "found");
        NS_TEST_ASSERT_MSG_EQ(psn, 2u, "after the wrap; top - 3 and top - 1 are before 0");
        NS_TEST_ASSERT_MSG_EQ(RdmaOldestPsnFrom(wrapped, 6, psn),
                              false,
                              "2 and 5 are before 6, top - 3 is 2^24 - 9 behind it");
        NS_TEST_ASSERT_MSG_EQ(RdmaOldestPsnFrom(low, 15, psn), true, "found");
        NS_TEST_ASSERT_MSG_EQ(psn, 20u, "the first at or after 15");
        NS_TEST_ASSERT_MSG_EQ(RdmaOldestPsnFrom(low, 21, psn),
                              false,
                              "2^23 + 30 is more than half the PSN space ahead of 21");
        NS_TEST_ASSERT_MSG_EQ(RdmaOldestPsnFrom({}, 0, psn), false, "nothing queued");
        // Against the definition, on sets that straddle every position.
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        for (int round = 0; round < 200; ++round)
        {
            std::set<uint32_t> psns;
            const uint32_t base = u->GetInteger(0, top - 1);
            for (int i = 0; i < 8; ++i)
            {
                psns.insert(PsnAdd(base, u->GetInteger(0, 64)));
            }
            const uint32_t from = PsnAdd(base, u->GetInteger(0, 64) - 16);
            bool want = false;
            uint32_t best = 0;
            for (uint32_t p : psns)
            {
                if (PsnDiff(p, from) >= 0 && (!want || PsnDiff(p, best) < 0))
                {
                    best = p;
                    want = true;
                }
            }
            const bool got = RdmaOldestPsnFrom(psns, from, psn);
            NS_TEST_ASSERT_MSG_EQ(got, want, "round " << round << ": whether one is found");
            if (want)
            {
                NS_TEST_ASSERT_MSG_EQ(psn, best, "round " << round << ": the oldest after una");
            }
        }
    }
};

class IrnOneLossTestCase : public TestCase
{
  public:
    /// \param psn the PSN lost once  \param what its place, for the name
    IrnOneLossTestCase(uint32_t psn, std::string what)
        : TestCase("IRN: losing the " + what + " PSN of a message (" + std::to_string(psn) +
                   ") resends it once, SACK-driven, no timeout"),
          m_psn(psn)
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaSelectiveRepeat");
        p.toB->Drop(m_psn, {1});
        p.Write(1, 0, 32, 3);       // PSNs 0..31
        p.Write(2, 1 << 20, 16, 4); // PSNs 32..47: what follows reveals a last-PSN loss
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(p.h.wcA, IBV_WC_SUCCESS), 2, "both completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 32 * 1024, 3), true, "1");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B + (1 << 20), 16 * 1024, 4),
                              true,
                              "2");
        NS_TEST_EXPECT_MSG_EQ(p.toB->Dropped(), 1, "one frame lost");
        NS_TEST_EXPECT_MSG_EQ(p.resentA.psns.size(), 1, "one retransmission");
        NS_TEST_EXPECT_MSG_EQ(p.Count(m_psn), 1, "of the lost PSN");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpB->GetStats().duplicates, 0, "nothing arrived twice");
        Simulator::Destroy();
    }

    uint32_t m_psn;
};

/// Selective repeat: several holes in one window, each resent once.
class IrnHolesTestCase : public TestCase
{
  public:
    IrnHolesTestCase()
        : TestCase("IRN: holes 3, 4 and 9 in one window: each resent once, before new data")
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaSelectiveRepeat");
        p.toB->Drop(3, {1});
        p.toB->Drop(4, {1});
        p.toB->Drop(9, {1});
        p.Write(1, 0, 64, 5);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(p.h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 64 * 1024, 5), true, "bytes");
        std::vector<uint32_t> expect = {3, 4, 9};
        NS_TEST_EXPECT_MSG_EQ((p.resentA.psns == expect), true, "3, 4, 9 resent once, in order");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 0, "no timeout");
        Simulator::Destroy();
    }
};

/// Selective repeat: the same PSN lost twice (a lost retransmission).
class IrnLostRetransmissionTestCase : public TestCase
{
  public:
    IrnLostRetransmissionTestCase()
        : TestCase("IRN: a lost retransmission is found from later SACKs and resent, no timeout")
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaSelectiveRepeat");
        p.toB->Drop(5, {1, 2});
        p.Write(1, 0, 64, 6);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(p.h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 64 * 1024, 6), true, "bytes");
        NS_TEST_EXPECT_MSG_EQ(p.toB->Dropped(), 2, "PSN 5 lost twice");
        NS_TEST_EXPECT_MSG_EQ(p.resentA.psns.size(), 2, "two retransmissions");
        NS_TEST_EXPECT_MSG_EQ(p.Count(5), 2, "both of PSN 5");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 0, "no timeout");
        Simulator::Destroy();
    }
};

/// Selective repeat: a lost single-packet message waits RTO_low, not the verbs timeout.
class IrnRtoLowTestCase : public TestCase
{
  public:
    IrnRtoLowTestCase()
        : TestCase("IRN: a lost one-packet message is resent after RTO_low (100 us), not the "
                   "1.05 ms verbs timeout")
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaSelectiveRepeat");
        p.toB->Drop(0, {1});
        p.Write(1, 0, 1, 7);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(p.h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(p.h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 1, "one timeout");
        NS_TEST_EXPECT_MSG_EQ(p.Count(0), 1, "PSN 0 resent once");
        Time t = p.h.wcA[0].completed - p.h.wcA[0].posted;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(t, MicroSeconds(100), "not before RTO_low");
        NS_TEST_EXPECT_MSG_LT(t, MicroSeconds(110), "right after it");
        Simulator::Destroy();
    }
};

/// Selective repeat with no loss: BDP-FC never waits for a timeout.
class IrnNoLossTestCase : public TestCase
{
  public:
    IrnNoLossTestCase()
        : TestCase("IRN without loss: BDP-FC asks for ACKs in time, line rate, no timeout "
                   "(the AckReq-interval stall under a BDP-FC cap)")
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaSelectiveRepeat");
        p.Write(1, 0, 1024, 8); // 1 MiB
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(p.h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ(p.resentA.psns.size(), 0, "nothing resent");
        uint32_t cap = p.h.qpA->GetLossRecovery()->GetWindowPackets(1024); // 125000 B / 1 KiB
        NS_TEST_EXPECT_MSG_EQ(cap, 123, "BDP cap in packets");
        // An ACK at least every cap / 4 = 30 packets: 1024 / 30 of them, and the last.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(p.h.qpB->GetStats().packetsSent, 1024 / 30, "ACKs asked");
        // 1024 frames of 1024 + 82 B at 100 Gb/s: 90.6 us on the wire, plus one RTT.
        Time t = p.h.wcA[0].completed - p.h.wcA[0].posted;
        NS_TEST_EXPECT_MSG_LT(t, MicroSeconds(100), "at line rate");
        Simulator::Destroy();
    }
};

/// Selective repeat on a slow link: ACKs come often enough for IRN's timer.
class IrnSlowLinkTestCase : public TestCase
{
  public:
    IrnSlowLinkTestCase()
        : TestCase("IRN at 1 Gbps without loss: AckReq every quarter RTO_low, no spurious timeout "
                   "(30 packets take 250 us there, more than RTO_low)")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o = LossyPair::Make("ns3::RdmaSelectiveRepeat");
        o.rate = "1Gbps";
        TwoHosts h(o);
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 256 * 1024, 12);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 256 * 1024);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetStats().timeouts, 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetStats().retransmissions, 0, "nothing resent");
        // 256 frames of 1106 B on the wire at 1 Gb/s: 2.26 ms.
        NS_TEST_EXPECT_MSG_LT(h.wcA[0].completed - h.wcA[0].posted,
                              MicroSeconds(2300),
                              "at line rate");
        Simulator::Destroy();
    }
};

/// A lost READ response: asked for again at once, no timeout.
class LostReadResponseTestCase : public TestCase
{
  public:
    /**
     * \param policy the loss recovery
     * \param lost response PSNs lost once
     * \param asked the PSNs A asks again from, in order
     * \param responses READ response packets B sends in all
     * \param what the expectation, for the name
     */
    LostReadResponseTestCase(std::string policy,
                             std::vector<uint32_t> lost,
                             std::vector<uint32_t> asked,
                             uint32_t responses,
                             std::string what)
        : TestCase(policy + ", READ of 16 packets: " + what),
          m_policy(policy),
          m_lost(lost),
          m_asked(asked),
          m_responses(responses)
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p(m_policy);
        for (uint32_t psn : m_lost)
        {
            p.toA->Drop(psn, {1});
        }
        uint32_t responses = 0;
        p.h.qpB->TraceConnectWithoutContext(
            "PacketTx",
            Callback<void, uint8_t, uint32_t, bool>([&responses](uint8_t op, uint32_t, bool) {
                responses += op >= RC_RDMA_READ_RESPONSE_FIRST && op <= RC_RDMA_READ_RESPONSE_ONLY;
            }));
        TwoHosts::Fill(p.h.mrB, TwoHosts::VA_B + (2 << 20), 16 * 1024, 9);
        RdmaSendWr r = p.h.Wr(IBV_WR_RDMA_READ, 1, TwoHosts::VA_A + (2 << 20), 16 * 1024);
        r.remoteAddr = TwoHosts::VA_B + (2 << 20);
        p.h.qpA->PostSend(r);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(p.h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(p.h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrA, TwoHosts::VA_A + (2 << 20), 16 * 1024, 9),
                              true,
                              "bytes read");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ((p.resentA.psns == m_asked), true, "READ requests sent again");
        NS_TEST_EXPECT_MSG_EQ(responses, m_responses, "READ responses sent");
        Simulator::Destroy();
    }

    std::string m_policy;          //!< loss recovery
    std::vector<uint32_t> m_lost;  //!< responses lost
    std::vector<uint32_t> m_asked; //!< expected re-requests
    uint32_t m_responses;          //!< expected responses
};

/// Selective repeat: the QP still gives up after retry_cnt + 1 local ACK timeouts.
class IrnRetryExhaustedTestCase : public TestCase
{
  public:
    IrnRetryExhaustedTestCase()
        : TestCase("IRN, link kept down: RTO retransmissions, then IBV_WC_RETRY_EXC_ERR after "
                   "(retry_cnt + 1) local ACK timeouts without progress")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o = LossyPair::Make("ns3::RdmaSelectiveRepeat");
        o.connection.retryCnt = 3;
        TwoHosts h(o);
        QbbHelper::ScheduleLinkDown(h.devices, MicroSeconds(1), Seconds(100));
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 65536);
        w.remoteAddr = TwoHosts::VA_B;
        Simulator::Schedule(MicroSeconds(2), [&h, w]() { h.qpA->PostSend(w); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(h.wcA[0].status), "IBV_WC_RETRY_EXC_ERR", "error");
        Time t = h.wcA[0].completed;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(t, MicroSeconds(4 * 1048), "not before 4 local ACK timeouts");
        NS_TEST_EXPECT_MSG_LT(t, MicroSeconds(4 * 1048 + 330), "within one RTO_high after");
        // RTO_high (320 us) with 64 packets out, then RTO_low... at least 4 * 1048 / 320.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(h.qpA->GetStats().timeouts, 13, "IRN's RTO, not the verbs one");
        Simulator::Destroy();
    }
};

/// Go-back-N: two losses in one window cost one NAK; resend exactly from it.
class GbnTwoLossesTestCase : public TestCase
{
  public:
    GbnTwoLossesTestCase()
        : TestCase("go-back-N: PSNs 3 and 5 lost: one NAK (PSN 3), resend 3..9 once")
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaGoBackN");
        p.toB->Drop(3, {1});
        p.toB->Drop(5, {1});
        p.Write(1, 0, 10, 10);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(p.h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 10 * 1024, 10), true, "bytes");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpB->GetStats().nakSeqSent, 1, "one NAK for the episode");
        std::vector<uint32_t> expect = {3, 4, 5, 6, 7, 8, 9};
        NS_TEST_EXPECT_MSG_EQ((p.resentA.psns == expect), true, "resend from the NAKed PSN");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 0, "no timeout");
        Simulator::Destroy();
    }
};

/// Go-back-N: a lost retransmission waits for the timeout (one NAK per gap).
class GbnLostRetransmissionTestCase : public TestCase
{
  public:
    GbnLostRetransmissionTestCase()
        : TestCase("go-back-N: PSN 3 lost twice: one NAK, then the local ACK timeout, resend "
                   "from 3 again (IBA 9.7.5.1.2, rxe sent_psn_nak)")
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaGoBackN");
        p.toB->Drop(3, {1, 2});
        p.Write(1, 0, 10, 11);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(p.h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(p.h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 10 * 1024, 11), true, "bytes");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpB->GetStats().nakSeqSent, 1, "no second NAK for the same gap");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 1, "the timeout resends");
        NS_TEST_EXPECT_MSG_EQ(p.h.nicB->GetStats().cnpsSent, 0, "a NAK is no CNP (DCQCN)");
        std::vector<uint32_t> expect = {3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9};
        NS_TEST_EXPECT_MSG_EQ((p.resentA.psns == expect), true, "3..9 twice, each from PSN 3");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(p.h.wcA[0].completed, MicroSeconds(1048), "after the timeout");
        Simulator::Destroy();
    }
};

/**
 * Go-back-N as the HPCC and ConWeave simulators run it (RdmaGoBackN's
 * NakInterval, their nack_interval; RdmaCnpGenerator's CnpOnNak): the gap is
 * NAKed again once the interval has passed, the requester goes back on that
 * NAK without waiting for the timeout, and each NAK is answered with a CNP.
 */
class GbnNakIntervalTestCase : public TestCase
{
  public:
    GbnNakIntervalTestCase()
        : TestCase("go-back-N, NakInterval 1 us, CnpOnNak: PSN 3 lost twice: a second NAK, "
                   "resend from 3 twice, no timeout, a CNP per NAK (rdma-hw.cc "
                   "ReceiverCheckSeq of the HPCC and ConWeave simulators)")
    {
    }

  private:
    static void Setup(Ptr<RdmaNic> nic)
    {
        Ptr<RdmaGoBackN> policy = CreateObject<RdmaGoBackN>();
        policy->SetAttribute("NakInterval", TimeValue(MicroSeconds(1)));
        nic->SetQpAttribute("LossRecovery", PointerValue(policy));
        Ptr<RdmaCnpGenerator> np = CreateObject<RdmaCnpGenerator>();
        np->SetAttribute("CnpOnNak", BooleanValue(true));
        np->SetAttribute("MinTimeBetweenCnps", TimeValue(Time(0)));
        nic->SetAttribute("CnpGenerator", PointerValue(np));
    }

    void DoRun() override
    {
        TwoHosts::Options o = LossyPair::Make("ns3::RdmaGoBackN");
        o.setupA = &GbnNakIntervalTestCase::Setup;
        o.setupB = &GbnNakIntervalTestCase::Setup;
        LossyPair p(o);
        p.toB->Drop(3, {1, 2});
        p.Write(1, 0, 10, 12);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(p.h.wcA.size(), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(RdmaWcStatusName(p.h.wcA[0].status), "IBV_WC_SUCCESS", "success");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 10 * 1024, 12), true, "bytes");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpB->GetStats().nakSeqSent, 2, "the gap NAKed again");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, 0, "no timeout");
        std::vector<uint32_t> expect = {3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9};
        NS_TEST_EXPECT_MSG_EQ((p.resentA.psns == expect), true, "3..9 twice, each from PSN 3");
        NS_TEST_EXPECT_MSG_LT(p.h.wcA[0].completed, MicroSeconds(100), "long before a timeout");
        NS_TEST_EXPECT_MSG_EQ(p.h.nicB->GetStats().cnpsSent, 2, "a CNP for each NAK");
        NS_TEST_EXPECT_MSG_EQ(p.h.nicA->GetStats().cnpsReceived, 2, "both reached the sender");
        Simulator::Destroy();
    }
};

/// Selective repeat's reorder window and time, driven without a network.
/**
 * Selective repeat with RecoverAll, the ConWeave simulator's IRN sender
 * (rdma-hw.cc RecoverQueue: snd_nxt = snd_una, GetBytesLeft skipping SACKed
 * blocks): the NAK that starts an episode marks every PSN not SACKed.
 */
class IrnRecoverAllTestCase : public TestCase
{
  public:
    IrnRecoverAllTestCase()
        : TestCase("IRN RecoverAll: the first SACK (7) of PSNs 5..19 resends all but 7; a SACK "
                   "of 12 in the episode takes 12 off and adds nothing; IRN's rule resends 5, 6")
    {
    }

  private:
    void DoRun() override
    {
        using Set = std::set<uint32_t>;
        Ptr<RdmaSelectiveRepeat> all = CreateObject<RdmaSelectiveRepeat>();
        all->SetAttribute("RecoverAll", BooleanValue(true));
        RdmaRecoveryState s;
        s.una = 5;
        s.nextPsn = s.highestSent = 20;
        RdmaRecoveryState irnState = s;
        all->OnSequenceNak(s, 5, 7, true, Time(0));
        Set expect{5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == expect), true, "every PSN not SACKed");
        NS_TEST_EXPECT_MSG_EQ(s.episodes, 1, "one episode");
        NS_TEST_EXPECT_MSG_EQ(s.recoverySeq, 20, "up to the highest sent");
        all->OnSequenceNak(s, 5, 12, true, Time(0));
        expect.erase(12);
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == expect), true, "12 arrived: not resent");
        NS_TEST_EXPECT_MSG_EQ(s.episodes, 1, "the same episode");
        Ptr<RdmaSelectiveRepeat> irn = CreateObject<RdmaSelectiveRepeat>();
        irn->OnSequenceNak(irnState, 5, 7, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ((irnState.retransmit == Set{5, 6}), true, "IRN: the holes below");
    }
};

class IrnReorderRuleTestCase : public TestCase
{
  public:
    IrnReorderRuleTestCase()
        : TestCase("IRN reorder rule: a hole is lost after ReorderWindow SACKs past it or "
                   "ReorderTime after the first; window 1 and no time is IRN's first SACK")
    {
    }

  private:
    /// \return a state with PSNs 5..19 outstanding
    static RdmaRecoveryState Outstanding()
    {
        RdmaRecoveryState s;
        s.una = 5;
        s.nextPsn = s.highestSent = 20;
        return s;
    }

    /// \return a selective-repeat policy with these reorder settings
    static Ptr<RdmaSelectiveRepeat> Policy(uint32_t window, Time time)
    {
        Ptr<RdmaSelectiveRepeat> p = CreateObject<RdmaSelectiveRepeat>();
        p->SetAttribute("ReorderWindow", UintegerValue(window));
        p->SetAttribute("ReorderTime", TimeValue(time));
        return p;
    }

    void DoRun() override
    {
        using Set = std::set<uint32_t>;
        // IRN's defaults: the first SACK past a hole declares it lost.
        Ptr<RdmaSelectiveRepeat> irn = Policy(1, Time(0));
        RdmaRecoveryState s = Outstanding();
        irn->OnSequenceNak(s, 5, 7, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{5, 6}), true, "5 and 6 at SACK 7");
        NS_TEST_EXPECT_MSG_EQ(irn->GetLossDeadline(s, Time(0)), Time(0), "no time rule");

        // Window 3: three SACKs past a hole.
        Ptr<RdmaSelectiveRepeat> w3 = Policy(3, Time(0));
        s = Outstanding();
        w3->OnSequenceNak(s, 5, 7, true, Time(0));
        w3->OnSequenceNak(s, 5, 8, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ(s.retransmit.empty(), true, "two SACKs: reordering, not loss");
        NS_TEST_EXPECT_MSG_EQ(s.episodes, 0, "no recovery episode");
        w3->OnSequenceNak(s, 5, 9, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{5, 6}), true, "the third: 5 and 6 lost");
        w3->OnSequenceNak(s, 5, 12, true, Time(0));
        w3->OnSequenceNak(s, 5, 13, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{5, 6}), true, "10 and 11: two SACKs past");
        w3->OnSequenceNak(s, 5, 14, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{5, 6, 10, 11}), true, "and 10, 11 at 14");
        NS_TEST_EXPECT_MSG_EQ(s.episodes, 1, "one episode");

        // A retransmission is lost once the window's SACKs are past its mark.
        s = Outstanding();
        s.resent[5] = 20; // sent again when PSNs up to 19 were out
        s.highestSent = 25;
        w3->OnSequenceNak(s, 5, 21, true, Time(0));
        w3->OnSequenceNak(s, 5, 22, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ(s.retransmit.count(5), 0, "two SACKs past the mark");
        w3->OnSequenceNak(s, 5, 23, true, Time(0));
        NS_TEST_EXPECT_MSG_EQ(s.retransmit.count(5), 1, "the third: lost again");

        // Time 10 us with a window it never reaches.
        Ptr<RdmaSelectiveRepeat> t10 = Policy(100, MicroSeconds(10));
        s = Outstanding();
        t10->OnSequenceNak(s, 5, 7, true, MicroSeconds(1));
        t10->OnSequenceNak(s, 5, 6, true, MicroSeconds(2)); // not a new highest: no record
        t10->OnSequenceNak(s, 5, 9, true, MicroSeconds(4));
        NS_TEST_EXPECT_MSG_EQ(s.retransmit.empty(), true, "before the time");
        NS_TEST_EXPECT_MSG_EQ(t10->GetLossDeadline(s, MicroSeconds(4)),
                              MicroSeconds(11),
                              "10 us after SACK 7");
        t10->OnLossTimer(s, MicroSeconds(11));
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{5}), true, "5 lost: below SACK 7, not SACKed");
        NS_TEST_EXPECT_MSG_EQ(t10->GetLossDeadline(s, MicroSeconds(11)),
                              MicroSeconds(14),
                              "then 10 us after SACK 9");
        t10->OnLossTimer(s, MicroSeconds(14));
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{5, 8}), true, "and 8 below SACK 9");
        NS_TEST_EXPECT_MSG_EQ(t10->GetLossDeadline(s, MicroSeconds(14)), Time(0), "nothing due");
    }
};

/// Selective repeat with a reorder window on a real loss.
class IrnReorderWindowLossTestCase : public TestCase
{
  public:
    /**
     * \param window ReorderWindow
     * \param time ReorderTime
     * \param timeouts timeouts expected
     */
    IrnReorderWindowLossTestCase(uint32_t window, Time time, uint32_t timeouts)
        : TestCase("IRN, ReorderWindow " + std::to_string(window) + ", ReorderTime " +
                   std::to_string(time.GetMicroSeconds()) +
                   " us: PSN 5 of 32 lost is resent "
                   "once, " +
                   (timeouts ? "after RTO_low (26 SACKs < window)"
                             : "without a "
                               "timeout")),
          m_window(window),
          m_time(time),
          m_timeouts(timeouts)
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p("ns3::RdmaSelectiveRepeat");
        p.h.qpA->GetLossRecovery()->SetAttribute("ReorderWindow", UintegerValue(m_window));
        p.h.qpA->GetLossRecovery()->SetAttribute("ReorderTime", TimeValue(m_time));
        p.toB->Drop(5, {1});
        p.Write(1, 0, 32, 13);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(p.h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 32 * 1024, 13),
                              true,
                              "bytes");
        std::vector<uint32_t> expect = {5};
        NS_TEST_EXPECT_MSG_EQ((p.resentA.psns == expect), true, "5 resent once");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().timeouts, m_timeouts, "timeouts");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpB->GetStats().spuriousRetransmissions, 0, "none spurious");
        Simulator::Destroy();
    }

    uint32_t m_window;   //!< ReorderWindow
    Time m_time;         //!< ReorderTime
    uint32_t m_timeouts; //!< timeouts expected
};

/// Selective repeat reading a coalesced SACK's bitmap, without a network.
class IrnSackBitmapRuleTestCase : public TestCase
{
  public:
    IrnSackBitmapRuleTestCase()
        : TestCase("IRN SACK bitmap: every PSN it marks is SACKed, PSNs not sent are "
                   "ignored, and the reorder window counts them all")
    {
    }

  private:
    void DoRun() override
    {
        using Set = std::set<uint32_t>;
        Ptr<RdmaSelectiveRepeat> p = CreateObject<RdmaSelectiveRepeat>();
        p->SetAttribute("ReorderWindow", UintegerValue(3));
        RdmaRecoveryState s;
        s.una = 10;
        s.nextPsn = s.highestSent = 30;
        // Cumulative ACK 10; bits 1, 2 and 9 are PSNs 12, 13 and 20; bit 40
        // (PSN 51) was never sent. The MSN's PSN is 13, the newest arrival.
        const uint64_t bitmap = (1ULL << 1) | (1ULL << 2) | (1ULL << 9) | (1ULL << 40);
        p->OnSackBitmap(s, 10, 13, bitmap, MicroSeconds(1));
        NS_TEST_EXPECT_MSG_EQ((s.sacked == Set{12, 13, 20}), true, "12, 13, 20 SACKed");
        NS_TEST_EXPECT_MSG_EQ(s.highestSacked, 21, "one past 20");
        // Window 3: the third-highest SACKed PSN, 12, bounds the loss: 10, 11.
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{10, 11}), true, "10 and 11 lost");
        // A second SACK marking 21 and 22: the bound moves to 20.
        p->OnSackBitmap(s, 10, 22, (1ULL << 10) | (1ULL << 11), MicroSeconds(2));
        NS_TEST_EXPECT_MSG_EQ((s.retransmit == Set{10, 11, 14, 15, 16, 17, 18, 19}),
                              true,
                              "the holes below 20");
        // A bitmap of nothing is IRN's SACK of the MSN's PSN.
        RdmaRecoveryState t;
        t.una = 10;
        t.nextPsn = t.highestSent = 30;
        Ptr<RdmaSelectiveRepeat> irn = CreateObject<RdmaSelectiveRepeat>();
        irn->OnSackBitmap(t, 10, 12, 0, MicroSeconds(1));
        NS_TEST_EXPECT_MSG_EQ((t.sacked == Set{12}), true, "12 alone");
        NS_TEST_EXPECT_MSG_EQ((t.retransmit == Set{10, 11}), true, "window 1: 10 and 11");
    }
};

/// PSNs 5 and 40 of a 64-packet WRITE lost once, IRN with one attribute set on both QPs.
class TwoLossesTestCase : public TestCase
{
  protected:
    /// \param name the test's name
    explicit TwoLossesTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Run it and check what holds for any answering policy: the WRITE
     * completes with its bytes, 5 and 40 are resent once each, no timeout,
     * nothing spurious.
     * \param attribute the RdmaSelectiveRepeat attribute \param value its value
     * \param a set to A's (the requester's) stats \param b set to B's
     */
    void RunTwoLosses(const std::string& attribute,
                      uint32_t value,
                      RdmaQueuePair::Stats& a,
                      RdmaQueuePair::Stats& b)
    {
        LossyPair p("ns3::RdmaSelectiveRepeat");
        for (Ptr<RdmaQueuePair> qp : {p.h.qpA, p.h.qpB})
        {
            qp->GetLossRecovery()->SetAttribute(attribute, UintegerValue(value));
        }
        p.toB->Drop(5, {1});
        p.toB->Drop(40, {1});
        p.Write(1, 0, 64, 21);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(p.h.wcA, IBV_WC_SUCCESS), 1, "completed");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Holds(p.h.mrB, TwoHosts::VA_B, 64 * 1024, 21),
                              true,
                              "bytes");
        std::vector<uint32_t> expect = {5, 40};
        NS_TEST_EXPECT_MSG_EQ((p.resentA.psns == expect), true, "exactly 5 and 40, once each");
        a = p.h.qpA->GetStats();
        b = p.h.qpB->GetStats();
        NS_TEST_EXPECT_MSG_EQ(a.timeouts, 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ(b.spuriousRetransmissions, 0, "none spurious");
        Simulator::Destroy();
    }
};

/// SACK coalescing on real losses: fewer SACKs, the same retransmissions.
class IrnSackCoalescingTestCase : public TwoLossesTestCase
{
  public:
    /// \param coalescing SackCoalescing of both QPs
    explicit IrnSackCoalescingTestCase(uint32_t coalescing)
        : TwoLossesTestCase("IRN, SackCoalescing " + std::to_string(coalescing) +
                   ": PSNs 5 and 40 of 64 lost are each resent once, no timeout; " +
                   (coalescing == 1 ? "a SACK per out-of-order arrival"
                                    : "one SACK per " + std::to_string(coalescing) +
                                          " out-of-order arrivals or SackDelay")),
          m_coalescing(coalescing)
    {
    }

  private:
    void DoRun() override
    {
        RdmaQueuePair::Stats a;
        RdmaQueuePair::Stats b;
        RunTwoLosses("SackCoalescing", m_coalescing, a, b);
        NS_TEST_EXPECT_MSG_GT(b.outOfSequence, 2 * m_coalescing, "arrivals behind each hole");
        if (m_coalescing == 1)
        {
            NS_TEST_EXPECT_MSG_EQ(b.nakSeqSent, b.outOfSequence, "one SACK each (IRN 3.1)");
        }
        else
        {
            // One SACK per m_coalescing arrivals, and behind each of the two
            // holes at most one more the SackDelay timer sends early.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(b.nakSeqSent,
                                        b.outOfSequence / m_coalescing + 2,
                                        "about 1/N of the out-of-order arrivals");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(b.nakSeqSent, 2, "at least one per hole");
        }
        NS_TEST_EXPECT_MSG_EQ(a.nakSeqReceived, b.nakSeqSent, "all arrived");
    }

    uint32_t m_coalescing; //!< SackCoalescing
};

/// Keeps the ACKNOWLEDGE frames arriving at a port, and lets none through.
class AckCatcher : public ErrorModel
{
  public:
    std::vector<RoceFrame> acks; //!< the frames caught, in arrival order

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        RoceFrame f;
        if (RoceFrame::ParseEthernetFrame(p, f) == RoceFrame::OK &&
            f.bth.GetOpcode() == RC_ACKNOWLEDGE)
        {
            acks.push_back(f);
        }
        return true;
    }

    void DoReset() override
    {
    }
};

/// A coalesced SACK sent after a filled gap released its newest arrival.
class SackAfterFilledGapTestCase : public TestCase
{
  public:
    SackAfterFilledGapTestCase()
        : TestCase("SackCoalescing 8, requests 3, 1, 0 of a 4-packet WRITE: after 0 releases "
                   "1, the SACK at SackDelay acknowledges 0-1 and reports 3 (not 1, which "
                   "would read as 2 lost)")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o = LossyPair::Make("ns3::RdmaSelectiveRepeat");
        TwoHosts h(o);
        h.qpB->GetLossRecovery()->SetAttribute("SackCoalescing", UintegerValue(8));
        Ptr<AckCatcher> atA = CreateObject<AckCatcher>();
        h.SetReceiveErrorModel(0, atA);
        // The WRITE's requests as A's requester would build them.
        auto request = [&h](uint32_t i) {
            RoceFrame f;
            f.bth.SetOpcode(i == 0 ? RC_RDMA_WRITE_FIRST
                                   : (i == 3 ? RC_RDMA_WRITE_LAST : RC_RDMA_WRITE_MIDDLE));
            f.bth.SetDestQp(h.qpB->GetQpn());
            f.bth.SetPsn(i);
            f.bth.SetAckReq(i == 3);
            f.reth.SetVirtualAddress(TwoHosts::VA_B);
            f.reth.SetRkey(h.mrB->GetRkey());
            f.reth.SetDmaLength(4 * 1024);
            f.payload = Create<Packet>(1024);
            return f;
        };
        const uint32_t order[] = {3, 1, 0}; // 100 ns apart
        for (uint32_t k = 0; k < 3; ++k)
        {
            const uint32_t i = order[k];
            Simulator::Schedule(NanoSeconds(100 * k),
                                [&h, &request, i]() { h.qpB->Receive(request(i)); });
        }
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(atA->acks.size(),
                              1,
                              "one coalesced SACK for 3, 1 and the gap 0 filled");
        const RoceFrame& sack = atA->acks.front();
        NS_TEST_EXPECT_MSG_EQ(+sack.aeth.GetSyndrome(),
                              +RoceFrame::SEQUENCE_NAK_SYNDROME,
                              "a sequence NAK");
        NS_TEST_EXPECT_MSG_EQ(sack.bth.GetPsn(), 2, "0 and 1 acknowledged: 2 expected");
        NS_TEST_EXPECT_MSG_EQ(sack.aeth.GetMsn(), 3, "the highest kept PSN, past the gap");
        NS_TEST_EXPECT_MSG_EQ(sack.hasSackBitmap, true, "with its bitmap");
        NS_TEST_EXPECT_MSG_EQ(sack.sackBitmap, 1, "bit 0: PSN 2 + 1 = 3");
        NS_TEST_EXPECT_MSG_EQ(h.qpB->GetStats().nakSeqSent, 1, "counted once");
        Simulator::Destroy();
    }
};

/// A WRITE request of a 10-packet, 1 KiB-per-packet WRITE to B, as A's requester builds it.
RoceFrame
WriteRequest(const TwoHosts& h, uint32_t psn, bool ackReq, bool ce)
{
    RoceFrame f;
    f.bth.SetOpcode(psn == 0 ? RC_RDMA_WRITE_FIRST
                             : (psn == 9 ? RC_RDMA_WRITE_LAST : RC_RDMA_WRITE_MIDDLE));
    f.bth.SetDestQp(h.qpB->GetQpn());
    f.bth.SetPsn(psn);
    f.bth.SetAckReq(ackReq);
    f.reth.SetVirtualAddress(TwoHosts::VA_B);
    f.reth.SetRkey(h.mrB->GetRkey());
    f.reth.SetDmaLength(10 * 1024);
    f.payload = Create<Packet>(1024);
    f.ecn = ce ? 3 : 2;
    return f;
}

/// AckBytes: the responder answers by bytes received, in order or not.
class AckBytesTestCase : public TestCase
{
  public:
    AckBytesTestCase()
        : TestCase("AckBytes 4096, 1 KiB requests: ACK after 0-3, at once for CE-marked 4; "
                   "past the lost 5, the SACK after 6-9 (bitmap 0xF); the resent 5 asks and "
                   "its ACK covers 9 (UET 1.0 ACK coalescing, htsim_uec's UecSink)")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts h(LossyPair::Make("ns3::RdmaSelectiveRepeat"));
        h.qpB->GetLossRecovery()->SetAttribute("AckBytes", UintegerValue(4096));
        Ptr<AckCatcher> atA = CreateObject<AckCatcher>();
        h.SetReceiveErrorModel(0, atA);
        // PSN, AckReq, CE; 1 us apart, so each answer leaves before the next arrives.
        const std::vector<std::tuple<uint32_t, bool, bool>> arrivals = {
            {0, false, false},
            {1, false, false},
            {2, false, false},
            {3, false, false},
            {4, false, true},
            {6, false, false},
            {7, false, false},
            {8, false, false},
            {9, false, false},
            {5, true, false}};
        for (std::size_t k = 0; k < arrivals.size(); ++k)
        {
            const auto [psn, ackReq, ce] = arrivals[k];
            Simulator::Schedule(MicroSeconds(k), [&h, psn = psn, ackReq = ackReq, ce = ce]() {
                h.qpB->Receive(WriteRequest(h, psn, ackReq, ce));
            });
        }
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(atA->acks.size(), 4, "four answers for ten requests");
        const auto& a = atA->acks;
        NS_TEST_EXPECT_MSG_EQ(a[0].aeth.GetSyndromeType(), AethHeader::ACK, "an ACK");
        NS_TEST_EXPECT_MSG_EQ(a[0].bth.GetPsn(), 3, "after 4 KiB: 0-3");
        NS_TEST_EXPECT_MSG_EQ(a[1].bth.GetPsn(), 4, "CE-marked 4 at once");
        NS_TEST_EXPECT_MSG_EQ(+a[2].aeth.GetSyndrome(),
                              +RoceFrame::SEQUENCE_NAK_SYNDROME,
                              "past the gap, a SACK");
        NS_TEST_EXPECT_MSG_EQ(a[2].bth.GetPsn(), 5, "5 expected");
        NS_TEST_EXPECT_MSG_EQ(a[2].aeth.GetMsn(), 9, "the newest arrival");
        NS_TEST_EXPECT_MSG_EQ(a[2].sackBitmap, 0xF, "6, 7, 8, 9 (bits 0-3 past 5)");
        NS_TEST_EXPECT_MSG_EQ(a[3].aeth.GetSyndromeType(), AethHeader::ACK, "an ACK");
        NS_TEST_EXPECT_MSG_EQ(a[3].bth.GetPsn(), 9, "the resend asked: all of 0-9");
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(h.wcB, IBV_WC_SUCCESS) +
                                  TwoHosts::Count(h.wcA, IBV_WC_SUCCESS),
                              0,
                              "a WRITE completes nothing at B");
        Simulator::Destroy();
    }
};

/// AckBytes on real losses: the same retransmissions, far fewer answers.
class AckBytesLossTestCase : public TwoLossesTestCase
{
  public:
    AckBytesLossTestCase()
        : TwoLossesTestCase("AckBytes 16384, PSNs 5 and 40 of 64 lost (1 KiB each): each resent "
                            "once, no timeout, at most one answer per 16 requests and a few more")
    {
    }

  private:
    void DoRun() override
    {
        RdmaQueuePair::Stats a;
        RdmaQueuePair::Stats b;
        RunTwoLosses("AckBytes", 16384, a, b);
        // 66 requests arrive: 64 / 16 by bytes, the two resends, the last of
        // the message (AckReq every 64 and on the last) and the two holes' SACKs.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(a.nakSeqReceived, 4, "SACKs");
    }
};

/// Regression: a trimmed request's NAK overtaken by a later ACK was dropped as stale.
class StaleTrimNakTestCase : public TestCase
{
  public:
    StaleTrimNakTestCase()
        : TestCase("A trim NAK for PSN 5 (expected PSN 2) arriving after an ACK of 0-3 still "
                   "resends 5 at once (a sprayed ACK overtook it; it waited for the "
                   "retransmission timer)")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts h(LossyPair::Make("ns3::RdmaSelectiveRepeat"));
        Resent resent(h.qpA);
        Ptr<AckCatcher> atB = CreateObject<AckCatcher>(); // B gets nothing
        h.SetReceiveErrorModel(1, atB);
        TwoHosts::Fill(h.mrA, TwoHosts::VA_A, 8 * 1024, 5);
        RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, 1, TwoHosts::VA_A, 8 * 1024);
        w.remoteAddr = TwoHosts::VA_B;
        h.qpA->PostSend(w);
        auto response = [&h](uint32_t psn, bool trimNak) {
            RoceFrame f;
            f.bth.SetOpcode(RC_ACKNOWLEDGE);
            f.bth.SetDestQp(h.qpA->GetQpn());
            f.bth.SetPsn(psn);
            if (trimNak)
            {
                f.aeth.SetNak(AethHeader::NAK_TRIMMED);
                f.aeth.SetMsn(5);
            }
            else
            {
                f.aeth.SetAck();
            }
            return f;
        };
        Simulator::Schedule(MicroSeconds(5), [&]() { h.qpA->Receive(response(3, false)); });
        Simulator::Schedule(MicroSeconds(6), [&]() { h.qpA->Receive(response(2, true)); });
        Simulator::Stop(MicroSeconds(50)); // the timer is 1 ms
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ((resent.psns == std::vector<uint32_t>{5}), true, "5 resent");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetStats().nakTrimReceived, 1, "the NAK counted");
        NS_TEST_EXPECT_MSG_EQ(h.qpA->GetStats().timeouts, 0, "no timeout");
        Simulator::Destroy();
    }
};

/// The responder's reordering counters on one loss.
class ReorderCountersTestCase : public TestCase
{
  public:
    /// \param policy the loss recovery's TypeId
    explicit ReorderCountersTestCase(std::string policy)
        : TestCase(policy +
                   ": PSN 5 of 16 lost: 10 requests out of order, the resent 5 is late "
                   "by 10 packets; go-back-N's resent 6..15 are spurious (they had arrived), "
                   "selective repeat's none"),
          m_policy(policy)
    {
    }

  private:
    void DoRun() override
    {
        LossyPair p(m_policy);
        p.toB->Drop(5, {1});
        p.Write(1, 0, 16, 14);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(TwoHosts::Count(p.h.wcA, IBV_WC_SUCCESS), 1, "completed");
        const RdmaQueuePair::Stats& b = p.h.qpB->GetStats();
        const bool gbn = m_policy == "ns3::RdmaGoBackN";
        NS_TEST_EXPECT_MSG_EQ(b.outOfSequence, 10, "6..15 ahead of 5");
        NS_TEST_EXPECT_MSG_EQ(b.latePackets, 1, "one late request");
        NS_TEST_EXPECT_MSG_EQ(b.lateDepthPackets, 10, "after 10 past it");
        NS_TEST_EXPECT_MSG_EQ(b.lateDepthPacketsBins[RdmaQueuePair::Stats::PacketsBin(10)],
                              1,
                              "in bin 9-16");
        NS_TEST_EXPECT_MSG_GT(b.lateDepthNs, 0, "some time late");
        NS_TEST_EXPECT_MSG_EQ(p.h.qpA->GetStats().retransmissions, (gbn ? 11 : 1), "resent");
        NS_TEST_EXPECT_MSG_EQ(b.spuriousRetransmissions, (gbn ? 10 : 0), "spurious");
        Simulator::Destroy();
    }

    std::string m_policy; //!< the loss recovery
};

/// The loss-recovery suite.
class RdmaLossRecoveryTestSuite : public TestSuite
{
  public:
    RdmaLossRecoveryTestSuite()
        : TestSuite("rdma-loss-recovery", SYSTEM)
    {
        AddTestCase(new OldestPsnFromTestCase, TestCase::QUICK);
        AddTestCase(new IrnOneLossTestCase(0, "first"), TestCase::QUICK);
        AddTestCase(new IrnOneLossTestCase(17, "middle"), TestCase::QUICK);
        AddTestCase(new IrnOneLossTestCase(31, "last"), TestCase::QUICK);
        AddTestCase(new IrnHolesTestCase, TestCase::QUICK);
        AddTestCase(new IrnLostRetransmissionTestCase, TestCase::QUICK);
        AddTestCase(new IrnRtoLowTestCase, TestCase::QUICK);
        AddTestCase(new IrnNoLossTestCase, TestCase::QUICK);
        AddTestCase(new IrnSlowLinkTestCase, TestCase::QUICK);
        AddTestCase(new LostReadResponseTestCase("ns3::RdmaSelectiveRepeat",
                                                 {5},
                                                 {5},
                                                 17,
                                                 "response 5 lost: IRN's read NACK asks for "
                                                 "PSN 5 alone (16 + 1 responses)"),
                    TestCase::QUICK);
        AddTestCase(new LostReadResponseTestCase("ns3::RdmaSelectiveRepeat",
                                                 {3, 9},
                                                 {3, 9},
                                                 18,
                                                 "responses 3 and 9 lost: asked for one "
                                                 "after the other (16 + 2 responses)"),
                    TestCase::QUICK);
        AddTestCase(new LostReadResponseTestCase("ns3::RdmaGoBackN",
                                                 {5},
                                                 {5},
                                                 27,
                                                 "response 5 lost: asked again from 5 to the "
                                                 "end (16 + 11 responses)"),
                    TestCase::QUICK);
        AddTestCase(new IrnRetryExhaustedTestCase, TestCase::QUICK);
        AddTestCase(new GbnTwoLossesTestCase, TestCase::QUICK);
        AddTestCase(new GbnLostRetransmissionTestCase, TestCase::QUICK);
        AddTestCase(new GbnNakIntervalTestCase, TestCase::QUICK);
        AddTestCase(new IrnRecoverAllTestCase, TestCase::QUICK);
        AddTestCase(new IrnReorderRuleTestCase, TestCase::QUICK);
        AddTestCase(new IrnReorderWindowLossTestCase(4, Time(0), 0), TestCase::QUICK);
        AddTestCase(new IrnReorderWindowLossTestCase(64, Time(0), 1), TestCase::QUICK);
        AddTestCase(new IrnReorderWindowLossTestCase(64, MicroSeconds(5), 0), TestCase::QUICK);
        AddTestCase(new IrnSackBitmapRuleTestCase, TestCase::QUICK);
        AddTestCase(new IrnSackCoalescingTestCase(1), TestCase::QUICK);
        AddTestCase(new IrnSackCoalescingTestCase(8), TestCase::QUICK);
        AddTestCase(new SackAfterFilledGapTestCase, TestCase::QUICK);
        AddTestCase(new AckBytesTestCase, TestCase::QUICK);
        AddTestCase(new AckBytesLossTestCase, TestCase::QUICK);
        AddTestCase(new StaleTrimNakTestCase, TestCase::QUICK);
        AddTestCase(new ReorderCountersTestCase("ns3::RdmaGoBackN"), TestCase::QUICK);
        AddTestCase(new ReorderCountersTestCase("ns3::RdmaSelectiveRepeat"), TestCase::QUICK);
    }
};

RdmaLossRecoveryTestSuite g_rdmaLossRecoveryTestSuite; //!< static instance

} // namespace
