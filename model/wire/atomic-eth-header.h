/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATOMIC_ETH_HEADER_H
#define ATOMIC_ETH_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Atomic Extended Transport Header (IBA Vol 1 9.3.6), 28 bytes:
 * VA (64), R_Key (32), Swap or Add data (64), Compare data (64), big-endian.
 *
 * COMPARE_SWAP writes Swap when the 8 bytes at VA equal Compare; FETCH_ADD
 * adds Add (Compare is ignored and sent as zero). VA must be 8-byte aligned
 * (checked by the responder, not here).
 */
class AtomicEthHeader : public Header
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

    /// \param va remote virtual address of the 8-byte operand
    void SetVirtualAddress(uint64_t va);
    /// \return remote virtual address
    uint64_t GetVirtualAddress() const;
    /// \param rkey remote key
    void SetRkey(uint32_t rkey);
    /// \return R_Key
    uint32_t GetRkey() const;
    /// \param data Swap data (COMPARE_SWAP) or Add data (FETCH_ADD)
    void SetSwapOrAdd(uint64_t data);
    /// \return Swap or Add data
    uint64_t GetSwapOrAdd() const;
    /// \param data Compare data (COMPARE_SWAP)
    void SetCompare(uint64_t data);
    /// \return Compare data
    uint64_t GetCompare() const;

  private:
    uint64_t m_va;        //!< virtual address
    uint32_t m_rkey;      //!< R_Key
    uint64_t m_swapOrAdd; //!< Swap or Add data
    uint64_t m_compare;   //!< Compare data
};

} // namespace ns3

#endif // ATOMIC_ETH_HEADER_H
