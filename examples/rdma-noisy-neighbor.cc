/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-noisy-neighbor: a victim tenant's bandwidth while another tenant on
 * the same NIC sweeps one of its context tables (the "state saturation"
 * of "Noisy Neighbor: Exploiting RDMA for Resource Exhaustion Attacks in
 * Containerized Clouds", 2025; Husky, USENIX Security 2023).
 *
 * Host A's NIC has an RdmaNicPipeline; the swept table (--table: mtt, mpt
 * or qpc) sits in host memory over PCIe behind its cache (--cacheEntries,
 * --ways, LRU), the other two on chip. Host B's NIC costs no time. Two
 * tenants on A, each its own protection domain:
 *
 *  - the victim: one QP keeping --victimWindow WRITEs of --victimBytes
 *    posted, read in turn from a 256 KiB region of 4 KiB pages (64 MTT
 *    entries, one MPT entry, one QPC entry); it starts alone, so its
 *    entries are cached when the attacker starts, --attackerStart later;
 *  - the attacker: 64-byte WRITEs, --attackerWindow posted at once, the
 *    n-th touching entry n mod E of the swept table: a page of an E-page
 *    region (mtt) or one of E one-page regions (mpt), posted on its 4 QPs
 *    in turn, or on QP n mod E of E (qpc).
 *
 * For each isolation in --isolation and each E in --sweep (0: no attacker,
 * the baseline) one CSV row. The isolations:
 *
 *   none     the swept cache shared (NicCache Tenants = 1), QPs taking
 *            turns at the TX arbiter (RdmaTxScheduler ByTenant = false)
 *   cache    the cache in two way partitions, one a tenant (Tenants = 2)
 *   arbiter  tenants taking turns before their QPs (ByTenant = true)
 *   both     the two
 *
 *   table,isolation,attacker_entries,victim_gbps,victim_loss_pct,
 *   victim_latency_us,victim_latency_factor,attacker_writes_per_s,
 *   victim_misses,attacker_misses
 *
 * victim_loss_pct and victim_latency_factor are against the row with E = 0
 * of the same isolation; misses count the swept table's, from --warm
 * to its end (--span). E = 1 is an attacker of the same kind that sweeps
 * nothing: what it takes is the pipeline's share, not the cache's.
 * Example:
 *
 *   ./rdma-noisy-neighbor --table=mtt --isolation=none,both --sweep=0,1,2048 --out=nn.csv
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t PAGE = 4096;               //!< the regions' page
const uint64_t VICTIM_VA = 0x100000000;   //!< the victim's region on A
const uint64_t VICTIM_BYTES = 256 << 10;  //!< its size
const uint64_t ATTACKER_VA = 0x200000000; //!< the attacker's regions on A
const uint64_t REMOTE_VA = 0x80000000;    //!< B's region

/// The settings of one run.
struct Setup
{
    RdmaNicTables::Table table{RdmaNicTables::MTT}; //!< the swept table
    uint32_t entries{1024};                         //!< its cache's lines
    uint32_t ways{4};                               //!< its cache's ways
    uint32_t tenants{1};                            //!< its cache's partitions
    bool byTenant{false};                           //!< the TX arbiter's turns by tenant
    uint32_t sweep{0};                              //!< E, the attacker's entries
    uint32_t victimBytes{16384};                    //!< one victim WRITE
    uint32_t victimWindow{4};                       //!< victim WRITEs posted
    uint32_t attackerWindow{64};                    //!< attacker WRITEs posted
    Time attackerStart{MicroSeconds(50)};           //!< the attacker's first post
    Time warm{MicroSeconds(300)};                   //!< before measuring
    Time span{MilliSeconds(1)};                     //!< measured
};

/// What one run measured.
struct Result
{
    double victimGbps{0};       //!< victim payload rate
    double victimLatencyUs{0};  //!< mean post-to-completion time of its WRITEs
    double attackerPerS{0};     //!< attacker WRITE completions a second
    uint64_t victimMisses{0};   //!< the swept table's misses of the victim
    uint64_t attackerMisses{0}; //!< and of the attacker
};

/// The two tenants' WRITEs: each completion reposts its tenant's next one.
class Tenants
{
  public:
    /// \param s the run's settings
    explicit Tenants(const Setup& s)
        : m_setup(s)
    {
    }

    /// \param qp the victim's QP \param lkey its region's key \param rkey B's
    void SetVictim(Ptr<RdmaQueuePair> qp, uint32_t lkey, uint32_t rkey)
    {
        m_victim = qp;
        m_victimLkey = lkey;
        m_rkey = rkey;
    }

    /// \param qps the attacker's QPs \param lkeys its regions' keys
    void SetAttacker(std::vector<Ptr<RdmaQueuePair>> qps, std::vector<uint32_t> lkeys)
    {
        m_attackers = std::move(qps);
        m_attackerLkeys = std::move(lkeys);
    }

