/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-job-config.h"

#include "rdma-chakra-steps.h"
#include "rdma-simai-workload.h"

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-byte-size.h"
#include "ns3/rdma-value-check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{

/// The random stream of job.placement = random.
constexpr int64_t PLACEMENT_STREAM = 3000;

/// \return the text without blanks at either end \param s a text
std::string
Trim(const std::string& s)
{
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos)
    {
        return "";
    }
    const auto b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
}

/// \return "<origin>: <key> = <value>" \param c the configuration \param key the key
std::string
KeyText(const RdmaConfig& c, const std::string& key)
{
    return c.GetOrigin(key) + ": " + key + " = " + c.Get(key);
}

/// \return "a, b or c" \param names the names
std::string
OneOf(const std::vector<std::string>& names)
{
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        text += (i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ")) + names[i];
    }
    return text;
}

/// \return the collectives' names
std::vector<std::string>
CollectiveNames()
{
    std::vector<std::string> names;
    for (uint8_t k = 0; k <= static_cast<uint8_t>(RdmaCollectiveKind::SEND_RECV); ++k)
    {
        names.emplace_back(RdmaCollectiveName(static_cast<RdmaCollectiveKind>(k)));
    }
    return names;
}

/// \return the algorithms' names of a collective \param kind it
std::vector<std::string>
AlgorithmNames(RdmaCollectiveKind kind)
{
    std::vector<std::string> names;
    for (auto a : RdmaCollectiveAlgorithms(kind))
    {
        names.emplace_back(RdmaCollectiveAlgorithmName(a));
    }
    return names;
}

/// One collective of the iteration before its schedule is built.
struct Planned
{
    RdmaCollectiveKind kind{RdmaCollectiveKind::ALL_REDUCE}; //!< the collective
    RdmaCollectiveAlgorithm algorithm{RdmaCollectiveAlgorithm::RING}; //!< its algorithm
    uint64_t bytes{0};       //!< S
    std::string bytesFrom;   //!< where S was set, as errors begin ("<origin>: collective.bytes = ...")
    std::string where;       //!< the key and origin that named it
    bool compute{false};     //!< a compute gap, not a collective
};

/**
 * \return the algorithm of a collective: the one named, else
 * collective.algorithm unless auto, else the collective's default
 * \param c the configuration \param kind the collective \param named "" or a name
 * \param where the key that named it (for errors)
 */
RdmaCollectiveAlgorithm
PickAlgorithm(const RdmaConfig& c,
              RdmaCollectiveKind kind,
              const std::string& named,
              const std::string& where)
{
    std::string name = named;
    std::string from = where;
    if (name.empty())
    {
        name = c.Get("collective.algorithm");
        from = c.GetOrigin("collective.algorithm") + ": collective.algorithm = " + name;
        if (name == "auto")
        {
            return RdmaCollectiveAlgorithms(kind).front();
        }
    }
    RdmaCollectiveAlgorithm a;
    const auto own = RdmaCollectiveAlgorithms(kind);
    if (!RdmaParseCollectiveAlgorithm(name, a))
    {
        throw RdmaConfigError(from + ": unknown algorithm '" + name + "': expected " +
                              OneOf(AlgorithmNames(kind)) + " for " + RdmaCollectiveName(kind));
    }
    if (std::find(own.begin(), own.end(), a) == own.end())
    {
        throw RdmaConfigError(from + ": " + RdmaCollectiveName(kind) + " has no " + name +
                              " algorithm: expected " + OneOf(AlgorithmNames(kind)));
    }
    return a;
}

/// \return the one collective of an empty job.sequence: collective.type of
/// collective.bytes \param c the configuration \param bytesFrom collective.bytes' text
Planned
DefaultCollective(const RdmaConfig& c, const std::string& bytesFrom)
{
    Planned p;
    RdmaParseCollective(c.Get("collective.type"), p.kind); // its checker accepted it
    p.where = c.GetOrigin("collective.type") + ": collective.type = " + c.Get("collective.type");
    p.algorithm = PickAlgorithm(c, p.kind, "", p.where);
    p.bytes = c.GetUinteger("collective.bytes");
    p.bytesFrom = bytesFrom;
    return p;
}

/// \return the gap of a 'compute <time>' item \param w its words \param where the item
/// \throws RdmaConfigError without one time and its unit
Time
ParseCompute(const std::vector<std::string>& w, const std::string& where)
{
    const auto checker = MakeTimeChecker(Time(0));
    if (w.size() != 2 || !RdmaCheckValue(checker, w[1]).empty())
    {
        throw RdmaConfigError(where + ": expected 'compute <time>' with a time and its "
                                      "unit, for example 'compute 500us'");
    }
    return Time(w[1]);
}

/**
 * \return a '<collective> [<size>] [<algorithm>]' item, planned
 * \param c the configuration \param w its words \param where the item
 * \param bytesFrom collective.bytes' text (the size when the item gives none)
 * \param namedAlgorithm set to whether the item names its algorithm
 * \throws RdmaConfigError
 */
Planned
ParseCollectiveItem(const RdmaConfig& c,
                    const std::vector<std::string>& w,
                    const std::string& where,
                    const std::string& bytesFrom,
                    bool& namedAlgorithm)
{
    Planned p;
    p.where = where;
    if (!RdmaParseCollective(w[0], p.kind))
    {
        throw RdmaConfigError(where + ": unknown collective '" + w[0] + "': expected " +
                              OneOf(CollectiveNames()) + ", or compute");
    }
    std::size_t next = 1;
    p.bytes = c.GetUinteger("collective.bytes");
    p.bytesFrom = bytesFrom;
    if (next < w.size() && std::isdigit(static_cast<unsigned char>(w[next][0])))
    {
        if (!RdmaParseByteSize(w[next], &p.bytes) || p.bytes == 0)
        {
            throw RdmaConfigError(where + ": size '" + w[next] +
                                  "': expected a number of bytes, with a unit if any "
                                  "(B, KB, MB, GB, KiB, MiB, GiB)");
        }
        p.bytesFrom = where;
        ++next;
    }
    std::string algorithm;
    if (next < w.size())
    {
        algorithm = w[next++];
    }
    namedAlgorithm = !algorithm.empty();
    if (next < w.size())
    {
        throw RdmaConfigError(where + ": unexpected '" + w[next] +
                              "': expected '<collective> [<size>] [<algorithm>]'");
    }
    p.algorithm = PickAlgorithm(c, p.kind, algorithm, where);
    return p;
}

