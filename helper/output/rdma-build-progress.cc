/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-build-progress.h"

#include <iomanip>
#include <ostream>

namespace ns3
{

RdmaBuildProgress::RdmaBuildProgress(std::ostream* os)
    : m_os(os),
      m_start(Clock::now()),
      m_lastPrint(m_start)
{
}

RdmaBuildProgress::~RdmaBuildProgress()
{
    Finish();
}

void
RdmaBuildProgress::Report(const std::string& what, uint64_t done, uint64_t total)
{
    const Clock::time_point now = Clock::now();
    if (!m_os || (done != 0 && now - m_lastPrint < std::chrono::seconds(1)))
    {
        return;
    }
    m_lastPrint = now;
    m_printed = true;
    const double wall = std::chrono::duration<double>(now - m_start).count();
    *m_os << "\r[rdma-sim] building: " << done << " of " << total << " " << what << "; wall "
          << std::fixed << std::setprecision(1) << wall << " s" << std::string(10, ' ')
          << std::flush;
}

void
RdmaBuildProgress::Finish()
{
    if (m_os && m_printed)
    {
        *m_os << "\n" << std::flush;
        m_printed = false;
    }
}

} // namespace ns3
