/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-experiment.h"

#include "rdma-experiment-builder.h"
#include "rdma-experiment-report.h"
#include "rdma-experiment-spec.h"

#include "ns3/config.h"
#include "ns3/rdma-memory-census.h"
#include "ns3/rdma-mpi.h"
#include "ns3/rdma-unused-keys.h"
#include "ns3/rdma-value-check.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <set>
#include <filesystem>
#include <ostream>

namespace ns3
{

struct RdmaExperiment::Impl
{
    RdmaConfig config;                    //!< the merged configuration
    bool force{false};                    //!< write into a non-empty folder
    bool write{true};                     //!< write the output folder
    std::ostream* progress{nullptr};      //!< progress line stream
    std::string summaryJson;              //!< after Run
    std::vector<RdmaFctRecord> records;   //!< after Run
    std::vector<RdmaCollectiveRecord> collectives; //!< after Run
    std::vector<RdmaIterationRecord> iterations;   //!< after Run
    std::vector<std::string> summaryText; //!< PrintSummary's lines
};

RdmaExperiment::RdmaExperiment(const RdmaConfig& config)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->config = config;
}

RdmaExperiment::~RdmaExperiment() = default;

void
RdmaExperiment::SetForce(bool force)
{
    m_impl->force = force;
}

void
RdmaExperiment::SetWriteOutputs(bool write)
{
    m_impl->write = write;
}

void
RdmaExperiment::SetProgressStream(std::ostream* os)
{
    m_impl->progress = os;
}

const std::string&
RdmaExperiment::GetSummaryJson() const
{
    return m_impl->summaryJson;
}

const std::vector<RdmaFctRecord>&
RdmaExperiment::GetFlowRecords() const
{
    return m_impl->records;
}

const std::vector<RdmaCollectiveRecord>&
RdmaExperiment::GetCollectiveRecords() const
{
    return m_impl->collectives;
}

const std::vector<RdmaIterationRecord>&
RdmaExperiment::GetIterationRecords() const
{
    return m_impl->iterations;
}

void
RdmaExperiment::PrintSummary(std::ostream& os) const
{
    for (const auto& line : m_impl->summaryText)
    {
        os << line << "\n";
    }
}

std::size_t
RdmaExperiment::Check(std::size_t* collectives, std::string* memory) const
{
    const RdmaExperimentSpec spec(m_impl->config, m_impl->write, m_impl->force);
    if (memory)
    {
        *memory = spec.memoryCheck;
    }
    if (collectives)
    {
        *collectives = 0;
        for (const RdmaJob& job : spec.jobs)
        {
            for (const RdmaJobItem& item : job.items)
            {
                *collectives += item.collective ? job.iterations : 0;
            }
        }
    }
    return spec.flows.size();
}

RdmaConfig
RdmaExperiment::GetResolvedConfig() const
{
    return RdmaExperimentSpec(m_impl->config, false, m_impl->force).config;
}

std::vector<std::string>
RdmaExperiment::GetChangedKeys() const
{
    const RdmaExperimentSpec spec(m_impl->config, false, m_impl->force);
    const RdmaConfig& c = spec.config;
    std::vector<std::string> changed;
    for (const auto& k : c.GetKeys())
    {
        if (RdmaValueText(k.checker, c.Get(k.name)) != RdmaValueText(k.checker, k.defaultValue))
        {
            changed.push_back(k.name);
        }
    }
    std::set<std::string> unused;
    for (const RdmaUnusedKey& u : RdmaUnusedKeys(c, changed, spec.partition.ranks))
    {
        unused.insert(u.key);
    }
    std::vector<std::string> used;
    std::copy_if(changed.begin(),
                 changed.end(),
                 std::back_inserter(used),
                 [&unused](const std::string& k) { return !unused.count(k); });
    return used;
}

void
RdmaExperiment::Run()
{
    const auto wallStart = std::chrono::steady_clock::now();
    // The census (sim.census) starts before the workload is made.
    RdmaMemoryCensus census;
    census.Enter("workload", 0, "");
    const RdmaExperimentSpec spec(m_impl->config, m_impl->write, m_impl->force);
    census.SetItems(spec.flows.size(), "flow");
    RdmaExperimentBuilder sim(spec, m_impl->write, m_impl->progress, spec.census ? &census : nullptr);
    const Time simEnd = sim.Simulate(m_impl->progress);
    const RdmaExperimentReport report(spec, sim, simEnd, wallStart);
    m_impl->records = report.GetRecords();
    m_impl->collectives = report.GetCollectiveRecords();
    m_impl->iterations = report.GetIterationRecords();
    m_impl->summaryJson = report.GetSummaryJson();
    m_impl->summaryText = report.GetSummaryText();
    Simulator::Destroy();
    Config::Reset();
    RdmaMpi::DisableSimulator();
    // Several ranks: rank 0 holds the merged results and writes them.
    if (m_impl->write && RdmaMpi::GetRank() == 0)
    {
        report.Write(spec.outDir, sim);
    }
}

} // namespace ns3
