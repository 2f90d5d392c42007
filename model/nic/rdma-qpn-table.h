/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QPN_TABLE_H
#define RDMA_QPN_TABLE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Per-QP state of one NIC, found by QP number with one subtraction
 * and one load.
 *
 * A NIC numbers its QPs counting up (RdmaNic::CreateQp, from 0x100): the
 * table is a vector indexed by QPN minus the smallest QPN it has held, so a
 * lookup on the per-packet path costs no hash, no division and no chase
 * through a bucket list, and an entry costs its own bytes and a presence
 * byte (a hash map's node and bucket: about 40 bytes more). Any 24-bit QPN
 * is accepted; a QPN below the base moves the entries up (once per wrap of
 * the 24-bit counter). Entries of destroyed QPs are empty slots until the
 * table is cleared: its size follows the QPs created, not those alive.
 *
 * \tparam T the state kept per QP (default-constructible, movable)
 */
template <typename T>
class RdmaQpnTable
{
  public:
    /**
     * \param qpn a QP number
     * \return its entry, or null if it has none
     */
    T* Find(uint32_t qpn)
    {
        const uint32_t i = qpn - m_base;
        return (qpn >= m_base && i < m_present.size() && m_present[i]) ? &m_slots[i] : nullptr;
    }

    /// \copydoc Find
    const T* Find(uint32_t qpn) const
    {
        return const_cast<RdmaQpnTable*>(this)->Find(qpn);
    }

    /**
     * \param qpn a QP number
     * \return its entry, made (default-constructed) if it had none
     */
    T& operator[](uint32_t qpn)
    {
        if (m_present.empty())
        {
            m_base = qpn;
        }
        else if (qpn < m_base)
        {
            const std::size_t shift = m_base - qpn;
            m_slots.insert(m_slots.begin(), shift, T());
            m_present.insert(m_present.begin(), shift, 0);
            m_base = qpn;
        }
        const std::size_t i = qpn - m_base;
        if (i >= m_present.size())
        {
            m_slots.resize(i + 1);
            m_present.resize(i + 1, 0);
        }
        if (!m_present[i])
        {
            m_present[i] = 1;
            ++m_count;
        }
        return m_slots[i];
    }

    /**
     * \param qpn a QP number
     * \return whether it had an entry (now removed)
     */
    bool Erase(uint32_t qpn)
    {
        T* e = Find(qpn);
        if (!e)
        {
            return false;
        }
        *e = T();
        m_present[qpn - m_base] = 0;
        --m_count;
        return true;
    }

    /// \return the number of entries
    std::size_t Size() const
    {
        return m_count;
    }

    /// \return whether the table holds no entry
    bool Empty() const
    {
        return m_count == 0;
    }

    /// Remove every entry and give the memory back.
    void Clear()
    {
        m_slots = std::vector<T>();
        m_present = std::vector<uint8_t>();
        m_count = 0;
        m_base = 0;
    }

    /**
     * \brief Call f(qpn, entry) for every entry, in QPN order.
     * \param f the function
     */
    template <typename F>
    void ForEach(F f)
    {
        for (std::size_t i = 0; i < m_present.size(); ++i)
        {
            if (m_present[i])
            {
                f(static_cast<uint32_t>(m_base + i), m_slots[i]);
            }
        }
    }

    /// \copydoc ForEach
    template <typename F>
    void ForEach(F f) const
    {
        for (std::size_t i = 0; i < m_present.size(); ++i)
        {
            if (m_present[i])
            {
                f(static_cast<uint32_t>(m_base + i), m_slots[i]);
            }
        }
    }

  private:
    std::vector<T> m_slots;         //!< entries, by QPN - m_base
    std::vector<uint8_t> m_present; //!< 1 where a slot holds an entry
    uint32_t m_base{0};             //!< QPN of slot 0
    std::size_t m_count{0};         //!< entries held
};

} // namespace ns3

#endif // RDMA_QPN_TABLE_H
