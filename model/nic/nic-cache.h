/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_CACHE_H
#define NIC_CACHE_H

#include "nic-cache-lines.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-page-size.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

class NicMemory;
class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief A set-associative cache on the NIC of one table (QP context, MR /
 * key table, address translation, ...): keys (uint64_t) to entries of
 * EntryBytes bytes, backed by a NicMemory.
 *
 * Geometry. Entries lines in Entries / Ways sets of Ways lines; key k maps
 * to set k mod (Entries / Ways). Ways = 1 is direct mapped, Ways = Entries
 * fully associative.
 *
 * Lookup. Lookup(key, write, done) is processed when it is called (or, if
 * it has to wait, when it leaves the wait queue); it is classified then:
 * - hit: the entry is present; done(true) is called HitCycles NIC clock
 *   cycles later.
 * - miss: the entry is absent; a line of the set is chosen by the
 *   replacement policy (an invalid line first), its entry is evicted (and
 *   written back with NicMemory::WriteBack if dirty, without delaying the
 *   fill), EntryBytes are fetched with NicMemory::Fetch, and done(false) is
 *   called HitCycles after the fetch completes. A lookup of a key whose fill
 *   is already in flight is a miss too ("merged": it waits for that fill
 *   and fetches nothing).
 * Writes allocate: a write miss fetches the entry (entries are updated in
 * part), and a write marks the entry dirty.
 *
 * Outstanding misses. At most MaxOutstandingMisses fills are in flight; a
 * miss beyond that, or one whose set has every line waiting for a fill,
 * waits in a first-come-first-served queue (and so do later misses, in
 * order). Non-blocking (the default): hits and merged misses proceed under
 * outstanding misses (hit under miss). Blocking: the cache stalls on a
 * miss like an in-order pipeline: every later lookup, hit or miss, waits in
 * order until that miss's fill completes, so at most one fill is in flight
 * and a hit behind a miss costs the miss's latency.
 *
 * Replacement (among lines not waiting for a fill): LRU (least recently
 * looked up), FIFO (oldest filled), RANDOM (uniform, from the cache's own
 * random stream, see AssignStreams) or LFU (fewest lookups since it was
 * filled, ties to the least recently used; counts start again at each
 * fill and do not age).
 *
 * SRAM backing. With a NicMemory of kind SRAM the whole table is on chip:
 * every lookup hits after HitCycles, nothing is evicted, and the geometry
 * is not used; the capacity is the memory's (NicMemory::Allocate).
 *
 * Tenants (way partitioning). With Tenants = T > 1 the ways of every set
 * are split in T partitions, [t x Ways / T, (t + 1) x Ways / T) for
 * partition t, and a lookup of tenant u fills only lines of partition
 * u mod T: one tenant's misses never evict another's entries, as Intel's
 * Cache Allocation Technology partitions a last-level cache by ways
 * (Intel SDM vol. 3B, 18.19). Hits find an entry in any way. T = 1 (the
 * default) shares every line, the exposure to a noisy neighbour that
 * sweeps the table (Husky, USENIX Security 2023). RdmaNicTables makes the
 * tenant of a lookup its protection domain.
 *
 * Timing not modelled: port contention (the cache accepts any number of
 * lookups per cycle; the NIC pipeline's stages bound the rate) and the
 * write-back buffer's capacity.
 *
 * Table presets (one class, three configurations): CreateQpcCache,
 * CreateMptCache, CreateMttCache set EntryBytes (and PageBytes) for a QP
 * context, a memory-key (MPT) entry and an address-translation (MTT)
 * entry; MTT keys are page numbers, PageKey(va) = va / PageBytes.
 */
class NicCache : public Object
{
  public:
    /// Replacement policy (NicCacheLines chooses the victim).
    using Policy = NicCacheLines::Policy;
    static constexpr Policy LRU = NicCacheLines::LRU;       //!< least recently used
    static constexpr Policy FIFO = NicCacheLines::FIFO;     //!< first in (filled), first out
    static constexpr Policy RANDOM = NicCacheLines::RANDOM; //!< uniformly random line of the set
    static constexpr Policy LFU = NicCacheLines::LFU;       //!< least frequently used, ties to LRU

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    NicCache();
    ~NicCache() override;

    /**
     * \brief A QP-context cache: EntryBytes 256, the size of a ConnectX QP
     * context (Linux mlx5_ifc.h struct mlx5_ifc_qpc_bits, 232 bytes, rounded
     * up to a power of two).
     * \param memory the backing store
     * \return the cache, other attributes at their defaults
     */
    static Ptr<NicCache> CreateQpcCache(Ptr<NicMemory> memory);
    /**
     * \brief A memory-key (MPT) cache: EntryBytes 64, the size of a
     * ConnectX memory-key context (Linux mlx5_ifc.h struct mlx5_ifc_mkc_bits).
     * \param memory the backing store
     * \return the cache, other attributes at their defaults
     */
    static Ptr<NicCache> CreateMptCache(Ptr<NicMemory> memory);
    /**
     * \brief An address-translation (MTT) cache: EntryBytes 8, one 64-bit
     * physical page address per entry (Linux mlx5 struct mlx5_mtt), keys are
     * page numbers.
     * \param memory the backing store
     * \param pageBytes page size, bytes (RdmaPageSize's rule; aborts otherwise)
     * \return the cache, other attributes at their defaults
     */
    static Ptr<NicCache> CreateMttCache(Ptr<NicMemory> memory,
                                        uint64_t pageBytes = RdmaPageSize::BASE_BYTES);

    /**
     * \brief Look an entry up.
     * \param key the entry's key (QPN, memory key index, page number, ...)
     * \param write whether the lookup modifies the entry (marks it dirty)
     * \param done called when the entry is available, with whether the
     * lookup hit; never called before Lookup returns
     * \param requester who waits (e.g. the QPN), for GetStallTime
     * \param tenant whose entry it is (a protection domain): with Tenants
     *        > 1 a miss fills only partition tenant mod Tenants
     */
    void Lookup(uint64_t key,
                bool write,
                Callback<void, bool> done,
                uint32_t requester = 0,
                uint32_t tenant = 0);
    /**
     * \brief Whether an entry is present and filled, without touching the
     * replacement state or the counters.
     * \param key the key
     * \return true if a lookup of key now would hit
     */
    bool Probe(uint64_t key) const;
    /**
     * \param key the key
     * \return whether the entry is present and dirty
     */
    bool IsDirty(uint64_t key) const;
    /**
     * \brief Drop an entry without writing it back (its QP or MR was
     * destroyed).
     * \param key the key
     * \return false if it was not present or its fill is in flight
     */
    bool Invalidate(uint64_t key);
    /**
     * \param va a virtual address
     * \return its MTT key, va / PageBytes
     */
    uint64_t PageKey(uint64_t va) const;
    /**
     * \param va first byte
     * \param length bytes, at least 1
     * \return how many pages [va, va + length) touches
     */
    uint64_t PagesSpanned(uint64_t va, uint64_t length) const;
    /// \return the PageBytes attribute, bytes
    uint64_t GetPageBytes() const;
    /// \return the PageBytes attribute as a page size
    const RdmaPageSize& GetPageSize() const;
    /**
     * \brief Set the PageBytes attribute.
     * \param bytes page size (RdmaPageSize's rule; aborts otherwise)
     */
    void SetPageBytes(uint64_t bytes);

    /**
     * \brief Use a fixed random stream for the RANDOM policy.
     * \param stream first stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);
    /// \param memory the backing store
    void SetMemory(Ptr<NicMemory> memory);
    /// \return the backing store
    Ptr<NicMemory> GetMemory() const;

    /// \return the number of lines, Entries
    uint32_t GetEntries() const;
    /// \return the number of ways
    uint32_t GetWays() const;
    /// \return the bytes of one entry, EntryBytes
    uint32_t GetEntryBytes() const;
    /// \return the number of sets, Entries / Ways
    uint32_t GetSets() const;
    /// \return the number of way partitions, Tenants
    uint32_t GetTenants() const;
    /// \return valid (filled or being filled) lines
    uint32_t GetOccupancy() const;
    /// \return one NIC clock cycle
    Time GetClockPeriod() const;
    /// \return a hit's latency, HitCycles x GetClockPeriod()
    Time GetHitLatency() const;

    /// \return lookups classified as hits
    uint64_t GetHits() const;
    /// \return lookups classified as misses (merged ones included)
    uint64_t GetMisses() const;
    /**
     * \param tenant a tenant given to Lookup
     * \return its lookups classified as misses (merged ones included)
     */
    uint64_t GetTenantMisses(uint32_t tenant) const;
    /// \return misses that joined a fill already in flight
    uint64_t GetMergedMisses() const;
    /// \return valid entries evicted
    uint64_t GetEvictions() const;
    /// \return dirty entries evicted and written back
    uint64_t GetWriteBacks() const;
    /// \return lookups that waited in the queue (outstanding-miss limit,
    /// blocking, or a set full of fills)
    uint64_t GetQueuedLookups() const;
    /// \return fills in flight now
    uint32_t GetOutstandingMisses() const;
    /**
     * \param requester a requester id given to Lookup
     * \return its total stall: for each of its lookups, the time from the
     * call to done minus GetHitLatency()
     */
    Time GetStallTime(uint32_t requester) const;
    /// \return the stall time of all requesters
    Time GetTotalStallTime() const;
    /// \brief Zero the counters and stall times (not the contents).
    void ResetCounters();

    /**
     * TracedCallback signature of a hit or a miss.
     * \param [in] key the key looked up
     */
    typedef void (*KeyTracedCallback)(uint64_t key);
    /**
     * TracedCallback signature of an eviction.
     * \param [in] key the key evicted
     * \param [in] dirty whether it was written back
     */
    typedef void (*EvictionTracedCallback)(uint64_t key, bool dirty);
    /**
     * TracedCallback signature of a completed miss.
     * \param [in] key the key
     * \param [in] latency from the Lookup call to done
     */
    typedef void (*MissLatencyTracedCallback)(uint64_t key, Time latency);

  protected:
    void DoDispose() override;

  private:
    /// A lookup waiting for an entry.
    struct Request
    {
        uint64_t key;              //!< key
        bool write;                //!< marks dirty
        Callback<void, bool> done; //!< caller's callback
        Time start;                //!< when Lookup was called
        uint32_t requester;        //!< for stall accounting
        uint32_t tenant;           //!< whose entry (way partition)
    };

    /// \brief Set up the lines for the current geometry (abort on a bad one).
    void Build();
    /**
     * \brief Process one lookup now.
     * \param req the lookup
     * \param queued it comes from the wait queue
     * \return false if it must wait (it was not processed)
     */
    bool Process(Request& req, bool queued);
    /**
     * \brief Complete a lookup after the hit latency.
     * \param req the lookup
     * \param hit whether it hit
     */
    void Finish(Request& req, bool hit);
    /// \param line a fill completed
    void FillDone(uint32_t line);
    /// \brief Process queued lookups until one must wait.
    void DrainQueue();

    uint32_t m_entries;               //!< lines
    uint32_t m_ways;                  //!< ways per set
    uint32_t m_tenants;               //!< way partitions
    Policy m_policy;                  //!< replacement policy
    uint32_t m_entryBytes;            //!< bytes per entry (fetch/write-back size)
    uint64_t m_clockHz;               //!< NIC clock, Hz
    uint32_t m_hitCycles;             //!< hit latency, cycles
    uint32_t m_maxMisses;             //!< outstanding fills
    bool m_blocking;                  //!< stall every lookup behind a miss
    RdmaPageSize m_page;              //!< MTT page size
    Ptr<NicMemory> m_memory;          //!< backing store
    Ptr<UniformRandomVariable> m_rng; //!< RANDOM policy's stream

    bool m_built{false};                            //!< lines match the geometry
    uint32_t m_builtEntries{0};                     //!< geometry of the built lines
    uint32_t m_builtWays{0};                        //!< geometry of the built lines
    NicCacheLines m_lines;                          //!< the sets' lines and the victim choice
    std::unordered_map<uint64_t, uint32_t> m_index; //!< key -> line (valid lines)
    std::unordered_map<uint32_t, std::vector<Request>>
        m_waiters;               //!< line -> lookups awaiting its fill
    std::deque<Request> m_queue; //!< lookups waiting to be processed
    uint32_t m_outstanding{0};   //!< fills in flight
    uint32_t m_occupancy{0};     //!< valid lines
    uint64_t m_useClock{0};      //!< lookup counter for lastUse

    uint64_t m_hits{0};                         //!< hits
    uint64_t m_misses{0};                       //!< misses
    std::unordered_map<uint32_t, uint64_t> m_tenantMisses; //!< tenant -> misses
    uint64_t m_merged{0};                       //!< merged misses
    uint64_t m_evictions{0};                    //!< evictions
    uint64_t m_writeBacks{0};                   //!< dirty evictions
    uint64_t m_queued{0};                       //!< lookups that waited
    std::unordered_map<uint32_t, Time> m_stall; //!< requester -> stall time

    TracedCallback<uint64_t> m_hitTrace;               //!< Hit
    TracedCallback<uint64_t> m_missTrace;              //!< Miss
    TracedCallback<uint64_t, bool> m_evictionTrace;    //!< Eviction
    TracedCallback<uint64_t, Time> m_missLatencyTrace; //!< MissLatency
};

} // namespace ns3

#endif // NIC_CACHE_H
