/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-cache.h"

#include "nic-memory.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicCache");
NS_OBJECT_ENSURE_REGISTERED(NicCache);

TypeId
NicCache::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NicCache")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<NicCache>()
            .AddAttribute("Entries",
                          "Lines (entries the cache holds), a multiple of Ways. Default 1024, "
                          "an illustrative size (no published figure for Corundum's RoCEv2 "
                          "caches): sweep it. Changing it empties the cache.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&NicCache::m_entries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Ways",
                          "Lines per set: 1 = direct mapped, Entries = fully associative. "
                          "Default 4, illustrative. Changing it empties the cache.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&NicCache::m_ways),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Tenants",
                          "Way partitions: a lookup of tenant u (its protection domain) fills "
                          "only the ways [t Ways / Tenants, (t + 1) Ways / Tenants) of its set, "
                          "t = u mod Tenants, as Intel CAT partitions a cache by ways. "
                          "1 (the default): every tenant shares every line. At most Ways.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NicCache::m_tenants),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReplacementPolicy",
                          "Victim choice among a set's lines not waiting for a fill: Lru (the "
                          "default), Fifo, Random (the cache's own stream, AssignStreams) or "
                          "Lfu (fewest lookups since the fill, ties to LRU).",
                          EnumValue(NicCache::LRU),
                          MakeEnumAccessor(&NicCache::m_policy),
                          MakeEnumChecker(NicCache::LRU,
                                          "Lru",
                                          NicCache::FIFO,
                                          "Fifo",
                                          NicCache::RANDOM,
                                          "Random",
                                          NicCache::LFU,
                                          "Lfu"))
            .AddAttribute("EntryBytes",
                          "Bytes of one entry, fetched on a miss and written back on a dirty "
                          "eviction. Default 64, one 64-bit DDR4 burst (BL8 x 8 bytes); the "
                          "presets set 256 (QPC), 64 (MPT) and 8 (MTT).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&NicCache::m_entryBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ClockFrequency",
                          "NIC clock, Hz. Default 250 MHz, Corundum's core clock "
                          "(mqnic_core CLK_PERIOD_NS = 4).",
                          UintegerValue(250000000),
                          MakeUintegerAccessor(&NicCache::m_clockHz),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("HitCycles",
                          "Latency of a hit, NIC clock cycles (and the cycles a miss adds "
                          "after its fill). Default 2: a block-RAM read with its output "
                          "register (Xilinx UG573) and the tag compare.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&NicCache::m_hitCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxOutstandingMisses",
                          "Fills in flight at once (miss status holding registers); later "
                          "misses wait in order. Default 32, as the operation tables of "
                          "Corundum's queue managers (TX_QUEUE_OP_TABLE_SIZE = 32).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&NicCache::m_maxMisses),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Blocking",
                          "If true, a miss stalls the cache: every later lookup, hit or miss, "
                          "waits in order until the miss's fill completes. Default false: "
                          "hits proceed under outstanding misses.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicCache::m_blocking),
                          MakeBooleanChecker())
            .AddAttribute("PageBytes",
                          "Page size of an MTT cache, bytes: PageKey(va) = va / PageBytes. "
                          "A power of two of at least 4096 (RdmaPageSize): 4096, the base "
                          "page (default), or a huge page such as 2097152 (2 MiB).",
                          UintegerValue(RdmaPageSize::BASE_BYTES),
                          MakeUintegerAccessor(&NicCache::SetPageBytes, &NicCache::GetPageBytes),
                          MakeUintegerChecker<uint64_t>(RdmaPageSize::BASE_BYTES))
            .AddAttribute("Memory",
                          "The backing store (NicMemory) misses fetch from.",
                          PointerValue(),
                          MakePointerAccessor(&NicCache::m_memory),
                          MakePointerChecker<NicMemory>())
            .AddTraceSource("Hit",
                            "A lookup hit: the key.",
                            MakeTraceSourceAccessor(&NicCache::m_hitTrace),
                            "ns3::NicCache::KeyTracedCallback")
            .AddTraceSource("Miss",
                            "A lookup missed (merged misses included): the key.",
                            MakeTraceSourceAccessor(&NicCache::m_missTrace),
                            "ns3::NicCache::KeyTracedCallback")
            .AddTraceSource("Eviction",
                            "A valid entry was evicted: its key and whether it was dirty "
                            "(written back).",
                            MakeTraceSourceAccessor(&NicCache::m_evictionTrace),
                            "ns3::NicCache::EvictionTracedCallback")
            .AddTraceSource("MissLatency",
                            "A miss completed: the key and the time from Lookup to done.",
                            MakeTraceSourceAccessor(&NicCache::m_missLatencyTrace),
                            "ns3::NicCache::MissLatencyTracedCallback");
    return tid;
}

