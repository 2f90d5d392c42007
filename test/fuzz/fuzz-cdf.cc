/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: a flow-size CDF of arbitrary bytes (RdmaFlowSizeCdf::
 * Parse, the HPCC format), then what a generator asks of it: its mean, its
 * maximum and sizes at percentiles from 0 to 100. Bad input must end in
 * std::runtime_error naming the line, never an abort or a sanitizer report.
 */

#include "rdma-fuzz.h"

#include "ns3/rdma-flow-size-cdf.h"

#include <cstdint>
#include <sstream>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    RdmaFuzzText(data, size, [](std::istream& in) {
        const RdmaFlowSizeCdf cdf = RdmaFlowSizeCdf::Parse(in, "fuzz.txt");
        volatile double sink = cdf.GetMean() + cdf.GetMax();
        for (double p = 0; p <= 100; p += 0.5)
        {
            sink = sink + static_cast<double>(cdf.SizeAt(p));
        }
    });
    return 0;
}
