/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ROUTE_TABLE_H
#define RDMA_ROUTE_TABLE_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A switch's host-route table: each destination address (IPv4 or
 * IPv6, /32 or /128) maps to an ECMP group, the list of egress ports that
 * lead to it on a shortest path. Adding a second port for the same
 * destination makes a group of two, and so on; adding a port already in the
 * group does nothing. A lookup is one hash-map probe; the group member is
 * chosen by the caller's flow hash modulo the group size (RFC 2992's
 * modulo-N hash, as switch ASICs' ECMP tables do).
 */
class RdmaRouteTable
{
  public:
    /// The egress ports of one destination.
    typedef std::vector<uint32_t> Group;

    /**
     * \brief Add a port to the group of an IPv4 destination.
     * \param dst the host address
     * \param port the egress port index
     */
    void Add(Ipv4Address dst, uint32_t port);
    /**
     * \brief Add a port to the group of an IPv6 destination.
     * \param dst the host address
     * \param port the egress port index
     */
    void Add(Ipv6Address dst, uint32_t port);
    /// Remove every route.
    void Clear();

    /**
     * \param dst IPv4 destination, host byte order
     * \return its group, or null if there is no route
     */
    const Group* Lookup(uint32_t dst) const;
    /**
     * \param dst the 16 bytes of an IPv6 destination
     * \return its group, or null if there is no route
     */
    const Group* Lookup(const uint8_t* dst) const;

    /**
     * \brief The port a flow takes: group[hash % size].
     * \param group a non-empty group
     * \param hash the flow's hash
     * \return the port
     */
    static uint32_t Select(const Group& group, uint64_t hash);

    /// \return the number of destinations with a route
    std::size_t GetNRoutes() const;

  private:
    /**
     * \brief Add a port to a group unless it is there.
     * \param group the group
     * \param port the port
     */
    static void AddToGroup(Group& group, uint32_t port);

    std::unordered_map<uint32_t, Group> m_v4;                     //!< IPv4 routes
    std::unordered_map<Ipv6Address, Group, Ipv6AddressHash> m_v6; //!< IPv6 routes
};

} // namespace ns3

#endif // RDMA_ROUTE_TABLE_H
