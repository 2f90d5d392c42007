/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-simai-workload.h"

#include "ns3/rdma-text-reader.h"

#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The collectives of SimAI's files and what each is here (modelled: not ALLREDUCEALLTOALL).
const std::map<std::string, std::pair<bool, RdmaCollectiveKind>>&
BaseTypes()
{
    static const std::map<std::string, std::pair<bool, RdmaCollectiveKind>> types{
        {"ALLREDUCE", {true, RdmaCollectiveKind::ALL_REDUCE}},
        {"ALLGATHER", {true, RdmaCollectiveKind::ALL_GATHER}},
        {"REDUCESCATTER", {true, RdmaCollectiveKind::REDUCE_SCATTER}},
        {"ALLTOALL", {true, RdmaCollectiveKind::ALL_TO_ALL}},
        {"ALLREDUCEALLTOALL", {false, RdmaCollectiveKind::ALL_REDUCE}},
    };
    return types;
}

/**
 * \return a collective as written \param r the reader (for errors)
 * \param type its name \param bytes its size token \param weightGradient
 * whether it is a weight-gradient collective (a plain name means DP, else TP)
 */
RdmaSimaiWorkload::Comm
ParseComm(const RdmaTextReader& r,
          const std::string& type,
          const std::string& bytes,
          bool weightGradient)
{
    RdmaSimaiWorkload::Comm c;
    c.type = type;
    c.bytes = r.ToUint(bytes, "a collective's bytes (0-2^63)", 0, uint64_t(1) << 63);
    if (type == "NONE")
    {
        return c;
    }
    std::string base = type;
    c.group = weightGradient ? RdmaSimaiWorkload::Group::DP : RdmaSimaiWorkload::Group::TP;
    for (const auto& [suffix, group] :
         {std::make_pair(std::string("_DP_EP"), RdmaSimaiWorkload::Group::DP_EP),
          std::make_pair(std::string("_EP"), RdmaSimaiWorkload::Group::EP)})
    {
        if (base.size() > suffix.size() &&
            base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            base.resize(base.size() - suffix.size());
            c.group = group;
            break;
        }
    }
    const auto it = BaseTypes().find(base);
    if (it == BaseTypes().end())
    {
        r.Fail("unknown collective '" + type +
               "': expected NONE, or ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL or "
               "ALLREDUCEALLTOALL, alone or with _EP or _DP_EP");
    }
    c.none = false;
    c.modelled = it->second.first;
    c.kind = it->second.second;
    return c;
}

/// \return "<path>:<line>: " \param path the file \param line the line
std::string
At(const std::string& path, uint32_t line)
{
    return path + ":" + std::to_string(line) + ": ";
}

/**
 * \brief Read line 1's "key: value" pairs into w.
 * \param r the reader \param tokens line 1 \param w the workload
 */
void
ParseHeader(const RdmaTextReader& r, const std::vector<std::string>& tokens, RdmaSimaiWorkload& w)
{
    const uint64_t most = 1u << 24;
    std::map<std::string, uint32_t*> counts{{"model_parallel_NPU_group:", &w.tp},
                                            {"ep:", &w.ep},
                                            {"pp:", &w.pp},
                                            {"vpp:", &w.vpp},
                                            {"ga:", &w.ga},
                                            {"all_gpus:", &w.allGpus}};
    for (std::size_t i = 1; i < tokens.size(); ++i)
    {
        const std::string& key = tokens[i];
        const auto value = [&](const std::string& what) -> const std::string& {
            if (i + 1 >= tokens.size())
            {
                r.Fail("'" + key + "' needs " + what + ", found the end of the line");
            }
            return tokens[++i];
        };
        if (counts.count(key))
        {
            *counts[key] = static_cast<uint32_t>(
                r.ToUint(value("a count"), key + " (1-" + std::to_string(most) + ")", 1, most));
        }
        else if (key == "pp_comm" || key == "pp_comm:")
        {
            w.ppComm = r.ToUint(value("bytes"), "pp_comm (bytes)", 0, uint64_t(1) << 63);
        }
        else if (key == "checkpoints:" || key == "checkpoint_initiates:")
        {
            const uint64_t n = r.ToUint(value("a count"), key + " (a count)", 0, most);
            for (uint64_t k = 0; k < n; ++k)
            {
                r.ToUint(value("a layer number"), key + " layer (a layer number)", 0, most);
            }
            if (key == "checkpoints:")
            {
                w.checkpoints = static_cast<uint32_t>(n);
            }
        }
        else
        {
            r.Fail("unknown header field '" + key +
                   "': expected model_parallel_NPU_group:, ep:, pp:, vpp:, ga:, all_gpus:, "
                   "checkpoints:, checkpoint_initiates: or pp_comm:");
        }
    }
    if (w.IsDataParallelOnly())
    {
        // SimAI reads the parallelism of the transformer policies only.
        if (w.tp > 1 || w.pp > 1 || w.ep > 1)
        {
            w.warnings.push_back(At(w.path, 1) + "model_parallel_NPU_group, pp and ep are not " +
                                 "read under the " + w.policy + " policy (as in SimAI): " +
                                 "TP = pp = ep = 1");
        }
        w.tp = w.pp = w.ep = 1;
    }
    if (w.tp == 0)
    {
        r.Fail("expected model_parallel_NPU_group: <TP> on line 1");
    }
}

} // namespace

