/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-experiment-spec.h"

#include "rdma-conga-fabric.h"

#include "ns3/double.h"
#include "ns3/int-header.h"
#include "ns3/object-factory.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-byte-size.h"
#include "ns3/rdma-cc-preset.h"
#include "ns3/rdma-connection-matrix.h"
#include "ns3/rdma-data-dir.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/rdma-flow-generator.h"
#include "ns3/rdma-flow-size-cdf.h"
#include "ns3/rdma-hpcc-config.h"
#include "ns3/rdma-hpcc-flow-file.h"
#include "ns3/rdma-hpcc-topology-reader.h"
#include "ns3/rdma-implied-settings.h"
#include "ns3/rdma-job-config.h"
#include "ns3/rdma-nic-preset.h"
#include "ns3/rdma-page-size.h"
#include "ns3/rdma-pcap-output.h"
#include "ns3/rdma-topology-helper.h"
#include "ns3/rdma-trim-config.h"
#include "ns3/rdma-unused-keys.h"
#include "ns3/rdma-wire.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/switch-ecn-params.h"
#include "ns3/switch-mmu.h"

#include <algorithm>
#include <dirent.h>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <sys/stat.h>

namespace ns3
{

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
    return RdmaDataDir() + "/cdf/" + it->second;
}

/// \return the rail fabric of the topology.rail keys \throws RdmaConfigError without collectives
RdmaTopologySpec
RailTopology(const RdmaConfig& c, const RdmaLinkParams tiers[3], double errorRate)
{
    if (c.Get("traffic.pattern") != "collective")
    {
        throw RdmaConfigError(c.GetOrigin("topology.type") +
                              ": topology.type = rail carries collective traffic only "
                              "(its GPUs' NVLink ports are hosts that reach their own "
                              "server only), not traffic.pattern = " +
                              c.Get("traffic.pattern"));
    }
    RdmaLinkParams intra;
    intra.rate = DataRate(c.GetBitRate("topology.rail.IntraServerRate"));
    intra.delay = c.GetTime("topology.rail.IntraServerDelay");
    intra.errorRate = errorRate;
    return RdmaTopologySpec::Rail(c.GetUinteger("topology.rail.Servers"),
                                  c.GetUinteger("topology.rail.GpusPerServer"),
                                  c.GetUinteger("topology.spines"),
                                  tiers[0],
                                  tiers[1],
                                  intra);
}

/// \return the topology topology.type names, not yet validated \throws RdmaConfigError
RdmaTopologySpec
BuildTopology(const RdmaConfig& c, const RdmaLinkParams tiers[3], double errorRate)
{
    const std::string type = c.Get("topology.type");
    if (type == "fat-tree")
    {
        return RdmaTopologySpec::FatTree(c.GetUinteger("topology.k"), tiers[0], tiers[1], tiers[2]);
    }
    if (type == "leaf-spine")
    {
        return RdmaTopologySpec::LeafSpine(c.GetUinteger("topology.leaves"),
                                           c.GetUinteger("topology.spines"),
                                           c.GetUinteger("topology.hostsPerLeaf"),
                                           tiers[0],
                                           tiers[1],
                                           c.GetDouble("topology.oversubscription"));
    }
    if (type == "dumbbell")
    {
        return RdmaTopologySpec::Dumbbell(c.GetUinteger("topology.left"),
                                          c.GetUinteger("topology.right"),
                                          tiers[0],
                                          tiers[1]);
    }
    if (type == "star")
    {
        return RdmaTopologySpec::Star(c.GetUinteger("topology.hosts"), tiers[0]);
    }
    if (type == "rail")
    {
        return RailTopology(c, tiers, errorRate);
    }
    if (type == "hpcc")
    {
        if (c.Get("topology.file").empty())
        {
            throw RdmaConfigError(c.GetOrigin("topology.type") +
                                  ": topology.type = hpcc needs topology.file");
        }
        return RdmaHpccTopologyReader::ReadFile(c.GetInputPath("topology.file"));
    }
    throw RdmaConfigError(c.GetOrigin("topology.type") + ": topology.type = '" + type +
                          "': expected fat-tree, leaf-spine, dumbbell, star, hpcc or rail");
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
        RdmaTopologySpec spec = BuildTopology(c, tiers, errorRate);
        const uint32_t planes = c.GetUinteger("topology.planes");
        if (planes > 1 && (type == "rail" || type == "hpcc"))
        {
            throw RdmaConfigError(c.GetOrigin("topology.planes") + ": topology.planes = " +
                                  c.Get("topology.planes") + ": topology.type = " + type +
                                  (type == "rail" ? " has one rail switch per NIC already (a "
                                                    "rail is a plane of its own)"
                                                  : " reads a file whose hosts have one link "
                                                    "each") +
                                  "; planes copy a generated fat-tree, leaf-spine, dumbbell or "
                                  "star");
        }
        if (planes > RdmaTopologySpec::MAX_PLANES)
        {
            throw RdmaConfigError(c.GetOrigin("topology.planes") + ": topology.planes = " +
                                  c.Get("topology.planes") + ": at most " +
                                  std::to_string(RdmaTopologySpec::MAX_PLANES));
        }
        spec = spec.WithPlanes(planes);
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

/// \return the flows of traffic.flowFile, its node ids turned into host indices
/// \throws RdmaConfigError
std::vector<RdmaFlow>
ReadFlowFile(const RdmaConfig& c, const RdmaTopologySpec& spec)
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
                throw RdmaConfigError(path + ": flow " + std::to_string(f.id) + " names node " +
                                      std::to_string(*end) +
                                      ", which is not a host of the topology");
            }
            *end = hostIndex[*end];
        }
    }
    return flows;
}

/// \return the flows of traffic.connectionMatrix (htsim's node i: host i), at
/// traffic.priority \param c the configuration \param nHosts the topology's hosts
/// \throws RdmaConfigError
std::vector<RdmaFlow>
ReadConnectionMatrix(const RdmaConfig& c, uint32_t nHosts)
{
    if (c.Get("traffic.connectionMatrix").empty())
    {
        throw RdmaConfigError(c.GetOrigin("traffic.pattern") +
                              ": traffic.pattern = connection-matrix needs "
                              "traffic.connectionMatrix");
    }
    const std::string path = c.GetInputPath("traffic.connectionMatrix");
    RdmaConnectionMatrix m = RdmaReadConnectionMatrix(path);
    if (m.nodes > nHosts)
    {
        throw RdmaConfigError(path + ": Nodes " + std::to_string(m.nodes) + ", but the topology has " +
                              std::to_string(nHosts) +
                              " hosts (htsim's node i is host i): give a topology with at least as "
                              "many");
    }
    const auto priority = static_cast<uint8_t>(c.GetUinteger("traffic.priority"));
    for (RdmaFlow& f : m.flows)
    {
        f.priority = priority;
    }
    return m.flows;
}

