/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_WIRE_H
#define RDMA_WIRE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The wire facts of a RoCEv2 fabric in one place: traffic classes,
 * header sizes, per-frame wire overhead, EtherTypes and PSN arithmetic.
 * Every model takes these from here (the device, the switch, the MMU, the
 * frame parsers and CC), so there is one number for each.
 */
struct RdmaWire
{
    /// Traffic classes (IEEE 802.1Q priorities, one PFC class each, 802.1Q-2018 clause 36).
    static constexpr uint8_t NUM_CLASSES = 8;

    /// Untagged Ethernet header: destination, source, EtherType (IEEE 802.3 clause 3.1).
    static constexpr uint32_t ETHERNET_HEADER_BYTES = 14;
    /// An IEEE 802.1Q tag (TPID 0x8100 and TCI).
    static constexpr uint32_t VLAN_TAG_BYTES = 4;
    /// Smallest frame without its FCS (IEEE 802.3 clause 4.4.2: minFrameSize 64 with FCS).
    static constexpr uint32_t MIN_FRAME_BYTES = 60;
    /// Smallest Ethernet payload (MIN_FRAME_BYTES - header); shorter payloads are padded.
    static constexpr uint32_t MIN_PAYLOAD_BYTES = MIN_FRAME_BYTES - ETHERNET_HEADER_BYTES;
    /**
     * Bytes each frame adds on the wire beyond its header and payload (IEEE
     * 802.3 clauses 3 and 4): FCS 4, preamble 7 and SFD 1, minimum
     * inter-frame gap 12.
     */
    static constexpr uint32_t WIRE_OVERHEAD_BYTES = 4 + 8 + 12;

    static constexpr uint32_t IPV4_HEADER_BYTES = 20; //!< IPv4 header without options (RFC 791)
    static constexpr uint32_t IPV6_HEADER_BYTES = 40; //!< IPv6 fixed header (RFC 8200)
    static constexpr uint32_t UDP_HEADER_BYTES = 8;   //!< UDP header (RFC 768)
    static constexpr uint32_t BTH_BYTES = 12;         //!< Base Transport Header (IBA 9.2)
    static constexpr uint32_t ICRC_BYTES = 4;         //!< invariant CRC (IBA Annex A17.3.3)

    /**
     * Frame bytes around the payload of an untagged RoCEv2-over-IPv4 packet
     * with no extension header: Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4.
     * A full data packet is the path MTU plus this; a plain ACK (BTH + AETH 4)
     * is this plus 4.
     */
    static constexpr uint32_t ROCEV2_FRAME_OVERHEAD_BYTES = ETHERNET_HEADER_BYTES +
                                                            IPV4_HEADER_BYTES + UDP_HEADER_BYTES +
                                                            BTH_BYTES + ICRC_BYTES;
    /// AETH, the ACK extended transport header (IBA 9.3.5).
    static constexpr uint32_t AETH_BYTES = 4;

    static constexpr uint16_t ROCEV2_UDP_PORT = 4791;       //!< IANA port of RoCEv2 (Annex A17)
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;      //!< EtherType IPv4
    static constexpr uint16_t ETHERTYPE_IPV6 = 0x86DD;      //!< EtherType IPv6
    static constexpr uint16_t ETHERTYPE_VLAN = 0x8100;      //!< IEEE 802.1Q tag
    static constexpr uint16_t ETHERTYPE_MAC_CONTROL = 0x8808; //!< PFC / PAUSE (802.3 Annex 31B)
};

/**
 * \param v a number
 * \return v mod 2^24, a PSN (IBA 9.7.2: the BTH's PSN field is 24 bits)
 */
inline uint32_t
PsnMod(uint32_t v)
{
    return v & 0xFFFFFF;
}

/**
 * \brief Signed distance a - b of two 24-bit PSNs (IBA 9.7.2: PSNs compare
 * modulo 2^24, within half the space): negative when a is before b.
 * \param a a PSN
 * \param b a PSN
 * \return a - b in [-2^23, 2^23)
 */
inline int32_t
PsnDiff(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>((a - b) << 8) >> 8;
}

/**
 * \param psn a PSN
 * \param n packets to add (may be negative)
 * \return (psn + n) mod 2^24 (IBA 9.7.2)
 */
inline uint32_t
PsnAdd(uint32_t psn, int64_t n)
{
    return PsnMod(static_cast<uint32_t>(static_cast<int64_t>(psn) + n));
}

/**
 * \param psn a PSN at or after first
 * \param first the first PSN of a message
 * \return packets from first forward to psn, (psn - first) mod 2^24: the
 *         index of psn's packet in the message (IBA 9.7.2)
 */
inline uint32_t
PsnSince(uint32_t psn, uint32_t first)
{
    return PsnMod(psn - first);
}

} // namespace ns3

#endif // RDMA_WIRE_H