/**
 * \brief Warn of each of collective.type, bytes and algorithm that was set
 * but that job.sequence leaves unused.
 * \param c the configuration \param defaultBytes an item takes collective.bytes
 * \param defaultAlgorithm an item takes collective.algorithm \param warnings receives them
 */
void
WarnUnusedCollectiveKeys(const RdmaConfig& c,
                         bool defaultBytes,
                         bool defaultAlgorithm,
                         std::vector<std::string>& warnings)
{
    const std::pair<const char*, bool> unused[] = {{"collective.type", true},
                                                   {"collective.bytes", !defaultBytes},
                                                   {"collective.algorithm", !defaultAlgorithm}};
    for (const auto& [key, isUnused] : unused)
    {
        if (isUnused && c.GetOrigin(key) != "default")
        {
            warnings.push_back(KeyText(c, key) + " is not used: job.sequence names " +
                               (std::string(key) == "collective.type"
                                    ? "the collectives"
                                    : std::string("every collective's ") +
                                          (std::string(key) == "collective.bytes" ? "size"
                                                                                  : "algorithm")));
        }
    }
}

/**
 * \return the iteration's items (compute gaps with their time, collectives
 * planned) \param c the configuration
 * \param collectives receives the planned collectives, by item (compute: none)
 * \param warnings receives a line for each of collective.type, bytes and
 *        algorithm that was set but is not used: job.sequence names the
 *        collectives, and sizes and algorithms where its items all give them
 */
std::vector<RdmaJobItem>
ParseSequence(const RdmaConfig& c,
              std::vector<Planned>& collectives,
              std::vector<std::string>& warnings)
{
    std::vector<RdmaJobItem> items;
    const std::string text = c.Get("job.sequence");
    const std::string defaultBytesFrom =
        c.GetOrigin("collective.bytes") + ": collective.bytes = " + c.Get("collective.bytes");
    if (Trim(text).empty())
    {
        collectives.push_back(DefaultCollective(c, defaultBytesFrom));
        items.emplace_back();
        return items;
    }
    bool defaultBytes = false;
    bool defaultAlgorithm = false;
    std::istringstream all(text);
    std::string part;
    for (uint32_t index = 1; std::getline(all, part, ','); ++index)
    {
        const std::string where = c.GetOrigin("job.sequence") + ": job.sequence = '" + text +
                                  "': item " + std::to_string(index) + " '" + Trim(part) + "'";
        std::istringstream words(part);
        std::vector<std::string> w;
        for (std::string word; words >> word;)
        {
            w.push_back(word);
        }
        if (w.empty())
        {
            throw RdmaConfigError(where + ": expected '<collective> [<size>] [<algorithm>]' or "
                                          "'compute <time>'");
        }
        RdmaJobItem item;
        if (w[0] == "compute")
        {
            item.compute = ParseCompute(w, where);
            items.push_back(item);
            collectives.emplace_back();
            collectives.back().compute = true;
            continue;
        }
        bool namedAlgorithm = false;
        collectives.push_back(ParseCollectiveItem(c, w, where, defaultBytesFrom, namedAlgorithm));
        defaultBytes = defaultBytes || collectives.back().bytesFrom == defaultBytesFrom;
        defaultAlgorithm = defaultAlgorithm || !namedAlgorithm;
        items.push_back(item);
    }
    WarnUnusedCollectiveKeys(c, defaultBytes, defaultAlgorithm, warnings);
    return items;
}

/// What one job runs, before it is placed.
struct JobPlan
{
    std::vector<RdmaJobItem> items; //!< one iteration
    uint32_t ranks{0};              //!< its ranks
};

/**
 * \return the jobs, placed: each job on the next of its ranks' hosts of the
 * host order (contiguous: host order; random: a permutation; rail:
 * rail-major), each with its items
 * \param c the configuration \param topo the topology \param plans one per
 * job \param nHosts hosts ranks can take
 */
std::vector<RdmaJob> PlaceJobs(const RdmaConfig& c,
                               const RdmaTopologySpec& topo,
                               const std::vector<JobPlan>& plans,
                               uint32_t nHosts);

/**
 * \return a file of job.workload, read and checked against the job: its GPUs
 * are the job's ranks, a tensor-parallel group sits in one server (rail)
 * \param c the configuration \param path the file \param ranks the job's
 * ranks, which all_gpus must equal; for a tenant, the ranks of a file
 * without all_gpus (0: it must give them) \param gpus GPUs per server
 * (rail) \param rail whether the fabric is a rail fabric \param tenant
 * whether the file is one of several (its ranks are its all_gpus)
 * \throws RdmaConfigError naming file:line or the key
 */
