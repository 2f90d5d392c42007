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

std::vector<RdmaLinkFailure>
RdmaParseLinkFailures(const std::string& text, const RdmaTopologySpec& topo)
{
    static const std::regex item("([0-9]{1,9})-([0-9]{1,9})@(\\S+)");
    std::vector<RdmaLinkFailure> out;
    std::set<uint32_t> named;
    const std::string form = "A-B@time (node ids and a time, for example 17-33@1ms)";
    ForEachItem(text, item, form, [&](const std::string& one, const std::smatch& m, Time at) {
        const uint32_t a = std::stoul(m[1].str());
        const uint32_t b = std::stoul(m[2].str());
        uint32_t link = topo.links.size();
        for (uint32_t i = 0; i < topo.links.size() && link == topo.links.size(); ++i)
        {
            const auto& l = topo.links[i];
            if (((l.a == a && l.b == b) || (l.a == b && l.b == a)) && !named.count(i))
            {
                link = i;
            }
        }
        if (link == topo.links.size())
        {
            throw std::invalid_argument("'" + one + "': no link joins nodes " + m[1].str() +
                                        " and " + m[2].str() +
                                        (named.empty() ? "" : " (that is not already named)") +
                                        " (nodes.csv of a run names the ids)");
        }
        named.insert(link);
        out.push_back({link, at});
    });
    return out;
}

std::vector<RdmaLinkFailure>
RdmaParseNodeFailures(const std::string& text, const RdmaTopologySpec& topo)
{
    static const std::regex item("([0-9]{1,9})@(\\S+)");
    std::vector<RdmaLinkFailure> out;
    std::set<uint32_t> named;
    const std::string form = "ID@time (a node id and a time, for example 16@1ms)";
    ForEachItem(text, item, form, [&](const std::string& one, const std::smatch& m, Time at) {
        const uint32_t node = std::stoul(m[1].str());
        if (node >= topo.GetNNodes())
        {
            const uint32_t n = topo.GetNNodes();
            throw std::invalid_argument(
                "'" + one + "': no node " + m[1].str() + " (the topology has " + std::to_string(n) +
                " nodes, 0 to " + std::to_string(n - 1) + "; nodes.csv of a run names them)");
        }
        if (!named.insert(node).second)
        {
            throw std::invalid_argument("'" + one + "': node " + m[1].str() + " is named twice");
        }
        for (uint32_t i = 0; i < topo.links.size(); ++i)
        {
            if (topo.links[i].a == node || topo.links[i].b == node)
            {
                out.push_back({i, at});
            }
        }
    });
    return out;
}

std::vector<RdmaLinkFailure>
RdmaParsePlaneFailures(const std::string& text, const RdmaTopologySpec& topo)
{
    static const std::regex item("([0-9]{1,9})@(\\S+)");
    std::vector<RdmaLinkFailure> out;
    std::set<uint32_t> named;
    const std::string form = "P@time (a plane and a time, for example 1@2ms)";
    ForEachItem(text, item, form, [&](const std::string& one, const std::smatch& m, Time at) {
        const uint32_t plane = std::stoul(m[1].str());
        if (plane >= topo.planes)
        {
            throw std::invalid_argument("'" + one + "': no plane " + m[1].str() +
                                        " (the fabric has " + std::to_string(topo.planes) +
                                        (topo.planes == 1 ? " plane, 0" : " planes, 0 to " +
                                                     std::to_string(topo.planes - 1)) +
                                        "; topology.planes)");
        }
        if (!named.insert(plane).second)
        {
            throw std::invalid_argument("'" + one + "': plane " + m[1].str() + " is named twice");
        }
        for (uint32_t i = 0; i < topo.links.size(); ++i)
        {
            if (topo.links[i].plane == plane)
            {
                out.push_back({i, at});
            }
        }
    });
    return out;
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
