/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "icrc-trailer.h"

#include <iomanip>
#include <unordered_map>
#include <vector>
#include <zlib.h>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IcrcTrailer);

namespace
{
constexpr uint32_t IPV4_HEADER = 20;
constexpr uint32_t IPV6_HEADER = 40;
constexpr uint32_t UDP_HEADER = 8;
constexpr uint32_t BTH_SIZE = 12;
} // namespace

TypeId
IcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<IcrcTrailer>();
    return tid;
}

TypeId
IcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IcrcTrailer::Print(std::ostream& os) const
{
    os << "ICRC 0x" << std::hex << std::setw(8) << std::setfill('0') << m_icrc << std::dec
       << std::setfill(' ');
}

uint32_t
IcrcTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
IcrcTrailer::Serialize(Buffer::Iterator start) const
{
    start.Prev(SIZE);
    start.WriteHtolsbU32(m_icrc);
}

uint32_t
IcrcTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SIZE);
    m_icrc = end.ReadLsbtohU32();
    return SIZE;
}

void
IcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
IcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

uint32_t
IcrcTrailer::Compute(L3Type l3, const uint8_t* bytes, uint32_t size, bool* ok)
{
    const uint32_t ipSize = (l3 == IPV4) ? IPV4_HEADER : IPV6_HEADER;
    if (size < ipSize + UDP_HEADER + BTH_SIZE)
    {
        if (ok)
        {
            *ok = false;
        }
        return 0;
    }
    // Only the first ipSize + 8 + 12 bytes have masked fields; mask a copy of
    // those and run the CRC over the rest in place.
    uint8_t head[IPV6_HEADER + UDP_HEADER + BTH_SIZE];
    const uint32_t headSize = ipSize + UDP_HEADER + BTH_SIZE;
    std::copy(bytes, bytes + headSize, head);
    if (l3 == IPV4)
    {
        head[1] = 0xFF;  // TOS (DSCP, ECN)
        head[8] = 0xFF;  // TTL
        head[10] = 0xFF; // header checksum
        head[11] = 0xFF;
    }
    else
    {
        head[0] |= 0x0F; // traffic class (high nibble)
        head[1] = 0xFF;  // traffic class (low nibble), flow label
        head[2] = 0xFF;
        head[3] = 0xFF;
        head[7] = 0xFF; // hop limit
    }
    head[ipSize + 6] = 0xFF; // UDP checksum
    head[ipSize + 7] = 0xFF;
    head[ipSize + UDP_HEADER + 4] = 0xFF; // BTH FECN, BECN, resv6a

    static const uint8_t maskedLrh[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, maskedLrh, sizeof(maskedLrh));
    crc = crc32(crc, head, headSize);
    crc = crc32(crc, bytes + headSize, size - headSize);
    if (ok)
    {
        *ok = true;
    }
    return static_cast<uint32_t>(crc);
}

uint32_t
IcrcTrailer::AppendZeros(uint32_t crc, uint32_t n)
{
    if (n == 0)
    {
        return crc;
    }
    // Per length: the CRC of n zeros and zlib's combine operator for n bytes.
    struct Zeros
    {
        uLong crc;
        uLong op;
    };
    static std::unordered_map<uint32_t, Zeros> cache;
    auto it = cache.find(n);
    if (it == cache.end())
    {
        static const uint8_t zeros[4096] = {};
        uLong z = crc32(0L, Z_NULL, 0);
        for (uint32_t left = n; left > 0;)
        {
            const uint32_t chunk = left < sizeof(zeros) ? left : uint32_t{sizeof(zeros)};
            z = crc32(z, zeros, chunk);
            left -= chunk;
        }
        it = cache.emplace(n, Zeros{z, crc32_combine_gen(n)}).first;
    }
    return static_cast<uint32_t>(crc32_combine_op(crc, it->second.crc, it->second.op));
}

uint32_t
IcrcTrailer::Append(uint32_t crc, const uint8_t* bytes, uint32_t n)
{
    if (n == 0)
    {
        return crc; // zlib's crc32 returns 0 for a null buffer, as an empty vector's may be
    }
    return static_cast<uint32_t>(crc32(crc, bytes, n));
}

} // namespace ns3
