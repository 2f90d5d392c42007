/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TX_ROUND_H
#define RDMA_TX_ROUND_H

#include <cstdint>
#include <deque>
#include <list>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The round of an RdmaTxScheduler: the QPs that may send, in the
 * order their turns come, flat or grouped by tenant.
 *
 * Flat (the default): one queue of QPs; Rotate() ends the front QP's turn
 * and puts it at the back.
 *
 * By tenant (SetTenants(true)): each tenant (a protection domain) has a
 * queue of its QPs, and the tenants take turns: the front QP is the front
 * of the tenant whose turn it is. Rotate() ends the turn of the QP and of
 * its tenant: the QP goes to the back of its tenant's queue and the tenant
 * to the back of the tenants. A tenant so gets the same share of turns
 * whatever its number of QPs, as a hierarchical round robin shares a link
 * among classes before flows (Bennett and Zhang, "Hierarchical packet fair
 * queueing algorithms", SIGCOMM 1996). Drop() takes the front QP out
 * without ending its tenant's turn.
 *
 * A QP is entered with its tenant (Push); entering one twice is the
 * caller's error (RdmaTxScheduler keeps where each QP is).
 */
class RdmaTxRound
{
  public:
    /// \param byTenant whether tenants take turns (only while the round is empty)
    void SetTenants(bool byTenant);

    /// \return whether tenants take turns
    bool ByTenant() const
    {
        return m_byTenant;
    }

    /// \return whether no QP is in the round
    bool Empty() const;
    /// \return the QP whose turn it is (the round must not be empty)
    uint32_t Front() const;
    /// \brief Take the front QP out; its tenant keeps its turn.
    void Drop();
    /// \brief End the front QP's turn (and, by tenant, its tenant's).
    void Rotate();
    /**
     * \brief Put a QP at the back of the round (of its tenant's queue).
     * \param qpn the QP
     * \param tenant its tenant (unused when flat)
     */
    void Push(uint32_t qpn, uint32_t tenant);
    /**
     * \brief Give the first QP, in turn order, for which pred(qpn) holds the
     * next turn (by tenant: its tenant's turn too).
     * \param pred the test
     * \return whether a QP was found
     */
    template <typename Pred>
    bool PromoteFirst(Pred pred);
    /// \brief Empty the round.
    void Clear();

  private:
    /**
     * \brief By tenant: make the QP at position at of tenant's queue the
     * front of the round.
     * \param tenant the tenant
     * \param at its position in the tenant's queue
     */
    void MoveToFront(uint32_t tenant, std::size_t at);

    bool m_byTenant{false};      //!< tenants take turns
    std::deque<uint32_t> m_qps;  //!< flat: the QPs, next first
    std::list<uint32_t> m_turn;  //!< by tenant: tenants with QPs, next first (no node while empty)
    std::unordered_map<uint32_t, std::deque<uint32_t>> m_queues; //!< by tenant: its QPs
};

inline bool
RdmaTxRound::Empty() const
{
    return m_byTenant ? m_turn.empty() : m_qps.empty();
}

inline uint32_t
RdmaTxRound::Front() const
{
    return m_byTenant ? m_queues.at(m_turn.front()).front() : m_qps.front();
}

template <typename Pred>
bool
RdmaTxRound::PromoteFirst(Pred pred)
{
    if (!m_byTenant)
    {
        for (auto it = m_qps.begin(); it != m_qps.end(); ++it)
        {
            if (pred(*it))
            {
                const uint32_t qpn = *it;
                m_qps.erase(it);
                m_qps.push_front(qpn);
                return true;
            }
        }
        return false;
    }
    for (uint32_t tenant : m_turn)
    {
        const std::deque<uint32_t>& q = m_queues.at(tenant);
        for (std::size_t i = 0; i < q.size(); ++i)
        {
            if (pred(q[i]))
            {
                MoveToFront(tenant, i);
                return true;
            }
        }
    }
    return false;
}

} // namespace ns3

#endif // RDMA_TX_ROUND_H
