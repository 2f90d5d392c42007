/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EXPERIMENT_H
#define RDMA_EXPERIMENT_H

#include "ns3/rdma-collective-runner.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-fct-stats.h"

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One experiment: one configuration in, one run, all outputs.
 *
 * The configuration's keys (RdmaMakeExperimentConfig) are grouped by layer: plain keys
 * for topology, traffic, output and sim, and the ns-3 attributes of the
 * models (link, switch, pfc, ecn, cc, nic, cache, pcie, transport) under
 * their group, applied as attribute defaults, so every knob is the model's
 * own attribute. Run() checks every input (topology and flow files, CDFs,
 * keys) before the simulation starts and throws RdmaConfigError naming the
 * file and line or the key; it then builds the fabric, runs the traffic,
 * and writes the output folder (fct.csv, fct.txt, pfc.csv, qlen.csv,
 * cache.csv, summary.json; see doc/rdma.rst, "Outputs"), each file
 * written whole or not at all. The same configuration and seed give
 * identical files apart from the wall-time fields of summary.json.
 * Run() is three steps, one class each: RdmaExperimentSpec (every check),
 * RdmaExperimentBuilder (the simulation, built through RdmaTopologyHelper
 * and RdmaHelper as a script would build it, and run) and
 * RdmaExperimentReport (records, summaries, files).
 *
 * Several experiments may run one after another in a process: each run
 * ends with Simulator::Destroy() and Config::Reset(). The front end sets
 * the time resolution to picoseconds once, before any Time exists
 * (rdma-sim's main, the rdmasim module's import): at 100 Gb/s a byte
 * lasts 80 ps.
 */
class RdmaExperiment
{
  public:
    /// \param config the merged configuration (copied)
    explicit RdmaExperiment(const RdmaConfig& config);
    ~RdmaExperiment();

    /// \param force write into an output folder that is not empty
    void SetForce(bool force);

    /// \param write whether Run() checks and writes the output folder
    /// (default true; the Python bindings turn it off unless asked)
    void SetWriteOutputs(bool write);

    /// \param os where the progress line goes (nullptr: none)
    void SetProgressStream(std::ostream* os);

    /**
     * \brief Check the inputs, run, write the outputs.
     * \throws RdmaConfigError on any bad input, before simulating
     */
    void Run();

    /**
     * \brief Every check Run() makes before it builds anything (keys,
     * topology and flow files, CDFs, the workload drawn, the output folder
     * when outputs are written), and nothing else: no fabric is built,
     * nothing is simulated or written (rdma-sim --check).
     * \return the number of flows the run would start
     * \param collectives if not null, set to the number of collectives the
     *        run's jobs would run (traffic.pattern = collective; else 0)
     * \param memory if not null, set to what sim.maxMemory was checked
     *        against: the run's estimate, or on several ranks (sim.ranks,
     *        or RdmaPartition::SetWorld to check a launch before it) the
     *        largest rank's part, and the limit
     * \throws RdmaConfigError on the first bad key or input, as Run()
     */
    std::size_t Check(std::size_t* collectives = nullptr, std::string* memory = nullptr) const;

    /**
     * \brief The configuration a run would use: the merged keys with
     * hpcc.config's and cc.preset's values applied (each with its origin),
     * which needs the topology (hpcc-sim scales by the NIC rate); rdma-sim
     * --print-config. Nothing is built, simulated or written.
     * \return the resolved configuration
     * \throws RdmaConfigError as Check()
     */
    RdmaConfig GetResolvedConfig() const;

    /**
     * \brief The keys of the resolved configuration that matter: those whose
     * value differs from their default and that the run uses (RdmaUnusedKeys
     * finds nothing to say of them), so that they, written as an INI file
     * (RdmaConfig::Print), run the same experiment again without warnings;
     * rdma-sim --print-config --changed.
     * \return the keys, in declaration order
     * \throws RdmaConfigError as Check()
     */
    std::vector<std::string> GetChangedKeys() const;

    /// \return summary.json's content (after Run)
    const std::string& GetSummaryJson() const;

    /// \return one record per flow, in flow-id order (after Run)
    const std::vector<RdmaFctRecord>& GetFlowRecords() const;

    /// \return one record per collective of each iteration of each job
    /// (traffic.pattern = collective; after Run)
    const std::vector<RdmaCollectiveRecord>& GetCollectiveRecords() const;

    /// \return one record per iteration of each job (jobs.csv's rows;
    /// traffic.pattern = collective; after Run)
    const std::vector<RdmaIterationRecord>& GetIterationRecords() const;

    /// \brief The readable summary rdma-sim prints. \param os the stream
    void PrintSummary(std::ostream& os) const;

  private:
    struct Impl;                  //!< the run's state (topology, traffic, statistics)
    std::unique_ptr<Impl> m_impl; //!< owned
};

} // namespace ns3

#endif /* RDMA_EXPERIMENT_H */
