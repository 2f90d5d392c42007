/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HPCC_FLOW_FILE_H
#define RDMA_HPCC_FLOW_FILE_H

#include "ns3/rdma-flow.h"

#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Read a flow file of the HPCC ns-3 simulator (FLOW_FILE, the output
 * of its traffic_gen.py) as that simulator reads it.
 *
 * Format: "<N_flows>", then records "<src> <dst> <pg> <dport> <size_bytes>
 * <start_time_s>". Tokens are split on white space only (C++ operator>>),
 * line breaks carry no meaning, and only the first N_flows records are read:
 * anything after them is ignored (the shipped flow.txt declares 2 flows and
 * holds 263). ConWeave's simulator (SIGCOMM'23, derived from HPCC's) reads
 * records of five fields, "<src> <dst> <pg> <size_bytes> <start_time_s>"
 * (its traffic_gen.py writes no dport); a file whose first record's line has
 * exactly five fields is read so, every record on a line of its own with
 * five fields, each with dport 100. Rules checked,
 * each error naming the file, the line and what was expected
 * (std::runtime_error):
 * - every field is a whole number, start_time_s a finite number >= 0;
 * - src != dst; pg (the priority) 0-7; dport 0-65535;
 * - size_bytes 1 to 4294967295 (HPCC reads it into a 32-bit integer);
 * - records sorted by start time, oldest first (HPCC's cursor would
 *   schedule an earlier record at a negative delay);
 * - the file holds N_flows records.
 * Whether src and dst are hosts is checked by the flow runner, which knows
 * the topology.
 *
 * Each record becomes an RdmaFlow with id = its index (0-based), op WRITE
 * (HPCC's one-sided push), priority = pg, dport, and start = start_time_s
 * rounded to the nearest nanosecond (the generator prints 9 decimals).
 *
 * \param path the file
 * \return the flows, in file order
 * \throw std::runtime_error "<path>:<line>: expected ..., got ..."
 */
std::vector<RdmaFlow> RdmaReadHpccFlowFile(const std::string& path);

/**
 * \brief RdmaReadHpccFlowFile from a stream.
 * \param in the text
 * \param name what errors call it
 * \return the flows
 * \throw std::runtime_error "<name>:<line>: expected ..., got ..."
 */
std::vector<RdmaFlow> RdmaParseHpccFlowFile(std::istream& in, const std::string& name);

/**
 * \brief Write flows as an HPCC flow file (count line, then one record a
 * line with the start in seconds to 9 decimals, as traffic_gen.py prints),
 * atomically (RdmaWriteFileAtomically), so a generated workload can be run
 * by the HPCC simulator too. The operation is not part of the format.
 * \param path the file
 * \param flows the flows, sorted by start time
 * \throw std::runtime_error if the flows are not sorted, a size does not fit
 *        32 bits, or the file cannot be written
 */
void RdmaWriteHpccFlowFile(const std::string& path, const std::vector<RdmaFlow>& flows);

} // namespace ns3

#endif // RDMA_HPCC_FLOW_FILE_H
