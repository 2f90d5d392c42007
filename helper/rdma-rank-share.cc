/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-rank-share.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{

/// \return the counters of a Totals, in a fixed order
std::array<uint64_t*, 12>
Fields(RdmaStatsHelper::Totals& t)
{
    return {&t.linkTransmissions,
            &t.dataPacketsDelivered,
            &t.pfcPauseFrames,
            &t.pfcPauseFramesFromHosts,
            &t.pfcResumeFrames,
            &t.drops,
            &t.dropsOnLinks,
            &t.dropsInSwitches,
            &t.dropsAtNics,
            &t.dropsToGoneQps,
            &t.retransmissions,
            &t.ecnMarks};
}

/// \return the counters of a QP Stats, in a fixed order
std::vector<uint64_t*>
Fields(RdmaQueuePair::Stats& s)
{
    std::vector<uint64_t*> f{&s.packetsSent,
                             &s.retransmissions,
                             &s.timeouts,
                             &s.nakSeqSent,
                             &s.nakSeqReceived,
                             &s.rnrNakSent,
                             &s.rnrNakReceived,
                             &s.duplicates,
                             &s.outOfSequence,
                             &s.spuriousRetransmissions,
                             &s.latePackets,
                             &s.lateDepthPackets,
                             &s.lateDepthNs};
    for (uint32_t b = 0; b < RdmaQueuePair::Stats::REORDER_BINS; ++b)
    {
        f.push_back(&s.lateDepthPacketsBins[b]);
        f.push_back(&s.lateDepthTimeBins[b]);
    }
    return f;
}

/// \return the lines of a text, each without its newline
std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        lines.push_back(line);
    }
    return lines;
}

/// \return the first n comma-separated numbers of a CSV row
std::vector<uint64_t>
Key(const std::string& row, std::size_t n)
{
    std::vector<uint64_t> key;
    std::size_t at = 0;
    while (key.size() < n && at <= row.size())
    {
        key.push_back(std::strtoull(row.c_str() + at, nullptr, 10));
        const std::size_t comma = row.find(',', at);
        if (comma == std::string::npos)
        {
            break;
        }
        at = comma + 1;
    }
    return key;
}

/// \return rows of every share, sorted by their first n numeric fields (stable)
std::string
MergeRows(const std::vector<const std::string*>& parts, std::size_t n)
{
    std::vector<std::string> rows;
    for (const std::string* p : parts)
    {
        for (auto& l : Lines(*p))
        {
            rows.push_back(std::move(l));
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [n](const std::string& a, const std::string& b) {
        return Key(a, n) < Key(b, n);
    });
    std::string out;
    for (const auto& r : rows)
    {
        out += r;
        out += '\n';
    }
    return out;
}

} // namespace

std::string
RdmaRankShare::Pack() const
{
    std::ostringstream os;
    os.precision(17);
    os << "done " << localDone.GetTimeStep() << ' ' << allDone << '\n';
    os << "events " << events << '\n';
    os << "wall " << wallSeconds << '\n';
    RdmaStatsHelper::Totals t = totals;
    os << "totals";
    for (uint64_t* v : Fields(t))
    {
        os << ' ' << *v;
    }
    RdmaQueuePair::Stats q = qps;
    os << "\nqps";
    for (uint64_t* v : Fields(q))
    {
        os << ' ' << *v;
    }
    os << "\nresults " << flows.size() << '\n';
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const RdmaFlowResult& r = results[i];
        os << flows[i] << ' ' << r.started << ' ' << r.completed << ' '
           << r.completion.GetTimeStep() << ' ' << unsigned(r.status) << ' ' << r.qpn << ' '
           << r.noQp << '\n';
    }
    os << "pfc " << Lines(pfcRows).size() << '\n' << pfcRows;
    os << "qlen " << Lines(qlenRows).size() << '\n' << qlenRows;
    return os.str();
}

RdmaRankShare
RdmaRankShare::Unpack(const std::string& text)
{
    std::istringstream in(text);
    RdmaRankShare s;
    auto expect = [&in](const char* word) {
        std::string w;
        if (!(in >> w) || w != word)
        {
            throw std::runtime_error(std::string("rank share: expected '") + word + "', got '" +
                                     w + "'");
        }
    };
    int64_t done = 0;
    expect("done");
    in >> done >> s.allDone;
    s.localDone = TimeStep(done);
    expect("events");
    in >> s.events;
    expect("wall");
    in >> s.wallSeconds;
    expect("totals");
    for (uint64_t* v : Fields(s.totals))
    {
        in >> *v;
    }
    expect("qps");
    for (uint64_t* v : Fields(s.qps))
    {
        in >> *v;
    }
    expect("results");
    std::size_t n = 0;
    in >> n;
    for (std::size_t i = 0; i < n && in; ++i)
    {
        uint32_t flow = 0;
        RdmaFlowResult r;
        int64_t completion = 0;
        unsigned status = 0;
        in >> flow >> r.started >> r.completed >> completion >> status >> r.qpn >> r.noQp;
        r.completion = TimeStep(completion);
        r.status = static_cast<RdmaWcStatus>(status);
        s.flows.push_back(flow);
        s.results.push_back(r);
    }
    for (std::string* rows : {&s.pfcRows, &s.qlenRows})
    {
        expect(rows == &s.pfcRows ? "pfc" : "qlen");
        std::size_t lines = 0;
        in >> lines;
        std::string line;
        std::getline(in, line); // the rest of the count's line
        for (std::size_t i = 0; i < lines && std::getline(in, line); ++i)
        {
            *rows += line + '\n';
        }
    }
    if (!in)
    {
        throw std::runtime_error("rank share: truncated");
    }
    return s;
}

RdmaRankShare
RdmaRankShare::Merge(const std::vector<RdmaRankShare>& shares,
                     uint32_t nFlows,
                     std::vector<RdmaFlowResult>& results)
{
    RdmaRankShare m;
    m.allDone = true;
    results.assign(nFlows, RdmaFlowResult());
    std::vector<const std::string*> pfc;
    std::vector<const std::string*> qlen;
    for (const RdmaRankShare& s : shares)
    {
        m.localDone = std::max(m.localDone, s.localDone);
        m.allDone = m.allDone && s.allDone;
        m.events += s.events;
        m.wallSeconds = std::max(m.wallSeconds, s.wallSeconds);
        RdmaStatsHelper::Totals a = s.totals;
        auto to = Fields(m.totals);
        auto from = Fields(a);
        for (std::size_t i = 0; i < to.size(); ++i)
        {
            *to[i] += *from[i];
        }
        m.qps += s.qps;
        for (std::size_t i = 0; i < s.flows.size(); ++i)
        {
            if (s.flows[i] < nFlows)
            {
                results[s.flows[i]] = s.results[i];
            }
        }
        pfc.push_back(&s.pfcRows);
        qlen.push_back(&s.qlenRows);
    }
    m.pfcRows = MergeRows(pfc, 1);
    m.qlenRows = MergeRows(qlen, 4);
    return m;
}

std::string
RdmaRankShare::RowsUntil(const std::string& rows, uint64_t endNs)
{
    std::string out;
    for (const auto& l : Lines(rows))
    {
        if (Key(l, 1).front() <= endNs)
        {
            out += l + '\n';
        }
    }
    return out;
}

} // namespace ns3
