/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-path-mtu.h"

#include "ns3/abort.h"

#include <cstdlib>

namespace ns3
{

uint32_t
RdmaMtuBytes(RdmaMtu mtu)
{
    return (mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096) ? (128u << mtu) : 0;
}

std::string
RdmaPathMtu::Rule()
{
    return "256, 512, 1024, 2048 or 4096 bytes";
}

RdmaMtu
RdmaPathMtu::FromBytes(uint64_t bytes)
{
    NS_ABORT_MSG_UNLESS(IsValidBytes(bytes),
                        "RdmaPathMtu: " << bytes << " bytes: expected " << Rule());
    uint8_t code = IBV_MTU_256;
    while (RdmaMtuBytes(static_cast<RdmaMtu>(code)) != bytes)
    {
        ++code;
    }
    return static_cast<RdmaMtu>(code);
}

uint32_t
RdmaPathMtu::NearestBytes(uint64_t payloadBytes)
{
    uint64_t mtu = MIN_BYTES;
    while (mtu < MAX_BYTES && std::llabs(static_cast<long long>(mtu * 2 - payloadBytes)) <=
                                  std::llabs(static_cast<long long>(mtu - payloadBytes)))
    {
        mtu *= 2;
    }
    return static_cast<uint32_t>(mtu);
}

} // namespace ns3
