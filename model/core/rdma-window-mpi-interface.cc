/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-window-mpi-interface.h"

#include "rdma-frame-arrivals.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"

#include <algorithm>
#include <climits>
#include <mpi.h>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaWindowMpiInterface");

namespace
{
/// The tag of the frames' messages (on the interface's own communicator).
constexpr int FRAMES_TAG = 49;

bool g_enabled = false;                            //!< Enable() in effect
MPI_Comm g_comm = MPI_COMM_NULL;                   //!< the interface's communicator
uint32_t g_rank = 0;                               //!< this rank
uint32_t g_size = 1;                               //!< ranks
std::vector<RdmaFrameBatch> g_out;                 //!< this window's batch per rank
RdmaFrameArrivals g_arrivals;                      //!< received frames, until they arrive
RdmaWindowMpiInterface::ReceiveCallback g_notice;  //!< what a received notice is given to
uint64_t g_windows = 0;                            //!< Exchange() calls
uint64_t g_messagesSent = 0;                       //!< messages sent
uint64_t g_framesSent = 0;                         //!< frames in them
uint64_t g_noticesSent = 0;                        //!< notices in them
uint64_t g_bytesSent = 0;                          //!< bytes in them
uint64_t g_messagesReceived = 0;                   //!< messages received
uint64_t g_framesReceived = 0;                     //!< frames in them
} // namespace

void
RdmaWindowMpiInterface::Enable()
{
    NS_LOG_FUNCTION_NOARGS();
    NS_ABORT_MSG_IF(g_enabled, "RdmaWindowMpiInterface::Enable: enabled already");
    NS_ABORT_MSG_UNLESS(MpiInterface::IsEnabled(),
                        "RdmaWindowMpiInterface::Enable: MpiInterface::Enable first");
    MPI_Comm_dup(MpiInterface::GetCommunicator(), &g_comm);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(g_comm, &rank);
    MPI_Comm_size(g_comm, &size);
    g_rank = uint32_t(rank);
    g_size = uint32_t(size);
    g_out.assign(g_size, RdmaFrameBatch());
    g_windows = g_messagesSent = g_framesSent = g_noticesSent = g_bytesSent = 0;
    g_messagesReceived = g_framesReceived = 0;
    g_enabled = true;
}

void
RdmaWindowMpiInterface::Disable()
{
    NS_LOG_FUNCTION_NOARGS();
    if (!g_enabled)
    {
        return;
    }
    MPI_Comm_free(&g_comm);
    g_out.clear();
    g_arrivals.Clear();
    g_arrivals.SetArrivalCallback(ReceiveCallback());
    g_notice = ReceiveCallback();
    g_enabled = false;
}

bool
RdmaWindowMpiInterface::IsEnabled()
{
    return g_enabled;
}

void
RdmaWindowMpiInterface::SetReceiveCallback(ReceiveCallback cb)
{
    g_arrivals.SetArrivalCallback(cb);
}

void
RdmaWindowMpiInterface::SetNoticeCallback(ReceiveCallback cb)
{
    g_notice = cb;
}

void
RdmaWindowMpiInterface::CheckPeer(const char* what, uint32_t node, uint32_t rank)
{
    NS_ABORT_MSG_UNLESS(g_enabled, "RdmaWindowMpiInterface::" << what << ": not enabled");
    NS_ABORT_MSG_IF(rank >= g_size || rank == g_rank,
                    "RdmaWindowMpiInterface::" << what << ": node " << node << " is on rank "
                                               << rank << ", not another of the " << g_size);
}

void
RdmaWindowMpiInterface::SendNotice(Time at,
                                   uint64_t key,
                                   uint32_t node,
                                   uint32_t argument,
                                   uint32_t rank)
{
    CheckPeer("SendNotice", node, rank);
    g_out[rank].AppendNotice(at, key, node, argument);
}

void
RdmaWindowMpiInterface::SendFrame(Ptr<const Packet> frame,
                                  Time arrival,
                                  uint64_t key,
                                  uint32_t node,
                                  uint32_t ifIndex,
                                  uint32_t rank,
                                  uint32_t compactHead)
{
    CheckPeer("SendFrame", node, rank);
    g_out[rank].Append(frame, arrival, key, node, ifIndex, compactHead);
}

