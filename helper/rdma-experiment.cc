/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-experiment.h"

#include "rdma-cc-preset.h"
#include "rdma-fct-stats.h"
#include "rdma-fct-writer.h"
#include "rdma-flow-generator.h"
#include "rdma-flow-runner.h"
#include "rdma-hpcc-config.h"
#include "rdma-hpcc-flow-file.h"
#include "rdma-hpcc-topology-reader.h"
#include "rdma-interrupt.h"
#include "rdma-output-stage.h"
#include "rdma-pcap-output.h"
#include "rdma-progress.h"
#include "rdma-stats-helper.h"
#include "rdma-topology-helper.h"
#include "rdma-topology-spec.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/nic-cache.h"
#include "ns3/nic-memory.h"
#include "ns3/pointer.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-flow-size-cdf.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-nic-pipeline.h"
#include "ns3/rdma-nic-tables.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cerrno>
#include <csignal>
#include <chrono>
#include <iostream>
#include <cstring>
#include <dirent.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>

// The build passes both (ns3-module/*.cmake, wscript).
#ifndef RDMA_DATA_DIR
#define RDMA_DATA_DIR "data"
#endif
#ifndef RDMA_NS3_VERSION
#define RDMA_NS3_VERSION "unknown"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaExperiment");

/// The module's version, reported in summary.json.
static const char* const g_rdmaModuleVersion = "0.1.0";

struct RdmaExperiment::Impl
{
    RdmaConfig config;                    //!< the merged configuration
    bool force{false};                    //!< write into a non-empty folder
    bool write{true};                     //!< write the output folder
    std::ostream* progress{nullptr};      //!< progress line stream
    std::string summaryJson;              //!< after Run
    std::vector<RdmaFctRecord> records;   //!< after Run
    std::vector<std::string> summaryText; //!< PrintSummary's lines
};

