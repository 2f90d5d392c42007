/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HPCC_TOPOLOGY_READER_H
#define RDMA_HPCC_TOPOLOGY_READER_H

#include "rdma-topology-spec.h"

#include <istream>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Reads topology files of the HPCC ns-3 simulator
 * (alibaba-edu/High-Precision-Congestion-Control, `TOPOLOGY_FILE`):
 *
 * \verbatim
   <N_nodes> <N_switches> <N_links>
   <switch_id> ... (N_switches ids)
   <a> <b> <rate> <delay> <error_rate>     (N_links times)
   \endverbatim
 *
 * As that simulator reads it: tokens split on whitespace (line breaks carry
 * no meaning), nodes not in the switch list are hosts, rate is an ns-3
 * DataRate string ("100Gbps"), delay an ns-3 time string ("1000ns",
 * "0.001ms"), error_rate the probability a frame is lost on reception, both
 * directions. Text after the N_links-th link is not read (the simulator's
 * own topology.txt declares 65 of its 256 links); GetIgnoredFromLine()
 * says where it starts.
 *
 * Unlike that simulator (which reads garbage as zeros), every token is
 * checked: a missing or malformed field, an id out of range, a repeated
 * switch id, a self-link or an error rate outside [0, 1] throws an
 * RdmaTopologyError "<file>:<line>: <what was expected>, got '<token>'".
 * What a simulation of it needs beyond the file's syntax (every host with
 * exactly one link) is RdmaTopologySpec::Validate()'s, which
 * RdmaTopologyHelper::Install() calls: the reader also reads files this
 * module cannot simulate, such as the dual-homed ali_32host_10rack.txt.
 */
class RdmaHpccTopologyReader
{
  public:
    /**
     * \brief Read a topology file.
     * \param path the file
     * \return the topology; its name is the path, each link's origin "path:line"
     * \throws RdmaTopologyError if the file cannot be opened or is malformed
     */
    static RdmaTopologySpec ReadFile(const std::string& path);

    /**
     * \brief Read a topology from a stream.
     * \param in the text
     * \param fileName the name messages give
     * \param ignoredFromLine if not null, set to the line of the first token
     *        after the last link that is not read, or 0 if there is none
     * \return the topology
     * \throws RdmaTopologyError if the text is malformed
     */
    static RdmaTopologySpec Parse(std::istream& in,
                                  const std::string& fileName,
                                  uint32_t* ignoredFromLine = nullptr);

    /**
     * \brief Parse an ns-3 time string without aborting: a decimal number
     * followed by one of the units Time accepts (y d h min s ms us ns ps fs),
     * rounded to the simulator's resolution.
     * \param text e.g. "1000ns", "0.001ms"
     * \param [out] t the time
     * \return false if text is not such a string, the time is negative, or
     * it is beyond Time::Max() at the current resolution (about 106 days at
     * picoseconds), which Time's int64x64_t cannot hold
     */
    static bool ParseTime(const std::string& text, Time* t);

    /**
     * \brief Parse an ns-3 DataRate string ("100Gbps", "25Gb/s") without
     * aborting.
     * \param text the string
     * \param [out] rate the rate
     * \return false if text is not a rate
     */
    static bool ParseRate(const std::string& text, DataRate* rate);
};

} // namespace ns3

#endif // RDMA_HPCC_TOPOLOGY_READER_H
