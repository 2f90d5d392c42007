/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_TABLES_H
#define RDMA_NIC_TABLES_H

#include "nic-cache.h"
#include "nic-memory.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class PcieLink;

/**
 * \ingroup rdma
 * \brief The NIC's context tables: QP context (QPC), memory keys (MPT) and
 * address translation (MTT), each a NicCache in front of its own NicMemory
 * backing store.
 *
 * Keys. QPC: the QPN. MPT: the key index, L_Key/R_Key >> 8 (the low byte
 * is the variant RdmaNic puts there, as ConnectX keys carry it). MTT: one
 * entry per page of a region, key (index << 36) | (va / page) mod 2^36, the
 * page being the region's own (AllocateMr's pageBytes: 4 KiB, 2 MiB, 1 GiB,
 * as the host backs it) or the MTT cache's PageBytes, so two regions never
 * share an entry, as each MR has its own MTT range in
 * ConnectX and Linux rxe (rxe_mr's page map).
 *
 * Capacity. Creating a QP reserves one QPC entry, registering an MR one MPT
 * entry and MttPages(key, addr, length) MTT entries (a region of 2 MiB pages
 * needs 512 times fewer than one of 4 KiB pages), in the backing store
 * (NicMemory::Allocate). With Sram backing (phase 2 of Corundum's RoCEv2
 * roadmap) the store's Capacity is the on-chip table size and a QP or MR
 * past it cannot be made (RdmaNic returns null, the ENOMEM of
 * ibv_create_qp/ibv_reg_mr). CardDram and HostMemory stores are unlimited
 * unless their Capacity is set.
 *
 * Out-of-order state. A loss recovery that keeps out-of-order packets
 * (selective repeat) keeps per QP a bitmap of the PSNs received past the
 * expected one and one of the PSNs SACKed, each as long as its window cap
 * in packets (RdmaLossRecovery::GetQpContextBits). SetQpcStateBits puts
 * those bits in the QP context: a QPC entry is then the QPC cache's
 * EntryBytes plus the bits rounded up to bytes, every miss fetches (and a
 * dirty eviction writes back) that many bytes, and the table's on-chip
 * memory holds what it held at the base entry size: the cache keeps
 * floor(Entries x base / entry) lines (whole sets of Ways; a fully
 * associative cache stays so), and an Sram store with a Capacity keeps
 * floor(Capacity x base / entry) entries. Larger windows so press the QPC
 * cache; IRN (Mittal et al., SIGCOMM 2018, section 6) puts its whole
 * design at 3-10 % more NIC resources.
 *
 * Tenants. Each QP and region belongs to a tenant, the protection domain
 * it was made in (AllocateQp, AllocateMr); Lookup passes it to the cache,
 * whose Tenants attribute can partition the ways among tenants.
 *
 * Defaults: all three tables in Sram with unlimited capacity (no misses).
 * Configure a table through its cache's and memory's own attributes
 * (QpcCache/Entries, QpcCache/Memory/Kind, ...) or with ConfigureTable.
 */
class RdmaNicTables : public Object
{
  public:
    /// The tables.
    enum Table
    {
        QPC = 0, //!< QP context, key = QPN
        MPT = 1, //!< memory key table, key = key index
        MTT = 2, //!< address translation, key = region and page
    };

    /// Number of tables.
    static constexpr uint32_t N_TABLES = 3;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaNicTables();
    ~RdmaNicTables() override;

    /**
     * \brief Set one table's cache and backing store in one call.
     * \param table which table
     * \param entries cache lines (a multiple of ways)
     * \param ways lines per set (entries = fully associative)
     * \param policy replacement policy
     * \param kind backing store kind
     * \param capacity backing store capacity in entries, 0 = unlimited
     */
    void ConfigureTable(Table table,
                        uint32_t entries,
                        uint32_t ways,
                        NicCache::Policy policy,
                        NicMemory::Kind kind,
                        uint64_t capacity);
    /**
     * \brief Give every table the NIC clock and the PCIe link (a HostMemory
     * store without a link of its own uses it).
     * \param clockHz NIC clock, Hz
     * \param link the NIC's PCIe link
     */
    void Setup(uint64_t clockHz, Ptr<PcieLink> link);

