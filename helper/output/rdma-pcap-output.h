/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PCAP_OUTPUT_H
#define RDMA_PCAP_OUTPUT_H

#include "ns3/rdma-pcap-writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RdmaTopologyHelper;

/**
 * \ingroup rdma
 * \brief rdma-sim's optional pcap output: every port of chosen nodes
 * captured (frames as they start on the wire and as their last bit
 * arrives, RdmaPcapWriter's Ethernet format with nanosecond stamps), one
 * file per port named node-<node id>-<port>.pcap.
 *
 * The files grow while the simulation runs, so they are written in a
 * private temporary folder and moved into <output>/pcap/ by Commit() after
 * a successful run; a failed run removes them (the output folder never
 * holds a partial capture).
 */
class RdmaPcapOutput
{
  public:
    RdmaPcapOutput() = default;
    /// Removes the temporary folder and what is in it, unless committed.
    ~RdmaPcapOutput();

    RdmaPcapOutput(const RdmaPcapOutput&) = delete;
    RdmaPcapOutput& operator=(const RdmaPcapOutput&) = delete;

    /**
     * \brief Parse a list of ns-3 node ids ("3,17" or "" for none), as the
     * node column of pfc.csv numbers them.
     * \param text the list
     * \param nNodes number of nodes (ids must be below it)
     * \return the ids, sorted, without repeats
     * \throws std::invalid_argument saying what is wrong with which item
     */
    static std::vector<uint32_t> ParseNodes(const std::string& text, uint32_t nNodes);

    /**
     * \brief Open one capture per port of each node and connect it.
     * \param topo the installed topology
     * \param nodes node ids (ParseNodes)
     * \throws std::runtime_error if a file cannot be created, naming it
     */
    void Enable(const RdmaTopologyHelper& topo, const std::vector<uint32_t>& nodes);

    /**
     * \brief Close the captures and move them into `outDir`/pcap/.
     * \param outDir the run's output folder (it exists)
     * \throws std::runtime_error naming the file that could not be moved
     */
    void Commit(const std::string& outDir);

    /// \return the files' names (without folder), in node and port order
    std::vector<std::string> GetFileNames() const;

  private:
    std::string m_tmpDir;                          //!< private folder, empty before Enable
    std::vector<Ptr<RdmaPcapWriter>> m_writers;    //!< one per port
    std::vector<std::string> m_names;              //!< their file names
};

} // namespace ns3

#endif // RDMA_PCAP_OUTPUT_H
