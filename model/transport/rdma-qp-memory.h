/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QP_MEMORY_H
#define RDMA_QP_MEMORY_H

#include "rdma-memory-region.h"
#include "rdma-verbs.h"

#include "ns3/callback.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/rdma-payload.h"

#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A QP's access to local memory: the checks of a local
 * scatter/gather list (IBA 10.6.3) and the bytes the QP gathers from and
 * scatters into the memory regions its lists and R_Keys name.
 *
 * A region in data mode holds real bytes, which payloads carry; any other
 * region stands for memory whose content the study ignores, so its
 * payloads are zero bytes. Every local read made to build a packet is
 * reported to the read callback, once per contiguous span, so the NIC
 * pipeline can time its MPT/MTT lookups and DMA.
 *
 * RdmaQueuePair owns one; its requester and responder reach it through
 * RdmaQueuePair::GetMemory.
 */
class RdmaQpMemory
{
  public:
    /**
     * \brief Set the QP's resources (done by RdmaQueuePair::Initialize).
     * \param pd the QP's protection domain
     * \param lookupMr finds a memory region by L_Key or R_Key (null if none)
     */
    void Initialize(Ptr<RdmaProtectionDomain> pd,
                    std::function<Ptr<RdmaMemoryRegion>(uint32_t)> lookupMr);
    /**
     * \brief Report every local memory read made to build a packet: called
     * with the region's key, the first virtual address and the bytes, once
     * per contiguous span; null (the default) reports nothing.
     * \param cb the callback
     */
    void SetReadCallback(Callback<void, uint32_t, uint64_t, uint32_t> cb);
    /// Drop the protection domain and both callbacks (the QP is disposed).
    void Dispose();

    /// \return the memory region with this key, or null
    Ptr<RdmaMemoryRegion> LookupMr(uint32_t key) const;
    /**
     * \brief Check a local scatter/gather list (IBA 10.6.3): every L_Key
     * names a region of this QP's PD that holds the range and allows the
     * access.
     * \param sgList the list
     * \param needLocalWrite whether the NIC writes into it (READ, atomics)
     * \return whether the list is valid
     */
    bool CheckLocalSgList(const std::vector<RdmaSge>& sgList, bool needLocalWrite) const;
    /**
     * \brief Payload of `length` bytes at `offset` into a scatter/gather
     * list: real bytes (a Packet) when its regions are in data mode, else
     * RdmaPayload::Zeros(length), no Packet.
     * \param zeros set true when the payload is zero bytes (no region in data mode)
     */
    RdmaPayload Gather(const std::vector<RdmaSge>& sgList,
                       uint64_t offset,
                       uint32_t length,
                       bool& zeros) const;
    /// Place a payload at `offset` into a scatter/gather list (data mode;
    /// a run of zeros writes zeros).
    void Scatter(const std::vector<RdmaSge>& sgList, uint64_t offset, const RdmaPayload& payload);
    /**
     * \brief The memory a payload of `length` bytes at `offset` into a
     * scatter list lands in, as (addr, length, lkey) pieces.
     * \param sgList the scatter list
     * \param offset bytes into the message
     * \param length payload bytes
     * \param out receives the pieces (appended)
     */
    void SpansOf(const std::vector<RdmaSge>& sgList,
                 uint64_t offset,
                 uint32_t length,
                 std::vector<RdmaSge>& out) const;
    /**
     * \return `length` bytes of a region from `va`: real bytes (a Packet) in
     *         data mode, else RdmaPayload::Zeros(length), no Packet
     * \param zeros set true when they are zero bytes (the region is not in data mode)
     */
    RdmaPayload ReadMemory(Ptr<RdmaMemoryRegion> mr,
                           uint64_t va,
                           uint32_t length,
                           bool& zeros) const;
    /// Write a payload into a region at `va` (data mode; a run of zeros writes zeros).
    void WriteMemory(Ptr<RdmaMemoryRegion> mr, uint64_t va, const RdmaPayload& payload);

  private:
    /// \return whether a region of the list is in data mode (keeps its bytes)
    bool InDataMode(const std::vector<RdmaSge>& sgList) const;
    /**
     * \brief Visit the parts of a scatter/gather list that hold message bytes
     * [offset, offset + length): fn(sge, offset into the SGE, offset into the
     * span, bytes).
     */
    void ForEachSpan(
        const std::vector<RdmaSge>& sgList,
        uint64_t offset,
        uint32_t length,
        const std::function<void(const RdmaSge&, uint64_t, uint32_t, uint32_t)>& fn) const;

    Ptr<RdmaProtectionDomain> m_pd;                            //!< the QP's protection domain
    std::function<Ptr<RdmaMemoryRegion>(uint32_t)> m_lookupMr; //!< key lookup
    Callback<void, uint32_t, uint64_t, uint32_t> m_memoryRead; //!< local reads, for the NIC
};

} // namespace ns3

#endif // RDMA_QP_MEMORY_H
