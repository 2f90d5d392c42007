/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FLOW_SIZE_CDF_H
#define RDMA_FLOW_SIZE_CDF_H

#include "ns3/ptr.h"

#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief A flow-size distribution given as a piecewise-linear CDF, in the
 * format of the HPCC simulator's traffic generator (the .txt files of
 * traffic_gen/ in github.com/alibaba-edu/High-Precision-Congestion-Control,
 * e.g. WebSearch, FB Hadoop, AliStorage 2019, Google RPC 2008; the module
 * ships them in data/cdf/, data/README.md gives each one's origin).
 *
 * File format: one point a line, "<size_bytes> <cumulative_percent>", two
 * numbers separated by white space; blank lines are skipped (the HPCC
 * generator would stop on one, the only place this reader is more lenient).
 * Validation is HPCC's CustomRand.testCdf: the first point's percent is 0,
 * the last one's is 100, and both columns strictly increase from point to
 * point. Sizes must also be >= 0. Every violation is a std::runtime_error
 * "<file>:<line>: expected ..., got ...".
 *
 * Sampling is HPCC's CustomRand.rand plus traffic_gen.py's rounding: draw r
 * uniform in [0, 100), take the first point i (from the second) with
 * percent_i >= r, interpolate linearly between points i-1 and i, truncate to
 * an integer, and make 0 into 1. The mean is CustomRand.getAvg: the
 * trapezoid rule over the same piecewise-linear CDF (the mean of sizes drawn
 * uniformly inside each segment, before truncation).
 */
class RdmaFlowSizeCdf
{
  public:
    /// A CDF point: size in bytes, cumulative percent (0-100).
    using Point = std::pair<double, double>;

    /**
     * \brief Read a CDF file.
     * \param path the file
     * \return the distribution
     * \throw std::runtime_error naming the file and line on any format error
     */
    static RdmaFlowSizeCdf FromFile(const std::string& path);
    /**
     * \brief Read a CDF from a stream.
     * \param in the text
     * \param name what errors call it (a file name)
     * \return the distribution
     * \throw std::runtime_error naming `name` and the line on any format error
     */
    static RdmaFlowSizeCdf Parse(std::istream& in, const std::string& name);
    /**
     * \brief Build from points (validated as a file is, "point N" in errors).
     * \param points the points, first percent 0, last 100, both increasing
     * \param name what errors call the list
     * \throw std::runtime_error on invalid points
     */
    explicit RdmaFlowSizeCdf(std::vector<Point> points, const std::string& name = "cdf");

    /**
     * \brief The size at a percentile (HPCC getValueFromPercentile, then
     * truncation, 0 -> 1).
     * \param percent r in [0, 100)
     * \return bytes, >= 1
     */
    uint64_t SizeAt(double percent) const;
    /**
     * \brief Draw a size.
     * \param uniform the caller's stream (one value in [0, 100) is drawn)
     * \return bytes, >= 1
     */
    uint64_t Sample(Ptr<UniformRandomVariable> uniform) const;
    /// \return the mean size in bytes (trapezoid rule, HPCC getAvg)
    double GetMean() const;
    /// \return the largest size in bytes (the last point's)
    double GetMax() const;
    /// \return the points
    const std::vector<Point>& GetPoints() const;

  private:
    std::vector<Point> m_points; //!< the CDF
    double m_mean;               //!< trapezoid mean
};

} // namespace ns3

#endif // RDMA_FLOW_SIZE_CDF_H
