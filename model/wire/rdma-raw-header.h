/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_RAW_HEADER_H
#define RDMA_RAW_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Bytes already laid out, added to a packet in one step: ns-3's
 * Packet prepends bytes only through a Header. RoceFrame serializes its
 * whole header stack (Ethernet through the last extension header) with
 * ns-3's and the module's header classes into one buffer and adds it with
 * this; RdmaFrameEditor puts edited heads back with it. Serialize-only: it
 * does not own the bytes, which must outlive the AddHeader() call.
 */
class RdmaRawHeader : public Header
{
  public:
    RdmaRawHeader();
    /**
     * \param bytes the bytes (not copied; owned by the caller)
     * \param length how many
     */
    RdmaRawHeader(const uint8_t* bytes, uint32_t length);

    /// \return the TypeId
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /// Not meant to be read back: consumes GetSerializedSize() bytes.
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    const uint8_t* m_bytes; //!< the bytes (owned by the caller)
    uint32_t m_length;      //!< their number
};

} // namespace ns3

#endif // RDMA_RAW_HEADER_H
