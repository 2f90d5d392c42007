/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the NIC's caches (NicCache) and their backing stores
 * (NicMemory): hit ratios, conflict misses, replacement, the outstanding-
 * miss limit, blocking, write-back, SRAM capacity, host-memory misses over
 * PCIe and MTT page keys.
 *
 * Unless a test says otherwise the backing store is card DRAM with
 * DramLatency 100 ns and DramBandwidth 512 Gb/s, so one 64-byte entry
 * transfers in exactly 1 ns, and the NIC clock is 250 MHz with HitCycles 2,
 * so a hit takes 8 ns. A miss that finds the DRAM idle takes
 * 1 + 100 + 8 = 109 ns.
 */

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/nic-cache.h"
#include "ns3/nic-memory.h"
#include "ns3/pcie-link.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// \return card DRAM with a 100 ns latency and a 1 ns transfer per 64 bytes
Ptr<NicMemory>
MakeDram()
{
    Ptr<NicMemory> m = CreateObject<NicMemory>();
    m->SetAttribute("Kind", EnumValue(NicMemory::CARD_DRAM));
    m->SetAttribute("DramLatency", TimeValue(NanoSeconds(100)));
    m->SetAttribute("DramBandwidth", DataRateValue(DataRate("512Gbps")));
    return m;
}

/**
 * \param entries lines
 * \param ways ways
 * \param policy replacement policy
 * \param memory backing store
 * \return the cache
 */
Ptr<NicCache>
MakeCache(uint32_t entries, uint32_t ways, NicCache::Policy policy, Ptr<NicMemory> memory)
{
    Ptr<NicCache> c = CreateObject<NicCache>();
    c->SetAttribute("Entries", UintegerValue(entries));
    c->SetAttribute("Ways", UintegerValue(ways));
    c->SetAttribute("ReplacementPolicy", EnumValue(policy));
    c->SetMemory(memory);
    c->AssignStreams(7);
    return c;
}

/// One lookup of a sequence.
struct Access
{
    uint64_t key; //!< key
    bool write;   //!< marks dirty
};

/// Runs a sequence of lookups one at a time: the next starts when the
/// previous one's done is called. Records whether each hit.
class ClosedLoop
{
  public:
    /**
     * \param cache the cache
     * \param seq the lookups
     */
    ClosedLoop(Ptr<NicCache> cache, std::vector<Access> seq)
        : m_cache(cache),
          m_seq(std::move(seq))
    {
        hits.reserve(m_seq.size());
    }

    /// \brief Run the whole sequence (runs the simulator).
    void Run()
    {
        Next();
        Simulator::Run();
    }

    std::vector<bool> hits; //!< hit flag of lookup i

  private:
    /// Issue the next lookup.
    void Next()
    {
        if (m_next < m_seq.size())
        {
            const Access& a = m_seq[m_next++];
            m_cache->Lookup(a.key, a.write, MakeCallback(&ClosedLoop::Done, this));
        }
    }

    /// \param hit whether the lookup hit
    void Done(bool hit)
    {
        hits.push_back(hit);
        Next();
    }

    Ptr<NicCache> m_cache;     //!< the cache
    std::vector<Access> m_seq; //!< the lookups
    std::size_t m_next{0};     //!< next to issue
};

/// \return the fraction of hits among flags [from, end)
double
HitRatio(const std::vector<bool>& hits, std::size_t from)
{
    std::size_t n = 0;
    for (std::size_t i = from; i < hits.size(); ++i)
    {
        n += hits[i];
    }
    return double(n) / double(hits.size() - from);
}

/// When lookups complete, by index, and whether they hit.
struct Completions
{
    std::vector<Time> at; //!< done time of lookup i (-1 = not yet)
    std::vector<int> hit; //!< 1 hit, 0 miss, -1 not yet

    /// \param n lookups to expect
    explicit Completions(std::size_t n)
        : at(n, Time(-1)),
          hit(n, -1)
    {
    }

    /// \param i lookup index \param h whether it hit
    void Done(uint32_t i, bool h)
    {
        at[i] = Simulator::Now();
        hit[i] = h;
    }

    /// \return a done callback for lookup i
    Callback<void, bool> Cb(uint32_t i)
    {
        return MakeCallback(&Completions::Done, this, i);
    }
};