const char*
RdmaSimaiGroupName(RdmaSimaiWorkload::Group g)
{
    switch (g)
    {
    case RdmaSimaiWorkload::Group::TP:
        return "TP";
    case RdmaSimaiWorkload::Group::DP:
        return "DP";
    case RdmaSimaiWorkload::Group::EP:
        return "EP";
    default:
        return "DP_EP";
    }
}

RdmaSimaiWorkload
RdmaSimaiWorkload::ReadFile(const std::string& path)
{
    std::ifstream in = RdmaTextReader::Open(path);
    return Parse(in, path);
}

namespace
{

/// What the layers ask that is not modelled: the first line of each kind, and a count.
struct LayerNotes
{
    uint32_t firstWg{0};         //!< first weight-gradient collective
    uint32_t firstUpdate{0};     //!< first update time
    uint32_t firstUnmodelled{0}; //!< first collective not modelled
    uint32_t unmodelled{0};      //!< collectives not modelled
    uint32_t firstBroadcast{0};  //!< first BROADCAST
    uint32_t broadcasts{0};      //!< BROADCASTs (SimAI runs none)
    uint32_t firstUninvolved{0}; //!< first forward or input-gradient collective of DATA/MICRO
    uint32_t uninvolved{0};      //!< those collectives (SimAI runs none)
};

/**
 * \brief Read the policy and header line (line 1) and warn of what it asks
 * that is not modelled (checkpoints, pipeline stages).
 * \param r the reader \param tokens scratch \param w the workload \throws as r.Fail
 */
/**
 * \brief Check the groups against all_gpus: TP x pp divides it, ep divides DP.
 * \param w the workload, allGpus given \throws std::runtime_error "<path>:1: ..."
 */
void
CheckGroups(const RdmaSimaiWorkload& w)
{
    if (w.allGpus % (uint64_t(w.tp) * w.pp) != 0)
    {
        throw std::runtime_error(At(w.path, 1) + "all_gpus " + std::to_string(w.allGpus) +
                                 " is not a multiple of model_parallel_NPU_group x pp = " +
                                 std::to_string(uint64_t(w.tp) * w.pp));
    }
    if (w.GetDp() % w.ep != 0)
    {
        throw std::runtime_error(At(w.path, 1) + "ep " + std::to_string(w.ep) +
                                 " does not divide the data-parallel size " +
                                 std::to_string(w.GetDp()) + " (all_gpus / (TP x pp))");
    }
}

/**
 * \brief Warn of the collectives whose group is one rank (no traffic, as in
 * SimAI), once the GPU count is known.
 * \param w the workload, allGpus given
 */
void
NoteOneRankGroups(RdmaSimaiWorkload& w)
{
    uint32_t count = 0;
    uint32_t first = 0;
    for (const auto& l : w.layers)
    {
        for (int phase = w.IsDataParallelOnly() ? 2 : 0; phase < 3; ++phase)
        {
            const auto& c = l.comm[phase];
            if (!c.none && c.modelled && c.bytes > 0 && w.GetGroupSize(c.group) < 2)
            {
                first = first ? first : l.line;
                ++count;
            }
        }
    }
    if (count > 0)
    {
        w.warnings.push_back(At(w.path, first) + std::to_string(count) +
                             " collective(s) have a group of one rank (TP " +
                             std::to_string(w.tp) + ", DP " + std::to_string(w.GetDp()) +
                             ", ep " + std::to_string(w.ep) +
                             "): no traffic, as in SimAI");
    }
}

void
ParsePreamble(RdmaTextReader& r, std::vector<std::string>& tokens, RdmaSimaiWorkload& w)
{
    if (!r.NextLine(tokens))
    {
        r.Fail("expected the parallelism policy line, found end of file");
    }
    w.policy = tokens[0];
    if (w.policy != "HYBRID_TRANSFORMER_FWD_IN_BCKWD" && w.policy != "HYBRID_TRANSFORMER" &&
        w.policy != "DATA" && w.policy != "MICRO")
    {
        r.Fail("parallelism policy '" + w.policy +
               "' is not read here: expected HYBRID_TRANSFORMER_FWD_IN_BCKWD or "
               "HYBRID_TRANSFORMER (AICB's training workloads), DATA or MICRO (AICB's micro "
               "tests)");
    }
    ParseHeader(r, tokens, w);
    if (w.checkpoints > 0)
    {
        w.warnings.push_back(At(w.path, r.GetLine()) + "checkpoints: " +
                             std::to_string(w.checkpoints) +
                             ": activation recomputation (the forward pass rerun in the backward "
                             "pass) is not modelled");
    }
    if (w.pp > 1)
    {
        w.warnings.push_back(At(w.path, r.GetLine()) + "pp: " + std::to_string(w.pp) +
                             ": pipeline stages are not modelled: every rank runs every layer, "
                             "and the stages' sends of pp_comm bytes are left out (SimAI adds "
                             "them analytically, zero at its default pp_overlap_ratio of 1; "
                             "a Chakra trace's sends run)");
    }
}

/**
 * \return one layer line's layer
 * \param r the reader \param tokens the line's fields \param count the layer count
 * \param notes updated with what the layer asks that is not modelled \throws as r.Fail
 */
RdmaSimaiWorkload::Layer
ParseLayer(const RdmaTextReader& r,
           const std::vector<std::string>& tokens,
           uint64_t count,
           bool dataParallelOnly,
           LayerNotes& notes)
{
    if (tokens.size() != 12)
    {
        r.Fail("expected 12 fields (name, dependency, then compute time, collective and "
               "bytes of the forward pass, input gradient and weight gradient, then the "
               "update time), got " +
               std::to_string(tokens.size()));
    }
    RdmaSimaiWorkload::Layer layer;
    layer.name = tokens[0];
    layer.line = r.GetLine();
    if (tokens[1] != "-1")
    {
        r.ToUint(tokens[1], "the dependency (-1 or a layer number)", 0, count);
    }
    for (int phase = 0; phase < 3; ++phase)
    {
        layer.compute[phase] =
            r.ToUint(tokens[2 + 3 * phase], "a compute time (ns)", 0, uint64_t(1) << 62);
        if (tokens[3 + 3 * phase] == "BROADCAST")
        {
            // SimAI's loader knows no broadcast: it runs nothing for it.
            notes.firstBroadcast = notes.firstBroadcast ? notes.firstBroadcast : layer.line;
            ++notes.broadcasts;
            layer.comm[phase] = ParseComm(r, "NONE", tokens[4 + 3 * phase], phase == 2);
            layer.comm[phase].type = "BROADCAST";
            continue;
        }
        layer.comm[phase] = ParseComm(r, tokens[3 + 3 * phase], tokens[4 + 3 * phase], phase == 2);
        const RdmaSimaiWorkload::Comm& c = layer.comm[phase];
        if (dataParallelOnly && phase < 2 && !c.none)
        {
            notes.firstUninvolved = notes.firstUninvolved ? notes.firstUninvolved : layer.line;
            ++notes.uninvolved;
        }
        if (!c.none && !c.modelled)
        {
            notes.firstUnmodelled = notes.firstUnmodelled ? notes.firstUnmodelled : layer.line;
            ++notes.unmodelled;
        }
    }
    layer.updateTime = r.ToUint(tokens[11], "the update time (ns)", 0, uint64_t(1) << 62);
    if (!layer.comm[2].none && layer.comm[2].bytes > 0 && notes.firstWg == 0)
    {
        notes.firstWg = layer.line;
    }
    if (layer.updateTime > 0 && notes.firstUpdate == 0)
    {
        notes.firstUpdate = layer.line;
    }
    return layer;
}

/// \brief Warn of what the layers ask that is not modelled.
/// \param notes what they ask \param w the workload
void
WarnAboutLayers(const LayerNotes& notes, RdmaSimaiWorkload& w)
{
    if (notes.firstWg)
    {
        w.warnings.push_back(At(w.path, notes.firstWg) +
                             "weight-gradient collectives run in turn here; SimAI issues them "
                             "without blocking, overlapped with the backward pass");
    }
    if (notes.firstUpdate)
    {
        w.warnings.push_back(At(w.path, notes.firstUpdate) +
                             "the update time after each collective (last field) is not "
                             "modelled");
    }
    if (notes.broadcasts)
    {
        w.warnings.push_back(At(w.path, notes.firstBroadcast) +
                             std::to_string(notes.broadcasts) +
                             " BROADCAST collective(s) left out, as SimAI's loader (which knows "
                             "ALLREDUCE, ALLGATHER, REDUCESCATTER and ALLTOALL) leaves them out");
    }
    if (notes.uninvolved)
    {
        w.warnings.push_back(At(w.path, notes.firstUninvolved) +
                             std::to_string(notes.uninvolved) +
                             " forward or input-gradient collective(s) left out: the " + w.policy +
                             " policy runs the weight-gradient collectives only, as in SimAI");
    }
    if (notes.unmodelled)
    {
        w.warnings.push_back(At(w.path, notes.firstUnmodelled) +
                             std::to_string(notes.unmodelled) +
                             " ALLREDUCEALLTOALL collective(s) are not modelled and left out");
    }
}

} // namespace

