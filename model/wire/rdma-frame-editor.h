/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FRAME_EDITOR_H
#define RDMA_FRAME_EDITOR_H

#include "rdma-frame-view.h"

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The two in-flight edits a switch makes to a frame: ECN-CE marking
 * (RFC 3168) and INT hop stamping (IntHeader), and the TTL. Each rewrites
 * the frame's first bytes in the frame object the switch received
 * (RdmaFrame::RewriteHead), as ns-3's own devices take headers off the
 * object they receive (PointToPointNetDevice::Receive): once delivered, a
 * frame object is its receiver's, and a trace sink upstream that keeps a
 * frame to read it later (rather than when called, as the pcap writer
 * does) keeps a Copy(). The size stays the same, so the MMU's accounting is
 * unaffected; in a compact frame the bytes are written in place, in a
 * wrapped Packet nothing is allocated unless its buffer is shared.
 */
class RdmaFrameEditor
{
  public:
    /**
     * \brief Set ECN to CE (11) in the IP header of an ECT(0) or ECT(1)
     * frame. IPv4: the TOS byte changes and the header checksum, when not
     * 0, is recomputed (RFC 791; a 0 checksum, as ns-3 writes without
     * checksums enabled, stays 0). IPv6: the ECN bits of the Traffic Class.
     * The RoCEv2 ICRC stays valid: it masks the IPv4 TOS and checksum and
     * the IPv6 Traffic Class (IBA Annex A17.3.3).
     * \param frame the frame (rewritten in place)
     * \param view the frame's parsed view (IPv4 or IPv6, ECN 1 or 2)
     */
    static void MarkCe(RdmaFrame& frame, const RdmaFrameView& view);
    /**
     * \brief MarkCe() for a frame whose IP header offset is known (a switch
     * marking as the frame leaves its queue, without parsing it again).
     * \param frame the frame (rewritten in place)
     * \param ipOffset the IP header's first byte (14, or 18 when tagged)
     * \param ipv6 true for IPv6, false for IPv4
     */
    static void MarkCe(RdmaFrame& frame, uint32_t ipOffset, bool ipv6);

    /**
     * \brief Decrement the IPv4 TTL (RFC 791 3.1, RFC 1812 5.3.1; the header
     * checksum, when not 0, is recomputed) or the IPv6 Hop Limit (RFC 8200
     * 3). The RoCEv2 ICRC stays valid: it masks both (IBA Annex A17.3.3).
     * \param frame the frame (rewritten in place)
     * \param view the frame's parsed view, with GetTtl() above 1
     */
    static void DecrementTtl(RdmaFrame& frame, const RdmaFrameView& view);

    /**
     * \brief Stamp an INT hop record into the IntHeader that follows the
     * UDP header (see IntHeader for the placement).
     * \param frame the frame (rewritten in place)
     * \param view the frame's parsed view (UDP to IntHeader::UDP_PORT)
     * \param record the encoded record (IntHeader::EncodeHop)
     * \return false (frame unchanged) if the frame is too short to hold the header
     */
    static bool StampInt(RdmaFrame& frame, const RdmaFrameView& view, uint64_t record);
    /**
     * \brief StampInt() for a frame whose IntHeader starts at a known offset.
     * \param frame the frame (rewritten in place)
     * \param offset the IntHeader's first byte (the UDP header's end)
     * \param record the encoded record
     * \param egressId the stamping egress (IntHeader::EgressIds), kept as the
     *        frame's metadata for the record's slot (RdmaFrame::GetIntEgress)
     * \return false (frame unchanged) if the frame is too short to hold the header
     */
    static bool StampInt(RdmaFrame& frame, uint32_t offset, uint64_t record, uint64_t egressId = 0);

    /**
     * \brief The 16-bit ones'-complement checksum of an IPv4 header (RFC
     * 791, RFC 1071), computed with the checksum field taken as 0.
     * \param header the header bytes
     * \param length its length (IHL x 4)
     * \return the checksum to store
     */
    static uint16_t Ipv4Checksum(const uint8_t* header, uint32_t length);

    /**
     * \brief A copy of frame whose first `removed` bytes are replaced by
     * `n` others. The rest is shared with the frame (copy-on-write), so the
     * cost is that of the head, plus one copy of the frame when its bytes
     * are still shared.
     * \param frame the frame
     * \param removed how many bytes to take off the front (at most the frame's size)
     * \param head the new bytes
     * \param n how many
     * \return the copy
     */
    static Ptr<Packet> ReplaceHead(Ptr<const Packet> frame,
                                   uint32_t removed,
                                   const uint8_t* head,
                                   uint32_t n);

  private:
    /**
     * \brief Copy a frame's bytes up to the end of the part of its IP
     * header that an edit touches.
     * \param frame the frame
     * \param ip the IP header's offset
     * \param ipv6 its version
     * \param head receives the bytes (MAX_HEAD)
     * \return how many bytes to rewrite (aborts if the frame is shorter)
     */
    static uint32_t CopyIpHead(const RdmaFrame& frame, uint32_t ip, bool ipv6, uint8_t* head);
    /**
     * \brief Recompute an IPv4 header checksum in place unless it is 0
     * (ns-3 without checksums writes 0, which stays).
     * \param ipHeader the header
     * \param length its length, bytes
     */
    static void FixIpv4Checksum(uint8_t* ipHeader, uint32_t length);

    /// Largest head the editor rewrites: Ethernet + tag + IPv4 max + UDP + IntHeader.
    static constexpr uint32_t MAX_HEAD = 14 + 4 + 60 + 8 + 42;
};

} // namespace ns3

#endif // RDMA_FRAME_EDITOR_H
