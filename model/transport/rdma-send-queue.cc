/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-send-queue.h"

#include "ns3/rdma-wire.h"

namespace ns3
{

uint32_t
RdmaSendWqe::LastPsn() const
{
    return PsnAdd(firstPsn, packets - 1);
}

bool
RdmaSendWqe::HoldsPsn(uint32_t psn) const
{
    return PsnDiff(psn, firstPsn) >= 0 && PsnDiff(psn, LastPsn()) <= 0;
}

void
RdmaSendQueue::Start(uint32_t sqPsn)
{
    state = RdmaRecoveryState();
    state.una = state.nextPsn = state.highestSent = PsnMod(sqPsn);
}

void
RdmaSendQueue::Clear()
{
    wqes.clear();
    state = RdmaRecoveryState();
    readAtomicOut = 0;
}

RdmaSendWqe*
RdmaSendQueue::FindByPsn(uint32_t psn)
{
    return const_cast<RdmaSendWqe*>(static_cast<const RdmaSendQueue*>(this)->FindByPsn(psn));
}

const RdmaSendWqe*
RdmaSendQueue::FindByPsn(uint32_t psn) const
{
    for (const RdmaSendWqe& w : wqes)
    {
        if (!w.assigned)
        {
            break;
        }
        if (w.HoldsPsn(psn))
        {
            return &w;
        }
    }
    return nullptr;
}

RdmaSendWqe*
RdmaSendQueue::FirstUnassigned()
{
    return const_cast<RdmaSendWqe*>(static_cast<const RdmaSendQueue*>(this)->FirstUnassigned());
}

const RdmaSendWqe*
RdmaSendQueue::FirstUnassigned() const
{
    for (const RdmaSendWqe& w : wqes)
    {
        if (!w.assigned)
        {
            return &w;
        }
    }
    return nullptr;
}

} // namespace ns3
