/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-frame.h"

#include "icrc-trailer.h"
#include "rdma-opcode.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"
#include "ns3/udp-header.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFrame");

namespace
{
constexpr uint32_t ETH_HEADER = 14;
constexpr uint32_t IPV4_HEADER = 20;
constexpr uint32_t IPV6_HEADER = 40;
constexpr uint32_t UDP_HEADER = 8;
constexpr uint8_t IP_PROTO_UDP = 17;

uint16_t
ReadU16(const uint8_t* p)
{
    return (uint16_t(p[0]) << 8) | p[1];
}
} // namespace

const char*
RoceFrame::ParseStatusName(ParseStatus status)
{
    switch (status)
    {
    case OK:
        return "OK";
    case NOT_ROCE:
        return "NOT_ROCE";
    case TRUNCATED:
        return "TRUNCATED";
    case BAD_LENGTH:
        return "BAD_LENGTH";
    case UNSUPPORTED_L3:
        return "UNSUPPORTED_L3";
    case BAD_ICRC:
        return "BAD_ICRC";
    case UNKNOWN_OPCODE:
        return "UNKNOWN_OPCODE";
    case BAD_PAD:
        return "BAD_PAD";
    }
    return "INVALID";
}

Ptr<Packet>
RoceFrame::BuildIpPacket()
{
    const RdmaOpcodeInfo& info = GetRdmaOpcodeInfo(bth.GetOpcode());
    Ptr<Packet> p =
        (payload && (info.extHeaders & EXT_PAYLOAD)) ? payload->Copy() : Create<Packet>();
    uint8_t pad = BthHeader::PadCntFor(p->GetSize());
    bth.SetPadCnt(pad);
    if (pad > 0)
    {
        p->AddAtEnd(Create<Packet>(pad)); // pad bytes are zero
    }
    // Extension headers in wire order (IBA 9.2): RETH, AtomicETH, AETH,
    // AtomicAckETH, ImmDt, IETH; added last-first.
    uint16_t ext = info.extHeaders;
    if (ext & EXT_CNP)
    {
        p->AddHeader(cnp);
    }
    if (ext & EXT_IETH)
    {
        p->AddHeader(ieth);
    }
    if (ext & EXT_IMMDT)
    {
        p->AddHeader(immDt);
    }
    if (ext & EXT_ATOMICACKETH)
    {
        p->AddHeader(atomicAckEth);
    }
    if (ext & EXT_AETH)
    {
        p->AddHeader(aeth);
    }
    if (ext & EXT_ATOMICETH)
    {
        p->AddHeader(atomicEth);
    }
    if (ext & EXT_RETH)
    {
        p->AddHeader(reth);
    }
    p->AddHeader(bth);
    IcrcTrailer trailer; // placeholder so that the UDP and IP lengths count it
    p->AddTrailer(trailer);

    UdpHeader udp;
    udp.SetSourcePort(udpSrcPort);
    udp.SetDestinationPort(UDP_PORT);
    p->AddHeader(udp); // checksum left 0; length = bytes after the header start

    uint8_t tos = uint8_t(dscp << 2) | (ecn & 0x3);
    if (ipv6)
    {
        Ipv6Header ip;
        ip.SetTrafficClass(tos);
        ip.SetFlowLabel(flowLabel & 0xFFFFF);
        ip.SetPayloadLength(p->GetSize());
        ip.SetNextHeader(IP_PROTO_UDP);
        ip.SetHopLimit(ttl);
        ip.SetSource(srcIpv6);
        ip.SetDestination(dstIpv6);
        p->AddHeader(ip);
    }
    else
    {
        Ipv4Header ip;
        ip.SetTos(tos);
        ip.SetIdentification(ipId);
        ip.SetDontFragment();
        ip.SetTtl(ttl);
        ip.SetProtocol(IP_PROTO_UDP);
        ip.SetPayloadSize(p->GetSize());
        ip.SetSource(srcIpv4);
        ip.SetDestination(dstIpv4);
        ip.EnableChecksum();
        p->AddHeader(ip);
    }

    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    icrc = IcrcTrailer::Compute(ipv6 ? IcrcTrailer::IPV6 : IcrcTrailer::IPV4,
                                bytes.data(),
                                bytes.size() - IcrcTrailer::SIZE);
    p->RemoveTrailer(trailer);
    trailer.SetIcrc(icrc);
    p->AddTrailer(trailer);
    return p;
}

