/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-wire-example: writes one RC conversation between two RoCEv2 hosts as
 * real frames to a pcap file, covering every RC opcode the module implements,
 * the RoCEv2 CNP and 802.1Qbb PFC pause/resume frames, then parses every
 * frame back and checks it. Open the pcap in Wireshark, or:
 *
 *   ./rdma-wire-example --pcap=wire.pcap --manifest=wire.tsv
 *   tshark -r wire.pcap
 *
 * The manifest lists, per frame, the fields a decoder should show (one
 * header line, tab separated); the Python system test compares it with
 * tshark's and scapy's decoding.
 */

#include "ns3/core-module.h"
#include "ns3/ethernet-header.h"
#include "ns3/rdma-module.h"

#include <fstream>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

/// One frame of the conversation and what a decoder should read from it.
struct SentFrame
{
    Ptr<Packet> frame;    //!< the Ethernet frame
    std::string kind;     //!< "roce" or "pfc"
    RoceFrame fields;     //!< fields when kind == "roce"
    uint32_t payloadSize; //!< payload bytes without pad
    PfcHeader pfc;        //!< body when kind == "pfc"
};

/**
 * Two hosts, A (requester, QPN 0x11) and B (responder, QPN 0x22), and the
 * frames they exchange. PSNs start just below 2^24 so the conversation wraps.
 */
class Conversation
{
  public:
    Conversation(bool ipv6, bool vlan, uint32_t pmtu)
        : m_ipv6(ipv6),
          m_vlan(vlan),
          m_pmtu(pmtu)
    {
    }

    void Run();

    const std::vector<SentFrame>& Frames() const
    {
        return m_frames;
    }

  private:
    /// A frame with addresses and the BTH filled for a direction.
    RoceFrame Base(bool fromA, uint8_t opcode, uint32_t psn);
    /// Send a message from A, segmented by the path MTU.
    void SendMessage(uint8_t first, uint8_t middle, uint8_t last, uint8_t only, uint32_t length);
    void Add(RoceFrame f);
    void AddPfc(uint8_t priority, uint16_t quanta);
    Ptr<Packet> Payload(uint32_t size);
    void Ack(uint32_t psn);

    bool m_ipv6;
    bool m_vlan;
    uint32_t m_pmtu;
    uint32_t m_sqPsn{0xFFFFFE}; //!< A's next PSN (wraps after two packets)
    uint32_t m_msn{0};          //!< B's MSN
    uint8_t m_seed{0};          //!< payload pattern
    uint16_t m_ipId{1};
    std::vector<SentFrame> m_frames;
};

RoceFrame
Conversation::Base(bool fromA, uint8_t opcode, uint32_t psn)
{
    RoceFrame f;
    Mac48Address a("02:00:00:00:00:01");
    Mac48Address b("02:00:00:00:00:02");
    f.srcMac = fromA ? a : b;
    f.dstMac = fromA ? b : a;
    f.ipv6 = m_ipv6;
    f.srcIpv4 = fromA ? Ipv4Address("10.0.0.1") : Ipv4Address("10.0.0.2");
    f.dstIpv4 = fromA ? Ipv4Address("10.0.0.2") : Ipv4Address("10.0.0.1");
    f.srcIpv6 = fromA ? Ipv6Address("fd00::1") : Ipv6Address("fd00::2");
    f.dstIpv6 = fromA ? Ipv6Address("fd00::2") : Ipv6Address("fd00::1");
    f.dscp = 26; // lossless data class (common NVIDIA setting)
    f.ecn = 2;   // ECT(0)
    f.ipId = m_ipId++;
    f.hasVlan = m_vlan;
    f.vlan.SetPcp(3);
    f.udpSrcPort =
        fromA ? RoceFrame::UdpSourcePort(0x11, 0x22) : RoceFrame::UdpSourcePort(0x22, 0x11);
    f.bth.SetOpcode(opcode);
    f.bth.SetDestQp(fromA ? 0x22 : 0x11);
    f.bth.SetPsn(psn);
    return f;
}

