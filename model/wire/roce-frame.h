/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_FRAME_H
#define ROCE_FRAME_H

#include "aeth-header.h"
#include "atomic-ack-eth-header.h"
#include "atomic-eth-header.h"
#include "bth-header.h"
#include "cnp-header.h"
#include "int-header.h"
#include "rdma-frame.h"
#include "rdma-payload.h"
#include "rdma-wire.h"
#include "rdma-word-header.h"
#include "reth-header.h"
#include "vlan-tag-header.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One RoCEv2 packet as its fields (IBA Annex A17): Ethernet [802.1Q] /
 * IPv4 or IPv6 / UDP (destination port 4791) / BTH / extension headers /
 * payload / pad / ICRC; with the builder that writes it and the parser that
 * reads it back.
 *
 * Which extension headers are written or read follows the BTH opcode
 * (GetRdmaOpcodeInfo); the others are ignored. The builder sets PadCnt from
 * the payload size, the IP and UDP lengths, the IPv4 header checksum, UDP
 * checksum 0 (as RoCE NICs send on IPv4) and the ICRC. The parser checks, in
 * order, every length against the bytes present, the ICRC, the opcode, and
 * the extension-header and pad layout, and never reads past the buffer.
 */
struct RoceFrame
{
    static constexpr uint16_t UDP_PORT = RdmaWire::ROCEV2_UDP_PORT;      //!< RoCEv2 UDP port
    static constexpr uint16_t ETHERTYPE_IPV4 = RdmaWire::ETHERTYPE_IPV4; //!< EtherType IPv4
    static constexpr uint16_t ETHERTYPE_IPV6 = RdmaWire::ETHERTYPE_IPV6; //!< EtherType IPv6
    static constexpr uint32_t SACK_BITMAP_BYTES = 8;                     //!< sackBitmap on the wire
    /// AETH syndrome of a PSN sequence error NAK (IBA Tables 44, 46): a SACK bitmap may follow
    static constexpr uint8_t SEQUENCE_NAK_SYNDROME =
        (AethHeader::NAK << 5) | AethHeader::NAK_PSN_SEQUENCE_ERROR;

    /// Outcome of parsing a frame.
    enum ParseStatus
    {
        OK,             //!< a well-formed RoCEv2 packet
        NOT_ROCE,       //!< not IPv4/IPv6 + UDP to port 4791 (e.g. a PFC frame)
        TRUNCATED,      //!< fewer bytes than the headers or lengths need
        BAD_LENGTH,     //!< IP and UDP lengths disagree, or payload where none may be
        UNSUPPORTED_L3, //!< IPv4 options or IPv6 extension headers
        BAD_ICRC,       //!< ICRC mismatch (corrupted packet)
        UNKNOWN_OPCODE, //!< BTH opcode this module does not implement
        BAD_PAD,        //!< PadCnt larger than the data, or data not 4-byte aligned
    };

    /**
     * \param status a parse outcome
     * \return its name, e.g. "BAD_ICRC"
     */
    static const char* ParseStatusName(ParseStatus status);

    /**
     * Whether Build computes the ICRC (IBA Annex A17.3.3). As ns-3's
     * "ChecksumEnabled" does for IP and UDP checksums, false spares the CRC
     * where nothing reads it: the frame carries an ICRC of 0, so a parse
     * that verifies reports BAD_ICRC for it. A NIC sets it from its
     * ComputeIcrc attribute (rdma-sim's sim.icrc = auto turns that off when
     * no receiver verifies and no pcap is written).
     */
    bool computeIcrc{true};

