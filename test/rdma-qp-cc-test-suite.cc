/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaQpCc's bytes in flight, the figure a window-based congestion control
 * (NSCC, Swift, HPCC) compares its window with: what a NAK takes out of it.
 * A selective-repeat responder's sequence NAK names, in its MSN field, the
 * PSN that arrived out of order (IRN's SACK): that request was delivered.
 * Counting it as still in flight kept a QP whose oldest PSN was trimmed from
 * resending it while the window was below what it had delivered since, so
 * the QP waited for its retransmission timer (39 timeouts with nothing
 * dropped in UEC's 16-node incast; 0 once SACKed requests leave the count).
 */

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/// A fixed window of 1 MB and counts of the NAK hooks.
class FixedWindowCc : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RdmaQpCcTestFixedWindow")
                                .SetParent<RdmaCongestionOps>()
                                .SetGroupName("Rdma")
                                .AddConstructor<FixedWindowCc>();
        return tid;
    }

    std::string GetName() const override
    {
        return "FixedWindowCc";
    }

    Ptr<RdmaCongestionOps> Fork() override
    {
        return CopyObject<FixedWindowCc>(this);
    }

    uint32_t trimNaks{0};   //!< OnTrimNak calls
    uint32_t trimBytes{0};  //!< bytes they named
    uint64_t inFlightAt{0}; //!< m_bytesInFlight as OnTrimNak saw it

  private:
    void DoInit(Ptr<RdmaCcState> state) override
    {
        state->m_window = 1000000;
    }

    void DoOnTrimNak(Ptr<RdmaCcState> state, uint32_t bytes) override
    {
        ++trimNaks;
        trimBytes += bytes;
        inFlightAt = state->m_bytesInFlight;
    }
};

/// The payload of every request here, bytes.
constexpr uint32_t PAYLOAD = 1024;

/// \return a QP's CC with requests of PSNs 0-9 sent \param ops its algorithm
/// Send (or send again) the request of PSN `psn` through `cc`
void
Send(Ptr<RdmaQpCc> cc, uint32_t psn)
{
    RoceFrame f;
    f.bth.SetOpcode(RC_RDMA_WRITE_MIDDLE);
    f.bth.SetPsn(psn);
    f.payload = RdmaPayload::Zeros(PAYLOAD);
    cc->OnPacketSent(f, PAYLOAD);
}

Ptr<RdmaQpCc>
TenSent(Ptr<FixedWindowCc> ops)
{
    Ptr<RdmaQpCc> cc = CreateObject<RdmaQpCc>();
    cc->Setup(ops, nullptr, DataRate("100Gbps"), MicroSeconds(10));
    for (uint32_t psn = 0; psn < 10; ++psn)
    {
        Send(cc, psn);
    }
    return cc;
}

/// \return a NAK of `code` with PSN `psn` and MSN field `msn`
RoceFrame
Nak(AethHeader::NakCode code, uint32_t psn, uint32_t msn)
{
    RoceFrame f;
    f.bth.SetOpcode(RC_ACKNOWLEDGE);
    f.bth.SetPsn(psn);
    f.aeth.SetNak(code);
    f.aeth.SetMsn(msn);
    return f;
}

