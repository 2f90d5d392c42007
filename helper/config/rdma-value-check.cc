/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-value-check.h"

#include "rdma-value-text.h"

#include "ns3/nstime.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

/// \return the parts of "min:max" of a checker's type information after its type word
std::pair<std::string, std::string>
Range(const std::string& info)
{
    const auto space = info.find(' ');
    const std::string r = space == std::string::npos ? "" : info.substr(space + 1);
    const auto colon = r.rfind(':');
    if (colon == std::string::npos)
    {
        return {"", ""};
    }
    return {r.substr(0, colon), r.substr(colon + 1)};
}

/// \return "from lo to hi", ">= lo", "<= hi" or "" when a bound is the type's own limit
std::string
Bounds(const std::string& lo, const std::string& hi, bool loOpen, bool hiOpen)
{
    if (!loOpen && !hiOpen)
    {
        return " from " + lo + " to " + hi;
    }
    if (!loOpen)
    {
        return " >= " + lo;
    }
    if (!hiOpen)
    {
        return " <= " + hi;
    }
    return "";
}

/// \return whether an integer bound (as text) is the limit of the C type named by info's first word
bool
IsIntegerTypeLimit(const std::string& info, const std::string& bound)
{
    static const std::vector<std::pair<std::string, std::vector<std::string>>> limits{
        {"uint8_t", {"0", "255"}},
        {"uint16_t", {"0", "65535"}},
        {"uint32_t", {"0", "4294967295"}},
        {"uint64_t", {"0", "18446744073709551615"}},
        {"int8_t", {"-128", "127"}},
        {"int16_t", {"-32768", "32767"}},
        {"int32_t", {"-2147483648", "2147483647"}},
        {"int64_t", {"-9223372036854775808", "9223372036854775807"}}};
    const std::string word = info.substr(0, info.find(' '));
    for (const auto& [name, ends] : limits)
    {
        if (name == word)
        {
            return bound == ends[0] || bound == ends[1];
        }
    }
    return bound.empty();
}

/// \return what a value of this checker must look like
std::string
Expected(const AttributeChecker& checker)
{
    const std::string type = checker.GetValueTypeName();
    const std::string info =
        checker.HasUnderlyingTypeInformation() ? checker.GetUnderlyingTypeInformation() : "";
    const auto [lo, hi] = Range(info);
    if (type.find("DoubleValue") != std::string::npos)
    {
        const double l = std::strtod(lo.c_str(), nullptr);
        const double h = std::strtod(hi.c_str(), nullptr);
        return "a finite number" + Bounds(lo, hi, l <= -1e308, h >= 1e308);
    }
    if (type.find("UintegerValue") != std::string::npos ||
        type.find("IntegerValue") != std::string::npos)
    {
        return std::string(type.find("Uinteger") != std::string::npos ? "a whole number"
                                                                       : "an integer") +
               Bounds(lo, hi, IsIntegerTypeLimit(info, lo), IsIntegerTypeLimit(info, hi));
    }
    if (type.find("TimeValue") != std::string::npos)
    {
        // Bounds as Time prints them ("+0ps", "+9.22337e+18ps"); durations are >= 0 anyway.
        // ns-3 prints Time::Min() as "+9.22337e+18ps": the type's limit too.
        const double loValue = std::strtod(lo.c_str(), nullptr);
        const bool loOpen = lo.empty() || lo.front() == '-' || loValue == 0 || loValue >= 9.2e18;
        const bool hiOpen = hi.empty() || std::strtod(hi.c_str(), nullptr) >= 9.2e18;
        // A bound that applies in the units a user types ("1ns", not "+1000ps").
        return "a duration with its unit (for example 10us, 2ms; units y d h min s ms us ns ps "
               "fs)" +
               Bounds(loOpen ? lo : RdmaTimeText(Time(lo)),
                      hiOpen ? hi : RdmaTimeText(Time(hi)),
                      loOpen,
                      hiOpen);
    }
    if (type.find("DataRateValue") != std::string::npos)
    {
        return "a rate with its unit (for example 100Gbps, 25Gb/s, 400Mbps)" +
               (lo.empty() || lo == "0bps" ? std::string() : " >= " + lo);
    }
    if (type.find("EnumValue") != std::string::npos)
    {
        std::string names = info;
        for (auto& ch : names)
        {
            ch = ch == '|' ? ',' : ch;
        }
        return "one of " + names;
    }
    if (type.find("BooleanValue") != std::string::npos)
    {
        return "true or false";
    }
    if (type.find("RdmaByteSizeValue") != std::string::npos)
    {
        return info; // the checker states the whole form (RdmaMakeByteSizeChecker)
    }
    return "a " + type + " (" + info + ")";
}