/// \return Poisson arrivals among these hosts at the load of loadKey (a
/// fraction of hostRate, the fabric's host link rate), over
/// traffic.duration from traffic.start, sizes from traffic.cdf
std::vector<RdmaFlow>
PoissonFlows(const RdmaConfig& c,
             RdmaFlowGenerator& gen,
             std::vector<uint32_t> hosts,
             const std::string& loadKey,
             DataRate hostRate)
{
    RdmaFlowGenerator::PoissonConfig pc;
    pc.hosts = std::move(hosts);
    // The links the hosts have: topology.hostRate for a generated fabric,
    // the file's for an HPCC topology file (where topology.hostRate is not used).
    pc.hostRate = hostRate;
    pc.load = c.GetDouble(loadKey);
    pc.start = c.GetTime("traffic.start");
    pc.duration = c.GetTime("traffic.duration");
    pc.priority = c.GetUinteger("traffic.priority");
    return gen.Poisson(pc, RdmaFlowSizeCdf::FromFile(CdfPath(c)));
}

/// \return the incast rounds, with traffic.background's Poisson victims
/// among the other hosts \throws RdmaConfigError
std::vector<RdmaFlow>
IncastFlows(const RdmaConfig& c,
            RdmaFlowGenerator& gen,
            const std::vector<uint32_t>& hosts,
            DataRate hostRate)
{
    RdmaFlowGenerator::IncastConfig ic;
    ic.receiver = c.GetUinteger("traffic.receiver");
    ic.hosts = hosts;
    ic.fanIn = c.GetUinteger("traffic.fanIn");
    ic.size = c.GetUinteger("traffic.size");
    ic.repeats = c.GetUinteger("traffic.repeats");
    ic.interval = c.GetTime("traffic.interval");
    ic.start = c.GetTime("traffic.start");
    ic.priority = c.GetUinteger("traffic.priority");
    const std::string background = c.Get("traffic.background");
    if (background == "none")
    {
        return gen.Incast(ic);
    }
    if (background != "poisson")
    {
        throw RdmaConfigError(c.GetOrigin("traffic.background") + ": traffic.background = '" +
                              background +
                              "': expected none or poisson beside an incast (a flow file goes "
                              "beside jobs, with traffic.pattern = collective)");
    }
    auto incast = gen.Incast(ic);
    std::vector<uint32_t> others;
    for (uint32_t h : hosts)
    {
        if (h != ic.receiver)
        {
            others.push_back(h);
        }
    }
    auto victims = PoissonFlows(c, gen, std::move(others), "traffic.backgroundLoad", hostRate);
    return RdmaFlowGenerator::Merge({incast, victims});
}

/// \return the flow generator, its streams from 1000 and the operation mix of
/// the traffic.*Weight keys \param c the configuration
Ptr<RdmaFlowGenerator>
MakeGenerator(const RdmaConfig& c)
{
    Ptr<RdmaFlowGenerator> gen = CreateObject<RdmaFlowGenerator>();
    gen->AssignStreams(1000);
    gen->SetOperationMix(c.GetDouble("traffic.writeWeight"),
                         c.GetDouble("traffic.readWeight"),
                         c.GetDouble("traffic.sendWeight"));
    return gen;
}

/// \return the flows traffic.pattern's generator draws among nHosts hosts
/// \throws RdmaConfigError
std::vector<RdmaFlow>
GenerateFlows(const RdmaConfig& c, const std::string& pattern, uint32_t nHosts, DataRate hostRate)
{
    std::vector<uint32_t> hosts(nHosts);
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        hosts[i] = i;
    }
    Ptr<RdmaFlowGenerator> gen = MakeGenerator(c);
    if (pattern == "poisson")
    {
        return PoissonFlows(c, *gen, hosts, "traffic.load", hostRate);
    }
    if (pattern == "incast")
    {
        return IncastFlows(c, *gen, hosts, hostRate);
    }
    RdmaFlowGenerator::PatternConfig pc;
    pc.hosts = hosts;
    pc.size = c.GetUinteger("traffic.size");
    pc.start = c.GetTime("traffic.start");
    pc.priority = c.GetUinteger("traffic.priority");
    if (pattern == "permutation")
    {
        return gen->Permutation(pc);
    }
    if (pattern == "all-to-all")
    {
        return gen->AllToAll(pc);
    }
    throw RdmaConfigError(c.GetOrigin("traffic.pattern") + ": traffic.pattern = '" + pattern +
                          "': expected poisson, incast, permutation, all-to-all, flow-file, "
                          "connection-matrix or collective");
}

/**
 * \return the flows beside the jobs (traffic.pattern = collective) that
 * traffic.background asks for: none; Poisson arrivals among the fabric's
 * hosts (a rail fabric's GPU NICs, not their NVLink ports) at
 * traffic.backgroundLoad; or traffic.flowFile's flows, which may name NICs
 * only \param c the configuration \param spec the topology
 * \throws RdmaConfigError
 */
std::vector<RdmaFlow>
BackgroundFlows(const RdmaConfig& c, const RdmaTopologySpec& spec)
{
    const std::string background = c.Get("traffic.background");
    if (background == "none")
    {
        return {};
    }
    // A rail fabric's NICs are host indices 0 .. GPUs - 1; its NVLink ports
    // reach their own server only.
    const uint32_t nics = spec.servers.count > 0 ? spec.servers.GetGpus() : spec.GetNHosts();
    try
    {
        if (background == "flow-file")
        {
            if (c.Get("traffic.flowFile").empty())
            {
                throw RdmaConfigError(c.GetOrigin("traffic.background") +
                                      ": traffic.background = flow-file needs traffic.flowFile");
            }
            std::vector<RdmaFlow> flows = ReadFlowFile(c, spec);
            for (const RdmaFlow& f : flows)
            {
                if (f.src >= nics || f.dst >= nics)
                {
                    throw RdmaConfigError(
                        c.GetInputPath("traffic.flowFile") + ": flow " + std::to_string(f.id) +
                        " names node " + std::to_string(std::max(f.src, f.dst)) +
                        ", a GPU's NVLink port: flows beside the jobs go between NICs (nodes 0 "
                        ".. " +
                        std::to_string(nics - 1) + ")");
                }
            }
            return flows;
        }
        std::vector<uint32_t> hosts(nics);
        for (uint32_t i = 0; i < nics; ++i)
        {
            hosts[i] = i;
        }
        return PoissonFlows(c,
                            *MakeGenerator(c),
                            hosts,
                            "traffic.backgroundLoad",
                            spec.GetHostLinkRate());
    }
    catch (const RdmaConfigError&)
    {
        throw;
    }
    catch (const std::exception& e)
    {
        throw RdmaConfigError("traffic (background " + background + "): " + e.what());
    }
}