/// What a sequence NAK, a SACK and a trimming NAK take out of the bytes in flight.
class InFlightTestCase : public TestCase
{
  public:
    InFlightTestCase()
        : TestCase("a SACKed request leaves the bytes in flight; a go-back-N NAK's MSN names none")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t frame = PAYLOAD + RdmaQpCc::FRAME_OVERHEAD_BYTES;
        {
            Ptr<FixedWindowCc> ops = CreateObject<FixedWindowCc>();
            Ptr<RdmaQpCc> cc = TenSent(ops);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 10 * frame, "ten sent");
            // Selective repeat: PSN 0 is expected, PSN 5 arrived. PSN 0 is taken
            // as lost and PSN 5 as delivered: eight requests stay in flight.
            RdmaAckInfo ack;
            cc->OnPacketReceived(Nak(AethHeader::NAK_PSN_SEQUENCE_ERROR, 0, 5), ack, nullptr, true);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 8 * frame, "SACK of PSN 5");
            NS_TEST_ASSERT_MSG_EQ(ack.ackedBytes, frame, "PSN 5 delivered (RFC 6675 DeliveredData)");
            // The same SACK again takes nothing more.
            cc->OnPacketReceived(Nak(AethHeader::NAK_PSN_SEQUENCE_ERROR, 0, 5), ack, nullptr, true);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 8 * frame, "a repeated SACK");
            NS_TEST_ASSERT_MSG_EQ(ack.ackedBytes, 0, "nothing delivered twice");
            // PSN 5 sent again (a timeout queued it before its SACK came): a
            // spurious copy, not in flight (regression: it held NSCC's window
            // shut with nothing else in flight, and a flow never ended).
            RoceFrame again;
            again.bth.SetOpcode(RC_RDMA_WRITE_MIDDLE);
            again.bth.SetPsn(5);
            again.payload = RdmaPayload::Zeros(PAYLOAD);
            cc->OnPacketSent(again, PAYLOAD);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 8 * frame, "a copy of a SACKed one");
            // PSN 0 resent (it was taken as lost): in flight again.
            RoceFrame zero = again;
            zero.bth.SetPsn(0);
            cc->OnPacketSent(zero, PAYLOAD);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 9 * frame, "a resend of a lost one");
            // PSN 7 trimmed: out of flight before the algorithm hears of it.
            cc->OnPacketReceived(Nak(AethHeader::NAK_TRIMMED, 0, 7), ack, nullptr, false);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 8 * frame, "PSN 7 trimmed");
            NS_TEST_ASSERT_MSG_EQ(ops->trimNaks, 1, "one trimming NAK");
            NS_TEST_ASSERT_MSG_EQ(ops->trimBytes, frame, "of one request");
            NS_TEST_ASSERT_MSG_EQ(ops->inFlightAt, 8 * frame, "seen without it");
            // The cumulative ACK of PSNs 0-9 takes the rest, and counts the nine
            // not SACKed before as delivered.
            RoceFrame a;
            a.bth.SetOpcode(RC_ACKNOWLEDGE);
            a.bth.SetPsn(9);
            a.aeth.SetAck();
            cc->OnPacketReceived(a, ack, nullptr, false);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 0, "all acknowledged");
            NS_TEST_ASSERT_MSG_EQ(ack.ackedBytes, 9 * frame, "nine more delivered");
        }
        {
            // The loss recovery found PSNs 3 and 4 lost (a SACK's holes): out
            // of flight once each, in again when resent.
            Ptr<FixedWindowCc> ops = CreateObject<FixedWindowCc>();
            Ptr<RdmaQpCc> cc = TenSent(ops);
            cc->OnLost(3);
            cc->OnLost(4);
            cc->OnLost(4);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 8 * frame, "two found lost");
            Send(cc, 3);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 9 * frame, "PSN 3 resent");
            cc->OnLost(42);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 9 * frame, "a PSN never sent");
        }
        {
            // Go-back-N: the MSN field is the message sequence number, no PSN.
            Ptr<FixedWindowCc> ops = CreateObject<FixedWindowCc>();
            Ptr<RdmaQpCc> cc = TenSent(ops);
            RdmaAckInfo ack;
            cc->OnPacketReceived(Nak(AethHeader::NAK_PSN_SEQUENCE_ERROR, 0, 5), ack, nullptr, false);
            NS_TEST_ASSERT_MSG_EQ(cc->GetState()->m_bytesInFlight, 9 * frame, "only PSN 0 lost");
        }
        Simulator::Destroy();
    }
};

/// Karn's rule, with trimming: the ACK of a resend whose earlier copy was
/// trimmed is an RTT sample (that copy cannot arrive); a resend while an
/// earlier copy may still arrive is not (UecSrc::validateSendTs samples a
/// resend only when unambiguous, too).
class ResendRttSampleTestCase : public TestCase
{
  public:
    ResendRttSampleTestCase()
        : TestCase("RTT sample from the resend of a trimmed request; none from an ambiguous resend")
    {
    }

  private:
    /// \return an ACK of PSNs up to `psn`
    static RoceFrame AckOf(uint32_t psn)
    {
        RoceFrame a;
        a.bth.SetOpcode(RC_ACKNOWLEDGE);
        a.bth.SetPsn(psn);
        a.aeth.SetAck();
        return a;
    }

