/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_IMPLIED_SETTINGS_H
#define RDMA_IMPLIED_SETTINGS_H

namespace ns3
{

class RdmaConfig;

/**
 * \ingroup rdma
 * \brief Set the keys that other keys imply, where the user left them at
 * their defaults, each with the key it follows from as its origin, so that
 * --print-config and summary.json show the values the run uses:
 * - cc.algorithm = hpcc: nic.IntEnabled and switch.IntEnabled true (HPCC
 *   reads INT hop records that NICs and switches add: Li et al., SIGCOMM'19,
 *   section 3);
 * - cc.algorithm = nscc: cc.cnp.Enabled false (UE 1.0's NSCC reads ECN
 *   from the echo in its ACKs; a UEC NIC sends no RoCE CNP);
 * - nic.rx.LosslessClasses and nic.rx.PfcEnabled follow pfc.LosslessClasses
 *   and pfc.PfcEnabled (a NIC pauses the classes the switches keep lossless).
 * \param c the configuration, after cc.preset
 */
void RdmaApplyImpliedSettings(RdmaConfig& c);

} // namespace ns3

#endif /* RDMA_IMPLIED_SETTINGS_H */
