/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-version.h"

// The build passes it (ns3-module/*.cmake, wscript).
#ifndef RDMA_NS3_VERSION
#define RDMA_NS3_VERSION "unknown"
#endif

namespace ns3
{

const char*
RdmaModuleVersion()
{
    return "0.1.0";
}

const char*
RdmaNs3Version()
{
    return RDMA_NS3_VERSION;
}

} // namespace ns3
