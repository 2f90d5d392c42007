/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PAYLOAD_H
#define RDMA_PAYLOAD_H

#include "ns3/packet.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A RoCEv2 packet's payload, without its pad (IBA 9.2): none, a run
 * of zero bytes known by its length alone, or real bytes as an ns-3 Packet.
 *
 * A buffer nobody wrote (a memory region not in data mode: every fabric
 * study's) is the run of zeros, so a data frame costs no Packet at the QP
 * that gathers it (RdmaQpMemory::Gather, ReadMemory) nor at the NIC that
 * parses it (a compact RdmaFrame's payload); a Packet of its zeros is made
 * only where one is read (ToPacket). Real bytes (data mode, frames from
 * tests) stay the Packet they are.
 *
 * It reads as the `Ptr<Packet>` it replaces in RoceFrame: true when there
 * is a payload, `->GetSize()` its length in bytes.
 */
class RdmaPayload
{
  public:
    /// No payload.
    RdmaPayload() = default;

    /// No payload (as a null Ptr<Packet>).
    RdmaPayload(std::nullptr_t)
    {
    }

    /**
     * \brief Real bytes.
     * \param bytes the payload (not copied); null: no payload
     */
    RdmaPayload(Ptr<Packet> bytes)
        : m_bytes(bytes)
    {
    }

    /**
     * \brief A run of zero bytes, without a Packet.
     * \param length its length, bytes
     * \return the payload
     */
    static RdmaPayload Zeros(uint32_t length);

    /// \return the payload's length, bytes (0 for none)
    uint32_t GetSize() const
    {
        return m_bytes ? m_bytes->GetSize() : m_zeros;
    }

    /// \return true for a run of zeros held as its length (no Packet)
    bool IsZeros() const
    {
        return !m_bytes && m_zeros > 0;
    }

    /// \return the real bytes' Packet; null for none or a run of zeros
    Ptr<Packet> GetPacket() const
    {
        return m_bytes;
    }

    /**
     * \brief The payload as a Packet, for what reads one.
     * \return the real bytes' Packet, a new Packet of the zeros (ns-3 keeps
     *         them virtual), or null for none
     */
    Ptr<Packet> ToPacket() const;

    /**
     * \brief Copy the payload's bytes, as Packet::CopyData does.
     * \param buffer where to copy
     * \param size at most this many
     * \return how many were copied: min(size, GetSize())
     */
    uint32_t CopyData(uint8_t* buffer, uint32_t size) const;

    /// \return true when there is a payload (a Packet, or a run of zeros)
    explicit operator bool() const
    {
        return m_bytes || m_zeros > 0;
    }

    /// \return this payload: `payload->GetSize()` reads as with a Ptr<Packet>
    const RdmaPayload* operator->() const
    {
        return this;
    }

  private:
    Ptr<Packet> m_bytes; //!< real bytes; null for none or zeros
    uint32_t m_zeros{0}; //!< without m_bytes: the run of zeros, bytes
};

} // namespace ns3

#endif // RDMA_PAYLOAD_H