namespace
{

/// \return the folder's state: 0 missing, 1 empty, 2 not empty; -1 not a folder
int
FolderState(const std::string& path)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
    {
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
    {
        return -1;
    }
    DIR* d = opendir(path.c_str());
    if (!d)
    {
        return 2;
    }
    int state = 1;
    while (dirent* e = readdir(d))
    {
        const std::string n = e->d_name;
        if (n != "." && n != "..")
        {
            state = 2;
            break;
        }
    }
    closedir(d);
    return state;
}

/// \return the CDF file of a traffic.cdf value (a shipped name or a path)
std::string
CdfPath(const RdmaConfig& c)
{
    static const std::map<std::string, std::string> named{
        {"websearch", "WebSearch_distribution.txt"},
        {"fbhdp", "FbHdp_distribution.txt"},
        {"alistorage", "AliStorage2019.txt"},
        {"googlerpc", "GoogleRPC2008.txt"}};
    auto it = named.find(c.Get("traffic.cdf"));
    if (it == named.end())
    {
        return c.GetInputPath("traffic.cdf");
    }
    return RdmaExperiment::GetDataDir() + "/cdf/" + it->second;
}

/// \return the topology the configuration describes \throws RdmaConfigError
RdmaTopologySpec
MakeTopology(const RdmaConfig& c, RdmaLinkParams tiers[3])
{
    const std::string type = c.Get("topology.type");
    const double errorRate = c.GetDouble("topology.errorRate");
    if (!(errorRate >= 0 && errorRate < 1))
    {
        throw RdmaConfigError(c.GetOrigin("topology.errorRate") + ": topology.errorRate = " +
                              c.Get("topology.errorRate") + ": expected a probability in [0, 1)");
    }
    try
    {
        for (int t = 0; t < 3; ++t)
        {
            tiers[t].delay = c.GetTime("topology.linkDelay");
            tiers[t].errorRate = errorRate;
        }
        tiers[0].rate = DataRate(c.GetBitRate("topology.hostRate"));
        tiers[1].rate = DataRate(c.GetBitRate("topology.fabricRate"));
        tiers[2].rate = DataRate(c.GetBitRate("topology.coreRate"));
        RdmaTopologySpec spec;
        if (type == "fat-tree")
        {
            spec = RdmaTopologySpec::FatTree(c.GetUinteger("topology.k"),
                                             tiers[0],
                                             tiers[1],
                                             tiers[2]);
        }
        else if (type == "leaf-spine")
        {
            spec = RdmaTopologySpec::LeafSpine(c.GetUinteger("topology.leaves"),
                                               c.GetUinteger("topology.spines"),
                                               c.GetUinteger("topology.hostsPerLeaf"),
                                               tiers[0],
                                               tiers[1],
                                               c.GetDouble("topology.oversubscription"));
        }
        else if (type == "dumbbell")
        {
            spec = RdmaTopologySpec::Dumbbell(c.GetUinteger("topology.left"),
                                              c.GetUinteger("topology.right"),
                                              tiers[0],
                                              tiers[1]);
        }
        else if (type == "star")
        {
            spec = RdmaTopologySpec::Star(c.GetUinteger("topology.hosts"), tiers[0]);
        }
        else if (type == "hpcc")
        {
            if (c.Get("topology.file").empty())
            {
                throw RdmaConfigError(c.GetOrigin("topology.type") +
                                      ": topology.type = hpcc needs topology.file");
            }
            spec = RdmaHpccTopologyReader::ReadFile(c.GetInputPath("topology.file"));
        }
        else
        {
            throw RdmaConfigError(c.GetOrigin("topology.type") + ": topology.type = '" + type +
                                  "': expected fat-tree, leaf-spine, dumbbell, star or hpcc");
        }
        spec.Validate();
        return spec;
    }
    catch (const RdmaConfigError&)
    {
        throw;
    }
    catch (const std::exception& e)
    {
        throw RdmaConfigError(std::string("topology (") + type + "): " + e.what());
    }
}

/// \return the workload \throws RdmaConfigError
std::vector<RdmaFlow>
MakeFlows(const RdmaConfig& c, const RdmaTopologySpec& spec, uint32_t nHosts)
{
    const std::string pattern = c.Get("traffic.pattern");
    std::vector<uint32_t> hosts(nHosts);
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        hosts[i] = i;
    }
    try
    {
        if (pattern == "flow-file")
        {
            if (c.Get("traffic.flowFile").empty())
            {
                throw RdmaConfigError(c.GetOrigin("traffic.pattern") +
                                      ": traffic.pattern = flow-file needs traffic.flowFile");
            }
            const std::string path = c.GetInputPath("traffic.flowFile");
            auto flows = RdmaReadHpccFlowFile(path);
            // HPCC files number nodes; the runner numbers hosts.
            std::vector<uint32_t> hostIndex(spec.GetNNodes(), UINT32_MAX);
            for (uint32_t n = 0, h = 0; n < spec.GetNNodes(); ++n)
            {
                if (!spec.isSwitch[n])
                {
                    hostIndex[n] = h++;
                }
            }
            for (auto& f : flows)
            {
                for (uint32_t* end : {&f.src, &f.dst})
                {
                    if (*end >= hostIndex.size() || hostIndex[*end] == UINT32_MAX)
                    {
                        throw RdmaConfigError(path + ": flow " + std::to_string(f.id) +
                                              " names node " + std::to_string(*end) +
                                              ", which is not a host of the topology");
                    }
                    *end = hostIndex[*end];
                }
            }
            return flows;
        }
        Ptr<RdmaFlowGenerator> gen = CreateObject<RdmaFlowGenerator>();
        gen->AssignStreams(1000);
        gen->SetOperationMix(c.GetDouble("traffic.writeWeight"),
                             c.GetDouble("traffic.readWeight"),
                             c.GetDouble("traffic.sendWeight"));
        const uint8_t priority = c.GetUinteger("traffic.priority");
        if (pattern == "poisson")
        {
            RdmaFlowGenerator::PoissonConfig pc;
            pc.hosts = hosts;
            pc.hostRate = DataRate(c.GetBitRate("topology.hostRate"));
            pc.load = c.GetDouble("traffic.load");
            pc.start = c.GetTime("traffic.start");
            pc.duration = c.GetTime("traffic.duration");
            pc.priority = priority;
            return gen->Poisson(pc, RdmaFlowSizeCdf::FromFile(CdfPath(c)));
        }
        if (pattern == "incast")
        {
            RdmaFlowGenerator::IncastConfig ic;
            ic.receiver = c.GetUinteger("traffic.receiver");
            ic.hosts = hosts;
            ic.fanIn = c.GetUinteger("traffic.fanIn");
            ic.size = c.GetUinteger("traffic.size");
            ic.repeats = c.GetUinteger("traffic.repeats");
            ic.interval = c.GetTime("traffic.interval");
            ic.start = c.GetTime("traffic.start");
            ic.priority = priority;
            const std::string background = c.Get("traffic.background");
            if (background == "none")
            {
                return gen->Incast(ic);
            }
            if (background != "poisson")
            {
                throw RdmaConfigError(c.GetOrigin("traffic.background") +
                                      ": traffic.background = '" + background +
                                      "': expected none or poisson");
            }
            auto incast = gen->Incast(ic);
            RdmaFlowGenerator::PoissonConfig pc;
            for (uint32_t h : hosts)
            {
                if (h != ic.receiver)
                {
                    pc.hosts.push_back(h);
                }
            }
            pc.hostRate = DataRate(c.GetBitRate("topology.hostRate"));
            pc.load = c.GetDouble("traffic.backgroundLoad");
            pc.start = c.GetTime("traffic.start");
            pc.duration = c.GetTime("traffic.duration");
            pc.priority = priority;
            auto victims = gen->Poisson(pc, RdmaFlowSizeCdf::FromFile(CdfPath(c)));
            return RdmaFlowGenerator::Merge({incast, victims});
        }
        RdmaFlowGenerator::PatternConfig pc;
        pc.hosts = hosts;
        pc.size = c.GetUinteger("traffic.size");
        pc.start = c.GetTime("traffic.start");
        pc.priority = priority;
        if (pattern == "permutation")
        {
            return gen->Permutation(pc);
        }
        if (pattern == "all-to-all")
        {
            return gen->AllToAll(pc);
        }
        throw RdmaConfigError(c.GetOrigin("traffic.pattern") + ": traffic.pattern = '" + pattern +
                              "': expected poisson, incast, permutation, all-to-all or flow-file");
    }
    catch (const RdmaConfigError&)
    {
        throw;
    }
    catch (const std::exception& e)
    {
        throw RdmaConfigError("traffic (" + pattern + "): " + e.what());
    }
}

