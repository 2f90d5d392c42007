/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-fast-forward-check.h"

#include "rdma-atomic-file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ns3
{

namespace
{

/// One output file's rows: key columns joined -> the compared column.
using Rows = std::map<std::vector<uint64_t>, double>;

/// \return the fields of a CSV line (the outputs quote nothing) \param line it
std::vector<std::string>
Fields(const std::string& line)
{
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ','))
    {
        out.push_back(f);
    }
    return out;
}

/**
 * \return a CSV file's rows, by the key columns, the value column's number;
 * rows whose value is empty (not done) are left out
 * \param path the file \param keys the key columns \param value the value column
 */
Rows
ReadRows(const std::string& path, const std::vector<std::string>& keys, const std::string& value)
{
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
    {
        throw std::runtime_error(path + ": cannot be read");
    }
    const std::vector<std::string> header = Fields(line);
    const auto column = [&](const std::string& name) {
        for (std::size_t i = 0; i < header.size(); ++i)
        {
            if (header[i] == name)
            {
                return i;
            }
        }
        throw std::runtime_error(path + ":1: no column " + name);
    };
    std::vector<std::size_t> keyColumns;
    for (const std::string& k : keys)
    {
        keyColumns.push_back(column(k));
    }
    const std::size_t valueColumn = column(value);
    Rows rows;
    while (std::getline(in, line))
    {
        const std::vector<std::string> f = Fields(line);
        if (f.size() != header.size() || f[valueColumn].empty())
        {
            continue;
        }
        std::vector<uint64_t> key;
        for (std::size_t c : keyColumns)
        {
            key.push_back(std::stoull(f[c]));
        }
        rows[key] = std::stod(f[valueColumn]);
    }
    return rows;
}

/**
 * \return summary.json's counters that fast-forward advances, by name
 * ("pfc.pause_frames", "link_load.tier1.tx_bytes"); none if the file is not there
 * \param dir an output folder
 * \throws std::runtime_error naming the file if it does not parse
 */
std::map<std::string, uint64_t>
ReadCounters(const std::string& dir)
{
    const std::string path = dir + "/summary.json";
    std::ifstream in(path);
    std::map<std::string, uint64_t> counters;
    if (!in)
    {
        return counters;
    }
    nlohmann::json j;
    try
    {
        j = nlohmann::json::parse(in);
    }
    catch (const nlohmann::json::exception& e)
    {
        throw std::runtime_error(path + ": " + e.what());
    }
    for (const char* name : {"link_transmissions",
                             "data_packets_delivered",
                             "data_packets_placed",
                             "drops",
                             "retransmissions",
                             "ecn_marks"})
    {
        if (j.contains(name))
        {
            counters[name] = j[name].get<uint64_t>();
        }
    }
    for (const char* name : {"pause_frames", "resume_frames"})
    {
        if (j.contains("pfc") && j["pfc"].contains(name))
        {
            counters[std::string("pfc.") + name] = j["pfc"][name].get<uint64_t>();
        }
    }
    if (j.contains("link_load"))
    {
        for (const auto& [tier, load] : j["link_load"].items())
        {
            counters["link_load." + tier + ".tx_bytes"] = load["tx_bytes"].get<uint64_t>();
        }
    }
    return counters;
}

/**
 * \brief Compare the two runs' counters, add their rows to csv and the
 * largest error to check.
 * \param fastDir \param packetDir the two output folders
 * \param check the findings \param csv fast-forward-check.csv's text
 */
void
CompareCounters(const std::string& fastDir,
                const std::string& packetDir,
                RdmaFastForwardCheck& check,
                std::ostream& csv)
{
    const std::map<std::string, uint64_t> fast = ReadCounters(fastDir);
    const std::map<std::string, uint64_t> packet = ReadCounters(packetDir);
    for (const auto& [name, f] : fast)
    {
        const auto it = packet.find(name);
        if (it == packet.end())
        {
            continue;
        }
        const uint64_t p = it->second;
        const double error = p > 0 ? double(f) / double(p) - 1 : 0;
        ++check.compared;
        check.differ += f != p;
        check.counterError = std::max(check.counterError, std::fabs(error));
        csv << "counter,,," << name << "," << f << "," << p << "," << error << ","
            << (f == p ? "same" : "differs") << "\n";
    }
}

} // namespace

