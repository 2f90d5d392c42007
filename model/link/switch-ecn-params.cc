/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-ecn-params.h"

namespace ns3
{

SwitchEcnParams
SwitchEcnParams::ForRate(DataRate rate)
{
    // 4000 and 16000 bytes per Gb/s: 100G gives 400 KB and 1600 KB.
    const uint64_t bitRate = rate.GetBitRate();
    SwitchEcnParams p;
    p.kminBytes = bitRate / 250000;
    p.kmaxBytes = bitRate / 62500;
    p.pmax = 0.2;
    return p;
}

double
SwitchEcnParams::MarkProbability(uint64_t queueBytes) const
{
    if (queueBytes <= kminBytes)
    {
        return 0.0;
    }
    if (queueBytes >= kmaxBytes)
    {
        return 1.0;
    }
    return pmax * static_cast<double>(queueBytes - kminBytes) /
           static_cast<double>(kmaxBytes - kminBytes);
}

} // namespace ns3
