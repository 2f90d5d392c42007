/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_RX_PLACEMENT_H
#define RDMA_NIC_RX_PLACEMENT_H

#include "rdma-nic-pipeline.h"

#include "ns3/ptr.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-frame.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Where the payload of a received SEND or READ-response packet lands
 * in host memory, found when the packet enters the NIC's RX pipeline, ahead
 * of its QP (which sees the packet only when the pipeline retires it), so
 * the pipeline can time the MPT and MTT lookups of that placement
 * (RdmaNicPipeline::SubmitRx).
 *
 * A READ response lands where its outstanding READ's scatter list says
 * (RdmaQueuePair::PeekReadPlacement). A SEND message takes the next receive
 * WQE after those the SEND messages already in the pipeline will take (IBA
 * 9.7.4.1.3: receive WQEs are used in order); its middle and last packets
 * land at (PSN distance from the first) x (the first packet's payload)
 * bytes into that WQE's scatter list. WRITE and atomic targets are not
 * found here: the pipeline reads them from the RETH / AtomicETH.
 *
 * RdmaNic owns one and uses it only with a Pipeline.
 */
class RdmaNicRxPlacement
{
  public:
    /**
     * \brief Find where a packet entering the RX pipeline places its payload.
     * \param qp the packet's QP
     * \param f the packet
     * \return the spans (key, virtual address, bytes) its payload is written
     *         to, empty for other packets or when the QP has no receive WQE
     *         or outstanding READ for it; valid until the next call
     */
    const std::vector<RdmaNicPipeline::MemorySpan>& Find(Ptr<RdmaQueuePair> qp, const RoceFrame& f);
    /**
     * \brief The pipeline retired a packet: a SEND message's first packet no
     * longer holds a receive WQE ahead of its QP.
     * \param f the packet
     */
    void Retired(const RoceFrame& f);

  private:
    /// A QP's SEND placement as the RX pipeline sees it (ahead of the QP).
    struct RxSendPlacement
    {
        uint32_t startsInPipeline{0}; //!< SEND first/only packets not yet retired
        std::vector<RdmaSge> sgList;  //!< the receive WQE of the message in progress
        uint32_t firstPsn{0};         //!< its first packet's PSN
        uint32_t pmtu{0};             //!< payload of its first packet
    };

    std::unordered_map<uint32_t, RxSendPlacement> m_rxSends; //!< by QPN
    std::vector<RdmaNicPipeline::MemorySpan> m_rxPlaces;     //!< of the packet being submitted
    std::vector<RdmaSge> m_rxPieces;                         //!< scratch for Find
};

} // namespace ns3

#endif // RDMA_NIC_RX_PLACEMENT_H
