/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-hpcc-topology-reader.h"

#include "ns3/log.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHpccTopologyReader");

namespace
{

/// A whitespace-separated token and the line it is on.
struct Token
{
    std::string text; //!< the token
    uint32_t line;    //!< its line, from 1
};

/**
 * \brief Split a number from its unit: the longest decimal number (digits,
 * one optional '.', an optional exponent) at the start of text.
 * \param text the string
 * \param [out] value the number
 * \param [out] unit the rest
 * \return false if text does not start with such a number
 */
bool
SplitNumber(const std::string& text, double* value, std::string* unit)
{
    if (text.empty() || !(std::isdigit((unsigned char)text[0]) || text[0] == '.'))
    {
        return false;
    }
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    *value = std::strtod(begin, &end);
    if (end == begin || errno != 0)
    {
        return false;
    }
    for (const char* p = begin; p != end; ++p)
    {
        if (!(std::isdigit((unsigned char)*p) || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' ||
              *p == '-'))
        {
            return false; // hexadecimal, inf, nan
        }
    }
    *unit = std::string(end);
    return true;
}

/// Reads the token list of one file, with messages naming file and line.
class TokenCursor
{
  public:
    TokenCursor(std::istream& in, const std::string& fileName)
        : m_fileName(fileName)
    {
        std::string lineText;
        uint32_t line = 0;
        while (std::getline(in, lineText))
        {
            ++line;
            std::istringstream words(lineText);
            std::string word;
            while (words >> word)
            {
                m_tokens.push_back({word, line});
            }
        }
        m_lastLine = line;
    }

    /// \return the next token; throws naming what was expected at end of file
    const Token& Next(const std::string& expected)
    {
        if (m_next >= m_tokens.size())
        {
            std::ostringstream err;
            err << m_fileName << ":" << m_lastLine << ": expected " << expected
                << ", got end of file";
            throw RdmaTopologyError(err.str());
        }
        return m_tokens[m_next++];
    }

    /// Throw "file:line: expected ..., got 'token'".
    [[noreturn]] void Fail(const Token& t, const std::string& expected) const
    {
        std::ostringstream err;
        err << m_fileName << ":" << t.line << ": expected " << expected << ", got '" << t.text
            << "'";
        throw RdmaTopologyError(err.str());
    }

    /// \return an unsigned integer token below limit
    uint32_t NextUint(const std::string& expected, uint64_t limit)
    {
        const Token& t = Next(expected);
        bool ok = !t.text.empty() && t.text.size() <= 10;
        uint64_t v = 0;
        for (char c : t.text)
        {
            ok = ok && std::isdigit((unsigned char)c);
            v = v * 10 + uint64_t(c - '0');
        }
        if (!ok || v >= limit)
        {
            Fail(t, expected);
        }
        return uint32_t(v);
    }

    /// \return the line of the next token, or 0 if there is none
    uint32_t PeekLine() const
    {
        return m_next < m_tokens.size() ? m_tokens[m_next].line : 0;
    }

    /// \return "file:line" of the token read last
    std::string Where() const
    {
        return m_fileName + ":" + std::to_string(m_next == 0 ? 1 : m_tokens[m_next - 1].line);
    }

  private:
    std::string m_fileName;      //!< for messages
    std::vector<Token> m_tokens; //!< every token
    std::size_t m_next{0};       //!< next to read
    uint32_t m_lastLine{0};      //!< lines in the file
};

} // namespace

bool
RdmaHpccTopologyReader::ParseTime(const std::string& text, Time* t)
{
    // Each unit with its length in seconds (a year is 365 days, as in Time).
    static const struct
    {
        const char* name;
        Time::Unit unit;
        double seconds;
    } units[] = {
        {"y", Time::Y, 365 * 86400.0},
        {"d", Time::D, 86400.0},
        {"h", Time::H, 3600.0},
        {"min", Time::MIN, 60.0},
        {"s", Time::S, 1.0},
        {"ms", Time::MS, 1e-3},
        {"us", Time::US, 1e-6},
        {"ns", Time::NS, 1e-9},
        {"ps", Time::PS, 1e-12},
        {"fs", Time::FS, 1e-15},
    };
    double value;
    std::string unit;
    if (!SplitNumber(text, &value, &unit))
    {
        return false;
    }
    for (const auto& u : units)
    {
        if (unit == u.name)
        {
            // Beyond Time::Max() the conversion to int64x64_t is undefined.
            if (!(value * u.seconds < Time::Max().GetSeconds()))
            {
                return false;
            }
            *t = Time::FromDouble(value, u.unit);
            return true;
        }
    }
    return false;
}

