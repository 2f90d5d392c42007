/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONNECTION_MATRIX_H
#define RDMA_CONNECTION_MATRIX_H

#include "ns3/rdma-flow.h"

#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An htsim connection matrix (a `.cm` file of csg-htsim's and
 * uet-htsim's `connection_matrices/`, their validation plans' cases), read
 * as htsim's ConnectionMatrix::load reads it.
 */
struct RdmaConnectionMatrix
{
    uint32_t nodes{0};           //!< "Nodes N": the hosts the file numbers, 0 to N - 1
    std::vector<RdmaFlow> flows; //!< its connections, in file order
};

/**
 * \ingroup rdma
 * \brief Read an htsim connection matrix.
 *
 * Format: header lines "Nodes <N>" and "Connections <C>" (and "Triggers
 * <T>", "Failures <F>"), lines starting with '#' and blank lines ignored;
 * then one line per connection, "<src>-><dst>" followed by key-value
 * tokens: "start <us>" (htsim takes the whole microseconds of it), "size
 * <bytes>", "id <n>" (not 0) and "prio <n>" (htsim's scheduling priority,
 * which this module has no counterpart of: refused unless the default,
 * 2000000). Each connection becomes an RdmaFlow: id its index (0-based,
 * as fct.csv numbers flows), src and dst the host indices, op WRITE,
 * start the whole microseconds.
 *
 * Errors (std::runtime_error "<name>:<line>: ..."): a header line without
 * its number, a node outside 0 to N - 1 or src = dst, size 0 or above 2^31
 * (the IBA message limit), a token htsim does not know, a connection
 * without "start", more or fewer connections than the header says, and
 * what htsim has that is not built here, named as such: triggers (a
 * connection started by others' completion: "trigger",
 * "send_done_trigger", "recv_done_trigger", "msg", trigger lines) and
 * failure lines (topology.failLinks says which links fail).
 *
 * \param in the text
 * \param name what errors call it
 * \return the matrix
 */
RdmaConnectionMatrix RdmaParseConnectionMatrix(std::istream& in, const std::string& name);

/**
 * \brief RdmaParseConnectionMatrix of a file.
 * \param path the file
 * \return the matrix
 * \throw std::runtime_error "<path>: cannot open file", or as RdmaParseConnectionMatrix
 */
RdmaConnectionMatrix RdmaReadConnectionMatrix(const std::string& path);

} // namespace ns3

#endif // RDMA_CONNECTION_MATRIX_H
