/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INT_HEADER_H
#define INT_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief In-band network telemetry for HPCC (Li et al., "HPCC: High
 * Precision Congestion Control", SIGCOMM 2019, section 3.2 and Figure 4):
 * a fixed-size stack of hop records that switches fill as the packet
 * leaves each egress, in the format of the HPCC authors' ns-3 simulator
 * (hpcc/simulation, IntHop and IntHeader, mode NORMAL, INT_MULTI = 1).
 *
 * Wire format (SIZE = 42 bytes, network byte order):
 *
 *     bytes 0-1    nhop: hop records written so far (a count; wraps at 2^16)
 *     bytes 2-41   MAX_HOPS = 5 records of 8 bytes, record i at 2 + 8 i
 *
 * One record, a 64-bit big-endian word, most significant bits first:
 *
 *     bits 63-61  rate code (3 bits): 0 25G, 1 50G, 2 100G, 3 200G, 4 400G
 *                 (the simulator's lineRateValues), 5 10G, 6 40G, 7 800G
 *                 (this module's extension)
 *     bits 60-37  timestamp, ns, modulo 2^24 (24 bits)
 *     bits 36-17  tx bytes of the egress, cumulative, in units of 128
 *                 bytes, modulo 2^20 (20 bits)
 *     bits 16-0   queue length of the egress, units of 80 bytes (17 bits,
 *                 saturating at 2^17 - 1)
 *
 * The simulator packs the same fields (same widths and units) in a
 * little-endian bit-field union; this header fixes a byte order so the
 * record is the same on any host. As in the simulator, the hop written
 * k-th goes to slot k mod MAX_HOPS: a 6th switch overwrites the first
 * record. Receivers compute rates from differences of consecutive
 * records of the same hop with the modular differences TimeDelta() and
 * BytesDelta().
 *
 * Placement on a RoCEv2 packet (this module's convention): the header sits
 * between the UDP header and the BTH, and the UDP destination port is
 * UDP_PORT instead of 4791 so that no RoCEv2 parser misreads it. The ICRC
 * is that of the packet without the header (UDP port 4791, IP and UDP
 * lengths without the 42 bytes): a receiver removes the header and
 * restores port and lengths before the ICRC check, and echoes the records
 * in its ACK. A switch with INT on (RdmaSwitch IntEnabled) stamps every
 * frame to UDP_PORT, in place, without changing its size.
 *
 * Beside the wire bytes the header keeps, per slot, the identity of the
 * egress port that wrote the record (EgressIds: the node ID and egress
 * interface ID that INT-MD's per-hop metadata carries, instruction bits 0
 * and 1 of "In-band Network Telemetry (INT) Dataplane Specification",
 * P4.org Applications Working Group, v2.1, and that the HPCC record
 * format leaves out). It is simulation metadata, not bytes: it
 * travels as RdmaFrame metadata (RdmaFrame::GetIntEgress) from the stamping
 * switch to the receiver and back in the echo, adds nothing to the frame's
 * size, and is 0 (unknown) where no switch wrote it or a frame lost its
 * metadata (an MPI channel). A sender uses it to compare a record only
 * with an earlier record of the same egress when packets of one QP take
 * several paths (RdmaQpCc, RdmaHpcc).
 */
class IntHeader : public Header
{
  public:
    static constexpr uint32_t MAX_HOPS = 5;              //!< records in the stack
    static constexpr uint32_t HOP_BYTES = 8;             //!< bytes of one record
    static constexpr uint32_t SIZE = 2 + MAX_HOPS * 8;   //!< serialized size, bytes
    static constexpr uint16_t UDP_PORT = 4792;           //!< UDP destination port announcing it
    static constexpr uint32_t TX_BYTES_UNIT = 128;       //!< bytes per tx-bytes unit
    static constexpr uint32_t QLEN_UNIT = 80;            //!< bytes per queue-length unit
    static constexpr uint64_t TIME_MODULO = 1ULL << 24;  //!< timestamp wrap, ns
    static constexpr uint64_t BYTES_MODULO = 1ULL << 20; //!< tx-bytes wrap, units

    /// Per slot, the egress that wrote the record: ((node ID + 1) << 32) |
    /// device index; 0 = unknown (simulation metadata, not serialized).
    using EgressIds = std::array<uint64_t, MAX_HOPS>;

    /// One hop record, decoded (the units the wire keeps).
    struct Hop
    {
        DataRate rate;         //!< egress line rate
        uint32_t timeNs{0};    //!< timestamp, ns modulo 2^24
        uint32_t txUnits{0};   //!< tx bytes / 128, modulo 2^20
        uint32_t qlenUnits{0}; //!< queue bytes / 80, saturated at 2^17 - 1
        uint64_t egressId{0};  //!< the egress that wrote it (EgressIds); 0 = unknown

        /// \return tx bytes (modulo 2^20 x 128)
        uint64_t GetTxBytes() const;
        /// \return queue length, bytes (a multiple of 80)
        uint64_t GetQlenBytes() const;
    };

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    IntHeader();

    /**
     * \brief Add a hop record (slot nhop mod MAX_HOPS), as an egress does.
     * \param rate egress line rate (one of the 8 coded rates; aborts otherwise)
     * \param now the time the packet leaves
     * \param txBytes bytes the egress has sent, cumulative
     * \param qlenBytes bytes in the egress queue
     */
    void PushHop(DataRate rate, Time now, uint64_t txBytes, uint64_t qlenBytes);
    /// \return records written so far (may exceed MAX_HOPS)
    uint16_t GetNHops() const;
    /**
     * \param i slot 0 to MAX_HOPS - 1
     * \return the record in the slot, with the slot's egress ID
     */
    Hop GetHop(uint32_t i) const;
    /// \return the egress IDs of the slots (metadata)
    const EgressIds& GetEgressIds() const;
    /**
     * \brief Set the egress IDs of the slots (from the frame's metadata).
     * \param ids per slot, 0 = unknown
     */
    void SetEgressIds(const EgressIds& ids);

    /**
     * \brief Encode one record.
     * \param rate a coded rate (aborts otherwise, naming it)
     * \param now timestamp
     * \param txBytes cumulative tx bytes
     * \param qlenBytes queue bytes
     * \return the 64-bit record
     */
    static uint64_t EncodeHop(DataRate rate, Time now, uint64_t txBytes, uint64_t qlenBytes);

    /**
     * \param rate a line rate
     * \return whether a hop record can carry it (10, 25, 40, 50, 100, 200,
     *         400 or 800 Gb/s: the 3-bit rate code; EncodeHop aborts on others)
     */
    static bool HasRateCode(DataRate rate);
    /**
     * \param word a 64-bit record
     * \return its fields
     */
    static Hop DecodeHop(uint64_t word);
    /**
     * \brief Stamp a hop into a serialized header in place (what a switch
     * does to the bytes of a frame): write slot nhop mod MAX_HOPS, increment nhop.
     * \param bytes the SIZE bytes of a serialized header
     * \param word the record (EncodeHop)
     * \return the slot written
     */
    static uint32_t PushHopBytes(uint8_t* bytes, uint64_t word);
    /**
     * \param later a later timestamp
     * \param earlier an earlier one
     * \return (later - earlier) modulo 2^24, ns
     */
    static uint32_t TimeDelta(uint32_t later, uint32_t earlier);
    /**
     * \param later a later tx-bytes field
     * \param earlier an earlier one
     * \return bytes between them ((later - earlier) modulo 2^20, x 128)
     */
    static uint64_t BytesDelta(uint32_t later, uint32_t earlier);

  private:
    uint16_t m_nhop;           //!< records written
    uint64_t m_hops[MAX_HOPS]; //!< encoded records (the wire's fixed stack)
    EgressIds m_egress{};      //!< per slot, the egress that wrote it (not on the wire)
};

} // namespace ns3

#endif // INT_HEADER_H
