/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-unused-keys.h"

#include "rdma-config.h"

#include <algorithm>
#include <functional>
#include <set>

namespace ns3
{

namespace
{

/// Which keys a rule covers: one key, or every key of a group ("transport.irn"
/// covers transport.irn.*), or every attribute key of a TypeId.
struct Covers
{
    std::string key;    //!< this key exactly (or empty)
    std::string group;  //!< or every key under this group (or empty)
    std::string typeId; //!< or every attribute key of this TypeId (or empty)

    /// \return whether the rule covers key k \param k a declared key
    bool Match(const RdmaConfig::Key& k) const
    {
        return (!key.empty() && k.name == key) ||
               (!group.empty() && k.name.rfind(group + ".", 0) == 0) ||
               (!typeId.empty() && k.typeId == typeId);
    }
};

/// A rule: the keys it covers, and why they are unused in a run ("" if used).
struct Rule
{
    Covers covers;                                       //!< the keys
    std::function<std::string(const RdmaConfig&)> unused; //!< the reason, or ""
};

/// \return a rule that covers one key \param key the key \param why its reason
Rule
Key(const std::string& key, std::function<std::string(const RdmaConfig&)> why)
{
    return {{key, "", ""}, std::move(why)};
}

/// \return a rule that covers a group's keys \param group the group \param why its reason
Rule
Group(const std::string& group, std::function<std::string(const RdmaConfig&)> why)
{
    return {{"", group, ""}, std::move(why)};
}

/// \return whether v is one of the values \param v a value \param values the values
bool
OneOf(const std::string& v, std::initializer_list<const char*> values)
{
    return std::any_of(values.begin(), values.end(), [&v](const char* x) { return v == x; });
}

/**
 * \return a reason that holds unless `key`'s value is one of `values`:
 * "<key> = <value>" (it configures what the other values bring)
 * \param key the deciding key \param values the values under which the keys are used
 */
std::function<std::string(const RdmaConfig&)>
UnlessValue(const std::string& key, std::initializer_list<const char*> values)
{
    std::vector<std::string> vs(values.begin(), values.end());
    return [key, vs](const RdmaConfig& c) {
        const std::string v = c.Get(key);
        if (std::find(vs.begin(), vs.end(), v) != vs.end())
        {
            return std::string();
        }
        std::string which;
        for (std::size_t i = 0; i < vs.size(); ++i)
        {
            which += (i == 0 ? "" : (i + 1 == vs.size() ? " or " : ", ")) + vs[i];
        }
        return key + " = " + v + " (it takes effect with " + which + ")";
    };
}

/// \return the rules, in no particular order (each key's first matching rule wins)
const std::vector<Rule>&
Rules()
{
    static const std::vector<Rule> rules = [] {
        std::vector<Rule> r;
        // Loss recovery (transport.recovery): each policy's attributes.
        for (const char* k : {"transport.irn.SackCoalescing", "transport.irn.SackDelay"})
        {
            r.push_back(Key(k, [](const RdmaConfig& c) {
                const std::string why = UnlessValue("transport.recovery", {"irn"})(c);
                if (!why.empty() || c.GetUinteger("transport.irn.AckBytes") == 0)
                {
                    return why;
                }
                return "transport.irn.AckBytes = " + c.Get("transport.irn.AckBytes") +
                       " (the responder answers by bytes)";
            }));
        }
        r.push_back(Group("transport.irn", UnlessValue("transport.recovery", {"irn"})));
        r.push_back(Group("transport.gbn", UnlessValue("transport.recovery", {"go-back-n"})));
        // Congestion control: each algorithm's attributes.
        for (const char* algo : {"dcqcn", "hpcc", "timely", "dctcp", "swift", "nscc"})
        {
            const std::string a = algo;
            r.push_back(Group("cc." + a, [a](const RdmaConfig& c) {
                const std::string v = c.Get("cc.algorithm");
                return v == a ? std::string()
                              : "cc.algorithm = " + v + " (it takes effect with " + a + ")";
            }));
        }
        // RCCC: its settings without it; its rate control's floor without that.
        r.push_back(Key("cc.rccc.OversubscribedMinRate", [](const RdmaConfig& c) {
            const std::string why = UnlessValue("cc.rccc.Enabled", {"true"})(c);
            return !why.empty() ? why : UnlessValue("cc.rccc.OversubscribedCc", {"true"})(c);
        }));
        for (const char* k :
             {"cc.rccc.PullRate", "cc.rccc.CreditPerPull", "cc.rccc.OversubscribedCc"})
        {
            r.push_back(Key(k, UnlessValue("cc.rccc.Enabled", {"true"})));
        }
        // Entropy: each NIC policy's attributes.
        r.push_back(Key("nic.RepsBufferSize", UnlessValue("nic.Entropy", {"reps", "mixed"})));
        r.push_back(Key("nic.EntropyPaths", UnlessValue("nic.Entropy", {"mixed"})));
        // Load balancing: each policy's attributes.
        r.push_back(Group("switch.drill", UnlessValue("switch.LoadBalancing", {"Drill"})));
        r.push_back(Group("switch.letflow", UnlessValue("switch.LoadBalancing", {"LetFlow"})));
        r.push_back(Group("switch.conga", UnlessValue("switch.LoadBalancing", {"Conga"})));
        // Trimming: its settings with no class trimmed.
        for (const char* k :
             {"switch.trim.TrimClass", "switch.trim.Dscp", "switch.trim.Threshold", "switch.trim.MaxBytes"})
        {
            r.push_back(Key(k, [](const RdmaConfig& c) {
                return c.GetUinteger("switch.trim.Classes") != 0
                           ? std::string()
                           : std::string("switch.trim.Classes = 0 (no class is trimmed)");
            }));
        }
        // Traffic: each pattern's keys (RdmaExperimentSpec's MakeFlows).
        const auto poissonOnly = [](const RdmaConfig& c) {
            return RdmaDrawsPoisson(c)
                       ? std::string()
                       : "traffic.pattern = " + c.Get("traffic.pattern") +
                             " draws no Poisson flows (it takes effect with poisson, "
                             "or incast or collective with traffic.background = "
                             "poisson)";
        };
        r.push_back(Key("traffic.load", [](const RdmaConfig& c) {
            if (c.Get("traffic.pattern") == "poisson")
            {
                return std::string();
            }
            return "traffic.pattern = " + c.Get("traffic.pattern") +
                   (c.Get("traffic.background") == "poisson"
                        ? std::string(" (the flows beside it take traffic.backgroundLoad)")
                        : std::string(" (it takes effect with poisson)"));
        }));
        r.push_back(Key("traffic.cdf", poissonOnly));
        r.push_back(Key("traffic.duration", poissonOnly));
        r.push_back(Key("traffic.backgroundLoad", [](const RdmaConfig& c) {
            return c.Get("traffic.pattern") != "poisson" && RdmaDrawsPoisson(c)
                       ? std::string()
                       : std::string("it is the load of traffic.background = poisson beside an "
                                     "incast or jobs, and this run has none");
        }));
        r.push_back(
            Key("traffic.background", UnlessValue("traffic.pattern", {"incast", "collective"})));
        for (const char* k :
             {"traffic.fanIn", "traffic.receiver", "traffic.repeats", "traffic.interval"})
        {
            r.push_back(Key(k, UnlessValue("traffic.pattern", {"incast"})));
        }
        r.push_back(
            Key("traffic.size", UnlessValue("traffic.pattern", {"incast", "permutation", "all-to-all"})));
        r.push_back(Key("traffic.flowFile", [](const RdmaConfig& c) {
            return c.Get("traffic.pattern") == "flow-file" ||
                           (c.Get("traffic.pattern") == "collective" &&
                            c.Get("traffic.background") == "flow-file")
                       ? std::string()
                       : "traffic.pattern = " + c.Get("traffic.pattern") +
                             " reads no flow file (it takes effect with flow-file, or collective "
                             "with traffic.background = flow-file)";
        }));
        r.push_back(
            Key("traffic.connectionMatrix", UnlessValue("traffic.pattern", {"connection-matrix"})));
        for (const char* k : {"traffic.writeWeight", "traffic.readWeight", "traffic.sendWeight"})
        {
            r.push_back(Key(k, [](const RdmaConfig& c) {
                const std::string p = c.Get("traffic.pattern");
                return p == "poisson" || p == "incast" || p == "permutation" || p == "all-to-all" ||
                               RdmaDrawsPoisson(c)
                           ? std::string()
                           : "traffic.pattern = " + p +
                                 " draws no flows (the mix applies to "
                                 "poisson, incast, permutation and "
                                 "all-to-all, and to traffic.background "
                                 "= poisson)";
            }));
        }
        r.push_back(Key("traffic.start", [](const RdmaConfig& c) {
            return c.Get("traffic.pattern") == "connection-matrix"
                       ? std::string("traffic.pattern = connection-matrix (the matrix gives each "
                                     "flow's start)")
                       : std::string();
        }));
        for (const char* k : {"traffic.start", "traffic.priority"})
        {
            r.push_back(Key(k, [](const RdmaConfig& c) {
                return c.Get("traffic.pattern") == "flow-file"
                           ? std::string("traffic.pattern = flow-file (the flow file gives "
                                         "each flow's start and priority)")
                           : std::string();
            }));
        }
        const auto flowsOnly = [](const RdmaConfig& c) {
            return c.Get("traffic.pattern") == "collective" && c.Get("traffic.background") == "none"
                       ? std::string("traffic.pattern = collective with traffic.background = "
                                     "none (it configures the runner of flows, and this run has "
                                     "jobs only)")
                       : std::string();
        };
        r.push_back({{"", "", "ns3::RdmaFlowRunner"}, flowsOnly});
        r.push_back(Group("traffic.target", flowsOnly));
        // Jobs from a SimAI workload file: it gives every collective and size.
        for (const char* k : {"collective.type", "collective.bytes"})
        {
            r.push_back(Key(k, [](const RdmaConfig& c) {
                const bool file = !c.Get("job.workload").empty() || !c.Get("job.chakra").empty();
                return c.Get("traffic.pattern") == "collective" && file
                           ? std::string("job.workload or job.chakra gives every collective and "
                                         "its size")
                           : std::string();
            }));
        }
        // Topology: each generator's keys (RdmaExperimentSpec's BuildTopology).
        r.push_back(Key("topology.k", UnlessValue("topology.type", {"fat-tree"})));
        r.push_back(Key("topology.coreRate", UnlessValue("topology.type", {"fat-tree"})));
        for (const char* k :
             {"topology.leaves", "topology.hostsPerLeaf", "topology.oversubscription"})
        {
            r.push_back(Key(k, UnlessValue("topology.type", {"leaf-spine"})));
        }
        r.push_back(Key("topology.spines", UnlessValue("topology.type", {"leaf-spine", "rail"})));
        r.push_back(Key("topology.left", UnlessValue("topology.type", {"dumbbell"})));
        r.push_back(Key("topology.right", UnlessValue("topology.type", {"dumbbell"})));
        r.push_back(Key("topology.hosts", UnlessValue("topology.type", {"star"})));
        r.push_back(Key("topology.file", UnlessValue("topology.type", {"hpcc"})));
        r.push_back(Group("topology.rail", UnlessValue("topology.type", {"rail"})));
        r.push_back(Key("topology.fabricRate",
                        UnlessValue("topology.type", {"fat-tree", "leaf-spine", "dumbbell", "rail"})));
        for (const char* k : {"topology.hostRate", "topology.linkDelay", "topology.errorRate"})
        {
            r.push_back(Key(k, [](const RdmaConfig& c) {
                return c.Get("topology.type") == "hpcc"
                           ? std::string("topology.type = hpcc (the topology file gives each "
                                         "link's rate, delay and error rate)")
                           : std::string();
            }));
        }
        // The NIC as hardware: its pipeline, PCIe link, receive buffer and caches.
        for (const char* g : {"nic.hw", "nic.rx", "pcie", "cache"})
        {
            r.push_back(Group(g, [](const RdmaConfig& c) {
                return c.GetBool("nic.pipeline")
                           ? std::string()
                           : std::string("nic.pipeline = false (it configures the NIC as "
                                         "hardware: set nic.pipeline = true)");
            }));
        }
        return r;
    }();
    return rules;
}

} // namespace

bool
RdmaDrawsPoisson(const RdmaConfig& c)
{
    const std::string p = c.Get("traffic.pattern");
    return p == "poisson" ||
           ((p == "incast" || p == "collective") && c.Get("traffic.background") == "poisson");
}

std::vector<std::string>
RdmaSetKeys(const RdmaConfig& c)
{
    std::vector<std::string> keys;
    for (const auto& k : c.GetKeys())
    {
        if (c.GetOrigin(k.name) != "default")
        {
            keys.push_back(k.name);
        }
    }
    return keys;
}

std::vector<RdmaUnusedKey>
RdmaUnusedKeys(const RdmaConfig& c, const std::vector<std::string>& userKeys, uint32_t ranks)
{
    const std::set<std::string> user(userKeys.begin(), userKeys.end());
    std::vector<RdmaUnusedKey> warnings;
    for (const auto& k : c.GetKeys())
    {
        if (!user.count(k.name))
        {
            continue;
        }
        std::string why;
        if (ranks <= 1 && OneOf(k.name, {"sim.partition", "sim.partitionRule", "sim.mpiSync"}))
        {
            why = "the run has one rank (it places nodes on several MPI ranks: doc/mpi.rst)";
        }
        for (const Rule& rule : Rules())
        {
            if (why.empty() && rule.covers.Match(k))
            {
                why = rule.unused(c);
                break;
            }
        }
        if (!why.empty())
        {
            warnings.push_back({k.name,
                                c.GetOrigin(k.name) + ": " + k.name + " = " + c.Get(k.name) +
                                    " is not used: " + why});
        }
    }
    return warnings;
}

} // namespace ns3