/**
 * Uniform independent references over N keys. Once the cache is full it
 * holds C distinct keys whatever the policy, and the next key is uniform
 * and independent of them, so it is present with probability C / N: every
 * demand policy (LRU, FIFO, random, LFU) hits C / N in steady state (the
 * independent reference model; King, "Analysis of demand paging
 * algorithms", 1971, for LRU and FIFO). With a set-associative cache and
 * keys spread evenly over the sets (key mod sets), each set holds W of its
 * N / S keys and the same holds per set.
 *
 * C = 64 (8 sets of 8 ways), N = 256: C / N = 0.25. After 4000 warm-up
 * lookups (the cache is full: checked), 40000 lookups are measured; the
 * binomial standard deviation of the measured ratio is
 * sqrt(0.25 x 0.75 / 40000) = 0.22 %, so the 2 % (absolute) tolerance is
 * about 9 standard deviations: the test fails only if the policy or the
 * set mapping is wrong. A broken mapping (e.g. all keys to one set) would
 * give 8 / 256 = 3 %.
 */
class UniformHitRatioTestCase : public TestCase
{
  public:
    /// \param policy the policy to test
    /// \param name its name
    UniformHitRatioTestCase(NicCache::Policy policy, std::string name)
        : TestCase("uniform references over N = 256 keys, C = 64 entries, " + name +
                   ": hit ratio C over N = 0.25 within 0.02"),
          m_policy(policy)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t C = 64;
        const uint64_t N = 256;
        const std::size_t warm = 4000;
        const std::size_t measured = 40000;
        Ptr<NicCache> cache = MakeCache(C, 8, m_policy, MakeDram());
        std::mt19937_64 rng(12345 + m_policy);
        std::uniform_int_distribution<uint64_t> key(0, N - 1);
        std::vector<Access> seq(warm + measured);
        for (Access& a : seq)
        {
            a = {key(rng), false};
        }
        std::vector<Access> warmSeq(seq.begin(), seq.begin() + warm);
        std::vector<Access> measSeq(seq.begin() + warm, seq.end());
        ClosedLoop warmup(cache, warmSeq);
        warmup.Run();
        NS_TEST_ASSERT_MSG_EQ(cache->GetOccupancy(), C, "cache full after warm-up");
        cache->ResetCounters();
        ClosedLoop loop(cache, measSeq);
        loop.Run();
        double ratio = HitRatio(loop.hits, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(ratio, double(C) / N, 0.02, "hit ratio");
        NS_TEST_EXPECT_MSG_EQ(cache->GetHits() + cache->GetMisses(),
                              measured,
                              "every lookup counted");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(cache->GetHits()) / measured,
                                  ratio,
                                  1e-12,
                                  "counters agree with the done callbacks");
        NS_TEST_EXPECT_MSG_EQ(cache->GetEvictions(), cache->GetMisses(), "each miss evicts");
        Simulator::Destroy();
    }

    NicCache::Policy m_policy; //!< policy under test
};

/**
 * Two keys of the same set looked up alternately (0, 8, 0, 8, ...) in
 * caches of 8 entries: direct mapped (8 sets) every lookup evicts the other
 * key, 0 hits; 2-way (4 sets) and fully associative both fit, so all but
 * the 2 compulsory misses hit: 98 of 100.
 */
class ConflictMissTestCase : public TestCase
{
  public:
    ConflictMissTestCase()
        : TestCase("keys 0 and 8 alternately, 8 entries: direct mapped 0 % hits, 2-way and "
                   "fully associative 98 of 100")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Access> seq;
        for (int i = 0; i < 100; ++i)
        {
            seq.push_back({uint64_t(i % 2 == 0 ? 0 : 8), false});
        }
        struct Geometry
        {
            uint32_t ways;     //!< ways
            uint64_t expected; //!< hits
        };

        for (const Geometry& g : {Geometry{1, 0}, Geometry{2, 98}, Geometry{8, 98}})
        {
            Ptr<NicCache> cache = MakeCache(8, g.ways, NicCache::LRU, MakeDram());
            ClosedLoop loop(cache, seq);
            loop.Run();
            NS_TEST_EXPECT_MSG_EQ(cache->GetHits(), g.expected, g.ways << "-way hits");
            NS_TEST_EXPECT_MSG_EQ(cache->GetMisses(), 100 - g.expected, g.ways << "-way misses");
            NS_TEST_EXPECT_MSG_EQ(cache->GetEvictions(),
                                  (g.ways == 1 ? 99u : 0u),
                                  g.ways << "-way evictions");
            Simulator::Destroy();
        }
    }
};

