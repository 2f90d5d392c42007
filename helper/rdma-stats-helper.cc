/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-stats-helper.h"

#include "rdma-topology-helper.h"

#include "ns3/qbb-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

namespace ns3
{

RdmaStatsHelper::RdmaStatsHelper(const RdmaTopologyHelper& topo)
    : m_topo(topo)
{
    for (uint32_t i = 0; i < topo.GetNLinks(); ++i)
    {
        const auto& link = topo.GetLink(i);
        if (!link.channel)
        {
            continue; // another rank's (RdmaTopologyHelper under MPI)
        }
        for (Ptr<QbbNetDevice> dev : {link.deviceA, link.deviceB})
        {
            const uint32_t index = m_devices.size();
            m_devices.push_back(dev); // null: the far end of a link between ranks
            if (dev)
            {
                dev->GetPfcController()->SetPauseTxWatch(
                    [this, index](uint8_t cls, uint16_t quanta) { OnPfcTx(index, cls, quanta); });
            }
        }
    }
    for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
    {
        Ptr<RdmaSwitch> sw = topo.GetSwitch(s);
        for (uint32_t p = 0; sw && p < sw->GetNPorts(); ++p)
        {
            m_switchPorts.push_back(sw->GetPort(p));
        }
    }
}

void
RdmaStatsHelper::OnPfcTx(uint32_t device, uint8_t cls, uint16_t quanta)
{
    Ptr<QbbNetDevice> dev = m_devices[device];
    m_pfc.push_back({static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()),
                     dev->GetNode()->GetId(),
                     dev->GetIfIndex(),
                     cls,
                     quanta > 0,
                     dev->GetNode()->GetObject<RdmaNic>() != nullptr});
}

void
RdmaStatsHelper::StartQueueSampling(Time interval, Time from, Time until)
{
    m_interval = interval;
    m_until = until;
    if (interval.IsStrictlyPositive())
    {
        Simulator::Schedule(from, &RdmaStatsHelper::Sample, this);
    }
}

void
RdmaStatsHelper::Sample()
{
    const uint64_t now = Simulator::Now().GetNanoSeconds();
    for (const auto& dev : m_switchPorts)
    {
        for (uint8_t c = 0; c < QbbNetDevice::NUM_CLASSES; ++c)
        {
            const uint64_t bytes = dev->GetTxQueue()->GetBytes(c);
            if (bytes > 0)
            {
                m_qlen.push_back({now, dev->GetNode()->GetId(), dev->GetIfIndex(), c, bytes});
            }
        }
    }
    if (Simulator::Now() + m_interval <= m_until)
    {
        Simulator::Schedule(m_interval, &RdmaStatsHelper::Sample, this);
    }
}

RdmaStatsHelper::Totals
RdmaStatsHelper::GetTotals() const
{
    Totals t;
    for (const auto& dev : m_devices)
    {
        if (!dev)
        {
            continue; // the far end of a link between ranks: counted there
        }
        const auto& s = dev->GetStats();
        t.linkTransmissions += s.txFrames;
        t.dropsOnLinks += s.drops.Total();
    }
    for (const auto& e : m_pfc)
    {
        (e.pause ? t.pfcPauseFrames : t.pfcResumeFrames)++;
        t.pfcPauseFramesFromHosts += e.pause && e.fromHost;
    }
    for (uint32_t s = 0; s < m_topo.GetNSwitches(); ++s)
    {
        if (!m_topo.GetSwitch(s))
        {
            continue; // another rank's
        }
        const auto& st = m_topo.GetSwitch(s)->GetStats();
        t.dropsInSwitches += st.drops.Total();
        t.ecnMarks += st.ecnMarked;
        t.trimmed += st.trimmed;
    }
    for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = m_topo.GetNic(h);
        if (!nic)
        {
            continue; // another rank's
        }
        const auto& st = nic->GetStats();
        t.dataPacketsDelivered += st.rxPayloadPackets;
        t.dropsAtNics += st.rxDrops.Total();
        t.dropsToGoneQps += st.rxDrops[DROP_UNKNOWN_QP];
        t.requestsToGoneQps += st.rxRequestsToGoneQps;
        t.retransmissions += nic->GetQpStatsTotal().retransmissions;
    }
    t.drops = t.dropsOnLinks + t.dropsInSwitches + t.dropsAtNics;
    t.Combine(m_credit.totals, [](uint64_t& a, uint64_t b) { a += b; });
    return t;
}

