/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_BUILD_PROGRESS_H
#define RDMA_BUILD_PROGRESS_H

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The progress line of a large fabric's construction
 * (RdmaTopologyHelper::SetBuildProgress): "[rdma-sim] building: 4096 of
 * 8192 hosts", rewritten in place (carriage return) when a part starts and
 * at most once a second within it, ended with a newline by Finish(), on the
 * stream the run's progress line uses (RdmaProgress).
 */
class RdmaBuildProgress
{
  public:
    /// \param os where to print (nullptr: never print)
    explicit RdmaBuildProgress(std::ostream* os);
    /// Finish()es the line.
    ~RdmaBuildProgress();
    RdmaBuildProgress(const RdmaBuildProgress&) = delete;
    RdmaBuildProgress& operator=(const RdmaBuildProgress&) = delete;

    /**
     * \brief Report a part's progress.
     * \param what the part ("links", "hosts", ...)
     * \param done items made
     * \param total items of the part
     */
    void Report(const std::string& what, uint64_t done, uint64_t total);

    /// \brief End the line (a newline if one was printed).
    void Finish();

  private:
    using Clock = std::chrono::steady_clock; //!< wall clock
    std::ostream* m_os;                      //!< the stream, or nullptr
    Clock::time_point m_start;               //!< construction began
    Clock::time_point m_lastPrint;           //!< the last line
    bool m_printed{false};                   //!< a line is on screen
};

} // namespace ns3

#endif // RDMA_BUILD_PROGRESS_H
