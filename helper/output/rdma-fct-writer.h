/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FCT_WRITER_H
#define RDMA_FCT_WRITER_H

#include "ns3/rdma-fct-stats.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief fct.csv: a header line, then one row per flow in the records'
 * order:
 *
 *   id,src,dst,op,size,start_ns,fct_ns,ideal_fct_ns,slowdown,qp,status
 *
 * src/dst are the hosts the bytes leave and reach; op WRITE/READ/SEND;
 * size in bytes; times in whole nanoseconds (truncated); slowdown with 6
 * decimals (RdmaSlowdown, successful flows only, else empty); qp the
 * requester's QPN; status the completion's IBV_WC_* name, or INCOMPLETE
 * (and fct_ns empty) for a flow that had not completed when the run ended.
 * \param records the records
 * \return the file's text
 */
std::string RdmaFormatFctCsv(const std::vector<RdmaFctRecord>& records);

/**
 * \brief fct.txt in the HPCC simulator's format (its FCT_OUTPUT_FILE), so
 * its analysis scripts keep working: one line per flow that completed
 * successfully, in completion order (ties: flow id), no header,
 *
 *   "%08x %08x %u %u %lu %lu %lu %lu"
 *   sip dip sport dport size_bytes start_ns fct_ns ideal_fct_ns
 *
 * sip/dip are HPCC's address of the source/destination host id
 * (RdmaHpccHostIp), whatever addresses the simulated NICs have, so that the
 * scripts' id = (ip >> 8) & 0xffff holds; sport is handed out as HPCC does,
 * 10000, 10001, ... per (src, dst) pair in start order (ties: flow id);
 * dport is the flow's tag. Failed and unfinished flows are left out, as the
 * HPCC simulator leaves out flows still running at its stop time.
 * \param records the records
 * \return the file's text
 */
std::string RdmaFormatHpccFctTxt(const std::vector<RdmaFctRecord>& records);

/**
 * \param hostId a host id
 * \return HPCC's IPv4 address of that node, 11.<id/256>.<id%256>.1
 *         (0x0b000001 + (id / 256) x 0x10000 + (id % 256) x 0x100)
 */
uint32_t RdmaHpccHostIp(uint32_t hostId);

/**
 * \brief Write RdmaFormatFctCsv atomically (RdmaWriteFileAtomically).
 * \param path the file, e.g. "<out>/fct.csv"
 * \param records the records
 * \throw std::runtime_error if the file cannot be written
 */
void RdmaWriteFctCsv(const std::string& path, const std::vector<RdmaFctRecord>& records);

/**
 * \brief Write RdmaFormatHpccFctTxt atomically (RdmaWriteFileAtomically).
 * \param path the file, e.g. "<out>/fct.txt"
 * \param records the records
 * \throw std::runtime_error if the file cannot be written
 */
void RdmaWriteHpccFctTxt(const std::string& path, const std::vector<RdmaFctRecord>& records);

} // namespace ns3

#endif // RDMA_FCT_WRITER_H
