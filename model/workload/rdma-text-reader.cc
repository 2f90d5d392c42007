/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-text-reader.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

RdmaTextReader::RdmaTextReader(std::istream& in, std::string name)
    : m_in(in),
      m_name(std::move(name))
{
}

std::ifstream
RdmaTextReader::Open(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot open file");
    }
    return in;
}

bool
RdmaTextReader::Fill()
{
    while (m_next >= m_tokens.size())
    {
        std::string text;
        if (!std::getline(m_in, text))
        {
            return false;
        }
        ++m_line;
        m_tokens.clear();
        m_next = 0;
        std::istringstream words(text);
        std::string word;
        while (words >> word)
        {
            m_tokens.push_back(word);
        }
    }
    return true;
}

std::string
RdmaTextReader::NextToken(const std::string& what)
{
    if (!Fill())
    {
        Fail("expected " + what + ", found end of file");
    }
    return m_tokens[m_next++];
}

bool
RdmaTextReader::NextLine(std::vector<std::string>& tokens)
{
    m_next = m_tokens.size();
    if (!Fill())
    {
        return false;
    }
    tokens = m_tokens;
    m_next = m_tokens.size();
    return true;
}

std::size_t
RdmaTextReader::TokensOnLine()
{
    return Fill() ? m_tokens.size() - m_next : 0;
}

uint32_t
RdmaTextReader::GetLine() const
{
    return m_line;
}

const std::string&
RdmaTextReader::GetName() const
{
    return m_name;
}

uint64_t
RdmaTextReader::ToUint(const std::string& token,
                       const std::string& what,
                       uint64_t min,
                       uint64_t max) const
{
    bool digits = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    errno = 0;
    unsigned long long v = digits ? std::strtoull(token.c_str(), nullptr, 10) : 0;
    if (!digits || errno == ERANGE || v < min || v > max)
    {
        Fail("expected " + what + ", got '" + token + "'");
    }
    return v;
}

double
RdmaTextReader::ToDouble(const std::string& token, const std::string& what) const
{
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(token.c_str(), &end);
    if (token.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    {
        Fail("expected " + what + ", got '" + token + "'");
    }
    return v;
}

void
RdmaTextReader::Fail(const std::string& message) const
{
    throw std::runtime_error(m_name + ":" + std::to_string(m_line) + ": " + message);
}

} // namespace ns3
