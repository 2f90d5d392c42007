/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_WORD_HEADER_H
#define RDMA_WORD_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Serialization shared by the 4-byte extension headers that carry one
 * big-endian 32-bit word (ImmDt, IETH). Subclasses name the word and give
 * the TypeId and Print.
 */
class RdmaWordHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 4; //!< serialized size, bytes

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  protected:
    uint32_t m_word{0}; //!< the header's 32-bit field
};

/**
 * \ingroup rdma
 * \brief Immediate Data extension header (IBA Vol 1 9.3.4), 4 bytes: opaque
 * data delivered in the receiver's work completion (SEND/WRITE with immediate).
 */
class ImmDtHeader : public RdmaWordHeader
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;

    /// \param imm immediate data, as on the wire (network order value)
    void SetImmediateData(uint32_t imm);
    /// \return immediate data
    uint32_t GetImmediateData() const;
};

/**
 * \ingroup rdma
 * \brief Invalidate Extended Transport Header (IBA Vol 1 9.3.7 / IETH),
 * 4 bytes: the R_Key a SEND with invalidate asks the responder to invalidate.
 */
class IethHeader : public RdmaWordHeader
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;

    /// \param rkey the R_Key to invalidate
    void SetRkey(uint32_t rkey);
    /// \return the R_Key to invalidate
    uint32_t GetRkey() const;
};

} // namespace ns3

#endif // RDMA_WORD_HEADER_H
