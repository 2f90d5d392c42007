/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FRAME_H
#define RDMA_FRAME_H

#include "int-header.h"
#include "rdma-payload.h"

#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief CONGA's overlay fields (Alizadeh et al., "CONGA: Distributed
 * Congestion-Aware Load Balancing for Datacenters", SIGCOMM 2014, section
 * 3.2), which CONGA's leaves carry in the VXLAN overlay header around a
 * frame: the source leaf (the outer source address), LBTag (the uplink the
 * source leaf chose), CE (the path's congestion so far) and one piggybacked
 * feedback entry (FB_LBTag, FB_Metric) for the leaf the frame goes to.
 *
 * Here they are simulation metadata of the RdmaFrame, not bytes: the
 * overlay header's bytes are not added to the wire size (ConWeave's
 * simulator carries CONGA's fields as a packet tag alike), and they do not
 * cross an MPI channel (rdma-sim refuses CONGA with MPI ranks).
 */
struct RdmaCongaOverlay
{
    static constexpr uint16_t NO_LEAF = 0xFFFF; //!< srcLeaf of a frame no leaf stamped

    uint16_t srcLeaf{NO_LEAF}; //!< the source leaf's index, NO_LEAF: no overlay
    uint8_t lbTag{0};          //!< LBTag: the source leaf's uplink, by uplink index
    uint8_t ce{0};             //!< CE: the largest DRE metric on the path so far
    uint8_t fbLbTag{0};        //!< FB_LBTag: the uplink the feedback is about
    uint8_t fbMetric{0};       //!< FB_Metric: its metric
    bool hasFeedback{false};   //!< whether FB_LBTag/FB_Metric are set
};

class RdmaFrame;

/**
 * \ingroup rdma
 * \brief How a frame's last reference gives its record back
 * (SimpleRefCount's DELETER): to the free list of its size.
 */
struct RdmaFrameDeleter
{
    /// \param frame the frame, destroyed and its record freed
    static void Delete(RdmaFrame* frame);
};

/**
 * \ingroup rdma
 * \brief An Ethernet frame (destination MAC first, no FCS) as the fabric
 * carries it between NICs: in the compact form its header bytes in the
 * record itself, then a run of zero bytes (a payload nobody wrote, and its
 * pad) and a 4-byte ICRC, one pooled allocation; or any other frame as the
 * ns-3 Packet it is (wrapped).
 *
 * The compact form is what a RoCEv2 packet without real payload bytes
 * costs in memory and cache lines on its way: the record holds every byte
 * a switch or NIC reads or rewrites (Ethernet to the last extension
 * header, with an INT header where there is one), so nothing is copied out
 * of a Packet's buffer per hop. A Packet with the same bytes is made
 * (ToPacket) only where a tool reads one: trace sinks, pcap, error models,
 * the MPI channel. Frames made from Packets (PFC frames, frames from tests
 * and from verbs with real payload bytes) stay Packets: Wrap.
 *
 * The record is as long as what it holds: a fixed part (sizeof(RdmaFrame),
 * 16 bytes), then the head's bytes (a wrapped frame's Packet pointer
 * instead), then, for a frame with an INT header and for a wrapped one, the
 * INT slots' egress IDs (GetIntEgress, MAX_HOPS x 8 bytes), each rounded up
 * to 8 bytes (GetRecordBytes): with an 802.1Q tag and IPv4, a data frame
 * with a RETH (a head of 74 bytes) takes a 96-byte record, one without (58
 * bytes) or an ACK (62) an 80-byte one, a data frame with a RETH and an INT
 * header (116) 176 bytes. Records are cut from 64 KiB blocks (no allocator
 * header each) and go back to a free list per record size, which the next
 * record of that size takes (under ASan each is its own allocation). The
 * blocks and lists are one pool per process, as ns-3 runs one simulation at
 * a time on one thread; its blocks stay reserved until the process ends, for
 * the next run to reuse. CONGA's overlay fields, which only CONGA runs use,
 * are kept beside the records that have them (GetCongaOverlay).
 *
 * Byte for byte, a compact frame and ToPacket()'s Packet are the frame
 * RoceFrame::BuildEthernetFrame makes (headers, payload zeros and pad, the
 * ICRC least significant byte first, IBA Annex A17.3.3).
 */
class RdmaFrame : public SimpleRefCount<RdmaFrame, empty, RdmaFrameDeleter>
{
  public:
    /// Header bytes a compact frame holds at most: Ethernet, an 802.1Q tag,
    /// IPv6, UDP, an INT header (42 bytes), BTH and a RETH fit (14 + 4 + 40 +
    /// 8 + 42 + 12 + 16 = 136 bytes); larger heads are wrapped.
    static constexpr uint32_t HEAD_CAPACITY = 136;
    /// Bytes of the trailer (the ICRC).
    static constexpr uint32_t TRAILER_BYTES = 4;

    /**
     * \brief A compact frame.
     * \param head the first bytes of the frame, headLen of them (<= HEAD_CAPACITY)
     * \param headLen how many
     * \param zeros zero bytes after them (payload and pad)
     * \param icrc the 4-byte trailer after the zeros, as a number (written
     *        least significant byte first, as IcrcTrailer writes it)
     * \param intSlots whether the head holds an INT header: the record then
     *        keeps its slots' egress IDs (GetIntEgress)
     * \return the frame: headLen + zeros + 4 bytes
     */
    static Ptr<RdmaFrame> Compact(const uint8_t* head,
                                  uint32_t headLen,
                                  uint32_t zeros,
                                  uint32_t icrc,
                                  bool intSlots = false);

    /**
     * \brief Any frame, as the Packet it is.
     * \param packet the frame (the RdmaFrame refers to it, it is not copied)
     * \return the frame (its record keeps INT slots' egress IDs)
     */
    static Ptr<RdmaFrame> Wrap(Ptr<Packet> packet);

    /// \return the frame's size, bytes
    uint32_t GetSize() const
    {
        return m_size;
    }

    /// \return true for the compact form, false for a wrapped Packet
    bool IsCompact() const
    {
        return !m_wrapped;
    }

    /// \return the head bytes the record holds (compact; 0 when wrapped)
    uint32_t GetHeadLength() const
    {
        return m_wrapped ? 0 : m_headLen;
    }

    /// \return whether the head holds an INT header (its slots' egress IDs kept)
    bool HasIntSlots() const
    {
        return m_intSlots;
    }

    /// \return the bytes of the record's allocation: the fixed part, the
    /// head (compact) and the INT egress slots, rounded up to 8
    uint32_t GetRecordBytes() const
    {
        return m_recordBytes;
    }

    /**
     * \brief Copy the frame's first bytes, as Packet::CopyData does.
     * \param buffer where to copy
     * \param size at most this many
     * \return how many were copied: min(size, GetSize())
     */
    uint32_t CopyData(uint8_t* buffer, uint32_t size) const;

    /**
     * \brief Write over the frame's first n bytes (a rewritten IP header,
     * an INT record): in place in a compact frame, copy-on-write in a
     * wrapped Packet's buffer (RdmaFrameEditor's rules).
     * \param head the new bytes
     * \param n how many (<= GetSize())
     */
    void RewriteHead(const uint8_t* head, uint32_t n);

    /**
     * \brief The frame as an ns-3 Packet.
     * \return a wrapped frame's own Packet; for a compact frame a new Packet
     *         with the same bytes (its zeros virtual, as ns-3 keeps them)
     */
    Ptr<Packet> ToPacket() const;

    /**
     * \brief Bytes [offset, offset + length) as a payload (a received one).
     * \param offset first byte
     * \param length how many (offset + length <= GetSize())
     * \return RdmaPayload::Zeros(length) when they are all a compact frame's
     *         zeros (no Packet made), else the bytes as Packet::CreateFragment
     *         gives them
     */
    RdmaPayload GetPayload(uint32_t offset, uint32_t length) const;

    /**
     * \brief The ICRC that ends the frame at byte `end` (what the parser
     * reads before any Ethernet padding): IcrcTrailer's byte order.
     * \param end one past its last byte (>= 4, <= GetSize())
     * \return the value
     */
    uint32_t ReadIcrc(uint32_t end) const;

    /**
     * \return CONGA's overlay fields (RdmaCongaOverlay), to read or set:
     * kept beside the record, not in it (only CONGA's leaves and spines
     * call this; the first call gives the defaults, srcLeaf NO_LEAF)
     */
    RdmaCongaOverlay& GetCongaOverlay();

    /**
     * \return per INT slot, the egress that stamped it (IntHeader::EgressIds;
     * metadata, not bytes), to read or set. Only a frame with INT slots
     * has them: a compact frame built with an INT header, or a wrapped one;
     * for any other the call aborts.
     */
    IntHeader::EgressIds& GetIntEgress();

  private:
    friend struct RdmaFrameDeleter;

    /// A record of `areaBytes` after the fixed part, from its free list.
    static RdmaFrame* Allocate(uint32_t areaBytes);
    RdmaFrame()
        : m_wrapped(false),
          m_intSlots(false),
          m_conga(false)
    {
    }
    ~RdmaFrame();

    /// \return the record's bytes after the fixed part
    uint8_t* Area()
    {
        return reinterpret_cast<uint8_t*>(this + 1);
    }

    /// \return the record's bytes after the fixed part
    const uint8_t* Area() const
    {
        return reinterpret_cast<const uint8_t*>(this + 1);
    }

    /// \return a wrapped frame's Packet, kept at the start of the area
    Ptr<Packet>& PacketSlot() const;

    uint32_t m_size{0};        //!< frame bytes
    uint32_t m_icrc{0};        //!< compact: the trailer
    uint8_t m_headLen{0};      //!< compact: head bytes at Area()
    uint8_t m_recordBytes{0};  //!< the record's allocation, bytes
    bool m_wrapped : 1;        //!< a Packet (at Area()) instead of head bytes
    bool m_intSlots : 1;       //!< whether the INT egress IDs follow the head in Area()
    bool m_conga : 1;          //!< whether CONGA's overlay was made (GetCongaOverlay)
    // Area(): the head's bytes (a wrapped frame's Ptr<Packet> instead),
    // rounded up to 8 and at least 8 bytes, then the INT egress IDs
};

/**
 * \ingroup rdma
 * \brief Fire a trace source whose first argument is a frame as a Packet
 * (ns-3's device and queue traces), making the Packet of a compact frame
 * only when a sink is connected.
 * \param trace the TracedCallback
 * \param frame the frame
 * \param args the trace's other arguments
 */
template <class Trace, class... Args>
void
FireFrameTrace(const Trace& trace, const RdmaFrame& frame, Args... args)
{
    if (!trace.IsEmpty())
    {
        trace(frame.ToPacket(), args...);
    }
}

} // namespace ns3

#endif // RDMA_FRAME_H
