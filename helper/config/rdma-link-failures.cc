/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-link-failures.h"

#include "rdma-value-check.h"

#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/**
 * \return an item's time \param one the item (for errors) \param when its time text
 * \throws std::invalid_argument if it is not a time with its unit, >= 0
 */
Time
ParseWhen(const std::string& one, const std::string& when)
{
    const Ptr<const AttributeChecker> time = MakeTimeChecker();
    const std::string expected = RdmaCheckValue(time, when);
    if (!expected.empty())
    {
        throw std::invalid_argument("'" + one + "': the time '" + when + "': expected " + expected);
    }
    TimeValue v;
    v.DeserializeFromString(when, time);
    return v.Get();
}

/**
 * \brief Read a list of "<what>@time" items separated by commas.
 * \param text the list \param item an item's pattern, its last group the time
 * \param form what an item must look like, for the error
 * \param each called with the item, its match and its time
 * \throws std::invalid_argument naming an item that does not match, a bad
 *         time, or an empty item after the last ','
 */
void
ForEachItem(const std::string& text,
            const std::regex& item,
            const std::string& form,
            const std::function<void(const std::string&, const std::smatch&, Time)>& each)
{
    std::istringstream in(text);
    std::string one;
    while (std::getline(in, one, ','))
    {
        std::smatch m;
        if (!std::regex_match(one, m, item))
        {
            throw std::invalid_argument("'" + one + "' is not " + form);
        }
        each(one, m, ParseWhen(one, m[m.size() - 1].str()));
    }
    if (!text.empty() && text.back() == ',')
    {
        throw std::invalid_argument("an empty item after the last ','");
    }
}
} // namespace

uint32_t
RdmaFindLink(const RdmaTopologySpec& topo,
             uint32_t a,
             uint32_t b,
             const std::set<uint32_t>& named,
             const std::string& item)
{
    for (uint32_t i = 0; i < topo.links.size(); ++i)
    {
        const auto& l = topo.links[i];
        if (((l.a == a && l.b == b) || (l.a == b && l.b == a)) && !named.count(i))
        {
            return i;
        }
    }
    throw std::invalid_argument("'" + item + "': no link joins nodes " + std::to_string(a) +
                                " and " + std::to_string(b) +
                                (named.empty() ? "" : " (that is not already named)") +
                                " (nodes.csv of a run names the ids)");
}

std::vector<RdmaLinkFailure>
RdmaParseLinkFailures(const std::string& text, const RdmaTopologySpec& topo)
{
    if (text.empty())
    {
        return {}; // none (and no pattern compiled: most runs)
    }
    static const std::regex item("([0-9]{1,9})-([0-9]{1,9})@(\\S+)");
    std::vector<RdmaLinkFailure> out;
    std::set<uint32_t> named;
    const std::string form = "A-B@time (node ids and a time, for example 17-33@1ms)";
    ForEachItem(text, item, form, [&](const std::string& one, const std::smatch& m, Time at) {
        const uint32_t a = std::stoul(m[1].str());
        const uint32_t b = std::stoul(m[2].str());
        const uint32_t link = RdmaFindLink(topo, a, b, named, one);
        named.insert(link);
        out.push_back({link, at});
    });
    return out;
}

namespace
{
/**
 * \brief "N@time" items, N naming a node or a plane: each fails every link
 * `has` says belongs to it.
 * \param text the value \param form the item's form for messages
 * \param noun "node" or "plane" \param unknown the message's end for an N
 *        that does not exist, "" if it does \param has whether a link belongs to N
 * \return a failure per link of each N, in the order given
 */
std::vector<RdmaLinkFailure>
ParseIdItems(const std::string& text,
             const RdmaTopologySpec& topo,
             const std::string& form,
             const std::string& noun,
             const std::function<std::string(uint32_t)>& unknown,
             const std::function<bool(uint32_t, const RdmaTopologySpec::Link&)>& has)
{
    if (text.empty())
    {
        return {}; // none (and no pattern compiled: most runs)
    }
    static const std::regex item("([0-9]{1,9})@(\\S+)");
    std::vector<RdmaLinkFailure> out;
    std::set<uint32_t> named;
    ForEachItem(text, item, form, [&](const std::string& one, const std::smatch& m, Time at) {
        const uint32_t id = std::stoul(m[1].str());
        const std::string missing = unknown(id);
        if (!missing.empty())
        {
            throw std::invalid_argument("'" + one + "': no " + noun + " " + m[1].str() + " (" +
                                        missing + ")");
        }
        if (!named.insert(id).second)
        {
            throw std::invalid_argument("'" + one + "': " + noun + " " + m[1].str() +
                                        " is named twice");
        }
        for (uint32_t i = 0; i < topo.links.size(); ++i)
        {
            if (has(id, topo.links[i]))
            {
                out.push_back({i, at});
            }
        }
    });
    return out;
}

} // namespace

std::vector<RdmaLinkFailure>
RdmaParseNodeFailures(const std::string& text, const RdmaTopologySpec& topo)
{
    const uint32_t n = topo.GetNNodes();
    return ParseIdItems(
        text,
        topo,
        "ID@time (a node id and a time, for example 16@1ms)",
        "node",
        [n](uint32_t node) {
            return node < n ? std::string()
                            : "the topology has " + std::to_string(n) + " nodes, 0 to " +
                                  std::to_string(n - 1) + "; nodes.csv of a run names them";
        },
        [](uint32_t node, const RdmaTopologySpec::Link& l) { return l.a == node || l.b == node; });
}

std::vector<RdmaLinkFailure>
RdmaParsePlaneFailures(const std::string& text, const RdmaTopologySpec& topo)
{
    const uint32_t n = topo.planes;
    return ParseIdItems(
        text,
        topo,
        "P@time (a plane and a time, for example 1@2ms)",
        "plane",
        [n](uint32_t plane) {
            return plane < n ? std::string()
                             : "the fabric has " + std::to_string(n) +
                                   (n == 1 ? " plane, 0" : " planes, 0 to " + std::to_string(n - 1)) +
                                   "; topology.planes";
        },
        [](uint32_t plane, const RdmaTopologySpec::Link& l) { return l.plane == plane; });
}

std::vector<RdmaLinkFailure>
RdmaJoinFailures(const std::vector<RdmaLinkFailure>& links,
                 const std::vector<RdmaLinkFailure>& nodes)
{
    std::map<uint32_t, Time> earliest;
    for (const auto* list : {&links, &nodes})
    {
        for (const RdmaLinkFailure& f : *list)
        {
            auto [it, added] = earliest.emplace(f.link, f.at);
            if (!added && f.at < it->second)
            {
                it->second = f.at;
            }
        }
    }
    std::vector<RdmaLinkFailure> out;
    for (const auto& [link, at] : earliest)
    {
        out.push_back({link, at});
    }
    return out;
}

} // namespace ns3