    // Ethernet and 802.1Q
    Mac48Address srcMac; //!< Ethernet source
    Mac48Address dstMac; //!< Ethernet destination
    bool hasVlan{false}; //!< whether an 802.1Q tag follows the MACs
    VlanTagHeader vlan;  //!< the tag (PCP = 802.1p priority)
    // IP
    bool ipv6{false};      //!< IPv6 instead of IPv4
    Ipv4Address srcIpv4;   //!< IPv4 source
    Ipv4Address dstIpv4;   //!< IPv4 destination
    Ipv6Address srcIpv6;   //!< IPv6 source
    Ipv6Address dstIpv6;   //!< IPv6 destination
    uint8_t dscp{0};       //!< DSCP, 6 bits
    uint8_t ecn{0};        //!< ECN, 2 bits (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE)
    uint8_t ttl{64};       //!< IPv4 TTL or IPv6 hop limit
    uint16_t ipId{0};      //!< IPv4 identification (DF is always set)
    uint32_t flowLabel{0}; //!< IPv6 flow label, 20 bits
    // UDP
    uint16_t udpSrcPort{0xC000}; //!< RoCEv2 entropy, constant per QP
    // InfiniBand transport
    BthHeader bth;                   //!< base transport header
    RethHeader reth;                 //!< used when the opcode carries a RETH
    AethHeader aeth;                 //!< ... an AETH
    AtomicEthHeader atomicEth;       //!< ... an AtomicETH
    AtomicAckEthHeader atomicAckEth; //!< ... an AtomicAckETH
    ImmDtHeader immDt;               //!< ... an ImmDt
    IethHeader ieth;                 //!< ... an IETH
    CnpHeader cnp;                   //!< ... the CNP reserved block
    /**
     * A coalesced SACK's bitmap (RdmaSelectiveRepeat's SackCoalescing): 8
     * bytes, big-endian, after the AETH of an ACKNOWLEDGE whose AETH is a
     * PSN sequence error NAK; bit i (0 = least significant) set when PSN
     * bth.psn + 1 + i (the cumulative ACK point + 1 + i) has arrived. Written
     * only with hasSackBitmap on such a frame; a parse sets hasSackBitmap
     * when the 8 bytes are there. The IBA gives an ACKNOWLEDGE no payload:
     * tshark decodes the BTH and AETH of such a frame and leaves the 8 bytes
     * undecoded (not malformed).
     */
    uint64_t sackBitmap{0};
    bool hasSackBitmap{false}; //!< whether the frame carries sackBitmap
    /// The payload without pad: none, a run of zeros by its length alone
    /// (RdmaPayload::Zeros: what a compact frame's parse and a gather from
    /// memory not in data mode give), or real bytes as a Packet.
    RdmaPayload payload;
    bool payloadZeros{false}; //!< a Packet payload is known to be zero bytes (the
                              //!< builders then find the ICRC from the headers alone,
                              //!< as for RdmaPayload::Zeros)
    uint32_t icrc{0};         //!< ICRC written by the builder, read by the parser

    /// \return whether Build writes sackBitmap: hasSackBitmap on an
    /// ACKNOWLEDGE whose AETH is a PSN sequence error NAK
    bool CarriesSackBitmap() const;

    /**
     * \brief Build the packet from the IP header through the ICRC.
     * Sets bth PadCnt and `icrc` (hence not const).
     * \return a new packet
     */
    Ptr<Packet> BuildIpPacket();
    /**
     * \brief Build the whole Ethernet frame (no preamble, no FCS).
     * \return a new packet
     */
    Ptr<Packet> BuildEthernetFrame();
    /**
     * \brief Build the whole Ethernet frame with an INT header after UDP:
     * byte for byte what RdmaIntCodec::Insert makes of BuildEthernetFrame()'s
     * frame (the ICRC is that of the frame without it), in one piece.
     * \param intHeader the records to carry
     * \param udpPort IntHeader::UDP_PORT or RdmaIntCodec::ECHO_PORT
     * \return a new packet
     */
    Ptr<Packet> BuildEthernetFrame(const IntHeader& intHeader, uint16_t udpPort);
    /**
     * \brief Build the whole Ethernet frame as the fabric carries it: the
     * bytes BuildEthernetFrame() makes, compact (RdmaFrame::Compact) when the
     * payload is zeros or none and the headers fit, else that Packet, wrapped.
     * \return a new frame
     */
    Ptr<RdmaFrame> BuildFrame();
    /**
     * \brief BuildFrame() with an INT header after UDP, as
     * BuildEthernetFrame(intHeader, udpPort) makes it.
     * \param intHeader the records to carry
     * \param udpPort IntHeader::UDP_PORT or RdmaIntCodec::ECHO_PORT
     * \return a new frame
     */
    Ptr<RdmaFrame> BuildFrame(const IntHeader& intHeader, uint16_t udpPort);

