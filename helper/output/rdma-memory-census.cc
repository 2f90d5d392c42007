/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-memory-census.h"

#include "ns3/rdma-byte-size.h"

#include <fstream>
#include <malloc.h>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace ns3
{

RdmaMemoryCensus::RdmaMemoryCensus()
    : m_process(ResidentBytes())
{
}

uint64_t
RdmaMemoryCensus::HeapBytes()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#else
    return 0;
#endif
}

uint64_t
RdmaMemoryCensus::ResidentBytes()
{
    std::ifstream statm("/proc/self/statm");
    uint64_t size = 0;
    uint64_t resident = 0;
    if (!(statm >> size >> resident))
    {
        return 0;
    }
    return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

uint64_t
RdmaMemoryCensus::PeakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.compare(0, 6, "VmHWM:") == 0)
        {
            return std::stoull(line.substr(6)) * 1024; // "VmHWM:    1234 kB"
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024; // Linux: KiB
}

void
RdmaMemoryCensus::Enter(const std::string& name, uint64_t items, const std::string& item)
{
    Close();
    m_parts.push_back(Part{name, 0, items, item});
    m_open = true;
    m_openHeap = HeapBytes();
}

void
RdmaMemoryCensus::SetItems(uint64_t items, const std::string& item)
{
    if (m_open)
    {
        m_parts.back().items = items;
        m_parts.back().item = item;
    }
}

void
RdmaMemoryCensus::Close()
{
    const uint64_t heap = m_open ? HeapBytes() : 0;
    if (m_open)
    {
        m_parts.back().bytes = heap > m_openHeap ? heap - m_openHeap : 0;
        m_open = false;
    }
    m_builtRss = ResidentBytes();
    m_sampledRss = m_builtRss;
}

bool
RdmaMemoryCensus::IsGrowing() const
{
    return ResidentBytes() >= m_sampledRss + (1 << 20);
}

void
RdmaMemoryCensus::Sample(uint64_t framesQueued, uint64_t qps)
{
    m_sampledRss = ResidentBytes();
    if (m_sampledRss > m_builtRss && m_sampledRss - m_builtRss > m_trafficPeak)
    {
        m_trafficPeak = m_sampledRss - m_builtRss;
        m_peakFrames = framesQueued;
        m_peakQps = qps;
    }
}

std::vector<RdmaMemoryCensus::Part>
RdmaMemoryCensus::GetParts() const
{
    std::vector<Part> parts;
    parts.push_back(Part{"process", m_process, 0, ""});
    parts.insert(parts.end(), m_parts.begin(), m_parts.end());
    parts.push_back(Part{"traffic at peak", m_trafficPeak, m_peakFrames, "frame queued"});
    return parts;
}

uint64_t
RdmaMemoryCensus::GetTotalBytes() const
{
    uint64_t total = 0;
    for (const Part& p : GetParts())
    {
        total += p.bytes;
    }
    return total;
}

uint64_t
RdmaMemoryCensus::GetPeakFramesQueued() const
{
    return m_peakFrames;
}

uint64_t
RdmaMemoryCensus::GetPeakQps() const
{
    return m_peakQps;
}

std::vector<std::string>
RdmaMemoryCensus::Describe(uint64_t peakRssBytes) const
{
    std::vector<std::string> lines;
    lines.push_back("memory census (the construction: heap per part; the traffic: resident set at its peak less at the start of the run; doc/large-fabrics.rst):");
    for (const Part& p : GetParts())
    {
        std::string line = "  " + p.name + ": " + RdmaFormatByteSize(p.bytes);
        if (p.items > 0)
        {
            line += " = " + std::to_string(p.items) + " x " + p.item + " of " +
                    RdmaFormatByteSize(p.bytes / p.items);
        }
        if (p.name == "traffic at peak")
        {
            line += " (frames queued and in flight, " + std::to_string(m_peakQps) + " QPs open)";
        }
        lines.push_back(line);
    }
    const uint64_t total = GetTotalBytes();
    lines.push_back("  total " + RdmaFormatByteSize(total) + " against a peak resident set of " +
                    RdmaFormatByteSize(peakRssBytes) + " (" +
                    std::to_string(peakRssBytes ? (100 * total + peakRssBytes / 2) / peakRssBytes
                                                : 0) +
                    " %)");
    return lines;
}

} // namespace ns3