RdmaSimaiWorkload
RdmaSimaiWorkload::Parse(std::istream& in, const std::string& name)
{
    RdmaTextReader r(in, name);
    RdmaSimaiWorkload w;
    w.path = name;
    std::vector<std::string> tokens;
    ParsePreamble(r, tokens, w);
    if (!r.NextLine(tokens) || tokens.size() != 1)
    {
        r.Fail("expected the layer count alone on line 2");
    }
    const auto count = r.ToUint(tokens[0], "the layer count (1-1000000)", 1, 1000000);
    LayerNotes notes;
    for (uint64_t l = 0; l < count; ++l)
    {
        if (!r.NextLine(tokens))
        {
            if (l == 0)
            {
                r.Fail("expected " + std::to_string(count) +
                       " layer lines (line 2), found none and the end of the file");
            }
            // SimAI reads the missing layers as empty ones (its stream reads
            // fail: no compute, no collective); so it runs the lines given.
            w.warnings.push_back(At(w.path, 2) + "the layer count is " + std::to_string(count) +
                                 ", the file has " + std::to_string(l) + " layer lines: the " +
                                 std::to_string(l) + " are run (SimAI reads the missing ones "
                                 "as empty layers)");
            break;
        }
        w.layers.push_back(ParseLayer(r, tokens, count, w.IsDataParallelOnly(), notes));
    }
    if (r.NextLine(tokens))
    {
        r.Fail("more layer lines than the layer count on line 2 (" + std::to_string(count) + ")");
    }
    WarnAboutLayers(notes, w);
    if (w.allGpus > 0)
    {
        CheckGroups(w);
        NoteOneRankGroups(w);
    }
    return w;
}