/// \return the connection settings from the transport keys
RdmaConnectionConfig
MakeConnection(const RdmaConfig& c)
{
    RdmaConnectionConfig cc;
    const uint64_t mtu = c.GetUinteger("transport.pathMtu");
    const std::map<uint64_t, RdmaMtu> mtus{{256, IBV_MTU_256},
                                           {512, IBV_MTU_512},
                                           {1024, IBV_MTU_1024},
                                           {2048, IBV_MTU_2048},
                                           {4096, IBV_MTU_4096}};
    if (!mtus.count(mtu))
    {
        throw RdmaConfigError(c.GetOrigin("transport.pathMtu") + ": transport.pathMtu = " +
                              std::to_string(mtu) + ": expected 256, 512, 1024, 2048 or 4096");
    }
    cc.pathMtu = mtus.at(mtu);
    // Their ranges (timeout 0-31, the retry counts 0-7) are the keys' checkers'.
    cc.timeout = c.GetUinteger("transport.timeout");
    cc.retryCnt = c.GetUinteger("transport.retryCnt");
    cc.rnrRetry = c.GetUinteger("transport.rnrRetry");
    return cc;
}

/**
 * \param c the configuration
 * \param mtuBytes the path MTU, bytes
 * \return the loss-recovery TypeId transport.recovery names (its attributes
 * come from the transport.irn keys through Apply) \throws RdmaConfigError
 */
std::string
MakeLossRecovery(const RdmaConfig& c, uint64_t mtuBytes)
{
    const std::string name = c.Get("transport.recovery");
    if (name != "go-back-n" && name != "irn")
    {
        throw RdmaConfigError(c.GetOrigin("transport.recovery") + ": transport.recovery = '" +
                              name + "': expected go-back-n or irn");
    }
    if (c.GetUinteger("transport.irn.BdpBytes") < mtuBytes)
    {
        throw RdmaConfigError(c.GetOrigin("transport.irn.BdpBytes") +
                              ": transport.irn.BdpBytes = " + c.Get("transport.irn.BdpBytes") +
                              ": below one path MTU (" + std::to_string(mtuBytes) + " bytes)");
    }
    for (const char* key : {"transport.irn.RtoLow", "transport.irn.RtoHigh"})
    {
        if (!c.GetTime(key).IsStrictlyPositive())
        {
            throw RdmaConfigError(c.GetOrigin(key) + ": " + key + " = " + c.Get(key) +
                                  ": expected a positive time");
        }
    }
    return name == "irn" ? "ns3::RdmaSelectiveRepeat" : "ns3::RdmaGoBackN";
}

/// \return the congestion-control factory the cc keys describe \throws RdmaConfigError
ObjectFactory
MakeCongestionControl(const RdmaConfig& c)
{
    static const std::map<std::string, std::string> types{{"dcqcn", "ns3::RdmaDcqcn"},
                                                          {"hpcc", "ns3::RdmaHpcc"},
                                                          {"timely", "ns3::RdmaTimely"},
                                                          {"dctcp", "ns3::RdmaDctcp"},
                                                          {"swift", "ns3::RdmaSwift"},
                                                          {"none", "ns3::RdmaNoCc"}};
    const std::string algo = c.Get("cc.algorithm");
    auto it = types.find(algo);
    if (it == types.end())
    {
        throw RdmaConfigError(c.GetOrigin("cc.algorithm") + ": cc.algorithm = '" + algo +
                              "': expected dcqcn, hpcc, timely, dctcp, swift or none");
    }
    ObjectFactory f(it->second);
    // Keys the user or cc.preset set (RdmaApplyCcPreset; the defaults come from Apply()).
    for (const auto& k : c.GetKeys())
    {
        if (k.typeId == it->second && c.GetOrigin(k.name) != "default")
        {
            f.Set(k.attribute, StringValue(c.Get(k.name)));
        }
    }
    return f;
}

