/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VLAN_TAG_HEADER_H
#define VLAN_TAG_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief IEEE 802.1Q tag as it follows an EthernetHeader whose type is 0x8100:
 * TCI (PCP 3 bits, DEI 1 bit, VID 12 bits) and the inner EtherType, 4 bytes.
 *
 * ns-3 has no 802.1Q header class; the PCP carries the 802.1p priority that
 * PFC (802.1Qbb) pauses per class.
 */
class VlanTagHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 4;      //!< serialized size, bytes
    static constexpr uint16_t TPID = 0x8100; //!< EtherType of a tagged frame

    VlanTagHeader();

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

    /// \param pcp priority code point 0-7 (802.1p)
    void SetPcp(uint8_t pcp);
    /// \return PCP
    uint8_t GetPcp() const;
    /// \param dei drop eligible indicator
    void SetDei(bool dei);
    /// \return DEI
    bool GetDei() const;
    /// \param vid VLAN identifier, 12 bits
    void SetVid(uint16_t vid);
    /// \return VID
    uint16_t GetVid() const;
    /// \param type EtherType of what follows the tag (0x0800 IPv4, 0x86DD IPv6)
    void SetInnerType(uint16_t type);
    /// \return inner EtherType
    uint16_t GetInnerType() const;

  private:
    uint16_t m_tci;       //!< tag control information
    uint16_t m_innerType; //!< inner EtherType
};

} // namespace ns3

#endif // VLAN_TAG_HEADER_H