/// \return whether the text is an unsigned decimal number (digits, '.', exponent)
bool
IsNumber(const std::string& s)
{
    return !s.empty() && RdmaDecimalLength(s) == s.size();
}

/// \return the number at the start of s, its text's length in *used (0: none)
double
LeadingNumber(const std::string& s, std::size_t* used)
{
    *used = RdmaDecimalLength(s);
    return *used == 0 ? 0 : std::strtod(s.substr(0, *used).c_str(), nullptr);
}

/// \return whether the text is a time ns-3 parses to what it says
bool
TimeTextOk(const std::string& s)
{
    static const std::vector<std::pair<std::string, double>> units{{"y", 365 * 86400.0},
                                                                   {"d", 86400.0},
                                                                   {"h", 3600.0},
                                                                   {"min", 60.0},
                                                                   {"s", 1.0},
                                                                   {"ms", 1e-3},
                                                                   {"us", 1e-6},
                                                                   {"ns", 1e-9},
                                                                   {"ps", 1e-12},
                                                                   {"fs", 1e-15}};
    // A sign is read (a negative time is refused later, with that reason).
    std::string t = s.front() == '+' || s.front() == '-' ? s.substr(1) : s;
    std::size_t used = 0;
    const double v = LeadingNumber(t, &used);
    if (used == 0)
    {
        return false;
    }
    const std::string unit = t.substr(used);
    double seconds = 0;
    bool known = unit.empty();
    for (const auto& [name, factor] : units)
    {
        if (unit == name)
        {
            known = true;
            seconds = v * factor;
        }
    }
    if (unit.empty())
    {
        // A bare number is refused (RdmaCheckValue says why) unless it is 0:
        // ns-3 would read "1" as one second, rarely what a user meant.
        known = v == 0;
    }
    // Time holds an int64_t count of the resolution unit.
    const double steps = seconds * static_cast<double>(Seconds(1).GetTimeStep());
    return known && std::isfinite(steps) && steps < 9.2e18;
}

/// \return whether the text is a rate ns-3 parses to what it says
bool
RateTextOk(const std::string& s, Ptr<const AttributeChecker> checker)
{
    std::size_t used = 0;
    const double v = LeadingNumber(s, &used);
    if (used == 0)
    {
        return false;
    }
    const std::string unit = s.substr(used);
    double perUnit = 1;
    if (unit.empty() && v != 0)
    {
        return false; // a bare number of bit/s: refused, a unit is needed (RdmaCheckValue)
    }
    if (unit.find('B') != std::string::npos)
    {
        return false; // a byte rate: refused, spelled in bits (RdmaCheckValue)
    }
    if (!unit.empty())
    {
        // The unit alone, with a 1 that cannot overflow: DataRate's own parser.
        DataRateValue one;
        if (unit.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/") !=
                std::string::npos ||
            !one.DeserializeFromString("1" + unit, checker))
        {
            return false;
        }
        perUnit = static_cast<double>(one.Get().GetBitRate());
    }
    const double bps = v * perUnit;
    return std::isfinite(bps) && bps < 1.8e19 && (bps == 0 || bps >= 1);
}