/// \return peak resident set size of the process, MiB
double
PeakRssMb()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0; // Linux: KiB
}

} // namespace

std::string
RdmaExperiment::GetDataDir()
{
    const char* env = std::getenv("RDMA_DATA_DIR");
    return env ? env : RDMA_DATA_DIR;
}

RdmaExperiment::RdmaExperiment(const RdmaConfig& config)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->config = config;
}

RdmaExperiment::~RdmaExperiment() = default;

void
RdmaExperiment::SetForce(bool force)
{
    m_impl->force = force;
}

void
RdmaExperiment::SetWriteOutputs(bool write)
{
    m_impl->write = write;
}

void
RdmaExperiment::SetProgressStream(std::ostream* os)
{
    m_impl->progress = os;
}

const std::string&
RdmaExperiment::GetSummaryJson() const
{
    return m_impl->summaryJson;
}

const std::vector<RdmaFctRecord>&
RdmaExperiment::GetFlowRecords() const
{
    return m_impl->records;
}

void
RdmaExperiment::PrintSummary(std::ostream& os) const
{
    for (const auto& line : m_impl->summaryText)
    {
        os << line << "\n";
    }
}

void
RdmaExperiment::Run()
{
    RdmaConfig c = m_impl->config; // a copy: hpcc.config and cc.preset fill it below
    const auto wallStart = std::chrono::steady_clock::now();
    if (!c.Get("hpcc.config").empty())
    {
        // An HPCC simulator config.txt under the INI file and command line.
        for (const auto& w : RdmaApplyHpccConfig(c, c.GetPath("hpcc.config")))
        {
            std::cerr << "rdma-sim: warning: " << w << "\n";
        }
    }

    // 1. Every input, before anything runs or is written.
    const std::string outDir = c.Get("output.dir");
    const int state = FolderState(outDir);
    if (m_impl->write && state < 0)
    {
        throw RdmaConfigError(c.GetOrigin("output.dir") + ": output.dir = " + outDir +
                              " exists and is not a folder");
    }
    if (m_impl->write && state == 2 && !m_impl->force)
    {
        throw RdmaConfigError(c.GetOrigin("output.dir") + ": output.dir = " + outDir +
                              " is not empty (use --force to write into it)");
    }
    const uint64_t seed = c.GetUinteger("sim.seed");
    if (seed == 0)
    {
        throw RdmaConfigError(c.GetOrigin("sim.seed") + ": sim.seed must be >= 1");
    }
    // The seed first: the traffic generator draws as soon as it is made.
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);
    const Time stopTime = c.GetTime("sim.stopTime");
    const std::string scheduler = c.Get("sim.scheduler");
    TypeId schedulerTid;
    if (!TypeId::LookupByNameFailSafe(scheduler, &schedulerTid) ||
        !schedulerTid.IsChildOf(TypeId::LookupByName("ns3::Scheduler")))
    {
        throw RdmaConfigError(c.GetOrigin("sim.scheduler") + ": sim.scheduler = '" + scheduler +
                              "': expected an ns-3 Scheduler TypeId such as ns3::HeapScheduler");
    }
    const Time qlenInterval = c.GetTime("output.qlenInterval");
    RdmaLinkParams tiers[3];
    const RdmaTopologySpec spec = MakeTopology(c, tiers);
    // cc.preset fills the keys the user left at their defaults; hpcc-sim scales
    // by the NIC rate, the first host's link rate (as the HPCC simulator's
    // get_nic_rate).
    RdmaApplyCcPreset(c, spec.GetHostLinkRate());
    std::vector<uint32_t> pcapNodes;
    try
    {
        pcapNodes = RdmaPcapOutput::ParseNodes(c.Get("output.pcapNodes"), spec.GetNNodes());
    }
    catch (const std::invalid_argument& e)
    {
        throw RdmaConfigError(c.GetOrigin("output.pcapNodes") + ": output.pcapNodes = '" +
                              c.Get("output.pcapNodes") + "': " + e.what());
    }
    const std::string icrcMode = c.Get("sim.icrc");
    if (icrcMode != "auto" && icrcMode != "on" && icrcMode != "off")
    {
        throw RdmaConfigError(c.GetOrigin("sim.icrc") + ": sim.icrc = '" + icrcMode +
                              "': expected auto, on or off");
    }
    // Lossy links corrupt frames (QbbNetDevice::CorruptCopy): only an ICRC
    // check turns that into a loss, so lossy fabrics check it.
    bool lossy = false;
    for (const auto& l : spec.links)
    {
        lossy = lossy || l.errorRate > 0;
    }
    bool verifyIcrc = c.GetBool("nic.VerifyIcrc");
    if (lossy && !verifyIcrc)
    {
        if (c.GetOrigin("nic.VerifyIcrc") != "default")
        {
            throw RdmaConfigError(c.GetOrigin("nic.VerifyIcrc") +
                                  ": nic.VerifyIcrc = false with lossy links (topology.errorRate "
                                  "or the topology file's error rates): corrupted frames would "
                                  "be taken as good");
        }
        verifyIcrc = true;
    }
    const bool icrcRead = verifyIcrc || !pcapNodes.empty();
    if (icrcMode == "off" && icrcRead)
    {
        throw RdmaConfigError(c.GetOrigin("sim.icrc") + ": sim.icrc = off, but " +
                              (pcapNodes.empty() ? "nic.VerifyIcrc = true would drop every frame"
                                                 : "output.pcapNodes would capture frames "
                                                   "without their ICRC") +
                              ": use auto or on");
    }
    const bool icrc = icrcMode == "on" || (icrcMode == "auto" && icrcRead);
    const std::vector<RdmaFlow> flows = MakeFlows(c, spec, spec.GetNHosts());
    Time trafficEnd(0);
    for (const auto& f : flows)
    {
        trafficEnd = std::max(trafficEnd, f.start);
    }
    if (stopTime <= trafficEnd)
    {
        throw RdmaConfigError(c.GetOrigin("sim.stopTime") + ": sim.stopTime = '" +
                              c.Get("sim.stopTime") + "': expected a time after the traffic's " +
                              "last arrival, at " + std::to_string(trafficEnd.GetSeconds() * 1e3) +
                              " ms");
    }
    const RdmaConnectionConfig connection = MakeConnection(c);
    const ObjectFactory ccFactory = MakeCongestionControl(c);
    const std::string recovery = MakeLossRecovery(c, c.GetUinteger("transport.pathMtu"));
    const bool hpcc = c.Get("cc.algorithm") == "hpcc";
    const bool pipeline = c.GetBool("nic.pipeline");
    const uint64_t pageBytes = c.GetUinteger("cache.mtt.PageBytes");
    if (pageBytes < 4096 || (pageBytes & (pageBytes - 1)) != 0)
    {
        throw RdmaConfigError(c.GetOrigin("cache.mtt.PageBytes") +
                              ": cache.mtt.PageBytes = " + std::to_string(pageBytes) +
                              ": expected a power of two of at least 4096 bytes (4 KiB base "
                              "pages, 2 MiB or 1 GiB huge pages)");
    }
    const uint64_t kmin = c.GetUinteger("ecn.kmin");
    const uint64_t kmax = c.GetUinteger("ecn.kmax");
    const double pmax = c.GetDouble("ecn.pmax");
    if (kmin > kmax || pmax < 0 || pmax > 1)
    {
        throw RdmaConfigError(c.GetOrigin("ecn.kmin") +
                              ": ecn: expected kmin <= kmax and 0 <= pmax <= 1");
    }

    // 2. Build.
    // The ICRC setting is process-wide: the caller's comes back when Run ends.
    struct IcrcSetting
    {
        const bool previous = RoceFrame::IsIcrcEnabled();

        ~IcrcSetting()
        {
            RoceFrame::SetIcrcEnabled(previous);
        }
    } restoreIcrc;

    RoceFrame::SetIcrcEnabled(icrc);
    Simulator::SetScheduler(ObjectFactory(scheduler));
    c.Apply();
    if (verifyIcrc)
    {
        Config::SetDefault("ns3::RdmaNic::VerifyIcrc", BooleanValue(true));
    }
    // HPCC needs INT from NICs and switches, unless the user said otherwise.
    if (hpcc && c.GetOrigin("nic.IntEnabled") == "default")
    {
        Config::SetDefault("ns3::RdmaNic::IntEnabled", BooleanValue(true));
    }
    if (hpcc && c.GetOrigin("switch.IntEnabled") == "default")
    {
        Config::SetDefault("ns3::RdmaSwitch::IntEnabled", BooleanValue(true));
    }
    // NICs keep the switches' lossless classes unless the user said otherwise.
    for (const char* a : {"LosslessClasses", "PfcEnabled"})
    {
        if (c.GetOrigin(std::string("nic.rx.") + a) == "default")
        {
            Config::SetDefault(std::string("ns3::RdmaNicRxBuffer::") + a,
                               StringValue(c.Get(std::string("pfc.") + a)));
        }
    }

    RdmaTopologyHelper topo;
    for (uint32_t t = 0; t < 3; ++t)
    {
        topo.SetTierLink(t, tiers[t]);
    }
    topo.Install(spec);
    topo.AssignStreams(1);
    RdmaPcapOutput pcap;
    if (m_impl->write)
    {
        try
        {
            pcap.Enable(topo, pcapNodes);
        }
        catch (const std::runtime_error& e)
        {
            Simulator::Destroy();
            Config::Reset();
            throw RdmaConfigError(std::string("output.pcapNodes: ") + e.what());
        }
    }
    if (kmax > 0)
    {
        SwitchEcnParams ecn{kmin, kmax, pmax};
        for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
        {
            Ptr<RdmaSwitch> sw = topo.GetSwitch(s);
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                for (uint8_t cls = 0; cls < QbbNetDevice::NUM_CLASSES; ++cls)
                {
                    sw->SetEcnParams(p, cls, ecn);
                }
            }
        }
    }

    // Congestion control on every NIC; its base RTT (HPCC's T) is the first
    // to the last host's, the longest path of the generated topologies.
    const uint32_t mtuBytes = 128u << connection.pathMtu;
    const uint32_t frameBytes = mtuBytes + 58; // Ethernet, IPv4, UDP, BTH, ICRC around a full MTU
    const uint32_t ackBytes = 62;              // an RC ACK: the same headers and an AETH
    const Time baseRtt = topo.GetNHosts() > 1
                             ? topo.GetBaseRtt(0, topo.GetNHosts() - 1, frameBytes, ackBytes)
                             : MicroSeconds(1);
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = topo.GetNic(h);
        if (c.GetOrigin("nic.BaseRtt") == "default")
        {
            nic->SetAttribute("BaseRtt", TimeValue(baseRtt));
        }
        nic->SetCongestionControl(ccFactory);
        // One policy object per NIC (the policies keep no per-QP state).
        Ptr<RdmaLossRecovery> policy = ObjectFactory(recovery).Create<RdmaLossRecovery>();
        if (recovery == "ns3::RdmaSelectiveRepeat" &&
            c.GetOrigin("transport.irn.BdpBytes") == "default")
        {
            // IRN 3.2: the cap is the BDP of the longest path, at the host's rate.
            const uint64_t bdp = static_cast<uint64_t>(
                nic->GetDevice()->GetDataRate().GetBitRate() * baseRtt.GetSeconds() / 8);
            policy->SetAttribute("BdpBytes", UintegerValue(std::max<uint64_t>(bdp, mtuBytes)));
        }
        nic->SetQpAttribute("LossRecovery", PointerValue(policy));
        if (pipeline)
        {
            // Defaults from the nic.hw and pcie groups (Apply); each table's
            // keys on its own cache and backing store.
            Ptr<RdmaNicPipeline> p = CreateObject<RdmaNicPipeline>();
            nic->SetPipeline(p);
            const std::string rxError = nic->ConfigureRxBuffer();
            if (!rxError.empty())
            {
                Simulator::Destroy();
                Config::Reset();
                throw RdmaConfigError(c.GetOrigin("nic.rx.BufferBytes") + ": nic.rx." + rxError +
                                      " of host " + std::to_string(h) + "'s link");
            }
            for (uint32_t t = 0; t < RdmaNicTables::N_TABLES; ++t)
            {
                auto table = static_cast<RdmaNicTables::Table>(t);
                const std::string g = std::string("cache.") + RdmaNicTables::GetTableName(table);
                Ptr<NicCache> cache = p->GetTables()->GetCache(table);
                c.SetAttributes(g, cache);
                c.SetAttributes(g + ".memory", cache->GetMemory());
            }
        }
    }

    Ptr<RdmaFlowRunner> runner = CreateObject<RdmaFlowRunner>();
    runner->SetHosts(topo.GetHosts());
    runner->SetConnectionConfig(connection);
    try
    {
        runner->SetFlows(flows);
    }
    catch (const std::exception& e)
    {
        Simulator::Destroy();
        Config::Reset();
        throw RdmaConfigError(std::string("traffic: ") + e.what());
    }
    runner->SetAllDoneCallback(MakeCallback(static_cast<void (*)()>(&Simulator::Stop)));
    runner->AssignStreams(2000);
    try
    {
        runner->Start();
    }
    catch (const std::exception& e)
    {
        Simulator::Destroy();
        Config::Reset();
        throw RdmaConfigError(std::string("traffic: ") + e.what());
    }

    RdmaStatsHelper stats(topo);
    stats.StartQueueSampling(qlenInterval, flows.empty() ? Time(0) : flows.front().start, stopTime);
    // Progress (and the interrupt poll) from the first arrival; the data a
    // run delivers is counted in payload packets of a path MTU.
    Time firstStart = flows.empty() ? Time(0) : flows.front().start;
    Time lastStart = firstStart;
    uint64_t packetsExpected = 0;
    for (const auto& f : flows)
    {
        firstStart = std::min(firstStart, f.start);
        lastStart = std::max(lastStart, f.start);
        packetsExpected += std::max<uint64_t>(1, (f.size + mtuBytes - 1) / mtuBytes);
    }
    const Time progressEnd =
        std::min(stopTime, lastStart + (lastStart - firstStart) / 10 + MicroSeconds(100));
    auto measure = [&]() {
        RdmaProgress::Work w;
        w.flowsDone = runner->GetCompletedCount() + runner->GetFailedCount();
        w.flowsTotal = flows.size();
        uint64_t delivered = 0;
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            delivered += topo.GetNic(h)->GetStats().rxPayloadPackets;
        }
        w.delivered = packetsExpected ? double(delivered) / packetsExpected : 1.0;
        return w;
    };
    RdmaProgress progress(m_impl->progress,
                          firstStart,
                          std::max(NanoSeconds(1), (progressEnd - firstStart) / 1000),
                          measure);
    progress.Start();

    // 3. Run.
    Simulator::Stop(stopTime);
    Simulator::Run();
    progress.Stop();
    if (const int signal = progress.GetInterrupt())
    {
        const double at = Simulator::Now().GetSeconds() * 1e3;
        Simulator::Destroy();
        Config::Reset();
        throw RdmaInterrupted(std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                  ": stopped at " + std::to_string(at) +
                                  " ms simulated; nothing was written" +
                                  (m_impl->write ? " to " + outDir : std::string()),
                              signal);
    }
    const Time simEnd = Simulator::Now();

    // 4. Results.
    // Each host pair's path once (RdmaTopologyHelper::GetPathFunction walks it).
    const RdmaPathFunction pathOf = topo.GetPathFunction(frameBytes, ackBytes);
    std::map<std::pair<uint32_t, uint32_t>, RdmaPathInfo> paths;
    auto path = [&](uint32_t src, uint32_t dst) {
        auto [it, added] = paths.try_emplace(std::make_pair(src, dst));
        if (added)
        {
            it->second = pathOf(src, dst);
        }
        return it->second;
    };
    RdmaIdealFct model;
    model.payloadBytes = mtuBytes;
    m_impl->records = RdmaMakeFctRecords(runner->GetFlows(), runner->GetResults(), path, model);
    const auto buckets = RdmaSlowdownPercentiles(m_impl->records);
    const auto totals = stats.GetTotals();
    // Cache counters per NIC and table (cache.csv), and summed per table.
    std::ostringstream cacheCsv;
    cacheCsv << "nic,table,hits,misses,evictions,write_backs,stall_ns\n";
    std::map<std::string, RdmaNicTables::Counters> cacheSum;
    for (uint32_t h = 0; pipeline && h < topo.GetNHosts(); ++h)
    {
        for (const auto& k : topo.GetNic(h)->GetPipeline()->GetTables()->GetCounters())
        {
            cacheCsv << h << ',' << k.table << ',' << k.hits << ',' << k.misses << ','
                     << k.evictions << ',' << k.writeBacks << ',' << k.stallTime.GetNanoSeconds()
                     << '\n';
            auto& sum = cacheSum[k.table];
            sum.hits += k.hits;
            sum.misses += k.misses;
            sum.evictions += k.evictions;
        }
    }
    const uint64_t events = Simulator::GetEventCount();
    uint64_t completed = 0;
    uint64_t failed = 0;
    for (const auto& r : m_impl->records)
    {
        completed += r.Succeeded();
        failed += r.Failed();
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

    nlohmann::ordered_json j;
    j["config"] = c.GetValues();
    j["seed"] = seed;
    j["icrc_computed"] = icrc;
    j["versions"] = {{"rdma", g_rdmaModuleVersion}, {"ns3", RDMA_NS3_VERSION}};
    j["wall_time_s"] = wall;
    j["sim_time_s"] = simEnd.GetSeconds();
    j["events"] = events;
    j["link_transmissions"] = totals.linkTransmissions;
    j["data_packets_delivered"] = totals.dataPacketsDelivered;
    j["peak_rss_mb"] = PeakRssMb();
    j["flows"] = {{"total", m_impl->records.size()},
                  {"completed", completed},
                  {"failed", failed},
                  {"incomplete", m_impl->records.size() - completed - failed}};
    nlohmann::ordered_json fs = nlohmann::ordered_json::object();
    for (const auto& b : buckets)
    {
        const std::string label =
            std::to_string(b.minSize) + "-" +
            (b.maxSize == UINT64_MAX ? std::string("inf") : std::to_string(b.maxSize));
        fs[label] = {{"lo", b.minSize},
                     {"hi",
                      b.maxSize == UINT64_MAX ? nlohmann::ordered_json(nullptr)
                                              : nlohmann::ordered_json(b.maxSize)},
                     {"count", b.flows},
                     {"p50", b.p50},
                     {"p95", b.p95},
                     {"p99", b.p99}};
    }
    j["fct_slowdown"] = fs;
    j["pfc"] = {{"pause_frames", totals.pfcPauseFrames},
                {"resume_frames", totals.pfcResumeFrames},
                {"pause_frames_from_hosts", totals.pfcPauseFramesFromHosts}};
    j["drops"] = totals.drops;
    j["retransmissions"] = totals.retransmissions;
    RdmaQueuePair::Stats qps;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        qps += topo.GetNic(h)->GetQpStatsTotal();
    }
    j["recovery"] = {{"policy", c.Get("transport.recovery")},
                     {"retransmissions", qps.retransmissions},
                     {"timeouts", qps.timeouts},
                     {"sequence_naks", qps.nakSeqSent}};
    j["ecn_marks"] = totals.ecnMarks;
    nlohmann::ordered_json cj = nlohmann::ordered_json::object();
    for (const auto& [table, k] : cacheSum)
    {
        const uint64_t lookups = k.hits + k.misses;
        cj[table] = {{"hits", k.hits},
                     {"misses", k.misses},
                     {"evictions", k.evictions},
                     {"hit_rate", lookups ? double(k.hits) / lookups : 0.0}};
    }
    j["cache"] = cj;
    m_impl->summaryJson = j.dump(2) + "\n";

    std::ostringstream line;
    auto& text = m_impl->summaryText;
    text.clear();
    text.push_back("rdma-sim: " + spec.name + ", " + std::to_string(spec.GetNHosts()) + " hosts, " +
                   std::to_string(spec.GetNSwitches()) + " switches, " + c.Get("traffic.pattern") +
                   " traffic, seed " + std::to_string(seed));
    line << "flows: " << completed << " of " << m_impl->records.size() << " done, " << failed
         << " failed";
    text.push_back(line.str());
    text.push_back("FCT slowdown by size (bytes): p50 / p95 / p99 (flows)");
    for (const auto& b : buckets)
    {
        std::ostringstream l;
        l.setf(std::ios::fixed);
        l.precision(2);
        l << "  " << b.minSize << " - "
          << (b.maxSize == UINT64_MAX ? std::string("inf") : std::to_string(b.maxSize)) << ": "
          << b.p50 << " / " << b.p95 << " / " << b.p99 << " (" << b.flows << ")";
        text.push_back(l.str());
    }
    std::ostringstream l2;
    l2 << "PFC pause frames " << totals.pfcPauseFrames;
    if (totals.pfcPauseFramesFromHosts > 0)
    {
        l2 << " (" << totals.pfcPauseFramesFromHosts << " from hosts)";
    }
    l2 << ", resumes " << totals.pfcResumeFrames << "; drops " << totals.drops
       << "; retransmissions " << totals.retransmissions << "; ECN marks " << totals.ecnMarks;
    text.push_back(l2.str());
    for (const auto& [table, k] : cacheSum)
    {
        const uint64_t lookups = k.hits + k.misses;
        std::ostringstream l;
        l.setf(std::ios::fixed);
        l.precision(2);
        l << "cache " << table << ": " << k.hits << " hits, " << k.misses << " misses ("
          << (lookups ? 100.0 * k.hits / lookups : 0.0) << " % hits), " << k.evictions
          << " evictions";
        text.push_back(l.str());
    }
    std::ostringstream l3;
    l3.setf(std::ios::fixed);
    l3.precision(3);
    l3 << "simulated " << simEnd.GetSeconds() * 1e3 << " ms in " << wall
       << " s wall: " << events / wall / 1e6 << " M events/s, "
       << totals.linkTransmissions / wall / 1e6 << " M link transmissions/s; peak RSS "
       << PeakRssMb() << " MiB";
    text.push_back(l3.str());
    text.push_back("outputs in " + outDir + "/");

    // 5. Outputs: all of them or none (RdmaOutputStage), each file whole.
    Simulator::Destroy();
    Config::Reset();
    if (!m_impl->write)
    {
        return;
    }
    RdmaOutputStage stage(outDir);
    try
    {
        stage.Open();
        stage.Write("fct.csv", RdmaFormatFctCsv(m_impl->records));
        stage.Write("fct.txt", RdmaFormatHpccFctTxt(m_impl->records));
        stage.Write("pfc.csv", stats.FormatPfcCsv());
        stage.Write("qlen.csv", stats.FormatQlenCsv());
        stage.Write("cache.csv", cacheCsv.str());
        stage.Write("summary.json", m_impl->summaryJson);
        pcap.Commit(stage.GetStageDir());
        if (const int signal = RdmaInterrupt::GetPending())
        {
            throw RdmaInterrupted(std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                      " while writing the outputs; nothing was written to " +
                                      outDir,
                                  signal);
        }
        stage.Commit();
    }
    catch (const RdmaInterrupted&)
    {
        throw;
    }
    catch (const std::runtime_error& e)
    {
        throw RdmaConfigError(std::string("output: ") + e.what());
    }
}

} // namespace ns3
