/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-trim-config.h"

#include "ns3/qbb-class-config.h"

#include <sstream>
#include <string>

namespace ns3
{

int8_t
RdmaReadTrimming(const RdmaConfig& c, uint8_t dataTos)
{
    const uint64_t classes = c.GetUinteger("switch.trim.Classes");
    if (classes == 0)
    {
        return -1;
    }
    const auto trimClass = static_cast<uint8_t>(c.GetUinteger("switch.trim.TrimClass"));
    const auto dscp = static_cast<uint8_t>(c.GetUinteger("switch.trim.Dscp"));
    if ((classes >> trimClass) & 1)
    {
        throw RdmaConfigError(c.GetOrigin("switch.trim.TrimClass") +
                              ": switch.trim.TrimClass = " + std::to_string(trimClass) +
                              " is one of the trimmed classes (switch.trim.Classes = " +
                              c.Get("switch.trim.Classes") +
                              "): trimmed frames need a class of their own, above the data's");
    }
    if (c.GetBool("pfc.PfcEnabled") && ((c.GetUinteger("pfc.LosslessClasses") >> trimClass) & 1))
    {
        throw RdmaConfigError(c.GetOrigin("switch.trim.TrimClass") +
                              ": switch.trim.TrimClass = " + std::to_string(trimClass) +
                              " is lossless (pfc.LosslessClasses = " +
                              c.Get("pfc.LosslessClasses") +
                              "): its frames queue outside the shared buffer, which PFC "
                              "accounts, so nothing would ever pause them");
    }
    QbbDscpClassMap map;
    std::istringstream(c.Get("link.DscpToClass")) >> map;
    if (map.Get(dscp) != trimClass)
    {
        throw RdmaConfigError(
            c.GetOrigin("switch.trim.Dscp") + ": switch.trim.Dscp = " + std::to_string(dscp) +
            " is class " + std::to_string(map.Get(dscp)) +
            " in link.DscpToClass, not switch.trim.TrimClass = " + std::to_string(trimClass) +
            ": a trimmed frame would change class at the next switch");
    }
    const auto priority = static_cast<uint8_t>(c.GetUinteger("traffic.priority"));
    const int ack = std::stoi(c.Get("nic.AckPriority"));
    const auto cnp = static_cast<uint8_t>(c.GetUinteger("nic.CnpPriority"));
    const uint8_t data = static_cast<uint8_t>((priority << 3) | ((dataTos >> 2) & 7));
    if (dscp == data || (ack >= 0 && dscp == ack * 8) || dscp == cnp * 8)
    {
        throw RdmaConfigError(
            c.GetOrigin("switch.trim.Dscp") + ": switch.trim.Dscp = " + std::to_string(dscp) +
            " is a DSCP the NICs send data, ACKs or CNPs with (data " + std::to_string(data) +
            ", CNPs " + std::to_string(cnp * 8) + "): every such frame would be taken as trimmed");
    }
    return static_cast<int8_t>(dscp);
}

} // namespace ns3