RdmaSimaiWorkload
ReadWorkload(const RdmaConfig& c,
             const std::string& path,
             uint32_t ranks,
             uint32_t gpus,
             bool rail,
             bool tenant)
{
    const std::string where = KeyText(c, "job.workload");
    if (!Trim(c.Get("job.sequence")).empty())
    {
        throw RdmaConfigError(KeyText(c, "job.sequence") +
                              ": job.workload gives the iteration; set one of the two");
    }
    RdmaSimaiWorkload w;
    try
    {
        w = RdmaSimaiWorkload::ReadFile(path);
        if (w.allGpus == 0 && ranks > 0)
        {
            w.SetAllGpus(ranks); // an older AICB header, or MICRO: the job's GPUs
        }
    }
    catch (const std::runtime_error& e)
    {
        throw RdmaConfigError(where + ": " + e.what());
    }
    if (w.allGpus == 0)
    {
        throw RdmaConfigError(where + ": " + path + ":1: no all_gpus on line 1: with several "
                              "workload files each gives its GPUs; set job.ranks for those that "
                              "do not");
    }
    const std::string header = w.path + ":1: ";
    if (!tenant && w.allGpus != ranks)
    {
        throw RdmaConfigError(header + "all_gpus " + std::to_string(w.allGpus) +
                              ", but the job has " + std::to_string(ranks) + " ranks (" +
                              KeyText(c, "job.ranks") + "): run it on " +
                              std::to_string(w.allGpus) + " with --job.ranks=" +
                              std::to_string(w.allGpus) + " (on a fabric of at least as many "
                              "GPUs), or give the file of " + std::to_string(ranks) + " GPUs");
    }
    if (rail && gpus % w.tp != 0)
    {
        throw RdmaConfigError(header + "model_parallel_NPU_group " + std::to_string(w.tp) +
                              " does not divide topology.rail.GpusPerServer = " +
                              std::to_string(gpus) + ": a tensor-parallel group must sit in "
                              "one server");
    }
    return w;
}

/**
 * \return the schedule of one workload collective in one of its groups
 * (the copies for the other groups are made once the memory they take is
 * known to fit)
 * \param c the configuration \param w the workload \param comm the collective
 * \param bytes its bytes (scaled) \param at its file:line and type (for errors)
 * \throws RdmaConfigError: halving-doubling on a group that is not a power
 *         of two, more receives at a rank than the immediate data numbers
 */
std::shared_ptr<const RdmaCollectiveSchedule>
BuildGroupSchedule(const RdmaConfig& c,
                   const RdmaSimaiWorkload& w,
                   const RdmaSimaiWorkload::Comm& comm,
                   uint64_t bytes,
                   const std::string& at,
                   uint64_t chunk)
{
    const uint32_t n = w.GetGroupSize(comm.group);
    const uint32_t channels = static_cast<uint32_t>(c.GetUinteger("collective.channels"));
    const RdmaCollectiveAlgorithm algorithm = PickAlgorithm(c, comm.kind, "", at);
    if (algorithm == RdmaCollectiveAlgorithm::HALVING_DOUBLING && (n & (n - 1)))
    {
        throw RdmaConfigError(at + ": halving-doubling needs a power-of-two group, the " +
                              std::string(RdmaSimaiGroupName(comm.group)) + " group has " +
                              std::to_string(n) + " ranks (" +
                              KeyText(c, "collective.algorithm") + ")");
    }
    std::shared_ptr<const RdmaCollectiveSchedule> one;
    try
    {
        one = std::make_shared<RdmaCollectiveSchedule>(RdmaCollectiveSchedule::Build(
            comm.kind, algorithm, n, bytes, channels, std::min(chunk, bytes)));
    }
    catch (const std::invalid_argument& e)
    {
        throw RdmaConfigError(at + ": " + e.what());
    }
    return one;
}

/**
 * \brief What a collective's schedule in one group will hold at a chunk
 * size, from its schedule of whole transfers (one WRITE per range, which
 * is cheap to build): each transfer becomes ceil(bytes / chunk) WRITEs.
 * \param coarse the schedule with one chunk per transfer \param chunk the chunk size
 * \param ops receives its WRITEs \param mostRecvs receives the most one rank receives
 */
void
CountChunks(const RdmaCollectiveSchedule& coarse,
            uint64_t chunk,
            uint64_t& ops,
            uint64_t& mostRecvs)
{
    const auto& all = coarse.GetOps();
    const auto chunks = [chunk](uint64_t bytes) { return (bytes + chunk - 1) / chunk; };
    ops = 0;
    for (const auto& op : all)
    {
        ops += chunks(op.bytes);
    }
    mostRecvs = 0;
    for (uint32_t r = 0; r < coarse.GetRanks(); ++r)
    {
        uint64_t recvs = 0;
        for (uint32_t i : coarse.GetRecvs(r))
        {
            recvs += chunks(all[i].bytes);
        }
        mostRecvs = std::max(mostRecvs, recvs);
    }
}

/// A distinct collective of a workload: its schedule in one group, and its copies.
struct PlannedCollective
{
    std::shared_ptr<const RdmaCollectiveSchedule> one;     //!< in one group
    RdmaSimaiWorkload::Group group{RdmaSimaiWorkload::Group::TP}; //!< its kind of group
    std::string at;      //!< its first file:line and type
    uint64_t need{0};    //!< bytes of its copies, one per group
    std::shared_ptr<const RdmaCollectiveSchedule> grouped; //!< run by every group at once
};

/**
 * \brief Count a collective's copies, one per group, in the bytes the jobs'
 * schedules take, and refuse the workload once they pass sim.maxMemory (before
 * any copy is made, and before the rest of the workload is built).
 * \param w the workload \param p the collective \param limit what the
 * schedules may take \param atLeast p.need is a bound from below (its
 * operations alone), not the schedule's size \param used the bytes counted
 * so far (p's added)
 * \throws RdmaConfigError naming sim.maxMemory, the collective and the bytes
 */
void
CountScheduleMemory(const RdmaSimaiWorkload& w,
                    const PlannedCollective& p,
                    const RdmaScheduleLimit& limit,
                    bool atLeast,
                    uint64_t& used)
{
    used += p.need;
    if (limit.bytes == 0 || used <= limit.bytes)
    {
        return;
    }
    throw RdmaConfigError(
        "sim.maxMemory: " + p.at + " of " + std::to_string(p.one->GetBytes()) +
        " bytes, run by " + std::to_string(w.GetGroups(p.group).size()) + " group(s) of " +
        std::to_string(p.one->GetRanks()) + " ranks, needs " + (atLeast ? "at least " : "about ") +
        RdmaFormatByteSize(p.need) + " of schedules, which takes the job's collectives to " +
        RdmaFormatByteSize(used) + ", more than the limit of " +
        RdmaFormatByteSize(limit.bytes) + " (" + limit.source +
        "); nothing was built. Run fewer GPUs (job.ranks), scale the bytes down "
        "(job.workloadCommScale) or send larger chunks (collective.chunkBytes)");
}

