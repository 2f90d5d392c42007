/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-conga.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-frame-view.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaConga");

NS_OBJECT_ENSURE_REGISTERED(RdmaConga);

TypeId
RdmaConga::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaConga")
            .SetParent<RdmaLoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaConga>()
            .AddAttribute("FlowletTimeout",
                          "A gap between two frames of a flow longer than this starts a new "
                          "flowlet, which takes the least congested uplink (CONGA, SIGCOMM'14, "
                          "section 3.6: Tfl = 500 us in its implementation). Must be positive.",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&RdmaConga::m_timeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FlowletTableSize",
                          "Entries of the flowlet table, indexed by the flow hash, entries "
                          "(CONGA's ASIC has 64K, section 5).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaConga::SetTableSize,
                                               &RdmaConga::GetTableSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24))
            .AddAttribute("Tdre",
                          "Period of the DRE's decrement, X -= X x Alpha (section 3.3). With "
                          "Alpha 0.2 it gives the paper's time constant tau = Tdre / Alpha = "
                          "160 us (section 3.6; the paper gives tau, not Tdre and Alpha apart).",
                          TimeValue(MicroSeconds(32)),
                          MakeTimeAccessor(&RdmaConga::m_tdre),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Alpha",
                          "The DRE's decrement factor per Tdre, in (0, 1] (section 3.3).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&RdmaConga::m_alpha),
                          MakeDoubleChecker<double>(1e-6, 1))
            .AddAttribute("QuantizationBits",
                          "Q, the bits of a congestion metric (section 3.6: Q = 3), bits.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaConga::m_bits),
                          MakeUintegerChecker<uint8_t>(1, 8));
    return tid;
}

RdmaConga::RdmaConga()
    : m_timeout(MicroSeconds(500)),
      m_tdre(MicroSeconds(32)),
      m_leaf(RdmaCongaOverlay::NO_LEAF)
{
    SetSeesFrames();
}

void
RdmaConga::DoDispose()
{
    m_leafOf.reset();
    RdmaLoadBalancer::DoDispose();
}

void
RdmaConga::SetLeaf(uint16_t leaf,
                   uint16_t nLeaves,
                   const std::vector<bool>& uplinks,
                   std::shared_ptr<const LeafMap> leafOf)
{
    NS_ABORT_MSG_IF(leaf >= nLeaves || nLeaves == RdmaCongaOverlay::NO_LEAF,
                    "RdmaConga: leaf " << leaf << " of " << nLeaves);
    NS_ABORT_MSG_IF(uplinks.size() != GetNPorts(), "RdmaConga: one uplink flag per port");
    m_leaf = leaf;
    m_nLeaves = nLeaves;
    m_leafOf = std::move(leafOf);
    m_uplinkOf.assign(uplinks.size(), -1);
    m_uplinks.clear();
    for (uint32_t p = 0; p < uplinks.size(); ++p)
    {
        if (uplinks[p])
        {
            NS_ABORT_MSG_IF(m_uplinks.size() > 255, "RdmaConga: more than 256 uplinks");
            m_uplinkOf[p] = static_cast<int16_t>(m_uplinks.size());
            m_uplinks.push_back(p);
        }
    }
    const std::size_t cells = std::size_t(nLeaves) * m_uplinks.size();
    m_toLeaf.assign(cells, 0);
    m_fromLeaf.assign(cells, 0);
    m_fromChanged.assign(cells, false);
    m_feedbackNext.assign(nLeaves, 0);
}

uint16_t
RdmaConga::GetLeaf() const
{
    return m_leaf;
}

const std::vector<uint32_t>&
RdmaConga::GetUplinks() const
{
    return m_uplinks;
}

uint8_t
RdmaConga::GetCongestionToLeaf(uint16_t leaf, uint32_t uplink) const
{
    return m_toLeaf.at(std::size_t(leaf) * m_uplinks.size() + uplink);
}

uint8_t
RdmaConga::GetCongestionFromLeaf(uint16_t leaf, uint32_t uplink) const
{
    return m_fromLeaf.at(std::size_t(leaf) * m_uplinks.size() + uplink);
}

void
RdmaConga::MakeDres()
{
    const Time now = Simulator::Now();
    m_dres.resize(GetNPorts());
    for (uint32_t p = 0; p < GetNPorts(); ++p)
    {
        Ptr<QbbNetDevice> d = GetPortDevice(p);
        m_dres[p].Configure(m_tdre, m_alpha, d->GetDataRate(), m_bits, now, d->GetStats().txBytes);
    }
}

uint8_t
RdmaConga::GetLocalMetric(uint32_t port)
{
    if (m_dres.size() != GetNPorts())
    {
        MakeDres();
    }
    RdmaDre& dre = m_dres[port];
    dre.Update(Simulator::Now(), GetPortDevice(port)->GetStats().txBytes);
    return dre.GetMetric();
}

