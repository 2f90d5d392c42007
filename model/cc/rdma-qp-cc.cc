/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-qp-cc.h"

#include "ns3/boolean.h"
#include "ns3/icrc-trailer.h"
#include "ns3/log.h"
#include "ns3/rdma-int-codec.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQpCc");
NS_OBJECT_ENSURE_REGISTERED(RdmaQpCc);

TypeId
RdmaQpCc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQpCc")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaQpCc>()
            .AddAttribute(
                "AckEveryPacketWithWindow",
                "While the congestion control keeps a window (HPCC, DCTCP, Swift), every "
                "request packet asks for its ACK (AckReq): those algorithms are clocked by "
                "ACKs, and the HPCC simulator ACKs every packet (L2_ACK_INTERVAL 1). Off: "
                "AckReq only every AckReqInterval packets, on message ends and on the packet "
                "that fills the window; a window that then shrinks below the bytes in flight "
                "waits for the local ACK timeout, since nothing outstanding asks for an ACK.",
                BooleanValue(true),
                MakeBooleanAccessor(&RdmaQpCc::m_ackEveryPacketWithWindow),
                MakeBooleanChecker());
    return tid;
}

RdmaQpCc::RdmaQpCc()
    : m_state(CreateObject<RdmaCcState>())
{
}

RdmaQpCc::~RdmaQpCc() = default;

void
RdmaQpCc::DoDispose()
{
    if (m_ops)
    {
        m_ops->Dispose(); // cancels the algorithm's timers
    }
    m_ops = nullptr;
    m_np = nullptr;
    m_state = nullptr;
    Object::DoDispose();
}

void
RdmaQpCc::Setup(Ptr<RdmaCongestionOps> ops,
                Ptr<RdmaCnpGenerator> np,
                DataRate lineRate,
                Time baseRtt)
{
    m_ops = ops;
    m_keepRecords = ops->NeedsSendRecords();
    m_np = np;
    m_state->m_lineRate = lineRate;
    m_state->m_rate = lineRate;
    m_state->m_baseRtt = baseRtt;
}

Ptr<RdmaCcState>
RdmaQpCc::GetState() const
{
    return m_state;
}

Ptr<RdmaCongestionOps>
RdmaQpCc::GetCongestionOps() const
{
    return m_ops;
}

Ptr<RdmaCnpGenerator>
RdmaQpCc::GetCnpGenerator() const
{
    return m_np;
}

const RdmaQpCc::Stats&
RdmaQpCc::GetStats() const
{
    return m_stats;
}

void
RdmaQpCc::EnsureInit(uint32_t pathMtu)
{
    if (!m_initialized)
    {
        m_initialized = true;
        m_state->m_mtu = pathMtu + FRAME_OVERHEAD_BYTES;
        m_ops->Init(m_state);
        if (m_rcccOn)
        {
            m_rccc.Init(m_rcccMaxCredit, m_state->m_mtu);
        }
    }
}

uint32_t
RdmaQpCc::FrameBytes(const RoceFrame& frame)
{
    uint32_t payload = frame.payload ? frame.payload->GetSize() : 0;
    return 14 + (frame.hasVlan ? VlanTagHeader::SIZE : 0) + (frame.ipv6 ? 40 : 20) + 8 +
           BthHeader::SIZE + RdmaExtHeadersSize(frame.bth.GetOpcode()) + payload +
           BthHeader::PadCntFor(payload) + IcrcTrailer::SIZE;
}

const IntHeader*
RdmaQpCc::TakeInt(const RoceFrame& f, uint16_t& udpPort)
{
    static const IntHeader empty;
    if (!RdmaIsResponseOpcode(f.bth.GetOpcode()))
    {
        udpPort = IntHeader::UDP_PORT;
        return &empty;
    }
    if (m_hasEcho && (f.bth.GetOpcode() != RC_RDMA_READ_RESPONSE_MIDDLE))
    {
        m_hasEcho = false;
        udpPort = RdmaIntCodec::ECHO_PORT;
        return &m_echo;
    }
    return nullptr;
}