/// \return the workload \throws RdmaConfigError
std::vector<RdmaFlow>
MakeFlows(const RdmaConfig& c, const RdmaTopologySpec& spec, uint32_t nHosts)
{
    const std::string pattern = c.Get("traffic.pattern");
    try
    {
        if (pattern == "connection-matrix")
        {
            return ReadConnectionMatrix(c, nHosts);
        }
        return pattern == "flow-file"
                   ? ReadFlowFile(c, spec)
                   : GenerateFlows(c, pattern, nHosts, spec.GetHostLinkRate());
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
    if (!RdmaPathMtu::IsValidBytes(mtu))
    {
        throw RdmaConfigError(c.GetOrigin("transport.pathMtu") + ": transport.pathMtu = " +
                              std::to_string(mtu) + ": expected " + RdmaPathMtu::Rule());
    }
    cc.pathMtu = RdmaPathMtu::FromBytes(mtu);
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
                                                          {"nscc", "ns3::RdmaNscc"},
                                                          {"none", "ns3::RdmaNoCc"}};
    const std::string algo = c.Get("cc.algorithm");
    auto it = types.find(algo);
    if (it == types.end())
    {
        throw RdmaConfigError(c.GetOrigin("cc.algorithm") + ": cc.algorithm = '" + algo +
                              "': expected dcqcn, hpcc, timely, dctcp, swift, nscc or none");
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
    if (algo == "nscc" && c.GetUinteger("switch.trim.Classes") != 0 &&
        c.GetOrigin("cc.nscc.TargetBaseRtts") == "default")
    {
        // UEC's reference model: a trimming network targets 0.75 base RTT.
        f.Set("TargetBaseRtts", DoubleValue(0.75));
    }
    return f;
}

/**
 * \brief Check each table's cache geometry and backing store, which the
 * caches would otherwise refuse mid-run (NicCache, NicMemory abort):
 * Entries a multiple of Ways, Tenants at most Ways, a CardDram store with a
 * positive DramBandwidth.
 * \param c the configuration \throws RdmaConfigError
 */
void
CheckCaches(const RdmaConfig& c)
{
    for (const char* table : {"qpc", "mpt", "mtt"})
    {
        const std::string g = std::string("cache.") + table;
        const uint64_t entries = c.GetUinteger(g + ".Entries");
        const uint64_t ways = c.GetUinteger(g + ".Ways");
        if (ways == 0 || ways > entries || entries % ways != 0)
        {
            // Name the key the user set (Ways if both).
            const std::string key =
                c.GetOrigin(g + ".Ways") != "default" ? g + ".Ways" : g + ".Entries";
            throw RdmaConfigError(c.GetOrigin(key) + ": " + key + " = " + c.Get(key) +
                                  ": expected " + g + ".Entries (" + std::to_string(entries) +
                                  ") to be a multiple of " + g + ".Ways (" + std::to_string(ways) +
                                  ")");
        }
        const uint64_t tenants = c.GetUinteger(g + ".Tenants");
        if (tenants > ways)
        {
            throw RdmaConfigError(c.GetOrigin(g + ".Tenants") + ": " + g + ".Tenants = " +
                                  c.Get(g + ".Tenants") + ": expected at most " + g + ".Ways (" +
                                  std::to_string(ways) + "): each tenant needs a way of its own");
        }
        const std::string bandwidth = g + ".memory.DramBandwidth";
        if (c.Get(g + ".memory.Kind") == "CardDram" && c.GetBitRate(bandwidth) == 0)
        {
            throw RdmaConfigError(c.GetOrigin(bandwidth) + ": " + bandwidth + " = " +
                                  c.Get(bandwidth) + ": expected a positive rate (" + g +
                                  ".memory.Kind = CardDram)");
        }
    }
}

/**
 * \return sim.maxMemory's limit, bytes (0: none) \param c the configuration
 * \param source receives where it comes from, for an error
 */
uint64_t
MemoryLimit(const RdmaConfig& c, std::string& source)
{
    const std::string value = c.Get("sim.maxMemory");
    uint64_t limit = 0;
    if (value == "available")
    {
        limit = RdmaAvailableMemory();
        source = "the machine's available memory (MemAvailable, /proc/meminfo)";
        const uint32_t here = RdmaLocalRanks();
        if (here > 1)
        {
            limit /= here;
            source += " shared by the " + std::to_string(here) + " ranks on this machine";
        }
        if (c.GetOrigin("sim.maxMemory") != "default")
        {
            source += ", sim.maxMemory = available, " + c.GetOrigin("sim.maxMemory");
        }
    }
    else
    {
        RdmaParseByteSize(value, &limit); // the key's checker accepted it
        source = "sim.maxMemory = " + value + ", " + c.GetOrigin("sim.maxMemory");
    }
    return limit;
}

/**
 * \brief Refuse a run whose estimated memory is above sim.maxMemory (the
 * machine's available memory by default), before it is built: a run that
 * does not fit would otherwise build until the kernel kills it.
 * \param c the configuration
 * \param estimate the run's estimate
 * \param what what the estimate covers: "this run" or "this fabric alone"
 * \return what was checked: "<what> needs about X, within the limit of Y (source)"
 * \throws RdmaConfigError
 */
std::string
CheckMemory(const RdmaConfig& c, const RdmaMemoryEstimate& estimate, const std::string& what)
{
    std::string source;
    const uint64_t limit = MemoryLimit(c, source);
    if (limit == 0 || estimate.GetTotalBytes() <= limit)
    {
        return what + " needs about " + RdmaFormatByteSize(estimate.GetTotalBytes()) +
               (limit == 0
                    ? std::string(" (no limit known)")
                    : ", within the limit of " + RdmaFormatByteSize(limit) + " (" + source + ")");
    }
    throw RdmaConfigError(
        "sim.maxMemory: " + what + " needs about " + RdmaFormatByteSize(estimate.GetTotalBytes()) +
        " to build (" + estimate.Describe() + "), more than the limit of " +
        RdmaFormatByteSize(limit) + " (" + source +
        "); nothing was built. Make the topology or workload smaller, or, if the estimate is "
        "too high for this run, raise the limit with --sim.maxMemory=SIZE (for example "
        "--sim.maxMemory=" +
        std::to_string((estimate.GetTotalBytes() >> 30) + 1) + "GiB)");
}

/**
 * \brief Refuse a generated fabric that cannot fit from its sizes alone,
 * before it is built (RdmaMemoryEstimate::CountFatTree and the others): a
 * star of 10^8 hosts is refused at once, not after minutes of building its
 * links. Sizes its generator refuses, topology files and the workload wait
 * for the full check after the topology is built.
 * \param c the configuration \throws RdmaConfigError
 */
void
CheckFabricFits(const RdmaConfig& c)
{
    const std::string type = c.Get("topology.type");
    RdmaMemoryEstimate::Counts counts;
    if (type == "fat-tree")
    {
        const uint64_t k = c.GetUinteger("topology.k");
        if (k < 2 || k % 2 != 0)
        {
            return;
        }
        counts = RdmaMemoryEstimate::CountFatTree(k);
    }
    else if (type == "leaf-spine")
    {
        counts = RdmaMemoryEstimate::CountLeafSpine(c.GetUinteger("topology.leaves"),
                                                    c.GetUinteger("topology.spines"),
                                                    c.GetUinteger("topology.hostsPerLeaf"));
    }
    else if (type == "dumbbell")
    {
        counts = RdmaMemoryEstimate::CountDumbbell(c.GetUinteger("topology.left"),
                                                   c.GetUinteger("topology.right"));
    }
    else if (type == "star")
    {
        counts = RdmaMemoryEstimate::CountStar(c.GetUinteger("topology.hosts"));
    }
    else
    {
        return;
    }
    const uint64_t planes = c.GetUinteger("topology.planes");
    counts.switches *= planes;
    counts.links *= planes;
    counts.routeHops *= planes;
    counts.pipelines = c.GetBool("nic.pipeline") ? counts.hosts : 0;
    const uint64_t world = RdmaPartition::GetWorldSize();
    std::string what = "this fabric alone";
    if (world > 1)
    {
        // A rank builds its hosts, switches and links (a link between two
        // ranks on both), so the largest rank's part is at least the
        // average.
        counts.hosts = (counts.hosts + world - 1) / world;
        counts.switches = (counts.switches + world - 1) / world;
        counts.links = (counts.links + world - 1) / world;
        counts.routeHops = (counts.routeHops + world - 1) / world;
        what = "a rank's part of this fabric alone (" + std::to_string(world) + " ranks)";
    }
    CheckMemory(c, RdmaMemoryEstimate(counts, RdmaMemoryEstimate::GetMeasuredCosts()), what);
}

/**
 * \return what an error about a derived value adds: the keys it derives from
 * that were set (not left at their defaults), each with its value and origin,
 * so the user sees which of their inputs led there ("" if none was set)
 * \param c the configuration
 * \param keys the keys the value derives from
 */
std::string
SetInputs(const RdmaConfig& c, std::initializer_list<const char*> keys)
{
    std::string text;
    for (const char* k : keys)
    {
        if (c.GetOrigin(k) != "default")
        {
            text += std::string(text.empty() ? "; from " : ", ") + k + " = " + c.Get(k) + " (" +
                    c.GetOrigin(k) + ")";
        }
    }
    return text;
}

/**
 * \brief Refuse a switch whose ports' reserve and PFC headroom take the
 * whole buffer (SwitchMmu::AddPort would abort while building): a large
 * radix at the default pfc.BufferSize.
 * \param c the configuration
 * \param t the validated topology
 * \throws RdmaConfigError naming pfc.BufferSize, the switch and the bytes
 */
void
CheckSwitchBuffers(const RdmaConfig& c, const RdmaTopologySpec& t)
{
    const uint64_t buffer = c.GetUinteger("pfc.BufferSize");
    const uint64_t mask = c.GetBool("pfc.PfcEnabled") ? c.GetUinteger("pfc.LosslessClasses") : 0;
    const uint32_t lossless = static_cast<uint32_t>(__builtin_popcountll(mask & 0xFF));
    const uint32_t maxFrame = static_cast<uint32_t>(c.GetUinteger("link.Mtu")) +
                              RdmaWire::ETHERNET_HEADER_BYTES + RdmaWire::VLAN_TAG_BYTES;
    const uint64_t reserved = c.GetUinteger("pfc.ReservedBytes");
    const uint64_t headroom = c.GetUinteger("pfc.HeadroomBytes");
    std::vector<uint64_t> fixed(t.GetNNodes(), 0);
    std::vector<uint32_t> ports(t.GetNNodes(), 0);
    for (const auto& l : t.links)
    {
        for (uint32_t end : {l.a, l.b})
        {
            if (t.isSwitch[end])
            {
                fixed[end] += SwitchMmu::PortFixedBytes(reserved,
                                                        headroom,
                                                        lossless,
                                                        l.rate,
                                                        l.delay,
                                                        maxFrame);
                ++ports[end];
            }
        }
    }
    for (uint32_t u = 0; u < t.GetNNodes(); ++u)
    {
        if (fixed[u] >= buffer)
        {
            throw RdmaConfigError(
                c.GetOrigin("pfc.BufferSize") + ": pfc.BufferSize = " + std::to_string(buffer) +
                " bytes is not larger than what the " + std::to_string(ports[u]) +
                " ports of switch node " + std::to_string(u) + " reserve before any frame (" +
                std::to_string(fixed[u]) +
                " bytes: pfc.ReservedBytes plus the PFC headroom of each port and lossless "
                "class, IEEE 802.1Qbb delay model): raise pfc.BufferSize, or lower "
                "pfc.ReservedBytes or pfc.HeadroomBytes" +
                SetInputs(c,
                          {"topology.linkDelay",
                           "topology.hostRate",
                           "topology.fabricRate",
                           "topology.coreRate",
                           "topology.file",
                           "link.Mtu",
                           "pfc.ReservedBytes",
                           "pfc.HeadroomBytes",
                           "pfc.LosslessClasses"}));
        }
    }
}

/**
 * \brief With INT on (HPCC), refuse a link whose rate has no INT rate code:
 * its hop records could not carry it (IntHeader::HasRateCode).
 * \param c the configuration, implied settings applied
 * \param t the topology
 * \throws RdmaConfigError naming the key that set the rate (or the file's link)
 */
void
CheckIntRates(const RdmaConfig& c, const RdmaTopologySpec& t)
{
    if (!c.GetBool("switch.IntEnabled") && !c.GetBool("nic.IntEnabled"))
    {
        return;
    }
    const bool rail = t.servers.count > 0;
    for (const auto& l : t.links)
    {
        if (IntHeader::HasRateCode(l.rate))
        {
            continue;
        }
        const std::string key = c.Get("topology.type") == "hpcc"
                                    ? l.where
                                    : (rail && l.tier == 2
                                           ? std::string("topology.rail.IntraServerRate")
                                           : std::string(l.tier == 0   ? "topology.hostRate"
                                                         : l.tier == 1 ? "topology.fabricRate"
                                                                       : "topology.coreRate"));
        const std::string where =
            c.Get("topology.type") == "hpcc" ? key : c.GetOrigin(key) + ": " + key + " = " + c.Get(key);
        throw RdmaConfigError(where + ": INT (switch.IntEnabled or nic.IntEnabled, as "
                              "cc.algorithm = hpcc sets them) records a link's rate in 3 bits: "
                              "10, 25, 40, 50, 100, 200, 400 or 800 Gb/s, not " +
                              std::to_string(l.rate.GetBitRate()) + " bit/s");
    }
}

} // namespace

