/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_COLLECTIVE_STEADY_H
#define RDMA_COLLECTIVE_STEADY_H

#include "ns3/nstime.h"
#include "ns3/rdma-collective-schedule.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One simulated collective watched for a steady state, and its
 * remainder computed instead of simulated once it is steady (Wormhole's
 * fast-forwarding through steady states: Long et al., NSDI'26).
 *
 * Only a collective in which every rank receives from one rank at most (a
 * ring: all-reduce, all-gather, reduce-scatter; any channels) is watched:
 * each rank's receives then form one stream, which the model of its
 * remainder needs. A rank is steady when its last Window landings came at
 * one rate: every interval's bytes per second within Tolerance of the
 * window's mean, no two landings at one time. When every rank that still
 * has Window receives to come is steady (and every rank has entered), the
 * runner stops posting this collective's WRITEs and lets those in flight
 * land and complete (the drain); then each rank's remaining receives land
 * one after another at its steady rate from its last landing, each
 * remaining WRITE completes at its sender an ACK delay (the last one
 * measured) after it lands, and a rank is done with its last of either.
 * What this leaves out: anything that would have changed the rates after
 * the switch (the fabric is the job's alone, so only the collective's own
 * end), and the pipeline's drain at its very end.
 */
class RdmaSteadyCollective
{
  public:
    /// What the remainder comes to.
    struct Plan
    {
        std::vector<Time> done; //!< per rank still inside: when it is done (else zero)
        uint32_t lastOp{0};     //!< the WRITE that lands last
        Time lastLanded;        //!< when
        uint64_t bytes{0};      //!< payload bytes of the WRITEs not simulated
    };

    /**
     * \param c the schedule (it must outlive this object)
     * \param window landings per rank that must share one rate (>= 2)
     * \param tolerance their rates' largest relative difference from the mean
     */
    RdmaSteadyCollective(const RdmaCollectiveSchedule& c, uint32_t window, double tolerance);

    /// \return whether a schedule can be watched: every rank receives from one rank at most
    /// \param c the schedule
    static bool IsStream(const RdmaCollectiveSchedule& c);

    /// A rank entered the collective. \return whether every rank has
    bool Entered();
    /// A WRITE was posted. \param op its index
    void Posted(uint32_t op);
    /// A WRITE landed (and was reduced) at its receiver. \param op its index \param at when
    void Landed(uint32_t op, Time at);
    /// A WRITE completed at its sender. \param op its index \param at when
    void Completed(uint32_t op, Time at);
    /// \return whether every rank with receives to come is steady (and all entered)
    bool IsSteady() const;
    /// \return WRITEs posted and not yet both landed and completed
    uint64_t GetInFlight() const;
    /**
     * \brief The remainder, from the landings so far (call once nothing is in flight).
     * \param now the time
     * \param inside per rank: whether it is still inside the collective
     * \return the plan
     */
    Plan Extrapolate(Time now, const std::vector<bool>& inside) const;

  private:
    /// A rank's receive stream.
    struct Stream
    {
        std::vector<Time> at;           //!< its last landings (a ring of window + 1)
        std::vector<uint64_t> bytes;    //!< their bytes
        uint32_t count{0};              //!< landings so far
        uint32_t total{0};              //!< receives in all
        bool steady{false};             //!< the last window at one rate
    };

    /// Recompute a rank's steady flag. \param r the rank
    void Update(uint32_t r);

    const RdmaCollectiveSchedule& m_c; //!< the schedule
    uint32_t m_window;                 //!< landings per window
    double m_tolerance;                //!< rate tolerance
    std::vector<Stream> m_streams;     //!< by rank
    std::vector<uint8_t> m_state;      //!< per op: bit 0 posted, 1 landed, 2 completed
    std::vector<Time> m_landedAt;      //!< per op: when it landed
    uint32_t m_entered{0};             //!< ranks entered
    uint32_t m_ready{0};               //!< ranks steady or with fewer than a window to come
    uint64_t m_inFlight{0};            //!< posted, not landed and completed
    Time m_ackDelay;                   //!< the last completion's delay after its landing
};

} // namespace ns3

#endif // RDMA_COLLECTIVE_STEADY_H