std::string
RdmaFastForwardCheck::Describe() const
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << "fast-forward check: " << compared
       << " rows compared, " << differ << " differ; largest error: collective CCT "
       << collectiveError * 100 << " %, iteration time " << iterationError * 100
       << " %, flow FCT " << flowError * 100 << " %, counters " << counterError * 100 << " %";
    if (!worst.empty())
    {
        os << " (" << worst << ")";
    }
    return os.str();
}

RdmaFastForwardCheck
RdmaCompareFastForward(const std::string& fastDir, const std::string& packetDir)
{
    struct Part
    {
        const char* what;               //!< the row's kind
        const char* file;               //!< the output file
        std::vector<std::string> keys;  //!< its key columns
        const char* value;              //!< its time column
        double RdmaFastForwardCheck::*error; //!< where its largest error goes
    };
    const std::vector<Part> parts = {
        {"collective", "collectives.csv", {"job", "iteration", "item"}, "cct_ns",
         &RdmaFastForwardCheck::collectiveError},
        {"iteration", "jobs.csv", {"job", "iteration"}, "time_ns",
         &RdmaFastForwardCheck::iterationError},
        {"flow", "fct.csv", {"id"}, "fct_ns", &RdmaFastForwardCheck::flowError},
    };
    RdmaFastForwardCheck check;
    double worst = 0;
    std::ostringstream csv;
    csv << "what,job,iteration,item,fast,packet,error,status\n" << std::setprecision(9);
    for (const Part& p : parts)
    {
        std::ifstream exists(fastDir + "/" + p.file);
        if (!exists)
        {
            continue; // flows only, or jobs only
        }
        const Rows fast = ReadRows(fastDir + "/" + p.file, p.keys, p.value);
        const Rows packet = ReadRows(packetDir + "/" + p.file, p.keys, p.value);
        std::map<std::vector<uint64_t>, std::pair<const double*, const double*>> both;
        for (const auto& [k, v] : fast)
        {
            both[k].first = &v;
        }
        for (const auto& [k, v] : packet)
        {
            both[k].second = &v;
        }
        for (const auto& [k, v] : both)
        {
            // Key columns: a flow's id in the item column, the rest empty.
            std::vector<std::string> cols(3);
            if (k.size() == 1)
            {
                cols[2] = std::to_string(k[0]);
            }
            for (std::size_t i = 0; i < k.size() && k.size() > 1; ++i)
            {
                cols[i] = std::to_string(k[i]);
            }
            ++check.compared;
            csv << p.what << "," << cols[0] << "," << cols[1] << "," << cols[2] << ",";
            if (!v.first || !v.second)
            {
                ++check.differ;
                csv << (v.first ? std::to_string(uint64_t(*v.first)) : "") << ","
                    << (v.second ? std::to_string(uint64_t(*v.second)) : "") << ",,"
                    << (v.first ? "only fast-forwarded" : "only packet-level") << "\n";
                continue;
            }
            const double error = *v.second > 0 ? *v.first / *v.second - 1 : 0;
            check.differ += *v.first != *v.second;
            check.*p.error = std::max(check.*p.error, std::fabs(error));
            if (std::fabs(error) > worst)
            {
                worst = std::fabs(error);
                check.worst = std::string(p.what) + (k.size() == 1 ? " " : " job ") +
                              (k.size() == 1 ? std::to_string(k[0]) : cols[0]) +
                              (k.size() > 1 ? " iteration " + cols[1] : "") +
                              (k.size() > 2 ? " item " + cols[2] : "");
            }
            csv << uint64_t(*v.first) << "," << uint64_t(*v.second) << "," << error << ","
                << (*v.first == *v.second ? "same" : "differs") << "\n";
        }
    }
    CompareCounters(fastDir, packetDir, check, csv);
    RdmaWriteFileAtomically(fastDir + "/fast-forward-check.csv", csv.str());
    return check;
}

} // namespace ns3
