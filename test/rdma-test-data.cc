/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-test-data.h"

#include <fstream>
#include <sstream>

#ifndef RDMA_TEST_DATA_DIR
#error "RDMA_TEST_DATA_DIR must name the module's test/data folder (every build defines it)"
#endif

namespace ns3
{
namespace rdmatest
{

std::string
DataPath(const std::string& name)
{
    return std::string(RDMA_TEST_DATA_DIR) + "/" + name;
}

namespace
{
bool
ParseHex(const std::string& hex, std::vector<uint8_t>& out)
{
    if (hex.size() % 2 != 0)
    {
        return false;
    }
    out.clear();
    for (size_t i = 0; i < hex.size(); i += 2)
    {
        unsigned v = 0;
        std::istringstream is(hex.substr(i, 2));
        if (!(is >> std::hex >> v) || !is.eof())
        {
            return false;
        }
        out.push_back(static_cast<uint8_t>(v));
    }
    return true;
}
} // namespace

std::vector<RoceVector>
ReadRoceVectors(const std::string& path, std::string& error)
{
    std::vector<RoceVector> vectors;
    std::ifstream in(path);
    if (!in)
    {
        error = path + ": cannot open";
        return {};
    }
    std::string line;
    uint32_t lineno = 0;
    RoceVector* pending = nullptr;
    while (std::getline(in, line))
    {
        ++lineno;
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::string where = path + ":" + std::to_string(lineno) + ": ";
        if (!pending)
        {
            RoceVector v;
            std::istringstream is(line);
            std::string len;
            std::string icrc;
            if (!(is >> v.name >> len >> icrc) || len.rfind("len=", 0) != 0 ||
                icrc.rfind("icrc=", 0) != 0)
            {
                error = where + "expected 'NAME len=N icrc=HEX'";
                return {};
            }
            v.length = std::stoul(len.substr(4));
            v.icrc = std::stoul(icrc.substr(5), nullptr, 16);
            vectors.push_back(v);
            pending = &vectors.back();
        }
        else
        {
            if (!ParseHex(line, pending->bytes) || pending->bytes.size() != pending->length)
            {
                error = where + "hex bytes do not match len=" + std::to_string(pending->length);
                return {};
            }
            pending = nullptr;
        }
    }
    if (pending)
    {
        error = path + ": vector " + pending->name + " has no bytes line";
        return {};
    }
    return vectors;
}

Ptr<Packet>
ToPacket(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), bytes.size());
}

std::vector<uint8_t>
ToBytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

std::string
ToHex(const std::vector<uint8_t>& bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (uint8_t b : bytes)
    {
        s += digits[b >> 4];
        s += digits[b & 0xF];
    }
    return s;
}

} // namespace rdmatest
} // namespace ns3
