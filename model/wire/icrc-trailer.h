/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ICRC_TRAILER_H
#define ICRC_TRAILER_H

#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RoCEv2 Invariant CRC (IBA Annex A17.3.3), the 4-byte trailer after
 * the payload and pad of every RoCEv2 packet.
 *
 * The value is a CRC-32 (IEEE 802.3 polynomial, reflected, as zlib's crc32)
 * over 8 bytes of 0xFF (standing for the masked LRH of native IB) followed
 * by the packet from the IP header through the pad with the variant fields
 * masked to ones: IPv4 TOS, TTL and header checksum; IPv6 traffic class,
 * flow label and hop limit; UDP checksum; BTH byte 4 (FECN, BECN, resv6a).
 * It goes on the wire least significant byte first (as Linux rxe and the
 * Ethernet FCS). Computed with zlib, never by hand.
 */
class IcrcTrailer : public Trailer
{
  public:
    static constexpr uint32_t SIZE = 4; //!< serialized size, bytes

    /// Network layer of the bytes an ICRC covers.
    enum L3Type : uint8_t
    {
        IPV4,
        IPV6,
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

    /// \param icrc the ICRC value (as zlib's crc32 returns it)
    void SetIcrc(uint32_t icrc);
    /// \return the ICRC value
    uint32_t GetIcrc() const;

    /**
     * \brief Compute the ICRC of a RoCEv2 packet.
     * \param l3 IPV4 or IPV6
     * \param bytes the packet from the first IP header byte through the last
     *        pad byte (the ICRC itself excluded)
     * \param size number of bytes; must cover at least IP, UDP and BTH
     *        (48 for IPv4, 68 for IPv6), else the result is 0 and
     *        `ok` (when given) is set false
     * \param ok optional; set true when the size was sufficient
     * \return the ICRC value
     */
    static uint32_t Compute(L3Type l3, const uint8_t* bytes, uint32_t size, bool* ok = nullptr);

    /**
     * \brief Extend a CRC-32 over `n` more zero bytes without reading them:
     * Compute(l3, head, h) followed by AppendZeros(., n) equals Compute over
     * the head followed by n zero bytes (zlib's crc32_combine_gen/op; the
     * operator for each n is kept). This is how a packet whose payload is
     * known to be zeros (a memory region without data) gets its real ICRC
     * for the cost of its headers.
     * \param crc the CRC-32 of the bytes so far (as zlib's crc32 returns it)
     * \param n number of zero bytes that follow
     * \return the CRC-32 of the bytes so far followed by n zeros
     */
    static uint32_t AppendZeros(uint32_t crc, uint32_t n);
    /**
     * \brief Extend a CRC-32 over more bytes (zlib's crc32 continued).
     * \param crc the CRC-32 of the bytes so far
     * \param bytes the bytes that follow
     * \param n how many
     * \return the CRC-32 of all of them
     */
    static uint32_t Append(uint32_t crc, const uint8_t* bytes, uint32_t n);

  private:
    uint32_t m_icrc{0}; //!< ICRC value
};

} // namespace ns3

#endif // ICRC_TRAILER_H
