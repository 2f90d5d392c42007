/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CC_PRESET_H
#define RDMA_CC_PRESET_H

#include "ns3/data-rate.h"

#include <string>
#include <vector>

namespace ns3
{

class RdmaConfig;

/// One configuration key a preset sets, and where its value comes from.
struct RdmaPresetValue
{
    std::string key;    //!< "group.name", a key of RdmaMakeExperimentConfig
    std::string value;  //!< the value, as text
    std::string source; //!< the document and line that give it
};

/**
 * \ingroup rdma
 * \brief The keys of a named parameter set (cc.preset):
 *  - "paper": none (every attribute default is the DCQCN paper's, SIGCOMM 2015);
 *  - "nvidia": ConnectX firmware defaults, the reaction point's
 *    (RdmaDcqcn::NvidiaFirmwareDefaults) and the notification point's
 *    MIN_TIME_BETWEEN_CNPS = 2 us (per QP here). The firmware's alpha moves
 *    every DCE_TCP_RTT = 1 us, by g = 5/1024 up if a CNP arrived in the
 *    microsecond, down if not: with the paper's 50 us between CNPs alpha
 *    settled near g / (1 - (1 - g)^50) = 0.02, every cut took 1 % and the
 *    queues reached PFC (the storm of the HPCC fat-tree runs).
 *  - "hpcc-sim": what the HPCC simulator's run.py writes for its CC mode
 *    (mode 1 DCQCN for cc.algorithm dcqcn, mode 3 HPCC for hpcc) and a NIC
 *    rate of bw Gb/s (its --bw; here the first host's link rate, as its
 *    third.cc get_nic_rate): DCQCN timers, gains and steps, HPCC eta,
 *    MI_THRESH and W_AI, MIN_RATE, the switch buffer, Pmax, the ACK interval
 *    and the MTU. Each value's source names the run.py line (HPCC
 *    simulator, github.com/alibaba-edu/High-Precision-Congestion-Control,
 *    simulation/run.py at commit 9f4be2a) and, where the simulator's code
 *    applies it, the file of that repository: third.cc is
 *    simulation/scratch/third.cc, rdma-hw.cc and switch-node.cc are in
 *    simulation/src/point-to-point/model/. Kmin/Kmax stay per link rate
 *    (SwitchEcnParams::ForRate gives run.py's maps).
 *  - "conweave-sim": ConWeave's simulator (github.com/conweave-project/
 *    conweave-ns3 at commit 236a801, SIGCOMM'23, derived from the HPCC
 *    simulator): hpcc-sim's keys, then what its run.py writes differently
 *    (DCQCN R_AI 10 bw/25 and R_HAI 25 bw/25 Mb/s, MIN_RATE 100 Mb/s, a
 *    9 MiB buffer, Kmin 100 KB and Kmax 400 KB at every rate) and what its
 *    code fixes: every ACK and NACK ahead of data (nic.AckPriority 7: its
 *    switches' AckHighPrio = 1, set in scratch/network-load-balance.cc, and
 *    its hosts' ACK queue in class 0), CNPs with them (nic.CnpPriority 7:
 *    its CNP is a flag on the ACK) and the dynamic PFC threshold's factor
 *    1/16 (switch-mmu.cc IngressAlpha). hpcc-sim's values keep their
 *    sources, prefixed "as hpcc-sim: ".
 * \param name the preset name
 * \param algorithm cc.algorithm (dcqcn, hpcc, ...)
 * \param nicRate the NIC line rate (hpcc-sim scales by it)
 * \return the keys, in a fixed order
 * \throws std::invalid_argument if the name is not one of the above
 */
std::vector<RdmaPresetValue> RdmaCcPreset(const std::string& name,
                                          const std::string& algorithm,
                                          DataRate nicRate);

/**
 * \ingroup rdma
 * \brief Set the keys of the preset named by cc.preset on a configuration,
 * each only if the user left it at its default (the user's value wins); the
 * origin of each key set reads "cc.preset = NAME (SOURCE)".
 * \param c the configuration
 * \param nicRate the NIC line rate
 * \throws RdmaConfigError if cc.preset names no preset
 */
void RdmaApplyCcPreset(RdmaConfig& c, DataRate nicRate);

} // namespace ns3

#endif // RDMA_CC_PRESET_H