uint16_t
RdmaConga::DestinationLeaf(const RdmaFrameView& view) const
{
    if (!m_leafOf || view.IsIpv6())
    {
        return RdmaCongaOverlay::NO_LEAF;
    }
    auto it = m_leafOf->find(view.GetDstIpv4());
    return it == m_leafOf->end() ? RdmaCongaOverlay::NO_LEAF : it->second;
}

uint32_t
RdmaConga::Choose(const RdmaRouteTable::Group& group, const RdmaFrameView& view)
{
    const uint16_t dst = DestinationLeaf(view);
    uint8_t best = 0xFF;
    uint32_t ties[256];
    uint32_t nTies = 0;
    for (uint32_t port : group)
    {
        uint8_t metric = GetLocalMetric(port);
        const int16_t u = port < m_uplinkOf.size() ? m_uplinkOf[port] : -1;
        if (dst != RdmaCongaOverlay::NO_LEAF && u >= 0)
        {
            metric = std::max(metric, GetCongestionToLeaf(dst, u));
        }
        if (metric < best)
        {
            best = metric;
            nTies = 0;
        }
        if (metric == best && nTies < 256)
        {
            ties[nTies++] = port;
        }
    }
    return nTies == 1 ? ties[0] : ties[Draw(nTies)];
}

void
RdmaConga::SetTableSize(uint32_t entries)
{
    m_tableSize = entries;
    m_flowlets.SetSize(entries);
}

uint32_t
RdmaConga::GetTableSize() const
{
    return m_tableSize;
}

uint32_t
RdmaConga::DoSelect(const RdmaRouteTable::Group& group, const RdmaFrameView& view, uint32_t seed)
{
    return m_flowlets.Lookup(view.FlowHash(seed), group, m_timeout, [this, &group, &view]() {
        return Choose(group, view);
    });
}

void
RdmaConga::Piggyback(RdmaCongaOverlay& overlay, uint16_t to)
{
    const uint32_t n = static_cast<uint32_t>(m_uplinks.size());
    if (n == 0)
    {
        return;
    }
    const std::size_t row = std::size_t(to) * n;
    uint32_t& next = m_feedbackNext[to];
    uint32_t pick = next % n;
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t u = (next + i) % n;
        if (m_fromChanged[row + u])
        {
            pick = u;
            break;
        }
    }
    m_fromChanged[row + pick] = false;
    next = (pick + 1) % n;
    overlay.hasFeedback = true;
    overlay.fbLbTag = static_cast<uint8_t>(pick);
    overlay.fbMetric = m_fromLeaf[row + pick];
}

void
RdmaConga::DoForwarded(RdmaFrame& frame,
                       const RdmaFrameView& view,
                       uint32_t inPort,
                       uint32_t outPort)
{
    RdmaCongaOverlay& overlay = frame.GetCongaOverlay();
    if (m_leaf != RdmaCongaOverlay::NO_LEAF)
    {
        const int16_t inUplink = m_uplinkOf[inPort];
        const int16_t outUplink = m_uplinkOf[outPort];
        if (outUplink < 0)
        {
            // To a host: the destination leaf reads the overlay and removes it.
            if (inUplink >= 0 && overlay.srcLeaf < m_nLeaves)
            {
                const std::size_t row = std::size_t(overlay.srcLeaf) * m_uplinks.size();
                if (overlay.lbTag < m_uplinks.size())
                {
                    uint8_t& from = m_fromLeaf[row + overlay.lbTag];
                    m_fromChanged[row + overlay.lbTag] =
                        m_fromChanged[row + overlay.lbTag] || from != overlay.ce;
                    from = overlay.ce;
                }
                if (overlay.hasFeedback && overlay.fbLbTag < m_uplinks.size())
                {
                    m_toLeaf[row + overlay.fbLbTag] = overlay.fbMetric;
                }
            }
            overlay = RdmaCongaOverlay();
            return;
        }
        if (inUplink < 0)
        {
            // From a host into the fabric: the source leaf stamps the overlay.
            overlay = RdmaCongaOverlay();
            overlay.srcLeaf = m_leaf;
            overlay.lbTag = static_cast<uint8_t>(outUplink);
            const uint16_t dst = DestinationLeaf(view);
            if (dst != RdmaCongaOverlay::NO_LEAF && dst != m_leaf)
            {
                Piggyback(overlay, dst);
            }
        }
    }
    if (overlay.srcLeaf != RdmaCongaOverlay::NO_LEAF)
    {
        overlay.ce = std::max(overlay.ce, GetLocalMetric(outPort));
    }
}

} // namespace ns3
