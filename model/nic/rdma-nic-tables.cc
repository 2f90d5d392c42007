/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic-tables.h"

#include "pcie-link.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNicTables");
NS_OBJECT_ENSURE_REGISTERED(RdmaNicTables);

namespace
{

/// Bits of an MTT key that hold the page number.
constexpr uint32_t MTT_PAGE_BITS = 36;

} // namespace

TypeId
RdmaNicTables::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNicTables")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNicTables>()
            .AddAttribute("QpcCache",
                          "The QP-context cache (NicCache::CreateQpcCache: 256-byte entries) "
                          "and, as its Memory, the table's backing store.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNicTables::m_qpc),
                          MakePointerChecker<NicCache>())
            .AddAttribute("MptCache",
                          "The memory-key (MPT) cache (64-byte entries) and its backing store.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNicTables::m_mpt),
                          MakePointerChecker<NicCache>())
            .AddAttribute("MttCache",
                          "The address-translation (MTT) cache (8-byte entries, its "
                          "PageBytes the page of regions registered without one) and its "
                          "backing store.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNicTables::m_mtt),
                          MakePointerChecker<NicCache>());
    return tid;
}

RdmaNicTables::RdmaNicTables()
{
    NS_LOG_FUNCTION(this);
    m_qpc = NicCache::CreateQpcCache(CreateObject<NicMemory>());
    m_mpt = NicCache::CreateMptCache(CreateObject<NicMemory>());
    m_mtt = NicCache::CreateMttCache(CreateObject<NicMemory>());
}

RdmaNicTables::~RdmaNicTables()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaNicTables::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (Ptr<NicCache>* c : {&m_qpc, &m_mpt, &m_mtt})
    {
        if (*c)
        {
            (*c)->Dispose();
        }
        *c = nullptr;
    }
    Object::DoDispose();
}

const char*
RdmaNicTables::GetTableName(Table table)
{
    static const char* names[N_TABLES] = {"qpc", "mpt", "mtt"};
    return names[table];
}

Ptr<NicCache>
RdmaNicTables::GetCache(Table table) const
{
    switch (table)
    {
    case QPC:
        return m_qpc;
    case MPT:
        return m_mpt;
    case MTT:
        return m_mtt;
    }
    return nullptr;
}

void
RdmaNicTables::ConfigureTable(Table table,
                              uint32_t entries,
                              uint32_t ways,
                              NicCache::Policy policy,
                              NicMemory::Kind kind,
                              uint64_t capacity)
{
    NS_LOG_FUNCTION(this << table << entries << ways << policy << kind << capacity);
    Ptr<NicCache> c = GetCache(table);
    c->SetAttribute("Entries", UintegerValue(entries));
    c->SetAttribute("Ways", UintegerValue(ways));
    c->SetAttribute("ReplacementPolicy", EnumValue(policy));
    Ptr<NicMemory> m = c->GetMemory();
    m->SetAttribute("Kind", EnumValue(kind));
    m->SetAttribute("Capacity", UintegerValue(capacity));
}

void
RdmaNicTables::Setup(uint64_t clockHz, Ptr<PcieLink> link)
{
    NS_LOG_FUNCTION(this << clockHz << link);
    for (const Ptr<NicCache>& c : {m_qpc, m_mpt, m_mtt})
    {
        NS_ABORT_MSG_IF(!c || !c->GetMemory(),
                        "RdmaNicTables: a table has no cache or no Memory (attributes "
                        "QpcCache/MptCache/MttCache)");
        c->SetAttribute("ClockFrequency", UintegerValue(clockHz));
        Ptr<NicMemory> m = c->GetMemory();
        if (m->GetKind() == NicMemory::HOST_MEMORY && !m->GetPcieLink())
        {
            m->SetPcieLink(link);
        }
    }
}

void
RdmaNicTables::SetQpcStateBits(uint32_t bits)
{
    NS_LOG_FUNCTION(this << bits);
    if (bits == 0 && !m_qpcBase.taken)
    {
        return;
    }
    Ptr<NicMemory> memory = m_qpc->GetMemory();
    if (!m_qpcBase.taken)
    {
        m_qpcBase.taken = true;
        m_qpcBase.bytes = m_qpc->GetEntryBytes();
        m_qpcBase.entries = m_qpc->GetEntries();
        m_qpcBase.ways = m_qpc->GetWays();
        m_qpcBase.capacity = memory->GetCapacity();
    }
    const QpcBase& b = m_qpcBase;
    const uint32_t bytes = b.bytes + (bits + 7) / 8;
    // The same on-chip bytes at the larger entry.
    uint32_t entries =
        static_cast<uint32_t>(std::max<uint64_t>(uint64_t(b.entries) * b.bytes / bytes, 1));
    uint32_t ways = b.ways;
    if (ways >= b.entries)
    {
        ways = entries; // fully associative stays so
    }
    else
    {
        entries = std::max(ways, entries / ways * ways);
    }
    m_qpc->SetAttribute("EntryBytes", UintegerValue(bytes));
    m_qpc->SetAttribute("Ways", UintegerValue(ways));
    m_qpc->SetAttribute("Entries", UintegerValue(entries));
    if (memory->GetKind() == NicMemory::SRAM && b.capacity > 0)
    {
        memory->SetAttribute("Capacity",
                             UintegerValue(std::max<uint64_t>(b.capacity * b.bytes / bytes, 1)));
    }
}

