/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_PRESET_H
#define RDMA_NIC_PRESET_H

#include "rdma-cc-preset.h"

#include <string>
#include <vector>

namespace ns3
{

class RdmaConfig;

/**
 * \ingroup rdma
 * \brief The keys of a NIC profile (nic.preset): the attributes of the NIC
 * as hardware (nic.hw, pcie, cache) that make it one measured NIC, each
 * with its source, or with the published points it was fitted to.
 *  - "none": no keys (the attribute defaults, an FPGA NIC of Corundum's
 *    kind on PCIe Gen3 x16).
 *  - "nfp6000": the Netronome NFP-6000 on the Broadwell host (Xeon
 *    E5-2630 v4, Dell T430) of pcie-bench's published data (Neugebauer et
 *    al., SIGCOMM 2018; github.com/pcie-bench/data, directory
 *    nfp6000-1.2GHz_bdw-Xeon-E5-2630v4-dell-t430-s0-s0-s0). Only its DMA
 *    engine and PCIe link were measured, so only pcie keys are set: PCIe
 *    Gen3 x8, 256-byte TLPs and pcie-bench's data-link overhead; the read
 *    latency and data-path rate fitted to LAT_DMA_RD's medians (4 B to
 *    2 KiB, within 2.5 %), the DMA engine's intervals per 128 bytes to
 *    BW_DMA_RD's and BW_DMA_WR's transfers per second.
 * \param name the profile name
 * \return the keys, in a fixed order
 * \throws std::invalid_argument if the name is not one of the above
 */
std::vector<RdmaPresetValue> RdmaNicPreset(const std::string& name);

/// \return the names RdmaNicPreset knows, in a fixed order
std::vector<std::string> RdmaNicPresetNames();

/**
 * \ingroup rdma
 * \brief Set the keys of the profile named by nic.preset on a
 * configuration, each only if the user left it at its default (the user's
 * value wins); the origin of each reads "nic.preset = NAME (SOURCE)". A
 * profile other than "none" models the NIC as hardware, so it sets
 * nic.pipeline = true too.
 * \param c the configuration
 * \throws RdmaConfigError if nic.preset names no profile, or names one while
 * the user set nic.pipeline = false
 */
void RdmaApplyNicPreset(RdmaConfig& c);

/**
 * \ingroup rdma
 * \brief Make the pcie keys of a profile the PcieLink attribute defaults
 * (Config::SetDefault), for programs that build a PcieLink without a
 * configuration (rdma-pcie-bench).
 * \param name the profile name
 * \throws std::invalid_argument if the name is not a profile
 */
void RdmaSetPcieDefaults(const std::string& name);

/**
 * \ingroup rdma
 * \brief Find --preset=NAME among a program's arguments and apply it with
 * RdmaSetPcieDefaults, before CommandLine::Parse sets the
 * --ns3::PcieLink::ATTRIBUTE=VALUE defaults, so that those win wherever they
 * stand (the last --preset counts).
 * \param argc the argument count
 * \param argv the arguments
 * \return the name, or "" without --preset
 * \throws std::invalid_argument if the name is not a profile
 */
std::string RdmaApplyPresetArgument(int argc, char* argv[]);

} // namespace ns3

#endif // RDMA_NIC_PRESET_H