    /// \brief Post the victim's window now and the attacker's at its start.
    void Start()
    {
        for (uint32_t i = 0; i < m_setup.victimWindow; ++i)
        {
            PostVictim();
        }
        Simulator::Schedule(m_setup.attackerStart, [this]() {
            for (uint32_t i = 0; m_setup.sweep > 0 && i < m_setup.attackerWindow; ++i)
            {
                PostAttacker();
            }
        });
    }

    /// \param wc a completion on A's CQ: count it, post that tenant's next
    void OnCompletion(const RdmaWorkCompletion& wc)
    {
        NS_ABORT_MSG_IF(wc.status != IBV_WC_SUCCESS,
                        "rdma-noisy-neighbor: a WRITE failed: " << RdmaWcStatusName(wc.status));
        if (wc.qpNum == m_victim->GetQpn())
        {
            ++m_victimDone;
            m_latency += Simulator::Now() - m_posted[wc.wrId % m_posted.size()];
            PostVictim();
            return;
        }
        ++m_attackerDone;
        PostAttacker();
    }

    /// \brief Start counting from now.
    void Mark()
    {
        m_victimMark = m_victimDone;
        m_attackerMark = m_attackerDone;
        m_latency = Time(0);
    }

    /// \return victim WRITEs, attacker WRITEs and the victim's summed latency since Mark
    std::tuple<uint64_t, uint64_t, Time> Since() const
    {
        return {m_victimDone - m_victimMark, m_attackerDone - m_attackerMark, m_latency};
    }

  private:
    /// \brief Post the victim's next WRITE, from the next slot of its region.
    void PostVictim()
    {
        const uint64_t slots = VICTIM_BYTES / m_setup.victimBytes;
        RdmaSendWr wr;
        wr.wrId = m_victimPosted++;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.sgList.push_back({VICTIM_VA + (wr.wrId % slots) * m_setup.victimBytes,
                             m_setup.victimBytes,
                             m_victimLkey});
        wr.rkey = m_rkey;
        wr.remoteAddr = REMOTE_VA;
        m_posted.resize(m_setup.victimWindow);
        m_posted[wr.wrId % m_posted.size()] = Simulator::Now();
        m_victim->PostSend(wr);
    }

    /// \brief Post the attacker's next WRITE, touching the next entry of its sweep.
    void PostAttacker()
    {
        const uint64_t n = m_attackerPosted++;
        const uint64_t k = n % m_setup.sweep;
        const bool qpc = m_setup.table == RdmaNicTables::QPC;
        const bool mpt = m_setup.table == RdmaNicTables::MPT;
        RdmaSendWr wr;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.sgList.push_back({ATTACKER_VA + (qpc ? 0 : k * PAGE), 64, m_attackerLkeys[mpt ? k : 0]});
        wr.rkey = m_rkey;
        wr.remoteAddr = REMOTE_VA;
        m_attackers[qpc ? k : n % m_attackers.size()]->PostSend(wr);
    }

    Setup m_setup;                               //!< the settings
    Ptr<RdmaQueuePair> m_victim;                 //!< the victim's QP
    uint32_t m_victimLkey{0};                    //!< its region
    uint32_t m_rkey{0};                          //!< B's region
    std::vector<Ptr<RdmaQueuePair>> m_attackers; //!< the attacker's QPs
    std::vector<uint32_t> m_attackerLkeys;       //!< its regions
    std::vector<Time> m_posted;                  //!< post time by victim slot
    uint64_t m_victimPosted{0};                  //!< victim WRITEs posted
    uint64_t m_attackerPosted{0};                //!< attacker WRITEs posted
    uint64_t m_victimDone{0};                    //!< victim completions
    uint64_t m_attackerDone{0};                  //!< attacker completions
    uint64_t m_victimMark{0};                    //!< at Mark
    uint64_t m_attackerMark{0};                  //!< at Mark
    Time m_latency;                              //!< victim latency summed since Mark
};

/**
 * \brief One run.
 * \param s the settings
 * \return what it measured
 */
