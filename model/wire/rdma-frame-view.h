/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FRAME_VIEW_H
#define RDMA_FRAME_VIEW_H

#include "rdma-frame.h"
#include "rdma-wire.h"

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The few fields a switch needs from an Ethernet frame, read from a
 * copy of its first bytes only (at most PEEK_BYTES, on the stack: nothing is
 * allocated, the Packet is not changed).
 *
 * Layout read: Ethernet (14 bytes), an optional 802.1Q tag (4 bytes,
 * EtherType 0x8100), then IPv4 (EtherType 0x0800, RFC 791; IHL may carry
 * options) or IPv6 (0x86DD, RFC 8200; no extension headers are walked: the
 * Next Header of the fixed header is the protocol), then the first 4 bytes
 * of a UDP or TCP header (the ports). A RoCEv2 frame is UDP to port 4791
 * (IBA Annex A17.2); its UDP source port is the flow entropy
 * (RoceFrame::UdpSourcePort).
 */
class RdmaFrameView
{
  public:
    static constexpr uint32_t PEEK_BYTES = 14 + 4 + 60 + 4;   //!< Ethernet, tag, IPv4 max, ports
    static constexpr uint16_t ETHERTYPE_VLAN = RdmaWire::ETHERTYPE_VLAN; //!< IEEE 802.1Q tag
    static constexpr uint16_t ETHERTYPE_IPV4 = RdmaWire::ETHERTYPE_IPV4; //!< IPv4
    static constexpr uint16_t ETHERTYPE_IPV6 = RdmaWire::ETHERTYPE_IPV6; //!< IPv6
    static constexpr uint16_t ETHERTYPE_MAC_CONTROL = RdmaWire::ETHERTYPE_MAC_CONTROL; //!< PFC
    static constexpr uint8_t PROTO_UDP = 17;                  //!< IP protocol UDP
    static constexpr uint8_t PROTO_TCP = 6;                   //!< IP protocol TCP
    static constexpr uint8_t ECN_CE = 3;                      //!< Congestion Experienced (RFC 3168)

    /**
     * \brief Read the headers of a frame.
     * \param frame an Ethernet frame, destination MAC first
     * \return true if it holds a complete IPv4 or IPv6 header (ports are
     *         read when present); false for anything else (MAC Control,
     *         ARP, truncated frames)
     */
    bool Parse(Ptr<const Packet> frame);
    /**
     * \brief Read the headers of a frame as the fabric carries it.
     * \param frame the frame
     * \return as Parse(Ptr<const Packet>)
     */
    bool Parse(const RdmaFrame& frame);

    /// \return the first bytes of the frame, as copied by Parse()
    const uint8_t* GetHead() const
    {
        return m_bytes;
    }

    /// \return how many bytes GetHead() holds: PEEK_BYTES, or the whole frame if shorter
    uint32_t GetHeadLength() const
    {
        return m_len;
    }

    /// \return true for IPv6, false for IPv4
    bool IsIpv6() const;
    /// \return the IPv4 destination address as a host-order integer (IPv4 only)
    uint32_t GetDstIpv4() const;
    /// \return the 16 bytes of the IPv6 destination address (IPv6 only)
    const uint8_t* GetDstIpv6() const;
    /// \return the byte offset of the IP header in the frame (14 or 18)
    uint32_t GetIpOffset() const;
    /// \return the byte offset of the L4 header in the frame
    uint32_t GetL4Offset() const;
    /// \return the IP protocol (IPv6: Next Header of the fixed header)
    uint8_t GetProtocol() const;
    /// \return the ECN field of the IP header, 0-3 (RFC 3168)
    uint8_t GetEcn() const;
    /// \return the IPv4 TTL or the IPv6 Hop Limit
    uint8_t GetTtl() const;
    /// \return true if the L4 ports were present (UDP or TCP, not truncated)
    bool HasPorts() const;
    /// \return the L4 source port (0 without ports)
    uint16_t GetSrcPort() const;
    /// \return the L4 destination port (0 without ports)
    uint16_t GetDstPort() const;
    /// \return true for UDP to 4791 (RoCEv2)
    bool IsRoce() const;
    /**
     * \return true for a RoCEv2 control frame: an acknowledgement (BTH opcode
     * RC ACKNOWLEDGE or RC ATOMIC ACKNOWLEDGE, IBA Table 38: ACKs and NAKs)
     * , a CNP (opcode 0x81, IBA Annex A17.9) or an RCCC credit or request
     * to send (0xC0, 0xC1); false for requests, READ
     * responses, other frames and a head too short to hold the opcode
     */
    bool IsRoceControl() const;

    /**
     * \brief Hash of the 5-tuple (source and destination address, protocol,
     * source and destination port) with a seed: each 32-bit word of the
     * tuple is folded in with MurmurHash3's 64-bit finalizer (fmix64,
     * Appleby), which spreads every input bit over the whole result; the
     * seed is the first word, so switches with different seeds split the
     * same flows differently (avoiding ECMP polarization).
     * \param seed the switch's seed
     * \return the hash
     */
    uint64_t FlowHash(uint32_t seed) const;

    /**
     * \brief MurmurHash3's 64-bit finalizer (fmix64).
     * \param k the input
     * \return the mixed value
     */
    static uint64_t Mix64(uint64_t k);

  private:
    /// Parse the m_len bytes copied into m_bytes.
    bool ParseCopied();
    /// \return the 16-bit big-endian value at offset off of the peeked bytes
    uint16_t Read16(uint32_t off) const;
    /// \return the 32-bit big-endian value at offset off of the peeked bytes
    uint32_t Read32(uint32_t off) const;

    uint8_t m_bytes[PEEK_BYTES]; //!< the first bytes of the frame
    uint32_t m_len{0};           //!< how many were copied
    uint32_t m_ipOffset{0};      //!< start of the IP header
    uint32_t m_l4Offset{0};      //!< start of the L4 header
    bool m_ipv6{false};          //!< IPv6 frame
    bool m_hasPorts{false};      //!< L4 ports read
    uint8_t m_proto{0};          //!< IP protocol
};

} // namespace ns3

#endif // RDMA_FRAME_VIEW_H