    /**
     * \brief Parse an Ethernet frame (no preamble, no FCS).
     * \param frame the frame; not modified
     * \param out receives the fields; valid only when OK is returned
     * \param verifyIcrc whether to recompute and compare the ICRC
     * \return the outcome
     */
    static ParseStatus ParseEthernetFrame(Ptr<const Packet> frame,
                                          RoceFrame& out,
                                          bool verifyIcrc = true);
    /**
     * \brief Parse an Ethernet frame that may carry an INT header between
     * UDP and BTH (RdmaIntCodec: UDP destination port IntHeader::UDP_PORT,
     * or the echo port one above it), without checking the ICRC: the fields
     * are those of the frame without it (what RdmaIntCodec::Strip and then
     * a parse give), read from the head alone.
     * \param frame the frame; not modified
     * \param out receives the fields; valid only when OK is returned
     * \param intHeader receives the INT header when there is one
     * \param hasInt set to whether there is one
     * \return the outcome
     */
    static ParseStatus ParseEthernetFrameWithInt(Ptr<const Packet> frame,
                                                 RoceFrame& out,
                                                 IntHeader& intHeader,
                                                 bool& hasInt);
    /**
     * \brief ParseEthernetFrame for a frame as the fabric carries it (a
     * compact frame's payload is RdmaPayload::Zeros of its length: no
     * Packet is made).
     * \param frame the frame; not modified
     * \param out receives the fields; valid only when OK is returned
     * \param verifyIcrc whether to recompute and compare the ICRC
     * \return the outcome
     */
    static ParseStatus ParseEthernetFrame(const RdmaFrame& frame,
                                          RoceFrame& out,
                                          bool verifyIcrc = true);
    /**
     * \brief ParseEthernetFrameWithInt for a frame as the fabric carries it.
     * \param frame the frame; not modified
     * \param out receives the fields; valid only when OK is returned
     * \param intHeader receives the INT header when there is one
     * \param hasInt set to whether there is one
     * \return the outcome
     */
    static ParseStatus ParseEthernetFrameWithInt(const RdmaFrame& frame,
                                                 RoceFrame& out,
                                                 IntHeader& intHeader,
                                                 bool& hasInt);
    /**
     * \brief Parse a packet that starts at the IP header.
     * \param packet the packet; not modified
     * \param ipv6 whether the network layer is IPv6
     * \param out receives the IP and upper fields; valid only when OK is returned
     * \param verifyIcrc whether to recompute and compare the ICRC
     * \return the outcome
     */
    static ParseStatus ParseIpPacket(Ptr<const Packet> packet,
                                     bool ipv6,
                                     RoceFrame& out,
                                     bool verifyIcrc = true);

  private:
    /**
     * \brief Build the packet: every header serialized once into one buffer
     * and added with RdmaRawHeader, the ICRC from it and the payload.
     * \param ethernet whether to start with the Ethernet header (and tag)
     * \param intHeader an INT header to insert after UDP (ethernet only), or null
     * \param intPort its UDP destination port
     * \param compact if given, a frame whose payload is zeros or none and
     *        whose headers fit is made compact here instead (null returned)
     * \return a new packet, or null when *compact was set
     */
    Ptr<Packet> Build(bool ethernet,
                      const IntHeader* intHeader = nullptr,
                      uint16_t intPort = 0,
                      Ptr<RdmaFrame>* compact = nullptr);
  public:

    /**
     * \brief The RoCEv2 UDP source port of a QP pair, as the Linux kernel's
     * RDMA core derives it (rdma_calc_flow_label, then
     * rdma_flow_label_to_udp_sport; RoCEv2, IBA Vol. 1 Annex A17, leaves
     * the source port to the sender as entropy): in 0xC000-0xFFFF,
     * constant per QP.
     * \param localQpn the sender's QPN
     * \param remoteQpn the destination QPN
     * \return the UDP source port
     */
    static uint16_t UdpSourcePort(uint32_t localQpn, uint32_t remoteQpn);
};

} // namespace ns3

#endif // ROCE_FRAME_H