/**
 * \return one iteration of job.workload (a SimAI workload file): its
 * compute gaps and its collectives, each run by every group of its kind at
 * once (RdmaCollectiveSchedule::Grouped)
 * \param c the configuration \param path the file \param ranks the job's
 * ranks (see ReadWorkload) \param gpus GPUs per server (rail)
 * \param rail whether the fabric is a rail fabric
 * \param limit what the schedules may take \param used the bytes of the
 * schedules built so far (these added) \param tenant whether the file is
 * one of several
 * \param warnings receives what the file asks that is not modelled
 * \return its iteration and ranks
 * \throws RdmaConfigError naming file:line or the key
 */
JobPlan
MakeWorkloadItems(const RdmaConfig& c,
                  const std::string& path,
                  uint32_t ranks,
                  uint32_t gpus,
                  bool rail,
                  const RdmaScheduleLimit& limit,
                  uint64_t& used,
                  bool tenant,
                  std::vector<std::string>* warnings)
{
    const RdmaSimaiWorkload w = ReadWorkload(c, path, ranks, gpus, rail, tenant);
    ranks = w.allGpus;
    std::vector<std::string> notes = w.warnings;
    const uint32_t channels = static_cast<uint32_t>(c.GetUinteger("collective.channels"));
    const double scale = c.GetDouble("job.workloadCommScale");
    std::map<std::tuple<RdmaCollectiveKind, RdmaSimaiWorkload::Group, uint64_t>,
             PlannedCollective>
        built;
    std::vector<PlannedCollective*> planned; // in first-use order
    std::vector<PlannedCollective*> itemCollective; // per item: its collective, or null
    std::vector<RdmaJobItem> items;
    uint32_t raised = 0;
    uint32_t firstRaised = 0;
    for (const auto& it : w.GetIteration())
    {
        RdmaJobItem item;
        if (it.compute)
        {
            item.compute = NanoSeconds(it.computeNs);
            items.push_back(item);
            itemCollective.push_back(nullptr);
            continue;
        }
        const auto& comm = *it.comm;
        const uint32_t n = w.GetGroupSize(comm.group);
        const auto scaled = static_cast<uint64_t>(std::llround(double(comm.bytes) * scale));
        // NCCL splits a message over ranks and channels; below a byte each, round up.
        const uint64_t bytes = std::max<uint64_t>(scaled, uint64_t(n) * channels);
        if (bytes != scaled)
        {
            firstRaised = firstRaised ? firstRaised : it.line;
            ++raised;
        }
        PlannedCollective& p = built[std::make_tuple(comm.kind, comm.group, bytes)];
        if (!p.one)
        {
            p.at = w.path + ":" + std::to_string(it.line) + ": " + comm.type;
            p.group = comm.group;
            // First the schedule of whole transfers: how many WRITEs the
            // chunks make, and so whether they can be numbered and stored.
            p.one = BuildGroupSchedule(c, w, comm, bytes, p.at, bytes);
            const uint64_t chunk = std::min(c.GetUinteger("collective.chunkBytes"), bytes);
            uint64_t ops = 0;
            uint64_t mostRecvs = 0;
            CountChunks(*p.one, chunk, ops, mostRecvs);
            // A rank receives in its group what it receives in the grouped schedule.
            if (mostRecvs >= (1u << 20))
            {
                throw RdmaConfigError(KeyText(c, "collective.chunkBytes") + ": " + p.at +
                                      " of " + std::to_string(bytes) +
                                      " bytes makes a rank receive " +
                                      std::to_string(mostRecvs) +
                                      " WRITEs, more than the immediate data numbers (2^20): "
                                      "use larger chunks");
            }
            // The operations alone are a bound from below: past the limit
            // already, nothing more is built.
            const uint64_t groups = w.GetGroups(comm.group).size();
            p.need = ops * sizeof(RdmaCollectiveSchedule::Op) * groups;
            CountScheduleMemory(w, p, limit, true, used);
            used -= p.need;
            if (chunk < bytes)
            {
                p.one = BuildGroupSchedule(c, w, comm, bytes, p.at, chunk);
            }
            p.need = p.one->GetMemoryBytes() * groups;
            CountScheduleMemory(w, p, limit, false, used);
            planned.push_back(&p);
        }
        item.group = RdmaSimaiGroupName(comm.group);
        item.layer = it.layer;
        items.push_back(item);
        itemCollective.push_back(&p);
    }
    // Every group's copy, once all of them are known to fit.
    for (PlannedCollective* p : planned)
    {
        try
        {
            p->grouped = std::make_shared<RdmaCollectiveSchedule>(
                RdmaCollectiveSchedule::Grouped(*p->one, w.GetGroups(p->group), ranks));
        }
        catch (const std::invalid_argument& e)
        {
            throw RdmaConfigError(p->at + ": " + e.what());
        }
        p->one = nullptr;
    }
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        if (itemCollective[i])
        {
            items[i].collective = itemCollective[i]->grouped;
        }
    }
    if (raised)
    {
        notes.push_back(w.path + ":" + std::to_string(firstRaised) + ": " +
                        std::to_string(raised) + " collective(s) smaller than group ranks x "
                        "collective.channels bytes are raised to that");
    }
    if (items.empty())
    {
        throw RdmaConfigError(w.path + ": no compute and no collective this module runs");
    }
    if (warnings)
    {
        for (const auto& n : notes)
        {
            warnings->push_back(n);
        }
    }
    return {items, ranks};
}