void
RdmaQpCc::DecodeInt(const IntHeader& h, std::vector<RdmaIntHop>& hops)
{
    uint32_t n = std::min<uint32_t>(h.GetNHops(), IntHeader::MAX_HOPS);
    hops.resize(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        IntHeader::Hop rec = h.GetHop(i);
        // One clock per egress: with one path per QP, one per slot; with
        // packets spread over paths, records of other egresses in the same
        // slot must not unwrap each other's modular fields.
        auto it = std::find_if(m_hopClocks.begin(), m_hopClocks.end(), [&](const HopClock& c) {
            return c.slot == i && c.egressId == rec.egressId;
        });
        if (it == m_hopClocks.end())
        {
            HopClock fresh;
            fresh.slot = i;
            fresh.egressId = rec.egressId;
            it = m_hopClocks.insert(m_hopClocks.end(), fresh);
        }
        HopClock& c = *it;
        if (c.valid)
        {
            c.time += NanoSeconds(IntHeader::TimeDelta(rec.timeNs, c.rawTime));
            c.txBytes += IntHeader::BytesDelta(rec.txUnits, c.rawTx);
        }
        else
        {
            c.valid = true;
            c.time = NanoSeconds(rec.timeNs);
            c.txBytes = rec.GetTxBytes();
        }
        c.rawTime = rec.timeNs;
        c.rawTx = rec.txUnits;
        hops[i].linkRate = rec.rate;
        hops[i].timestamp = c.time;
        hops[i].txBytes = c.txBytes;
        hops[i].qlenBytes = static_cast<uint32_t>(rec.GetQlenBytes());
        hops[i].egressId = rec.egressId;
    }
}

void
RdmaQpCc::OnPacketSent(RoceFrame& frame, uint32_t pathMtu, bool intEnabled)
{
    uint8_t op = frame.bth.GetOpcode();
    if (RdmaIsResponseOpcode(op))
    {
        if (m_echoCe)
        {
            frame.bth.SetBecn(true);
            m_echoCe = false;
            ++m_stats.becnSent;
        }
        return;
    }
    EnsureInit(pathMtu);
    uint32_t frameBytes = FrameBytes(frame) + (intEnabled ? IntHeader::SIZE : 0);
    uint32_t psn = frame.bth.GetPsn();
    if (m_keepRecords || m_state->m_window.Get() > 0)
    {
        Remember(psn, frameBytes);
    }
    m_ops->OnSend(m_state, frameBytes);
    m_state->m_bytesInFlight = m_inFlightBytes;
    const uint64_t window = m_state->m_window.Get();
    const bool closes = m_state->m_wholePacketWindow ? m_inFlightBytes + m_state->m_mtu > window
                                                     : m_inFlightBytes >= window;
    if (window > 0 && !frame.bth.GetAckReq() &&
        ((m_ackEveryPacketWithWindow && !m_responderCoalesces) || closes))
    {
        // ACK-clocked: every packet asks for its ACK. Or at least the one
        // that closes the window, or the QP would wait for its ACK timeout.
        frame.bth.SetAckReq(true);
        ++m_stats.ackReqForced;
    }
}

void
RdmaQpCc::SetResponderCoalesces(bool on)
{
    m_responderCoalesces = on;
}

void
RdmaQpCc::Remember(uint32_t psn, uint32_t frameBytes)
{
    const int64_t now = Simulator::Now().GetTimeStep();
    if (m_records.empty() || PsnDiff(psn, m_records.back().psn) > 0)
    {
        NS_ABORT_MSG_IF(frameBytes > UINT16_MAX,
                        "RdmaQpCc: a frame of " << frameBytes << " bytes does not fit a record");
        m_records.push_back(
            Record{now, psn, static_cast<uint16_t>(frameBytes), false, true, false, false});
        m_inFlightBytes += frameBytes;
        return;
    }
    // Sent again: refresh its record. Its ACK gives no RTT sample (Karn) if
    // an earlier copy could still arrive; one a trim NAK named cannot (it was
    // cut to its headers), so the resend that follows a trim is timed.
    for (std::size_t i = 0; i < m_records.size(); ++i)
    {
        Record& r = m_records[i];
        if (r.psn == psn)
        {
            r.sent = now;
            r.ambiguous = r.ambiguous || !r.trimmed;
            r.trimmed = false;
            // A copy of what was SACKed (a timeout queued it before the SACK
            // came) is spurious: counted in flight, it would hold a window
            // closed until the cumulative ACK passed it, with nothing else
            // in flight and no timer (a flow of UEC's 8:1 oversubscribed
            // permutation never ended).
            if (!r.inFlight && !r.sacked)
            {
                r.inFlight = true;
                m_inFlightBytes += r.bytes;
            }
            return;
        }
    }
}