/**
 * LFU keeps hot keys under a scan. Fully associative, 8 entries. Four hot
 * keys are looked up 3 times each, then 50 rounds of: each hot key once,
 * then 6 keys never seen before. Between two lookups of a hot key come 9
 * other distinct keys, more than the 7 other lines, so LRU and FIFO evict
 * every hot key before its next lookup (0 % hot hits from round 3 on). LFU
 * evicts the new keys (1 lookup each) among themselves and keeps the hot
 * keys (>= 4 lookups): 100 % hot hits.
 */
class LfuHotKeysTestCase : public TestCase
{
  public:
    LfuHotKeysTestCase()
        : TestCase("skewed pattern (4 hot keys, scans of new keys), 8 entries: LFU keeps the hot "
                   "keys (100 %), LRU and FIFO lose them (0 %)")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Access> seq;
        for (int rep = 0; rep < 3; ++rep)
        {
            for (uint64_t h = 0; h < 4; ++h)
            {
                seq.push_back({h, false});
            }
        }
        std::vector<std::size_t> hotMeasured; // indices of hot lookups, rounds 3..50
        uint64_t cold = 1000;
        for (int round = 0; round < 50; ++round)
        {
            for (uint64_t h = 0; h < 4; ++h)
            {
                if (round >= 2)
                {
                    hotMeasured.push_back(seq.size());
                }
                seq.push_back({h, false});
            }
            for (int j = 0; j < 6; ++j)
            {
                seq.push_back({cold++, false});
            }
        }
        struct Case
        {
            NicCache::Policy policy; //!< policy
            double expected;         //!< hot hit ratio
            const char* name;        //!< name
        };

        for (const Case& c : {Case{NicCache::LFU, 1.0, "LFU"},
                              Case{NicCache::LRU, 0.0, "LRU"},
                              Case{NicCache::FIFO, 0.0, "FIFO"}})
        {
            Ptr<NicCache> cache = MakeCache(8, 8, c.policy, MakeDram());
            ClosedLoop loop(cache, seq);
            loop.Run();
            std::size_t hot = 0;
            for (std::size_t i : hotMeasured)
            {
                hot += loop.hits[i];
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(double(hot) / hotMeasured.size(),
                                      c.expected,
                                      1e-9,
                                      c.name << " hot-key hit ratio");
            Simulator::Destroy();
        }
    }
};

/**
 * The outstanding-miss limit serializes misses. M = 8 misses to distinct
 * keys are issued at t = 0 to a non-blocking cache allowing L fills at once.
 * They go in M / L waves; a wave takes the DRAM latency plus one transfer
 * (s = 1 ns), and the L transfers of a wave queue on the DRAM, so the last
 * miss completes at
 *   T = (M / L) x (latency + s) + (L - 1) x s + hit,
 * about M x latency / L: 816, 413, 213 and 116 ns for L = 1, 2, 4, 8.
 */
class OutstandingMissTestCase : public TestCase
{
  public:
    OutstandingMissTestCase()
        : TestCase("8 misses at once with L outstanding: last done at (8 over L)(latency + s) + "
                   "(L-1)s + hit, about 8 x latency over L")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t M = 8;
        for (uint32_t L : {1u, 2u, 4u, 8u})
        {
            Ptr<NicCache> cache = MakeCache(64, 4, NicCache::LRU, MakeDram());
            cache->SetAttribute("MaxOutstandingMisses", UintegerValue(L));
            Completions done(M);
            for (uint32_t i = 0; i < M; ++i)
            {
                cache->Lookup(i, false, done.Cb(i));
            }
            NS_TEST_EXPECT_MSG_EQ(cache->GetOutstandingMisses(), L, "L fills in flight");
            NS_TEST_EXPECT_MSG_EQ(cache->GetQueuedLookups(), M - L, "the rest wait");
            Simulator::Run();
            Time last(0);
            for (uint32_t i = 0; i < M; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(done.hit[i], 0, "lookup " << i << " missed");
                last = Max(last, done.at[i]);
            }
            int64_t expectedNs = (M / L) * (100 + 1) + (L - 1) * 1 + 8;
            NS_TEST_EXPECT_MSG_EQ(last, NanoSeconds(expectedNs), "last miss with L = " << L);
            Simulator::Destroy();
        }
    }
};

