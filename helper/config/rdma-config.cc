/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-config.h"

#include "rdma-byte-size.h"
#include "rdma-key-names.h"
#include "rdma-value-check.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <cmath>
#include <boost/program_options.hpp>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaConfig");

namespace po = boost::program_options;

namespace
{

/// \return what an error adds for a byte key: the units it takes
std::string
ByteForms()
{
    return ", or a size with its unit (B, KB, MB, GB: powers of 1000; KiB, MiB, GiB: of 1024), "
           "for example 12MiB";
}

/// \return the text with leading and trailing blanks removed
std::string
Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
    {
        return "";
    }
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

/**
 * Line numbers of an INI text: the line of each "section.name", and the
 * first line that is neither blank, a comment, a [section] nor name = value.
 * Only used to name lines in errors; Boost.Program_options parses.
 */
struct IniLines
{
    std::map<std::string, std::vector<int>> keyLines; //!< key -> its lines
    int badLine{0};                                   //!< first malformed line, 0 = none

    /// \param text the INI text
    explicit IniLines(const std::string& text)
    {
        std::istringstream in(text);
        std::string line;
        std::string section;
        int n = 0;
        while (std::getline(in, line))
        {
            ++n;
            const auto hash = line.find('#');
            const std::string t = Trim(hash == std::string::npos ? line : line.substr(0, hash));
            if (t.empty())
            {
                continue;
            }
            if (t.front() == '[' && t.back() == ']')
            {
                section = Trim(t.substr(1, t.size() - 2));
                continue;
            }
            const auto eq = t.find('=');
            if (eq == std::string::npos || Trim(t.substr(0, eq)).empty())
            {
                if (badLine == 0)
                {
                    badLine = n;
                }
                continue;
            }
            const std::string name = Trim(t.substr(0, eq));
            keyLines[section.empty() ? name : section + "." + name].push_back(n);
        }
    }

    /// \return "name:line" of the key's k-th occurrence, or name alone
    std::string Where(const std::string& name, const std::string& key, std::size_t k = 0) const
    {
        auto it = keyLines.find(key);
        if (it == keyLines.end() || it->second.size() <= k)
        {
            return name;
        }
        return name + ":" + std::to_string(it->second[k]);
    }
};

/// \return the TypeId's attributes and its parents' up to a framework or policy base
std::vector<TypeId::AttributeInformation>
OwnAttributes(TypeId tid)
{
    std::vector<TypeId::AttributeInformation> out;
    // A policy base's attributes are its own group's (switch.lb), not each
    // subclass's: ns-3 sets their defaults on the base TypeId only.
    const std::vector<std::string> stop{"ns3::Object",
                                        "ns3::ObjectBase",
                                        "ns3::NetDevice",
                                        "ns3::Application",
                                        "ns3::RdmaLoadBalancer"};
    for (TypeId t = tid;; t = t.GetParent())
    {
        if (t != tid && std::find(stop.begin(), stop.end(), t.GetName()) != stop.end())
        {
            break;
        }
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const auto info = t.GetAttribute(i);
            const std::string type = info.checker->GetValueTypeName();
            // Object pointers and callbacks have no text form.
            const bool textual = type != "ns3::PointerValue" && type != "ns3::CallbackValue" &&
                                 type.find("ObjectPtrContainer") == std::string::npos;
            if ((info.flags & TypeId::ATTR_CONSTRUCT) && textual &&
                info.supportLevel != TypeId::SupportLevel::OBSOLETE)
            {
                out.push_back(info);
            }
        }
        if (t.GetParent() == t)
        {
            break;
        }
    }
    return out;
}

} // namespace

