/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-page-size.h"

#include "ns3/abort.h"

namespace ns3
{

std::string
RdmaPageSize::Rule()
{
    return "a power of two of at least 4096 bytes (4 KiB base pages, 2 MiB or 1 GiB huge "
           "pages)";
}

RdmaPageSize::RdmaPageSize()
    : RdmaPageSize(BASE_BYTES)
{
}

RdmaPageSize::RdmaPageSize(uint64_t bytes)
    : m_shift(0)
{
    NS_ABORT_MSG_UNLESS(IsValid(bytes), "RdmaPageSize: " << bytes << " bytes is not " << Rule());
    while ((uint64_t(1) << m_shift) < bytes)
    {
        ++m_shift;
    }
}

uint64_t
RdmaPageSize::Bytes() const
{
    return uint64_t(1) << m_shift;
}

uint64_t
RdmaPageSize::Page(uint64_t va) const
{
    return va >> m_shift;
}

uint64_t
RdmaPageSize::PagesSpanned(uint64_t va, uint64_t length) const
{
    NS_ABORT_MSG_IF(length == 0, "RdmaPageSize::PagesSpanned: zero length");
    return Page(va + length - 1) - Page(va) + 1;
}

} // namespace ns3
