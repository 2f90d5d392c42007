/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MPI_H
#define RDMA_MPI_H

#include "ns3/callback.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The process side of a distributed run (doc/mpi.rst): MPI's start
 * and end, ns-3's parallel simulator, and the one collective the outputs
 * need. With ns-3's mpi module (NS3_MPI, `make mpi`) these call MPI; in
 * other builds there is one process: Init() does nothing and the rest are
 * never reached (RdmaExperimentSpec refuses sim.ranks > 1 first).
 */
class RdmaMpi
{
  public:
    /**
     * \brief Start MPI if the process was started by an MPI launcher (its
     * environment names a world size: OMPI_COMM_WORLD_SIZE, PMI_SIZE or
     * PMIX_RANK), and record rank and size (RdmaPartition::SetWorld).
     * Call once, first thing in main; Finalize() before returning.
     * \param argc main's argc
     * \param argv main's argv
     * \return true if MPI was started
     */
    static bool Init(int* argc, char*** argv);
    /// End MPI if Init() started it (every rank must call it).
    static void Finalize();
    /// \return this process's rank (0 without MPI)
    static uint32_t GetRank();
    /// \return the number of ranks (1 without MPI)
    static uint32_t GetSize();
    /**
     * \brief Make ns-3 simulate in parallel, before anything uses the
     * simulator: MpiInterface::Enable on MPI_COMM_WORLD for granted-time
     * or null-message, and SimulatorImplementationType =
     * ns3::RdmaDistributedSimulatorImpl (granted-time windows, frames
     * between ranks one message per window and rank: RdmaWindowMpiInterface,
     * enabled here), or ns-3's with RdmaEventScheduler's IsExpired() and
     * one message per frame: ns3::RdmaPerFrameSimulatorImpl (ns-3's
     * granted-time windows) or ns3::RdmaNullMessageSimulatorImpl.
     * \param sync "granted-time", "granted-time-per-frame" or "null-message"
     */
    static void EnableSimulator(const std::string& sync);
    /// Undo EnableSimulator (MpiInterface::Disable), after Simulator::Destroy.
    static void DisableSimulator();
    /// \return whether EnableSimulator is in effect
    static bool IsSimulatorEnabled();

    /// What this rank's granted-time windows sent (RdmaWindowMpiInterface).
    struct WindowCounters
    {
        uint64_t windows{0};      //!< windows ended (exchanges)
        uint64_t messagesSent{0}; //!< MPI messages of frames sent
        uint64_t framesSent{0};   //!< frames in them
        uint64_t noticesSent{0};  //!< notices in them (SendNotice)
        uint64_t bytesSent{0};    //!< bytes in them
    };

    /// \return this rank's window counters (all 0 with null messages or
    /// without MPI)
    static WindowCounters GetWindowCounters();
    /**
     * \return whether SendNotice carries notices to other ranks: with
     * granted-time windows' batches (RdmaWindowMpiInterface); not with
     * null messages or ns-3's per-frame messages, nor without MPI
     */
    static bool CanSendNotices();
    /**
     * \brief Have another rank run its notice handler (SetNoticeHandler) in
     * a node's context at a later time, the event ordered by a key taken
     * now in the running event's origin (RdmaEventScheduler::TakeKey), as a
     * frame's arrival is. Rides in this window's batch for that rank.
     * \param at when (past this window's end: at least the lookahead and
     * one time step after now)
     * \param node the node (on another rank)
     * \param rank its rank
     * \param argument the handler's argument
     */
    static void SendNotice(Time at, uint32_t node, uint32_t rank, uint32_t argument);
    /**
     * \brief What this rank does with the notices other ranks send it: the
     * handler runs at each notice's time, in its node's context.
     * \param handler called with the notice's argument
     */
    static void SetNoticeHandler(Callback<void, uint32_t> handler);

    /**
     * \brief Gather one string from every rank at rank 0 (MPI_Gatherv).
     * \param part this rank's
     * \return at rank 0 every rank's, by rank; elsewhere empty
     */
    static std::vector<std::string> Gather(const std::string& part);
};

} // namespace ns3

#endif /* RDMA_MPI_H */
