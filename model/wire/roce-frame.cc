/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-frame.h"

#include "icrc-trailer.h"
#include "rdma-frame-editor.h"
#include "rdma-int-codec.h"
#include "rdma-opcode.h"
#include "rdma-raw-header.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"
#include "ns3/udp-header.h"

#include <cstring>
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
/// Bytes from the IP header through the largest extension headers (IPv6 40,
/// UDP 8, BTH 12, AtomicETH 28), rounded up: what a parse needs to read.
constexpr uint32_t HEAD_MAX = 96;

uint16_t
ReadU16(const uint8_t* p)
{
    return (uint16_t(p[0]) << 8) | p[1];
}

/// A Packet as the parser reads it (RdmaFrame has the same calls).
struct PacketBytes
{
    Ptr<const Packet> p; //!< the frame

    /// \return the frame's size
    uint32_t GetSize() const
    {
        return p->GetSize();
    }

    /// Packet::CopyData
    uint32_t CopyData(uint8_t* buffer, uint32_t size) const
    {
        return p->CopyData(buffer, size);
    }

    /// Packet::CreateFragment, as a payload
    RdmaPayload GetPayload(uint32_t offset, uint32_t length) const
    {
        return RdmaPayload(p->CreateFragment(offset, length));
    }

    /// \return the ICRC whose last byte is at end - 1 (IcrcTrailer's byte order)
    uint32_t ReadIcrc(uint32_t end) const
    {
        IcrcTrailer trailer;
        p->CreateFragment(end - IcrcTrailer::SIZE, IcrcTrailer::SIZE)->RemoveTrailer(trailer);
        return trailer.GetIcrc();
    }
};

template <class Bytes>
RoceFrame::ParseStatus ParseAt(const Bytes& packet,
                               uint32_t offset,
                               bool ipv6,
                               RoceFrame& out,
                               bool verifyIcrc,
                               IntHeader* intHeader = nullptr,
                               bool* hasInt = nullptr);