/**
 * Blocking versus non-blocking. A miss (key 1) and then a hit (key 100,
 * already cached) are issued at the same instant. Non-blocking: the hit
 * completes after 8 ns, under the miss (109 ns). Blocking: the hit waits
 * for the miss's fill (101 ns) and completes at 109 ns, its stall (101 ns)
 * charged to its requester; a second miss issued then starts only after
 * the first fill: 101 + 1 + 100 + 8 = 210 ns. A second lookup of the key
 * being fetched merges with its fill (one fetch).
 */
class BlockingTestCase : public TestCase
{
  public:
    BlockingTestCase()
        : TestCase("blocking stalls later hits behind a miss, non-blocking serves them under "
                   "it; a lookup of a key being fetched merges with the fill")
    {
    }

  private:
    void DoRun() override
    {
        for (bool blocking : {false, true})
        {
            Ptr<NicMemory> dram = MakeDram();
            Ptr<NicCache> cache = MakeCache(64, 4, NicCache::LRU, dram);
            cache->SetAttribute("Blocking", BooleanValue(blocking));
            ClosedLoop warm(cache, {{100, false}});
            warm.Run();
            Time t0 = Simulator::Now();
            cache->ResetCounters();
            Completions done(4);
            cache->Lookup(1, false, done.Cb(0), 1);
            cache->Lookup(100, false, done.Cb(1), 7);
            cache->Lookup(1, true, done.Cb(2), 1);
            cache->Lookup(2, false, done.Cb(3), 2);
            Simulator::Run();
            std::string mode = blocking ? "blocking: " : "non-blocking: ";
            NS_TEST_EXPECT_MSG_EQ(done.at[0] - t0, NanoSeconds(109), mode << "first miss");
            NS_TEST_EXPECT_MSG_EQ(done.hit[1], 1, mode << "key 100 hits");
            NS_TEST_EXPECT_MSG_EQ(done.at[1] - t0,
                                  NanoSeconds(blocking ? 109 : 8),
                                  mode << "hit behind the miss");
            NS_TEST_EXPECT_MSG_EQ(cache->GetStallTime(7),
                                  NanoSeconds(blocking ? 101 : 0),
                                  mode << "stall of the hit's requester");
            NS_TEST_EXPECT_MSG_EQ(done.at[2] - t0, NanoSeconds(109), mode << "merged miss");
            NS_TEST_EXPECT_MSG_EQ(done.hit[2], (blocking ? 1 : 0), mode << "second lookup of 1");
            NS_TEST_EXPECT_MSG_EQ(done.at[3] - t0,
                                  NanoSeconds(blocking ? 210 : 110),
                                  mode << "second miss");
            NS_TEST_EXPECT_MSG_EQ(cache->GetMergedMisses(),
                                  (blocking ? 0u : 1u),
                                  mode << "merged misses");
            NS_TEST_EXPECT_MSG_EQ(dram->GetFetches(), 3u, mode << "fetches (warm-up, 1, 2)");
            NS_TEST_EXPECT_MSG_EQ(cache->IsDirty(1), true, mode << "the write marked 1 dirty");
            Simulator::Destroy();
        }
    }
};

/**
 * Write-back only of dirty victims. 2 entries, fully associative, LRU:
 * read A, write B, read C (evicts A, clean), read D (evicts B, dirty: one
 * write-back), read E (evicts C, clean).
 */
class WriteBackTestCase : public TestCase
{
  public:
    WriteBackTestCase()
        : TestCase("only dirty evictions are written back")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NicMemory> dram = MakeDram();
        Ptr<NicCache> cache = MakeCache(2, 2, NicCache::LRU, dram);
        std::vector<std::pair<uint64_t, bool>> evicted;
        cache->TraceConnectWithoutContext(
            "Eviction",
            MakeBoundCallback(
                +[](std::vector<std::pair<uint64_t, bool>>* v, uint64_t k, bool d) {
                    v->emplace_back(k, d);
                },
                &evicted));
        ClosedLoop loop(cache, {{1, false}, {2, true}, {3, false}, {4, false}, {5, false}});
        loop.Run();
        NS_TEST_EXPECT_MSG_EQ(cache->GetEvictions(), 3u, "three evictions");
        NS_TEST_EXPECT_MSG_EQ(cache->GetWriteBacks(), 1u, "one write-back");
        NS_TEST_EXPECT_MSG_EQ(dram->GetWriteBacks(), 1u, "the memory saw one write-back");
        NS_TEST_EXPECT_MSG_EQ(dram->GetWrittenBytes(), 64u, "of one entry");
        NS_TEST_ASSERT_MSG_EQ(evicted.size(), 3u, "Eviction trace");
        NS_TEST_EXPECT_MSG_EQ(evicted[0].first, 1u, "A evicted first");
        NS_TEST_EXPECT_MSG_EQ(evicted[0].second, false, "A clean");
        NS_TEST_EXPECT_MSG_EQ(evicted[1].first, 2u, "then B");
        NS_TEST_EXPECT_MSG_EQ(evicted[1].second, true, "B dirty");
        NS_TEST_EXPECT_MSG_EQ(evicted[2].second, false, "C clean");
        NS_TEST_EXPECT_MSG_EQ(cache->Invalidate(5), true, "E present");
        NS_TEST_EXPECT_MSG_EQ(cache->Probe(5), false, "E gone");
        NS_TEST_EXPECT_MSG_EQ(cache->GetOccupancy(), 1u, "one line left");
        Simulator::Destroy();
    }
};

