/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What every harness of test/fuzz shares: the time resolution rdma-sim
 * uses (LLVMFuzzerInitialize; include this header once per harness) and
 * the run of a text reader on the input's bytes, where the reader's
 * documented error, std::runtime_error naming the line, is an accepted
 * outcome and anything else (an abort, another exception, a sanitizer
 * report) is a finding.
 */

#ifndef RDMA_FUZZ_H
#define RDMA_FUZZ_H

#include "ns3/nstime.h"

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    ns3::Time::SetResolution(ns3::Time::PS);
    return 0;
}

/**
 * \param data the input \param size its length
 * \param read reads a std::istream; may throw std::runtime_error
 */
template <typename Reader>
void
RdmaFuzzText(const uint8_t* data, size_t size, Reader read)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try
    {
        read(in);
    }
    catch (const std::runtime_error&)
    {
    }
}

#endif /* RDMA_FUZZ_H */
