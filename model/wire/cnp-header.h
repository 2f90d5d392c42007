/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CNP_HEADER_H
#define CNP_HEADER_H

#include "ns3/header.h"

#include <array>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The 16 reserved bytes that follow the BTH of a RoCEv2 Congestion
 * Notification Packet (IBA Annex A17.9.2; BTH OpCode 0x81, BECN set, DestQP =
 * the QP to throttle, PSN 0). Sent as zero; kept on read so that a received
 * CNP round-trips byte for byte.
 */
class CnpHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16; //!< serialized size, bytes

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

    /// \return true when every reserved byte is zero, as the spec sends them
    bool IsZero() const;

  private:
    std::array<uint8_t, SIZE> m_reserved{}; //!< reserved bytes as received
};

} // namespace ns3

#endif // CNP_HEADER_H
