/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic-rx-placement.h"

#include "ns3/rdma-opcode.h"
#include "ns3/rdma-wire.h"

namespace ns3
{

const std::vector<RdmaNicPipeline::MemorySpan>&
RdmaNicRxPlacement::Find(Ptr<RdmaQueuePair> qp, const RoceFrame& f)
{
    m_rxPlaces.clear();
    m_rxPieces.clear();
    const uint8_t op = f.bth.GetOpcode();
    const uint32_t psn = f.bth.GetPsn();
    const uint32_t length = f.payload ? f.payload->GetSize() : 0;
    switch (op)
    {
    case RC_RDMA_READ_RESPONSE_FIRST:
    case RC_RDMA_READ_RESPONSE_MIDDLE:
    case RC_RDMA_READ_RESPONSE_LAST:
    case RC_RDMA_READ_RESPONSE_ONLY: {
        uint64_t offset = 0;
        const std::vector<RdmaSge>* sg = qp->PeekReadPlacement(psn, offset);
        if (sg && length > 0)
        {
            qp->GetMemory().SpansOf(*sg, offset, length, m_rxPieces);
        }
        break;
    }
    case RC_SEND_FIRST:
    case RC_SEND_ONLY:
    case RC_SEND_ONLY_WITH_IMMEDIATE:
    case RC_SEND_ONLY_WITH_INVALIDATE: {
        // The SEND messages already in the pipeline take the receive WQEs
        // before this one (IBA 9.7.4.1.3: receive WQEs are used in order).
        RxSendPlacement& s = m_rxSends[qp->GetQpn()];
        const std::vector<RdmaSge>* sg = qp->PeekRecvSgList(s.startsInPipeline);
        ++s.startsInPipeline;
        s.sgList = sg ? *sg : std::vector<RdmaSge>();
        s.firstPsn = psn;
        s.pmtu = length;
        if (length > 0)
        {
            qp->GetMemory().SpansOf(s.sgList, 0, length, m_rxPieces);
        }
        break;
    }
    case RC_SEND_MIDDLE:
    case RC_SEND_LAST:
    case RC_SEND_LAST_WITH_IMMEDIATE:
    case RC_SEND_LAST_WITH_INVALIDATE: {
        auto it = m_rxSends.find(qp->GetQpn());
        if (it != m_rxSends.end() && length > 0)
        {
            const uint64_t offset =
                uint64_t(PsnSince(psn, it->second.firstPsn)) * it->second.pmtu;
            qp->GetMemory().SpansOf(it->second.sgList, offset, length, m_rxPieces);
        }
        break;
    }
    default:
        break;
    }
    for (const RdmaSge& p : m_rxPieces)
    {
        m_rxPlaces.push_back({p.lkey, p.addr, p.length});
    }
    return m_rxPlaces;
}

void
RdmaNicRxPlacement::Retired(const RoceFrame& f)
{
    const uint8_t op = f.bth.GetOpcode();
    if (op == RC_SEND_FIRST || op == RC_SEND_ONLY || op == RC_SEND_ONLY_WITH_IMMEDIATE ||
        op == RC_SEND_ONLY_WITH_INVALIDATE)
    {
        auto it = m_rxSends.find(f.bth.GetDestQp());
        if (it != m_rxSends.end() && it->second.startsInPipeline > 0)
        {
            --it->second.startsInPipeline;
        }
    }
}

} // namespace ns3
