/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FAST_FORWARD_CHECK_H
#define RDMA_FAST_FORWARD_CHECK_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What sim.fastForward = check found: a fast-forwarded run's
 * results against the same case simulated packet by packet.
 */
struct RdmaFastForwardCheck
{
    uint64_t compared{0}; //!< rows compared (collectives, iterations, flows)
    uint64_t differ{0};   //!< rows whose time differs
    /// The largest relative error of a collective's CCT, an iteration's
    /// time and a flow's FCT: |fast - packet| / packet (0 if none differ)
    double collectiveError{0};
    double iterationError{0}; //!< see collectiveError
    double flowError{0};      //!< see collectiveError
    /// The largest relative error of summary.json's counters (link
    /// transmissions, data packets, PFC frames, drops, retransmissions, ECN
    /// marks, each tier's bytes), where the packet-level run counted some
    double counterError{0};
    std::string worst; //!< the row of the largest error ("collective job 0 iteration 0 item 7")

    /// \return one line for the terminal: rows compared, the largest errors, the worst row
    std::string Describe() const;
};

/**
 * \ingroup rdma
 * \brief Compare two runs' collectives.csv (cct_ns), jobs.csv (time_ns) and
 * fct.csv (fct_ns) row by row, matched by their keys (job, iteration,
 * item; job, iteration; flow id), and their summary.json counters (where
 * both runs wrote one), and write fastDir/fast-forward-check.csv:
 * what (collective, iteration, flow, counter), job, iteration, item (a
 * flow's id, a counter's name), fast, packet (ns; a counter's count),
 * error (fast / packet - 1), status (same, differs, or only in one run).
 * \param fastDir the fast-forwarded run's output folder
 * \param packetDir the packet-level run's output folder
 * \return what it found
 * \throws std::runtime_error naming the file if one cannot be read or lacks a column
 */
RdmaFastForwardCheck RdmaCompareFastForward(const std::string& fastDir,
                                            const std::string& packetDir);

} // namespace ns3

#endif // RDMA_FAST_FORWARD_CHECK_H