/**
 * \brief Refuse job.placement = rail where it cannot place the jobs.
 * \param c the configuration \param topo the topology \param ranks each job's ranks
 * \throws RdmaConfigError naming the key: off a rail fabric, with
 *         job.workload, or ranks neither a multiple nor a divisor of the servers
 */
void
CheckRailPlacement(const RdmaConfig& c, const RdmaTopologySpec& topo, uint32_t ranks)
{
    const auto& servers = topo.servers;
    if (servers.count == 0)
    {
        throw RdmaConfigError(KeyText(c, "job.placement") +
                              ": rail placement puts a job's ranks on one rail of a "
                              "rail-optimized fabric; it needs topology.type = rail, not " +
                              c.Get("topology.type"));
    }
    if (!c.Get("job.workload").empty())
    {
        throw RdmaConfigError(
            KeyText(c, "job.placement") +
            ": rail placement would put a workload's tensor-parallel groups (consecutive "
            "ranks) across servers; contiguous placement already puts its data-parallel "
            "groups on rails (GPU g of every server), as Megatron-LM's rank order does");
    }
    if (ranks % servers.count != 0 && servers.count % ranks != 0)
    {
        throw RdmaConfigError(KeyText(c, "job.ranks") + ": " + std::to_string(ranks) +
                              " ranks neither fill whole rails nor divide one: with "
                              "job.placement = rail a job's ranks must be a multiple or a "
                              "divisor of topology.rail.Servers = " +
                              std::to_string(servers.count));
    }
}

/**
 * \brief Check one job's ranks on the fabric: rail placement where it can
 * place them; on a rail fabric, ranks that fill whole servers or divide one.
 * \param c the configuration \param topo the topology \param ranks the job's ranks
 * \throws RdmaConfigError naming the key
 */
void
CheckJobRanks(const RdmaConfig& c, const RdmaTopologySpec& topo, uint32_t ranks)
{
    const uint32_t g = topo.servers.gpusPerServer;
    const bool railMajor = c.Get("job.placement") == "rail";
    if (railMajor)
    {
        CheckRailPlacement(c, topo, ranks);
    }
    if (topo.servers.count > 0 && !railMajor && ranks % g != 0 && g % ranks != 0)
    {
        throw RdmaConfigError(KeyText(c, "job.ranks") + ": " + std::to_string(ranks) +
                              " ranks neither fill whole servers nor divide one: on a rail "
                              "fabric a job's ranks must be a multiple or a divisor of "
                              "topology.rail.GpusPerServer = " + std::to_string(g));
    }
}

/**
 * \return the ranks of each job: job.ranks, or the hosts (rail: GPUs)
 * shared equally among job.count jobs
 * \param c the configuration \param topo the topology \param nHosts hosts ranks can take
 * \throws RdmaConfigError if they do not fit, are fewer than 2, or (rail)
 *         neither fill whole servers nor divide one
 */
uint32_t
JobRanks(const RdmaConfig& c, const RdmaTopologySpec& topo, uint32_t nHosts)
{
    const auto& servers = topo.servers;
    const bool rail = servers.count > 0;
    const std::string perHost = rail ? "a rank per GPU" : "a rank per host";
    const auto count = static_cast<uint32_t>(c.GetUinteger("job.count"));
    uint32_t ranks = static_cast<uint32_t>(c.GetUinteger("job.ranks"));
    const bool ranksSet = ranks != 0;
    if (!ranksSet)
    {
        ranks = nHosts / count;
    }
    if (uint64_t(ranks) * count > nHosts)
    {
        throw RdmaConfigError(KeyText(c, "job.ranks") + ": " + std::to_string(count) +
                              " job(s) of " + std::to_string(ranks) + " ranks need " +
                              std::to_string(uint64_t(ranks) * count) + " " +
                              (rail ? "GPUs" : "hosts") + " (" + perHost + "); the topology has " +
                              std::to_string(nHosts));
    }
    if (ranks < 2)
    {
        throw RdmaConfigError(ranksSet ? KeyText(c, "job.ranks") + ": expected at least 2 ranks"
                                       : KeyText(c, "job.count") + ": " +
                                             std::to_string(nHosts) + " hosts shared by " +
                                             std::to_string(count) +
                                             " jobs leave fewer than 2 ranks per job");
    }
    CheckJobRanks(c, topo, ranks);
    return ranks;
}

/**
 * \return one plan per file of job.workload (several tenants' jobs): each
 * file's iteration on its all_gpus ranks, or job.ranks where it gives none
 * \param c the configuration \param topo the topology \param paths the files
 * \param limit what the schedules may take \param warnings receives the files' warnings
 * \throws RdmaConfigError naming the key or file:line: job.count above 1, a
 *         file without all_gpus and no job.ranks, more ranks than hosts (GPUs)
 */
std::vector<JobPlan>
MakeTenants(const RdmaConfig& c,
            const RdmaTopologySpec& topo,
            const std::vector<std::string>& paths,
            const RdmaScheduleLimit& limit,
            std::vector<std::string>* warnings)
{
    if (c.GetUinteger("job.count") != 1)
    {
        throw RdmaConfigError(KeyText(c, "job.count") + ": job.workload lists " +
                              std::to_string(paths.size()) + " files, a job each: set job.count "
                              "to 1 (or list one file)");
    }
    const auto& servers = topo.servers;
    const bool rail = servers.count > 0;
    const uint32_t nHosts = rail ? servers.GetGpus() : topo.GetNHosts();
    const auto ranks = static_cast<uint32_t>(c.GetUinteger("job.ranks"));
    std::vector<JobPlan> plans;
    uint64_t used = 0;
    uint64_t total = 0;
    for (const std::string& path : paths)
    {
        const uint32_t g = servers.gpusPerServer;
        plans.push_back(MakeWorkloadItems(c, path, ranks, g, rail, limit, used, true, warnings));
        CheckJobRanks(c, topo, plans.back().ranks);
        total += plans.back().ranks;
    }
    if (total > nHosts)
    {
        throw RdmaConfigError(KeyText(c, "job.workload") + ": its " +
                              std::to_string(paths.size()) + " jobs need " +
                              std::to_string(total) + (rail ? " GPUs" : " hosts") +
                              " (a rank per " + (rail ? "GPU" : "host") +
                              "); the topology has " + std::to_string(nHosts));
    }
    return plans;
}

