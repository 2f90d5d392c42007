/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-qp-scaling: the throughput of an FPGA NIC against the number of
 * active QPs, for a sweep of QP-context cache sizes and of message sizes. Host A's NIC
 * has an RdmaNicPipeline whose QPC table sits in --backing (HostMemory over
 * PCIe Gen3 x16 by default) behind a fully associative LRU cache of C
 * entries; host B's NIC costs no time. Each of N QPs keeps --window WRITEs
 * of each size in --bytes (default 64) posted, in packets of --pathMtu; N
 * runs over powers of two up to --maxQps (and C, C + 1).
 * --maxMisses sets the cache's outstanding-miss limit (default 32);
 * --preset=NAME sets A's PCIe link to a nic.preset's (RdmaNicPreset), before
 * any --ns3::PcieLink::ATTRIBUTE=VALUE.
 * One CSV row per (size, C, N):
 *
 *   cache_entries,backing,qps_wanted,qps_made,writes_per_s,payload_gbps,
 *   qpc_hits,qpc_misses,qpc_evictions,qpc_misses_per_write,stall_us_per_qp,
 *   bytes,path_mtu
 *
 * With Sram backing the store holds C contexts, so QP C + 1 is refused
 * (qps_made stops at C). Example:
 *
 *   ./rdma-qp-scaling --cacheEntries=64,256,1024 --maxQps=4096 --out=qp-scaling.csv
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

const uint64_t VA_A = 0x10000;    //!< A's buffer
const uint64_t VA_B = 0x80000000; //!< B's buffer

/// One point of the curve.
struct Point
{
    uint32_t made{0};       //!< QPs made on A
    double writesPerS{0};   //!< WRITE completions per second
    uint64_t hits{0};       //!< QPC hits in the window
    uint64_t misses{0};     //!< QPC misses in the window
    uint64_t evictions{0};  //!< QPC evictions in the window
    double stallUsPerQp{0}; //!< QPC stall per QP in the window, us
};

/// Closed-loop 64-byte WRITEs on the QPs of one run.
class Load
{
  public:
    /// \param wr the WRITE each completion reposts
    explicit Load(const RdmaSendWr& wr)
        : m_wr(wr)
    {
    }

    /// \param qp a QP of A to keep busy
    void Add(Ptr<RdmaQueuePair> qp)
    {
        m_qps[qp->GetQpn()] = qp;
    }

    /// \param window WRITEs to post on each QP now
    void Start(uint32_t window)
    {
        for (auto& kv : m_qps)
        {
            for (uint32_t i = 0; i < window; ++i)
            {
                kv.second->PostSend(m_wr);
            }
        }
    }

    /// \param wc a completion on A's CQ: count it, repost
    void OnCompletion(const RdmaWorkCompletion& wc)
    {
        NS_ABORT_MSG_IF(wc.status != IBV_WC_SUCCESS,
                        "rdma-qp-scaling: a WRITE failed: " << RdmaWcStatusName(wc.status));
        ++m_completions;
        m_qps[wc.qpNum]->PostSend(m_wr);
    }

    /// \return completions so far
    uint64_t GetCompletions() const
    {
        return m_completions;
    }

    /// \return QPs
    uint32_t GetQps() const
    {
        return m_qps.size();
    }

  private:
    RdmaSendWr m_wr;                              //!< the WRITE
    std::map<uint32_t, Ptr<RdmaQueuePair>> m_qps; //!< by QPN
    uint64_t m_completions{0};                    //!< completions
};

/**
 * \brief One run: C cache entries, N QPs.
 * \return the measured point
 */
