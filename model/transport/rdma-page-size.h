/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PAGE_SIZE_H
#define RDMA_PAGE_SIZE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The page size of a memory region's address translation (MTT), and
 * the page arithmetic on it.
 *
 * The rule, the one place it is written: a power of two of at least
 * BASE_BYTES (4 KiB). RDMA NICs translate a region in pages whose size is
 * given as a power of two (mlx5's memory key context holds log2 of the page
 * size; rxe's MR keeps a page shift), and the host backs a region with its
 * base pages (4 KiB on x86-64 and most Arm64 kernels) or huge pages (2 MiB,
 * 1 GiB), all powers of two from 4 KiB up. Smaller pages do not exist on
 * those hosts, and a size that is not a power of two cannot be a shift.
 */
class RdmaPageSize
{
  public:
    /// The base page, bytes: the default page size wherever one is needed.
    static constexpr uint64_t BASE_BYTES = 4096;

    /// \param bytes a page size in bytes
    /// \return whether it follows the rule (a power of two >= BASE_BYTES)
    static constexpr bool IsValid(uint64_t bytes)
    {
        return bytes >= BASE_BYTES && (bytes & (bytes - 1)) == 0;
    }

    /// \return the rule in words, for error messages
    static std::string Rule();

    /// The base page.
    RdmaPageSize();
    /**
     * \param bytes the page size; aborts unless IsValid(bytes) (callers
     *        that read user input check it first and report the input)
     */
    explicit RdmaPageSize(uint64_t bytes);

    /// \return the page size, bytes
    uint64_t Bytes() const;
    /// \param va a virtual address
    /// \return its page number, va / Bytes()
    uint64_t Page(uint64_t va) const;
    /**
     * \param va the first byte's address
     * \param length bytes, > 0 (aborts on 0)
     * \return the pages [va, va + length) touches
     */
    uint64_t PagesSpanned(uint64_t va, uint64_t length) const;

  private:
    uint32_t m_shift; //!< log2 of the page size
};

} // namespace ns3

#endif // RDMA_PAGE_SIZE_H
