/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATOMIC_ACK_ETH_HEADER_H
#define ATOMIC_ACK_ETH_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Atomic ACK Extended Transport Header (IBA Vol 1 9.5.3), 8 bytes:
 * the original remote data (the 8 bytes at VA before the atomic), big-endian.
 */
class AtomicAckEthHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 8; //!< serialized size, bytes

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

    /// \param data original remote data
    void SetOriginalRemoteData(uint64_t data);
    /// \return original remote data
    uint64_t GetOriginalRemoteData() const;

  private:
    uint64_t m_origRemData{0}; //!< original remote data
};

} // namespace ns3

#endif // ATOMIC_ACK_ETH_HEADER_H