bool
RdmaHpccTopologyReader::ParseRate(const std::string& text, DataRate* rate)
{
    double value;
    std::string unit;
    if (!SplitNumber(text, &value, &unit) || unit.size() < 3)
    {
        return false;
    }
    double scale = 1;
    std::string base = unit;
    switch (unit[0])
    {
    case 'k':
    case 'K':
        scale = 1e3;
        base = unit.substr(1);
        break;
    case 'M':
        scale = 1e6;
        base = unit.substr(1);
        break;
    case 'G':
        scale = 1e9;
        base = unit.substr(1);
        break;
    default:
        break;
    }
    if (base == "Bps" || base == "B/s")
    {
        scale *= 8;
    }
    else if (base != "bps" && base != "b/s")
    {
        return false;
    }
    const double bps = value * scale;
    if (!(bps >= 0 && bps < 1.8e19))
    {
        return false;
    }
    *rate = DataRate(uint64_t(bps + 0.5));
    return true;
}

RdmaTopologySpec
RdmaHpccTopologyReader::ReadFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw RdmaTopologyError(path + ": cannot open the topology file");
    }
    uint32_t ignored = 0;
    RdmaTopologySpec spec = Parse(in, path, &ignored);
    if (ignored != 0)
    {
        NS_LOG_WARN(path << ":" << ignored << ": text after the " << spec.links.size()
                         << " links the header declares is not read");
    }
    return spec;
}

RdmaTopologySpec
RdmaHpccTopologyReader::Parse(std::istream& in,
                              const std::string& fileName,
                              uint32_t* ignoredFromLine)
{
    TokenCursor c(in, fileName);
    const uint64_t maxNodes = uint64_t(1) << 24;
    const uint32_t nNodes = c.NextUint("<N_nodes> (a node count)", maxNodes);
    const uint32_t nSwitches =
        c.NextUint("<N_switches> (at most N_nodes = " + std::to_string(nNodes) + ")",
                   uint64_t(nNodes) + 1);
    const uint32_t nLinks = c.NextUint("<N_links> (a link count)", uint64_t(1) << 31);

    RdmaTopologySpec spec;
    spec.name = fileName;
    spec.isSwitch.assign(nNodes, false);
    const std::string idRange = "0-" + std::to_string(nNodes == 0 ? 0 : nNodes - 1);
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        const std::string what = "switch id " + std::to_string(i + 1) + " of " +
                                 std::to_string(nSwitches) + " (a node id " + idRange + ")";
        const uint32_t id = c.NextUint(what, nNodes);
        if (spec.isSwitch[id])
        {
            std::ostringstream err;
            err << c.Where() << ": switch id " << id << " is listed twice";
            throw RdmaTopologyError(err.str());
        }
        spec.isSwitch[id] = true;
    }
    for (uint32_t i = 0; i < nLinks; ++i)
    {
        const std::string link =
            "link " + std::to_string(i + 1) + " of " + std::to_string(nLinks) + ": ";
        RdmaTopologySpec::Link l;
        l.a = c.NextUint(link + "<a> (a node id " + idRange + ")", nNodes);
        l.b = c.NextUint(link + "<b> (a node id " + idRange + ")", nNodes);
        l.where = c.Where();
        if (l.a == l.b)
        {
            throw RdmaTopologyError(l.where + ": " + link + "joins node " + std::to_string(l.a) +
                                    " to itself");
        }
        const std::string rateWhat = link + "<rate> (an ns-3 DataRate such as 100Gbps)";
        const Token& rate = c.Next(rateWhat);
        if (!ParseRate(rate.text, &l.rate) || l.rate.GetBitRate() == 0)
        {
            c.Fail(rate, rateWhat);
        }
        const std::string delayWhat = link + "<delay> (an ns-3 time such as 1000ns or 0.001ms)";
        const Token& delay = c.Next(delayWhat);
        if (!ParseTime(delay.text, &l.delay))
        {
            c.Fail(delay, delayWhat);
        }
        const std::string errWhat = link + "<error_rate> (a probability in [0, 1])";
        const Token& err = c.Next(errWhat);
        double p;
        std::string rest;
        if (!SplitNumber(err.text, &p, &rest) || !rest.empty() || !(p >= 0 && p <= 1))
        {
            c.Fail(err, errWhat);
        }
        l.errorRate = p;
        spec.links.push_back(l);
    }
    if (ignoredFromLine != nullptr)
    {
        *ignoredFromLine = c.PeekLine();
    }
    return spec;
}

} // namespace ns3
