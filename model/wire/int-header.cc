/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "int-header.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IntHeader);

namespace
{
/// Line rates of the 3-bit rate code, Gb/s (0-4 as the HPCC simulator).
constexpr uint64_t g_rateGbps[8] = {25, 50, 100, 200, 400, 10, 40, 800};
constexpr uint64_t QLEN_MAX = (1ULL << 17) - 1; //!< largest queue-length field
} // namespace

uint64_t
IntHeader::Hop::GetTxBytes() const
{
    return static_cast<uint64_t>(txUnits) * TX_BYTES_UNIT;
}

uint64_t
IntHeader::Hop::GetQlenBytes() const
{
    return static_cast<uint64_t>(qlenUnits) * QLEN_UNIT;
}

TypeId
IntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IntHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<IntHeader>();
    return tid;
}

TypeId
IntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IntHeader::IntHeader()
    : m_nhop(0),
      m_hops{}
{
}

void
IntHeader::Print(std::ostream& os) const
{
    os << "INT nhop=" << m_nhop;
    for (uint32_t i = 0; i < std::min<uint32_t>(m_nhop, MAX_HOPS); ++i)
    {
        Hop h = GetHop(i);
        os << " [" << h.rate.GetBitRate() / 1000000000 << "G ts=" << h.timeNs
           << " tx=" << h.GetTxBytes() << " q=" << h.GetQlenBytes() << "]";
    }
}

uint32_t
IntHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IntHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_nhop);
    for (uint64_t w : m_hops)
    {
        start.WriteHtonU64(w);
    }
}

uint32_t
IntHeader::Deserialize(Buffer::Iterator start)
{
    m_nhop = start.ReadNtohU16();
    for (uint64_t& w : m_hops)
    {
        w = start.ReadNtohU64();
    }
    return SIZE;
}

bool
IntHeader::HasRateCode(DataRate rate)
{
    for (uint64_t gbps : g_rateGbps)
    {
        if (rate.GetBitRate() == gbps * 1000000000ULL)
        {
            return true;
        }
    }
    return false;
}

uint64_t
IntHeader::EncodeHop(DataRate rate, Time now, uint64_t txBytes, uint64_t qlenBytes)
{
    uint64_t code = 8;
    for (uint64_t c = 0; c < 8; ++c)
    {
        if (rate.GetBitRate() == g_rateGbps[c] * 1000000000ULL)
        {
            code = c;
        }
    }
    NS_ABORT_MSG_IF(code == 8,
                    "IntHeader: line rate " << rate
                                            << " has no INT rate code (10, 25, 40, 50, 100, "
                                               "200, 400 or 800 Gb/s)");
    uint64_t ts = static_cast<uint64_t>(now.GetNanoSeconds()) % TIME_MODULO;
    uint64_t tx = (txBytes / TX_BYTES_UNIT) % BYTES_MODULO;
    uint64_t q = std::min<uint64_t>(qlenBytes / QLEN_UNIT, QLEN_MAX);
    return code << 61 | ts << 37 | tx << 17 | q;
}

IntHeader::Hop
IntHeader::DecodeHop(uint64_t word)
{
    Hop h;
    h.rate = DataRate(g_rateGbps[word >> 61] * 1000000000ULL);
    h.timeNs = static_cast<uint32_t>((word >> 37) & (TIME_MODULO - 1));
    h.txUnits = static_cast<uint32_t>((word >> 17) & (BYTES_MODULO - 1));
    h.qlenUnits = static_cast<uint32_t>(word & QLEN_MAX);
    return h;
}

void
IntHeader::PushHop(DataRate rate, Time now, uint64_t txBytes, uint64_t qlenBytes)
{
    m_hops[m_nhop % MAX_HOPS] = EncodeHop(rate, now, txBytes, qlenBytes);
    ++m_nhop;
}

uint16_t
IntHeader::GetNHops() const
{
    return m_nhop;
}

IntHeader::Hop
IntHeader::GetHop(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= MAX_HOPS, "IntHeader: slot " << i << " out of 0-" << MAX_HOPS - 1);
    Hop h = DecodeHop(m_hops[i]);
    h.egressId = m_egress[i];
    return h;
}

const IntHeader::EgressIds&
IntHeader::GetEgressIds() const
{
    return m_egress;
}

void
IntHeader::SetEgressIds(const EgressIds& ids)
{
    m_egress = ids;
}

uint32_t
IntHeader::PushHopBytes(uint8_t* bytes, uint64_t word)
{
    uint16_t nhop = static_cast<uint16_t>(bytes[0] << 8 | bytes[1]);
    const uint32_t slot = nhop % MAX_HOPS;
    uint8_t* rec = bytes + 2 + HOP_BYTES * slot;
    for (uint32_t b = 0; b < HOP_BYTES; ++b)
    {
        rec[b] = static_cast<uint8_t>(word >> (56 - 8 * b));
    }
    ++nhop;
    bytes[0] = static_cast<uint8_t>(nhop >> 8);
    bytes[1] = static_cast<uint8_t>(nhop);
    return slot;
}

uint32_t
IntHeader::TimeDelta(uint32_t later, uint32_t earlier)
{
    return static_cast<uint32_t>((later - earlier) & (TIME_MODULO - 1));
}

uint64_t
IntHeader::BytesDelta(uint32_t later, uint32_t earlier)
{
    return static_cast<uint64_t>((later - earlier) & (BYTES_MODULO - 1)) * TX_BYTES_UNIT;
}

} // namespace ns3
