/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_MEMORY_H
#define NIC_MEMORY_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class PcieLink;

/**
 * \ingroup rdma
 * \brief Where one of the NIC's tables (QP context, MR/protection table,
 * address translation) lives, in entries of that table: the backing store a
 * NicCache fetches from and writes back to.
 *
 * - SRAM: the table is on the FPGA (phase 2 of Corundum's RoCEv2 roadmap).
 *   Accesses take no time beyond the cycles of the lookup itself (a NicCache
 *   backed by SRAM always hits), and Capacity is hard: Allocate fails past
 *   it, which the NIC turns into the verbs error of a QP or MR it cannot
 *   create.
 * - CARD_DRAM: the table is in DRAM on the card. An access of B bytes
 *   occupies the DRAM for B / DramBandwidth (reads and write-backs share it,
 *   first come, first served) and completes DramLatency after its transfer
 *   ends; accesses pipeline (latency overlaps, transfers do not).
 * - HOST_MEMORY: the table is in host memory, reached over the PcieLink:
 *   Fetch is a DMA read, WriteBack a posted DMA write, sharing the link
 *   with every other DMA of the NIC.
 *
 * Capacity (0 = unlimited) bounds Allocate for every kind.
 */
class NicMemory : public Object
{
  public:
    /// Kind of memory.
    enum Kind
    {
        SRAM,       //!< on-FPGA SRAM (block/ultra RAM): no misses, hard capacity
        CARD_DRAM,  //!< on-card DRAM: latency and bandwidth
        HOST_MEMORY //!< host memory over the PcieLink
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    NicMemory();
    ~NicMemory() override;

    /// \return the kind of memory
    Kind GetKind() const;
    /// \param link the PCIe link a HOST_MEMORY table is reached over
    void SetPcieLink(Ptr<PcieLink> link);
    /// \return the PCIe link (null unless set)
    Ptr<PcieLink> GetPcieLink() const;

    /**
     * \brief Read bytes of the table (a cache fill).
     * \param bytes bytes to read, at least 1
     * \param done called when they have arrived (may be null); never
     * called before Fetch returns
     */
    void Fetch(uint32_t bytes, Callback<void> done);
    /**
     * \brief Write bytes of the table back (a dirty eviction).
     * \param bytes bytes to write, at least 1
     * \param done called when the write is done (may be null): DRAM after
     * its latency, host memory when the posted write has left the NIC
     */
    void WriteBack(uint32_t bytes, Callback<void> done);

    /**
     * \brief Reserve entries of the table (creating a QP, an MR, ...).
     * \param entries how many
     * \return false, reserving nothing, if that would exceed Capacity
     */
    bool Allocate(uint64_t entries = 1);
    /**
     * \brief Give back entries reserved by Allocate.
     * \param entries how many (at most GetAllocated())
     */
    void Release(uint64_t entries = 1);
    /// \return the capacity in entries, 0 = unlimited
    uint64_t GetCapacity() const;
    /// \return the entries reserved now
    uint64_t GetAllocated() const;
    /// \return the entries still free (UINT64_MAX if unlimited)
    uint64_t GetAvailable() const;

    /// \return Fetch calls completed
    uint64_t GetFetches() const;
    /// \return WriteBack calls completed
    uint64_t GetWriteBacks() const;
    /// \return bytes fetched
    uint64_t GetFetchedBytes() const;
    /// \return bytes written back
    uint64_t GetWrittenBytes() const;
    /// \return Allocate calls refused
    uint64_t GetAllocationFailures() const;

    /**
     * TracedCallback signature of a completed access.
     * \param [in] bytes bytes moved
     * \param [in] latency from the Fetch/WriteBack call to completion
     */
    typedef void (*AccessTracedCallback)(uint32_t bytes, Time latency);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Start one access.
     * \param bytes bytes
     * \param write WriteBack rather than Fetch
     * \param done the caller's callback
     */
    void Access(uint32_t bytes, bool write, Callback<void> done);
    /**
     * \brief An access completed.
     * \param bytes bytes
     * \param write WriteBack rather than Fetch
     * \param start when it was called
     * \param done the caller's callback
     */
    void Done(uint32_t bytes, bool write, Time start, Callback<void> done);

    Kind m_kind;               //!< kind of memory
    uint64_t m_capacity;       //!< entries, 0 = unlimited
    Time m_dramLatency;        //!< CARD_DRAM access latency
    DataRate m_dramBandwidth;  //!< CARD_DRAM bandwidth
    Ptr<PcieLink> m_pcie;      //!< HOST_MEMORY's link

    int64_t m_dramFreePs{0};   //!< when the DRAM's data bus is free, ps
    uint64_t m_allocated{0};   //!< entries reserved
    uint64_t m_fetches{0};     //!< fetches completed
    uint64_t m_writeBacks{0};  //!< write-backs completed
    uint64_t m_fetchedBytes{0};  //!< bytes fetched
    uint64_t m_writtenBytes{0};  //!< bytes written back
    uint64_t m_allocFailures{0}; //!< Allocate calls refused

    TracedCallback<uint32_t, Time> m_fetchTrace;     //!< FetchComplete
    TracedCallback<uint32_t, Time> m_writeBackTrace; //!< WriteBackComplete
};

} // namespace ns3

#endif // NIC_MEMORY_H