NicCache::NicCache()
    : m_entries(1024),
      m_ways(4),
      m_tenants(1),
      m_policy(LRU),
      m_entryBytes(64),
      m_clockHz(250000000),
      m_hitCycles(2),
      m_maxMisses(32),
      m_blocking(false)
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

NicCache::~NicCache()
{
    NS_LOG_FUNCTION(this);
}

void
NicCache::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_memory = nullptr;
    m_rng = nullptr;
    m_waiters.clear();
    m_queue.clear();
    Object::DoDispose();
}

Ptr<NicCache>
NicCache::CreateQpcCache(Ptr<NicMemory> memory)
{
    Ptr<NicCache> c = CreateObject<NicCache>();
    c->SetAttribute("EntryBytes", UintegerValue(256));
    c->SetMemory(memory);
    return c;
}

Ptr<NicCache>
NicCache::CreateMptCache(Ptr<NicMemory> memory)
{
    Ptr<NicCache> c = CreateObject<NicCache>();
    c->SetAttribute("EntryBytes", UintegerValue(64));
    c->SetMemory(memory);
    return c;
}

Ptr<NicCache>
NicCache::CreateMttCache(Ptr<NicMemory> memory, uint64_t pageBytes)
{
    Ptr<NicCache> c = CreateObject<NicCache>();
    c->SetAttribute("EntryBytes", UintegerValue(8));
    c->SetAttribute("PageBytes", UintegerValue(pageBytes));
    c->SetMemory(memory);
    return c;
}

int64_t
NicCache::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

void
NicCache::SetMemory(Ptr<NicMemory> memory)
{
    NS_LOG_FUNCTION(this << memory);
    m_memory = memory;
}

Ptr<NicMemory>
NicCache::GetMemory() const
{
    return m_memory;
}

void
NicCache::Build()
{
    NS_LOG_FUNCTION(this << m_entries << m_ways);
    NS_ABORT_MSG_IF(m_ways == 0 || m_ways > m_entries || m_entries % m_ways != 0,
                    "NicCache: attribute Entries (" << m_entries << ") is not a multiple of Ways ("
                                                    << m_ways << ")");
    NS_ABORT_MSG_IF(m_outstanding > 0 || !m_queue.empty(),
                    "NicCache: attributes Entries or Ways changed with lookups in flight");
    m_lines.Build(m_entries, m_ways);
    m_index.clear();
    m_index.reserve(m_entries);
    m_waiters.clear();
    m_occupancy = 0;
    m_builtEntries = m_entries;
    m_builtWays = m_ways;
    m_built = true;
}

void
NicCache::Lookup(uint64_t key,
                 bool write,
                 Callback<void, bool> done,
                 uint32_t requester,
                 uint32_t tenant)
{
    NS_LOG_FUNCTION(this << key << write << requester << tenant);
    NS_ABORT_MSG_IF(!m_memory, "NicCache: attribute Memory is not set");
    Request req{key, write, done, Simulator::Now(), requester, tenant};
    if (m_memory->GetKind() == NicMemory::SRAM)
    {
        // The whole table is on chip: no misses.
        ++m_hits;
        m_hitTrace(key);
        Finish(req, true);
        return;
    }
    if (!m_built || m_builtEntries != m_entries || m_builtWays != m_ways)
    {
        Build();
    }
    if ((m_blocking && (m_outstanding > 0 || !m_queue.empty())) || !Process(req, false))
    {
        ++m_queued;
        m_queue.push_back(req);
    }
}

