/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-hpcc-flow-file.h"

#include "ns3/rdma-atomic-file.h"
#include "ns3/rdma-text-reader.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace ns3
{

std::vector<RdmaFlow>
RdmaReadHpccFlowFile(const std::string& path)
{
    std::ifstream in = RdmaTextReader::Open(path);
    return RdmaParseHpccFlowFile(in, path);
}

std::vector<RdmaFlow>
RdmaParseHpccFlowFile(std::istream& in, const std::string& name)
{
    RdmaTextReader r(in, name);
    const uint64_t u32 = std::numeric_limits<uint32_t>::max();
    uint64_t count = r.ToUint(r.NextToken("N_flows (the record count)"),
                              "N_flows (the record count, a whole number)",
                              0,
                              u32);
    std::vector<RdmaFlow> flows;
    // The count is the file's word: reserve no more than the records a
    // file can plausibly hold before reading them (a corrupt count asked
    // for gigabytes here; found by fuzzing).
    flows.reserve(std::min<uint64_t>(count, 1 << 16));
    // ConWeave's five-field records (no dport) when the first record's line
    // has exactly five fields; HPCC's six otherwise.
    const bool conweave = count > 0 && r.TokensOnLine() == 5;
    double previous = 0;
    for (uint64_t i = 0; i < count; ++i)
    {
        const std::string record =
            "record " + std::to_string(i + 1) + " of " + std::to_string(count) + " (N_flows): ";
        if (conweave && r.TokensOnLine() != 5)
        {
            r.Fail(record +
                   "expected five fields on the line (src dst pg size_bytes "
                   "start_time_s, as the first record), got " +
                   std::to_string(r.TokensOnLine()));
        }
        RdmaFlow f;
        f.id = static_cast<uint32_t>(i);
        f.src =
            static_cast<uint32_t>(r.ToUint(r.NextToken(record + "src"), "src (a node id)", 0, u32));
        f.dst =
            static_cast<uint32_t>(r.ToUint(r.NextToken(record + "dst"), "dst (a node id)", 0, u32));
        if (f.dst == f.src)
        {
            r.Fail("expected dst different from src, got " + std::to_string(f.dst) + " for both");
        }
        f.priority =
            static_cast<uint8_t>(r.ToUint(r.NextToken(record + "pg"), "pg (priority 0-7)", 0, 7));
        if (!conweave)
        {
            f.dport = static_cast<uint16_t>(
                r.ToUint(r.NextToken(record + "dport"), "dport (0-65535)", 0, 65535));
        }
        f.size = r.ToUint(r.NextToken(record + "size_bytes"), "size_bytes (1-4294967295)", 1, u32);
        std::string token = r.NextToken(record + "start_time_s");
        double start = r.ToDouble(token, "start_time_s (seconds)");
        if (start < 0)
        {
            r.Fail("expected start_time_s >= 0, got '" + token + "'");
        }
        if (i > 0 && start < previous)
        {
            char prev[32];
            std::snprintf(prev, sizeof(prev), "%.9f", previous);
            r.Fail("expected start_time_s >= the previous record's " + std::string(prev) +
                   " (records sorted by start time, oldest first), got '" + token + "'");
        }
        previous = start;
        f.start = NanoSeconds(static_cast<int64_t>(std::llround(start * 1e9)));
        flows.push_back(f);
    }
    return flows;
}

void
RdmaWriteHpccFlowFile(const std::string& path, const std::vector<RdmaFlow>& flows)
{
    std::string text = std::to_string(flows.size()) + "\n";
    char line[128];
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const RdmaFlow& f = flows[i];
        if (i > 0 && f.start < flows[i - 1].start)
        {
            throw std::runtime_error(path + ": flow " + std::to_string(f.id) +
                                     " starts before the one listed before it; HPCC flow files "
                                     "are sorted by start time");
        }
        if (f.size > std::numeric_limits<uint32_t>::max())
        {
            throw std::runtime_error(path + ": flow " + std::to_string(f.id) + " has " +
                                     std::to_string(f.size) + " bytes; HPCC flow sizes are 32-bit");
        }
        int64_t ns = f.start.GetNanoSeconds();
        std::snprintf(line,
                      sizeof(line),
                      "%u %u %u %u %" PRIu64 " %" PRId64 ".%09" PRId64 "\n",
                      f.src,
                      f.dst,
                      unsigned(f.priority),
                      unsigned(f.dport),
                      f.size,
                      ns / 1000000000,
                      ns % 1000000000);
        text += line;
    }
    RdmaWriteFileAtomically(path, text);
}

} // namespace ns3