void
RdmaConfig::AddKey(const std::string& name,
                   const std::string& defaultValue,
                   const std::string& help,
                   Ptr<const AttributeChecker> checker)
{
    NS_ABORT_MSG_IF(m_index.count(name), "RdmaConfig: key " << name << " declared twice");
    // A schema is fixed at compile time: debug builds check each default
    // here, and rdma-config's tests check every rdma-sim key's.
    NS_ASSERT_MSG(!checker || RdmaCheckValue(checker, defaultValue).empty(),
                  "RdmaConfig: key " << name << ": default " << defaultValue
                                     << " refused by its own checker");
    m_index[name] = m_keys.size();
    m_keys.push_back({name, defaultValue, help, "", "", false, false, checker});
}

void
RdmaConfig::AddAttributeGroup(const std::string& group,
                              const std::string& typeIdName,
                              bool perInstance,
                              const std::vector<std::string>& setByOtherKeys)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeIdName, &tid))
    {
        throw RdmaConfigError("configuration group '" + group + "': no TypeId " + typeIdName);
    }
    for (const auto& info : OwnAttributes(tid))
    {
        const std::string name = group + "." + info.name;
        if (m_index.count(name) ||
            std::find(setByOtherKeys.begin(), setByOtherKeys.end(), info.name) !=
                setByOtherKeys.end())
        {
            continue; // a parent's attribute already listed, or another key's
        }
        m_index[name] = m_keys.size();
        m_keys.push_back({name,
                          info.initialValue->SerializeToString(info.checker),
                          info.help,
                          typeIdName,
                          info.name,
                          perInstance,
                          false,
                          info.checker});
    }
}

void
RdmaConfig::OverrideDefault(const std::string& name,
                            const std::string& value,
                            const std::string& why)
{
    Key& k = m_keys[Index(name)];
    if (k.typeId.empty() || k.perInstance)
    {
        throw RdmaConfigError("configuration key '" + name +
                              "' is not a model attribute: its default is its own already");
    }
    k.help += " [here " + value + " instead of the model's " + k.defaultValue + ": " + why + "]";
    k.defaultValue = value;
    k.ownDefault = true;
}

const std::vector<RdmaConfig::Key>&
RdmaConfig::GetKeys() const
{
    return m_keys;
}

bool
RdmaConfig::HasKey(const std::string& name) const
{
    return m_index.count(name) != 0;
}

std::size_t
RdmaConfig::Index(const std::string& name) const
{
    auto it = m_index.find(name);
    if (it == m_index.end())
    {
        throw RdmaConfigError("unknown configuration key '" + name + "'" +
                              RdmaDidYouMean(name, GetKeyNames()) +
                              " (rdma-sim --help lists them)");
    }
    return it->second;
}

std::vector<std::string>
RdmaConfig::GetKeyNames() const
{
    std::vector<std::string> names;
    names.reserve(m_keys.size());
    for (const Key& k : m_keys)
    {
        names.push_back(k.name);
    }
    return names;
}

std::string
RdmaConfig::Resolve(const std::string& name, const std::string& origin) const
{
    if (m_index.count(name))
    {
        return name;
    }
    std::vector<std::string> sameLetters;
    for (const Key& k : m_keys)
    {
        if (k.name.size() == name.size() && RdmaKeyDistance(k.name, name) == 0)
        {
            sameLetters.push_back(k.name);
        }
    }
    if (sameLetters.size() == 1)
    {
        return sameLetters.front();
    }
    throw RdmaConfigError(origin + ": unknown key '" + name + "'" +
                          RdmaDidYouMean(name, GetKeyNames()) +
                          " (rdma-sim --help lists every key)");
}

std::vector<std::string>
RdmaConfig::EnumNames(const Key& key)
{
    std::vector<std::string> names;
    if (!key.checker || key.checker->GetValueTypeName().find("EnumValue") == std::string::npos ||
        !key.checker->HasUnderlyingTypeInformation())
    {
        return names;
    }
    // EnumChecker::GetUnderlyingTypeInformation: the names joined by '|'.
    std::istringstream in(key.checker->GetUnderlyingTypeInformation());
    for (std::string name; std::getline(in, name, '|');)
    {
        names.push_back(name);
    }
    return names;
}