bool
RdmaSimaiWorkload::IsDataParallelOnly() const
{
    return policy == "DATA" || policy == "MICRO";
}

void
RdmaSimaiWorkload::SetAllGpus(uint32_t gpus)
{
    allGpus = gpus;
    CheckGroups(*this);
    warnings.push_back(At(path, 1) + "no all_gpus on line 1 (" +
                       (policy == "MICRO" ? std::string("a MICRO file gives none")
                                          : std::string("older AICB files give none")) +
                       "): the job's " + std::to_string(gpus) + " GPUs are taken");
    NoteOneRankGroups(*this);
}

uint32_t
RdmaSimaiWorkload::GetDp() const
{
    return allGpus / (tp * pp);
}

uint32_t
RdmaSimaiWorkload::GetGroupSize(Group g) const
{
    switch (g)
    {
    case Group::TP:
        return tp;
    case Group::DP:
        return GetDp();
    case Group::EP:
        return ep;
    default:
        return GetDp() / ep;
    }
}

std::vector<std::vector<uint32_t>>
RdmaSimaiWorkload::GetGroups(Group g) const
{
    std::vector<std::vector<uint32_t>> groups;
    if (allGpus == 0)
    {
        return groups;
    }
    const uint32_t dp = GetDp();
    for (uint32_t stage = 0; stage < pp; ++stage)
    {
        const uint32_t base = stage * dp * tp;
        if (g == Group::TP)
        {
            for (uint32_t d = 0; d < dp; ++d)
            {
                groups.emplace_back();
                for (uint32_t t = 0; t < tp; ++t)
                {
                    groups.back().push_back(base + d * tp + t);
                }
            }
            continue;
        }
        for (uint32_t t = 0; t < tp; ++t)
        {
            // The data-parallel group of (stage, t), cut by EP: EP groups are
            // ep consecutive members, DP_EP groups the members of one EP index.
            const uint32_t size = GetGroupSize(g);
            const uint32_t n = dp / size;
            for (uint32_t k = 0; k < n; ++k)
            {
                groups.emplace_back();
                for (uint32_t i = 0; i < size; ++i)
                {
                    const uint32_t d = g == Group::EP ? k * ep + i : (g == Group::DP_EP ? i * ep + k
                                                                                        : i);
                    groups.back().push_back(base + d * tp + t);
                }
            }
        }
    }
    return groups;
}