RdmaExperimentSpec::RdmaExperimentSpec(const RdmaConfig& configIn, bool write, bool force)
    : config(configIn)
{
    RdmaConfig& c = config;
    // The keys the user set, before hpcc.config, cc.preset and the implied
    // settings fill others: only these can be "not used" (the embedded
    // default experiment's are rdma-sim's, not the user's).
    std::vector<std::string> userKeys = RdmaSetKeys(c);
    userKeys.erase(std::remove_if(userKeys.begin(),
                                  userKeys.end(),
                                  [&c](const std::string& k) {
                                      return c.GetOrigin(k).rfind(
                                                 RdmaDefaultExperimentName(), 0) == 0;
                                  }),
                   userKeys.end());
    ApplyHpccConfig(c);
    CheckOutputDir(c, write, force);
    ReadRun(c);
    CheckFabricFits(c);
    topology = MakeTopology(c, tiers);
    // cc.preset fills the keys the user left at their defaults; hpcc-sim scales
    // by the NIC rate, the first host's link rate (as the HPCC simulator's
    // get_nic_rate).
    RdmaApplyCcPreset(c, topology.GetHostLinkRate());
    RdmaApplyNicPreset(c);
    RdmaApplyImpliedSettings(c);
    CheckSwitchBuffers(c, topology);
    CheckIntRates(c, topology);
    ReadCaptureAndFailures(c);
    ChooseIcrc(c);
    MakeTraffic(c);
    ReadTransport(c);
    ReadNic(c);
    ReadEcn(c);
    WarnUnmarkable(c);
    WarnSlowPcie(c);
    memory = RdmaMemoryEstimate(topology, flows, pipeline);
    if (RdmaPartition::GetWorldSize() <= 1)
    {
        memoryCheck = CheckMemory(c, memory, "this run");
    }
    MakePartition(c);
    CheckPartMemory(c);
    CheckRanks(c);
    for (const RdmaUnusedKey& u : RdmaUnusedKeys(c, userKeys, partition.ranks))
    {
        Warn(u.warning);
    }
}

