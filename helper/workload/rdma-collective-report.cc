/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-collective-report.h"

#include "ns3/rdma-byte-size.h"
#include "ns3/rdma-fct-stats.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// \return a number with up to 6 significant decimals, as the CSVs write them \param x it
std::string
Number(double x)
{
    std::ostringstream s;
    s.precision(6);
    s << std::fixed << x;
    std::string t = s.str();
    t.erase(t.find_last_not_of('0') + 1);
    if (!t.empty() && t.back() == '.')
    {
        t.pop_back();
    }
    return t;
}

} // namespace

std::string
RdmaFormatCollectivesCsv(const std::vector<RdmaCollectiveRecord>& records,
                         const std::vector<RdmaJob>& jobs)
{
    std::ostringstream out;
    out << "job,iteration,item,group,layer,collective,algorithm,bytes,ranks,channels,chunk_bytes,"
           "start_ns,end_ns,cct_ns,algbw_gbps,busbw_gbps,busbw_GBps,slowest_src,slowest_dst,"
           "slowest_pair_ns,status\n";
    for (const auto& r : records)
    {
        const RdmaCollectiveSchedule& s = *r.schedule;
        const RdmaJobItem& item = jobs[r.job].items[r.item];
        std::string layer = item.layer;
        std::replace(layer.begin(), layer.end(), ',', ';'); // a CSV field
        out << r.job << ',' << r.iteration << ',' << r.item << ',' << item.group << ',' << layer
            << ','
            << RdmaCollectiveName(s.GetKind()) << ',' << RdmaCollectiveAlgorithmName(s.GetAlgorithm())
            << ',' << s.GetBytes() << ',' << s.GetGroupRanks() << ',' << s.GetChannels() << ','
            << s.GetChunkBytes() << ',' << r.start.GetNanoSeconds() << ',';
        if (r.completed)
        {
            out << r.end.GetNanoSeconds() << ',' << r.GetCct().GetNanoSeconds() << ','
                << Number(r.GetAlgBw() / 1e9) << ',' << Number(r.GetBusBw() / 1e9) << ','
                << Number(r.GetBusBw() / 8e9) << ','
                << r.lastSrc << ',' << r.lastDst << ',' << (r.lastLanded - r.start).GetNanoSeconds()
                << ",done\n";
        }
        else
        {
            out << ",,,,,,,," << (r.failed ? "failed" : "incomplete") << '\n';
        }
    }
    return out.str();
}

std::string
RdmaFormatJobsCsv(const std::vector<RdmaIterationRecord>& iterations,
                  const std::vector<RdmaJob>& jobs)
{
    std::ostringstream out;
    out << "job,iteration,ranks,start_ns,end_ns,time_ns,compute_ns,comm_ns,exposed_comm_share,"
           "status\n";
    for (const auto& it : iterations)
    {
        out << it.job << ',' << it.iteration << ',' << jobs[it.job].hosts.size() << ','
            << it.start.GetNanoSeconds() << ',';
        if (it.completed)
        {
            const int64_t time = it.GetTime().GetNanoSeconds();
            const int64_t compute = it.compute.GetNanoSeconds();
            out << it.end.GetNanoSeconds() << ',' << time << ',' << compute << ','
                << time - compute << ',' << Number(time > 0 ? double(time - compute) / time : 0)
                << ",done\n";
        }
        else
        {
            out << ",," << it.compute.GetNanoSeconds() << ",,,incomplete\n";
        }
    }
    return out.str();
}