Ptr<Packet>
Conversation::Payload(uint32_t size)
{
    // Printable text, shifted per message so that every payload differs
    // (byte patterns such as 00 01 02 03 are taken by Wireshark's payload
    // heuristics for RPC-over-RDMA or raw Ethernet).
    static const std::string text = "RoCEv2 payload from the ns-3 rdma module. ";
    std::vector<uint8_t> bytes(size);
    for (uint32_t i = 0; i < size; ++i)
    {
        bytes[i] = uint8_t(text[(m_seed + i) % text.size()]);
    }
    ++m_seed;
    return Create<Packet>(bytes.data(), size);
}

void
Conversation::Add(RoceFrame f)
{
    SentFrame s;
    s.payloadSize = f.payload ? f.payload->GetSize() : 0;
    s.frame = f.BuildEthernetFrame();
    s.kind = "roce";
    s.fields = f;
    m_frames.push_back(s);
}

void
Conversation::AddPfc(uint8_t priority, uint16_t quanta)
{
    SentFrame s;
    s.kind = "pfc";
    s.payloadSize = 0;
    s.pfc.SetPause(priority, quanta);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(s.pfc);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("02:00:00:00:00:02"));
    eth.SetDestination(PfcHeader::GetDestination());
    eth.SetLengthType(PfcHeader::ETHERTYPE);
    p->AddHeader(eth);
    s.frame = p;
    m_frames.push_back(s);
}

void
Conversation::Ack(uint32_t psn)
{
    RoceFrame ack = Base(false, RC_ACKNOWLEDGE, psn);
    ack.aeth.SetAck();
    ack.aeth.SetMsn(m_msn);
    Add(ack);
}

void
Conversation::SendMessage(uint8_t first,
                          uint8_t middle,
                          uint8_t last,
                          uint8_t only,
                          uint32_t length)
{
    uint32_t sent = 0;
    bool firstPacket = true;
    do
    {
        uint32_t chunk = std::min(m_pmtu, length - sent);
        bool lastPacket = (sent + chunk == length);
        uint8_t op = firstPacket ? (lastPacket ? only : first) : (lastPacket ? last : middle);
        RoceFrame f = Base(true, op, m_sqPsn);
        f.payload = Payload(chunk);
        f.bth.SetAckReq(lastPacket);
        f.bth.SetSolicitedEvent(
            lastPacket && (op == RC_SEND_LAST_WITH_IMMEDIATE || op == RC_SEND_ONLY_WITH_IMMEDIATE));
        f.reth.SetVirtualAddress(0x10000 + sent);
        f.reth.SetRkey(0x1234);
        f.reth.SetDmaLength(length);
        f.immDt.SetImmediateData(0xdeadbeef);
        f.ieth.SetRkey(0x5678);
        Add(f);
        m_sqPsn = (m_sqPsn + 1) & BthHeader::PSN_MASK;
        sent += chunk;
        firstPacket = false;
    } while (sent < length);
    ++m_msn;
    Ack((m_sqPsn - 1) & BthHeader::PSN_MASK);
}

