/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-huge-page-heap.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__) &&                                                    \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(MADV_HUGEPAGE)
#define RDMA_HUGE_PAGE_HEAP 1 // Linux's madvise, glibc's mallopt and mallinfo2 (2.33)
#endif
#endif

namespace ns3
{

namespace
{

struct State
{
    bool done{false};
    bool enabled{false};
    std::string reason;
    uint64_t reserved{0};
    void* filler{nullptr}; //!< the block that aligns the heap's top (AlignTop)
};

State&
GetState()
{
    static State state;
    return state;
}

/// The word in brackets of a sysfs choice ("always [madvise] never"), "" if none.
std::string
ChosenWord(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    const auto open = line.find('[');
    const auto close = line.find(']', open);
    if (open == std::string::npos || close == std::string::npos)
    {
        return "";
    }
    return line.substr(open + 1, close - open - 1);
}

/// /proc/meminfo's MemTotal, bytes (0 if unreadable).
uint64_t
MemTotalBytes()
{
    std::ifstream in("/proc/meminfo");
    std::string name;
    uint64_t kib = 0;
    while (in >> name >> kib)
    {
        if (name == "MemTotal:")
        {
            return kib * 1024;
        }
        in.ignore(256, '\n');
    }
    return 0;
}

#ifdef RDMA_HUGE_PAGE_HEAP
constexpr uintptr_t kHuge = 2 << 20; //!< a transparent huge page on x86-64, bytes

/**
 * Make the heap's free top begin at a huge page's boundary. The kernel gives
 * a huge page only to a 2 MiB-aligned range that lies whole in the marked
 * heap, and the first bytes of the top rarely begin one: a run whose heap
 * stays under 2 MiB would otherwise get none. One block (the filler, never
 * freed) takes the top up to the next boundary; it is touched only at its
 * two ends, so it costs no memory past the first page. If the top does not
 * then begin at the boundary (the block came from elsewhere), the block is
 * given back and nothing changes.
 */
void
AlignTop(State& s)
{
    const auto brk = reinterpret_cast<uintptr_t>(::sbrk(0));
    const uintptr_t top = brk - mallinfo2().keepcost; // the main arena's top ends at the break
    const uintptr_t boundary = (top + kHuge - 1) / kHuge * kHuge;
    if (boundary - top < 64 || boundary >= brk)
    {
        return; // at the boundary already (or no room)
    }
    // A chunk of malloc(n) spans n plus its 8-byte size field, rounded up to
    // 16 (glibc's request2size): n = distance - 8 spans the distance exactly.
    s.filler = std::malloc(boundary - top - 8);
    if (brk - mallinfo2().keepcost != boundary)
    {
        std::free(s.filler);
        s.filler = nullptr;
    }
}
#endif

/// Why the heap cannot be put on huge pages here ("" if it can).
std::string
WhyNot()
{
#ifdef RDMA_HUGE_PAGE_HEAP
    const std::string thp = ChosenWord("/sys/kernel/mm/transparent_hugepage/enabled");
    if (thp != "always" && thp != "madvise")
    {
        return "the kernel offers no transparent huge pages on request "
               "(/sys/kernel/mm/transparent_hugepage/enabled: " +
               (thp.empty() ? std::string("unreadable") : thp) + ")";
    }
    std::ifstream overcommit("/proc/sys/vm/overcommit_memory");
    int mode = 0;
    if (overcommit >> mode && mode == 2)
    {
        return "the kernel charges reserved address space as memory (vm.overcommit_memory = 2)";
    }
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    if (tunables && std::strstr(tunables, "glibc.malloc."))
    {
        return "GLIBC_TUNABLES sets glibc's malloc";
    }
    return "";
#else
    return "not Linux with glibc 2.33 or later";
#endif
}

} // namespace

bool
RdmaHugePageHeap::Enable()
{
    State& s = GetState();
    if (s.done)
    {
        return s.enabled;
    }
    s.done = true;
    s.reason = WhyNot();
    if (!s.reason.empty())
    {
        return false;
    }
#ifdef RDMA_HUGE_PAGE_HEAP
    constexpr uint64_t kDefaultTopPad = 128 << 10; // mallopt(3)
    constexpr int kBlock = 64 << 10;               // below the mmap threshold
    // mallopt takes an int: at most 2 GiB less a huge page.
    const uint64_t reserve =
        std::min<uint64_t>(MemTotalBytes() / 2, (uint64_t{1} << 31) - kHuge) / kHuge * kHuge;
    if (reserve < kHuge)
    {
        s.reason = "/proc/meminfo gives no MemTotal";
        return false;
    }
    char* const before = static_cast<char*>(::sbrk(0));
    mallopt(M_TOP_PAD, static_cast<int>(reserve));
    // Use up the free top of the heap so that the next block moves the break
    // by the reservation; then give the blocks back (they join the top).
    std::vector<void*> blocks;
    blocks.reserve(64);
    while (static_cast<char*>(::sbrk(0)) == before && blocks.size() < 64)
    {
        blocks.push_back(std::malloc(kBlock));
    }
    for (void* b : blocks)
    {
        std::free(b);
    }
    char* const after = static_cast<char*>(::sbrk(0));
    if (after < before + reserve / 2)
    {
        mallopt(M_TOP_PAD, static_cast<int>(kDefaultTopPad));
        s.reason = "the heap's break did not move (the program's malloc is not glibc's)";
        return false;
    }
    // The whole heap, from its first byte (the break less what the main
    // arena holds): the free top that the next blocks come from began below
    // `before`.
    const long page = ::sysconf(_SC_PAGESIZE);
    const auto start = (reinterpret_cast<uintptr_t>(after) - mallinfo2().arena) / page * page;
    const auto end = reinterpret_cast<uintptr_t>(after) / page * page;
    if (::madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE) != 0)
    {
        s.reason = std::string("madvise(MADV_HUGEPAGE) failed: ") + std::strerror(errno);
        mallopt(M_TOP_PAD, static_cast<int>(kDefaultTopPad));
        return false;
    }
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    AlignTop(s);
    s.reserved = end - start;
    s.enabled = true;
    return true;
#else
    return false;
#endif
}

const std::string&
RdmaHugePageHeap::GetReason()
{
    return GetState().reason;
}

uint64_t
RdmaHugePageHeap::GetReservedBytes()
{
    return GetState().reserved;
}

} // namespace ns3
