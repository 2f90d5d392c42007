/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: an htsim connection matrix of arbitrary bytes
 * (RdmaParseConnectionMatrix). Bad input must end in std::runtime_error naming
 * the line, never an abort, a sanitizer report or a hang.
 */

#include "rdma-fuzz.h"

#include "ns3/rdma-connection-matrix.h"

#include <cstdint>
#include <sstream>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    RdmaFuzzText(data, size, [](std::istream& in) { RdmaParseConnectionMatrix(in, "fuzz.cm"); });
    return 0;
}
