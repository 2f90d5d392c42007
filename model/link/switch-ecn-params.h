/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_ECN_PARAMS_H
#define SWITCH_ECN_PARAMS_H

#include "ns3/data-rate.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RED-style ECN marking of one egress queue, as DCQCN switches do
 * (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015, section 3.1 and Figure 5): on the instantaneous queue
 * length q in bytes, an ECN-capable packet is marked CE with probability
 *
 *     p(q) = 0                                 for q <= Kmin
 *     p(q) = Pmax x (q - Kmin) / (Kmax - Kmin) for Kmin < q < Kmax
 *     p(q) = 1                                 for q >= Kmax
 *
 * Where q is measured is RdmaEcnMarker's user's choice (RdmaSwitch's
 * EcnAtDequeue): the bytes left behind the packet as it leaves the egress
 * queue (the default, as the HPCC simulator's SwitchNode::SwitchNotifyDequeue
 * in simulation/src/point-to-point/model/switch-node.cc, github.com/alibaba-edu/High-Precision-Congestion-Control,
 * and switch ASICs do), or the bytes ahead of it as it joins.
 */
struct SwitchEcnParams
{
    uint64_t kminBytes{0}; //!< Kmin, bytes
    uint64_t kmaxBytes{0}; //!< Kmax, bytes (>= Kmin)
    double pmax{0};        //!< Pmax, probability at Kmax, 0-1

    /**
     * \brief The defaults for a link rate, as the HPCC simulator's shipped
     * configurations (mix/config.txt KMIN_MAP/KMAX_MAP/PMAX_MAP, units of
     * 1000 bytes): 25G 100/400, 50G 200/800, 100G 400/1600, 400G
     * 1600/6400, Pmax 0.2 - that is Kmin = 4000 bytes and Kmax = 16000
     * bytes per Gb/s, which is how this function scales any rate.
     * \param rate the egress line rate
     * \return the parameters
     */
    static SwitchEcnParams ForRate(DataRate rate);

    /**
     * \param queueBytes q, bytes
     * \return p(q)
     */
    double MarkProbability(uint64_t queueBytes) const;
};

} // namespace ns3

#endif // SWITCH_ECN_PARAMS_H
