/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: an HPCC simulator flow file of arbitrary bytes
 * (RdmaParseHpccFlowFile). Bad input must end in std::runtime_error naming
 * the line, never an abort, a sanitizer report or a hang.
 */

#include "ns3/nstime.h"
#include "ns3/rdma-hpcc-flow-file.h"

#include <cstdint>
#include <sstream>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    Time::SetResolution(Time::PS);
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try
    {
        RdmaParseHpccFlowFile(in, "fuzz.txt");
    }
    catch (const std::runtime_error&)
    {
    }
    return 0;
}
