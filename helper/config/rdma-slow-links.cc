/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-slow-links.h"

#include "rdma-link-failures.h"

#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

std::vector<RdmaSlowLink>
RdmaParseSlowLinks(const std::string& text, const RdmaTopologySpec& topo)
{
    if (text.empty())
    {
        return {}; // none (and no pattern compiled: most runs)
    }
    static const std::regex item("([0-9]{1,9})([->])([0-9]{1,9}):([0-9]*\\.?[0-9]+)");
    std::vector<RdmaSlowLink> out;
    std::set<uint32_t> named;
    std::istringstream in(text);
    std::string one;
    while (std::getline(in, one, ','))
    {
        std::smatch m;
        if (!std::regex_match(one, m, item))
        {
            throw std::invalid_argument("'" + one +
                                        "' is not A-B:F or A>B:F (node ids and the fraction of "
                                        "the rate kept, for example 24-32:0.25)");
        }
        const uint32_t a = std::stoul(m[1].str());
        const uint32_t b = std::stoul(m[3].str());
        const double fraction = std::stod(m[4].str());
        if (!(fraction > 0 && fraction < 1))
        {
            throw std::invalid_argument("'" + one + "': the fraction " + m[4].str() +
                                        " is not in (0, 1)");
        }
        const uint32_t link = RdmaFindLink(topo, a, b, named, one);
        named.insert(link);
        RdmaSlowLink s;
        s.link = link;
        s.fraction = fraction;
        if (m[2].str() == ">")
        {
            s.fromA = topo.links[link].a == a;
            s.fromB = !s.fromA;
        }
        out.push_back(s);
    }
    if (!text.empty() && text.back() == ',')
    {
        throw std::invalid_argument("an empty item after the last ','");
    }
    return out;
}

} // namespace ns3
