/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NODES_CSV_H
#define RDMA_NODES_CSV_H

#include "ns3/rdma-topology-spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief nodes.csv: what each node id of a run's outputs (pfc.csv,
 * qlen.csv, pcap names) is, so that plots say "edge3" rather than "node 27".
 *
 * Columns: id, kind (host or switch), name, pod, tier. A node's tier is its
 * hop distance from the nearest host (hosts 0, the switches hosts attach to
 * 1, ...); switches are named by tier and the topology's depth: one tier
 * "switch", two tiers "leaf" and "spine", three "edge", "agg" and "core",
 * more "sw"; each numbered from 0 within its tier in node id order; hosts
 * "host" and their host index; a topology that names its nodes
 * (RdmaTopologySpec::nodeNames: the rail fabric's s2.nic3, s2.nvl3,
 * rail3, s2.nvswitch, spine0) gives those names instead. Pods exist in three-tier fabrics: the
 * connected parts left when the top tier is taken away (a fat-tree's pods,
 * Al-Fares et al., SIGCOMM 2008); the column is empty elsewhere and for
 * the top tier.
 * \param topo the topology
 * \return the CSV text, a header and one line per node id
 */
std::string RdmaFormatNodesCsv(const RdmaTopologySpec& topo);

/**
 * \ingroup rdma
 * \brief Each node's tier, as nodes.csv gives it: its hop distance from the
 * nearest host (hosts 0, the switches hosts attach to 1, ...).
 * \param topo the topology
 * \return per node id its tier (UINT32_MAX for a node no host reaches)
 */
std::vector<uint32_t> RdmaNodeTiers(const RdmaTopologySpec& topo);

/**
 * \ingroup rdma
 * \brief Each node's name, as nodes.csv gives it ("host12", "edge3",
 * "core0", or the topology's own names), for messages that name nodes.
 * \param topo the topology
 * \return per node id its name
 */
std::vector<std::string> RdmaNodeNames(const RdmaTopologySpec& topo);

} // namespace ns3

#endif /* RDMA_NODES_CSV_H */
