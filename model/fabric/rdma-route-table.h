/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ROUTE_TABLE_H
#define RDMA_ROUTE_TABLE_H

#include "rdma-group-index-array.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <cstdint>
#include <map>
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
 * group does nothing. The group member is chosen by the caller's flow hash
 * modulo the group size (RFC 2992's modulo-N hash, as switch ASICs' ECMP
 * tables do).
 *
 * Stored as switch ASICs store it: each distinct group once (a next-hop
 * group table: a fat-tree edge switch has its k/2 down ports and one uplink
 * group shared by every remote host), and per destination only the group's
 * index. IPv4 destinations that lie close together (a fabric numbers its
 * hosts from one base address) are an array indexed by address - base, one
 * probe a lookup, each index as narrow as the table's group count allows
 * (RdmaGroupIndexArray: 1 byte a route below 255 groups); sparse ones, and
 * IPv6, a hash map.
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
    /**
     * \brief Set the whole group of an IPv4 destination at once (one lookup
     * of the group among those stored, rather than one per port).
     * \param dst the host address
     * \param ports its egress ports, without repeats
     */
    void Set(Ipv4Address dst, const Group& ports);
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

    /**
     * \param o another table
     * \return whether both give every destination the same ports, stored
     *         alike (tables filled by the same calls in the same order are
     *         equal: what RdmaSwitch::ShareRoutes looks for)
     */
    bool operator==(const RdmaRouteTable& o) const;
    /// \return a hash of the IPv4 routes (equal tables hash equal)
    std::size_t Hash() const;

    /// \return the number of destinations with a route
    std::size_t GetNRoutes() const;
    /// \return the number of groups stored (each distinct group once,
    /// including the smaller groups a group was built from)
    std::size_t GetNGroups() const;

  private:
    /**
     * \brief The group that is `group` (an index, or NONE) with `port` added,
     * made if new.
     * \param group the current group index of a destination, or NONE
     * \param port the port to add
     * \return the index of the group with the port
     */
    uint32_t WithPort(uint32_t group, uint32_t port);
    /**
     * \brief Make room for an IPv4 destination: in the dense array while the
     * destinations lie close together, else (moving them) in the hash map.
     * \param dst IPv4 destination, host byte order
     * \return its group index (NONE if it has no route yet)
     */
    uint32_t V4Slot(uint32_t dst);
    /**
     * \brief Give an IPv4 destination its group (after V4Slot).
     * \param dst IPv4 destination, host byte order
     * \param group its group index
     */
    void SetV4(uint32_t dst, uint32_t group);
    /// Move the dense array's routes into the hash map.
    void MakeSparse();

    static constexpr uint32_t NONE = 0xFFFFFFFF; //!< no group

    std::vector<Group> m_groups;                 //!< distinct groups, by index
    std::map<Group, uint32_t> m_groupIndex;      //!< group -> index
    uint32_t m_v4Base{0};                        //!< address of m_v4Dense[0]
    RdmaGroupIndexArray m_v4Dense;               //!< group index by address - base, or NONE
    bool m_v4IsDense{true};                      //!< m_v4Dense in use (else m_v4Sparse)
    std::size_t m_nV4{0};                        //!< IPv4 destinations with a route
    std::unordered_map<uint32_t, uint32_t> m_v4Sparse;                 //!< IPv4 routes when sparse
    std::unordered_map<Ipv6Address, uint32_t, Ipv6AddressHash> m_v6; //!< IPv6 routes
};

} // namespace ns3

#endif // RDMA_ROUTE_TABLE_H
