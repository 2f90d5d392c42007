/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bth-header.h"

#include "rdma-opcode.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(BthHeader);

namespace
{
constexpr uint8_t SE_BIT = 0x80;
constexpr uint8_t MIGREQ_BIT = 0x40;
constexpr uint8_t PADCNT_MASK = 0x30;
constexpr uint8_t TVER_MASK = 0x0F;
constexpr uint8_t FECN_BIT = 0x80;
constexpr uint8_t BECN_BIT = 0x40;
constexpr uint8_t ACKREQ_BIT = 0x80;

uint8_t
SetBit(uint8_t byte, uint8_t bit, bool on)
{
    return on ? (byte | bit) : (byte & ~bit);
}
} // namespace

BthHeader::BthHeader()
    : m_opcode(0),
      m_flags(0),
      m_pkey(DEFAULT_PKEY),
      m_ecnByte(0),
      m_destQp(0),
      m_ackByte(0),
      m_psn(0)
{
}

TypeId
BthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<BthHeader>();
    return tid;
}

TypeId
BthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
BthHeader::Print(std::ostream& os) const
{
    os << "BTH " << RdmaOpcodeName(m_opcode) << " dqpn=0x" << std::hex << std::setw(6)
       << std::setfill('0') << m_destQp << std::dec << std::setfill(' ') << " psn=" << m_psn
       << " pkey=0x" << std::hex << m_pkey << std::dec << " se=" << GetSolicitedEvent()
       << " pad=" << +GetPadCnt() << " fecn=" << GetFecn() << " becn=" << GetBecn()
       << " a=" << GetAckReq();
}

uint32_t
BthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
BthHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_opcode);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_pkey);
    i.WriteHtonU32((uint32_t(m_ecnByte) << 24) | m_destQp);
    i.WriteHtonU32((uint32_t(m_ackByte) << 24) | m_psn);
}

uint32_t
BthHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadU8();
    m_flags = i.ReadU8();
    m_pkey = i.ReadNtohU16();
    uint32_t w = i.ReadNtohU32();
    m_ecnByte = w >> 24;
    m_destQp = w & PSN_MASK;
    w = i.ReadNtohU32();
    m_ackByte = w >> 24;
    m_psn = w & PSN_MASK;
    return SIZE;
}

void
BthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
BthHeader::GetOpcode() const
{
    return m_opcode;
}

void
BthHeader::SetSolicitedEvent(bool se)
{
    m_flags = SetBit(m_flags, SE_BIT, se);
}

bool
BthHeader::GetSolicitedEvent() const
{
    return m_flags & SE_BIT;
}

void
BthHeader::SetMigReq(bool migReq)
{
    m_flags = SetBit(m_flags, MIGREQ_BIT, migReq);
}

bool
BthHeader::GetMigReq() const
{
    return m_flags & MIGREQ_BIT;
}

void
BthHeader::SetPadCnt(uint8_t padCnt)
{
    m_flags = (m_flags & ~PADCNT_MASK) | ((padCnt & 0x3) << 4);
}

uint8_t
BthHeader::GetPadCnt() const
{
    return (m_flags & PADCNT_MASK) >> 4;
}

void
BthHeader::SetTver(uint8_t tver)
{
    m_flags = (m_flags & ~TVER_MASK) | (tver & TVER_MASK);
}

uint8_t
BthHeader::GetTver() const
{
    return m_flags & TVER_MASK;
}

void
BthHeader::SetPkey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
BthHeader::GetPkey() const
{
    return m_pkey;
}

void
BthHeader::SetFecn(bool fecn)
{
    m_ecnByte = SetBit(m_ecnByte, FECN_BIT, fecn);
}

bool
BthHeader::GetFecn() const
{
    return m_ecnByte & FECN_BIT;
}

void
BthHeader::SetBecn(bool becn)
{
    m_ecnByte = SetBit(m_ecnByte, BECN_BIT, becn);
}

bool
BthHeader::GetBecn() const
{
    return m_ecnByte & BECN_BIT;
}

void
BthHeader::SetReservedBits(uint16_t bits)
{
    m_ecnByte = (m_ecnByte & 0xC0) | ((bits >> 7) & 0x3F);
    m_ackByte = (m_ackByte & 0x80) | (bits & 0x7F);
}

uint16_t
BthHeader::GetReservedBits() const
{
    return static_cast<uint16_t>(((m_ecnByte & 0x3F) << 7) | (m_ackByte & 0x7F));
}

void
BthHeader::SetDestQp(uint32_t qpn)
{
    m_destQp = qpn & PSN_MASK;
}

uint32_t
BthHeader::GetDestQp() const
{
    return m_destQp;
}

void
BthHeader::SetAckReq(bool ackReq)
{
    m_ackByte = SetBit(m_ackByte, ACKREQ_BIT, ackReq);
}

bool
BthHeader::GetAckReq() const
{
    return m_ackByte & ACKREQ_BIT;
}

void
BthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & PSN_MASK;
}

uint32_t
BthHeader::GetPsn() const
{
    return m_psn;
}

uint8_t
BthHeader::PadCntFor(uint32_t payloadSize)
{
    return (4 - payloadSize % 4) % 4;
}

} // namespace ns3
