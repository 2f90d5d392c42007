/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-data-dir.h"

#include <cstdlib>
#include <filesystem>

// The build passes it (ns3-module/*.cmake, wscript).
#ifndef RDMA_DATA_DIR
#define RDMA_DATA_DIR "data"
#endif

namespace ns3
{

std::string
RdmaDataDir()
{
    const char* env = std::getenv("RDMA_DATA_DIR");
    if (env)
    {
        return env;
    }
#ifdef RDMA_INSTALLED_DATA_DIR
    if (!std::filesystem::is_directory(RDMA_DATA_DIR))
    {
        return RDMA_INSTALLED_DATA_DIR;
    }
#endif
    return RDMA_DATA_DIR;
}

} // namespace ns3
