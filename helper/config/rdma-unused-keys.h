/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_UNUSED_KEYS_H
#define RDMA_UNUSED_KEYS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RdmaConfig;

/// One key set and not used, with the warning that says so.
struct RdmaUnusedKey
{
    std::string key;     //!< the key
    std::string warning; //!< "<origin>: <key> = <value> is not used: <why>"
};

/**
 * \ingroup rdma
 * \brief The keys a user set that this run does not read, each as the
 * warning rdma-sim prints and summary.json lists ("<origin>: <key> = <value>
 * is not used: <why>"), so that a sweep over such a key is not taken for a
 * result (its points would all be the same run).
 *
 * A key is unused when what it configures is not in the run: a loss
 * recovery's, congestion control's or load balancer's attributes under
 * another one (transport.irn.* under go-back-N, cc.hpcc.* under DCQCN,
 * switch.drill.* under ECMP), a traffic pattern's keys under another
 * pattern (traffic.load under permutation, traffic.size under poisson), a
 * topology generator's keys under another generator (topology.k on a
 * leaf-spine), the NIC hardware's keys without nic.pipeline, and the
 * partition keys on one rank. The job and collective keys have their own
 * rules (RdmaRefuseJobKeys, RdmaMakeJobs): this adds those that job.workload
 * leaves unused.
 *
 * \param c the configuration, as the spec has read it (after cc.preset and
 *        the implied settings, which decide nothing here)
 * \param userKeys the keys the user set (INI file or command line), before
 *        hpcc.config, cc.preset or implied settings filled any: only these
 *        are reported
 * \param ranks the processes of the run (partition keys are unused on one)
 * \return each unused key with its warning, in the keys' declaration order
 */
std::vector<RdmaUnusedKey> RdmaUnusedKeys(const RdmaConfig& c,
                                        const std::vector<std::string>& userKeys,
                                        uint32_t ranks);

/// \return whether the run draws Poisson flows (traffic.pattern = poisson, or
/// incast or collective with traffic.background = poisson) \param c the configuration
bool RdmaDrawsPoisson(const RdmaConfig& c);

/// \return the keys of c whose value was set (origin not "default") \param c the configuration
std::vector<std::string> RdmaSetKeys(const RdmaConfig& c);

} // namespace ns3

#endif /* RDMA_UNUSED_KEYS_H */
