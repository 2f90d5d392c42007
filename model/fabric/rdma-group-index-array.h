/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_GROUP_INDEX_ARRAY_H
#define RDMA_GROUP_INDEX_ARRAY_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An array of route-group indices stored as narrow as the largest
 * index allows: 1 byte each while every index is below 255, 2 bytes below
 * 65,535, else 4 (widened in place when a larger index is stored; never
 * narrowed).
 *
 * A switch's route table holds one index per destination host; on a fat
 * tree a switch has at most k+1 distinct groups, so a k=32 fabric's 10.5 M
 * routes take 1 byte each instead of 4 (42 MB less), as a switch ASIC's
 * next-hop table keeps a pointer as wide as its group table needs.
 *
 * The all-ones value of the current width reads back as NONE (no route).
 */
class RdmaGroupIndexArray
{
  public:
    /// The index of no group.
    static constexpr uint32_t NONE = 0xFFFFFFFF;

    /// \return the number of entries
    std::size_t size() const
    {
        return m_bytes.size() / m_width;
    }

    /// \return whether there is no entry
    bool empty() const
    {
        return m_bytes.empty();
    }

    /// \param o another array \return whether both hold the same entries at the same width
    bool operator==(const RdmaGroupIndexArray& o) const
    {
        return m_width == o.m_width && m_bytes == o.m_bytes;
    }

    /// \return a hash of the entries (equal arrays hash equal)
    std::size_t Hash() const;

    /// \return bytes per entry: 1, 2 or 4
    uint32_t GetWidth() const
    {
        return m_width;
    }

    /// \param i entry (< size()) \return its index, or NONE
    uint32_t Get(std::size_t i) const
    {
        switch (m_width)
        {
        case 1: {
            const uint8_t v = m_bytes[i];
            return v == 0xFF ? NONE : v;
        }
        case 2: {
            const uint16_t v = Load<uint16_t>(i);
            return v == 0xFFFF ? NONE : v;
        }
        default:
            return Load<uint32_t>(i);
        }
    }

    /**
     * \brief Store an index, widening every entry first if it does not fit.
     * \param i entry (< size())
     * \param index the group index, or NONE
     */
    void Set(std::size_t i, uint32_t index);

    /**
     * \brief Grow or shrink to n entries; new entries are NONE.
     * \param n entries
     */
    void Resize(std::size_t n);

    /**
     * \brief Insert NONE entries before the first.
     * \param n entries to insert
     */
    void PrependNone(std::size_t n);

    /// \brief Remove every entry and give back the memory.
    void Release();

  private:
    /// \return entry i read as a T (the current width) \param i entry
    template <typename T>
    T Load(std::size_t i) const
    {
        T v;
        std::memcpy(&v, &m_bytes[i * sizeof(T)], sizeof(T));
        return v;
    }

    /// Rewrite every entry at a width that holds index. \param index to hold
    void Widen(uint32_t index);

    std::vector<uint8_t> m_bytes; //!< the entries, m_width bytes each, host byte order
    uint32_t m_width{1};          //!< bytes per entry
};

} // namespace ns3

#endif // RDMA_GROUP_INDEX_ARRAY_H
