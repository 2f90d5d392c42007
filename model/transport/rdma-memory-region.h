/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MEMORY_REGION_H
#define RDMA_MEMORY_REGION_H

#include "rdma-protection-domain.h"
#include "rdma-verbs.h"

#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A registered memory region (ibv_mr): a virtual address range of a
 * host's memory, its keys and the access it grants (IBA 10.6).
 *
 * In data mode the region owns real bytes, so a test can check every byte
 * a WRITE, READ, SEND or atomic placed; otherwise only addresses, keys and
 * access are modelled and Read/Write do nothing (the default, for speed).
 */
class RdmaMemoryRegion : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param pd owning protection domain
     * \param addr first virtual address
     * \param length bytes
     * \param access RdmaAccessFlags
     * \param key the L_Key and R_Key (equal, as most RoCE NICs make them)
     * \param dataMode whether the region holds real bytes (zero-filled)
     */
    RdmaMemoryRegion(Ptr<RdmaProtectionDomain> pd,
                     uint64_t addr,
                     uint64_t length,
                     uint32_t access,
                     uint32_t key,
                     bool dataMode);
    RdmaMemoryRegion();

    /// \return the protection domain
    Ptr<RdmaProtectionDomain> GetPd() const;
    /// \return first virtual address
    uint64_t GetAddr() const;
    /// \return length, bytes
    uint64_t GetLength() const;
    /// \return access flags
    uint32_t GetAccess() const;
    /// \return L_Key
    uint32_t GetLkey() const;
    /// \return R_Key
    uint32_t GetRkey() const;
    /// \return whether the region holds real bytes
    bool IsDataMode() const;
    /// \return whether the region was invalidated (SEND with invalidate)
    bool IsInvalidated() const;
    /// Invalidate the R_Key (IBA 10.6.6: remote access fails afterwards).
    void Invalidate();

    /**
     * \param va first address
     * \param length bytes
     * \return whether [va, va + length) lies inside the region
     */
    bool Contains(uint64_t va, uint64_t length) const;

    /**
     * \brief Copy bytes out of the region (data mode; no-op otherwise).
     * \param va first address, inside the region with `length`
     * \param out destination
     * \param length bytes
     */
    void Read(uint64_t va, uint8_t* out, uint64_t length) const;
    /**
     * \brief Copy bytes into the region (data mode; no-op otherwise).
     * \param va first address, inside the region with `length`
     * \param in source
     * \param length bytes
     */
    void Write(uint64_t va, const uint8_t* in, uint64_t length);
    /// \return the 8-byte big-endian-free host value at va (data mode; else 0)
    uint64_t ReadU64(uint64_t va) const;
    /// \param va address \param value 8-byte value to store (data mode)
    void WriteU64(uint64_t va, uint64_t value);

  private:
    Ptr<RdmaProtectionDomain> m_pd; //!< owner
    uint64_t m_addr;                //!< first VA
    uint64_t m_length;              //!< bytes
    uint32_t m_access;              //!< RdmaAccessFlags
    uint32_t m_key;                 //!< L_Key = R_Key
    bool m_invalidated;             //!< R_Key invalidated
    std::vector<uint8_t> m_bytes;   //!< contents in data mode
};

} // namespace ns3

#endif // RDMA_MEMORY_REGION_H