bool
RdmaConfig::IsByteKey(const Key& key)
{
    if (!key.checker || key.checker->GetValueTypeName().find("UintegerValue") == std::string::npos)
    {
        return false;
    }
    const std::string& n = key.name;
    const bool namedBytes = n.size() >= 5 && n.compare(n.size() - 5, 5, "Bytes") == 0;
    return namedBytes || key.help.find(", bytes") != std::string::npos ||
           key.help.rfind("bytes", 0) == 0 || key.help.find(" (bytes)") != std::string::npos;
}

void
RdmaConfig::Set(const std::string& nameIn, const std::string& valueIn, const std::string& origin)
{
    const std::string name = Resolve(nameIn, origin);
    const Key& key = m_keys[m_index.at(name)];
    std::string value = valueIn;
    uint64_t bytes = 0;
    const bool hasUnit = !value.empty() && std::isalpha(static_cast<unsigned char>(value.back()));
    if (IsByteKey(key) && hasUnit && RdmaParseByteSize(value, &bytes))
    {
        value = std::to_string(bytes); // "12MiB": the attribute takes a count of bytes
    }
    const std::vector<std::string> names = EnumNames(key);
    if (!names.empty() && std::find(names.begin(), names.end(), value) == names.end())
    {
        // A name in another case is that name ("spray" for Spray, "IRN" for irn).
        const auto same = std::find_if(names.begin(), names.end(), [&value](const std::string& n) {
            return n.size() == value.size() && RdmaKeyDistance(n, value) == 0;
        });
        if (same == names.end())
        {
            throw RdmaConfigError(origin + ": " + name + " = '" + valueIn + "': expected " +
                                  RdmaCheckValue(key.checker, value) +
                                  RdmaDidYouMean(value, names) + " (" + key.help + ")");
        }
        value = *same;
    }
    if (key.checker)
    {
        const std::string expected = RdmaCheckValue(key.checker, value);
        if (!expected.empty())
        {
            throw RdmaConfigError(origin + ": " + name + " = '" + valueIn + "': expected " +
                                  expected + (IsByteKey(key) ? ByteForms() : "") + " (" + key.help +
                                  ")");
        }
    }
    m_values[name] = value;
    m_origin[name] = value == valueIn ? origin : origin + " (" + valueIn + ")";
    m_dir.erase(name);
}

void
RdmaConfig::ReadIniFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw RdmaConfigError(path + ": cannot open the configuration file");
    }
    const auto slash = path.rfind('/');
    ReadIni(in, path, slash == std::string::npos ? "." : path.substr(0, slash));
}

void
RdmaConfig::ReadIniText(const std::string& text, const std::string& name)
{
    std::istringstream in(text);
    ReadIni(in, name, "");
}

void
RdmaConfig::ReadIni(std::istream& in, const std::string& name, const std::string& dir)
{
    std::ostringstream all;
    all << in.rdbuf();
    const std::string text = all.str();
    const IniLines lines(text);
    if (lines.badLine != 0)
    {
        throw RdmaConfigError(name + ":" + std::to_string(lines.badLine) +
                              ": expected '[section]', 'name = value' or a '#' comment");
    }
    // Boost reads every name as unregistered (declaring hundreds of keys
    // costs more than the file); Resolve below checks each against the keys.
    po::options_description desc;
    po::parsed_options parsed(&desc);
    try
    {
        std::istringstream again(text);
        parsed = po::parse_config_file(again, desc, true);
    }
    catch (const po::error& e)
    {
        throw RdmaConfigError(name + ": " + e.what());
    }
    std::map<std::string, std::size_t> seenAs;           // as written -> times
    std::map<std::string, std::string> firstAt;          // key -> where it was first set
    for (const auto& opt : parsed.options)
    {
        const std::string where =
            lines.Where(name, opt.string_key, seenAs[opt.string_key]++);
        // A key, a key in another case, or unknown.
        const std::string key = Resolve(opt.string_key, where);
        if (firstAt.count(key))
        {
            throw RdmaConfigError(where + ": '" + key + "' is set twice (first at " +
                                  firstAt[key] + ")");
        }
        firstAt[key] = where;
        Set(key, opt.value.empty() ? "" : Trim(opt.value.front()), where);
        m_dir[key] = dir;
    }
}