bool
NicCache::Process(Request& req, bool queued)
{
    auto it = m_index.find(req.key);
    if (it != m_index.end())
    {
        uint32_t line = it->second;
        NicCacheLines::Line& l = m_lines[line];
        l.lastUse = ++m_useClock;
        ++l.uses;
        if (m_policy == LRU)
        {
            m_lines.MoveToHead(line);
        }
        if (req.write)
        {
            l.dirty = true;
        }
        if (!l.pending)
        {
            NS_LOG_LOGIC("hit " << req.key);
            ++m_hits;
            m_hitTrace(req.key);
            Finish(req, true);
            return true;
        }
        NS_LOG_LOGIC("miss " << req.key << " merged with the fill in flight");
        ++m_misses;
        ++m_tenantMisses[req.tenant];
        ++m_merged;
        m_missTrace(req.key);
        m_waiters[line].push_back(req);
        return true;
    }
    // A miss that needs a fill keeps its place behind earlier waiting misses.
    if ((!queued && !m_queue.empty()) || m_outstanding >= m_maxMisses)
    {
        return false;
    }
    uint32_t set = static_cast<uint32_t>(req.key % m_lines.GetSets());
    uint32_t victim = NicCacheLines::NIL;
    if (m_tenants > 1)
    {
        NS_ABORT_MSG_IF(m_tenants > m_ways,
                        "NicCache: attribute Tenants (" << m_tenants << ") is above Ways ("
                                                        << m_ways << ")");
        const uint32_t t = req.tenant % m_tenants;
        victim = m_lines.ChooseVictimIn(set,
                                        m_policy,
                                        m_rng,
                                        t * m_ways / m_tenants,
                                        (t + 1) * m_ways / m_tenants);
    }
    else
    {
        victim = m_lines.ChooseVictim(set, m_policy, m_rng);
    }
    if (victim == NicCacheLines::NIL)
    {
        return false;
    }
    NicCacheLines::Line& v = m_lines[victim];
    if (v.valid)
    {
        uint64_t oldKey = v.key;
        bool dirty = v.dirty;
        m_index.erase(oldKey);
        --m_occupancy;
        ++m_evictions;
        if (dirty)
        {
            ++m_writeBacks;
            m_memory->WriteBack(m_entryBytes, Callback<void>());
        }
        NS_LOG_LOGIC("evict " << oldKey << (dirty ? " (dirty)" : ""));
        m_evictionTrace(oldKey, dirty);
    }
    v.key = req.key;
    v.valid = true;
    m_lines.MarkPending(victim);
    v.dirty = req.write;
    v.uses = 1;
    v.lastUse = ++m_useClock;
    m_lines.MoveToHead(victim);
    m_index[req.key] = victim;
    ++m_occupancy;
    ++m_outstanding;
    NS_LOG_LOGIC("miss " << req.key << ", fill into line " << victim);
    ++m_misses;
    ++m_tenantMisses[req.tenant];
    m_missTrace(req.key);
    m_waiters[victim].push_back(req);
    m_memory->Fetch(m_entryBytes, MakeCallback(&NicCache::FillDone, this, victim));
    return true;
}

void
NicCache::FillDone(uint32_t line)
{
    NS_LOG_FUNCTION(this << line);
    m_lines.ClearPending(line);
    --m_outstanding;
    std::vector<Request> waiters;
    auto it = m_waiters.find(line);
    if (it != m_waiters.end())
    {
        waiters.swap(it->second);
        m_waiters.erase(it);
    }
    for (Request& w : waiters)
    {
        Finish(w, false);
    }
    DrainQueue();
}

void
NicCache::DrainQueue()
{
    while (!m_queue.empty() && !(m_blocking && m_outstanding > 0))
    {
        if (!Process(m_queue.front(), true))
        {
            break;
        }
        m_queue.pop_front();
    }
}

void
NicCache::Finish(Request& req, bool hit)
{
    Time now = Simulator::Now();
    Time stall = now - req.start;
    if (stall.IsStrictlyPositive())
    {
        m_stall[req.requester] += stall;
    }
    Time hitLatency = GetHitLatency();
    if (!hit)
    {
        m_missLatencyTrace(req.key, now + hitLatency - req.start);
    }
    if (!req.done.IsNull())
    {
        Callback<void, bool> done = req.done;
        Simulator::Schedule(hitLatency, [done, hit]() { done(hit); });
    }
}

