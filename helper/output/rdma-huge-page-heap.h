/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HUGE_PAGE_HEAP_H
#define RDMA_HUGE_PAGE_HEAP_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Put the heap of a simulation process on transparent huge pages
 * (2 MiB on x86-64), where the kernel gives them on request.
 *
 * A packet-level run touches its frames, events and queue-pair state all
 * over a heap of tens of megabytes to gigabytes. With 4 KiB pages every
 * first touch of a page is a page fault (about 11 us each in the virtual
 * machine of doc/trimming.rst's measurements) and every access to a page not in
 * the TLB is a page walk (in a virtual machine, a two-dimensional one). On
 * 2 MiB pages both happen 512 times less often.
 *
 * Enable() asks glibc's malloc to take address space for the heap in one
 * reservation (mallopt M_TOP_PAD: the main arena's break is moved that far
 * ahead of its use; the reservation is address space, resident only where
 * touched), makes it do so at once (a few 64 KiB blocks, freed), and marks
 * the heap, from its first byte to the new break, MADV_HUGEPAGE (madvise(2); Linux's
 * Documentation/admin-guide/mm/transhuge.rst). Blocks up to 32 MiB come
 * from that heap too (M_MMAP_THRESHOLD, glibc's own largest threshold;
 * setting M_TOP_PAD stops glibc moving the threshold by itself). The
 * kernel gives a huge page only to a 2 MiB-aligned range that lies whole in
 * the marked heap, so one block, never freed and touched only at its two
 * ends, takes the heap's free top up to the next 2 MiB boundary: a run whose
 * heap stays under 2 MiB gets one too. The heap then grows into huge pages
 * as it is touched, while there is a free one; the kernel falls back to
 * 4 KiB pages otherwise.
 *
 * Nothing is done (and glibc's malloc keeps its defaults) when:
 *  - the system is not Linux with glibc 2.33 or later (mallinfo2);
 *  - the kernel offers no huge pages on request
 *    (/sys/kernel/mm/transparent_hugepage/enabled is "never", or missing);
 *  - the kernel counts address space strictly (/proc/sys/vm/overcommit_memory
 *    is 2), where a reservation would be charged as memory;
 *  - GLIBC_TUNABLES sets any glibc.malloc tunable (the user's choice stands);
 *  - the program's malloc is not glibc's (AddressSanitizer's, for one): the
 *    break does not move.
 *
 * The heap's reservation is half of the machine's memory (MemTotal). A heap
 * that outgrows it continues on 4 KiB pages.
 *
 * What it changes: speed and the resident set. The peak resident set
 * (summary.json's peak_rss_mb) counts a huge page whole once any byte of it
 * is touched, so it may read up to 2 MiB above the same run's on 4 KiB
 * pages; it never changes a simulated result (the model does not depend on
 * where its objects lie).
 */
class RdmaHugePageHeap
{
  public:
    /**
     * \brief Reserve the heap and mark it for huge pages (once per process;
     * later calls return the first call's answer).
     * \return true if the heap is marked; false if nothing was done (why:
     *         GetReason())
     */
    static bool Enable();

    /// \return "" after a successful Enable(), else why nothing was done
    static const std::string& GetReason();

    /// \return the bytes of address space reserved and marked (0 if none)
    static uint64_t GetReservedBytes();
};

} // namespace ns3

#endif /* RDMA_HUGE_PAGE_HEAP_H */
