/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: an HPCC simulator topology file of arbitrary bytes
 * (RdmaHpccTopologyReader::Parse), then RdmaTopologySpec::Validate on what
 * it read. Bad input must end in RdmaTopologyError (a std::runtime_error
 * naming the line), never an abort, a sanitizer report or a hang.
 */

#include "ns3/nstime.h"
#include "ns3/rdma-hpcc-topology-reader.h"
#include "ns3/rdma-topology-spec.h"

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
        uint32_t ignoredFrom = 0;
        const RdmaTopologySpec spec = RdmaHpccTopologyReader::Parse(in, "fuzz.txt", &ignoredFrom);
        spec.Validate();
    }
    catch (const std::runtime_error&)
    {
    }
    return 0;
}