uint64_t
RdmaWindowMpiInterface::Exchange(uint64_t localNextTs)
{
    NS_LOG_FUNCTION(localNextTs);
    NS_ABORT_MSG_UNLESS(g_enabled, "RdmaWindowMpiInterface::Exchange: not enabled");
    ++g_windows;
    // Per rank pair: bytes to it, this rank's earliest time, bytes to all.
    uint64_t earliest = localNextTs;
    uint64_t total = 0;
    for (const RdmaFrameBatch& batch : g_out)
    {
        earliest = std::min(earliest, batch.GetEarliestArrival());
        total += batch.GetBytes();
    }
    std::vector<uint64_t> mine(3 * std::size_t(g_size));
    std::vector<uint64_t> theirs(3 * std::size_t(g_size));
    for (uint32_t r = 0; r < g_size; ++r)
    {
        mine[3 * r] = g_out[r].GetBytes();
        mine[3 * r + 1] = earliest;
        mine[3 * r + 2] = total;
    }
    MPI_Alltoall(mine.data(), 3, MPI_UINT64_T, theirs.data(), 3, MPI_UINT64_T, g_comm);
    uint64_t smallest = UINT64_MAX;
    uint64_t anyBytes = 0;
    for (uint32_t r = 0; r < g_size; ++r)
    {
        smallest = std::min(smallest, theirs[3 * r + 1]);
        anyBytes += theirs[3 * r + 2];
    }
    if (anyBytes == 0)
    {
        return smallest; // every rank knows: no message this window
    }
    // The frames still waiting from earlier windows into a buffer of their
    // own (their windows' buffers go), then each batch received into a
    // buffer of its own, which its frames keep while they wait.
    g_arrivals.Compact();
    std::vector<Ptr<RdmaFrameBatch::Received>> in(g_size);
    std::vector<MPI_Request> requests;
    requests.reserve(2 * std::size_t(g_size));
    std::vector<MPI_Datatype> types; // a batch of several chunks: its layout
    for (uint32_t r = 0; r < g_size; ++r)
    {
        const uint64_t bytes = theirs[3 * r];
        if (r == g_rank || bytes == 0)
        {
            continue;
        }
        NS_ABORT_MSG_IF(bytes > uint64_t(INT_MAX),
                        "RdmaWindowMpiInterface: " << bytes << " bytes from rank " << r
                                                   << " in one window, above MPI's int count");
        in[r] = Create<RdmaFrameBatch::Received>(bytes);
        requests.emplace_back();
        MPI_Irecv(in[r]->GetData(),
                  int(bytes),
                  MPI_BYTE,
                  int(r),
                  FRAMES_TAG,
                  g_comm,
                  &requests.back());
    }
    for (uint32_t r = 0; r < g_size; ++r)
    {
        const RdmaFrameBatch& batch = g_out[r];
        if (batch.GetBytes() == 0)
        {
            continue;
        }
        NS_ABORT_MSG_IF(batch.GetBytes() > std::size_t(INT_MAX),
                        "RdmaWindowMpiInterface: " << batch.GetBytes() << " bytes to rank " << r
                                                   << " in one window, above MPI's int count");
        requests.emplace_back();
        const std::vector<RdmaFrameBatch::Chunk> chunks = batch.GetChunks();
        if (chunks.size() == 1)
        {
            MPI_Isend(chunks[0].data,
                      int(chunks[0].bytes),
                      MPI_BYTE,
                      int(r),
                      FRAMES_TAG,
                      g_comm,
                      &requests.back());
        }
        else
        {
            // The chunks' used parts as one message: bytes at their
            // addresses (the receiver takes them back to back).
            std::vector<int> lengths;
            std::vector<MPI_Aint> addresses;
            for (const RdmaFrameBatch::Chunk& c : chunks)
            {
                lengths.push_back(int(c.bytes));
                addresses.emplace_back();
                MPI_Get_address(c.data, &addresses.back());
            }
            types.emplace_back();
            MPI_Type_create_hindexed(int(chunks.size()),
                                     lengths.data(),
                                     addresses.data(),
                                     MPI_BYTE,
                                     &types.back());
            MPI_Type_commit(&types.back());
            MPI_Isend(MPI_BOTTOM, 1, types.back(), int(r), FRAMES_TAG, g_comm, &requests.back());
        }
        ++g_messagesSent;
        g_framesSent += batch.GetFrames();
        g_noticesSent += batch.GetNotices();
        g_bytesSent += batch.GetBytes();
    }
    MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    for (MPI_Datatype& type : types)
    {
        MPI_Type_free(&type);
    }
    for (RdmaFrameBatch& batch : g_out)
    {
        batch.Clear();
    }
    // The frames received wait for their arrival times (RdmaFrameArrivals
    // hands each to the receive callback then); the notices go now.
    for (uint32_t r = 0; r < g_size; ++r)
    {
        if (!in[r])
        {
            continue;
        }
        ++g_messagesReceived;
        g_framesReceived += g_arrivals.Add(in[r], [](const RdmaFrameBatch::Record& record) {
            NS_ABORT_MSG_IF(g_notice.IsNull(),
                            "RdmaWindowMpiInterface: a notice arrived and no callback takes it");
            g_notice(record);
        });
    }
    return smallest;
}

uint64_t
RdmaWindowMpiInterface::GetWindows()
{
    return g_windows;
}

uint64_t
RdmaWindowMpiInterface::GetMessagesSent()
{
    return g_messagesSent;
}

uint64_t
RdmaWindowMpiInterface::GetFramesSent()
{
    return g_framesSent;
}

uint64_t
RdmaWindowMpiInterface::GetNoticesSent()
{
    return g_noticesSent;
}

uint64_t
RdmaWindowMpiInterface::GetBytesSent()
{
    return g_bytesSent;
}

uint64_t
RdmaWindowMpiInterface::GetMessagesReceived()
{
    return g_messagesReceived;
}

uint64_t
RdmaWindowMpiInterface::GetFramesReceived()
{
    return g_framesReceived;
}

} // namespace ns3