std::vector<RdmaCollectiveGroup>
RdmaGroupCollectives(const std::vector<RdmaCollectiveRecord>& records)
{
    std::vector<RdmaCollectiveGroup> groups;
    std::vector<std::vector<double>> ccts;
    for (const auto& r : records)
    {
        const RdmaCollectiveSchedule& s = *r.schedule;
        RdmaCollectiveGroup key;
        key.collective = RdmaCollectiveName(s.GetKind());
        key.algorithm = RdmaCollectiveAlgorithmName(s.GetAlgorithm());
        key.bytes = s.GetBytes();
        key.ranks = s.GetGroupRanks();
        auto it = std::find_if(groups.begin(), groups.end(), [&](const RdmaCollectiveGroup& g) {
            return g.collective == key.collective && g.algorithm == key.algorithm &&
                   g.bytes == key.bytes && g.ranks == key.ranks;
        });
        if (it == groups.end())
        {
            groups.push_back(key);
            ccts.emplace_back();
            it = groups.end() - 1;
        }
        const std::size_t g = it - groups.begin();
        if (!r.completed)
        {
            ++it->notDone;
            continue;
        }
        ++it->done;
        ccts[g].push_back(double(r.GetCct().GetNanoSeconds()));
        it->algBwGbps += r.GetAlgBw() / 1e9;
        it->busBwGbps += r.GetBusBw() / 1e9;
    }
    for (std::size_t g = 0; g < groups.size(); ++g)
    {
        auto& v = ccts[g];
        if (v.empty())
        {
            continue;
        }
        std::sort(v.begin(), v.end());
        double sum = 0;
        for (double x : v)
        {
            sum += x;
        }
        groups[g].cctMeanNs = sum / v.size();
        groups[g].cctP50Ns = RdmaPercentile(v, 0.5);
        groups[g].cctP99Ns = RdmaPercentile(v, 0.99);
        groups[g].cctMaxNs = v.back();
        groups[g].algBwGbps /= v.size();
        groups[g].busBwGbps /= v.size();
    }
    return groups;
}

std::vector<RdmaJobFigures>
RdmaSumJobs(const std::vector<RdmaIterationRecord>& iterations, const std::vector<RdmaJob>& jobs)
{
    std::vector<RdmaJobFigures> out(jobs.size());
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        out[j].job = j;
        out[j].ranks = static_cast<uint32_t>(jobs[j].hosts.size());
        out[j].iterations = jobs[j].iterations;
    }
    for (const auto& it : iterations)
    {
        if (!it.completed)
        {
            continue;
        }
        RdmaJobFigures& f = out[it.job];
        const double time = double(it.GetTime().GetNanoSeconds());
        ++f.done;
        f.iterationMeanNs += time;
        f.iterationMaxNs = std::max(f.iterationMaxNs, time);
        f.exposedCommShare += time > 0 ? (time - it.compute.GetNanoSeconds()) / time : 0;
    }
    for (auto& f : out)
    {
        if (f.done > 0)
        {
            f.iterationMeanNs /= f.done;
            f.exposedCommShare /= f.done;
        }
    }
    return out;
}

std::vector<std::string>
RdmaCollectiveSummaryText(const std::vector<RdmaCollectiveGroup>& groups,
                          const std::vector<RdmaJobFigures>& jobs,
                          uint64_t total,
                          uint64_t done)
{
    std::vector<std::string> text;
    text.push_back("collectives: " + std::to_string(done) + " of " + std::to_string(total) +
                   " done; CCT p50 / p99 (us), algbw / busbw (Gb/s, mean)");
    for (const auto& g : groups)
    {
        std::ostringstream l;
        l.setf(std::ios::fixed);
        l.precision(2);
        l << "  " << g.collective << " " << g.algorithm << ", " << RdmaFormatByteSize(g.bytes)
          << " on " << g.ranks << " ranks: ";
        if (g.done > 0)
        {
            l << g.cctP50Ns / 1e3 << " / " << g.cctP99Ns / 1e3 << ", " << g.algBwGbps << " / "
              << g.busBwGbps;
        }
        else
        {
            l << "n/a";
        }
        l << " (" << g.done << " done";
        if (g.notDone > 0)
        {
            l << ", " << g.notDone << " not";
        }
        l << ")";
        text.push_back(l.str());
    }
    for (const auto& f : jobs)
    {
        std::ostringstream l;
        l.setf(std::ios::fixed);
        l.precision(2);
        l << "job " << f.job << ": " << f.ranks << " ranks, " << f.done << " of " << f.iterations
          << " iterations done";
        if (f.done > 0)
        {
            l << ", iteration time mean " << f.iterationMeanNs / 1e3 << " us, max "
              << f.iterationMaxNs / 1e3 << " us, exposed communication "
              << f.exposedCommShare * 100 << " %";
        }
        text.push_back(l.str());
    }
    return text;
}

uint64_t
RdmaCountCompleted(const std::vector<RdmaCollectiveRecord>& records)
{
    return std::count_if(records.begin(), records.end(), [](const RdmaCollectiveRecord& r) {
        return r.completed;
    });
}

uint64_t
RdmaCountFailedJobs(const std::vector<RdmaCollectiveRecord>& records)
{
    std::set<uint32_t> jobs;
    for (const RdmaCollectiveRecord& r : records)
    {
        if (r.failed)
        {
            jobs.insert(r.job);
        }
    }
    return jobs.size();
}

} // namespace ns3
