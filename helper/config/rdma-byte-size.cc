/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-byte-size.h"

#include "rdma-value-text.h"

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace ns3
{

bool
RdmaParseByteSize(const std::string& text, uint64_t* bytes)
{
    static const std::vector<std::pair<std::string, double>> units{
        {"", 1},
        {"B", 1},
        {"kB", 1e3},
        {"KB", 1e3},
        {"MB", 1e6},
        {"GB", 1e9},
        {"TB", 1e12},
        {"KiB", 1024.0},
        {"MiB", 1024.0 * 1024},
        {"GiB", 1024.0 * 1024 * 1024},
        {"TiB", 1024.0 * 1024 * 1024 * 1024}};
    const std::size_t length = RdmaDecimalLength(text);
    if (length == 0)
    {
        return false;
    }
    const std::string number = text.substr(0, length);
    for (const auto& [unit, factor] : units)
    {
        if (text.compare(length, std::string::npos, unit) == 0)
        {
            const double v = std::strtod(number.c_str(), nullptr) * factor;
            if (!std::isfinite(v) || v >= 18446744073709551616.0)
            {
                return false;
            }
            *bytes = static_cast<uint64_t>(v);
            return true;
        }
    }
    return false;
}

std::string
RdmaFormatByteSize(uint64_t bytes)
{
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024)
    {
        return std::to_string(bytes) + " B";
    }
    double v = bytes / 1024.0;
    int u = 0;
    while (v >= 1024 && u < 3)
    {
        v /= 1024;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof(text), "%.2f %s", v, units[u]);
    return text;
}

namespace
{

/// The checker of RdmaByteSizeValue: a minimum and an accepted word.
class RdmaByteSizeChecker : public AttributeChecker
{
  public:
    /// \param min smallest size, bytes \param word also accepted ("": none)
    RdmaByteSizeChecker(uint64_t min, std::string word)
        : m_min(min),
          m_word(std::move(word))
    {
    }

    /// \return whether the text is the word or a size of at least the minimum
    bool Accepts(const std::string& text) const
    {
        uint64_t bytes = 0;
        return (!m_word.empty() && text == m_word) ||
               (RdmaParseByteSize(text, &bytes) && bytes >= m_min);
    }

    bool Check(const AttributeValue& value) const override
    {
        const auto* v = dynamic_cast<const RdmaByteSizeValue*>(&value);
        return v && Accepts(v->GetText());
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::RdmaByteSizeValue";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        std::string s = "a size with its unit (for example 500MB, 8GiB; units B kB MB GB TB, "
                        "KiB MiB GiB TiB; a bare number is bytes) of at least " +
                        RdmaFormatByteSize(m_min);
        return m_word.empty() ? s : s + ", or " + m_word;
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<RdmaByteSizeValue>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        const auto* src = dynamic_cast<const RdmaByteSizeValue*>(&source);
        auto* dst = dynamic_cast<RdmaByteSizeValue*>(&destination);
        if (!src || !dst)
        {
            return false;
        }
        *dst = *src;
        return true;
    }

  private:
    uint64_t m_min;     //!< smallest size, bytes
    std::string m_word; //!< also accepted
};

} // namespace

RdmaByteSizeValue::RdmaByteSizeValue(const std::string& text)
    : m_text(text)
{
}

Ptr<AttributeValue>
RdmaByteSizeValue::Copy() const
{
    return ns3::Create<RdmaByteSizeValue>(*this);
}

std::string
RdmaByteSizeValue::SerializeToString(Ptr<const AttributeChecker> /* checker */) const
{
    return m_text;
}

bool
RdmaByteSizeValue::DeserializeFromString(std::string value, Ptr<const AttributeChecker> checker)
{
    const auto* c = dynamic_cast<const RdmaByteSizeChecker*>(PeekPointer(checker));
    uint64_t bytes = 0;
    if (c ? !c->Accepts(value) : !RdmaParseByteSize(value, &bytes))
    {
        return false;
    }
    m_text = value;
    return true;
}

const std::string&
RdmaByteSizeValue::GetText() const
{
    return m_text;
}

Ptr<const AttributeChecker>
RdmaMakeByteSizeChecker(uint64_t min, const std::string& word)
{
    return Ptr<const AttributeChecker>(new RdmaByteSizeChecker(min, word), false);
}

} // namespace ns3
