/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_REMOTE_ACCESS_HEADER_H
#define RDMA_REMOTE_ACCESS_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What every request for remote memory carries first: the remote
 * virtual address (64 bits) and the R_Key that grants access to it (32
 * bits), big-endian, at the start of the RETH (IBA Vol 1 9.3.3) and of the
 * AtomicETH (9.3.6). RethHeader and AtomicEthHeader add their own fields
 * after these 12 bytes.
 */
class RdmaRemoteAccessHeader : public Header
{
  public:
    static constexpr uint32_t REMOTE_ACCESS_BYTES = 12; //!< bytes of VA and R_Key

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param va remote virtual address
    void SetVirtualAddress(uint64_t va);
    /// \return remote virtual address
    uint64_t GetVirtualAddress() const;
    /// \param rkey remote key
    void SetRkey(uint32_t rkey);
    /// \return R_Key
    uint32_t GetRkey() const;

  protected:
    /// \param start where the VA goes, moved past the R_Key
    void SerializeRemoteAccess(Buffer::Iterator& start) const;
    /// \param start where the VA is, moved past the R_Key
    void DeserializeRemoteAccess(Buffer::Iterator& start);
    /// \param os where " va=0x... rkey=0x..." goes
    void PrintRemoteAccess(std::ostream& os) const;

  private:
    uint64_t m_va{0};   //!< virtual address
    uint32_t m_rkey{0}; //!< R_Key
};

} // namespace ns3

#endif // RDMA_REMOTE_ACCESS_HEADER_H