/**
 * SRAM: a hard capacity and no misses. Capacity 4: four allocations
 * succeed, the fifth fails (the NIC's verbs error), and one succeeds again
 * after a release. A cache backed by SRAM hits every lookup after 8 ns and
 * fetches nothing.
 */
class SramTestCase : public TestCase
{
  public:
    SramTestCase()
        : TestCase("Sram refuses allocation past its capacity and never misses")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NicMemory> sram = CreateObject<NicMemory>();
        sram->SetAttribute("Capacity", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(sram->GetKind(), NicMemory::SRAM, "default kind");
        for (int i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sram->Allocate(), true, "entry " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(sram->GetAvailable(), 0u, "full");
        NS_TEST_EXPECT_MSG_EQ(sram->Allocate(), false, "entry 5 refused");
        NS_TEST_EXPECT_MSG_EQ(sram->GetAllocated(), 4u, "a refusal reserves nothing");
        NS_TEST_EXPECT_MSG_EQ(sram->GetAllocationFailures(), 1u, "refusal counted");
        sram->Release();
        NS_TEST_EXPECT_MSG_EQ(sram->Allocate(), true, "after a release");
        NS_TEST_EXPECT_MSG_EQ(sram->Allocate(2), false, "two do not fit");

        Ptr<NicCache> cache = MakeCache(4, 1, NicCache::LRU, sram);
        Completions done(1000);
        for (uint32_t i = 0; i < 1000; ++i)
        {
            cache->Lookup(i * 4, false, done.Cb(i));
        }
        Simulator::Run();
        for (uint32_t i = 0; i < 1000; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(done.hit[i], 1, "lookup " << i << " hits");
            NS_TEST_EXPECT_MSG_EQ(done.at[i], NanoSeconds(8), "after 2 cycles");
        }
        NS_TEST_EXPECT_MSG_EQ(cache->GetMisses(), 0u, "no misses");
        NS_TEST_EXPECT_MSG_EQ(sram->GetFetches(), 0u, "no fetches");
        Simulator::Destroy();
    }
};

/**
 * A table in host memory: a miss is a DMA read over the PcieLink, a dirty
 * eviction a posted DMA write. Miss latency = hit + ser(24) + 850 ns +
 * ser(64 + 20) at Gen3 x16, within 1 ns.
 */
class HostMemoryTestCase : public TestCase
{
  public:
    HostMemoryTestCase()
        : TestCase("HostMemory: a miss costs a PCIe DMA read, a dirty eviction a DMA write")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PcieLink> pcie = CreateObject<PcieLink>();
        Ptr<NicMemory> host = CreateObject<NicMemory>();
        host->SetAttribute("Kind", EnumValue(NicMemory::HOST_MEMORY));
        host->SetPcieLink(pcie);
        Ptr<NicCache> cache = MakeCache(1, 1, NicCache::LRU, host);
        Time missLatency(-1);
        cache->TraceConnectWithoutContext(
            "MissLatency",
            MakeBoundCallback(+[](Time* out, uint64_t, Time l) { *out = l; }, &missLatency));
        Completions done(2);
        cache->Lookup(42, true, done.Cb(0));
        Simulator::Run();
        double rate = pcie->GetLinkRate().GetBitRate();
        double expectedPs = 8000 + (24 + 64 + 20) * 8 / rate * 1e12 + 850e3;
        NS_TEST_EXPECT_MSG_EQ_TOL(double(done.at[0].GetPicoSeconds()),
                                  expectedPs,
                                  1000,
                                  "miss over PCIe (ps)");
        NS_TEST_EXPECT_MSG_EQ(missLatency, done.at[0], "MissLatency trace");
        NS_TEST_EXPECT_MSG_EQ(pcie->GetDmaReads(), 1u, "one DMA read");
        cache->Lookup(43, false, done.Cb(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(pcie->GetDmaWrites(), 1u, "the dirty entry written back");
        NS_TEST_EXPECT_MSG_EQ(pcie->GetWriteBytes(), 64u, "one entry");
        Simulator::Destroy();
    }
};

/**
 * MTT keys are page numbers: a 1 MiB region read in 4 KiB steps touches
 * 256 pages of 4 KiB (256 misses) but 1 page of 2 MiB (1 miss, 255 hits).
 */
class MttPageTestCase : public TestCase
{
  public:
    MttPageTestCase()
        : TestCase("MTT: key = VA div page size; 1 MiB in 4 KiB steps misses 256 times with 4 KiB "
                   "pages, once with 2 MiB pages")
    {
    }