Ptr<Packet>
RoceFrame::BuildEthernetFrame()
{
    Ptr<Packet> p = BuildIpPacket();
    uint16_t l3Type = ipv6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4;
    EthernetHeader eth(false);
    eth.SetSource(srcMac);
    eth.SetDestination(dstMac);
    if (hasVlan)
    {
        vlan.SetInnerType(l3Type);
        p->AddHeader(vlan);
        eth.SetLengthType(VlanTagHeader::TPID);
    }
    else
    {
        eth.SetLengthType(l3Type);
    }
    p->AddHeader(eth);
    return p;
}

RoceFrame::ParseStatus
RoceFrame::ParseEthernetFrame(Ptr<const Packet> frame, RoceFrame& out, bool verifyIcrc)
{
    if (frame->GetSize() < ETH_HEADER)
    {
        return TRUNCATED;
    }
    Ptr<Packet> p = frame->Copy();
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    out.srcMac = eth.GetSource();
    out.dstMac = eth.GetDestination();
    uint16_t type = eth.GetLengthType();
    out.hasVlan = (type == VlanTagHeader::TPID);
    if (out.hasVlan)
    {
        if (p->GetSize() < VlanTagHeader::SIZE)
        {
            return TRUNCATED;
        }
        p->RemoveHeader(out.vlan);
        type = out.vlan.GetInnerType();
    }
    if (type != ETHERTYPE_IPV4 && type != ETHERTYPE_IPV6)
    {
        return NOT_ROCE;
    }
    return ParseIpPacket(p, type == ETHERTYPE_IPV6, out, verifyIcrc);
}

