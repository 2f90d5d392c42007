/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-opcode.h"

#include <array>
#include <cstdio>

namespace ns3
{

namespace
{

/// Opcode table indexed by the BTH OpCode byte (IBA Vol 1 Table 38).
std::array<RdmaOpcodeInfo, 256>
MakeOpcodeTable()
{
    std::array<RdmaOpcodeInfo, 256> t{};
    for (auto& e : t)
    {
        e = {false, 0, nullptr};
    }
    const uint16_t P = EXT_PAYLOAD;
    t[RC_SEND_FIRST] = {true, P, "SEND_FIRST"};
    t[RC_SEND_MIDDLE] = {true, P, "SEND_MIDDLE"};
    t[RC_SEND_LAST] = {true, P, "SEND_LAST"};
    t[RC_SEND_LAST_WITH_IMMEDIATE] = {true, EXT_IMMDT | P, "SEND_LAST_WITH_IMMEDIATE"};
    t[RC_SEND_ONLY] = {true, P, "SEND_ONLY"};
    t[RC_SEND_ONLY_WITH_IMMEDIATE] = {true, EXT_IMMDT | P, "SEND_ONLY_WITH_IMMEDIATE"};
    t[RC_RDMA_WRITE_FIRST] = {true, EXT_RETH | P, "RDMA_WRITE_FIRST"};
    t[RC_RDMA_WRITE_MIDDLE] = {true, P, "RDMA_WRITE_MIDDLE"};
    t[RC_RDMA_WRITE_LAST] = {true, P, "RDMA_WRITE_LAST"};
    t[RC_RDMA_WRITE_LAST_WITH_IMMEDIATE] = {true, EXT_IMMDT | P, "RDMA_WRITE_LAST_WITH_IMMEDIATE"};
    t[RC_RDMA_WRITE_ONLY] = {true, EXT_RETH | P, "RDMA_WRITE_ONLY"};
    t[RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE] = {true,
                                            EXT_RETH | EXT_IMMDT | P,
                                            "RDMA_WRITE_ONLY_WITH_IMMEDIATE"};
    t[RC_RDMA_READ_REQUEST] = {true, EXT_RETH, "RDMA_READ_REQUEST"};
    t[RC_RDMA_READ_RESPONSE_FIRST] = {true, EXT_AETH | P, "RDMA_READ_RESPONSE_FIRST"};
    t[RC_RDMA_READ_RESPONSE_MIDDLE] = {true, P, "RDMA_READ_RESPONSE_MIDDLE"};
    t[RC_RDMA_READ_RESPONSE_LAST] = {true, EXT_AETH | P, "RDMA_READ_RESPONSE_LAST"};
    t[RC_RDMA_READ_RESPONSE_ONLY] = {true, EXT_AETH | P, "RDMA_READ_RESPONSE_ONLY"};
    t[RC_ACKNOWLEDGE] = {true, EXT_AETH, "ACKNOWLEDGE"};
    t[RC_ATOMIC_ACKNOWLEDGE] = {true, EXT_AETH | EXT_ATOMICACKETH, "ATOMIC_ACKNOWLEDGE"};
    t[RC_COMPARE_SWAP] = {true, EXT_ATOMICETH, "COMPARE_SWAP"};
    t[RC_FETCH_ADD] = {true, EXT_ATOMICETH, "FETCH_ADD"};
    t[RC_SEND_LAST_WITH_INVALIDATE] = {true, EXT_IETH | P, "SEND_LAST_WITH_INVALIDATE"};
    t[RC_SEND_ONLY_WITH_INVALIDATE] = {true, EXT_IETH | P, "SEND_ONLY_WITH_INVALIDATE"};
    t[ROCE_CNP] = {true, EXT_CNP, "CNP"};
    t[RCCC_CREDIT] = {true, 0, "RCCC_CREDIT"};
    t[RCCC_REQUEST] = {true, 0, "RCCC_REQUEST"};
    return t;
}

const std::array<RdmaOpcodeInfo, 256> g_opcodeTable = MakeOpcodeTable();

} // namespace

const RdmaOpcodeInfo&
GetRdmaOpcodeInfo(uint8_t opcode)
{
    return g_opcodeTable[opcode];
}

std::string
RdmaOpcodeName(uint8_t opcode)
{
    const RdmaOpcodeInfo& info = g_opcodeTable[opcode];
    if (info.known)
    {
        return info.name;
    }
    char buf[16];
    std::snprintf(buf, sizeof(buf), "UNKNOWN(0x%02x)", opcode);
    return buf;
}

uint32_t
RdmaExtHeadersSize(uint8_t opcode)
{
    uint16_t ext = g_opcodeTable[opcode].extHeaders;
    uint32_t size = 0;
    size += (ext & EXT_RETH) ? 16 : 0;
    size += (ext & EXT_AETH) ? 4 : 0;
    size += (ext & EXT_IMMDT) ? 4 : 0;
    size += (ext & EXT_IETH) ? 4 : 0;
    size += (ext & EXT_ATOMICETH) ? 28 : 0;
    size += (ext & EXT_ATOMICACKETH) ? 8 : 0;
    size += (ext & EXT_CNP) ? 16 : 0;
    return size;
}

} // namespace ns3
