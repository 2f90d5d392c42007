/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RETH_HEADER_H
#define RETH_HEADER_H

#include "rdma-remote-access-header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RDMA Extended Transport Header (IBA Vol 1 9.3.3), 16 bytes.
 *
 * Carried by RDMA WRITE FIRST/ONLY and RDMA READ REQUEST: the remote virtual
 * address (64 bits), the R_Key that grants access (32 bits) (the
 * RdmaRemoteAccessHeader part) and the DMA
 * length of the whole message in bytes (32 bits), all big-endian.
 */
class RethHeader : public RdmaRemoteAccessHeader
{
  public:
    static constexpr uint32_t SIZE = 16; //!< serialized size, bytes

    RethHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param length DMA length of the message, bytes
    void SetDmaLength(uint32_t length);
    /// \return DMA length, bytes
    uint32_t GetDmaLength() const;

  private:
    uint32_t m_dmaLength; //!< DMA length, bytes
};

} // namespace ns3

#endif // RETH_HEADER_H
