/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DATA_DIR_H
#define RDMA_DATA_DIR_H

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \return the folder of the shipped data (flow-size CDFs, the HPCC topology
 * and flow files), where a key's named file (traffic.cdf = websearch) is
 * looked up: $RDMA_DATA_DIR if set, else the source tree's data/, else (the
 * tree gone after `make install`) the installed copy,
 * <prefix>/share/ns3-rdma/data
 */
std::string RdmaDataDir();

} // namespace ns3

#endif /* RDMA_DATA_DIR_H */