bool
NicCache::Probe(uint64_t key) const
{
    if (m_memory && m_memory->GetKind() == NicMemory::SRAM)
    {
        return true;
    }
    auto it = m_index.find(key);
    return it != m_index.end() && !m_lines[it->second].pending;
}

bool
NicCache::IsDirty(uint64_t key) const
{
    auto it = m_index.find(key);
    return it != m_index.end() && m_lines[it->second].dirty;
}

bool
NicCache::Invalidate(uint64_t key)
{
    NS_LOG_FUNCTION(this << key);
    auto it = m_index.find(key);
    if (it == m_index.end() || m_lines[it->second].pending)
    {
        return false;
    }
    uint32_t line = it->second;
    m_index.erase(it);
    NicCacheLines::Line& l = m_lines[line];
    l.valid = false;
    l.dirty = false;
    l.uses = 0;
    --m_occupancy;
    m_lines.MoveToTail(line);
    return true;
}

uint64_t
NicCache::PageKey(uint64_t va) const
{
    return m_page.Page(va);
}

uint64_t
NicCache::PagesSpanned(uint64_t va, uint64_t length) const
{
    return m_page.PagesSpanned(va, length);
}

uint64_t
NicCache::GetPageBytes() const
{
    return m_page.Bytes();
}

const RdmaPageSize&
NicCache::GetPageSize() const
{
    return m_page;
}

void
NicCache::SetPageBytes(uint64_t bytes)
{
    NS_ABORT_MSG_UNLESS(RdmaPageSize::IsValid(bytes),
                        "NicCache: attribute PageBytes = " << bytes << " is not "
                                                           << RdmaPageSize::Rule());
    m_page = RdmaPageSize(bytes);
}

uint32_t
NicCache::GetEntries() const
{
    return m_entries;
}

uint32_t
NicCache::GetWays() const
{
    return m_ways;
}

uint32_t
NicCache::GetEntryBytes() const
{
    return m_entryBytes;
}

uint32_t
NicCache::GetSets() const
{
    return m_ways == 0 ? 0 : m_entries / m_ways;
}

uint32_t
NicCache::GetTenants() const
{
    return m_tenants;
}

uint32_t
NicCache::GetOccupancy() const
{
    return m_occupancy;
}

Time
NicCache::GetClockPeriod() const
{
    return PicoSeconds(std::llround(1e12 / static_cast<double>(m_clockHz)));
}

Time
NicCache::GetHitLatency() const
{
    return GetClockPeriod() * static_cast<int64_t>(m_hitCycles);
}

uint64_t
NicCache::GetHits() const
{
    return m_hits;
}

uint64_t
NicCache::GetMisses() const
{
    return m_misses;
}

uint64_t
NicCache::GetTenantMisses(uint32_t tenant) const
{
    auto it = m_tenantMisses.find(tenant);
    return it == m_tenantMisses.end() ? 0 : it->second;
}

uint64_t
NicCache::GetMergedMisses() const
{
    return m_merged;
}

uint64_t
NicCache::GetEvictions() const
{
    return m_evictions;
}

uint64_t
NicCache::GetWriteBacks() const
{
    return m_writeBacks;
}

uint64_t
NicCache::GetQueuedLookups() const
{
    return m_queued;
}

uint32_t
NicCache::GetOutstandingMisses() const
{
    return m_outstanding;
}

Time
NicCache::GetStallTime(uint32_t requester) const
{
    auto it = m_stall.find(requester);
    return it == m_stall.end() ? Time(0) : it->second;
}

Time
NicCache::GetTotalStallTime() const
{
    Time total(0);
    for (const auto& s : m_stall)
    {
        total += s.second;
    }
    return total;
}

void
NicCache::ResetCounters()
{
    NS_LOG_FUNCTION(this);
    m_hits = 0;
    m_misses = 0;
    m_tenantMisses.clear();
    m_merged = 0;
    m_evictions = 0;
    m_writeBacks = 0;
    m_queued = 0;
    m_stall.clear();
}

} // namespace ns3
