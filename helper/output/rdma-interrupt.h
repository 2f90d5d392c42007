/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_INTERRUPT_H
#define RDMA_INTERRUPT_H

#include <stdexcept>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A run stopped by a signal (RdmaInterrupt) before its outputs were
 * written; the message says which signal and when, and that nothing was
 * written. rdma-sim exits with 128 + the signal number, as a shell does.
 */
class RdmaInterrupted : public std::runtime_error
{
  public:
    /// \param what the message \param signal the signal number
    RdmaInterrupted(const std::string& what, int signal)
        : std::runtime_error(what),
          m_signal(signal)
    {
    }

    /// \return the signal number
    int GetSignal() const
    {
        return m_signal;
    }

  private:
    int m_signal; //!< the signal number
};

/**
 * \ingroup rdma
 * \brief SIGINT and SIGTERM as a request to stop a run cleanly.
 *
 * Install() sets handlers that only record the signal (async-signal-safe)
 * and restore the default action, so a second Ctrl-C ends the process at
 * once. The run polls GetPending() between simulator events (RdmaProgress's
 * checks), stops the simulator and throws RdmaInterrupted; nothing has been
 * written to the output folder by then (RdmaOutputStage). Install() also
 * ignores SIGXFSZ, so that writing past a file size limit (RLIMIT_FSIZE)
 * fails with EFBIG and a message instead of killing the process.
 */
class RdmaInterrupt
{
  public:
    /// \brief Record SIGINT and SIGTERM (once each); ignore SIGXFSZ.
    static void Install();

    /// \return the signal received since Install or Clear, 0 if none
    static int GetPending();

    /// \brief Forget a recorded signal.
    static void Clear();

    /// \brief Record a signal as the handler does (tests, and front ends
    /// that learn of a stop request another way).
    /// \param signal the signal number
    static void Raise(int signal);
};

} // namespace ns3

#endif /* RDMA_INTERRUPT_H */