/// \return whether the text parses as an integer of the type's width
bool
IntegerTextOk(const std::string& s, bool isSigned)
{
    const std::string digits = isSigned && !s.empty() && s.front() == '-' ? s.substr(1) : s;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    errno = 0;
    if (isSigned)
    {
        std::strtoll(s.c_str(), nullptr, 10);
    }
    else
    {
        std::strtoull(s.c_str(), nullptr, 10);
    }
    return errno == 0;
}

/// \return whether the text is acceptable to hand to the checker's DeserializeFromString
bool
TextOk(const std::string& type, const std::string& s, Ptr<const AttributeChecker> checker)
{
    static const std::vector<std::string> stockTypes{"DoubleValue",
                                                     "IntegerValue",
                                                     "TimeValue",
                                                     "DataRateValue",
                                                     "EnumValue",
                                                     "StringValue",
                                                     "BooleanValue"};
    bool stock = false;
    for (const auto& t : stockTypes)
    {
        stock = stock || type.find(t) != std::string::npos;
    }
    // ns-3's own value types read one word and abort on what is left;
    // the module's list types (QbbDscpClassMap, ...) read blank-separated lists.
    if (stock && (s.empty() || s.find_first_of(" \t\r\n\v\f") != std::string::npos))
    {
        return false;
    }
    if (type.find("DoubleValue") != std::string::npos)
    {
        const std::string body = s.front() == '-' || s.front() == '+' ? s.substr(1) : s;
        return IsNumber(body) && std::isfinite(std::strtod(s.c_str(), nullptr));
    }
    if (type.find("UintegerValue") != std::string::npos)
    {
        return IntegerTextOk(s, false);
    }
    if (type.find("IntegerValue") != std::string::npos)
    {
        return IntegerTextOk(s, true);
    }
    if (type.find("TimeValue") != std::string::npos)
    {
        return TimeTextOk(s);
    }
    if (type.find("DataRateValue") != std::string::npos)
    {
        return RateTextOk(s, checker);
    }
    if (type.find("EnumValue") != std::string::npos)
    {
        std::istringstream names(
            checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : "");
        std::string name;
        while (std::getline(names, name, '|'))
        {
            if (name == s)
            {
                return true;
            }
        }
        return false;
    }
    return true;
}

/**
 * What is wrong with a time or rate whose number is right but whose unit
 * would be read otherwise than meant: a bare number (ns-3 takes a time as
 * seconds and a rate as bit/s) or a rate in bytes per second (ns-3 takes
 * "25GB/s" as 200 Gb/s, and link rates are quoted in bits).
 * \param type the checker's value type name
 * \param text the value as typed
 * \param checker the checker (DataRate's parser reads the unit)
 * \return "" if neither, else the expected form with the reason
 */
std::string
UnitError(const std::string& type, const std::string& text, Ptr<const AttributeChecker> checker)
{
    const bool isTime = type.find("TimeValue") != std::string::npos;
    const bool isRate = type.find("DataRateValue") != std::string::npos;
    if ((!isTime && !isRate) || text.empty())
    {
        return "";
    }
    const std::string body = text.front() == '+' || text.front() == '-' ? text.substr(1) : text;
    if (IsNumber(body) && std::strtod(body.c_str(), nullptr) != 0)
    {
        return isTime ? "a duration with its unit, for example " + body + "us, " + body +
                            "ms or " + body +
                            "s: a bare number has none (ns-3 would read it as seconds)"
                      : "a rate with its unit, for example " + body + "Gbps or " + body +
                            "Mbps: a bare number has none (ns-3 would read it as bit/s)";
    }
    std::size_t used = 0;
    LeadingNumber(body, &used);
    const std::string unit = body.substr(used);
    DataRateValue rate;
    if (isRate && used > 0 && unit.find('B') != std::string::npos && text.front() != '-' &&
        unit.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/") ==
            std::string::npos &&
        rate.DeserializeFromString(text, checker))
    {
        std::ostringstream bits;
        bits << rate.Get().GetBitRate() / 1e9 << "Gbps";
        return "a rate in bits per second: '" + text +
               "' is in bytes per second, which ns-3 reads as " + bits.str() +
               "; write " + bits.str() + " if that is the rate you mean";
    }
    return "";
}