RdmaStatsHelper::Counts
RdmaStatsHelper::GetCounts() const
{
    Counts c;
    c.totals = GetTotals();
    for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
    {
        if (m_topo.GetNic(h)) // null: another rank's
        {
            c.qps += m_topo.GetNic(h)->GetQpStatsTotal();
        }
    }
    c.qps += m_credit.qps;
    c.txBytes.reserve(m_devices.size());
    for (std::size_t d = 0; d < m_devices.size(); ++d)
    {
        c.txBytes.push_back((m_devices[d] ? m_devices[d]->GetStats().txBytes : 0) +
                            (d < m_credit.txBytes.size() ? m_credit.txBytes[d] : 0));
    }
    return c;
}

void
RdmaStatsHelper::Credit(const Counts& c)
{
    m_credit.Combine(c, [](uint64_t& a, uint64_t b) { a += b; });
}

const RdmaStatsHelper::Counts&
RdmaStatsHelper::GetCredit() const
{
    return m_credit;
}

std::vector<RdmaStatsHelper::TierLoad>
RdmaStatsHelper::GetTierLoads(const std::vector<uint32_t>& nodeTier, double seconds) const
{
    std::map<uint32_t, TierLoad> byTier;
    std::map<uint32_t, double> capacityBits;
    std::size_t next = 0; // the index in m_devices of the next link's side A
    for (uint32_t i = 0; i < m_topo.GetNLinks(); ++i)
    {
        const auto& link = m_topo.GetLink(i);
        const uint32_t none = std::numeric_limits<uint32_t>::max();
        if (!link.channel)
        {
            continue; // another rank's: not in m_devices
        }
        const std::size_t d = next;
        next += 2;
        if (nodeTier[link.a] == none || nodeTier[link.b] == none)
        {
            continue; // no host reaches it
        }
        const uint32_t tier = std::min(nodeTier[link.a], nodeTier[link.b]);
        TierLoad& load = byTier[tier];
        load.tier = tier;
        for (std::size_t side = 0; side < 2; ++side)
        {
            const Ptr<QbbNetDevice> dev = side == 0 ? link.deviceA : link.deviceB;
            if (!dev)
            {
                continue; // the far end of a link between ranks: its own rank's
            }
            const double bits = dev->GetDataRate().GetBitRate() * seconds;
            const uint64_t bytes =
                dev->GetStats().txBytes +
                (d + side < m_credit.txBytes.size() ? m_credit.txBytes[d + side] : 0);
            ++load.directions;
            load.txBytes += bytes;
            capacityBits[tier] += bits;
            load.maxUtilisation = std::max(load.maxUtilisation, bytes * 8.0 / bits);
        }
    }
    std::vector<TierLoad> loads;
    for (auto& [tier, load] : byTier)
    {
        load.utilisation = load.txBytes * 8.0 / capacityBits[tier];
        loads.push_back(load);
    }
    return loads;
}

std::string
RdmaStatsHelper::FormatPfcCsv() const
{
    std::ostringstream os;
    os << "time_ns,node,port,class,event,sender\n";
    for (const auto& e : m_pfc)
    {
        os << e.timeNs << ',' << e.node << ',' << e.port << ',' << unsigned(e.cls) << ','
           << (e.pause ? "pause" : "resume") << ',' << (e.fromHost ? "host" : "switch") << '\n';
    }
    return os.str();
}

std::string
RdmaStatsHelper::FormatQlenCsv() const
{
    std::ostringstream os;
    os << "time_ns,node,port,class,bytes\n";
    for (const auto& q : m_qlen)
    {
        os << q.timeNs << ',' << q.node << ',' << q.port << ',' << unsigned(q.cls) << ',' << q.bytes
           << '\n';
    }
    return os.str();
}

} // namespace ns3