uint32_t
RdmaNicTables::GetQpcEntryBytes() const
{
    return m_qpc->GetEntryBytes();
}

bool
RdmaNicTables::AllocateQp(uint32_t qpn, uint32_t tenant)
{
    NS_LOG_FUNCTION(this << qpn << tenant);
    if (!m_qpc->GetMemory()->Allocate(1))
    {
        return false;
    }
    if (tenant != 0)
    {
        m_qpTenant[qpn] = tenant;
    }
    return true;
}

void
RdmaNicTables::ReleaseQp(uint32_t qpn)
{
    NS_LOG_FUNCTION(this << qpn);
    m_qpc->Invalidate(qpn);
    m_qpc->GetMemory()->Release(1);
    m_qpTenant.erase(qpn);
}

bool
RdmaNicTables::AllocateMr(uint32_t key,
                          uint64_t addr,
                          uint64_t length,
                          uint64_t pageBytes,
                          uint32_t tenant)
{
    NS_LOG_FUNCTION(this << key << addr << length << pageBytes << tenant);
    Ptr<NicMemory> mpt = m_mpt->GetMemory();
    if (!mpt->Allocate(1))
    {
        return false;
    }
    if (pageBytes != 0)
    {
        m_pages[MptKey(key)] = RdmaPageSize(pageBytes);
    }
    if (!m_mtt->GetMemory()->Allocate(MttPages(key, addr, length)))
    {
        m_pages.erase(MptKey(key));
        mpt->Release(1);
        return false;
    }
    if (tenant != 0)
    {
        m_mrTenant[MptKey(key)] = tenant;
    }
    return true;
}

void
RdmaNicTables::ReleaseMr(uint32_t key, uint64_t addr, uint64_t length)
{
    NS_LOG_FUNCTION(this << key << addr << length);
    m_mpt->Invalidate(MptKey(key));
    m_mpt->GetMemory()->Release(1);
    // Key indices are never reused (RdmaNic numbers them in order), so the
    // region's cached translations can never hit again: they age out
    // through replacement, as a real NIC's would after an MTT range is freed.
    uint64_t pages = MttPages(key, addr, length);
    m_mtt->GetMemory()->Release(pages);
    m_pages.erase(MptKey(key));
    m_mrTenant.erase(MptKey(key));
}

uint64_t
RdmaNicTables::MptKey(uint32_t key)
{
    return key >> 8;
}

const RdmaPageSize&
RdmaNicTables::PageOf(uint32_t key) const
{
    auto it = m_pages.find(MptKey(key));
    return it == m_pages.end() ? m_mtt->GetPageSize() : it->second;
}

uint64_t
RdmaNicTables::GetPageBytes(uint32_t key) const
{
    return PageOf(key).Bytes();
}

uint64_t
RdmaNicTables::MttKey(uint32_t key, uint64_t va) const
{
    uint64_t page = PageOf(key).Page(va) & ((uint64_t(1) << MTT_PAGE_BITS) - 1);
    return (MptKey(key) << MTT_PAGE_BITS) | page;
}

uint64_t
RdmaNicTables::MttPages(uint32_t key, uint64_t va, uint64_t length) const
{
    return PageOf(key).PagesSpanned(va, length);
}

void
RdmaNicTables::Lookup(Table table,
                      uint64_t key,
                      bool write,
                      Callback<void, bool> done,
                      uint32_t requester)
{
    GetCache(table)->Lookup(key, write, done, requester, GetTenant(table, key));
}

uint32_t
RdmaNicTables::GetTenant(Table table, uint64_t key) const
{
    const auto& owners = table == QPC ? m_qpTenant : m_mrTenant;
    // An MTT key carries its region's key index above the page bits.
    auto it = owners.find(table == MTT ? key >> MTT_PAGE_BITS : key);
    return it == owners.end() ? 0 : it->second;
}

std::vector<RdmaNicTables::Counters>
RdmaNicTables::GetCounters() const
{
    std::vector<Counters> rows;
    for (uint32_t t = 0; t < N_TABLES; ++t)
    {
        Counters c;
        c.table = GetTableName(Table(t));
        c.hits = GetCache(Table(t))->GetHits();
        c.misses = GetCache(Table(t))->GetMisses();
        c.evictions = GetCache(Table(t))->GetEvictions();
        c.writeBacks = GetCache(Table(t))->GetWriteBacks();
        c.stallTime = GetCache(Table(t))->GetTotalStallTime();
        rows.push_back(c);
    }
    return rows;
}

int64_t
RdmaNicTables::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t used = 0;
    for (const Ptr<NicCache>& c : {m_qpc, m_mpt, m_mtt})
    {
        used += c->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
