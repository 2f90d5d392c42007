/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EXPERIMENT_REPORT_H
#define RDMA_EXPERIMENT_REPORT_H

#include "rdma-experiment-builder.h"
#include "rdma-experiment-spec.h"

#include "ns3/rdma-collective-runner.h"
#include "ns3/rdma-fct-stats.h"

#include <chrono>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The results of one run: the flow records (RdmaMakeFctRecords
 * against each host pair's base RTT and bottleneck), summary.json, the
 * readable summary rdma-sim prints, and the output files.
 *
 * Made after the simulation and before Simulator::Destroy (it reads the
 * event count and the NICs' counters); Write() may come after. The
 * summary's fields are those of doc/rdma.rst, "Outputs"; wall_time_s and
 * peak_rss_mb are the only ones that differ between two runs of the same
 * configuration and seed.
 */
class RdmaExperimentReport
{
  public:
    /**
     * \brief Gather the results.
     * \param spec the experiment
     * \param sim the simulation, after RdmaExperimentBuilder::Simulate
     * \param simEnd the simulated time at the end
     * \param wallStart when the run started (wall clock)
     */
    RdmaExperimentReport(const RdmaExperimentSpec& spec,
                         const RdmaExperimentBuilder& sim,
                         Time simEnd,
                         std::chrono::steady_clock::time_point wallStart);

    /// \return one record per flow, in flow-id order
    const std::vector<RdmaFctRecord>& GetRecords() const;
    /// \return one record per collective of each iteration of each job
    /// (traffic.pattern = collective; else none)
    const std::vector<RdmaCollectiveRecord>& GetCollectiveRecords() const;
    /// \return one record per iteration of each job a rank started
    /// (traffic.pattern = collective; else none)
    const std::vector<RdmaIterationRecord>& GetIterationRecords() const;
    /// \return summary.json's content
    const std::string& GetSummaryJson() const;
    /// \return the readable summary, one line per element
    const std::vector<std::string>& GetSummaryText() const;

    /**
     * \brief Write the output folder, every file or none (RdmaOutputStage):
     * fct.csv, fct.txt, pfc.csv, qlen.csv, cache.csv, nodes.csv,
     * summary.json, the captures and, with jobs (traffic.pattern =
     * collective), collectives.csv and jobs.csv.
     * \param outDir the folder
     * \param sim the simulation (its statistics and captures)
     * \throws RdmaConfigError "output: <reason>" if a file cannot be written
     * \throws RdmaInterrupted on SIGINT or SIGTERM before the files are in
     */
    void Write(const std::string& outDir, RdmaExperimentBuilder& sim) const;

  private:
    std::vector<RdmaFctRecord> m_records;   //!< by flow id
    std::vector<RdmaCollectiveRecord> m_collectives; //!< with jobs: by job, iteration, item
    std::vector<RdmaIterationRecord> m_iterations;   //!< with jobs: by job, iteration
    std::string m_collectivesCsv;           //!< with jobs: collectives.csv
    std::string m_jobsCsv;                  //!< with jobs: jobs.csv
    std::string m_summaryJson;              //!< summary.json
    std::vector<std::string> m_summaryText; //!< the readable summary
    std::string m_cacheCsv;                 //!< cache.csv
    std::string m_pfcCsv;                   //!< pfc.csv (several ranks: merged at rank 0)
    std::string m_qlenCsv;                  //!< qlen.csv (several ranks: merged at rank 0)
    std::string m_nodesCsv;                 //!< nodes.csv: what each node id is
};

} // namespace ns3

#endif /* RDMA_EXPERIMENT_REPORT_H */