  private:
    void DoRun() override
    {
        for (uint64_t page : {uint64_t(4096), uint64_t(2097152)})
        {
            Ptr<NicCache> mtt = NicCache::CreateMttCache(MakeDram(), page);
            mtt->SetAttribute("Entries", UintegerValue(512));
            NS_TEST_EXPECT_MSG_EQ(mtt->PageKey(0x12345678), 0x12345678 / page, "page key");
            NS_TEST_EXPECT_MSG_EQ(mtt->PagesSpanned(page - 1, 2), 2u, "crossing a boundary");
            NS_TEST_EXPECT_MSG_EQ(mtt->PagesSpanned(0, 1 << 20),
                                  (page == 4096 ? 256u : 1u),
                                  "pages of 1 MiB");
            std::vector<Access> seq;
            const uint64_t base = 0x40000000; // 1 GiB: aligned to both page sizes
            for (uint64_t off = 0; off < (1 << 20); off += 4096)
            {
                seq.push_back({mtt->PageKey(base + off), false});
            }
            ClosedLoop loop(mtt, seq);
            loop.Run();
            NS_TEST_EXPECT_MSG_EQ(mtt->GetMisses(), (page == 4096 ? 256u : 1u), "MTT misses");
            NS_TEST_EXPECT_MSG_EQ(mtt->GetHits(), (page == 4096 ? 0u : 255u), "MTT hits");
            Simulator::Destroy();
        }
        Ptr<NicCache> qpc = NicCache::CreateQpcCache(MakeDram());
        UintegerValue v;
        qpc->GetAttribute("EntryBytes", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get(), 256u, "QPC entry bytes");
        NicCache::CreateMptCache(MakeDram())->GetAttribute("EntryBytes", v);
        NS_TEST_EXPECT_MSG_EQ(v.Get(), 64u, "MPT entry bytes");
    }
};

/**
 * Way partitions (Tenants). An 8-line fully associative cache; tenant 1
 * (the victim) fills its 4 keys, tenant 2 sweeps 100 keys of its own (a
 * noisy neighbour), then the victim looks its keys up again. Shared
 * (Tenants = 1): the sweep evicts every victim line under each policy (100
 * fills, 8 lines), so the 4 lookups miss again: 8 victim misses. Two
 * partitions of 4 ways: the sweep fills only tenant 2's 4 ways, the
 * victim's 4 lookups hit (4 misses, its first fills), and tenant 2 holds
 * exactly 4 lines (its last 4 keys under LRU and FIFO). Each lookup runs
 * alone (the simulator runs to its completion), so no fill is in flight.
 */
class TenantPartitionTestCase : public TestCase
{
  public:
    TenantPartitionTestCase()
        : TestCase("two way partitions keep a tenant's 4 entries through another's sweep of "
                   "100 keys; shared, the sweep evicts them")
    {
    }

