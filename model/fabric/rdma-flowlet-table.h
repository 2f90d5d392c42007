/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FLOWLET_TABLE_H
#define RDMA_FLOWLET_TABLE_H

#include "rdma-route-table.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A switch's flowlet table, as LetFlow (Vanini et al., NSDI 2017)
 * and CONGA (Alizadeh et al., SIGCOMM 2014, section 3.4) keep it: entries
 * indexed by the flow hash (flows that share an entry share a flowlet, as
 * in hardware), each the port of its flowlet and the time of its last
 * frame. A frame starts a new flowlet when its entry is unused, its gap
 * exceeds the timeout, or its port is not in the frame's group.
 */
class RdmaFlowletTable
{
  public:
    /// \param entries the table's size (made at first use)
    void SetSize(uint32_t entries)
    {
        m_size = entries;
        m_table.clear();
    }

    /**
     * \brief The port of a frame's flowlet, now.
     * \param hash the frame's flow hash
     * \param group its equal-cost ports
     * \param timeout the flowlet gap
     * \param choose called for a new flowlet: returns its port
     * \return the port
     */
    template <class Choose>
    uint32_t Lookup(uint64_t hash, const RdmaRouteTable::Group& group, Time timeout, Choose choose)
    {
        if (m_table.empty())
        {
            m_table.resize(m_size);
        }
        Entry& e = m_table[hash % m_table.size()];
        const int64_t now = Simulator::Now().GetPicoSeconds();
        const bool inGroup = std::find(group.begin(), group.end(), e.port) != group.end();
        if (e.lastPs < 0 || now - e.lastPs > timeout.GetPicoSeconds() || !inGroup)
        {
            e.port = choose();
        }
        e.lastPs = now;
        return e.port;
    }

  private:
    /// One entry.
    struct Entry
    {
        uint32_t port{0};   //!< the flowlet's port
        int64_t lastPs{-1}; //!< its last frame, ps (-1: never used)
    };

    uint32_t m_size{65536};     //!< entries
    std::vector<Entry> m_table; //!< made at first use
};

} // namespace ns3

#endif // RDMA_FLOWLET_TABLE_H