/**
 * \return the schedule of one planned collective over the job's ranks
 * \param c the configuration \param p the collective \param ranks the job's ranks
 * \throws RdmaConfigError naming the key or item that makes it impossible
 */
std::shared_ptr<const RdmaCollectiveSchedule>
BuildPlanned(const RdmaConfig& c, const Planned& p, uint32_t ranks)
{
    const uint32_t channels = static_cast<uint32_t>(c.GetUinteger("collective.channels"));
    const uint64_t chunk = c.GetUinteger("collective.chunkBytes");
    const bool chunkSet = c.GetOrigin("collective.chunkBytes") != "default";
    const std::string what = std::string(RdmaCollectiveName(p.kind)) + " of " +
                             std::to_string(p.bytes) + " bytes (" + p.bytesFrom + ")";
    if (chunkSet && chunk > p.bytes)
    {
        throw RdmaConfigError(KeyText(c, "collective.chunkBytes") + ": a chunk larger than "
                              "the message, the " + what);
    }
    if (p.bytes < uint64_t(ranks) * channels)
    {
        throw RdmaConfigError(p.bytesFrom + ": the " + RdmaCollectiveName(p.kind) +
                              " needs at least ranks x channels = " +
                              std::to_string(uint64_t(ranks) * channels) + " bytes (job.ranks " +
                              std::to_string(ranks) + ", collective.channels " +
                              std::to_string(channels) + ")");
    }
    if (p.algorithm == RdmaCollectiveAlgorithm::HALVING_DOUBLING && (ranks & (ranks - 1)))
    {
        throw RdmaConfigError(KeyText(c, "job.ranks") + ": halving-doubling needs a "
                              "power-of-two number of ranks, not " + std::to_string(ranks));
    }
    try
    {
        auto s = std::make_shared<RdmaCollectiveSchedule>(
            RdmaCollectiveSchedule::Build(p.kind, p.algorithm, ranks, p.bytes, channels, chunk));
        if (s->GetMostRecvsPerRank() >= (1u << 20))
        {
            throw RdmaConfigError(KeyText(c, "collective.chunkBytes") + ": the " + what +
                                  " makes a rank receive " +
                                  std::to_string(s->GetMostRecvsPerRank()) +
                                  " WRITEs, more than the immediate data numbers (2^20): "
                                  "use larger chunks");
        }
        return s;
    }
    catch (const std::invalid_argument& e)
    {
        throw RdmaConfigError(p.where + ": " + e.what());
    }
}

/**
 * \return one iteration of job.sequence (or collective.type), each
 * collective's schedule built \param c the configuration \param ranks the
 * job's ranks \param warnings receives the keys set but not used
 * \throws RdmaConfigError
 */
std::vector<RdmaJobItem>
MakeSequenceItems(const RdmaConfig& c, uint32_t ranks, std::vector<std::string>* warnings)
{
    std::vector<Planned> planned;
    std::vector<std::string> unused;
    if (c.GetOrigin("job.workloadCommScale") != "default")
    {
        unused.push_back(KeyText(c, "job.workloadCommScale") +
                         " is not used: it scales job.workload's collectives, and none is set");
    }
    std::vector<RdmaJobItem> items = ParseSequence(c, planned, unused);
    if (warnings)
    {
        warnings->insert(warnings->end(), unused.begin(), unused.end());
    }
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        if (!planned[i].compute)
        {
            items[i].collective = BuildPlanned(c, planned[i], ranks);
        }
    }
    return items;
}

/**
 * \return a collective of a Chakra trace as the runner's kind, or false for
 * one it has no schedule of \param type et_def.proto's CollectiveCommType name
 * \param kind receives the kind
 */
bool
ChakraKind(const std::string& type, RdmaCollectiveKind& kind)
{
    static const std::map<std::string, RdmaCollectiveKind> kinds{
        {"ALL_REDUCE", RdmaCollectiveKind::ALL_REDUCE},
        // PyTorch's ProcessGroupNCCL::barrier is an all-reduce of one element.
        {"BARRIER", RdmaCollectiveKind::ALL_REDUCE},
        {"ALL_GATHER", RdmaCollectiveKind::ALL_GATHER},
        {"REDUCE_SCATTER", RdmaCollectiveKind::REDUCE_SCATTER},
        {"REDUCE_SCATTER_BLOCK", RdmaCollectiveKind::REDUCE_SCATTER},
        {"BROADCAST", RdmaCollectiveKind::BROADCAST},
        {"ALL_TO_ALL", RdmaCollectiveKind::ALL_TO_ALL}};
    auto it = kinds.find(type);
    if (it == kinds.end())
    {
        return false;
    }
    kind = it->second;
    return true;
}

/**
 * \return one iteration of job.chakra's traces, a rank per file, each
 * collective's schedule built (RdmaChakraSteps) \param c the configuration
 * \param topo the topology \param nHosts hosts ranks can take \param limit
 * what the schedules may take (each distinct collective's, counted once
 * built) \param warnings receives what the traces ask and is left out
 * \throws RdmaConfigError naming the key, or the file and node
 */
