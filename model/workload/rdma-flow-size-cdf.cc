/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-size-cdf.h"

#include "rdma-text-reader.h"

#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Format a number for an error message as it would appear in a file.
std::string
Num(double v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

/**
 * Check point i against the rules of HPCC CustomRand.testCdf.
 * \return an empty string, or what was expected
 */
std::string
CheckPoint(const std::vector<RdmaFlowSizeCdf::Point>& points, std::size_t i, bool last)
{
    const auto& p = points[i];
    if (p.first < 0)
    {
        return "size_bytes >= 0, got " + Num(p.first);
    }
    // Sizes become uint64_t flow sizes (SizeAt); 2^53 keeps them exact in a
    // double and far below the conversion's undefined range (found by fuzzing).
    if (p.first > 9007199254740992.0)
    {
        return "size_bytes <= 2^53, got " + Num(p.first);
    }
    if (i == 0 && p.second != 0)
    {
        return "the first point's cumulative_percent to be 0, got " + Num(p.second);
    }
    if (i > 0 && p.first <= points[i - 1].first)
    {
        return "size_bytes to increase (previous point " + Num(points[i - 1].first) + "), got " +
               Num(p.first);
    }
    if (i > 0 && p.second <= points[i - 1].second)
    {
        return "cumulative_percent to increase (previous point " + Num(points[i - 1].second) +
               "), got " + Num(p.second);
    }
    if (last && p.second != 100)
    {
        return "the last point's cumulative_percent to be 100, got " + Num(p.second);
    }
    return "";
}

} // namespace

RdmaFlowSizeCdf
RdmaFlowSizeCdf::FromFile(const std::string& path)
{
    std::ifstream in = RdmaTextReader::Open(path);
    return Parse(in, path);
}

RdmaFlowSizeCdf
RdmaFlowSizeCdf::Parse(std::istream& in, const std::string& name)
{
    RdmaTextReader reader(in, name);
    std::vector<Point> points;
    std::vector<std::string> tokens;
    uint32_t previousLine = 0;
    while (reader.NextLine(tokens))
    {
        if (tokens.size() != 2)
        {
            reader.Fail("expected '<size_bytes> <cumulative_percent>', got " +
                        std::to_string(tokens.size()) + " fields");
        }
        points.emplace_back(reader.ToDouble(tokens[0], "size_bytes (a number)"),
                            reader.ToDouble(tokens[1], "cumulative_percent (a number)"));
        // The last-point rule is checked once the end is known.
        std::string error = CheckPoint(points, points.size() - 1, false);
        if (!error.empty())
        {
            reader.Fail("expected " + error);
        }
        previousLine = reader.GetLine();
    }
    if (points.size() < 2)
    {
        reader.Fail("expected at least two points ('0 0' ... '<max> 100'), found " +
                    std::to_string(points.size()));
    }
    std::string error = CheckPoint(points, points.size() - 1, true);
    if (!error.empty())
    {
        throw std::runtime_error(name + ":" + std::to_string(previousLine) + ": expected " + error);
    }
    return RdmaFlowSizeCdf(std::move(points), name);
}

RdmaFlowSizeCdf::RdmaFlowSizeCdf(std::vector<Point> points, const std::string& name)
    : m_points(std::move(points)),
      m_mean(0)
{
    if (m_points.size() < 2)
    {
        throw std::runtime_error(name + ": expected at least two points, got " +
                                 std::to_string(m_points.size()));
    }
    for (std::size_t i = 0; i < m_points.size(); ++i)
    {
        std::string error = CheckPoint(m_points, i, i + 1 == m_points.size());
        if (!error.empty())
        {
            throw std::runtime_error(name + ": point " + std::to_string(i + 1) + ": expected " +
                                     error);
        }
    }
    double sum = 0;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        sum += (m_points[i].first + m_points[i - 1].first) / 2.0 *
               (m_points[i].second - m_points[i - 1].second);
    }
    m_mean = sum / 100;
}

uint64_t
RdmaFlowSizeCdf::SizeAt(double percent) const
{
    // The first point from the second on whose percent is >= r (HPCC scans
    // linearly; a binary search finds the same point).
    auto it = std::lower_bound(m_points.begin() + 1,
                               m_points.end(),
                               percent,
                               [](const Point& p, double r) { return p.second < r; });
    double x = m_points.back().first;
    if (it != m_points.end())
    {
        const Point& a = *(it - 1);
        const Point& b = *it;
        x = a.first + (b.first - a.first) / (b.second - a.second) * (percent - a.second);
    }
    auto size = static_cast<uint64_t>(x > 0 ? x : 0);
    return size == 0 ? 1 : size;
}

uint64_t
RdmaFlowSizeCdf::Sample(Ptr<UniformRandomVariable> uniform) const
{
    return SizeAt(uniform->GetValue(0, 100));
}

double
RdmaFlowSizeCdf::GetMean() const
{
    return m_mean;
}

double
RdmaFlowSizeCdf::GetMax() const
{
    return m_points.back().first;
}

const std::vector<RdmaFlowSizeCdf::Point>&
RdmaFlowSizeCdf::GetPoints() const
{
    return m_points;
}

} // namespace ns3
