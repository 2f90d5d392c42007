/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow.h"

namespace ns3
{

std::string
RdmaFlowOpName(RdmaFlowOp op)
{
    switch (op)
    {
    case RdmaFlowOp::WRITE:
        return "WRITE";
    case RdmaFlowOp::READ:
        return "READ";
    case RdmaFlowOp::SEND:
        return "SEND";
    }
    return "UNKNOWN";
}

bool
RdmaFlowOpFromName(const std::string& name, RdmaFlowOp& op)
{
    for (RdmaFlowOp o : {RdmaFlowOp::WRITE, RdmaFlowOp::READ, RdmaFlowOp::SEND})
    {
        if (name == RdmaFlowOpName(o))
        {
            op = o;
            return true;
        }
    }
    return false;
}

} // namespace ns3