void
RdmaExperimentSpec::Warn(const std::string& w)
{
    warnings.push_back(w);
    std::cerr << "rdma-sim: warning: " << w << "\n";
}

void
RdmaExperimentSpec::ApplyHpccConfig(RdmaConfig& c)
{
    if (!c.Get("hpcc.config").empty())
    {
        // An HPCC simulator config.txt under the INI file and command line.
        for (const auto& w : RdmaApplyHpccConfig(c, c.GetPath("hpcc.config")))
        {
            Warn(w);
        }
    }
}

void
RdmaExperimentSpec::CheckOutputDir(const RdmaConfig& c, bool write, bool force)
{
    outDir = c.Get("output.dir");
    const int state = FolderState(outDir);
    if (write && state < 0)
    {
        throw RdmaConfigError(c.GetOrigin("output.dir") + ": output.dir = " + outDir +
                              " exists and is not a folder");
    }
    if (write && state == 2 && !force)
    {
        throw RdmaConfigError(c.GetOrigin("output.dir") + ": output.dir = " + outDir +
                              " is not empty (use --force to write into it)");
    }
}

void
RdmaExperimentSpec::ReadRun(const RdmaConfig& c)
{
    seed = c.GetUinteger("sim.seed");
    if (seed == 0)
    {
        throw RdmaConfigError(c.GetOrigin("sim.seed") + ": sim.seed must be >= 1");
    }
    // The seed first: the traffic generator draws as soon as it is made.
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);
    stopTime = c.GetTime("sim.stopTime");
    scheduler = c.Get("sim.scheduler");
    fastForward = c.Get("sim.fastForward");
    TypeId schedulerTid;
    if (!TypeId::LookupByNameFailSafe(scheduler, &schedulerTid) ||
        !schedulerTid.IsChildOf(TypeId::LookupByName("ns3::Scheduler")))
    {
        throw RdmaConfigError(c.GetOrigin("sim.scheduler") + ": sim.scheduler = '" + scheduler +
                              "': expected an ns-3 Scheduler TypeId such as ns3::HeapScheduler");
    }
    qlenInterval = c.GetTime("output.qlenInterval");
}

void
RdmaExperimentSpec::ReadCaptureAndFailures(const RdmaConfig& c)
{
    try
    {
        pcapNodes = RdmaPcapOutput::ParseNodes(c.Get("output.pcapNodes"), topology.GetNNodes());
    }
    catch (const std::invalid_argument& e)
    {
        throw RdmaConfigError(c.GetOrigin("output.pcapNodes") + ": output.pcapNodes = '" +
                              c.Get("output.pcapNodes") + "': " + e.what());
    }
    std::vector<RdmaLinkFailure> failures[3];
    const char* const keys[] = {"topology.failLinks", "topology.failNodes", "topology.failPlanes"};
    for (int k = 0; k < 3; ++k)
    {
        try
        {
            failures[k] = k == 0   ? RdmaParseLinkFailures(c.Get(keys[k]), topology)
                          : k == 1 ? RdmaParseNodeFailures(c.Get(keys[k]), topology)
                                   : RdmaParsePlaneFailures(c.Get(keys[k]), topology);
        }
        catch (const std::invalid_argument& e)
        {
            throw RdmaConfigError(c.GetOrigin(keys[k]) + ": " + keys[k] + " = '" +
                                  c.Get(keys[k]) + "': " + e.what());
        }
    }
    failures[1].insert(failures[1].end(), failures[2].begin(), failures[2].end());
    linkFailures = failures[1].empty() ? failures[0] : RdmaJoinFailures(failures[0], failures[1]);
    routeConvergence = c.GetTime("topology.routeConvergence");
    try
    {
        slowLinks = RdmaParseSlowLinks(c.Get("topology.slowLinks"), topology);
    }
    catch (const std::invalid_argument& e)
    {
        throw RdmaConfigError(c.GetOrigin("topology.slowLinks") + ": topology.slowLinks = '" +
                              c.Get("topology.slowLinks") + "': " + e.what());
    }
}

