/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "rdma-wire.h"

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief IEEE 802.1Qbb Priority-based Flow Control frame body (the MAC
 * Control frame of IEEE 802.3 Annex 31D), following an EthernetHeader with
 * destination 01-80-C2-00-00-01 and EtherType 0x8808.
 *
 * Layout (big-endian): MAC Control opcode 0x0101 (2 B), class-enable vector
 * (2 B: high octet zero, bit i of the low octet enables priority i), eight
 * pause times (2 B each) in quanta of 512 bit times, then 26 zero bytes of
 * pad to the 60-byte minimum frame (64 with FCS). A time of 0 with its
 * enable bit set resumes the class at once (XON). Serialized size: 46 bytes.
 */
class PfcHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 46;             //!< body with pad, bytes
    static constexpr uint16_t ETHERTYPE = RdmaWire::ETHERTYPE_MAC_CONTROL; //!< MAC Control
    static constexpr uint16_t OPCODE_PFC = 0x0101;   //!< 802.1Qbb PFC opcode
    static constexpr uint16_t OPCODE_PAUSE = 0x0001; //!< 802.3x PAUSE opcode
    static constexpr uint32_t NUM_CLASSES = RdmaWire::NUM_CLASSES; //!< priorities
    static constexpr uint32_t QUANTUM_BITS = 512;    //!< bit times per pause quantum

    PfcHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \return the reserved multicast address PFC frames are sent to
    static Mac48Address GetDestination();

    /// \param opcode MAC Control opcode (OPCODE_PFC by default)
    void SetOpcode(uint16_t opcode);
    /// \return MAC Control opcode
    uint16_t GetOpcode() const;
    /**
     * \brief Enable class `priority` with a pause time (0 = resume / XON).
     * \param priority 0-7; larger values are ignored
     * \param quanta pause time in quanta of 512 bit times
     */
    void SetPause(uint8_t priority, uint16_t quanta);
    /// \param priority 0-7 \return whether the class-enable bit is set
    bool IsEnabled(uint8_t priority) const;
    /// \param priority 0-7 \return the pause time of the class, quanta
    uint16_t GetPauseQuanta(uint8_t priority) const;
    /// \return the class-enable vector (bit i = priority i)
    uint16_t GetClassEnableVector() const;

    /**
     * \brief Length of a pause time on a link (802.1Qbb: quanta x 512 bit times).
     * \param quanta pause quanta
     * \param rate link rate
     * \return quanta x 512 / rate (e.g. 65535 quanta at 100 Gb/s = 335.5 us)
     */
    static Time QuantaToTime(uint16_t quanta, DataRate rate);

    /**
     * \brief The PFC headroom one (receiver, class) needs so that nothing
     * sent after the XOFF decision overflows it (a switch port's or a NIC's), after the delay model
     * of IEEE 802.1Qbb-2011's informative annex on PFC delay (two maximum-size frames, the PFC
     * frame, twice the cable delay, interface and higher-layer delays; also Cisco's "Priority Flow
     * Control: Build Reliable Layer 2 Infrastructure" white paper):
     *
     *   H = 2 x delay x rate / 8 + 2 x (maxFrame + 24) + (64 + 20)
     *
     * in bytes: the bytes in flight on the cable in both directions while
     * the pause travels up and the last frames travel down; one maximum
     * frame the receiver's own egress may be sending when it decides (the PFC
     * frame waits for it) and one the upstream may have just started when
     * the pause arrives; the PFC frame's own wire time (64-byte minimum
     * frame with FCS + preamble/SFD and inter-frame gap, 20 bytes). 24 is
     * each frame's wire overhead (QbbNetDevice::WIRE_OVERHEAD_BYTES). The
     * interface and higher-layer response delays of the standard's model
     * are zero in this simulator: a QbbNetDevice obeys a pause the moment
     * its last bit arrives.
     * \param rate the link's rate
     * \param delay the cable's one-way propagation delay
     * \param maxFrameBytes the largest frame, bytes without FCS (Mtu + 14 + 4)
     * \return H, bytes
     */
    static uint64_t ComputeHeadroom(DataRate rate, Time delay, uint32_t maxFrameBytes);
    /**
     * \brief The smallest pause time (in quanta, rounded up, at most 65535)
     * that covers a duration on a link.
     * \param duration time to pause
     * \param rate link rate
     * \return quanta
     */
    static uint16_t TimeToQuanta(Time duration, DataRate rate);

  private:
    uint16_t m_opcode;                            //!< MAC Control opcode
    uint16_t m_classEnable;                       //!< class-enable vector
    std::array<uint16_t, NUM_CLASSES> m_quanta{}; //!< pause times
};

} // namespace ns3

#endif // PFC_HEADER_H