void
Conversation::Run()
{
    const uint32_t two = 2 * m_pmtu + 100;
    SendMessage(RC_SEND_FIRST, RC_SEND_MIDDLE, RC_SEND_LAST, RC_SEND_ONLY, two);
    SendMessage(RC_SEND_FIRST, RC_SEND_MIDDLE, RC_SEND_LAST, RC_SEND_ONLY, 37); // PadCnt 3
    SendMessage(RC_SEND_FIRST,
                RC_SEND_MIDDLE,
                RC_SEND_LAST_WITH_IMMEDIATE,
                RC_SEND_ONLY_WITH_IMMEDIATE,
                m_pmtu + 2);
    SendMessage(RC_SEND_FIRST,
                RC_SEND_MIDDLE,
                RC_SEND_LAST_WITH_IMMEDIATE,
                RC_SEND_ONLY_WITH_IMMEDIATE,
                7);
    SendMessage(RC_SEND_FIRST,
                RC_SEND_MIDDLE,
                RC_SEND_LAST_WITH_INVALIDATE,
                RC_SEND_ONLY_WITH_INVALIDATE,
                m_pmtu + 1);
    SendMessage(RC_SEND_FIRST,
                RC_SEND_MIDDLE,
                RC_SEND_LAST_WITH_INVALIDATE,
                RC_SEND_ONLY_WITH_INVALIDATE,
                64);
    SendMessage(RC_RDMA_WRITE_FIRST,
                RC_RDMA_WRITE_MIDDLE,
                RC_RDMA_WRITE_LAST,
                RC_RDMA_WRITE_ONLY,
                two);
    SendMessage(RC_RDMA_WRITE_FIRST,
                RC_RDMA_WRITE_MIDDLE,
                RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
                RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
                m_pmtu + 3);
    SendMessage(RC_RDMA_WRITE_FIRST,
                RC_RDMA_WRITE_MIDDLE,
                RC_RDMA_WRITE_LAST,
                RC_RDMA_WRITE_ONLY,
                16);
    SendMessage(RC_RDMA_WRITE_FIRST,
                RC_RDMA_WRITE_MIDDLE,
                RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
                RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
                30);

    // RDMA READ of two and a half MTUs: one request PSN, responses use
    // consecutive PSNs from it (IBA 9.7.5.1.3); FIRST and LAST carry AETH.
    uint32_t readLen = two;
    RoceFrame req = Base(true, RC_RDMA_READ_REQUEST, m_sqPsn);
    req.bth.SetAckReq(true);
    req.reth.SetVirtualAddress(0x20000);
    req.reth.SetRkey(0x1234);
    req.reth.SetDmaLength(readLen);
    Add(req);
    ++m_msn;
    uint32_t responses = (readLen + m_pmtu - 1) / m_pmtu;
    for (uint32_t i = 0; i < responses; ++i)
    {
        uint8_t op = i == 0 ? RC_RDMA_READ_RESPONSE_FIRST
                            : (i + 1 == responses ? RC_RDMA_READ_RESPONSE_LAST
                                                  : RC_RDMA_READ_RESPONSE_MIDDLE);
        RoceFrame r = Base(false, op, (m_sqPsn + i) & BthHeader::PSN_MASK);
        r.aeth.SetAck();
        r.aeth.SetMsn(m_msn);
        r.payload = Payload(std::min(m_pmtu, readLen - i * m_pmtu));
        Add(r);
    }
    m_sqPsn = (m_sqPsn + responses) & BthHeader::PSN_MASK;
    RoceFrame small = Base(true, RC_RDMA_READ_REQUEST, m_sqPsn);
    small.bth.SetAckReq(true);
    small.reth.SetVirtualAddress(0x30000);
    small.reth.SetRkey(0x1234);
    small.reth.SetDmaLength(16);
    Add(small);
    ++m_msn;
    RoceFrame only = Base(false, RC_RDMA_READ_RESPONSE_ONLY, m_sqPsn);
    only.aeth.SetAck();
    only.aeth.SetMsn(m_msn);
    only.payload = Payload(16);
    Add(only);
    m_sqPsn = (m_sqPsn + 1) & BthHeader::PSN_MASK;

    // Atomics and their ATOMIC_ACKNOWLEDGE with the original data.
    for (uint8_t op : {uint8_t(RC_COMPARE_SWAP), uint8_t(RC_FETCH_ADD)})
    {
        RoceFrame a = Base(true, op, m_sqPsn);
        a.bth.SetAckReq(true);
        a.atomicEth.SetVirtualAddress(0x40000);
        a.atomicEth.SetRkey(0x1234);
        a.atomicEth.SetSwapOrAdd(op == RC_COMPARE_SWAP ? 0x1111111111111111ULL : 5);
        a.atomicEth.SetCompare(op == RC_COMPARE_SWAP ? 0x2222222222222222ULL : 0);
        Add(a);
        ++m_msn;
        RoceFrame r = Base(false, RC_ATOMIC_ACKNOWLEDGE, m_sqPsn);
        r.aeth.SetAck();
        r.aeth.SetMsn(m_msn);
        r.atomicAckEth.SetOriginalRemoteData(0x2222222222222222ULL);
        Add(r);
        m_sqPsn = (m_sqPsn + 1) & BthHeader::PSN_MASK;
    }

    // Loss recovery and flow control on the wire: a NAK (PSN sequence
    // error) for a gap, an RNR NAK (timer code 14 = 1.28 ms), a CE-marked
    // WRITE, the CNP the receiver answers it with, and PFC pause/resume.
    RoceFrame nak = Base(false, RC_ACKNOWLEDGE, m_sqPsn);
    nak.aeth.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
    nak.aeth.SetMsn(m_msn);
    Add(nak);
    RoceFrame rnr = Base(false, RC_ACKNOWLEDGE, m_sqPsn);
    rnr.aeth.SetRnrNak(14);
    rnr.aeth.SetMsn(m_msn);
    Add(rnr);
    RoceFrame ce = Base(true, RC_RDMA_WRITE_ONLY, m_sqPsn);
    ce.ecn = 3;
    ce.bth.SetAckReq(true);
    ce.reth.SetVirtualAddress(0x50000);
    ce.reth.SetRkey(0x1234);
    ce.reth.SetDmaLength(32);
    ce.payload = Payload(32);
    Add(ce);
    RoceFrame cnp = Base(false, ROCE_CNP, 0);
    cnp.dscp = 48; // CNP class (NVIDIA CNP_DSCP default)
    cnp.bth.SetBecn(true);
    cnp.bth.SetDestQp(0x11); // the QP to throttle: the flow's sender
    Add(cnp);
    AddPfc(3, 0xFFFF);
    AddPfc(3, 0);
}

