/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FIFO_H
#define RDMA_FIFO_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A first-in first-out queue that costs nothing until it is used: a
 * ring over one contiguous array that is allocated at the first push,
 * doubles when full and is never shrunk, so a queue that fills and drains
 * allocates only while it reaches a new high-water mark.
 *
 * Why not std::deque: libstdc++'s deque allocates a 512-byte block and its
 * map when it is constructed, empty; a fabric has eight class FIFOs per port
 * and a FIFO per cable direction, most of them empty or one frame deep
 * (4.6 KiB per port before this, 26 MB on a k=16 fat-tree's 6,144 ports).
 * Why not boost::circular_buffer_space_optimized: it gives memory back as
 * it drains, so a FIFO that goes 0, 1, 0 frames deep allocates per frame.
 *
 * T must be default-constructible and movable; a popped slot is reset to
 * T() so that what it held (a Ptr<Packet>) is released at once.
 *
 * Unlike std::deque, a push that grows the ring moves every item: a
 * reference or pointer to an item is valid only until the next push.
 */
template <typename T>
class RdmaFifo
{
  public:
    /// Iterates from the oldest item to the newest (invalidated by a push or pop).
    template <typename Fifo, typename Item>
    class Iterator
    {
      public:
        /// \param fifo the FIFO \param i position, 0 the oldest
        Iterator(Fifo* fifo, std::size_t i)
            : m_fifo(fifo),
              m_i(i)
        {
        }

        /// \return the item
        Item& operator*() const
        {
            return (*m_fifo)[m_i];
        }

        /// \return the next position
        Iterator& operator++()
        {
            ++m_i;
            return *this;
        }

        /// \param o another position \return whether they differ
        bool operator!=(const Iterator& o) const
        {
            return m_i != o.m_i;
        }

      private:
        Fifo* m_fifo;    //!< the FIFO
        std::size_t m_i; //!< position
    };

    /// \return the oldest item's position
    Iterator<RdmaFifo, T> begin()
    {
        return {this, 0};
    }

    /// \return the position after the newest
    Iterator<RdmaFifo, T> end()
    {
        return {this, m_size};
    }

    /// \return the oldest item's position
    Iterator<const RdmaFifo, const T> begin() const
    {
        return {this, 0};
    }

    /// \return the position after the newest
    Iterator<const RdmaFifo, const T> end() const
    {
        return {this, m_size};
    }

    /// \return whether the FIFO holds nothing
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return the number of items
    std::size_t size() const
    {
        return m_size;
    }

    /// \return the slots allocated (the high-water mark rounded up to a power of two)
    std::size_t capacity() const
    {
        return m_ring.size();
    }

    /// \return the oldest item (the FIFO must not be empty)
    T& front()
    {
        return m_ring[m_head];
    }

    /// \return the oldest item (the FIFO must not be empty)
    const T& front() const
    {
        return m_ring[m_head];
    }

    /// \return the newest item (the FIFO must not be empty)
    const T& back() const
    {
        return (*this)[m_size - 1];
    }

    /// \return the newest item (the FIFO must not be empty)
    T& back()
    {
        return (*this)[m_size - 1];
    }

    /// \param i position, 0 the oldest \return the item (i < size())
    const T& operator[](std::size_t i) const
    {
        return m_ring[(m_head + i) & (m_ring.size() - 1)];
    }

    /// \param i position, 0 the oldest \return the item (i < size())
    T& operator[](std::size_t i)
    {
        return m_ring[(m_head + i) & (m_ring.size() - 1)];
    }

    /// \param item appended after the newest
    void push_back(T&& item)
    {
        if (m_size == m_ring.size())
        {
            Grow();
        }
        m_ring[(m_head + m_size) & (m_ring.size() - 1)] = std::move(item);
        ++m_size;
    }

    /// \param item appended (copied) after the newest
    void push_back(const T& item)
    {
        push_back(T(item));
    }

    /// \param o exchanges its items with this FIFO's
    void swap(RdmaFifo& o)
    {
        m_ring.swap(o.m_ring);
        std::swap(m_head, o.m_head);
        std::swap(m_size, o.m_size);
    }

    /// \brief Remove the oldest item (the FIFO must not be empty).
    void pop_front()
    {
        m_ring[m_head] = T();
        m_head = (m_head + 1) & (m_ring.size() - 1);
        --m_size;
    }

    /// \brief Remove the newest item (the FIFO must not be empty).
    void pop_back()
    {
        back() = T();
        --m_size;
    }

    /// \brief Remove every item (the slots stay allocated).
    void clear()
    {
        while (m_size > 0)
        {
            pop_front();
        }
        m_head = 0;
    }

  private:
    /// Double the ring (4 slots the first time), oldest item first.
    void Grow()
    {
        std::vector<T> bigger(m_ring.empty() ? 4 : 2 * m_ring.size());
        for (std::size_t i = 0; i < m_size; ++i)
        {
            bigger[i] = std::move((*this)[i]);
        }
        m_ring.swap(bigger);
        m_head = 0;
    }

    std::vector<T> m_ring; //!< the slots, a power of two of them (or none)
    uint32_t m_head{0};    //!< slot of the oldest item
    uint32_t m_size{0};    //!< items held
};

} // namespace ns3

#endif // RDMA_FIFO_H