void
RdmaExperimentSpec::ChooseIcrc(const RdmaConfig& c)
{
    const std::string icrcMode = c.Get("sim.icrc");
    if (icrcMode != "auto" && icrcMode != "on" && icrcMode != "off")
    {
        throw RdmaConfigError(c.GetOrigin("sim.icrc") + ": sim.icrc = '" + icrcMode +
                              "': expected auto, on or off");
    }
    // Lossy links corrupt frames (QbbNetDevice::CorruptCopy): only an ICRC
    // check turns that into a loss, so lossy fabrics check it.
    bool lossy = false;
    for (const auto& l : topology.links)
    {
        lossy = lossy || l.errorRate > 0;
    }
    verifyIcrc = c.GetBool("nic.VerifyIcrc");
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
    icrc = icrcMode == "on" || (icrcMode == "auto" && icrcRead);
}

void
RdmaExperimentSpec::MakeTraffic(const RdmaConfig& c)
{
    Time trafficEnd(0);
    if (c.Get("traffic.pattern") == "collective")
    {
        std::vector<std::string> jobWarnings;
        RdmaScheduleLimit limit;
        limit.bytes = MemoryLimit(c, limit.source);
        jobs = RdmaMakeJobs(c, topology, &jobWarnings, limit);
        for (const auto& w : jobWarnings)
        {
            Warn(w);
        }
        for (const auto& j : jobs)
        {
            trafficEnd = std::max(trafficEnd, j.start);
        }
        flows = BackgroundFlows(c, topology);
        if (!flows.empty())
        {
            WarnMixedHostRates(c);
        }
    }
    else
    {
        RdmaRefuseJobKeys(c);
        flows = MakeFlows(c, topology, topology.GetNHosts());
        WarnMixedHostRates(c);
    }
    for (const auto& f : flows)
    {
        trafficEnd = std::max(trafficEnd, f.start);
    }
    if (stopTime <= trafficEnd)
    {
        throw RdmaConfigError(c.GetOrigin("sim.stopTime") + ": sim.stopTime = '" +
                              c.Get("sim.stopTime") + "': expected a time after the traffic's " +
                              "last arrival, at " + std::to_string(trafficEnd.GetSeconds() * 1e3) +
                              " ms" +
                              SetInputs(c,
                                        {"traffic.start",
                                         "traffic.duration",
                                         "traffic.flowFile",
                                         "traffic.connectionMatrix",
                                         "traffic.repeats",
                                         "traffic.interval",
                                         "job.stagger",
                                         "job.count"}));
    }
}

void
RdmaExperimentSpec::WarnMixedHostRates(const RdmaConfig& c)
{
    if (!RdmaDrawsPoisson(c))
    {
        return;
    }
    uint64_t lo = UINT64_MAX;
    uint64_t hi = 0;
    // A rail fabric's flows go between its NICs (node ids 0 .. GPUs - 1),
    // not its NVLink ports.
    const uint32_t nics = topology.servers.count > 0 ? topology.servers.GetGpus() : UINT32_MAX;
    for (const auto& l : topology.links)
    {
        const uint32_t host = topology.isSwitch[l.a] ? l.b : l.a;
        if ((!topology.isSwitch[l.a] || !topology.isSwitch[l.b]) && host < nics)
        {
            lo = std::min(lo, l.rate.GetBitRate());
            hi = std::max(hi, l.rate.GetBitRate());
        }
    }
    if (lo < hi)
    {
        std::ostringstream w;
        w << "the hosts' links run at " << lo / 1e9 << " to " << hi / 1e9
          << " Gb/s: Poisson arrivals take every host's load as a fraction of the first host "
             "link's rate, "
          << topology.GetHostLinkRate().GetBitRate() / 1e9 << " Gb/s";
        Warn(w.str());
    }
}

void
RdmaExperimentSpec::ReadTransport(const RdmaConfig& c)
{
    connection = MakeConnection(c);
    mtuBytes = RdmaMtuBytes(connection.pathMtu);
    congestionControl = MakeCongestionControl(c);
    lossRecovery = MakeLossRecovery(c, c.GetUinteger("transport.pathMtu"));
    irnBdpSet = c.GetOrigin("transport.irn.BdpBytes") != "default";
    trimmedDscp = RdmaReadTrimming(c, connection.trafficClass);
}

void
RdmaExperimentSpec::ReadNic(const RdmaConfig& c)
{
    pipeline = c.GetBool("nic.pipeline");
    census = c.GetBool("sim.census");
    if (c.GetBool("nic.tx.ByTenant") && c.Get("nic.tx.Mode") == "DeficitRoundRobin")
    {
        // Tenants take a packet a turn (RdmaTxRound); a deficit is per QP.
        throw RdmaConfigError(c.GetOrigin("nic.tx.ByTenant") +
                              ": nic.tx.ByTenant = true: expected nic.tx.Mode = RoundRobin "
                              "(tenants take a packet a turn), not DeficitRoundRobin (" +
                              c.GetOrigin("nic.tx.Mode") + ")");
    }
    const uint64_t pageBytes = c.GetUinteger("cache.mtt.PageBytes");
    if (!RdmaPageSize::IsValid(pageBytes))
    {
        throw RdmaConfigError(c.GetOrigin("cache.mtt.PageBytes") +
                              ": cache.mtt.PageBytes = " + std::to_string(pageBytes) +
                              ": expected " + RdmaPageSize::Rule());
    }
    if (pipeline)
    {
        CheckCaches(c);
        for (uint32_t t = 0; t < RdmaNicTables::N_TABLES; ++t)
        {
            const std::string g = std::string("cache.") +
                                  RdmaNicTables::GetTableName(static_cast<RdmaNicTables::Table>(t));
            caches.push_back({c.GetGroupValues(g), c.GetGroupValues(g + ".memory")});
        }
    }
    baseRttSet = c.GetOrigin("nic.BaseRtt") != "default";
    rxBufferOrigin = c.GetOrigin("nic.rx.BufferBytes");
}

