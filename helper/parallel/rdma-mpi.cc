/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-mpi.h"

#include "rdma-partition.h"

#include "ns3/abort.h"

#include <cstdlib>

#ifdef NS3_MPI
#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/rdma-event-scheduler.h"
#include "ns3/rdma-window-mpi-interface.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <mpi.h>
#endif

namespace ns3
{

namespace
{
#ifdef NS3_MPI
bool g_started = false; //!< Init() started MPI
#endif
bool g_simulatorEnabled = false; //!< EnableSimulator() in effect
} // namespace

bool
RdmaMpi::Init(int* argc, char*** argv)
{
#ifdef NS3_MPI
    const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") ||
                          std::getenv("PMIX_RANK");
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!launched && !initialized)
    {
        return false;
    }
    if (!initialized)
    {
        MPI_Init(argc, argv);
        g_started = true;
    }
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    RdmaPartition::SetWorld(uint32_t(rank), uint32_t(size));
    return true;
#else
    (void)argc;
    (void)argv;
    return false;
#endif
}

void
RdmaMpi::Finalize()
{
#ifdef NS3_MPI
    if (g_simulatorEnabled)
    {
        DisableSimulator();
    }
    if (g_started)
    {
        MPI_Finalize();
        g_started = false;
    }
#endif
}

uint32_t
RdmaMpi::GetRank()
{
    return RdmaPartition::GetWorldRank();
}

uint32_t
RdmaMpi::GetSize()
{
    return RdmaPartition::GetWorldSize();
}

void
RdmaMpi::EnableSimulator(const std::string& sync)
{
#ifdef NS3_MPI
    NS_ABORT_MSG_IF(g_simulatorEnabled, "RdmaMpi::EnableSimulator: enabled already");
    const bool nullMessage = sync == "null-message";
    const bool perFrame = sync == "granted-time-per-frame";
    NS_ABORT_MSG_UNLESS(nullMessage || perFrame || sync == "granted-time",
                        "RdmaMpi::EnableSimulator: unknown synchronization " << sync);
    // MpiInterface picks its communication by ns-3's own type names ...
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(nullMessage ? "ns3::NullMessageSimulatorImpl"
                                              : "ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(MPI_COMM_WORLD);
    // ... and the simulator, made at its first use, is the module's:
    // granted-time: RdmaDistributedSimulatorImpl, whose frames between
    // ranks go in one message per window and rank (its interface enabled
    // here, where every rank is); granted-time-per-frame and null-message:
    // ns-3's, one message per frame, with an IsExpired() right under
    // RdmaEventScheduler's order.
    if (!nullMessage && !perFrame)
    {
        RdmaWindowMpiInterface::Enable();
    }
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(nullMessage ? "ns3::RdmaNullMessageSimulatorImpl"
                                  : perFrame  ? "ns3::RdmaPerFrameSimulatorImpl"
                                              : "ns3::RdmaDistributedSimulatorImpl"));
    g_simulatorEnabled = true;
#else
    NS_FATAL_ERROR("RdmaMpi::EnableSimulator(" << sync
                                               << "): this build has no MPI (make mpi builds one)");
#endif
}

void
RdmaMpi::DisableSimulator()
{
#ifdef NS3_MPI
    if (g_simulatorEnabled)
    {
        RdmaWindowMpiInterface::Disable();
        MpiInterface::Disable();
        g_simulatorEnabled = false;
    }
#endif
}

bool
RdmaMpi::IsSimulatorEnabled()
{
    return g_simulatorEnabled;
}

RdmaMpi::WindowCounters
RdmaMpi::GetWindowCounters()
{
    WindowCounters c;
#ifdef NS3_MPI
    if (RdmaWindowMpiInterface::IsEnabled())
    {
        c.windows = RdmaWindowMpiInterface::GetWindows();
        c.messagesSent = RdmaWindowMpiInterface::GetMessagesSent();
        c.framesSent = RdmaWindowMpiInterface::GetFramesSent();
        c.noticesSent = RdmaWindowMpiInterface::GetNoticesSent();
        c.bytesSent = RdmaWindowMpiInterface::GetBytesSent();
    }
#endif
    return c;
}

bool
RdmaMpi::CanSendNotices()
{
#ifdef NS3_MPI
    return RdmaWindowMpiInterface::IsEnabled();
#else
    return false;
#endif
}

void
RdmaMpi::SendNotice(Time at, uint32_t node, uint32_t rank, uint32_t argument)
{
#ifdef NS3_MPI
    RdmaWindowMpiInterface::SendNotice(at, RdmaEventScheduler::TakeKey(), node, argument, rank);
#else
    (void)at;
    (void)node;
    (void)rank;
    (void)argument;
    NS_FATAL_ERROR("RdmaMpi::SendNotice: this build has no MPI");
#endif
}

void
RdmaMpi::SetNoticeHandler(Callback<void, uint32_t> handler)
{
#ifdef NS3_MPI
    RdmaWindowMpiInterface::SetNoticeCallback(
        RdmaWindowMpiInterface::ReceiveCallback([handler](const RdmaFrameBatch::Record& notice) {
            const Time at = TimeStep(notice.arrivalTs);
            NS_ABORT_MSG_UNLESS(at > Simulator::Now(),
                                "RdmaMpi: a notice for node " << notice.node << " due at " << at
                                                              << ", not after the window's end");
            RdmaEventScheduler::SetNextKey(notice.key);
            Simulator::ScheduleWithContext(notice.node, at - Simulator::Now(), [handler, notice]() {
                handler(notice.argument);
            });
        }));
#else
    (void)handler;
#endif
}

std::vector<std::string>
RdmaMpi::Gather(const std::string& part)
{
#ifdef NS3_MPI
    const int size = int(GetSize());
    const int rank = int(GetRank());
    int length = int(part.size());
    std::vector<int> lengths(rank == 0 ? size : 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size(), 0);
    int total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r)
    {
        offsets[r] = total;
        total += lengths[r];
    }
    std::vector<char> all(std::size_t(total) + 1);
    MPI_Gatherv(part.data(),
                length,
                MPI_CHAR,
                all.data(),
                lengths.data(),
                offsets.data(),
                MPI_CHAR,
                0,
                MPI_COMM_WORLD);
    std::vector<std::string> parts;
    for (std::size_t r = 0; r < lengths.size(); ++r)
    {
        parts.emplace_back(all.data() + offsets[r], std::size_t(lengths[r]));
    }
    return parts;
#else
    return {part};
#endif
}

} // namespace ns3