std::vector<RdmaSimaiWorkload::Item>
RdmaSimaiWorkload::GetIteration() const
{
    std::vector<Item> items;
    const auto compute = [&items](uint64_t ns, uint32_t line) {
        if (ns == 0)
        {
            return;
        }
        if (!items.empty() && items.back().compute)
        {
            items.back().computeNs += ns;
            return;
        }
        Item i;
        i.compute = true;
        i.computeNs = ns;
        i.line = line;
        items.push_back(i);
    };
    const auto collective = [this, &items](const Layer& l, int phase) {
        const Comm& c = l.comm[phase];
        if (c.none || !c.modelled || c.bytes == 0 || GetGroupSize(c.group) < 2)
        {
            return;
        }
        static const char* const phases[] = {" fwd", " ig", " wg"};
        Item i;
        i.comm = &c;
        i.line = l.line;
        i.layer = l.name + phases[phase];
        items.push_back(i);
    };
    if (allGpus == 0)
    {
        return items;
    }
    if (policy == "MICRO")
    {
        for (const Layer& l : layers)
        {
            collective(l, 2);
        }
        return items;
    }
    const bool data = policy == "DATA";
    for (const Layer& l : layers)
    {
        compute(l.compute[0], l.line);
        if (!data)
        {
            collective(l, 0);
        }
    }
    for (auto l = layers.rbegin(); l != layers.rend(); ++l)
    {
        if (data)
        {
            compute(l->compute[2], l->line);
            collective(*l, 2);
            compute(l->compute[1], l->line);
            continue;
        }
        for (int phase = 1; phase < 3; ++phase)
        {
            compute(l->compute[phase], l->line);
            collective(*l, phase);
        }
    }
    return items;
}

} // namespace ns3
