/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: an HPCC simulator topology file of arbitrary bytes
 * (RdmaHpccTopologyReader::Parse), then RdmaTopologySpec::Validate on what
 * it read. Bad input must end in RdmaTopologyError (a std::runtime_error
 * naming the line), never an abort, a sanitizer report or a hang.
 */

#include "rdma-fuzz.h"

#include "ns3/rdma-hpcc-topology-reader.h"
#include "ns3/rdma-topology-spec.h"

#include <cstdint>
#include <sstream>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    RdmaFuzzText(data, size, [](std::istream& in) {
        uint32_t ignoredFrom = 0;
        RdmaHpccTopologyReader::Parse(in, "fuzz.txt", &ignoredFrom).Validate();
    });
    return 0;
}