/// RoceFrame::ParseEthernetFrame, or ParseEthernetFrameWithInt given `intHeader`.
template <class Bytes>
RoceFrame::ParseStatus
ParseFrame(const Bytes& frame, RoceFrame& out, bool verifyIcrc, IntHeader* intHeader, bool* hasInt)
{
    // The MACs, the EtherType and a tag are read from a copy of the first
    // 18 bytes; the frame itself is never copied or changed.
    uint8_t eth[ETH_HEADER + VlanTagHeader::SIZE];
    const uint32_t n = frame.CopyData(eth, sizeof(eth));
    if (n < ETH_HEADER)
    {
        return RoceFrame::TRUNCATED;
    }
    out.dstMac.CopyFrom(eth);
    out.srcMac.CopyFrom(eth + 6);
    uint16_t type = ReadU16(eth + 12);
    uint32_t offset = ETH_HEADER;
    out.hasVlan = (type == VlanTagHeader::TPID);
    if (out.hasVlan)
    {
        if (n < ETH_HEADER + VlanTagHeader::SIZE)
        {
            return RoceFrame::TRUNCATED;
        }
        Buffer tag;
        tag.AddAtStart(VlanTagHeader::SIZE);
        tag.Begin().Write(eth + ETH_HEADER, VlanTagHeader::SIZE);
        out.vlan.Deserialize(tag.Begin());
        type = out.vlan.GetInnerType();
        offset += VlanTagHeader::SIZE;
    }
    if (type != RoceFrame::ETHERTYPE_IPV4 && type != RoceFrame::ETHERTYPE_IPV6)
    {
        return RoceFrame::NOT_ROCE;
    }
    return ParseAt(frame,
                   offset,
                   type == RoceFrame::ETHERTYPE_IPV6,
                   out,
                   verifyIcrc,
                   intHeader,
                   hasInt);
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

bool
RoceFrame::CarriesSackBitmap() const
{
    return hasSackBitmap && bth.GetOpcode() == RC_ACKNOWLEDGE &&
           aeth.GetSyndrome() == SEQUENCE_NAK_SYNDROME;
}

Ptr<Packet>
RoceFrame::BuildIpPacket()
{
    return Build(false);
}

Ptr<Packet>
RoceFrame::BuildEthernetFrame()
{
    return Build(true);
}

Ptr<Packet>
RoceFrame::BuildEthernetFrame(const IntHeader& intHeader, uint16_t udpPort)
{
    return Build(true, &intHeader, udpPort);
}

Ptr<RdmaFrame>
RoceFrame::BuildFrame()
{
    Ptr<RdmaFrame> f;
    Ptr<Packet> p = Build(true, nullptr, 0, &f);
    return f ? f : RdmaFrame::Wrap(p);
}

Ptr<RdmaFrame>
RoceFrame::BuildFrame(const IntHeader& intHeader, uint16_t udpPort)
{
    Ptr<RdmaFrame> f;
    Ptr<Packet> p = Build(true, &intHeader, udpPort, &f);
    return f ? f : RdmaFrame::Wrap(p);
}

namespace
{

/// RoceFrame::Build's Ethernet header and any 802.1Q tag (whose inner type
/// becomes `l3Type`, the tag being the frame's own).
inline void
WriteEthernet(RoceFrame& f, uint16_t l3Type, Buffer::Iterator& i)
{
    EthernetHeader eth(false);
    eth.SetSource(f.srcMac);
    eth.SetDestination(f.dstMac);
    eth.SetLengthType(f.hasVlan ? VlanTagHeader::TPID : l3Type);
    eth.Serialize(i);
    i.Next(ETH_HEADER);
    if (f.hasVlan)
    {
        f.vlan.SetInnerType(l3Type);
        f.vlan.Serialize(i);
        i.Next(VlanTagHeader::SIZE);
    }
}

/// RoceFrame::Build's IPv4 or IPv6 header, for a UDP datagram of `udpLength` bytes.
inline void
WriteIpHeader(const RoceFrame& f, uint32_t udpLength, Buffer::Iterator& i)
{
    const uint8_t tos = uint8_t(f.dscp << 2) | (f.ecn & 0x3);
    if (f.ipv6)
    {
        Ipv6Header ip;
        ip.SetTrafficClass(tos);
        ip.SetFlowLabel(f.flowLabel & 0xFFFFF);
        ip.SetPayloadLength(udpLength);
        ip.SetNextHeader(IP_PROTO_UDP);
        ip.SetHopLimit(f.ttl);
        ip.SetSource(f.srcIpv6);
        ip.SetDestination(f.dstIpv6);
        ip.Serialize(i);
    }
    else
    {
        Ipv4Header ip;
        ip.SetTos(tos);
        ip.SetIdentification(f.ipId);
        ip.SetDontFragment();
        ip.SetTtl(f.ttl);
        ip.SetProtocol(IP_PROTO_UDP);
        ip.SetPayloadSize(udpLength);
        ip.SetSource(f.srcIpv4);
        ip.SetDestination(f.dstIpv4);
        ip.Serialize(i); // checksum 0: RoceFrame::Build sets it over the bytes
    }
    i.Next(f.ipv6 ? IPV6_HEADER : IPV4_HEADER);
}

/// RoceFrame::Build's UDP header, to the RoCEv2 port, Length `udpLength`.
inline void
WriteUdpHeader(const RoceFrame& f, uint32_t udpLength, Buffer::Iterator& i)
{
    UdpHeader udp;
    udp.SetSourcePort(f.udpSrcPort);
    udp.SetDestinationPort(RoceFrame::UDP_PORT);
    udp.ForcePayloadSize(udpLength); // the Length field; checksum left 0
    udp.Serialize(i);
    i.Next(UDP_HEADER);
}

/// RoceFrame::Build's BTH and the extension headers `ext` names, in wire
/// order (IBA 9.2: RETH, AtomicETH, AETH, AtomicAckETH, ImmDt, IETH; a CNP's
/// reserved block), a coalesced SACK's bitmap after the AETH.
inline void
WriteIbHeaders(const RoceFrame& f, uint16_t ext, bool sackBitmapOnWire, Buffer::Iterator& i)
{
    f.bth.Serialize(i);
    i.Next(BthHeader::SIZE);
    if (ext & EXT_RETH)
    {
        f.reth.Serialize(i);
        i.Next(f.reth.GetSerializedSize());
    }
    if (ext & EXT_ATOMICETH)
    {
        f.atomicEth.Serialize(i);
        i.Next(f.atomicEth.GetSerializedSize());
    }
    if (ext & EXT_AETH)
    {
        f.aeth.Serialize(i);
        i.Next(f.aeth.GetSerializedSize());
        if (sackBitmapOnWire)
        {
            i.WriteHtonU64(f.sackBitmap);
        }
    }
    if (ext & EXT_ATOMICACKETH)
    {
        f.atomicAckEth.Serialize(i);
        i.Next(f.atomicAckEth.GetSerializedSize());
    }
    if (ext & EXT_IMMDT)
    {
        f.immDt.Serialize(i);
        i.Next(f.immDt.GetSerializedSize());
    }
    if (ext & EXT_IETH)
    {
        f.ieth.Serialize(i);
        i.Next(f.ieth.GetSerializedSize());
    }
    if (ext & EXT_CNP)
    {
        f.cnp.Serialize(i);
    }
}

/**
 * RoceFrame::Build's body: `length` payload bytes and `pad` zeros. Zeros are
 * made afresh (ns-3 keeps them virtual: no byte is written or read); real
 * bytes are shared copy-on-write and read once, to extend `icrc` over them.
 */
inline Ptr<Packet>
MakeBody(const RoceFrame& f, bool zeroBody, uint32_t length, uint8_t pad, uint32_t& icrc)
{
    if (zeroBody)
    {
        return Create<Packet>(length + pad);
    }
    if (f.computeIcrc)
    {
        std::vector<uint8_t> bytes(length);
        f.payload.CopyData(bytes.data(), length);
        icrc = IcrcTrailer::AppendZeros(IcrcTrailer::Append(icrc, bytes.data(), length), pad);
    }
    Ptr<Packet> p = f.payload.GetPacket()->Copy();
    if (pad > 0)
    {
        p->AddAtEnd(Create<Packet>(pad)); // pad bytes are zero
    }
    return p;
}

} // namespace

Ptr<Packet>
RoceFrame::Build(bool ethernet,
                 const IntHeader* intHeader,
                 uint16_t intPort,
                 Ptr<RdmaFrame>* compact)
{
    const RdmaOpcodeInfo& info = GetRdmaOpcodeInfo(bth.GetOpcode());
    const bool hasPayload = payload && (info.extHeaders & EXT_PAYLOAD);
    const uint32_t length = hasPayload ? payload->GetSize() : 0;
    const uint8_t pad = BthHeader::PadCntFor(length);
    bth.SetPadCnt(pad);

    // Every header, serialized once by its class into one buffer, in wire
    // order: Ethernet, 802.1Q tag, IP, UDP, BTH, then the extension headers.
    const uint32_t l2 = ethernet ? ETH_HEADER + (hasVlan ? VlanTagHeader::SIZE : 0) : 0;
    const uint32_t l3 = ipv6 ? IPV6_HEADER : IPV4_HEADER;
    const bool sackBitmapOnWire = CarriesSackBitmap();
    const uint32_t ib = BthHeader::SIZE + RdmaExtHeadersSize(bth.GetOpcode()) +
                        (sackBitmapOnWire ? SACK_BITMAP_BYTES : 0);
    const uint32_t udpLength = UDP_HEADER + ib + length + pad + IcrcTrailer::SIZE;
    const uint32_t headers = l2 + l3 + UDP_HEADER + ib;
    Buffer hb;
    hb.AddAtStart(headers);
    Buffer::Iterator i = hb.Begin();
    if (ethernet)
    {
        WriteEthernet(*this, ipv6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4, i);
    }
    WriteIpHeader(*this, udpLength, i);
    WriteUdpHeader(*this, udpLength, i);
    WriteIbHeaders(*this, info.extHeaders, sackBitmapOnWire, i);
    uint8_t head[64 + HEAD_MAX];
    NS_ASSERT(headers <= sizeof(head));
    hb.CopyData(head, headers);
    if (!ipv6)
    {
        // The IPv4 header checksum (RFC 791), summed over the header's bytes
        // here: ns-3's Ipv4Header sums them through a Buffer iterator, a
        // fifth of this function's instructions.
        const uint16_t sum = RdmaFrameEditor::Ipv4Checksum(head + l2, IPV4_HEADER);
        head[l2 + 10] = static_cast<uint8_t>(sum >> 8);
        head[l2 + 11] = static_cast<uint8_t>(sum);
    }

    // The ICRC over IP header .. pad. A payload of zeros has its CRC found
    // from the headers' (MakeBody extends it over real bytes).
    const IcrcTrailer::L3Type l3Kind = ipv6 ? IcrcTrailer::IPV6 : IcrcTrailer::IPV4;
    icrc = computeIcrc ? IcrcTrailer::Compute(l3Kind, head + l2, headers - l2) : 0;
    const bool zeroBody = !hasPayload || payloadZeros || payload.IsZeros();
    if (zeroBody && computeIcrc)
    {
        icrc = IcrcTrailer::AppendZeros(icrc, length + pad);
    }
    uint8_t withInt[sizeof(head) + IntHeader::SIZE];
    const uint8_t* frameHead = head;
    uint32_t frameHeadBytes = headers;
    if (intHeader)
    {
        frameHeadBytes = RdmaIntCodec::InsertIntoHead(head, headers, *intHeader, intPort, withInt);
        NS_ASSERT_MSG(ethernet && frameHeadBytes > 0, "an INT header goes into an Ethernet frame");
        frameHead = withInt;
    }
    if (compact && zeroBody && frameHeadBytes <= RdmaFrame::HEAD_CAPACITY)
    {
        *compact = RdmaFrame::Compact(frameHead,
                                      frameHeadBytes,
                                      length + pad,
                                      icrc,
                                      intHeader != nullptr);
        return nullptr;
    }
    Ptr<Packet> p = MakeBody(*this, zeroBody, length, pad, icrc);
    p->AddHeader(RdmaRawHeader(frameHead, frameHeadBytes));
    IcrcTrailer trailer;
    trailer.SetIcrc(icrc);
    p->AddTrailer(trailer);
    return p;
}

RoceFrame::ParseStatus
RoceFrame::ParseEthernetFrame(Ptr<const Packet> frame, RoceFrame& out, bool verifyIcrc)
{
    return ParseFrame(PacketBytes{frame}, out, verifyIcrc, nullptr, nullptr);
}

RoceFrame::ParseStatus
RoceFrame::ParseEthernetFrame(const RdmaFrame& frame, RoceFrame& out, bool verifyIcrc)
{
    return ParseFrame(frame, out, verifyIcrc, nullptr, nullptr);
}

RoceFrame::ParseStatus
RoceFrame::ParseEthernetFrameWithInt(Ptr<const Packet> frame,
                                     RoceFrame& out,
                                     IntHeader& intHeader,
                                     bool& hasInt)
{
    hasInt = false;
    return ParseFrame(PacketBytes{frame}, out, false, &intHeader, &hasInt);
}

RoceFrame::ParseStatus
RoceFrame::ParseEthernetFrameWithInt(const RdmaFrame& frame,
                                     RoceFrame& out,
                                     IntHeader& intHeader,
                                     bool& hasInt)
{
    hasInt = false;
    return ParseFrame(frame, out, false, &intHeader, &hasInt);
}

RoceFrame::ParseStatus
RoceFrame::ParseIpPacket(Ptr<const Packet> packet, bool ipv6, RoceFrame& out, bool verifyIcrc)
{
    return ParseAt(PacketBytes{packet}, 0, ipv6, out, verifyIcrc);
}

namespace
{

/**
 * ParseAt's first step: the bytes from the IP header on, where the checks
 * read them. Only the headers are copied out (into `headCopy`), unless the
 * ICRC is to be checked (it covers every byte: all of them go into `all`).
 * Given `intHeader`, an INT header in the copied head is read and skipped
 * (`*hasInt` says whether there was one).
 *
 * \return the IP header's first byte in `headCopy` or `all`
 */
template <class Bytes>
inline const uint8_t*
CopyHead(const Bytes& packet,
         uint32_t offset,
         uint32_t size0,
         bool verifyIcrc,
         IntHeader* intHeader,
         bool* hasInt,
         uint8_t (&headCopy)[64 + HEAD_MAX + IntHeader::SIZE],
         std::vector<uint8_t>& all)
{
    if (verifyIcrc)
    {
        all.resize(offset + size0);
        packet.CopyData(all.data(), all.size());
        return all.data() + offset;
    }
    NS_ASSERT(offset <= 64);
    const uint32_t copied =
        packet.CopyData(headCopy,
                        offset + std::min(size0, HEAD_MAX + (intHeader ? IntHeader::SIZE : 0)));
    if (intHeader)
    {
        // headCopy holds the Ethernet frame's head (ParseFrame's offset).
        *hasInt = RdmaIntCodec::StripFromHead(headCopy, copied, *intHeader) != 0;
    }
    return headCopy + offset;
}

/**
 * Network layer: how many bytes the IP header at `b` says the packet has
 * (IPv4: Total Length; IPv6: 40 + Payload Length), checked against the
 * `size` bytes there are. On OK, `size` becomes that length: bytes past it
 * are Ethernet padding.
 */
inline RoceFrame::ParseStatus
CheckIp(const uint8_t* b, bool ipv6, uint32_t ipHeader, uint32_t& size)
{
    if (size < ipHeader)
    {
        return RoceFrame::TRUNCATED;
    }
    uint32_t ipTotal;
    if (ipv6)
    {
        if ((b[0] >> 4) != 6 || b[6] != IP_PROTO_UDP)
        {
            return (b[0] >> 4) == 6 ? RoceFrame::UNSUPPORTED_L3 : RoceFrame::NOT_ROCE;
        }
        ipTotal = IPV6_HEADER + ReadU16(b + 4);
    }
    else
    {
        if ((b[0] >> 4) != 4)
        {
            return RoceFrame::NOT_ROCE;
        }
        if ((b[0] & 0x0F) != 5)
        {
            return RoceFrame::UNSUPPORTED_L3;
        }
        if (b[9] != IP_PROTO_UDP)
        {
            return RoceFrame::NOT_ROCE;
        }
        ipTotal = ReadU16(b + 2);
        if (ipTotal < IPV4_HEADER)
        {
            return RoceFrame::BAD_LENGTH;
        }
    }
    if (ipTotal > size)
    {
        return RoceFrame::TRUNCATED;
    }
    size = ipTotal;
    return RoceFrame::OK;
}

/**
 * Transport layer: the UDP header at `udp` goes to the RoCEv2 port (4791)
 * and its Length matches the IP packet's `size`. On OK, `ibBytes` is the
 * bytes from the BTH through the ICRC.
 */
inline RoceFrame::ParseStatus
CheckUdp(const uint8_t* udp, uint32_t size, uint32_t ipHeader, uint32_t& ibBytes)
{
    if (size < ipHeader + UDP_HEADER)
    {
        return RoceFrame::TRUNCATED;
    }
    if (ReadU16(udp + 2) != RoceFrame::UDP_PORT)
    {
        return RoceFrame::NOT_ROCE;
    }
    if (ReadU16(udp + 4) != size - ipHeader)
    {
        return RoceFrame::BAD_LENGTH;
    }
    ibBytes = size - ipHeader - UDP_HEADER;
    if (ibBytes < BthHeader::SIZE + IcrcTrailer::SIZE)
    {
        return RoceFrame::TRUNCATED;
    }
    return RoceFrame::OK;
}

/**
 * The ICRC (IBA 9.8.2): `out.icrc` is the trailer's value, checked over the
 * `size` bytes at `b` given `verifyIcrc` (0 from a builder that computed
 * none: RoceFrame::computeIcrc). `end` is the trailer's end in `packet`.
 */
template <class Bytes>
inline RoceFrame::ParseStatus
ReadIcrc(const Bytes& packet,
         const uint8_t* b,
         uint32_t size,
         uint32_t end,
         bool ipv6,
         bool verifyIcrc,
         RoceFrame& out)
{
    if (verifyIcrc)
    {
        const uint8_t* icrcBytes = b + size - IcrcTrailer::SIZE;
        out.icrc = uint32_t(icrcBytes[0]) | (uint32_t(icrcBytes[1]) << 8) |
                   (uint32_t(icrcBytes[2]) << 16) | (uint32_t(icrcBytes[3]) << 24);
        if (IcrcTrailer::Compute(ipv6 ? IcrcTrailer::IPV6 : IcrcTrailer::IPV4,
                                 b,
                                 size - IcrcTrailer::SIZE) != out.icrc)
        {
            return RoceFrame::BAD_ICRC;
        }
    }
    else
    {
        // The last four bytes before any Ethernet padding, without copying the rest.
        out.icrc = packet.ReadIcrc(end);
    }
    return RoceFrame::OK;
}

/**
 * The InfiniBand layer's lengths (IBA 9.2, 9.3): the BTH's opcode is known,
 * its extension headers fit in the `ibBytes` from the BTH through the ICRC,
 * and what is left is payload with a valid PadCnt. Sets `out.hasSackBitmap`
 * (a coalesced SACK's bitmap counts as an extension header). On OK,
 * `extSize` and `dataAndPad` split the bytes between the BTH and the ICRC.
 */
inline RoceFrame::ParseStatus
CheckIbLengths(const uint8_t* bthBytes,
               const RdmaOpcodeInfo& info,
               uint32_t ibBytes,
               RoceFrame& out,
               uint32_t& extSize,
               uint32_t& dataAndPad)
{
    if (!info.known)
    {
        return RoceFrame::UNKNOWN_OPCODE;
    }
    extSize = RdmaExtHeadersSize(bthBytes[0]);
    if (ibBytes < BthHeader::SIZE + extSize + IcrcTrailer::SIZE)
    {
        return RoceFrame::TRUNCATED;
    }
    dataAndPad = ibBytes - BthHeader::SIZE - extSize - IcrcTrailer::SIZE;
    const uint8_t padCnt = (bthBytes[1] >> 4) & 0x3;
    // A coalesced SACK's bitmap after a sequence NAK's AETH (RoceFrame::sackBitmap).
    out.hasSackBitmap = bthBytes[0] == RC_ACKNOWLEDGE &&
                        dataAndPad == RoceFrame::SACK_BITMAP_BYTES && padCnt == 0 &&
                        bthBytes[BthHeader::SIZE] == RoceFrame::SEQUENCE_NAK_SYNDROME;
    if (out.hasSackBitmap)
    {
        extSize += RoceFrame::SACK_BITMAP_BYTES;
        dataAndPad = 0;
    }
    if (dataAndPad > 0 && !(info.extHeaders & EXT_PAYLOAD))
    {
        return RoceFrame::BAD_LENGTH;
    }
    if (padCnt > dataAndPad || dataAndPad % 4 != 0)
    {
        return RoceFrame::BAD_PAD;
    }
    return RoceFrame::OK;
}

/// The IP header's fields into `out`, read with ns-3's Ipv4Header or Ipv6Header.
inline void
ReadIpHeader(Buffer::Iterator& i, bool ipv6, RoceFrame& out)
{
    out.ipv6 = ipv6;
    if (ipv6)
    {
        Ipv6Header ip;
        i.Next(ip.Deserialize(i));
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
        i.Next(ip.Deserialize(i));
        out.dscp = ip.GetTos() >> 2;
        out.ecn = ip.GetTos() & 0x3;
        out.ttl = ip.GetTtl();
        out.ipId = ip.GetIdentification();
        out.srcIpv4 = ip.GetSource();
        out.dstIpv4 = ip.GetDestination();
    }
}

/// The extension headers `ext` names (RdmaOpcodeInfo), in wire order (IBA 9.2).
inline void
ReadExtHeaders(Buffer::Iterator& i, uint16_t ext, RoceFrame& out)
{
    if (ext & EXT_RETH)
    {
        i.Next(out.reth.Deserialize(i));
    }
    if (ext & EXT_ATOMICETH)
    {
        i.Next(out.atomicEth.Deserialize(i));
    }
    if (ext & EXT_AETH)
    {
        i.Next(out.aeth.Deserialize(i));
        out.sackBitmap = out.hasSackBitmap ? i.ReadNtohU64() : 0;
    }
    if (ext & EXT_ATOMICACKETH)
    {
        i.Next(out.atomicAckEth.Deserialize(i));
    }
    if (ext & EXT_IMMDT)
    {
        i.Next(out.immDt.Deserialize(i));
    }
    if (ext & EXT_IETH)
    {
        i.Next(out.ieth.Deserialize(i));
    }
    if (ext & EXT_CNP)
    {
        i.Next(out.cnp.Deserialize(i));
    }
}

template <class Bytes>
RoceFrame::ParseStatus
ParseAt(const Bytes& packet,
        uint32_t offset,
        bool ipv6,
        RoceFrame& out,
        bool verifyIcrc,
        IntHeader* intHeader,
        bool* hasInt)
{
    NS_ASSERT_MSG(!(intHeader && verifyIcrc), "an INT header is skipped only without the ICRC check");
    const uint32_t size0 = packet.GetSize() - offset; // from the IP header
    uint8_t headCopy[64 + HEAD_MAX + IntHeader::SIZE];
    std::vector<uint8_t> all;
    const uint8_t* b =
        CopyHead(packet, offset, size0, verifyIcrc, intHeader, hasInt, headCopy, all);
    // An INT header skipped in the copy is still in the packet, before the BTH.
    const uint32_t shim = (hasInt && *hasInt) ? IntHeader::SIZE : 0;
    uint32_t size = size0 - shim;

    const uint32_t ipHeader = ipv6 ? IPV6_HEADER : IPV4_HEADER;
    RoceFrame::ParseStatus st = CheckIp(b, ipv6, ipHeader, size);
    if (st != RoceFrame::OK)
    {
        return st;
    }
    const uint8_t* udp = b + ipHeader;
    uint32_t ibBytes; // BTH .. ICRC
    st = CheckUdp(udp, size, ipHeader, ibBytes);
    if (st != RoceFrame::OK)
    {
        return st;
    }
    st = ReadIcrc(packet, b, size, offset + shim + size, ipv6, verifyIcrc, out);
    if (st != RoceFrame::OK)
    {
        return st;
    }
    const uint8_t* bthBytes = udp + UDP_HEADER;
    const RdmaOpcodeInfo& info = GetRdmaOpcodeInfo(bthBytes[0]);
    uint32_t extSize;
    uint32_t dataAndPad;
    st = CheckIbLengths(bthBytes, info, ibBytes, out, extSize, dataAndPad);
    if (st != RoceFrame::OK)
    {
        return st;
    }

    // Every length is now known to fit: read the headers with ns-3's classes.
    const uint32_t headers = ipHeader + UDP_HEADER + BthHeader::SIZE + extSize;
    NS_ASSERT(headers <= HEAD_MAX);
    Buffer hb;
    hb.AddAtStart(headers);
    hb.Begin().Write(b, headers);
    Buffer::Iterator i = hb.Begin();
    ReadIpHeader(i, ipv6, out);
    out.udpSrcPort = ReadU16(udp);
    i.Next(UDP_HEADER);
    i.Next(out.bth.Deserialize(i));
    ReadExtHeaders(i, info.extHeaders, out);
    // The payload shares the frame's bytes (copy-on-write).
    const uint8_t padCnt = (bthBytes[1] >> 4) & 0x3;
    out.payload = (info.extHeaders & EXT_PAYLOAD)
                      ? packet.GetPayload(offset + shim + headers, dataAndPad - padCnt)
                      : RdmaPayload();
    out.payloadZeros = false;
    NS_LOG_LOGIC("parsed " << RdmaOpcodeName(out.bth.GetOpcode()) << " psn=" << out.bth.GetPsn());
    return RoceFrame::OK;
}

} // namespace

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
