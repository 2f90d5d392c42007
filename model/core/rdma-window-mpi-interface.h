/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_WINDOW_MPI_INTERFACE_H
#define RDMA_WINDOW_MPI_INTERFACE_H

#include "rdma-frame-batch.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The module's MPI interface for granted-time windows: the frames
 * a rank sends to one other rank within one window go as one MPI message
 * (an RdmaFrameBatch), exchanged at the window's end.
 *
 * In place of ns-3.37's GrantedTimeWindowMpiInterface::SendPacket, which
 * sends every frame that crosses ranks as an MPI message of its own
 * (MPI_Isend, with a buffer and a request per frame, taken in only at the
 * window's end): there, every frame sent in a window waits inside the MPI
 * library as a message, with a request and a fragment each (about 55 MiB
 * of a rank's 302 MiB at k=32 on 2 ranks, doc/mpi.rst "Memory per rank").
 * Here SendFrame() appends the frame to the window's batch for its rank,
 * and Exchange(), called by RdmaDistributedSimulatorImpl at each window's
 * end, sends each non-empty batch as one message and receives the others'.
 *
 * Exchange(), on a communicator of its own (MPI_Comm_dup of ns-3's
 * MpiInterface::GetCommunicator()):
 * 1. MPI_Alltoall of three 64-bit words per rank pair: the bytes this rank
 *    sends to that rank, this rank's earliest time (its next event, or an
 *    arrival it sends, whichever is earlier) and the bytes it sends in all;
 * 2. if any rank sends anything, one MPI_Irecv per rank that sends here
 *    and one MPI_Isend per rank this one sends to, then MPI_Waitall;
 * 3. every received frame handed to the receive callback (QbbRemoteChannel)
 *    at its arrival time, in its receiving node's context, with the event
 *    key it carries: it waits serialized until then (RdmaFrameArrivals,
 *    which keeps the frames still waiting from earlier windows in a buffer
 *    of their own before the next batches are received).
 * Every rank thus learns every rank's earliest time, counting the frames
 * in flight, in the same collective: the lower bound on time stamps
 * (LBTS) that ns-3's DistributedSimulatorImpl gathers with MPI_Allgather,
 * with no message left in transit (ns-3's transmit and receive counts).
 * The order of the received frames' events does not depend on the order
 * they are scheduled in: RdmaEventScheduler orders the events of one time
 * by the keys they carry (doc/mpi.rst, "Event order").
 *
 * A notice (SendNotice) rides in the same batch: an event for a node of
 * the receiving rank at a time past the window's end, which it schedules
 * with the key it carries (the notice callback; RdmaMpi::SetNoticeHandler).
 *
 * Enabled by RdmaMpi::EnableSimulator for granted-time synchronization;
 * with null messages ns-3's per-frame interface stays.
 */
class RdmaWindowMpiInterface
{
  public:
    /// What a receive callback is given: one frame of a received batch.
    typedef Callback<void, const RdmaFrameBatch::Record&> ReceiveCallback;

    /**
     * \brief Start: after MpiInterface::Enable, on every rank at the same
     * point (MPI_Comm_dup is collective).
     */
    static void Enable();
    /// End (MPI_Comm_free), before MPI_Finalize; every rank.
    static void Disable();
    /// \return whether Enable() is in effect
    static bool IsEnabled();

    /**
     * \brief Set what is done with each received frame, at its arrival
     * time in its receiving node's context (once; every QbbRemoteChannel
     * sets the same).
     * \param cb the callback
     */
    static void SetReceiveCallback(ReceiveCallback cb);
    /**
     * \brief Set what is done with each received notice (a record with
     * no frame).
     * \param cb the callback
     */
    static void SetNoticeCallback(ReceiveCallback cb);

    /**
     * \brief Append a frame to this window's batch for the rank of its
     * receiving node.
     * \param frame the frame
     * \param arrival its arrival time at the receiving device (after the
     * window's end: at least the send time plus the link's delay, which
     * bounds the lookahead)
     * \param key its arrival event's key (RdmaEventScheduler::TakeKey)
     * \param node the receiving node id
     * \param ifIndex the receiving device's interface index
     * \param rank the receiving node's rank (its system id)
     * \param compactHead the bytes of the head the sender keeps the frame
     *        in the compact form with, for the receiver to keep it so (0:
     *        a Packet; RdmaFrameBatch::Record::compactHead)
     */
    static void SendFrame(Ptr<const Packet> frame,
                          Time arrival,
                          uint64_t key,
                          uint32_t node,
                          uint32_t ifIndex,
                          uint32_t rank,
                          uint32_t compactHead = 0);

    /**
     * \brief Append a notice to this window's batch for a rank: the
     * receiving rank's notice callback gets it at the window's end.
     * \param at when it is due (after the window's end: at least the send
     * time plus the lookahead and one time step)
     * \param key its event's key (RdmaEventScheduler::TakeKey)
     * \param node the node in whose context it is due
     * \param argument its argument
     * \param rank the node's rank (its system id)
     */
    static void SendNotice(Time at, uint64_t key, uint32_t node, uint32_t argument, uint32_t rank);

    /**
     * \brief A window's end: send this window's batches, one message per
     * rank with frames for it, receive the others', schedule the frames
     * received (the receive callback), and agree on the earliest time.
     * Collective: every rank calls it at every window's end.
     * \param localNextTs this rank's next event time, in time steps
     * (INT64_MAX if it has none or has stopped)
     * \return the earliest over all ranks of their next event times and
     * the arrival times of the frames sent in this window, in time steps
     * (INT64_MAX: every rank is done and nothing is in flight)
     */
    static uint64_t Exchange(uint64_t localNextTs);

    /// \return windows ended (Exchange() calls)
    static uint64_t GetWindows();
    /// \return MPI messages of frames this rank sent (at most one per
    /// window and receiving rank)
    static uint64_t GetMessagesSent();
    /// \return frames this rank sent in them
    static uint64_t GetFramesSent();
    /// \return notices this rank sent in them
    static uint64_t GetNoticesSent();
    /// \return bytes this rank sent in them
    static uint64_t GetBytesSent();
    /// \return MPI messages of frames this rank received
    static uint64_t GetMessagesReceived();
    /// \return frames this rank received in them
    static uint64_t GetFramesReceived();

  private:
    /**
     * \brief Abort unless enabled and rank is another rank of the run.
     * \param what the caller, for the message
     * \param node the node sent to
     * \param rank its rank
     */
    static void CheckPeer(const char* what, uint32_t node, uint32_t rank);
};

} // namespace ns3

#endif // RDMA_WINDOW_MPI_INTERFACE_H