    void DoRun() override
    {
        Ptr<FixedWindowCc> ops = CreateObject<FixedWindowCc>();
        Ptr<RdmaQpCc> cc = TenSent(ops);
        RdmaAckInfo ack0;
        RdmaAckInfo ack1;
        RdmaAckInfo ack2;
        Simulator::Schedule(MicroSeconds(1), [&]() {
            RdmaAckInfo nak;
            cc->OnPacketReceived(Nak(AethHeader::NAK_TRIMMED, 0, 0), nak, nullptr, false);
        });
        // PSN 0 resent after its trim NAK; PSN 1 resent with no news of its
        // first copy (as after a timeout).
        Simulator::Schedule(MicroSeconds(2), [&]() {
            Send(cc, 0);
            Send(cc, 1);
        });
        // PSN 2's copy trimmed after it was resent: the earlier copy was
        // in the network when the resend left.
        Simulator::Schedule(MicroSeconds(3), [&]() { Send(cc, 2); });
        Simulator::Schedule(MicroSeconds(4), [&]() {
            RdmaAckInfo nak;
            cc->OnPacketReceived(Nak(AethHeader::NAK_TRIMMED, 0, 2), nak, nullptr, false);
        });
        Simulator::Schedule(MicroSeconds(5), [&]() {
            cc->OnPacketReceived(AckOf(0), ack0, nullptr, false);
            cc->OnPacketReceived(AckOf(1), ack1, nullptr, false);
            cc->OnPacketReceived(AckOf(2), ack2, nullptr, false);
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(ack0.rtt,
                              MicroSeconds(3),
                              "the resend of a trimmed request: 5 - 2 us");
        NS_TEST_ASSERT_MSG_EQ(ack1.rtt, Time(0), "either copy may be the one acknowledged");
        NS_TEST_ASSERT_MSG_EQ(ack2.rtt, Time(0), "resent before the trim was known");
        Simulator::Destroy();
    }
};

/// RCCC through RdmaQpCc: credit gates requests, a request to send when a
/// need arises with no credit, at most one per base RTT.
class RcccGateTestCase : public TestCase
{
  public:
    RcccGateTestCase()
        : TestCase("rccc: no credit, no request; a request to send at most once per base RTT")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t frame = PAYLOAD + RdmaQpCc::FRAME_OVERHEAD_BYTES;
        Ptr<RdmaQpCc> cc = CreateObject<RdmaQpCc>();
        // No window (no ACK asked for by it): RCCC alone, as UEC's -receiver_cc_only.
        cc->Setup(CreateObject<RdmaNoCc>(), nullptr, DataRate("100Gbps"), MicroSeconds(10));
        cc->EnableRccc(2 * frame); // two packets of speculative credit
        uint16_t target = 0;
        Time retry;
        for (uint32_t psn = 0; psn < 2; ++psn)
        {
            RoceFrame f;
            f.bth.SetOpcode(RC_RDMA_WRITE_MIDDLE);
            f.bth.SetPsn(psn);
            f.payload = RdmaPayload::Zeros(PAYLOAD);
            cc->OnPacketSent(f, PAYLOAD);
            cc->OnRcccSend(f, 10 * PAYLOAD, 0, 1);
            NS_TEST_EXPECT_MSG_EQ(f.bth.GetAckReq(), (psn == 1), "the last the credit allows asks");
        }
        NS_TEST_EXPECT_MSG_EQ(cc->GetState()->m_noCredit, true, "speculative credit spent");
        NS_TEST_EXPECT_MSG_EQ(cc->TakeRcccRequest(10 * PAYLOAD, 0, 1, target, retry),
                              false,
                              "still speculating: its requests carried the need");
        NS_TEST_EXPECT_MSG_EQ(retry, Time(0), "nor later");
        RdmaAckInfo ack;
        RoceFrame a;
        a.bth.SetOpcode(RC_ACKNOWLEDGE);
        a.bth.SetPsn(0);
        a.aeth.SetAck();
        cc->OnPacketReceived(a, ack, nullptr, false); // speculation ends
        NS_TEST_EXPECT_MSG_EQ(cc->TakeRcccRequest(0, 0, 1, target, retry),
                              false,
                              "nothing to send");
        NS_TEST_EXPECT_MSG_EQ(retry, Time(0), "nor later");
        NS_TEST_EXPECT_MSG_EQ(cc->TakeRcccRequest(10 * PAYLOAD, 0, 1, target, retry),
                              true,
                              "asks");
        NS_TEST_EXPECT_MSG_GT(target, 0, "for its backlog");
        NS_TEST_EXPECT_MSG_EQ(cc->TakeRcccRequest(10 * PAYLOAD, 0, 1, target, retry),
                              false,
                              "not again within a base RTT");
        NS_TEST_EXPECT_MSG_EQ(retry,
                              cc->GetState()->m_baseRtt,
                              "but once the base RTT since the last has passed");
        // Credit arrives: the QP may send again.
        NS_TEST_EXPECT_MSG_EQ(cc->OnRcccCredit(40), true, "unblocked");
        NS_TEST_EXPECT_MSG_EQ(cc->GetState()->m_noCredit, false, "credit");
        Simulator::Destroy();
    }
};

/// The suite.
class RdmaQpCcTestSuite : public TestSuite
{
  public:
    RdmaQpCcTestSuite()
        : TestSuite("rdma-qp-cc", UNIT)
    {
        AddTestCase(new InFlightTestCase, TestCase::QUICK);
        AddTestCase(new ResendRttSampleTestCase, TestCase::QUICK);
        AddTestCase(new RcccGateTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
RdmaQpCcTestSuite g_rdmaQpCcTestSuite;

} // namespace
