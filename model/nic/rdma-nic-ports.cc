/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic-ports.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-frame-view.h"

namespace ns3
{

void
RdmaNicPorts::Add(Ptr<QbbNetDevice> device)
{
    NS_ABORT_MSG_IF(m_ports.size() >= 64, "RdmaNicPorts: at most 64 ports");
    Port port;
    port.device = device;
    Ptr<Channel> ch = device->GetChannel();
    for (std::size_t i = 0; ch && i < ch->GetNDevices(); ++i)
    {
        if (ch->GetDevice(i) != device)
        {
            port.peerMac = Mac48Address::ConvertFrom(ch->GetDevice(i)->GetAddress());
        }
    }
    m_ports.push_back(port);
    m_reachable.clear();
}

void
RdmaNicPorts::Clear()
{
    m_ports.clear();
    m_reachable.clear();
    m_reach = nullptr;
}

uint32_t
RdmaNicPorts::GetN() const
{
    return m_ports.size();
}

Ptr<QbbNetDevice>
RdmaNicPorts::Get(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "RdmaNicPorts: no port " << i);
    return m_ports[i].device;
}

Mac48Address
RdmaNicPorts::GetPeerMac(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "RdmaNicPorts: no port " << i);
    return m_ports[i].peerMac;
}

uint32_t
RdmaNicPorts::Find(const QbbNetDevice* device) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (PeekPointer(m_ports[i].device) == device)
        {
            return i;
        }
    }
    return NONE;
}

DataRate
RdmaNicPorts::GetRate() const
{
    uint64_t bps = 0;
    for (const Port& p : m_ports)
    {
        bps += p.device->GetDataRate().GetBitRate();
    }
    return DataRate(bps == 0 ? 100000000000ULL : bps);
}

bool
RdmaNicPorts::AnyIdle() const
{
    for (const Port& p : m_ports)
    {
        if (p.device->IsTxIdle())
        {
            return true;
        }
    }
    return false;
}

uint64_t
RdmaNicPorts::Usable(Ipv4Address dst)
{
    uint64_t up = 0;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        up |= m_ports[i].device->IsLinkUp() ? (uint64_t(1) << i) : 0;
    }
    if (!m_reach)
    {
        return up;
    }
    auto it = m_reachable.find(dst.Get());
    if (it == m_reachable.end())
    {
        uint64_t mask = 0;
        for (uint32_t i = 0; i < m_ports.size(); ++i)
        {
            mask |= m_reach(i, dst) ? (uint64_t(1) << i) : 0;
        }
        it = m_reachable.emplace(dst.Get(), mask).first;
    }
    return up & it->second;
}

uint32_t
RdmaNicPorts::Choose(bool pinned, uint32_t hash, Ipv4Address dst, bool needIdle)
{
    const uint32_t n = m_ports.size();
    if (n == 1)
    {
        return !needIdle || m_ports[0].device->IsTxIdle() ? 0 : NONE;
    }
    uint64_t usable = Usable(dst);
    if (usable == 0)
    {
        // No plane reaches it: any port (the fabric drops what it cannot route).
        usable = (n == 64) ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
    }
    if (pinned)
    {
        uint32_t k = hash % uint32_t(__builtin_popcountll(usable));
        uint32_t i = 0;
        for (;; ++i)
        {
            if ((usable >> i) & 1)
            {
                if (k == 0)
                {
                    break;
                }
                --k;
            }
        }
        return !needIdle || m_ports[i].device->IsTxIdle() ? i : NONE;
    }
    for (uint32_t step = 0; step < n; ++step)
    {
        const uint32_t i = (m_next + step) % n;
        if (((usable >> i) & 1) && (!needIdle || m_ports[i].device->IsTxIdle()))
        {
            m_next = (i + 1) % n;
            return i;
        }
    }
    return NONE;
}

uint32_t
RdmaNicPorts::QpHash(Ipv4Address address, uint32_t qpn, uint32_t destQpn)
{
    const uint64_t key = (uint64_t(address.Get()) << 32) ^ (uint64_t(qpn) << 24) ^ destQpn;
    return static_cast<uint32_t>(RdmaFrameView::Mix64(key) >> 32);
}

void
RdmaNicPorts::SetReachability(ReachFunction f)
{
    m_reach = std::move(f);
    m_reachable.clear();
}

void
RdmaNicPorts::Invalidate()
{
    m_reachable.clear();
}

const RdmaNicPorts::Stats&
RdmaNicPorts::GetStats(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "RdmaNicPorts: no port " << i);
    return m_ports[i].stats;
}

void
RdmaNicPorts::CountTx(uint32_t i, uint32_t bytes)
{
    ++m_ports[i].stats.txFrames;
    m_ports[i].stats.txBytes += bytes;
}

void
RdmaNicPorts::CountRx(uint32_t i, uint32_t bytes)
{
    ++m_ports[i].stats.rxFrames;
    m_ports[i].stats.rxBytes += bytes;
}

} // namespace ns3
