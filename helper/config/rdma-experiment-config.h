/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EXPERIMENT_CONFIG_H
#define RDMA_EXPERIMENT_CONFIG_H

#include "rdma-config.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The keys of one experiment (rdma-sim's schema): every key with its
 * default, its checker and its help, grouped by layer (plain keys for
 * topology, traffic, job, collective, output and sim; the models' ns-3
 * attributes under link, switch, pfc, ecn, cc, nic, cache, pcie and
 * transport).
 * \return the schema, every key at its default
 */
RdmaConfig RdmaMakeExperimentConfig();

/**
 * \ingroup rdma
 * \return the embedded default experiment (INI text): a k=4 fat-tree at
 * 100 Gb/s, WebSearch sizes at 30 % load, DCQCN, PFC on, a few ms
 */
const char* RdmaDefaultExperimentText();

/**
 * \ingroup rdma
 * \return the name the front ends read RdmaDefaultExperimentText() under
 * (the origin of its keys: "(embedded default)"), which are not the user's
 */
const char* RdmaDefaultExperimentName();

} // namespace ns3

#endif /* RDMA_EXPERIMENT_CONFIG_H */
