/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MEMORY_CENSUS_H
#define RDMA_MEMORY_CENSUS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Where a run's memory went, measured (rdma-sim --sim.census): the
 * heap each part of the construction took (the workload, the route
 * computation, links with their devices, egress queues, PFC controllers and
 * channels, switches with their MMUs, route tables, hosts with their NICs,
 * the flow runner), per item, and what the traffic added at its peak (frames
 * queued and on the wires, QPs and their congestion-control state), next to
 * the process's own resident set before any of it (the program, ns-3's
 * libraries, the configuration). The traffic's part is the resident set's
 * growth from the end of the construction to its peak.
 *
 * Heap figures are glibc's (mallinfo2: bytes in allocated chunks, their
 * 8-byte headers included, plus mmapped blocks), taken at the boundaries of
 * the parts; the resident set is the kernel's (/proc/self/statm, and
 * getrusage's ru_maxrss for the peak). The parts add up to the peak resident
 * set less the heap's free chunks and the pages the libraries touch later
 * (within 20 % on the fabrics measured in doc/large-fabrics.rst).
 *
 * Where mallinfo2 is missing (not glibc) or does not see the allocator (a
 * build with AddressSanitizer, whose allocator replaces glibc's), every heap
 * figure is 0 and the traffic's part carries the rest.
 */
class RdmaMemoryCensus
{
  public:
    /// One measured part.
    struct Part
    {
        std::string name;  //!< "links", "hosts", ...
        uint64_t bytes{0}; //!< heap taken, bytes (0 if it shrank)
        uint64_t items{0}; //!< what it is made of (0: not counted)
        std::string item;  //!< what one item is ("port", "host", ...)
    };

    /// Starts the census: the resident set so far is the "process" part.
    RdmaMemoryCensus();

    /**
     * \brief Close the open part (if any) and open another: the heap grown
     * from now to the next Enter() or Close() is the new part's.
     * \param name the part
     * \param items how many items it holds (0: not counted)
     * \param item what one item is
     */
    void Enter(const std::string& name, uint64_t items, const std::string& item);
    /**
     * \brief Say what the open part is made of, once it is known.
     * \param items how many items \param item what one item is
     */
    void SetItems(uint64_t items, const std::string& item);
    /// Close the open part (the construction is over).
    void Close();
    /**
     * \brief During the run: whether the resident set grew by 1 MiB since
     * the last Sample() (one read of /proc/self/statm), so the frames queued
     * are counted as the memory climbs to its peak, not all along.
     * \return true if Sample() should be called now
     */
    bool IsGrowing() const;
    /**
     * \brief During the run: note the resident set now; its largest growth
     * over the resident set at Close() is the "traffic at peak" part (the
     * heap is not sampled in the run: glibc's mallinfo2 walks its free lists,
     * up to a few hundred milliseconds a call in a large run).
     * \param framesQueued frames in the egress queues now
     * \param qps queue pairs open now
     */
    void Sample(uint64_t framesQueued, uint64_t qps);

    /// \return the parts measured: process, the construction's, traffic at peak
    std::vector<Part> GetParts() const;
    /// \return the sum of the parts, bytes
    uint64_t GetTotalBytes() const;
    /// \return the frames queued at the traffic's peak
    uint64_t GetPeakFramesQueued() const;
    /// \return the QPs open at the traffic's peak
    uint64_t GetPeakQps() const;

    /// \return the heap in use now, bytes (mallinfo2; 0 where unavailable)
    static uint64_t HeapBytes();
    /// \return the resident set now, bytes (/proc/self/statm; 0 if unreadable)
    static uint64_t ResidentBytes();
    /**
     * \return the process's peak resident set, bytes: VmHWM of
     * /proc/self/status, the high-water mark of this program's own memory.
     * Not getrusage's ru_maxrss, which Linux keeps across execve: a program
     * started by a large process (pytest, a Dask worker) would report its
     * parent's size. Falls back to ru_maxrss where /proc is missing.
     */
    static uint64_t PeakResidentBytes();

    /**
     * \return the census as text, one line a part: "links  44.1 MiB  6144
     * ports x 7.35 KiB", then the total against the peak resident set
     * \param peakRssBytes the process's peak resident set, bytes
     */
    std::vector<std::string> Describe(uint64_t peakRssBytes) const;

  private:
    uint64_t m_process;               //!< resident set at the start, bytes
    std::vector<Part> m_parts;        //!< the construction's parts
    bool m_open{false};               //!< the last part is open
    uint64_t m_openHeap{0};           //!< heap when it opened
    uint64_t m_builtRss{0};           //!< resident set at Close()
    uint64_t m_trafficPeak{0};        //!< largest growth over m_builtRss in the run
    uint64_t m_peakFrames{0};         //!< frames queued at that peak
    uint64_t m_peakQps{0};            //!< QPs open at that peak
    uint64_t m_sampledRss{0};         //!< resident set at the last Sample() or Close()
};

} // namespace ns3

#endif // RDMA_MEMORY_CENSUS_H
