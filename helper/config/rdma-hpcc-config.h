/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HPCC_CONFIG_H
#define RDMA_HPCC_CONFIG_H

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

class RdmaConfig;

/**
 * \ingroup rdma
 * \brief A malformed HPCC simulator config.txt: the message is
 * "file:line: KEY: what was expected, got what".
 */
class RdmaHpccConfigError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * \ingroup rdma
 * \brief What an HPCC simulator config.txt says, as rdma-sim keys.
 */
struct RdmaHpccConfig
{
    /// One rdma-sim key the file sets.
    struct Setting
    {
        std::string key;   //!< rdma-sim key ("cc.dcqcn.TimeReset")
        std::string value; //!< its value, as text
        std::string where; //!< "file:line"
    };

    std::vector<Setting> settings; //!< in file order (paths as written: see RdmaApplyHpccConfig)
    std::vector<std::string> warnings; //!< "file:line: KEY ...": unknown keys, values not modelled
};

/**
 * \brief Read the text of an HPCC simulator config.txt (the file
 * simulation/scratch/third.cc of
 * github.com/alibaba-edu/High-Precision-Congestion-Control reads: one
 * "KEY value..." per line, as simulation/run.py's config_template writes
 * them). A pure function of its arguments.
 *
 * Mapped keys: TOPOLOGY_FILE (topology.type = hpcc, topology.file),
 * FLOW_FILE (traffic.pattern = flow-file, traffic.flowFile), CC_MODE (1
 * dcqcn, 3 hpcc, 7 timely, 8 dctcp; and cc.preset = hpcc-sim, whose values
 * the file's keys then override), SIMULATOR_STOP_TIME (s), ENABLE_QCN,
 * USE_DYNAMIC_PFC_THRESHOLD, PACKET_PAYLOAD_SIZE (the path MTU: the
 * nearest of 256-4096), L2_ACK_INTERVAL (bytes, as AckReq every so many
 * packets), BUFFER_SIZE (MB = MiB), the DCQCN keys (ALPHA_RESUME_INTERVAL,
 * RATE_DECREASE_INTERVAL, RP_TIMER in us; CLAMP_TARGET_RATE, EWMA_GAIN,
 * FAST_RECOVERY_TIMES, RATE_AI, RATE_HAI, MIN_RATE), the HPCC keys
 * (U_TARGET, MI_THRESH, FAST_REACT, RATE_AI, MIN_RATE), KMIN_MAP /
 * KMAX_MAP / PMAX_MAP ("n rate value ..."; Kmin/Kmax in KB: per-rate maps
 * of 4 and 16 KB per Gb/s are this module's per-rate default, a single
 * value for all rates sets ecn.kmin/kmax, anything else is refused; with
 * linkRates, only the entries of those rates count, as the simulator looks
 * up each switch port's rate).
 * The keys of ConWeave's simulator (github.com/conweave-project/conweave-ns3,
 * derived from this one; its run.py writes them): LB_MODE (0 Ecmp, 2 Drill,
 * 6 LetFlow as switch.LoadBalancing; 3 CONGA and 9 ConWeave are refused),
 * ENABLE_PFC (pfc.PfcEnabled), ENABLE_IRN (transport.recovery irn),
 * FLOWGEN_STOP_TIME (sim.stopTime 10 s later, as that simulator stops,
 * unless SIMULATOR_STOP_TIME is given), RANDOM_SEED (sim.seed); its output,
 * monitor and ConWeave-timer keys are accepted and ignored. A file with any
 * of them and CC_MODE 1 or 3 selects cc.preset = conweave-sim (ConWeave's
 * simulator's own choices: RdmaCcPreset) instead of hpcc-sim.
 * Keys the simulator reads that have no counterpart here (output file
 * names, trace and queue monitors, PINT, INT_MULTI, ...) are accepted with
 * their documented form and listed among the warnings when their value
 * asks for something not modelled; unknown keys are warnings too.
 *
 * \param text the file's text
 * \param name the file's name, for messages
 * \param linkRates the topology's link rates, bit/s (empty: every map
 * entry counts)
 * \return the settings and the warnings
 * \throws RdmaHpccConfigError naming file and line for a value that is not
 * of the key's form (a number, a rate, a count of map entries), a key
 * given twice, or a mode or map this module does not model
 */
RdmaHpccConfig RdmaParseHpccConfig(const std::string& text,
                                   const std::string& name,
                                   const std::set<uint64_t>& linkRates = {});

/**
 * \brief Read an HPCC simulator config.txt into an rdma-sim configuration:
 * each setting is applied if the key is still at its default (so the INI
 * file and command line win), with origin "file:line"; TOPOLOGY_FILE and
 * FLOW_FILE are taken as the simulator takes them, from the working
 * directory, or else from the config file's folder; the per-rate maps are
 * read for the link rates of the topology (topology.file if given, else
 * TOPOLOGY_FILE).
 * \param c the configuration
 * \param path the config.txt
 * \return the warnings
 * \throws RdmaConfigError (file:line and reason) if the file cannot be read
 * or is malformed
 */
std::vector<std::string> RdmaApplyHpccConfig(RdmaConfig& c, const std::string& path);

} // namespace ns3

#endif // RDMA_HPCC_CONFIG_H