const std::string&
RdmaConfig::Get(const std::string& name) const
{
    const std::size_t i = Index(name);
    auto it = m_values.find(name);
    return it == m_values.end() ? m_keys[i].defaultValue : it->second;
}

const std::string&
RdmaConfig::GetOrigin(const std::string& name) const
{
    static const std::string def = "default";
    Index(name);
    auto it = m_origin.find(name);
    return it == m_origin.end() ? def : it->second;
}

namespace
{
/// \return an error for a value of the wrong kind
RdmaConfigError
BadValue(const RdmaConfig& c, const std::string& name, const std::string& expected)
{
    return RdmaConfigError(c.GetOrigin(name) + ": " + name + " = '" + c.Get(name) + "': expected " +
                           expected);
}
} // namespace

std::string
RdmaConfig::GetPath(const std::string& name) const
{
    const std::string& v = Get(name);
    auto it = m_dir.find(name);
    if (v.empty() || v.front() == '/' || it == m_dir.end() || it->second.empty())
    {
        return v;
    }
    return it->second + "/" + v;
}

namespace
{
/// \return why a file cannot be read, or "" \param path it
std::string
WhyUnreadable(const std::string& path)
{
    struct stat st;
    std::string why;
    if (path.empty())
    {
        why = "no path given";
    }
    else if (stat(path.c_str(), &st) != 0)
    {
        why = path + ": " + std::strerror(errno);
    }
    else if (S_ISDIR(st.st_mode))
    {
        why = path + " is a folder";
    }
    else if (!std::ifstream(path))
    {
        why = path + " cannot be opened for reading";
    }
    return why;
}
} // namespace

std::string
RdmaConfig::GetInputPath(const std::string& name) const
{
    const std::string path = GetPath(name);
    const std::string why = WhyUnreadable(path);
    if (!why.empty())
    {
        throw BadValue(*this, name, "a readable file (" + why + ")");
    }
    return path;
}

std::vector<std::string>
RdmaConfig::GetInputPaths(const std::string& name) const
{
    std::vector<std::string> paths;
    std::istringstream in(Get(name));
    std::string one;
    while (std::getline(in, one, ','))
    {
        const auto first = one.find_first_not_of(" \t");
        const auto last = one.find_last_not_of(" \t");
        one = first == std::string::npos ? "" : one.substr(first, last - first + 1);
        auto it = m_dir.find(name);
        if (!one.empty() && one.front() != '/' && it != m_dir.end() && !it->second.empty())
        {
            one = it->second + "/" + one;
        }
        const std::string why = WhyUnreadable(one);
        if (!why.empty())
        {
            throw BadValue(*this, name, "readable files separated by commas (" + why + ")");
        }
        paths.push_back(one);
    }
    if (paths.empty())
    {
        throw BadValue(*this, name, "a readable file (no path given)");
    }
    return paths;
}