    /// \param table a table \return its cache
    Ptr<NicCache> GetCache(Table table) const;
    /**
     * \brief Look an entry up in one table's cache as its tenant
     * (NicCache::Lookup with the tenant of the QP or region the key is of).
     * \param table the table
     * \param key its key: a QPN, MptKey(key) or MttKey(key, va)
     * \param write whether the lookup modifies the entry
     * \param done called with whether it hit
     * \param requester who waits, for the stall time
     */
    void Lookup(Table table,
                uint64_t key,
                bool write,
                Callback<void, bool> done,
                uint32_t requester);
    /**
     * \param table the table
     * \param key its key
     * \return the tenant of the QP or region the key is of (0 if unknown)
     */
    uint32_t GetTenant(Table table, uint64_t key) const;
    /// \param table a table \return its name: "qpc", "mpt" or "mtt"
    static const char* GetTableName(Table table);

    /**
     * \brief Carry bits of out-of-order state in every QP context (see the
     * class description), before any QP is made; 0 leaves the table as it is.
     * \param bits the bits per QP (RdmaLossRecovery::GetQpContextBits)
     */
    void SetQpcStateBits(uint32_t bits);
    /// \return the bytes of one QPC entry (the QPC cache's EntryBytes)
    uint32_t GetQpcEntryBytes() const;

    /**
     * \param qpn a new QP's number
     * \param tenant its protection domain's handle
     * \return false if the QPC store is full
     */
    bool AllocateQp(uint32_t qpn, uint32_t tenant = 0);
    /// \param qpn a destroyed QP's number: its entry is dropped and freed
    void ReleaseQp(uint32_t qpn);
    /**
     * \param key the region's L_Key
     * \param addr first virtual address
     * \param length bytes, at least 1
     * \param pageBytes the region's page size (RdmaPageSize's rule; aborts
     *        otherwise); 0 (default): the MTT cache's PageBytes
     * \param tenant its protection domain's handle
     * \return false, reserving nothing, if the MPT or MTT store is full
     */
    bool AllocateMr(uint32_t key,
                    uint64_t addr,
                    uint64_t length,
                    uint64_t pageBytes = 0,
                    uint32_t tenant = 0);
    /**
     * \param key the region's L_Key
     * \param addr first virtual address
     * \param length bytes, as registered
     */
    void ReleaseMr(uint32_t key, uint64_t addr, uint64_t length);

    /// \param key an L_Key or R_Key \return its MPT key
    static uint64_t MptKey(uint32_t key);
    /**
     * \param key an L_Key or R_Key
     * \param va a virtual address in its region
     * \return the MTT key of va's page
     */
    uint64_t MttKey(uint32_t key, uint64_t va) const;
    /**
     * \param key an L_Key or R_Key
     * \param va first byte
     * \param length bytes, at least 1
     * \return MTT pages of the key's region [va, va + length) touches
     */
    uint64_t MttPages(uint32_t key, uint64_t va, uint64_t length) const;
    /**
     * \param key an L_Key or R_Key
     * \return the page size of its region, bytes (the MTT cache's PageBytes
     *         for a key registered without one, or unknown)
     */
    uint64_t GetPageBytes(uint32_t key) const;

    /// Counters of one table, one row of a cache.csv.
    struct Counters
    {
        std::string table;      //!< "qpc", "mpt" or "mtt"
        uint64_t hits{0};       //!< lookups that hit
        uint64_t misses{0};     //!< lookups that missed (merged included)
        uint64_t evictions{0};  //!< valid entries evicted
        uint64_t writeBacks{0}; //!< dirty entries written back
        Time stallTime;         //!< total stall of all QPs
    };

    /// \return one row per table, in Table order
    std::vector<Counters> GetCounters() const;

    /**
     * \brief Fixed random streams for the caches' Random policy.
     * \param stream first stream index
     * \return streams used (one per table)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    Ptr<NicCache> m_qpc; //!< QP-context cache
    Ptr<NicCache> m_mpt; //!< memory-key cache
    Ptr<NicCache> m_mtt; //!< address-translation cache
    std::unordered_map<uint64_t, RdmaPageSize>
        m_pages; //!< page size by MPT key, if not the cache's
    std::unordered_map<uint64_t, uint32_t> m_qpTenant; //!< tenant by QPN, if not 0
    std::unordered_map<uint64_t, uint32_t> m_mrTenant; //!< tenant by MPT key, if not 0

    /// \param key an L_Key or R_Key
    /// \return the region's page, or the MTT cache's if it was given none
    const RdmaPageSize& PageOf(uint32_t key) const;

    /// The QPC table's geometry before SetQpcStateBits changed it.
    struct QpcBase
    {
        bool taken{false};    //!< recorded
        uint32_t bytes{0};    //!< EntryBytes
        uint32_t entries{0};  //!< Entries
        uint32_t ways{0};     //!< Ways
        uint64_t capacity{0}; //!< the store's Capacity
    };

    QpcBase m_qpcBase; //!< the QPC table's base geometry
};

} // namespace ns3

#endif // RDMA_NIC_TABLES_H
