/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-tx-round.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

void
RdmaTxRound::SetTenants(bool byTenant)
{
    NS_ABORT_MSG_IF(byTenant != m_byTenant && !Empty(),
                    "RdmaTxRound: the grouping changed with QPs in the round");
    m_byTenant = byTenant;
}

void
RdmaTxRound::Drop()
{
    if (!m_byTenant)
    {
        m_qps.pop_front();
        return;
    }
    const uint32_t tenant = m_turn.front();
    std::deque<uint32_t>& q = m_queues.at(tenant);
    q.pop_front();
    if (q.empty())
    {
        m_queues.erase(tenant);
        m_turn.pop_front();
    }
}

void
RdmaTxRound::Rotate()
{
    if (!m_byTenant)
    {
        const uint32_t qpn = m_qps.front();
        m_qps.pop_front();
        m_qps.push_back(qpn);
        return;
    }
    const uint32_t tenant = m_turn.front();
    std::deque<uint32_t>& q = m_queues.at(tenant);
    q.push_back(q.front());
    q.pop_front();
    m_turn.pop_front();
    m_turn.push_back(tenant);
}

void
RdmaTxRound::Push(uint32_t qpn, uint32_t tenant)
{
    if (!m_byTenant)
    {
        m_qps.push_back(qpn);
        return;
    }
    std::deque<uint32_t>& q = m_queues[tenant];
    if (q.empty())
    {
        m_turn.push_back(tenant);
    }
    q.push_back(qpn);
}

void
RdmaTxRound::MoveToFront(uint32_t tenant, std::size_t at)
{
    std::deque<uint32_t>& q = m_queues.at(tenant);
    const uint32_t qpn = q[at];
    q.erase(q.begin() + static_cast<std::ptrdiff_t>(at));
    q.push_front(qpn);
    auto it = std::find(m_turn.begin(), m_turn.end(), tenant);
    m_turn.erase(it);
    m_turn.push_front(tenant);
}

void
RdmaTxRound::Clear()
{
    m_qps.clear();
    m_turn.clear();
    m_queues.clear();
}

} // namespace ns3
