/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-fct-writer.h"

#include "rdma-atomic-file.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <numeric>

namespace ns3
{

namespace
{

/// A time in whole nanoseconds, truncated.
uint64_t
Ns(Time t)
{
    return static_cast<uint64_t>(t.GetNanoSeconds());
}

} // namespace

uint32_t
RdmaHpccHostIp(uint32_t hostId)
{
    return 0x0b000001u + (hostId / 256) * 0x10000u + (hostId % 256) * 0x100u;
}

std::string
RdmaFormatFctCsv(const std::vector<RdmaFctRecord>& records)
{
    std::string text = "id,src,dst,op,size,start_ns,fct_ns,ideal_fct_ns,slowdown,qp,status\n";
    char line[256];
    for (const RdmaFctRecord& r : records)
    {
        const RdmaFlow& f = r.flow;
        std::snprintf(line,
                      sizeof(line),
                      "%u,%u,%u,%s,%" PRIu64 ",%" PRIu64 ",",
                      f.id,
                      f.src,
                      f.dst,
                      RdmaFlowOpName(f.op).c_str(),
                      f.size,
                      Ns(f.start));
        text += line;
        text += r.completed ? std::to_string(Ns(r.fct)) : "";
        std::snprintf(line, sizeof(line), ",%" PRIu64 ",", Ns(r.ideal));
        text += line;
        if (r.Succeeded())
        {
            std::snprintf(line, sizeof(line), "%.6f", r.slowdown);
            text += line;
        }
        text += "," + std::to_string(r.qpn) + "," + r.StatusName() + "\n";
    }
    return text;
}

std::string
RdmaFormatHpccFctTxt(const std::vector<RdmaFctRecord>& records)
{
    std::vector<std::size_t> byStart(records.size());
    std::iota(byStart.begin(), byStart.end(), 0);
    std::sort(byStart.begin(), byStart.end(), [&records](std::size_t a, std::size_t b) {
        const RdmaFlow& x = records[a].flow;
        const RdmaFlow& y = records[b].flow;
        return x.start != y.start ? x.start < y.start : x.id < y.id;
    });
    std::vector<uint32_t> sport(records.size());
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> next;
    for (std::size_t i : byStart)
    {
        auto it =
            next.emplace(std::make_pair(records[i].flow.src, records[i].flow.dst), 10000).first;
        sport[i] = it->second++;
    }
    std::vector<std::size_t> done;
    for (std::size_t i = 0; i < records.size(); ++i)
    {
        if (records[i].Succeeded())
        {
            done.push_back(i);
        }
    }
    std::sort(done.begin(), done.end(), [&records](std::size_t a, std::size_t b) {
        Time x = records[a].flow.start + records[a].fct;
        Time y = records[b].flow.start + records[b].fct;
        return x != y ? x < y : records[a].flow.id < records[b].flow.id;
    });
    std::string text;
    char line[160];
    for (std::size_t i : done)
    {
        const RdmaFctRecord& r = records[i];
        std::snprintf(line,
                      sizeof(line),
                      "%08x %08x %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                      RdmaHpccHostIp(r.flow.src),
                      RdmaHpccHostIp(r.flow.dst),
                      sport[i],
                      unsigned(r.flow.dport),
                      r.flow.size,
                      Ns(r.flow.start),
                      Ns(r.fct),
                      Ns(r.ideal));
        text += line;
    }
    return text;
}

void
RdmaWriteFctCsv(const std::string& path, const std::vector<RdmaFctRecord>& records)
{
    RdmaWriteFileAtomically(path, RdmaFormatFctCsv(records));
}

void
RdmaWriteHpccFctTxt(const std::string& path, const std::vector<RdmaFctRecord>& records)
{
    RdmaWriteFileAtomically(path, RdmaFormatHpccFctTxt(records));
}

} // namespace ns3