void
RdmaExperimentSpec::WarnSlowPcie(const RdmaConfig& c)
{
    if (!pipeline)
    {
        return;
    }
    ObjectFactory f("ns3::PcieLink");
    for (const auto& [attribute, value] : c.GetGroupValues("pcie"))
    {
        f.Set(attribute, StringValue(value));
    }
    const DataRate writes = f.Create<PcieLink>()->GetWriteThroughput(mtuBytes);
    const DataRate port = topology.GetHostLinkRate();
    if (writes < port)
    {
        std::ostringstream w;
        w << "the NICs' PCIe link writes " << mtuBytes << "-byte payloads at "
          << std::setprecision(3) << writes.GetBitRate() / 1e9 << " Gb/s, below the "
          << port.GetBitRate() / 1e9 << " Gb/s host links (pcie keys"
          << (c.Get("nic.preset") == "none" ? "" : ", nic.preset = " + c.Get("nic.preset"))
          << "): a receiver at line rate fills its receive buffer and pauses its switch";
        Warn(w.str());
    }
}

void
RdmaExperimentSpec::ReadEcn(const RdmaConfig& c)
{
    ecn.kminBytes = c.GetUinteger("ecn.kmin");
    ecn.kmaxBytes = c.GetUinteger("ecn.kmax");
    ecn.pmax = c.GetDouble("ecn.pmax");
    if (ecn.kminBytes > ecn.kmaxBytes)
    {
        const bool kmaxSet = c.GetOrigin("ecn.kmax") != "default";
        const std::string key = kmaxSet ? "ecn.kmax" : "ecn.kmin";
        throw RdmaConfigError(c.GetOrigin(key) + ": ecn.kmin = " +
                              std::to_string(ecn.kminBytes) + " bytes, ecn.kmax = " +
                              std::to_string(ecn.kmaxBytes) +
                              " bytes: expected kmin <= kmax (RED's thresholds; both 0: per link "
                              "rate)");
    }
    if (ecn.pmax < 0 || ecn.pmax > 1)
    {
        throw RdmaConfigError(c.GetOrigin("ecn.pmax") + ": ecn.pmax = " + c.Get("ecn.pmax") +
                              ": expected a probability in [0, 1]");
    }
}

void
RdmaExperimentSpec::WarnUnmarkable(const RdmaConfig& c)
{
    const std::string algo = c.Get("cc.algorithm");
    if (!c.GetBool("switch.EcnEnabled") ||
        (algo != "dcqcn" && algo != "dctcp" && algo != "nscc" && c.Get("nic.Entropy") != "reps" &&
         c.Get("nic.Entropy") != "mixed"))
    {
        return;
    }
    // A queue never holds more than the shared buffer: at or above it, RED
    // never marks. The per-rate thresholds are lowest on the slowest port.
    const uint64_t buffer = c.GetUinteger("pfc.BufferSize");
    uint64_t slowest = UINT64_MAX;
    for (const auto& l : topology.links)
    {
        if (topology.isSwitch[l.a] || topology.isSwitch[l.b])
        {
            slowest = std::min(slowest, l.rate.GetBitRate());
        }
    }
    const bool perRate = ecn.kminBytes == 0 && ecn.kmaxBytes == 0;
    if (slowest == UINT64_MAX)
    {
        return;
    }
    const uint64_t kmin = perRate ? SwitchEcnParams::ForRate(DataRate(slowest)).kminBytes
                                  : ecn.kminBytes;
    if (kmin < buffer)
    {
        return;
    }
    std::ostringstream w;
    w << (perRate ? c.GetOrigin("pfc.BufferSize") : c.GetOrigin("ecn.kmin")) << ": ecn.kmin ("
      << kmin << " bytes" << (perRate ? ", the per-rate default on every switch port" : "")
      << ") is not below the switch buffer (pfc.BufferSize = " << buffer
      << " bytes): no frame can be marked CE, so " << algo
      << " gets no ECN signal; set ecn.kmin and ecn.kmax below the buffer";
    Warn(w.str());
}

void
RdmaExperimentSpec::CheckRanks(const RdmaConfig& c)
{
    if (partition.ranks > 1 && scheduler != "ns3::RdmaEventScheduler")
    {
        throw RdmaConfigError(c.GetOrigin("sim.scheduler") + ": sim.scheduler = " + scheduler +
                              " orders simultaneous events by when each rank scheduled them; " +
                              std::to_string(partition.ranks) +
                              " ranks (sim.ranks) need ns3::RdmaEventScheduler, the default");
    }
    CheckConga(c);
    CheckJobRanks(c);
    if (fastForward != "off" && jobs.size() == 1 && !flows.empty())
    {
        // A replay would not see the flows on the job's links.
        Warn(c.GetOrigin("sim.fastForward") + ": sim.fastForward = " + fastForward +
             ": flows run beside the job (traffic.background), which a replayed "
             "collective would not see; every packet is simulated");
    }
    else if (fastForward != "off" && jobs.size() == 1 && !linkFailures.empty())
    {
        // A replay would not see a link fail inside it.
        Warn(c.GetOrigin("sim.fastForward") + ": sim.fastForward = " + fastForward +
             ": links fail in this run (topology.failLinks, topology.failNodes, "
             "topology.failPlanes), "
             "which a replayed collective would not see; every packet is "
             "simulated");
    }
    if (fastForward != "off" && jobs.size() != 1)
    {
        Warn(c.GetOrigin("sim.fastForward") + ": sim.fastForward = " + fastForward +
             ": only the collectives of a single job are replayed (" +
             (jobs.empty() ? std::string("here: flows") : std::to_string(jobs.size()) + " jobs") +
             "); every packet is simulated");
    }
    if (fastForward != "off" && partition.ranks > 1)
    {
        throw RdmaConfigError(c.GetOrigin("sim.fastForward") + ": sim.fastForward = " +
                              fastForward + ": its replays are kept per process, not agreed "
                              "across MPI ranks; run it on one rank, not " +
                              std::to_string(partition.ranks) + " (sim.ranks)");
    }
}

void
RdmaExperimentSpec::CheckJobRanks(const RdmaConfig& c) const
{
    if (jobs.empty() || partition.ranks <= 1)
    {
        return;
    }
    // A job rank's state (its place in the schedule, its dependencies) is
    // updated by completions at both of its hosts: they must share an MPI rank.
    std::vector<uint32_t> hostNode;
    for (uint32_t u = 0; u < topology.GetNNodes(); ++u)
    {
        if (!topology.isSwitch[u])
        {
            hostNode.push_back(u);
        }
    }
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        for (uint32_t r = 0; r < jobs[j].intraHosts.size(); ++r)
        {
            const uint32_t nic = hostNode[jobs[j].hosts[r]];
            const uint32_t intra = hostNode[jobs[j].intraHosts[r]];
            if (partition.rankOf[nic] != partition.rankOf[intra])
            {
                const std::string key =
                    c.Get("sim.partition").empty() ? "sim.partitionRule" : "sim.partition";
                throw RdmaConfigError(
                    c.GetOrigin(key) + ": " + key + " (" + partition.rule + ") puts job " +
                    std::to_string(j) + " rank " + std::to_string(r) + "'s NIC (node " +
                    std::to_string(nic) + ") on MPI rank " + std::to_string(partition.rankOf[nic]) +
                    " and its intra-server port (node " + std::to_string(intra) + ") on " +
                    std::to_string(partition.rankOf[intra]) +
                    ": a GPU's two hosts must share a rank (sim.partitionRule = by-server keeps "
                    "each server on one)");
            }
        }
    }
}