/// Parse every frame back and compare the fields; returns the mismatches.
uint32_t
CheckRoundTrip(const std::vector<SentFrame>& frames)
{
    uint32_t bad = 0;
    for (size_t i = 0; i < frames.size(); ++i)
    {
        const SentFrame& s = frames[i];
        if (s.kind != "roce")
        {
            continue;
        }
        RoceFrame back;
        RoceFrame::ParseStatus st = RoceFrame::ParseEthernetFrame(s.frame, back);
        uint32_t backPayload = back.payload ? back.payload->GetSize() : 0;
        if (st != RoceFrame::OK || back.bth.GetOpcode() != s.fields.bth.GetOpcode() ||
            back.bth.GetPsn() != s.fields.bth.GetPsn() || back.icrc != s.fields.icrc ||
            backPayload != s.payloadSize)
        {
            std::cerr << "frame " << i + 1 << ": parse " << RoceFrame::ParseStatusName(st)
                      << " does not match what was built\n";
            ++bad;
        }
    }
    return bad;
}

void
WriteManifest(std::ostream& os, const std::vector<SentFrame>& frames)
{
    os << "frame\tkind\topcode\tdestqp\tpsn\tackreq\tpadcnt\tbecn\tecn\tpcp\tudp_sport\tpayload"
          "\treth_va\treth_rkey\treth_dmalen\taeth_syndrome\taeth_msn\timmdt\tieth_rkey"
          "\tatomic_va\tatomic_rkey\tatomic_swap\tatomic_cmp\tatomic_orig\ticrc\tpfc_cev"
          "\tpfc_time3\n";
    for (size_t i = 0; i < frames.size(); ++i)
    {
        const SentFrame& s = frames[i];
        os << i + 1 << "\t" << s.kind;
        if (s.kind == "pfc")
        {
            os << std::string(24, '\t') << s.pfc.GetClassEnableVector() << "\t"
               << s.pfc.GetPauseQuanta(3) << "\n";
            continue;
        }
        const RoceFrame& f = s.fields;
        uint16_t ext = GetRdmaOpcodeInfo(f.bth.GetOpcode()).extHeaders;
        auto opt = [&](uint16_t flag, uint64_t v) {
            return (ext & flag) ? std::to_string(v) : std::string();
        };
        os << "\t" << +f.bth.GetOpcode() << "\t" << f.bth.GetDestQp() << "\t" << f.bth.GetPsn()
           << "\t" << f.bth.GetAckReq() << "\t" << +f.bth.GetPadCnt() << "\t" << f.bth.GetBecn()
           << "\t" << +f.ecn << "\t" << (f.hasVlan ? std::to_string(f.vlan.GetPcp()) : "") << "\t"
           << f.udpSrcPort << "\t" << s.payloadSize << "\t"
           << opt(EXT_RETH, f.reth.GetVirtualAddress()) << "\t" << opt(EXT_RETH, f.reth.GetRkey())
           << "\t" << opt(EXT_RETH, f.reth.GetDmaLength()) << "\t"
           << opt(EXT_AETH, f.aeth.GetSyndrome()) << "\t" << opt(EXT_AETH, f.aeth.GetMsn()) << "\t"
           << opt(EXT_IMMDT, f.immDt.GetImmediateData()) << "\t" << opt(EXT_IETH, f.ieth.GetRkey())
           << "\t" << opt(EXT_ATOMICETH, f.atomicEth.GetVirtualAddress()) << "\t"
           << opt(EXT_ATOMICETH, f.atomicEth.GetRkey()) << "\t"
           << opt(EXT_ATOMICETH, f.atomicEth.GetSwapOrAdd()) << "\t"
           << opt(EXT_ATOMICETH, f.atomicEth.GetCompare()) << "\t"
           << opt(EXT_ATOMICACKETH, f.atomicAckEth.GetOriginalRemoteData()) << "\t" << f.icrc
           << "\t\t\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string pcap = "rdma-wire-example.pcap";
    std::string manifest;
    bool ipv6 = false;
    bool vlan = false;
    uint32_t pmtu = 1024;
    DataRate rate("100Gbps");

    CommandLine cmd(__FILE__);
    cmd.AddValue("pcap", "pcap file to write (Ethernet link type)", pcap);
    cmd.AddValue("manifest", "optional TSV file of the fields of every frame", manifest);
    cmd.AddValue("ipv6", "use IPv6 instead of IPv4", ipv6);
    cmd.AddValue("vlan", "tag frames with 802.1Q (PCP 3)", vlan);
    cmd.AddValue("pmtu", "path MTU in bytes (256, 512, 1024, 2048 or 4096)", pmtu);
    cmd.AddValue("rate", "link rate that spaces the frames' timestamps", rate);
    cmd.Parse(argc, argv);
    if (pmtu != 256 && pmtu != 512 && pmtu != 1024 && pmtu != 2048 && pmtu != 4096)
    {
        std::cerr << "rdma-wire-example: --pmtu=" << pmtu
                  << " is not an IB MTU (256, 512, 1024, 2048, 4096)\n";
        return 2;
    }

    Conversation conv(ipv6, vlan, pmtu);
    conv.Run();
    const std::vector<SentFrame>& frames = conv.Frames();

    auto writer = Create<RdmaPcapWriter>(pcap);
    if (!writer->IsOpen())
    {
        std::cerr << "rdma-wire-example: " << writer->GetError() << "\n";
        return 1;
    }
    // Back-to-back on the wire: each frame plus preamble, SFD, FCS and IFG.
    Time t(0);
    for (const SentFrame& s : frames)
    {
        writer->Write(t, s.frame);
        t += rate.CalculateBytesTxTime(s.frame->GetSize() + 8 + 4 + 12);
    }
    if (!writer->IsOpen())
    {
        std::cerr << "rdma-wire-example: " << writer->GetError() << "\n";
        return 1;
    }
    if (!manifest.empty())
    {
        std::ofstream os(manifest);
        WriteManifest(os, frames);
        if (!os)
        {
            std::cerr << "rdma-wire-example: cannot write manifest '" << manifest << "'\n";
            return 1;
        }
    }
    uint32_t bad = CheckRoundTrip(frames);
    std::cout << "wrote " << frames.size() << " frames to " << pcap << " ("
              << (ipv6 ? "IPv6" : "IPv4") << (vlan ? ", 802.1Q" : "") << ", PMTU " << pmtu
              << "); parse-back mismatches: " << bad << "\n";
    return bad == 0 ? 0 : 1;
}
