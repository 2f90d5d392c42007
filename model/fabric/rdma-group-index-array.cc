/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-group-index-array.h"

namespace ns3
{

namespace
{
/// \return the bytes an entry needs to hold index (NONE fits any width)
uint32_t
WidthFor(uint32_t index)
{
    return index == RdmaGroupIndexArray::NONE ? 1 : index < 0xFF ? 1 : index < 0xFFFF ? 2 : 4;
}
} // namespace

void
RdmaGroupIndexArray::Set(std::size_t i, uint32_t index)
{
    if (WidthFor(index) > m_width)
    {
        Widen(index);
    }
    switch (m_width)
    {
    case 1:
        m_bytes[i] = static_cast<uint8_t>(index);
        break;
    case 2: {
        const auto v = static_cast<uint16_t>(index);
        std::memcpy(&m_bytes[i * 2], &v, 2);
        break;
    }
    default:
        std::memcpy(&m_bytes[i * 4], &index, 4);
        break;
    }
}

void
RdmaGroupIndexArray::Widen(uint32_t index)
{
    const std::size_t n = size();
    RdmaGroupIndexArray wider;
    wider.m_width = WidthFor(index);
    wider.m_bytes.assign(n * wider.m_width, 0xFF);
    for (std::size_t i = 0; i < n; ++i)
    {
        wider.Set(i, Get(i));
    }
    *this = std::move(wider);
}

void
RdmaGroupIndexArray::Resize(std::size_t n)
{
    m_bytes.resize(n * m_width, 0xFF);
}

void
RdmaGroupIndexArray::PrependNone(std::size_t n)
{
    m_bytes.insert(m_bytes.begin(), n * m_width, 0xFF);
}

void
RdmaGroupIndexArray::Release()
{
    std::vector<uint8_t>().swap(m_bytes);
    m_width = 1;
}

std::size_t
RdmaGroupIndexArray::Hash() const
{
    // FNV-1a over the entries' bytes.
    uint64_t h = 1469598103934665603ULL ^ m_width;
    for (uint8_t b : m_bytes)
    {
        h = (h ^ b) * 1099511628211ULL;
    }
    return static_cast<std::size_t>(h);
}

} // namespace ns3