JobPlan
MakeChakraItems(const RdmaConfig& c,
                const RdmaTopologySpec& topo,
                uint32_t nHosts,
                const RdmaScheduleLimit& limit,
                std::vector<std::string>* warnings)
{
    for (const char* k : {"job.workload", "job.sequence"})
    {
        if (!c.Get(k).empty())
        {
            throw RdmaConfigError(KeyText(c, k) + ": job.chakra gives the iteration; set " +
                                  "one of job.chakra, job.workload and job.sequence");
        }
    }
    if (c.GetUinteger("job.count") != 1)
    {
        throw RdmaConfigError(KeyText(c, "job.count") + ": job.chakra's traces are one job");
    }
    RdmaChakraTrace trace;
    std::vector<RdmaChakraStep> steps;
    std::vector<std::string> notes;
    try
    {
        trace = RdmaReadChakraTrace(c.GetPath("job.chakra"));
        steps = RdmaChakraSteps(trace, &notes);
    }
    catch (const std::runtime_error& e)
    {
        throw RdmaConfigError(c.GetOrigin("job.chakra") + ": job.chakra: " + e.what());
    }
    JobPlan plan;
    plan.ranks = static_cast<uint32_t>(trace.ranks.size());
    const uint32_t ranksSet = static_cast<uint32_t>(c.GetUinteger("job.ranks"));
    if (ranksSet != 0 && ranksSet != plan.ranks)
    {
        throw RdmaConfigError(KeyText(c, "job.ranks") + ": job.chakra has " +
                              std::to_string(plan.ranks) + " ranks (a trace file each)");
    }
    if (plan.ranks < 2 || plan.ranks > nHosts)
    {
        throw RdmaConfigError(c.GetOrigin("job.chakra") + ": job.chakra has " +
                              std::to_string(plan.ranks) + " ranks (a trace file each): " +
                              (plan.ranks < 2 ? std::string("expected at least 2")
                                              : "the topology has " + std::to_string(nHosts) +
                                                    (topo.servers.count > 0 ? " GPUs" : " hosts")));
    }
    CheckJobRanks(c, topo, plan.ranks);
    const uint64_t channels = c.GetUinteger("collective.channels");
    const uint64_t least = uint64_t(plan.ranks) * channels; // BuildPlanned's floor
    const double scale = c.GetDouble("job.workloadCommScale");
    std::map<std::pair<RdmaCollectiveKind, uint64_t>, std::shared_ptr<const RdmaCollectiveSchedule>>
        built;
    uint64_t raised = 0;
    uint64_t used = 0; // bytes of the schedules built so far
    std::string firstRaised;
    std::map<std::vector<uint64_t>, std::shared_ptr<const RdmaCollectiveSchedule>> builtP2p;
    const auto count = [&](const std::shared_ptr<const RdmaCollectiveSchedule>& schedule,
                           const std::string& where,
                           const std::string& what) {
        used += schedule->GetMemoryBytes();
        if (limit.bytes > 0 && used > limit.bytes)
        {
            throw RdmaConfigError(
                "sim.maxMemory: " + where + ": its " + what + " on " + std::to_string(plan.ranks) +
                " ranks takes the job's schedules to " + RdmaFormatByteSize(used) +
                ", more than the limit of " + RdmaFormatByteSize(limit.bytes) + " (" +
                limit.source +
                "); scale the bytes down (job.workloadCommScale) or send larger chunks "
                "(collective.chunkBytes)");
        }
    };
    for (const RdmaChakraStep& step : steps)
    {
        RdmaJobItem item;
        if (step.kind == RdmaChakraStep::TRANSFERS)
        {
            const std::string where = c.GetOrigin("job.chakra") + ": job.chakra: " + step.where;
            std::vector<RdmaCollectiveSchedule::Transfer> transfers;
            std::vector<uint64_t> key; // the transfers as numbers, to build each once
            for (const RdmaChakraTransfer& x : step.transfers)
            {
                RdmaCollectiveSchedule::Transfer y;
                y.src = x.src;
                y.dst = x.dst;
                y.after = x.after;
                y.bytes = static_cast<uint64_t>(std::llround(double(x.bytes) * scale));
                if (y.bytes < channels)
                {
                    firstRaised = raised++ == 0 ? step.where : firstRaised;
                    y.bytes = channels;
                }
                key.insert(key.end(), {y.src, y.dst, y.bytes, y.after.size()});
                key.insert(key.end(), y.after.begin(), y.after.end());
                transfers.push_back(std::move(y));
            }
            auto& schedule = builtP2p[key];
            if (!schedule)
            {
                try
                {
                    schedule = std::make_shared<RdmaCollectiveSchedule>(
                        RdmaCollectiveSchedule::PointToPoint(
                            plan.ranks,
                            transfers,
                            channels,
                            c.GetUinteger("collective.chunkBytes")));
                }
                catch (const std::invalid_argument& e)
                {
                    throw RdmaConfigError(where + ": " + e.what());
                }
                count(schedule, where, std::to_string(transfers.size()) + " send(s)");
            }
            item.collective = schedule;
            item.layer = step.name;
            plan.items.push_back(item);
            continue;
        }
        if (step.kind == RdmaChakraStep::COMPUTE)
        {
            item.compute = *std::max_element(step.compute.begin(), step.compute.end());
            if (std::any_of(step.compute.begin(), step.compute.end(), [&](Time t) {
                    return t != item.compute;
                }))
            {
                item.rankCompute = step.compute;
            }
            plan.items.push_back(item);
            continue;
        }
        Planned p;
        if (!ChakraKind(step.type, p.kind))
        {
            throw RdmaConfigError(c.GetOrigin("job.chakra") + ": job.chakra: " + step.where +
                                  ": comm_type " + step.type +
                                  " has no schedule here: expected ALL_REDUCE, ALL_GATHER, "
                                  "REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, BROADCAST, "
                                  "ALL_TO_ALL or BARRIER");
        }
        p.where = c.GetOrigin("job.chakra") + ": job.chakra: " + step.where;
        p.bytesFrom = p.where;
        p.algorithm = PickAlgorithm(c, p.kind, "", p.where);
        // A BARRIER is an all-reduce of one float32; the rest scale as a
        // SimAI workload's do (job.workloadCommScale, SimAI's comm_scale).
        p.bytes = step.type == "BARRIER"
                      ? 4
                      : static_cast<uint64_t>(std::llround(double(step.bytes) * scale));
        if (p.bytes < least)
        {
            firstRaised = raised++ == 0 ? step.where : firstRaised;
            p.bytes = least;
        }
        auto& schedule = built[{p.kind, p.bytes}];
        if (!schedule)
        {
            schedule = BuildPlanned(c, p, plan.ranks);
            count(schedule,
                  p.where,
                  std::string(RdmaCollectiveName(p.kind)) + " of " + std::to_string(p.bytes) +
                      " bytes");
        }
        item.collective = schedule;
        item.layer = step.name;
        plan.items.push_back(item);
    }
    if (plan.items.empty())
    {
        throw RdmaConfigError(c.GetOrigin("job.chakra") + ": job.chakra: " + trace.files[0] +
                              ": no compute and no collective: nothing to run");
    }
    if (raised > 0)
    {
        notes.push_back(firstRaised + ": " + std::to_string(raised) +
                        " collective(s) smaller than ranks x collective.channels bytes (a "
                        "BARRIER is an all-reduce of 4 bytes), or send(s) smaller than "
                        "collective.channels bytes, are raised to that");
    }
    if (warnings)
    {
        for (const std::string& n : notes)
        {
            warnings->push_back("job.chakra: " + n);
        }
    }
    return plan;
}

} // namespace

