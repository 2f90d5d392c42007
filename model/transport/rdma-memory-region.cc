/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-memory-region.h"

#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaMemoryRegion);

TypeId
RdmaMemoryRegion::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaMemoryRegion").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaMemoryRegion::RdmaMemoryRegion()
    : m_addr(0),
      m_length(0),
      m_access(0),
      m_key(0),
      m_invalidated(false)
{
}

RdmaMemoryRegion::RdmaMemoryRegion(Ptr<RdmaProtectionDomain> pd,
                                   uint64_t addr,
                                   uint64_t length,
                                   uint32_t access,
                                   uint32_t key,
                                   bool dataMode)
    : m_pd(pd),
      m_addr(addr),
      m_length(length),
      m_access(access),
      m_key(key),
      m_invalidated(false)
{
    if (dataMode)
    {
        m_bytes.assign(length, 0);
    }
}

Ptr<RdmaProtectionDomain>
RdmaMemoryRegion::GetPd() const
{
    return m_pd;
}

uint64_t
RdmaMemoryRegion::GetAddr() const
{
    return m_addr;
}

uint64_t
RdmaMemoryRegion::GetLength() const
{
    return m_length;
}

uint32_t
RdmaMemoryRegion::GetAccess() const
{
    return m_access;
}

uint32_t
RdmaMemoryRegion::GetLkey() const
{
    return m_key;
}

uint32_t
RdmaMemoryRegion::GetRkey() const
{
    return m_key;
}

bool
RdmaMemoryRegion::IsDataMode() const
{
    return !m_bytes.empty();
}

bool
RdmaMemoryRegion::IsInvalidated() const
{
    return m_invalidated;
}

void
RdmaMemoryRegion::Invalidate()
{
    m_invalidated = true;
}

bool
RdmaMemoryRegion::Contains(uint64_t va, uint64_t length) const
{
    // Written to avoid overflow of va + length.
    return va >= m_addr && length <= m_length && va - m_addr <= m_length - length;
}

void
RdmaMemoryRegion::Read(uint64_t va, uint8_t* out, uint64_t length) const
{
    if (!m_bytes.empty() && length > 0 && Contains(va, length))
    {
        std::memcpy(out, m_bytes.data() + (va - m_addr), length);
    }
}

void
RdmaMemoryRegion::Write(uint64_t va, const uint8_t* in, uint64_t length)
{
    if (!m_bytes.empty() && length > 0 && Contains(va, length))
    {
        std::memcpy(m_bytes.data() + (va - m_addr), in, length);
    }
}

uint64_t
RdmaMemoryRegion::ReadU64(uint64_t va) const
{
    uint64_t v = 0;
    Read(va, reinterpret_cast<uint8_t*>(&v), sizeof(v));
    return v;
}

void
RdmaMemoryRegion::WriteU64(uint64_t va, uint64_t value)
{
    Write(va, reinterpret_cast<const uint8_t*>(&value), sizeof(value));
}

} // namespace ns3
