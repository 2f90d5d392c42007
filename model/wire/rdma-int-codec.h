/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_INT_CODEC_H
#define RDMA_INT_CODEC_H

#include "int-header.h"

#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup rdma
 * \brief Puts an IntHeader into a built RoCEv2 frame and takes it out again,
 * at the place IntHeader describes (between the UDP header and the BTH),
 * so RoceFrame itself never sees INT.
 *
 * A NIC with INT on sends its request packets to UDP port
 * IntHeader::UDP_PORT with an empty header, which switches stamp. The
 * receiver strips it (port 4791 and the IP and UDP lengths restored, so the
 * ICRC matches) and echoes the records in its next ACK to UDP port
 * ECHO_PORT, which switches leave alone (otherwise the reverse path would
 * add its own hops to the echo; the HPCC simulator likewise stamps data
 * packets only).
 */
class RdmaIntCodec
{
  public:
    /// UDP destination port of an ACK that echoes INT records (this module's convention).
    static constexpr uint16_t ECHO_PORT = IntHeader::UDP_PORT + 1;

    /**
     * \brief Insert a header after the UDP header of an Ethernet frame
     * (optional 802.1Q tag, IPv4 or IPv6), set the UDP destination port and
     * grow the IP and UDP lengths (IPv4 checksum recomputed).
     * \param frame the frame, replaced by the longer one
     * \param header the records to carry
     * \param udpPort IntHeader::UDP_PORT (to be stamped) or ECHO_PORT (an echo)
     */
    static void Insert(Ptr<Packet>& frame, const IntHeader& header, uint16_t udpPort);
    /**
     * \brief Insert as Insert() does, but into the frame itself: for a frame
     * nobody else holds (one a NIC has just built), which then costs no copy.
     * \param frame the frame, made longer
     * \param header the records to carry
     * \param udpPort IntHeader::UDP_PORT or ECHO_PORT
     */
    static void InsertInPlace(Ptr<Packet> frame, const IntHeader& header, uint16_t udpPort);
    /**
     * \brief If the frame carries a header (UDP port IntHeader::UDP_PORT or
     * ECHO_PORT), take it out and restore the RoCEv2 frame.
     * \param frame the frame, replaced by the restored one
     * \param header receives the records
     * \return false (frame unchanged) if the frame carries no header
     */
    static bool Strip(Ptr<Packet>& frame, IntHeader& header);
    /**
     * \brief Strip as Strip() does, from the first bytes of a frame: the
     * bytes after the header move up and the lengths and port are restored.
     * \param head the first `n` bytes of an Ethernet frame
     * \param n how many
     * \param header receives the records
     * \return n - IntHeader::SIZE, or 0 (bytes unchanged) if they hold no
     *         whole header after IP/UDP
     */
    static uint32_t StripFromHead(uint8_t* head, uint32_t n, IntHeader& header);
    /**
     * \brief Insert as Insert() does, into the first bytes of a frame.
     * \param head the first `n` bytes of an Ethernet frame, at least through UDP
     * \param n how many
     * \param header the records to carry
     * \param udpPort IntHeader::UDP_PORT or ECHO_PORT
     * \param out receives the n + IntHeader::SIZE bytes that replace them
     * \return n + IntHeader::SIZE, or 0 if the bytes hold no IP/UDP header
     */
    static uint32_t InsertIntoHead(const uint8_t* head,
                                   uint32_t n,
                                   const IntHeader& header,
                                   uint16_t udpPort,
                                   uint8_t* out);

  private:
    /**
     * \brief The head of a frame with the header inserted after UDP.
     * \param frame the frame
     * \param header the records
     * \param udpPort the UDP destination port to set
     * \param head receives the new head (room for 86 + IntHeader::SIZE bytes)
     * \param keep set to the bytes of the frame the head replaces (up to 86)
     * \return the new head's length, or 0 if the frame is not IP/UDP
     */
    static uint32_t MakeHead(Ptr<const Packet> frame,
                             const IntHeader& header,
                             uint16_t udpPort,
                             uint8_t* head,
                             uint32_t& keep);
};

} // namespace ns3

#endif // RDMA_INT_CODEC_H
