/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-key-names.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

namespace
{

/// \return the text in lower case
std::string
Lower(const std::string& s)
{
    std::string out = s;
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return out;
}

/// \return the part after the last '.' (the whole name without one)
std::string
LastPart(const std::string& s)
{
    const auto dot = s.rfind('.');
    return dot == std::string::npos ? s : s.substr(dot + 1);
}

} // namespace

std::size_t
RdmaKeyDistance(const std::string& aIn, const std::string& bIn)
{
    const std::string a = Lower(aIn);
    const std::string b = Lower(bIn);
    // d[i][j]: the distance of a's first i and b's first j characters.
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
    {
        d[i][0] = i;
    }
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
        d[0][j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i)
    {
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
            {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[a.size()][b.size()];
}

std::vector<std::string>
RdmaNearestKeys(const std::string& unknown, const std::vector<std::string>& known)
{
    const std::size_t limit = std::max<std::size_t>(2, unknown.size() / 4);
    const std::string last = Lower(LastPart(unknown));
    std::vector<std::pair<std::size_t, std::string>> near;
    for (const std::string& k : known)
    {
        const std::size_t d = RdmaKeyDistance(unknown, k);
        if (d <= limit || Lower(LastPart(k)) == last)
        {
            near.emplace_back(d, k);
        }
    }
    std::stable_sort(near.begin(), near.end(), [](const auto& x, const auto& y) {
        return x.first < y.first;
    });
    std::vector<std::string> out;
    for (std::size_t i = 0; i < near.size() && i < 3; ++i)
    {
        out.push_back(near[i].second);
    }
    return out;
}

std::string
RdmaDidYouMean(const std::string& unknown, const std::vector<std::string>& known)
{
    const std::vector<std::string> near = RdmaNearestKeys(unknown, known);
    if (near.empty())
    {
        return "";
    }
    std::string text = " (did you mean ";
    for (std::size_t i = 0; i < near.size(); ++i)
    {
        text += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + std::string("'") + near[i] +
                "'";
    }
    return text + "?)";
}

} // namespace ns3