void
RdmaExperimentSpec::CheckConga(const RdmaConfig& c)
{
    conga = c.Get("switch.LoadBalancing") == "Conga";
    if (!conga)
    {
        return;
    }
    const std::string where = c.GetOrigin("switch.LoadBalancing") + ": switch.LoadBalancing = Conga";
    try
    {
        RdmaCongaFabric::Describe(topology);
    }
    catch (const RdmaTopologyError& e)
    {
        throw RdmaConfigError(where + ": " + e.what());
    }
    if (partition.ranks > 1)
    {
        throw RdmaConfigError(where + ": CONGA's overlay fields are simulation metadata that do "
                              "not cross MPI ranks; run it on one rank, not " +
                              std::to_string(partition.ranks) + " (sim.ranks)");
    }
}

void
RdmaExperimentSpec::MakePartition(const RdmaConfig& c)
{
    mpiSync = c.Get("sim.mpiSync");
    const uint32_t world = RdmaPartition::GetWorldSize();
    uint32_t ranks = c.GetUinteger("sim.ranks");
    if (ranks == 0)
    {
        ranks = world;
    }
    if (ranks != world)
    {
        throw RdmaConfigError(c.GetOrigin("sim.ranks") + ": sim.ranks = " + std::to_string(ranks) +
                              " but the run has " + std::to_string(world) +
                              " process(es): start it as mpirun -np " + std::to_string(ranks) +
                              " with the MPI build (make mpi; doc/mpi.rst)");
    }
    const std::string file = c.Get("sim.partition");
    const std::string type = c.Get("topology.type");
    std::string rule = c.Get("sim.partitionRule");
    if (rule == "by-pod" && type != "fat-tree")
    {
        throw RdmaConfigError(c.GetOrigin("sim.partitionRule") +
                              ": sim.partitionRule = by-pod needs topology.type = fat-tree, "
                              "not " +
                              type);
    }
    if (rule == "by-server" && type != "rail")
    {
        throw RdmaConfigError(c.GetOrigin("sim.partitionRule") +
                              ": sim.partitionRule = by-server needs topology.type = rail, not " +
                              type);
    }
    if (rule != "auto" && !file.empty())
    {
        throw RdmaConfigError(c.GetOrigin("sim.partitionRule") + ": sim.partitionRule = " + rule +
                              " and a sim.partition file (" + c.GetOrigin("sim.partition") +
                              "): give one of them");
    }
    if (ranks == 1 && file.empty())
    {
        partition = RdmaPartition::Single(topology);
        return;
    }
    if (ranks > 1 && c.GetUinteger("topology.planes") > 1)
    {
        throw RdmaConfigError(c.GetOrigin("topology.planes") + ": topology.planes = " +
                              c.Get("topology.planes") +
                              " with several ranks: the partition rules cut one plane, and a "
                              "host's ports would span ranks; run multi-plane fabrics on one "
                              "rank");
    }
    if (ranks > 1 && pipeline)
    {
        throw RdmaConfigError(c.GetOrigin("nic.pipeline") +
                              ": nic.pipeline = true with several ranks: a responder's QP is "
                              "destroyed at the requester's completion, which its rank does not "
                              "see, so its caches would differ from a sequential run's");
    }
    if (rule == "auto")
    {
        rule = type == "fat-tree"     ? "by-pod"
               : type == "leaf-spine" ? "by-tor"
               : type == "rail"       ? "by-server"
                                      : "metis";
    }
    if (!file.empty())
    {
        partition = RdmaPartition::FromFile(c.GetInputPath("sim.partition"), topology, ranks);
    }
    else if (rule == "by-pod")
    {
        partition = RdmaPartition::FatTreeByPod(topology, c.GetUinteger("topology.k"), ranks);
    }
    else if (rule == "by-tor")
    {
        partition = RdmaPartition::ByTor(topology, ranks);
    }
    else if (rule == "by-server")
    {
        partition = RdmaPartition::RailByServer(topology, ranks);
    }
    else
    {
        partition = RdmaPartition::Metis(topology, ranks);
    }
}

void
RdmaExperimentSpec::CheckPartMemory(const RdmaConfig& c)
{
    if (partition.ranks <= 1)
    {
        return;
    }
    // Every rank finds the same largest part, so all refuse or none does.
    const RdmaMemoryEstimate::Counts whole = RdmaMemoryEstimate::Count(topology, flows, pipeline);
    uint32_t largestRank = 0;
    RdmaMemoryEstimate largest;
    for (uint32_t r = 0; r < partition.ranks; ++r)
    {
        std::vector<bool> builtNode(topology.GetNNodes());
        for (uint32_t n = 0; n < builtNode.size(); ++n)
        {
            builtNode[n] = partition.rankOf[n] == r;
        }
        std::vector<bool> builtLink(topology.links.size());
        for (uint32_t l = 0; l < builtLink.size(); ++l)
        {
            builtLink[l] =
                RdmaTopologyHelper::BuildsLink(partition.rankOf, r, topology.links[l]);
        }
        RdmaMemoryEstimate part(RdmaMemoryEstimate::CountPart(whole, topology, builtNode, builtLink),
                                RdmaMemoryEstimate::GetMeasuredCosts());
        if (part.GetTotalBytes() > largest.GetTotalBytes())
        {
            largest = part;
            largestRank = r;
        }
    }
    memory = largest;
    memoryCheck =
        CheckMemory(c,
                    memory,
                    "rank " + std::to_string(largestRank) + "'s part of this run (the largest of " +
                        std::to_string(partition.ranks) + " ranks)");
}

uint32_t
RdmaExperimentSpec::GetFrameBytes() const
{
    return mtuBytes + RdmaWire::ROCEV2_FRAME_OVERHEAD_BYTES;
}

uint32_t
RdmaExperimentSpec::GetAckBytes()
{
    return RdmaWire::ROCEV2_FRAME_OVERHEAD_BYTES + RdmaWire::AETH_BYTES;
}

} // namespace ns3