/// ns-3's DataRate checker with a minimum.
class RdmaDataRateChecker : public DataRateChecker
{
  public:
    /// \param min the smallest rate accepted
    explicit RdmaDataRateChecker(DataRate min)
        : m_min(min)
    {
    }

    bool Check(const AttributeValue& value) const override
    {
        const auto* v = dynamic_cast<const DataRateValue*>(&value);
        return v && v->Get() >= m_min;
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::DataRateValue";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        return "DataRate " + std::to_string(m_min.GetBitRate()) + "bps:";
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<DataRateValue>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        const auto* src = dynamic_cast<const DataRateValue*>(&source);
        auto* dst = dynamic_cast<DataRateValue*>(&destination);
        if (!src || !dst)
        {
            return false;
        }
        *dst = *src;
        return true;
    }

  private:
    DataRate m_min; //!< the smallest rate accepted
};

/**
 * RdmaCheckValue, keeping the value read.
 * \param checker the attribute's checker
 * \param type its GetValueTypeName()
 * \param text the value as typed
 * \param value receives the value read (when "" is returned)
 * \return RdmaCheckValue's answer
 */
std::string
CheckAndRead(Ptr<const AttributeChecker> checker,
             const std::string& type,
             const std::string& text,
             Ptr<AttributeValue>& value)
{
    const bool isString = type.find("StringValue") != std::string::npos;
    const std::string unitError = UnitError(type, text, checker);
    if (!unitError.empty())
    {
        return unitError;
    }
    if (!TextOk(type, text, checker))
    {
        return isString ? "text without blanks" : Expected(*checker);
    }
    Ptr<AttributeValue> v = checker->Create();
    if (!v->DeserializeFromString(text, checker))
    {
        return Expected(*checker);
    }
    const auto* time = dynamic_cast<const TimeValue*>(PeekPointer(v));
    if (time && time->Get().IsStrictlyNegative())
    {
        return Expected(*checker) + ", not negative";
    }
    if (!checker->Check(*v))
    {
        return Expected(*checker);
    }
    value = v;
    return "";
}

} // namespace

std::string
RdmaCheckValue(Ptr<const AttributeChecker> checker, const std::string& text)
{
    Ptr<AttributeValue> value;
    return CheckAndRead(checker, checker->GetValueTypeName(), text, value);
}

std::string
RdmaValueText(Ptr<const AttributeChecker> checker, const std::string& text)
{
    if (!checker)
    {
        return text;
    }
    // Only times and rates have a form to normalize: other values are
    // returned as they are, unchecked (a summary writes every key).
    const std::string type = checker->GetValueTypeName();
    if (type.find("TimeValue") == std::string::npos &&
        type.find("DataRateValue") == std::string::npos)
    {
        return text;
    }
    Ptr<AttributeValue> value;
    if (!CheckAndRead(checker, type, text, value).empty())
    {
        return text;
    }
    if (const auto* time = dynamic_cast<const TimeValue*>(PeekPointer(value)))
    {
        return RdmaTimeText(time->Get());
    }
    if (const auto* rate = dynamic_cast<const DataRateValue*>(PeekPointer(value)))
    {
        return RdmaRateText(rate->Get());
    }
    return text;
}

Ptr<const AttributeChecker>
RdmaMakeDataRateChecker(DataRate min)
{
    return Ptr<const AttributeChecker>(new RdmaDataRateChecker(min), false);
}

} // namespace ns3
