/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_CLASS_CONFIG_H
#define QBB_CLASS_CONFIG_H

#include "ns3/attribute-helper.h"
#include "ns3/packet.h"
#include "ns3/rdma-frame.h"

#include <array>
#include <cstdint>
#include <istream>
#include <ostream>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The traffic class of each DSCP value: the DscpToClass attribute of
 * QbbNetDevice.
 *
 * The default is the class-selector rule of RFC 2474 section 4.2.2: DSCP d
 * goes to class d >> 3 (CS0-CS7 to classes 0-7; AF31 = 26, the usual RoCEv2
 * data DSCP, to class 3; CS6 = 48, CNPs on many NICs, to class 6). As a
 * string (Config, command line): 64 class numbers 0-7 separated by spaces,
 * the class of DSCP 0 first; anything else fails to parse.
 *
 * It is also the device's classifier: Classify() gives a frame's class, by
 * its PCP when it has an 802.1Q tag and by this map otherwise.
 */
struct QbbDscpClassMap
{
    /// The class-selector map: DSCP d to class d >> 3.
    QbbDscpClassMap();

    /**
     * \brief The traffic class of a frame, from the fewest bytes that decide
     * it: an 802.1Q-tagged frame (EtherType 0x8100 at offset 12) goes to its
     * PCP (byte 14, top 3 bits; IEEE 802.1Qbb pauses per priority, so class
     * = priority, without 802.1Q Table 8-5's swap of priorities 0 and 1); an
     * untagged IPv4 frame (0x0800) to the class of its DSCP (byte 15 >> 2);
     * an untagged IPv6 frame (0x86DD) to that of the DSCP of its Traffic
     * Class (bytes 14-15); anything else (ARP, MAC Control, frames too short to
     * hold the field) to the highest class, 7.
     * \param frame an Ethernet frame, destination MAC first
     * \return the class, 0-7
     */
    uint8_t Classify(const RdmaFrame& frame) const;
    /**
     * \brief Classify() for a frame as a Packet.
     * \param frame an Ethernet frame, destination MAC first
     * \return the class, 0-7
     */
    uint8_t Classify(Ptr<const Packet> frame) const;
    /**
     * \brief Classify() from a copy of the frame's first bytes.
     * \param head the first bytes of an Ethernet frame
     * \param n how many: at least 16, or the whole frame if it is shorter
     * \return the class, 0-7
     */
    uint8_t ClassifyHead(const uint8_t* head, uint32_t n) const;
    /**
     * \brief Set the class of one DSCP value.
     * \param dscp 0-63 (aborts otherwise)
     * \param c traffic class 0-7 (aborts otherwise)
     */
    void Set(uint8_t dscp, uint8_t c);
    /**
     * \param dscp 0-63 (aborts otherwise)
     * \return its traffic class
     */
    uint8_t Get(uint8_t dscp) const;

    std::array<uint8_t, 64> cls; //!< class of DSCP d at index d, 0-7
};

/**
 * \brief Print a DSCP map as 64 space-separated class numbers.
 * \param os the stream
 * \param map the map
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const QbbDscpClassMap& map);
/**
 * \brief Read a DSCP map: exactly 64 class numbers 0-7 (failbit otherwise).
 * \param is the stream
 * \param map the map read
 * \return the stream
 */
std::istream& operator>>(std::istream& is, QbbDscpClassMap& map);

ATTRIBUTE_HELPER_HEADER(QbbDscpClassMap);

/**
 * \ingroup rdma
 * \brief The deficit-weighted round-robin quantum of each traffic class,
 * bytes: the DwrrQuanta attribute of QbbEgressQueue. Default 9018 bytes for
 * every class (equal shares; one largest frame at the default Mtu, 9000 +
 * 14 + 4, so each turn sends at least one frame). As a string: 8 quanta
 * (1 to 2^32 - 1 bytes) separated by spaces, class 0 first.
 */
struct QbbDwrrQuanta
{
    /// Equal quanta of 9018 bytes.
    QbbDwrrQuanta();

    std::array<uint32_t, 8> bytes; //!< quantum of class c at index c, bytes (> 0)
};

/**
 * \brief Print DWRR quanta as 8 space-separated byte counts.
 * \param os the stream
 * \param quanta the quanta
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const QbbDwrrQuanta& quanta);
/**
 * \brief Read DWRR quanta: exactly 8 byte counts above 0 (failbit otherwise).
 * \param is the stream
 * \param quanta the quanta read
 * \return the stream
 */
std::istream& operator>>(std::istream& is, QbbDwrrQuanta& quanta);

ATTRIBUTE_HELPER_HEADER(QbbDwrrQuanta);

} // namespace ns3

#endif // QBB_CLASS_CONFIG_H