Point
Run(uint32_t entries,
    uint32_t maxMisses,
    const std::string& backing,
    uint32_t qps,
    uint32_t window,
    uint32_t bytes,
    uint32_t pathMtu,
    Time warm,
    Time span)
{
    NodeContainer nodes;
    nodes.Create(2);
    QbbHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(2)));
    NetDeviceContainer devices = link.Install(nodes);
    RdmaHelper rdma;
    Ptr<RdmaNic> a = rdma.Install(nodes.Get(0), devices.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> b = rdma.Install(nodes.Get(1), devices.Get(1), Ipv4Address("10.0.0.2"));
    a->SetPipeline(CreateObject<RdmaNicPipeline>());
    Ptr<RdmaNicTables> tables = a->GetPipeline()->GetTables();
    Ptr<NicCache> qpc = tables->GetCache(RdmaNicTables::QPC);
    qpc->SetAttribute("Entries", UintegerValue(entries));
    qpc->SetAttribute("Ways", UintegerValue(entries));
    qpc->SetAttribute("MaxOutstandingMisses", UintegerValue(maxMisses));
    qpc->GetMemory()->SetAttribute("Kind", StringValue(backing));
    if (backing == "Sram")
    {
        qpc->GetMemory()->SetAttribute("Capacity", UintegerValue(entries));
    }
    uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    Ptr<RdmaProtectionDomain> pdA = a->AllocPd();
    Ptr<RdmaProtectionDomain> pdB = b->AllocPd();
    const uint64_t region = std::max<uint64_t>(bytes, 4096);
    Ptr<RdmaMemoryRegion> mrA = a->RegMr(pdA, VA_A, region, access);
    Ptr<RdmaMemoryRegion> mrB = b->RegMr(pdB, VA_B, region, access);
    RdmaQueuePair::InitAttr initA;
    initA.pd = pdA;
    initA.sendCq = a->CreateCq(1 << 16);
    initA.recvCq = initA.sendCq;
    RdmaQueuePair::InitAttr initB;
    initB.pd = pdB;
    initB.sendCq = b->CreateCq(1 << 16);
    initB.recvCq = initB.sendCq;
    RdmaSendWr wr;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.sgList.push_back({VA_A, bytes, mrA->GetLkey()});
    wr.rkey = mrB->GetRkey();
    wr.remoteAddr = VA_B;
    Load load(wr);
    for (uint32_t i = 0; i < qps; ++i)
    {
        Ptr<RdmaQueuePair> qa = a->CreateQp(initA);
        if (!qa)
        {
            break; // the QPC store is full (Sram): the verbs ENOMEM
        }
        Ptr<RdmaQueuePair> qb = b->CreateQp(initB);
        RdmaConnectionConfig connection;
        connection.pathMtu = RdmaPathMtu::FromBytes(pathMtu);
        NS_ABORT_MSG_IF(RdmaHelper::Connect(qa, a, qb, b, connection) != 0,
                        "rdma-qp-scaling: Connect");
        load.Add(qa);
    }
    initA.sendCq->SetCompletionCallback(MakeCallback(&Load::OnCompletion, &load));
    load.Start(window);
    Point p;
    uint64_t c0 = 0;
    RdmaNicTables::Counters q0;
    Simulator::Schedule(warm, [&]() {
        c0 = load.GetCompletions();
        q0 = tables->GetCounters()[RdmaNicTables::QPC];
    });
    Simulator::Stop(warm + span);
    Simulator::Run();
    RdmaNicTables::Counters q1 = tables->GetCounters()[RdmaNicTables::QPC];
    p.made = load.GetQps();
    p.writesPerS = double(load.GetCompletions() - c0) / span.GetSeconds();
    p.hits = q1.hits - q0.hits;
    p.misses = q1.misses - q0.misses;
    p.evictions = q1.evictions - q0.evictions;
    p.stallUsPerQp = p.made ? (q1.stallTime - q0.stallTime).GetMicroSeconds() / double(p.made) : 0;
    Simulator::Destroy();
    return p;
}

/**
 * \param option the option's name, for the error
 * \param text a comma-separated list
 * \return its numbers, or abort naming the option
 */
