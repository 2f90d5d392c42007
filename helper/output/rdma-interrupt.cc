/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-interrupt.h"

#include <csignal>

namespace ns3
{

namespace
{
/// The signal received, 0 if none.
volatile std::sig_atomic_t g_pending = 0;

/// Record the signal; SA_RESETHAND makes the next one act as usual.
void
Record(int signal)
{
    g_pending = signal;
}
} // namespace

void
RdmaInterrupt::Install()
{
    struct sigaction sa = {};
    sa.sa_handler = &Record;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    std::signal(SIGXFSZ, SIG_IGN);
}

int
RdmaInterrupt::GetPending()
{
    return g_pending;
}

void
RdmaInterrupt::Clear()
{
    g_pending = 0;
}

void
RdmaInterrupt::Raise(int signal)
{
    g_pending = signal;
}

} // namespace ns3
