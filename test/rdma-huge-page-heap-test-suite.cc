/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RdmaHugePageHeap: where the kernel gives transparent huge pages
 * on request and malloc is glibc's, the heap's break moves ahead by the
 * reservation and the kernel holds that range marked for huge pages
 * (VmFlags "hg" in /proc/self/smaps, madvise(2)); blocks then come from it;
 * elsewhere nothing is done and the reason says why.
 */

#include "ns3/rdma-huge-page-heap.h"
#include "ns3/test.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <malloc.h>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace ns3;

namespace
{

/// The VmFlags of the mapping that holds addr in /proc/self/smaps ("" if none).
std::string
VmFlagsAt(uintptr_t addr)
{
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line))
    {
        uintptr_t lo = 0;
        uintptr_t hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> lo >> dash >> hi && dash == '-')
        {
            inside = lo <= addr && addr < hi;
        }
        else if (inside && line.rfind("VmFlags:", 0) == 0)
        {
            return line.substr(8);
        }
    }
    return "";
}

/// Marked where it can be; a reason where it cannot.
class HugePageHeapTestCase : public TestCase
{
  public:
    HugePageHeapTestCase()
        : TestCase("the heap is reserved ahead and marked for huge pages (VmFlags hg), or a "
                   "reason is given")
    {
    }

  private:
    void DoRun() override
    {
        const bool enabled = RdmaHugePageHeap::Enable();
        NS_TEST_EXPECT_MSG_EQ(RdmaHugePageHeap::Enable(), enabled, "once per process");
        if (!enabled)
        {
            // AddressSanitizer's malloc, a kernel without THP on request, ...
            NS_TEST_EXPECT_MSG_EQ(RdmaHugePageHeap::GetReason().empty(), false, "says why");
            NS_TEST_EXPECT_MSG_EQ(RdmaHugePageHeap::GetReservedBytes(), 0, "nothing reserved");
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaHugePageHeap::GetReason(), "", "no reason");
        const uint64_t reserved = RdmaHugePageHeap::GetReservedBytes();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(reserved, uint64_t{2} << 20, "at least one huge page");
        NS_TEST_EXPECT_MSG_EQ(reserved % 4096, 0, "whole pages");
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
        // The free top begins at a huge page's boundary (glibc's main arena
        // ends its top at the break): even a heap under 2 MiB gets one.
        const auto top = reinterpret_cast<uintptr_t>(::sbrk(0)) - mallinfo2().keepcost;
        NS_TEST_EXPECT_MSG_EQ(top % (2 << 20), 0, "the top at a 2 MiB boundary");
#endif
        // A block taken now lies in the reservation, which the kernel holds
        // marked MADV_HUGEPAGE ("hg"), and the break stays ahead of it.
        void* block = std::malloc(1 << 20);
        const auto at = reinterpret_cast<uintptr_t>(block);
        const std::string flags = VmFlagsAt(at);
        NS_TEST_EXPECT_MSG_NE(flags.find(" hg"), std::string::npos, "VmFlags:" << flags);
        const auto brk = reinterpret_cast<uintptr_t>(::sbrk(0));
        NS_TEST_EXPECT_MSG_GT(brk, at + (1 << 20), "from the heap, below the break");
        std::free(block);
    }
};

/// The suite.
class RdmaHugePageHeapTestSuite : public TestSuite
{
  public:
    RdmaHugePageHeapTestSuite()
        : TestSuite("rdma-huge-page-heap", UNIT)
    {
        AddTestCase(new HugePageHeapTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
RdmaHugePageHeapTestSuite g_rdmaHugePageHeapTestSuite;

} // namespace
