/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-frame-view.h"

#include "rdma-opcode.h"

namespace ns3
{

uint16_t
RdmaFrameView::Read16(uint32_t off) const
{
    return static_cast<uint16_t>(m_bytes[off] << 8 | m_bytes[off + 1]);
}

uint32_t
RdmaFrameView::Read32(uint32_t off) const
{
    return static_cast<uint32_t>(m_bytes[off]) << 24 |
           static_cast<uint32_t>(m_bytes[off + 1]) << 16 |
           static_cast<uint32_t>(m_bytes[off + 2]) << 8 | m_bytes[off + 3];
}

bool
RdmaFrameView::Parse(Ptr<const Packet> frame)
{
    m_len = frame->CopyData(m_bytes, PEEK_BYTES);
    return ParseCopied();
}

bool
RdmaFrameView::Parse(const RdmaFrame& frame)
{
    m_len = frame.CopyData(m_bytes, PEEK_BYTES);
    return ParseCopied();
}

bool
RdmaFrameView::ParseCopied()
{
    m_hasPorts = false;
    if (m_len < 14)
    {
        return false;
    }
    uint32_t off = 12;
    uint16_t etherType = Read16(off);
    if (etherType == ETHERTYPE_VLAN)
    {
        if (m_len < 18)
        {
            return false;
        }
        off += 4;
        etherType = Read16(off);
    }
    m_ipOffset = off + 2;
    if (etherType == ETHERTYPE_IPV4)
    {
        m_ipv6 = false;
        if (m_len < m_ipOffset + 20 || (m_bytes[m_ipOffset] >> 4) != 4)
        {
            return false;
        }
        uint32_t ihl = (m_bytes[m_ipOffset] & 0x0F) * 4u;
        if (ihl < 20)
        {
            return false;
        }
        m_proto = m_bytes[m_ipOffset + 9];
        m_l4Offset = m_ipOffset + ihl;
    }
    else if (etherType == ETHERTYPE_IPV6)
    {
        m_ipv6 = true;
        if (m_len < m_ipOffset + 40 || (m_bytes[m_ipOffset] >> 4) != 6)
        {
            return false;
        }
        m_proto = m_bytes[m_ipOffset + 6];
        m_l4Offset = m_ipOffset + 40;
    }
    else
    {
        return false;
    }
    m_hasPorts = (m_proto == PROTO_UDP || m_proto == PROTO_TCP) && m_len >= m_l4Offset + 4;
    return true;
}

bool
RdmaFrameView::IsIpv6() const
{
    return m_ipv6;
}

uint32_t
RdmaFrameView::GetDstIpv4() const
{
    return Read32(m_ipOffset + 16);
}

const uint8_t*
RdmaFrameView::GetDstIpv6() const
{
    return m_bytes + m_ipOffset + 24;
}

uint32_t
RdmaFrameView::GetIpOffset() const
{
    return m_ipOffset;
}

uint32_t
RdmaFrameView::GetL4Offset() const
{
    return m_l4Offset;
}

uint8_t
RdmaFrameView::GetProtocol() const
{
    return m_proto;
}

uint8_t
RdmaFrameView::GetEcn() const
{
    // IPv4: low 2 bits of the TOS byte; IPv6: low 2 bits of the Traffic
    // Class, which straddles bytes 0 and 1 (bits 4-5 of byte 1).
    return m_ipv6 ? (m_bytes[m_ipOffset + 1] >> 4) & 0x3 : m_bytes[m_ipOffset + 1] & 0x3;
}

uint8_t
RdmaFrameView::GetTtl() const
{
    // IPv4 TTL at byte 8 (RFC 791 3.1), IPv6 Hop Limit at byte 7 (RFC 8200 3).
    return m_ipv6 ? m_bytes[m_ipOffset + 7] : m_bytes[m_ipOffset + 8];
}

bool
RdmaFrameView::HasPorts() const
{
    return m_hasPorts;
}

uint16_t
RdmaFrameView::GetSrcPort() const
{
    return m_hasPorts ? Read16(m_l4Offset) : 0;
}

uint16_t
RdmaFrameView::GetDstPort() const
{
    return m_hasPorts ? Read16(m_l4Offset + 2) : 0;
}

bool
RdmaFrameView::IsRoce() const
{
    return m_proto == PROTO_UDP && GetDstPort() == RdmaWire::ROCEV2_UDP_PORT;
}

bool
RdmaFrameView::IsRoceControl() const
{
    const uint32_t opcodeAt = m_l4Offset + 8; // the BTH's first byte, after UDP's 8
    if (!IsRoce() || opcodeAt >= m_len)
    {
        return false;
    }
    const uint8_t op = m_bytes[opcodeAt];
    return op == RC_ACKNOWLEDGE || op == RC_ATOMIC_ACKNOWLEDGE || op == ROCE_CNP ||
           op == RCCC_CREDIT || op == RCCC_REQUEST;
}

uint64_t
RdmaFrameView::Mix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

uint64_t
RdmaFrameView::FlowHash(uint32_t seed) const
{
    uint64_t h = Mix64(seed);
    uint32_t src = m_ipOffset + (m_ipv6 ? 8 : 12);
    uint32_t words = m_ipv6 ? 8 : 2; // source and destination addresses
    for (uint32_t i = 0; i < words; ++i)
    {
        h = Mix64(h ^ Read32(src + 4 * i));
    }
    uint32_t ports = m_hasPorts ? Read32(m_l4Offset) : 0;
    h = Mix64(h ^ (static_cast<uint64_t>(m_proto) << 32 | ports));
    return h;
}

} // namespace ns3
