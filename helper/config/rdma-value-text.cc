/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-value-text.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{

namespace
{

/**
 * \return count (in the smallest unit) in the largest of the units that
 * holds it with at most three decimals, the unit appended ("" if none does)
 * \param count the amount in the smallest unit
 * \param units (name, size in the smallest unit), largest first
 */
std::string
InLargestUnit(long double count, const std::vector<std::pair<const char*, long double>>& units)
{
    for (const auto& [name, size] : units)
    {
        const long double v = count / size;
        const long double milli = v * 1000;
        if (std::fabs(v) >= 1 && std::fabs(milli - std::round(milli)) < 1e-6)
        {
            std::ostringstream s;
            s.precision(3);
            s << std::fixed << v;
            std::string t = s.str();
            t.erase(t.find_last_not_of('0') + 1);
            if (t.back() == '.')
            {
                t.pop_back();
            }
            return t + name;
        }
    }
    return "";
}

/// Time units, largest first, in picoseconds.
const std::vector<std::pair<const char*, long double>> TIME_UNITS{{"s", 1e12L},
                                                                 {"ms", 1e9L},
                                                                 {"us", 1e6L},
                                                                 {"ns", 1e3L},
                                                                 {"ps", 1.0L}};

} // namespace

std::string
RdmaTimeText(Time t)
{
    if (t.IsZero())
    {
        return "0s";
    }
    const std::string text = InLargestUnit(t.GetPicoSeconds(), TIME_UNITS);
    if (!text.empty())
    {
        return text;
    }
    std::ostringstream s;
    s << t;
    return s.str();
}

std::string
RdmaRateText(DataRate r)
{
    if (r.GetBitRate() == 0)
    {
        return "0bps";
    }
    const std::string text =
        InLargestUnit(r.GetBitRate(), {{"Gbps", 1e9L}, {"Mbps", 1e6L}, {"Kbps", 1e3L}, {"bps", 1.0L}});
    return text.empty() ? std::to_string(r.GetBitRate()) + "bps" : text;
}

std::size_t
RdmaDecimalLength(const std::string& text)
{
    const auto digitsFrom = [&text](std::size_t i) {
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        {
            ++i;
        }
        return i;
    };
    std::size_t end = digitsFrom(0);
    bool digits = end > 0;
    if (end < text.size() && text[end] == '.')
    {
        const std::size_t fraction = digitsFrom(end + 1);
        digits = digits || fraction > end + 1;
        end = fraction;
    }
    if (!digits)
    {
        return 0;
    }
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E'))
    {
        std::size_t i = end + 1;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        {
            ++i;
        }
        const std::size_t exponent = digitsFrom(i);
        if (exponent > i)
        {
            end = exponent;
        }
    }
    return end;
}

} // namespace ns3
