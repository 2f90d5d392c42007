/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-link-failures.h"

#include "rdma-value-check.h"

#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

std::vector<RdmaLinkFailure>
RdmaParseLinkFailures(const std::string& text, const RdmaTopologySpec& topo)
{
    static const std::regex item("([0-9]{1,9})-([0-9]{1,9})@(\\S+)");
    std::vector<RdmaLinkFailure> out;
    std::set<uint32_t> named;
    std::istringstream in(text);
    std::string one;
    while (std::getline(in, one, ','))
    {
        std::smatch m;
        if (!std::regex_match(one, m, item))
        {
            throw std::invalid_argument("'" + one + "' is not A-B@time (node ids and a time, "
                                        "for example 17-33@1ms)");
        }
        const uint32_t a = std::stoul(m[1].str());
        const uint32_t b = std::stoul(m[2].str());
        const std::string when = m[3].str();
        const Ptr<const AttributeChecker> time = MakeTimeChecker();
        const std::string expected = RdmaCheckValue(time, when);
        if (!expected.empty())
        {
            throw std::invalid_argument("'" + one + "': the time '" + when + "': expected " +
                                        expected);
        }
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
        TimeValue v;
        v.DeserializeFromString(when, time);
        out.push_back({link, v.Get()});
    }
    if (!text.empty() && text.back() == ',')
    {
        throw std::invalid_argument("an empty item after the last ','");
    }
    return out;
}

} // namespace ns3