void
RdmaRefuseJobKeys(const RdmaConfig& c)
{
    for (const auto& k : c.GetKeys())
    {
        const bool jobKey = k.name.rfind("job.", 0) == 0 || k.name.rfind("collective.", 0) == 0;
        if (jobKey && c.GetOrigin(k.name) != "default")
        {
            throw RdmaConfigError(KeyText(c, k.name) + ": the job and collective keys take "
                                  "effect with traffic.pattern = collective, not " +
                                  c.Get("traffic.pattern"));
        }
    }
}

std::vector<RdmaJob>
RdmaMakeJobs(const RdmaConfig& c,
             const RdmaTopologySpec& topo,
             std::vector<std::string>* warnings,
             const RdmaScheduleLimit& limit)
{
    const auto& servers = topo.servers;
    const bool rail = servers.count > 0;
    // On a rail fabric ranks go on GPUs (their NICs, host indices 0 .. GPUs - 1).
    const uint32_t nHosts = rail ? servers.GetGpus() : topo.GetNHosts();
    const uint32_t g = servers.gpusPerServer;
    const auto count = static_cast<uint32_t>(c.GetUinteger("job.count"));
    if (!c.Get("job.chakra").empty())
    {
        return PlaceJobs(c, topo, {MakeChakraItems(c, topo, nHosts, limit, warnings)}, nHosts);
    }
    if (!c.Get("job.workload").empty())
    {
        const std::vector<std::string> paths = c.GetInputPaths("job.workload");
        uint64_t used = 0; // bytes of the schedules built so far
        if (paths.size() == 1)
        {
            const uint32_t ranks = JobRanks(c, topo, nHosts);
            const JobPlan plan =
                MakeWorkloadItems(c, paths[0], ranks, g, rail, limit, used, false, warnings);
            return PlaceJobs(c, topo, std::vector<JobPlan>(count, plan), nHosts);
        }
        return PlaceJobs(c, topo, MakeTenants(c, topo, paths, limit, warnings), nHosts);
    }
    const uint32_t ranks = JobRanks(c, topo, nHosts);
    const JobPlan plan{MakeSequenceItems(c, ranks, warnings), ranks};
    return PlaceJobs(c, topo, std::vector<JobPlan>(count, plan), nHosts);
}

namespace
{

std::vector<RdmaJob>
PlaceJobs(const RdmaConfig& c,
          const RdmaTopologySpec& topo,
          const std::vector<JobPlan>& plans,
          uint32_t nHosts)
{
    const auto count = static_cast<uint32_t>(plans.size());
    std::vector<uint32_t> hosts(nHosts);
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        hosts[h] = h;
    }
    if (c.Get("job.placement") == "rail")
    {
        // Rail-major: slot i is GPU i / S of server i mod S, so consecutive
        // ranks share a rail (the NIC host index is server x G + GPU).
        const uint32_t s = topo.servers.count;
        const uint32_t g = topo.servers.gpusPerServer;
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            hosts[i] = (i % s) * g + i / s;
        }
    }
    else if (c.Get("job.placement") == "random")
    {
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(PLACEMENT_STREAM);
        for (uint32_t i = nHosts; i > 1; --i)
        {
            std::swap(hosts[i - 1], hosts[u->GetInteger(0, i - 1)]);
        }
    }
    std::vector<RdmaJob> jobs(count);
    const Time start = c.GetTime("traffic.start");
    const Time stagger = c.GetTime("job.stagger");
    uint64_t next = 0; // the first host of the host order not yet taken
    for (uint32_t j = 0; j < count; ++j)
    {
        jobs[j].hosts.assign(hosts.begin() + next, hosts.begin() + next + plans[j].ranks);
        next += plans[j].ranks;
        jobs[j].items = plans[j].items;
        jobs[j].iterations = static_cast<uint32_t>(c.GetUinteger("job.iterations"));
        jobs[j].start = start + stagger * j;
        jobs[j].priority = static_cast<uint8_t>(c.GetUinteger("traffic.priority"));
        if (topo.servers.count > 0)
        {
            for (uint32_t h : jobs[j].hosts)
            {
                jobs[j].intraHosts.push_back(topo.servers.GetIntraHost(h));
                jobs[j].servers.push_back(topo.servers.GetServer(h));
            }
        }
    }
    return jobs;
}

} // namespace

} // namespace ns3