RoceFrame::ParseStatus
RoceFrame::ParseIpPacket(Ptr<const Packet> packet, bool ipv6, RoceFrame& out, bool verifyIcrc)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    const uint8_t* b = bytes.data();
    uint32_t size = bytes.size();

    // Network layer: how many bytes the IP header says the packet has.
    uint32_t ipHeader = ipv6 ? IPV6_HEADER : IPV4_HEADER;
    if (size < ipHeader)
    {
        return TRUNCATED;
    }
    uint32_t ipTotal;
    if (ipv6)
    {
        if ((b[0] >> 4) != 6 || b[6] != IP_PROTO_UDP)
        {
            return (b[0] >> 4) == 6 ? UNSUPPORTED_L3 : NOT_ROCE;
        }
        ipTotal = IPV6_HEADER + ReadU16(b + 4);
    }
    else
    {
        if ((b[0] >> 4) != 4)
        {
            return NOT_ROCE;
        }
        if ((b[0] & 0x0F) != 5)
        {
            return UNSUPPORTED_L3;
        }
        if (b[9] != IP_PROTO_UDP)
        {
            return NOT_ROCE;
        }
        ipTotal = ReadU16(b + 2);
        if (ipTotal < IPV4_HEADER)
        {
            return BAD_LENGTH;
        }
    }
    if (ipTotal > size)
    {
        return TRUNCATED;
    }
    size = ipTotal; // bytes past the IP length are Ethernet padding
    if (size < ipHeader + UDP_HEADER)
    {
        return TRUNCATED;
    }
    const uint8_t* udp = b + ipHeader;
    if (ReadU16(udp + 2) != UDP_PORT)
    {
        return NOT_ROCE;
    }
    if (ReadU16(udp + 4) != size - ipHeader)
    {
        return BAD_LENGTH;
    }
    uint32_t ibBytes = size - ipHeader - UDP_HEADER; // BTH .. ICRC
    if (ibBytes < BthHeader::SIZE + IcrcTrailer::SIZE)
    {
        return TRUNCATED;
    }

    const uint8_t* icrcBytes = b + size - IcrcTrailer::SIZE;
    out.icrc = uint32_t(icrcBytes[0]) | (uint32_t(icrcBytes[1]) << 8) |
               (uint32_t(icrcBytes[2]) << 16) | (uint32_t(icrcBytes[3]) << 24);
    if (verifyIcrc && IcrcTrailer::Compute(ipv6 ? IcrcTrailer::IPV6 : IcrcTrailer::IPV4,
                                           b,
                                           size - IcrcTrailer::SIZE) != out.icrc)
    {
        return BAD_ICRC;
    }

    const uint8_t* bthBytes = udp + UDP_HEADER;
    const RdmaOpcodeInfo& info = GetRdmaOpcodeInfo(bthBytes[0]);
    if (!info.known)
    {
        return UNKNOWN_OPCODE;
    }
    uint32_t extSize = RdmaExtHeadersSize(bthBytes[0]);
    if (ibBytes < BthHeader::SIZE + extSize + IcrcTrailer::SIZE)
    {
        return TRUNCATED;
    }
    uint32_t dataAndPad = ibBytes - BthHeader::SIZE - extSize - IcrcTrailer::SIZE;
    uint8_t padCnt = (bthBytes[1] >> 4) & 0x3;
    if (dataAndPad > 0 && !(info.extHeaders & EXT_PAYLOAD))
    {
        return BAD_LENGTH;
    }
    if (padCnt > dataAndPad || dataAndPad % 4 != 0)
    {
        return BAD_PAD;
    }

    // Every length is now known to fit: read the headers with ns-3's classes.
    Ptr<Packet> p = Create<Packet>(b, size);
    out.ipv6 = ipv6;
    if (ipv6)
    {
        Ipv6Header ip;
        p->RemoveHeader(ip);
        out.dscp = ip.GetTrafficClass() >> 2;
        out.ecn = ip.GetTrafficClass() & 0x3;
        out.ttl = ip.GetHopLimit();
        out.flowLabel = ip.GetFlowLabel();
        out.srcIpv6 = ip.GetSource();
        out.dstIpv6 = ip.GetDestination();
    }
    else
    {
        Ipv4Header ip;
        p->RemoveHeader(ip);
        out.dscp = ip.GetTos() >> 2;
        out.ecn = ip.GetTos() & 0x3;
        out.ttl = ip.GetTtl();
        out.ipId = ip.GetIdentification();
        out.srcIpv4 = ip.GetSource();
        out.dstIpv4 = ip.GetDestination();
    }
    UdpHeader udpHeader;
    p->RemoveHeader(udpHeader);
    out.udpSrcPort = udpHeader.GetSourcePort();
    p->RemoveHeader(out.bth);
    uint16_t ext = info.extHeaders;
    if (ext & EXT_RETH)
    {
        p->RemoveHeader(out.reth);
    }
    if (ext & EXT_ATOMICETH)
    {
        p->RemoveHeader(out.atomicEth);
    }
    if (ext & EXT_AETH)
    {
        p->RemoveHeader(out.aeth);
    }
    if (ext & EXT_ATOMICACKETH)
    {
        p->RemoveHeader(out.atomicAckEth);
    }
    if (ext & EXT_IMMDT)
    {
        p->RemoveHeader(out.immDt);
    }
    if (ext & EXT_IETH)
    {
        p->RemoveHeader(out.ieth);
    }
    if (ext & EXT_CNP)
    {
        p->RemoveHeader(out.cnp);
    }
    out.payload = (ext & EXT_PAYLOAD) ? p->CreateFragment(0, dataAndPad - padCnt) : nullptr;
    NS_LOG_LOGIC("parsed " << RdmaOpcodeName(out.bth.GetOpcode()) << " psn=" << out.bth.GetPsn());
    return OK;
}

uint16_t
RoceFrame::UdpSourcePort(uint32_t localQpn, uint32_t remoteQpn)
{
    // rdma_calc_flow_label: fold the product of the QPNs into 20 bits.
    uint64_t v = uint64_t(localQpn) * remoteQpn;
    v ^= v >> 20;
    v ^= v >> 40;
    uint32_t flowLabel = v & 0xFFFFF;
    // rdma_flow_label_to_udp_sport: fold 20 bits into 14, in 0xC000-0xFFFF.
    uint32_t low = flowLabel & 0x3FFF;
    uint32_t high = flowLabel & 0xFC000;
    low ^= high >> 14;
    return static_cast<uint16_t>(low | 0xC000);
}

} // namespace ns3
