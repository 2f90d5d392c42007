/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-rank-share.h"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{

/// \return the counters of a Totals or a QP Stats, in their Combine order
/// \param t the counters
template <class Counters>
std::vector<uint64_t*>
Fields(Counters& t)
{
    std::vector<uint64_t*> f;
    t.Combine(t, [&f](uint64_t& mine, uint64_t) { f.push_back(&mine); });
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

/**
 * \brief Visit the fields of a collective record that the ranks merge, in
 * a fixed order (the schedule is the job's, not packed).
 * \param r the record \param f called with each field
 */
template <typename Record, typename F>
void
CollectiveFields(Record& r, F f)
{
    f(r.job);
    f(r.iteration);
    f(r.item);
    f(r.start);
    f(r.started);
    f(r.end);
    f(r.ranksEntered);
    f(r.ranksDone);
    f(r.completed);
    f(r.failed);
    f(r.lastSrc);
    f(r.lastDst);
    f(r.lastLanded);
    f(r.lastKey);
}

/// The same for an iteration record. \param r the record \param f the visitor
template <typename Record, typename F>
void
IterationFields(Record& r, F f)
{
    f(r.job);
    f(r.iteration);
    f(r.ranks);
    f(r.start);
    f(r.end);
    f(r.compute);
    f(r.ranksDone);
    f(r.started);
    f(r.completed);
}

/// Writes fields, each after a space (a Time as its time steps).
struct FieldWriter
{
    std::ostream& os; //!< where

    /// \param t a time
    void operator()(const Time& t) const
    {
        os << ' ' << t.GetTimeStep();
    }

    /// \param v a number or flag
    template <typename T>
    void operator()(const T& v) const
    {
        os << ' ' << v;
    }
};

/// Reads what FieldWriter wrote.
struct FieldReader
{
    std::istream& in; //!< from where

    /// \param t a time
    void operator()(Time& t) const
    {
        int64_t steps = 0;
        in >> steps;
        t = TimeStep(steps);
    }

    /// \param v a number or flag
    template <typename T>
    void operator()(T& v) const
    {
        in >> v;
    }
};

/**
 * \brief Write records, one a line, after a "name count" line.
 * \param os where \param name the section \param records them
 * \param fields CollectiveFields or IterationFields
 */
template <typename Record, typename Fields>
void
PackRecords(std::ostream& os, const char* name, const std::vector<Record>& records, Fields fields)
{
    os << name << ' ' << records.size() << '\n';
    for (const Record& r : records)
    {
        fields(r, FieldWriter{os});
        os << '\n';
    }
}

/**
 * \brief Read what PackRecords wrote (after its name).
 * \param in from where \param fields CollectiveFields or IterationFields
 * \return the records
 */
template <typename Record, typename Fields>
std::vector<Record>
UnpackRecords(std::istream& in, Fields fields)
{
    std::size_t n = 0;
    in >> n;
    std::vector<Record> records(in ? n : 0);
    for (Record& r : records)
    {
        fields(r, FieldReader{in});
    }
    return records;
}

/**
 * \brief Merge the shares' records of one kind by key: each key's records
 * added up (Record::Merge) onto a fresh record that `fresh` makes from the
 * first, in key order (a sequential runner's: by job, iteration, item).
 * \param shares by rank \param list a share's records
 * \param key a record's key \param fresh the empty record of a key
 * \return the merged records
 */
template <typename Record, typename List, typename Key, typename Fresh>
std::vector<Record>
MergeRecords(const std::vector<RdmaRankShare>& shares, List list, Key key, Fresh fresh)
{
    std::map<decltype(key(std::declval<const Record&>())), Record> merged;
    for (const RdmaRankShare& s : shares)
    {
        for (const Record& r : list(s))
        {
            auto [it, added] = merged.try_emplace(key(r));
            if (added)
            {
                it->second = fresh(r);
            }
            it->second.Merge(r);
        }
    }
    std::vector<Record> out;
    out.reserve(merged.size());
    for (auto& kv : merged)
    {
        out.push_back(std::move(kv.second));
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
    PackRecords(os, "collectives", collectives, [](const auto& r, auto f) {
        CollectiveFields(r, f);
    });
    PackRecords(os, "iterations", iterations, [](const auto& r, auto f) { IterationFields(r, f); });
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
    expect("collectives");
    s.collectives =
        UnpackRecords<RdmaCollectiveRecord>(in, [](auto& r, auto f) { CollectiveFields(r, f); });
    expect("iterations");
    s.iterations =
        UnpackRecords<RdmaIterationRecord>(in, [](auto& r, auto f) { IterationFields(r, f); });
    if (!in)
    {
        throw std::runtime_error("rank share: truncated");
    }
    return s;
}

RdmaRankShare
RdmaRankShare::Merge(const std::vector<RdmaRankShare>& shares,
                     uint32_t nFlows,
                     std::vector<RdmaFlowResult>& results,
                     const std::vector<RdmaJob>& jobs)
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
    m.collectives = MergeRecords<RdmaCollectiveRecord>(
        shares,
        [](const RdmaRankShare& s) -> const std::vector<RdmaCollectiveRecord>& {
            return s.collectives;
        },
        [](const RdmaCollectiveRecord& r) { return std::make_tuple(r.job, r.iteration, r.item); },
        [&jobs](const RdmaCollectiveRecord& r) {
            RdmaCollectiveRecord fresh;
            fresh.job = r.job;
            fresh.iteration = r.iteration;
            fresh.item = r.item;
            if (r.job < jobs.size() && r.item < jobs[r.job].items.size())
            {
                fresh.schedule = jobs[r.job].items[r.item].collective;
            }
            return fresh;
        });
    m.iterations = MergeRecords<RdmaIterationRecord>(
        shares,
        [](const RdmaRankShare& s) -> const std::vector<RdmaIterationRecord>& {
            return s.iterations;
        },
        [](const RdmaIterationRecord& r) { return std::make_pair(r.job, r.iteration); },
        [](const RdmaIterationRecord& r) {
            RdmaIterationRecord fresh;
            fresh.job = r.job;
            fresh.iteration = r.iteration;
            fresh.ranks = r.ranks;
            fresh.compute = r.compute;
            return fresh;
        });
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
