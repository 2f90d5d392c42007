/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-qp-memory.h"

namespace ns3
{

void
RdmaQpMemory::Initialize(Ptr<RdmaProtectionDomain> pd,
                         std::function<Ptr<RdmaMemoryRegion>(uint32_t)> lookupMr)
{
    m_pd = pd;
    m_lookupMr = lookupMr;
}

void
RdmaQpMemory::SetReadCallback(Callback<void, uint32_t, uint64_t, uint32_t> cb)
{
    m_memoryRead = cb;
}

void
RdmaQpMemory::Dispose()
{
    m_pd = nullptr;
    m_lookupMr = nullptr;
    m_memoryRead = MakeNullCallback<void, uint32_t, uint64_t, uint32_t>();
}

Ptr<RdmaMemoryRegion>
RdmaQpMemory::LookupMr(uint32_t key) const
{
    return m_lookupMr ? m_lookupMr(key) : nullptr;
}

bool
RdmaQpMemory::CheckLocalSgList(const std::vector<RdmaSge>& sgList, bool needLocalWrite) const
{
    for (const RdmaSge& sge : sgList)
    {
        Ptr<RdmaMemoryRegion> mr = LookupMr(sge.lkey);
        if (!mr || mr->GetLkey() != sge.lkey || mr->GetPd() != m_pd ||
            !mr->Contains(sge.addr, sge.length) ||
            (needLocalWrite && !(mr->GetAccess() & IBV_ACCESS_LOCAL_WRITE)))
        {
            return false;
        }
    }
    return true;
}

void
RdmaQpMemory::ForEachSpan(
    const std::vector<RdmaSge>& sgList,
    uint64_t offset,
    uint32_t length,
    const std::function<void(const RdmaSge&, uint64_t, uint32_t, uint32_t)>& fn) const
{
    uint64_t pos = 0;  // message offset of the current SGE
    uint32_t done = 0; // bytes of [offset, offset + length) visited
    for (const RdmaSge& sge : sgList)
    {
        if (done == length)
        {
            break;
        }
        uint64_t end = pos + sge.length;
        if (offset + done < end)
        {
            uint64_t into = offset + done - pos;
            uint32_t n =
                static_cast<uint32_t>(std::min<uint64_t>(length - done, sge.length - into));
            fn(sge, into, done, n);
            done += n;
        }
        pos = end;
    }
}

void
RdmaQpMemory::SpansOf(const std::vector<RdmaSge>& sgList,
                      uint64_t offset,
                      uint32_t length,
                      std::vector<RdmaSge>& out) const
{
    ForEachSpan(sgList,
                offset,
                length,
                [&out](const RdmaSge& sge, uint64_t into, uint32_t, uint32_t n) {
                    out.push_back({sge.addr + into, n, sge.lkey});
                });
}

bool
RdmaQpMemory::InDataMode(const std::vector<RdmaSge>& sgList) const
{
    for (const RdmaSge& sge : sgList)
    {
        Ptr<RdmaMemoryRegion> mr = LookupMr(sge.lkey);
        if (mr && mr->IsDataMode())
        {
            return true;
        }
    }
    return false;
}

RdmaPayload
RdmaQpMemory::Gather(const std::vector<RdmaSge>& sgList,
                     uint64_t offset,
                     uint32_t length,
                     bool& zeros) const
{
    if (!m_memoryRead.IsNull())
    {
        ForEachSpan(sgList,
                    offset,
                    length,
                    [this](const RdmaSge& sge, uint64_t into, uint32_t, uint32_t n) {
                        m_memoryRead(sge.lkey, sge.addr + into, n);
                    });
    }
    const bool data = InDataMode(sgList);
    zeros = !data;
    if (!data)
    {
        return RdmaPayload::Zeros(length);
    }
    std::vector<uint8_t> bytes(length, 0);
    ForEachSpan(sgList,
                offset,
                length,
                [&](const RdmaSge& sge, uint64_t into, uint32_t at, uint32_t n) {
                    LookupMr(sge.lkey)->Read(sge.addr + into, bytes.data() + at, n);
                });
    return Create<Packet>(bytes.data(), length);
}

void
RdmaQpMemory::Scatter(const std::vector<RdmaSge>& sgList,
                      uint64_t offset,
                      const RdmaPayload& payload)
{
    if (payload.IsZeros() && !InDataMode(sgList))
    {
        return; // zeros into memory that keeps no bytes
    }
    uint32_t length = payload.GetSize();
    std::vector<uint8_t> bytes(length);
    payload.CopyData(bytes.data(), length);
    ForEachSpan(sgList,
                offset,
                length,
                [&](const RdmaSge& sge, uint64_t into, uint32_t at, uint32_t n) {
                    Ptr<RdmaMemoryRegion> mr = LookupMr(sge.lkey);
                    if (mr)
                    {
                        mr->Write(sge.addr + into, bytes.data() + at, n);
                    }
                });
}

RdmaPayload
RdmaQpMemory::ReadMemory(Ptr<RdmaMemoryRegion> mr, uint64_t va, uint32_t length, bool& zeros) const
{
    if (!m_memoryRead.IsNull() && length > 0)
    {
        m_memoryRead(mr->GetLkey(), va, length);
    }
    zeros = !mr->IsDataMode();
    if (zeros)
    {
        return RdmaPayload::Zeros(length);
    }
    std::vector<uint8_t> bytes(length);
    mr->Read(va, bytes.data(), length);
    return Create<Packet>(bytes.data(), length);
}

void
RdmaQpMemory::WriteMemory(Ptr<RdmaMemoryRegion> mr, uint64_t va, const RdmaPayload& payload)
{
    if (!mr->IsDataMode())
    {
        return;
    }
    std::vector<uint8_t> bytes(payload.GetSize());
    payload.CopyData(bytes.data(), bytes.size());
    mr->Write(va, bytes.data(), bytes.size());
}

} // namespace ns3