Result
Run(const Setup& s)
{
    NodeContainer nodes;
    nodes.Create(2);
    QbbHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer devices = link.Install(nodes);
    RdmaHelper rdma;
    Ptr<RdmaNic> a = rdma.Install(nodes.Get(0), devices.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> b = rdma.Install(nodes.Get(1), devices.Get(1), Ipv4Address("10.0.0.2"));
    a->SetPipeline(CreateObject<RdmaNicPipeline>());
    a->GetTxScheduler()->SetAttribute("ByTenant", BooleanValue(s.byTenant));
    Ptr<RdmaNicTables> tables = a->GetPipeline()->GetTables();
    Ptr<NicCache> swept = tables->GetCache(s.table);
    swept->SetAttribute("Entries", UintegerValue(s.entries));
    swept->SetAttribute("Ways", UintegerValue(s.ways));
    swept->SetAttribute("Tenants", UintegerValue(s.tenants));
    swept->GetMemory()->SetAttribute("Kind", StringValue("HostMemory"));

    const uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    Ptr<RdmaProtectionDomain> pdB = b->AllocPd();
    Ptr<RdmaMemoryRegion> mrB = b->RegMr(pdB, REMOTE_VA, VICTIM_BYTES, access);
    RdmaQueuePair::InitAttr initB;
    initB.pd = pdB;
    initB.sendCq = b->CreateCq(1 << 16);
    initB.recvCq = initB.sendCq;
    Ptr<RdmaCompletionQueue> cqA = a->CreateCq(1 << 16);
    // One QP of tenant pd on A, connected to a new QP on B.
    auto makeQp = [&](Ptr<RdmaProtectionDomain> pd) {
        RdmaQueuePair::InitAttr init;
        init.pd = pd;
        init.sendCq = cqA;
        init.recvCq = cqA;
        Ptr<RdmaQueuePair> qa = a->CreateQp(init);
        Ptr<RdmaQueuePair> qb = b->CreateQp(initB);
        NS_ABORT_MSG_IF(!qa || !qb || RdmaHelper::Connect(qa, a, qb, b) != 0,
                        "rdma-noisy-neighbor: cannot connect a QP");
        return qa;
    };

    Tenants load(s);
    Ptr<RdmaProtectionDomain> victim = a->AllocPd();
    Ptr<RdmaMemoryRegion> mrV = a->RegMr(victim, VICTIM_VA, VICTIM_BYTES, access);
    load.SetVictim(makeQp(victim), mrV->GetLkey(), mrB->GetRkey());
    Ptr<RdmaProtectionDomain> attacker = a->AllocPd();
    std::vector<Ptr<RdmaQueuePair>> qps;
    std::vector<uint32_t> lkeys;
    const bool qpc = s.table == RdmaNicTables::QPC;
    const bool mpt = s.table == RdmaNicTables::MPT;
    for (uint32_t i = 0; s.sweep > 0 && i < (qpc ? s.sweep : 4); ++i)
    {
        qps.push_back(makeQp(attacker));
    }
    for (uint32_t i = 0; s.sweep > 0 && i < (mpt ? s.sweep : 1); ++i)
    {
        const uint64_t bytes = s.table == RdmaNicTables::MTT ? s.sweep * PAGE : PAGE;
        lkeys.push_back(a->RegMr(attacker, ATTACKER_VA + i * PAGE, bytes, access)->GetLkey());
    }
    load.SetAttacker(qps, lkeys);
    cqA->SetCompletionCallback(MakeCallback(&Tenants::OnCompletion, &load));
    load.Start();

    uint64_t v0 = 0;
    uint64_t a0 = 0;
    Simulator::Schedule(s.warm, [&]() {
        load.Mark();
        v0 = swept->GetTenantMisses(victim->GetHandle());
        a0 = swept->GetTenantMisses(attacker->GetHandle());
    });
    Simulator::Stop(s.warm + s.span);
    Simulator::Run();
    auto [victimWrites, attackerWrites, latency] = load.Since();
    Result r;
    r.victimGbps = victimWrites * s.victimBytes * 8.0 / s.span.GetSeconds() / 1e9;
    r.victimLatencyUs = victimWrites ? latency.GetMicroSeconds() / double(victimWrites) : 0;
    r.attackerPerS = attackerWrites / s.span.GetSeconds();
    r.victimMisses = swept->GetTenantMisses(victim->GetHandle()) - v0;
    r.attackerMisses = swept->GetTenantMisses(attacker->GetHandle()) - a0;
    Simulator::Destroy();
    return r;
}

/**
 * \param option the option's name, for the error
 * \param text a comma-separated list of numbers
 * \param min the smallest allowed
 * \return the numbers, or exit 2 naming the option
 */
std::vector<uint32_t>
Numbers(const std::string& option, const std::string& text, uint32_t min)
{
    std::vector<uint32_t> v;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
    {
        char* end = nullptr;
        const unsigned long x = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || x < min || x > (1u << 20))
        {
            std::cerr << "rdma-noisy-neighbor: --" << option << ": '" << item
                      << "' is not a number from " << min << " to " << (1u << 20) << "\n";
            std::exit(2);
        }
        v.push_back(static_cast<uint32_t>(x));
    }
    if (v.empty())
    {
        std::cerr << "rdma-noisy-neighbor: --" << option << " is empty\n";
        std::exit(2);
    }
    return v;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    Setup s;
    std::string table = "mtt";
    std::string isolation = "none,cache,arbiter,both";
    std::string sweep = "0,1,256,1024,4096";
    std::string out = "rdma-noisy-neighbor.csv";
    CommandLine cmd(__FILE__);
    cmd.AddValue("table", "the table the attacker sweeps: mtt, mpt or qpc", table);
    cmd.AddValue("cacheEntries", "the swept table's cache lines", s.entries);
    cmd.AddValue("ways", "the swept table's cache ways", s.ways);
    cmd.AddValue("isolation",
                 "isolations to run, comma separated: none, cache, arbiter, both",
                 isolation);
    cmd.AddValue("sweep",
                 "the attacker's entries E to run (0: no attacker), comma separated",
                 sweep);
    cmd.AddValue("victimBytes", "bytes of one victim WRITE (a divisor of 256 KiB)", s.victimBytes);
    cmd.AddValue("victimWindow", "victim WRITEs kept posted", s.victimWindow);
    cmd.AddValue("attackerWindow", "attacker WRITEs kept posted", s.attackerWindow);
    cmd.AddValue("attackerStart",
                 "when the attacker starts (the victim starts at 0)",
                 s.attackerStart);
    cmd.AddValue("warm", "when measuring starts (after --attackerStart)", s.warm);
    cmd.AddValue("span", "measurement window", s.span);
    cmd.AddValue("out", "CSV file to write", out);
    cmd.Parse(argc, argv);
    if (table != "mtt" && table != "mpt" && table != "qpc")
    {
        std::cerr << "rdma-noisy-neighbor: --table=" << table << " is not mtt, mpt or qpc\n";
        return 2;
    }
    s.table = table == "mtt" ? RdmaNicTables::MTT
                             : (table == "mpt" ? RdmaNicTables::MPT : RdmaNicTables::QPC);
    std::vector<std::string> isolations;
    std::istringstream in(isolation);
    for (std::string item; std::getline(in, item, ',');)
    {
        if (item != "none" && item != "cache" && item != "arbiter" && item != "both")
        {
            std::cerr << "rdma-noisy-neighbor: --isolation: '" << item
                      << "' is not none, cache, arbiter or both\n";
            return 2;
        }
        isolations.push_back(item);
    }
    const std::vector<uint32_t> sizes = Numbers("sweep", sweep, 0);
    if (s.ways == 0 || s.entries % s.ways != 0)
    {
        std::cerr << "rdma-noisy-neighbor: --cacheEntries (" << s.entries
                  << ") must be a multiple of --ways (" << s.ways << ")\n";
        return 2;
    }
    if (isolations.empty() || s.ways < 2)
    {
        std::cerr << "rdma-noisy-neighbor: --isolation is empty, or --ways is below 2\n";
        return 2;
    }
    if (s.victimBytes == 0 || VICTIM_BYTES % s.victimBytes != 0 || s.victimWindow == 0 ||
        s.attackerWindow == 0 || s.warm < s.attackerStart)
    {
        std::cerr << "rdma-noisy-neighbor: --victimBytes must divide 256 KiB, the windows be "
                     "positive and --warm come after --attackerStart\n";
        return 2;
    }
    // The rows are written at the end, whole (RdmaWriteFileAtomically): a
    // run cut short leaves no file.
    std::ostringstream csv;
    csv << "table,isolation,attacker_entries,victim_gbps,victim_loss_pct,victim_latency_us,"
           "victim_latency_factor,attacker_writes_per_s,victim_misses,attacker_misses\n";
    for (const std::string& iso : isolations)
    {
        s.tenants = iso == "cache" || iso == "both" ? 2 : 1;
        s.byTenant = iso == "arbiter" || iso == "both";
        Result base;
        for (uint32_t e : sizes)
        {
            s.sweep = e;
            Result r = Run(s);
            if (e == 0)
            {
                base = r;
            }
            const bool hasBase = base.victimGbps > 0;
            const double loss = hasBase ? 100.0 * (1 - r.victimGbps / base.victimGbps) : 0;
            const double factor = hasBase ? r.victimLatencyUs / base.victimLatencyUs : 0;
            csv << table << ',' << iso << ',' << e << ',' << r.victimGbps << ',' << loss << ','
                << r.victimLatencyUs << ',' << factor << ',' << r.attackerPerS << ','
                << r.victimMisses << ',' << r.attackerMisses << '\n';
            std::cout << table << ' ' << iso << " E=" << e << " victim=" << r.victimGbps
                      << " Gb/s (" << loss << " % lost) latency=" << r.victimLatencyUs
                      << " us attacker=" << r.attackerPerS / 1e6 << " M/s" << std::endl;
        }
    }
    try
    {
        RdmaWriteFileAtomically(out, csv.str());
    }
    catch (const std::runtime_error& e)
    {
        std::cerr << "rdma-noisy-neighbor: cannot write --out: " << e.what() << "\n";
        return 2;
    }
    std::cout << "wrote " << out << std::endl;
    return 0;
}