  private:
    void DoRun() override
    {
        for (auto policy : {NicCache::LRU, NicCache::FIFO, NicCache::RANDOM, NicCache::LFU})
        {
            for (uint32_t tenants : {1u, 2u})
            {
                Ptr<NicCache> cache = MakeCache(8, 8, policy, MakeDram());
                cache->SetAttribute("Tenants", UintegerValue(tenants));
                uint32_t victimHits = 0;
                auto lookupAll = [&](uint64_t first, uint64_t n, uint32_t tenant) {
                    for (uint64_t k = first; k < first + n; ++k)
                    {
                        Completions done(1);
                        cache->Lookup(k, false, done.Cb(0), 0, tenant);
                        Simulator::Run();
                        victimHits += tenant == 1 && done.hit[0] == 1;
                    }
                };
                lookupAll(0, 4, 1);
                lookupAll(100, 100, 2);
                lookupAll(0, 4, 1);
                const bool shared = tenants == 1;
                const uint32_t hitsExpected = shared ? 0 : 4;
                const uint64_t missesExpected = shared ? 8 : 4;
                NS_TEST_EXPECT_MSG_EQ(victimHits,
                                      hitsExpected,
                                      "victim hits after the sweep, Tenants = " << tenants);
                NS_TEST_EXPECT_MSG_EQ(cache->GetTenantMisses(1),
                                      missesExpected,
                                      "victim misses, Tenants = " << tenants);
                NS_TEST_EXPECT_MSG_EQ(cache->GetTenantMisses(2), 100, "the sweep misses");
                uint32_t held = 0;
                for (uint64_t k = 100; k < 200; ++k)
                {
                    held += cache->Probe(k);
                }
                if (!shared)
                {
                    NS_TEST_EXPECT_MSG_EQ(held, 4, "tenant 2 holds its 4 ways");
                }
                if (!shared && (policy == NicCache::LRU || policy == NicCache::FIFO))
                {
                    for (uint64_t k = 196; k < 200; ++k)
                    {
                        NS_TEST_EXPECT_MSG_EQ(cache->Probe(k), true, "its newest key " << k);
                    }
                }
                Simulator::Destroy();
            }
        }
    }
};

/**
 * The random policy draws from the cache's own stream: the same stream
 * gives the same hits, another stream other hits.
 */
class RandomStreamTestCase : public TestCase
{
  public:
    RandomStreamTestCase()
        : TestCase("Random replacement is reproducible from AssignStreams")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(99);
        std::uniform_int_distribution<uint64_t> key(0, 63);
        std::vector<Access> seq(3000);
        for (Access& a : seq)
        {
            a = {key(rng), false};
        }
        std::vector<std::vector<bool>> runs;
        for (int64_t stream : {5, 5, 6})
        {
            Ptr<NicCache> cache = MakeCache(16, 16, NicCache::RANDOM, MakeDram());
            cache->AssignStreams(stream);
            ClosedLoop loop(cache, seq);
            loop.Run();
            runs.push_back(loop.hits);
            Simulator::Destroy();
        }
        NS_TEST_EXPECT_MSG_EQ((runs[0] == runs[1]), true, "same stream, same hits");
        NS_TEST_EXPECT_MSG_EQ((runs[0] == runs[2]), false, "another stream, other hits");
    }
};

/// The NIC cache suite.
class RdmaNicCacheTestSuite : public TestSuite
{
  public:
    RdmaNicCacheTestSuite()
        : TestSuite("rdma-nic-cache", UNIT)
    {
        AddTestCase(new UniformHitRatioTestCase(NicCache::LRU, "LRU"), TestCase::QUICK);
        AddTestCase(new UniformHitRatioTestCase(NicCache::FIFO, "FIFO"), TestCase::QUICK);
        AddTestCase(new UniformHitRatioTestCase(NicCache::RANDOM, "Random"), TestCase::QUICK);
        AddTestCase(new UniformHitRatioTestCase(NicCache::LFU, "LFU"), TestCase::QUICK);
        AddTestCase(new ConflictMissTestCase, TestCase::QUICK);
        AddTestCase(new LfuHotKeysTestCase, TestCase::QUICK);
        AddTestCase(new OutstandingMissTestCase, TestCase::QUICK);
        AddTestCase(new BlockingTestCase, TestCase::QUICK);
        AddTestCase(new WriteBackTestCase, TestCase::QUICK);
        AddTestCase(new SramTestCase, TestCase::QUICK);
        AddTestCase(new HostMemoryTestCase, TestCase::QUICK);
        AddTestCase(new MttPageTestCase, TestCase::QUICK);
        AddTestCase(new RandomStreamTestCase, TestCase::QUICK);
        AddTestCase(new TenantPartitionTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
RdmaNicCacheTestSuite g_rdmaNicCacheTestSuite;

} // namespace
