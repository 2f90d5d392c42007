/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_OPCODE_H
#define RDMA_OPCODE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Base Transport Header opcodes used by RoCEv2 RC and the RoCEv2 CNP.
 *
 * Values from IBA Vol 1 Table 38 (transport class in bits 7-5: RC = 0x00) as
 * spelled in Linux include/rdma/ib_pack.h; the CNP opcode 0x81 is the one
 * RoCEv2 NICs send (IBA Annex A17, ConnectX captures).
 */
enum RdmaOpcode : uint8_t
{
    RC_SEND_FIRST = 0x00,
    RC_SEND_MIDDLE = 0x01,
    RC_SEND_LAST = 0x02,
    RC_SEND_LAST_WITH_IMMEDIATE = 0x03,
    RC_SEND_ONLY = 0x04,
    RC_SEND_ONLY_WITH_IMMEDIATE = 0x05,
    RC_RDMA_WRITE_FIRST = 0x06,
    RC_RDMA_WRITE_MIDDLE = 0x07,
    RC_RDMA_WRITE_LAST = 0x08,
    RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09,
    RC_RDMA_WRITE_ONLY = 0x0A,
    RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B,
    RC_RDMA_READ_REQUEST = 0x0C,
    RC_RDMA_READ_RESPONSE_FIRST = 0x0D,
    RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E,
    RC_RDMA_READ_RESPONSE_LAST = 0x0F,
    RC_RDMA_READ_RESPONSE_ONLY = 0x10,
    RC_ACKNOWLEDGE = 0x11,
    RC_ATOMIC_ACKNOWLEDGE = 0x12,
    RC_COMPARE_SWAP = 0x13,
    RC_FETCH_ADD = 0x14,
    RC_SEND_LAST_WITH_INVALIDATE = 0x16,
    RC_SEND_ONLY_WITH_INVALIDATE = 0x17,
    ROCE_CNP = 0x81,
    /// RCCC's credit (this module's; UEC's RCCC over RoCE): BTH only, the
    /// cumulative credit in the PSN field (RdmaRcccPacer). 0xC0 is in the
    /// range IBA 9.2 Table 38 leaves to manufacturers (prefix 110).
    RCCC_CREDIT = 0xC0,
    /// RCCC's request to send (this module's; UEC's RTS): BTH only, to the
    /// receiving QP, its sender's pull target in the BTH's reserved bits, as a
    /// request carries it; sent by a QP that has something to send and no
    /// credit when the receiver has not heard of that need.
    RCCC_REQUEST = 0xC1,
};

/**
 * \ingroup rdma
 * \param op a BTH opcode
 * \return whether it is an RC response (a READ response, an ACKNOWLEDGE or
 *         an ATOMIC ACKNOWLEDGE, IBA Table 38 0x0D-0x12)
 */
inline bool
RdmaIsResponseOpcode(uint8_t op)
{
    return op >= RC_RDMA_READ_RESPONSE_FIRST && op <= RC_ATOMIC_ACKNOWLEDGE;
}

/**
 * \ingroup rdma
 * \brief Which headers follow the BTH for an opcode (IBA Vol 1 9.2-9.4,
 * Table 38 columns), as bit flags.
 */
enum RdmaExtHeader : uint16_t
{
    EXT_RETH = 1 << 0,         //!< RDMA Extended Transport Header, 16 B
    EXT_AETH = 1 << 1,         //!< ACK Extended Transport Header, 4 B
    EXT_IMMDT = 1 << 2,        //!< Immediate Data, 4 B
    EXT_IETH = 1 << 3,         //!< Invalidate Extended Transport Header, 4 B
    EXT_ATOMICETH = 1 << 4,    //!< Atomic Extended Transport Header, 28 B
    EXT_ATOMICACKETH = 1 << 5, //!< Atomic ACK Extended Transport Header, 8 B
    EXT_CNP = 1 << 6,          //!< RoCEv2 CNP reserved block, 16 B
    EXT_PAYLOAD = 1 << 7,      //!< the packet may carry payload (and pad)
};

/**
 * \ingroup rdma
 * \brief Layout facts of one BTH opcode.
 */
struct RdmaOpcodeInfo
{
    bool known;          //!< false for reserved or unsupported opcodes
    uint16_t extHeaders; //!< RdmaExtHeader flags, in wire order RETH, AETH, ImmDt/IETH, ...
    const char* name;    //!< IBA name, e.g. "RDMA_WRITE_ONLY"
};

/**
 * \brief Layout of an opcode.
 * \param opcode BTH OpCode byte
 * \return its RdmaOpcodeInfo; `known` is false for an opcode this module
 *         does not implement (UC, RD, UD, reserved values)
 */
const RdmaOpcodeInfo& GetRdmaOpcodeInfo(uint8_t opcode);

/**
 * \param opcode BTH OpCode byte
 * \return the IBA name ("SEND_FIRST", "CNP", ...) or "UNKNOWN(0xNN)"
 */
std::string RdmaOpcodeName(uint8_t opcode);

/**
 * \param opcode BTH OpCode byte
 * \return the number of bytes of extension headers after the BTH (0-28)
 */
uint32_t RdmaExtHeadersSize(uint8_t opcode);

} // namespace ns3

#endif // RDMA_OPCODE_H