double
RdmaConfig::GetDouble(const std::string& name) const
{
    const std::string& v = Get(name);
    std::size_t used = 0;
    double d = 0;
    try
    {
        d = std::stod(v, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used == 0 || used != v.size() || !std::isfinite(d))
    {
        throw BadValue(*this, name, "a finite number");
    }
    return d;
}

uint64_t
RdmaConfig::GetUinteger(const std::string& name) const
{
    const std::string& v = Get(name);
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
    {
        throw BadValue(*this, name, "a non-negative integer");
    }
    try
    {
        return std::stoull(v);
    }
    catch (const std::exception&)
    {
        throw BadValue(*this, name, "a non-negative integer below 2^64");
    }
}

bool
RdmaConfig::GetBool(const std::string& name) const
{
    const std::string& v = Get(name);
    if (v == "true" || v == "1" || v == "on" || v == "yes")
    {
        return true;
    }
    if (v == "false" || v == "0" || v == "off" || v == "no")
    {
        return false;
    }
    throw BadValue(*this, name, "true or false");
}

Time
RdmaConfig::GetTime(const std::string& name) const
{
    const Ptr<const AttributeChecker> checker = MakeTimeChecker();
    const std::string expected = RdmaCheckValue(checker, Get(name));
    TimeValue t;
    if (!expected.empty() || !t.DeserializeFromString(Get(name), checker))
    {
        throw BadValue(*this, name, expected);
    }
    return t.Get();
}

uint64_t
RdmaConfig::GetBitRate(const std::string& name) const
{
    const Ptr<const AttributeChecker> checker = MakeDataRateChecker();
    const std::string expected = RdmaCheckValue(checker, Get(name));
    DataRateValue r;
    if (!expected.empty() || !r.DeserializeFromString(Get(name), checker))
    {
        throw BadValue(*this, name, expected);
    }
    return r.Get().GetBitRate();
}

void
RdmaConfig::Apply(const std::string& groupPrefix) const
{
    for (const auto& k : m_keys)
    {
        if (k.typeId.empty() || k.perInstance ||
            k.name.compare(0, groupPrefix.size(), groupPrefix) != 0)
        {
            continue;
        }
        if (k.ownDefault || m_values.count(k.name))
        {
            Config::SetDefault(k.typeId + "::" + k.attribute, StringValue(Get(k.name)));
        }
    }
}

std::vector<std::pair<std::string, std::string>>
RdmaConfig::GetGroupValues(const std::string& group) const
{
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto& k : m_keys)
    {
        if (k.typeId.empty() || k.name.size() <= group.size() + 1 ||
            k.name.compare(0, group.size() + 1, group + ".") != 0 ||
            k.name.find('.', group.size() + 1) != std::string::npos)
        {
            continue;
        }
        auto it = m_values.find(k.name);
        if (it != m_values.end())
        {
            values.emplace_back(k.attribute, it->second);
        }
    }
    return values;
}

namespace
{
/// \return the group of "group.name" (all but the last component)
std::string
GroupOf(const std::string& key)
{
    const auto dot = key.rfind('.');
    return dot == std::string::npos ? "" : key.substr(0, dot);
}
} // namespace

void
RdmaConfig::Print(std::ostream& os, const std::vector<std::string>* only) const
{
    std::string group = "\x01";
    for (const auto& k : m_keys)
    {
        if (only && std::find(only->begin(), only->end(), k.name) == only->end())
        {
            continue;
        }
        const std::string g = GroupOf(k.name);
        if (g != group)
        {
            os << (group == "\x01" ? "" : "\n") << "[" << g << "]\n";
            group = g;
        }
        os << k.name.substr(g.size() + 1) << " = " << RdmaValueText(k.checker, Get(k.name));
        auto it = m_origin.find(k.name);
        if (it != m_origin.end())
        {
            os << "  # " << it->second;
        }
        os << "\n";
    }
}

void
RdmaConfig::PrintHelp(std::ostream& os) const
{
    std::string group = "\x01";
    for (const auto& k : m_keys)
    {
        const std::string g = GroupOf(k.name);
        if (g != group)
        {
            os << "\n[" << g << "]"
               << (m_keys.empty() || k.typeId.empty() ? "" : "  (attributes of " + k.typeId + ")")
               << "\n";
            group = g;
        }
        os << "  --" << k.name
           << " (default: "
           << (k.defaultValue.empty() ? "\"\"" : RdmaValueText(k.checker, k.defaultValue))
           << ")\n      "
           << k.help << "\n";
    }
}

std::map<std::string, std::string>
RdmaConfig::GetValues() const
{
    std::map<std::string, std::string> out;
    for (const auto& k : m_keys)
    {
        out[k.name] = Get(k.name);
    }
    return out;
}

} // namespace ns3
