/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_BYTE_SIZE_H
#define RDMA_BYTE_SIZE_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Read an amount of memory: a number and an optional unit, either
 * decimal (B, kB, KB, MB, GB, TB: powers of 1000) or binary (KiB, MiB,
 * GiB, TiB: powers of 1024, IEC 80000-13), no blank between them; "8GiB",
 * "500MB", "1.5GiB", "1073741824" (bytes).
 * \param text the text
 * \param bytes the amount, rounded down to the byte (set only on success)
 * \return false if the text is not a size or is 2^64 bytes or more
 */
bool RdmaParseByteSize(const std::string& text, uint64_t* bytes);

/**
 * \ingroup rdma
 * \brief An amount of memory for people: the largest binary unit (B, KiB,
 * MiB, GiB, TiB) it holds at least once, two decimals ("1.50 GiB", "512 B").
 * \param bytes the amount
 * \return the text
 */
std::string RdmaFormatByteSize(uint64_t bytes);

/**
 * \ingroup rdma
 * \brief An attribute value holding a size as RdmaParseByteSize reads it,
 * or a word standing for a size known only at run time (sim.maxMemory's
 * "available").
 */
class RdmaByteSizeValue : public AttributeValue
{
  public:
    RdmaByteSizeValue() = default;
    /// \param text the value as typed
    explicit RdmaByteSizeValue(const std::string& text);

    Ptr<AttributeValue> Copy() const override;
    std::string SerializeToString(Ptr<const AttributeChecker> checker) const override;
    /// \return false unless the text is a size or the checker's word
    bool DeserializeFromString(std::string value, Ptr<const AttributeChecker> checker) override;

    /// \return the text as given
    const std::string& GetText() const;

  private:
    std::string m_text; //!< as given
};

/**
 * \ingroup rdma
 * \brief A checker for RdmaByteSizeValue: a size of at least `min` bytes,
 * or `word` (none if empty). Its GetUnderlyingTypeInformation() is the
 * whole expected form, as RdmaCheckValue reports it.
 * \param min the smallest size accepted, bytes
 * \param word a non-numeric value also accepted ("" for none)
 * \return the checker
 */
Ptr<const AttributeChecker> RdmaMakeByteSizeChecker(uint64_t min, const std::string& word);

} // namespace ns3

#endif // RDMA_BYTE_SIZE_H
