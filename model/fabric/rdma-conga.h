/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGA_H
#define RDMA_CONGA_H

#include "rdma-dre.h"
#include "rdma-flowlet-table.h"
#include "rdma-load-balancer.h"

#include "ns3/nstime.h"
#include "ns3/rdma-frame.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief CONGA (Alizadeh et al., "CONGA: Distributed Congestion-Aware Load
 * Balancing for Datacenters", SIGCOMM 2014) on a two-tier leaf-spine.
 *
 * Every fabric port (a leaf's uplinks, every spine port) measures its
 * utilisation with a Discounting Rate Estimator (RdmaDre: Tdre, Alpha,
 * QuantizationBits). A leaf keeps two tables of metrics, per remote leaf
 * and per uplink (section 3.2): Congestion-To-Leaf (the path to that leaf
 * through that uplink, as fed back) and Congestion-From-Leaf (the path
 * from that leaf that arrived through its uplink LBTag).
 *
 * - Source leaf (a frame from a host to an uplink): stamps the overlay
 *   (RdmaCongaOverlay: its leaf index, LBTag = the uplink, CE = 0) and
 *   piggybacks one Congestion-From-Leaf entry for the destination leaf
 *   (FB_LBTag, FB_Metric), round robin over the uplinks, favouring entries
 *   that changed since they were last fed back (section 3.2).
 * - Every fabric hop: CE = max(CE, the egress port's DRE metric).
 * - Destination leaf (a frame from an uplink to a host): stores CE in
 *   Congestion-From-Leaf[source leaf][LBTag], stores the feedback in
 *   Congestion-To-Leaf[source leaf][FB_LBTag], and removes the overlay.
 * - Flowlets (section 3.4): a flow's frames keep their uplink while they
 *   come closer together than FlowletTimeout; a new flowlet takes the
 *   uplink minimising max(local DRE metric, Congestion-To-Leaf metric),
 *   ties broken at random. Flowlets are tracked in a table indexed by the
 *   flow hash, as LetFlow's.
 *
 * A switch is a spine (CE updates only) until SetLeaf makes it a leaf;
 * rdma-sim does this for every switch of a two-tier leaf-spine
 * (RdmaCongaFabric). Not modelled: the aging of stale Congestion-To-Leaf
 * entries, and destinations other than IPv4 (their new flowlets weigh the
 * local metric only).
 */
class RdmaConga : public RdmaLoadBalancer
{
  public:
    /// Host IPv4 address (host order) -> the index of its leaf.
    using LeafMap = std::unordered_map<uint32_t, uint16_t>;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaConga();

    /**
     * \brief Make this switch a leaf (after its ports are added).
     * \param leaf its index, below nLeaves
     * \param nLeaves the fabric's leaves (at most 65535)
     * \param uplinks per port: whether it leads to a spine (at most 255 do)
     * \param leafOf every host's leaf, shared by the fabric's leaves
     */
    void SetLeaf(uint16_t leaf,
                 uint16_t nLeaves,
                 const std::vector<bool>& uplinks,
                 std::shared_ptr<const LeafMap> leafOf);

    /// \return the leaf index, or RdmaCongaOverlay::NO_LEAF for a spine
    uint16_t GetLeaf() const;
    /// \return the leaf's uplinks, by uplink index (LBTag): port indices
    const std::vector<uint32_t>& GetUplinks() const;

    /**
     * \param leaf a remote leaf
     * \param uplink an uplink index
     * \return Congestion-To-Leaf[leaf][uplink], a Q-bit metric
     */
    uint8_t GetCongestionToLeaf(uint16_t leaf, uint32_t uplink) const;
    /**
     * \param leaf a remote leaf
     * \param uplink an uplink index
     * \return Congestion-From-Leaf[leaf][uplink], a Q-bit metric
     */
    uint8_t GetCongestionFromLeaf(uint16_t leaf, uint32_t uplink) const;
    /**
     * \param port a port index
     * \return its DRE metric now (Q bits)
     */
    uint8_t GetLocalMetric(uint32_t port);

  private:
    uint32_t DoSelect(const RdmaRouteTable::Group& group,
                      const RdmaFrameView& view,
                      uint32_t seed) override;
    void DoForwarded(RdmaFrame& frame,
                     const RdmaFrameView& view,
                     uint32_t inPort,
                     uint32_t outPort) override;
    void DoDispose() override;

    /// \return the destination's leaf, or NO_LEAF (not a known IPv4 host)
    uint16_t DestinationLeaf(const RdmaFrameView& view) const;
    /// \return the uplink a new flowlet of this frame takes, from the group
    uint32_t Choose(const RdmaRouteTable::Group& group, const RdmaFrameView& view);
    /// Put one Congestion-From-Leaf entry for leaf `to` on a frame's overlay.
    void Piggyback(RdmaCongaOverlay& overlay, uint16_t to);
    /// Make the DREs, one per port (at first use).
    void MakeDres();

    /// \param entries FlowletTableSize
    void SetTableSize(uint32_t entries);
    /// \return FlowletTableSize
    uint32_t GetTableSize() const;

    Time m_timeout;              //!< FlowletTimeout
    uint32_t m_tableSize{65536}; //!< FlowletTableSize
    Time m_tdre;                 //!< Tdre
    double m_alpha{0.2};         //!< Alpha
    uint8_t m_bits{3};           //!< QuantizationBits

    uint16_t m_leaf;                           //!< leaf index, NO_LEAF: spine
    uint16_t m_nLeaves{0};                     //!< leaves of the fabric
    std::vector<int16_t> m_uplinkOf;           //!< per port: uplink index, -1: host port
    std::vector<uint32_t> m_uplinks;           //!< per uplink index: its port
    std::shared_ptr<const LeafMap> m_leafOf;   //!< host -> leaf
    std::vector<uint8_t> m_toLeaf;             //!< [leaf x uplinks]: Congestion-To-Leaf
    std::vector<uint8_t> m_fromLeaf;           //!< [leaf x uplinks]: Congestion-From-Leaf
    std::vector<bool> m_fromChanged;           //!< [leaf x uplinks]: changed since fed back
    std::vector<uint32_t> m_feedbackNext;      //!< per leaf: round-robin pointer
    std::vector<RdmaDre> m_dres;               //!< per port
    RdmaFlowletTable m_flowlets;               //!< the flowlets
};

} // namespace ns3

#endif // RDMA_CONGA_H