void
RdmaQpCc::Sack(const RoceFrame& frame, RdmaAckInfo& ack)
{
    const Time now = Simulator::Now();
    auto deliver = [this, &ack, now](Record* r, bool sample) {
        if (!r || r->sacked)
        {
            return;
        }
        LeaveFlight(*r);
        r->sacked = true;
        ack.ackedBytes += r->bytes; // delivered (RFC 6675's DeliveredData; UecSrc's SACK)
        if (sample && !r->ambiguous && ack.rtt.IsZero())
        {
            ack.rtt = now - TimeStep(r->sent);
        }
    };
    // The MSN field names the request that arrived (the one the SACK answers).
    deliver(FindRecord(frame.aeth.GetMsn() & 0xFFFFFF), true);
    // A coalesced SACK's bitmap: bit i, PSN psn + 1 + i, arrived too.
    const uint32_t psn = frame.bth.GetPsn();
    for (uint64_t bits = frame.hasSackBitmap ? frame.sackBitmap : 0; bits != 0; bits &= bits - 1)
    {
        deliver(FindRecord(PsnAdd(psn, 1 + __builtin_ctzll(bits))), false);
    }
}

RdmaQpCc::Record*
RdmaQpCc::FindRecord(uint32_t psn)
{
    // Records are in PSN order (Remember appends only past the newest),
    // usually one a PSN from the oldest: try its place first.
    if (m_records.empty())
    {
        return nullptr;
    }
    const int32_t guess = PsnDiff(psn, m_records[0].psn);
    if (guess >= 0 && std::size_t(guess) < m_records.size() && m_records[guess].psn == psn)
    {
        return &m_records[guess];
    }
    std::size_t lo = 0;
    std::size_t hi = m_records.size();
    while (lo < hi)
    {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (PsnDiff(m_records[mid].psn, psn) < 0)
        {
            lo = mid + 1;
        }
        else
        {
            hi = mid;
        }
    }
    return lo < m_records.size() && m_records[lo].psn == psn ? &m_records[lo] : nullptr;
}

void
RdmaQpCc::LeaveFlight(Record& r)
{
    if (r.inFlight)
    {
        r.inFlight = false;
        m_inFlightBytes -= r.bytes;
    }
}

void
RdmaQpCc::Acknowledge(uint32_t psn, bool inclusive, RdmaAckInfo& ack)
{
    ack.ackedBytes = 0;
    ack.rtt = Time(0);
    while (!m_records.empty())
    {
        const Record& r = m_records.front();
        int32_t d = PsnDiff(r.psn, psn);
        if (d > 0 || (d == 0 && !inclusive))
        {
            break;
        }
        if (!r.sacked)
        {
            // A SACKed one was counted, and sampled, when its SACK came.
            ack.ackedBytes += r.bytes;
            ack.rtt = r.ambiguous ? Time(0) : Simulator::Now() - TimeStep(r.sent);
        }
        if (r.inFlight)
        {
            m_inFlightBytes -= r.bytes;
        }
        m_records.pop_front();
    }
}

bool
RdmaQpCc::OnSequenceNakSent()
{
    return m_np && m_np->OnSequenceNakSent(Simulator::Now());
}

bool
RdmaQpCc::OnTrimmed()
{
    m_echoCe = true;
    return m_np && m_np->OnCongestionExperienced(Simulator::Now());
}