std::vector<uint32_t>
ParseList(const std::string& option, const std::string& text)
{
    std::vector<uint32_t> v;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        std::size_t used = 0;
        unsigned long x = 0;
        try
        {
            x = std::stoul(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        NS_ABORT_MSG_IF(used != item.size() || x == 0 || x > (1u << 24),
                        "rdma-qp-scaling: --" << option << ": '" << item
                                              << "' is not a positive number");
        v.push_back(static_cast<uint32_t>(x));
    }
    NS_ABORT_MSG_IF(v.empty(), "rdma-qp-scaling: --" << option << " is empty");
    return v;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string cacheEntries = "16,32";
    uint32_t maxQps = 64;
    std::string backing = "HostMemory";
    std::string out = "rdma-qp-scaling.csv";
    uint32_t window = 16;
    uint32_t maxMisses = 32;
    Time warm = MicroSeconds(20);
    Time span = MicroSeconds(40);
    CommandLine cmd(__FILE__);
    cmd.AddValue("cacheEntries", "QPC cache sizes to sweep, comma separated", cacheEntries);
    cmd.AddValue("maxQps", "largest number of active QPs", maxQps);
    cmd.AddValue("backing", "QPC backing store: Sram, CardDram or HostMemory", backing);
    cmd.AddValue("out", "CSV file to write", out);
    cmd.AddValue("maxMisses", "QPC cache MaxOutstandingMisses", maxMisses);
    cmd.AddValue("window", "WRITEs kept posted per QP", window);
    std::string sizes = "64";
    cmd.AddValue("bytes", "WRITE sizes to sweep, bytes, comma separated", sizes);
    uint32_t pathMtu = 1024;
    cmd.AddValue("pathMtu", "path MTU, bytes: 256, 512, 1024, 2048 or 4096", pathMtu);
    cmd.AddValue("warm", "warm-up before measuring", warm);
    cmd.AddValue("span", "measurement window", span);
    std::string preset;
    cmd.AddValue("preset",
                 "a nic.preset whose pcie keys set A's PCIe link (RdmaNicPreset)",
                 preset);
    try
    {
        RdmaApplyPresetArgument(argc, argv);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "rdma-qp-scaling: --preset: " << e.what() << "\n";
        return 2;
    }
    cmd.Parse(argc, argv);
    NS_ABORT_MSG_UNLESS(backing == "Sram" || backing == "CardDram" || backing == "HostMemory",
                        "rdma-qp-scaling: --backing=" << backing
                                                      << " is not Sram, CardDram or HostMemory");
    NS_ABORT_MSG_IF(maxQps == 0 || window == 0 || maxMisses == 0,
                    "rdma-qp-scaling: --maxQps, --window and --maxMisses must be > 0");
    NS_ABORT_MSG_UNLESS(RdmaPathMtu::IsValidBytes(pathMtu),
                        "rdma-qp-scaling: --pathMtu=" << pathMtu
                                                      << " is not 256, 512, 1024, 2048 or 4096");
    const std::vector<uint32_t> caches = ParseList("cacheEntries", cacheEntries);
    const std::vector<uint32_t> messages = ParseList("bytes", sizes);

    // The rows are written at the end, whole (RdmaWriteFileAtomically): a
    // run cut short leaves no file.
    std::ostringstream csv;
    csv << "cache_entries,backing,qps_wanted,qps_made,writes_per_s,payload_gbps,qpc_hits,"
           "qpc_misses,qpc_evictions,qpc_misses_per_write,stall_us_per_qp,bytes,path_mtu\n";
    for (uint32_t bytes : messages)
    {
        for (uint32_t c : caches)
        {
            std::set<uint32_t> ns{c, c + 1};
            for (uint32_t n = 1; n <= maxQps; n *= 2)
            {
                ns.insert(n);
            }
            for (uint32_t n : ns)
            {
                if (n > maxQps)
                {
                    continue;
                }
                Point p = Run(c, maxMisses, backing, n, window, bytes, pathMtu, warm, span);
                double writes = p.writesPerS * span.GetSeconds();
                csv << c << ',' << backing << ',' << n << ',' << p.made << ',' << p.writesPerS
                    << ',' << p.writesPerS * bytes * 8 / 1e9 << ',' << p.hits << ',' << p.misses
                    << ',' << p.evictions << ',' << (writes > 0 ? p.misses / writes : 0) << ','
                    << p.stallUsPerQp << ',' << bytes << ',' << pathMtu << '\n';
                std::cout << "bytes=" << bytes << " C=" << c << " N=" << n << " made=" << p.made
                          << " rate=" << p.writesPerS / 1e6
                          << " M/s misses/write=" << (writes > 0 ? p.misses / writes : 0)
                          << std::endl;
            }
        }
    }
    try
    {
        RdmaWriteFileAtomically(out, csv.str());
    }
    catch (const std::runtime_error& e)
    {
        std::cerr << "rdma-qp-scaling: cannot write --out: " << e.what() << "\n";
        return 2;
    }
    std::cout << "wrote " << out << std::endl;
    return 0;
}
