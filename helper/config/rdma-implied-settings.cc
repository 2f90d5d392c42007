/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-implied-settings.h"

#include "rdma-config.h"

namespace ns3
{

void
RdmaApplyImpliedSettings(RdmaConfig& c)
{
    if (c.Get("cc.algorithm") == "hpcc")
    {
        for (const char* key : {"nic.IntEnabled", "switch.IntEnabled"})
        {
            if (c.GetOrigin(key) == "default")
            {
                c.Set(key, "true", "cc.algorithm = hpcc (HPCC reads INT from NICs and switches)");
            }
        }
    }
    if (c.Get("cc.algorithm") == "nscc" && c.GetOrigin("cc.cnp.Enabled") == "default")
    {
        c.Set("cc.cnp.Enabled",
              "false",
              "cc.algorithm = nscc (UEC's NSCC reads ECN echoed in ACKs; its NICs send no CNPs)");
    }
    for (const char* a : {"LosslessClasses", "PfcEnabled"})
    {
        const std::string nicKey = std::string("nic.rx.") + a;
        const std::string pfcKey = std::string("pfc.") + a;
        if (c.GetOrigin(nicKey) == "default" && c.Get(nicKey) != c.Get(pfcKey))
        {
            c.Set(nicKey, c.Get(pfcKey), pfcKey + " (NICs keep the switches' lossless classes)");
        }
    }
}

} // namespace ns3