bool
RdmaQpCc::OnPacketReceived(const RoceFrame& frame,
                           RdmaAckInfo& ack,
                           const IntHeader* intHeader,
                           bool sack)
{
    uint8_t op = frame.bth.GetOpcode();
    if (!RdmaIsResponseOpcode(op))
    {
        if (intHeader)
        {
            m_echo = *intHeader;
            m_hasEcho = true;
        }
        // A request: the notification point.
        if (frame.ecn != 3)
        {
            return false;
        }
        m_echoCe = true; // BECN on the next response
        return m_np && m_np->OnCongestionExperienced(Simulator::Now());
    }
    if (!m_initialized)
    {
        return false; // nothing of ours is outstanding
    }
    if (m_rcccOn)
    {
        m_rccc.StopSpeculating(); // the receiver has heard of the QP
        m_state->m_noCredit = !m_rccc.CanSend();
    }
    uint32_t psn = frame.bth.GetPsn();
    bool nak = false;
    bool seqNak = false;
    bool trimNak = false;
    if (op == RC_ACKNOWLEDGE || op == RC_ATOMIC_ACKNOWLEDGE)
    {
        AethHeader::SyndromeType type = frame.aeth.GetSyndromeType();
        nak = type != AethHeader::ACK;
        seqNak = type == AethHeader::NAK &&
                 frame.aeth.GetSyndromeValue() == AethHeader::NAK_PSN_SEQUENCE_ERROR;
        trimNak = type == AethHeader::NAK &&
                  frame.aeth.GetSyndromeValue() == AethHeader::NAK_TRIMMED;
    }
    Acknowledge(psn, !nak, ack);
    if (seqNak && sack)
    {
        Sack(frame, ack);
    }
    if (ack.rtt.IsStrictlyPositive())
    {
        ++m_stats.rttSamples;
    }
    ack.ecnEcho = frame.bth.GetBecn();
    if (intHeader)
    {
        DecodeInt(*intHeader, ack.intHops);
    }
    m_state->m_bytesInFlight = m_inFlightBytes + ack.ackedBytes; // OnAck takes them off
    m_ops->OnAck(m_state, ack);
    if (seqNak)
    {
        // The NAK's PSN was lost: it is no longer in flight.
        if (!m_records.empty() && m_records.front().psn == psn)
        {
            LeaveFlight(m_records.front());
        }
        m_state->m_bytesInFlight = m_inFlightBytes;
        m_ops->OnNak(m_state);
    }
    if (trimNak)
    {
        // The MSN field names the trimmed request: lost, and no longer in flight.
        if (Record* r = FindRecord(frame.aeth.GetMsn() & 0xFFFFFF))
        {
            r->trimmed = true;
            LeaveFlight(*r);
            m_state->m_bytesInFlight = m_inFlightBytes;
            m_ops->OnTrimNak(m_state, r->bytes);
        }
    }
    m_state->m_bytesInFlight = m_inFlightBytes;
    return false;
}

void
RdmaQpCc::OnCnp()
{
    ++m_stats.cnpsReceived;
    if (m_initialized)
    {
        m_ops->OnCnp(m_state);
    }
}

void
RdmaQpCc::EnableRccc(uint64_t maxCredit)
{
    m_rcccOn = true;
    m_rcccMaxCredit = maxCredit;
}

bool
RdmaQpCc::HasRccc() const
{
    return m_rcccOn;
}

void
RdmaQpCc::OnRcccSend(RoceFrame& frame, uint64_t unsent, uint64_t resend, uint32_t activeSenders)
{
    frame.bth.SetReservedBits(m_rccc.OnSend(FrameBytes(frame),
                                            unsent,
                                            resend,
                                            m_state->m_window.Get(),
                                            activeSenders));
    m_state->m_noCredit = !m_rccc.CanSend();
    if (m_state->m_noCredit || unsent + resend == 0)
    {
        // The last packet its credit (or its data) allows asks for its ACK,
        // as UecSrc sets its AR flag: the next may be a grant's time away,
        // longer than the retransmission timer.
        frame.bth.SetAckReq(true);
    }
}

bool
RdmaQpCc::TakeRcccRequest(uint64_t unsent,
                          uint64_t resend,
                          uint32_t activeSenders,
                          uint16_t& target,
                          Time& retry)
{
    const Time now = Simulator::Now();
    retry = Time(0);
    if (!m_rcccOn || !m_initialized || m_rccc.CanSend() || m_rccc.IsSpeculating() ||
        unsent + resend == 0)
    {
        return false;
    }
    if (!m_rcccLastRequest.IsStrictlyNegative() && now - m_rcccLastRequest < m_state->m_baseRtt)
    {
        retry = m_rcccLastRequest + m_state->m_baseRtt - now;
        return false;
    }
    m_rcccLastRequest = now;
    target = m_rccc.PullTarget(unsent, resend, m_state->m_window.Get(), activeSenders);
    return true;
}

bool
RdmaQpCc::OnRcccCredit(uint32_t wirePull)
{
    const bool was = m_state->m_noCredit;
    m_rccc.OnCredit(wirePull);
    m_state->m_noCredit = !m_rccc.CanSend();
    return was && !m_state->m_noCredit;
}

void
RdmaQpCc::OnLost(uint32_t psn)
{
    if (Record* r = FindRecord(psn))
    {
        LeaveFlight(*r);
        m_state->m_bytesInFlight = m_inFlightBytes;
    }
}

void
RdmaQpCc::OnTimeout()
{
    if (m_rcccOn)
    {
        m_rccc.OnTimeout();
        m_state->m_noCredit = !m_rccc.CanSend();
    }
    if (m_initialized)
    {
        // Nothing is taken to be in flight any more; resends count again.
        for (std::size_t i = 0; i < m_records.size(); ++i)
        {
            m_records[i].inFlight = false;
        }
        m_inFlightBytes = 0;
        m_ops->OnTimeout(m_state);
    }
}

} // namespace ns3
