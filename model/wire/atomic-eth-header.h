/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATOMIC_ETH_HEADER_H
#define ATOMIC_ETH_HEADER_H

#include "rdma-remote-access-header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Atomic Extended Transport Header (IBA Vol 1 9.3.6), 28 bytes:
 * VA (64), R_Key (32) (the RdmaRemoteAccessHeader part; VA is the 8-byte
 * operand's), Swap or Add data (64), Compare data (64), big-endian.
 *
 * COMPARE_SWAP writes Swap when the 8 bytes at VA equal Compare; FETCH_ADD
 * adds Add (Compare is ignored and sent as zero). VA must be 8-byte aligned
 * (checked by the responder, not here).
 */
class AtomicEthHeader : public RdmaRemoteAccessHeader
{
  public:
    static constexpr uint32_t SIZE = 28; //!< serialized size, bytes

    AtomicEthHeader();

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

    /// \param data Swap data (COMPARE_SWAP) or Add data (FETCH_ADD)
    void SetSwapOrAdd(uint64_t data);
    /// \return Swap or Add data
    uint64_t GetSwapOrAdd() const;
    /// \param data Compare data (COMPARE_SWAP)
    void SetCompare(uint64_t data);
    /// \return Compare data
    uint64_t GetCompare() const;

  private:
    uint64_t m_swapOrAdd; //!< Swap or Add data
    uint64_t m_compare;   //!< Compare data
};

} // namespace ns3

#endif // ATOMIC_ETH_HEADER_H
