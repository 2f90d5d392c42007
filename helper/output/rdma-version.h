/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_VERSION_H
#define RDMA_VERSION_H

namespace ns3
{

/// \ingroup rdma \return the rdma module's version ("0.1.0"), as summary.json reports it
const char* RdmaModuleVersion();

/// \ingroup rdma \return the version of the ns-3 the module was built against ("3.37")
const char* RdmaNs3Version();

} // namespace ns3

#endif /* RDMA_VERSION_H */
