/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ROUTE_COMPUTER_H
#define RDMA_ROUTE_COMPUTER_H

#include "rdma-topology-spec.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief All shortest paths of a topology, toward every host: the ECMP
 * groups a fabric installs.
 *
 * For each destination host d a breadth-first search runs from d over the
 * links, with hosts other than d never used as transit (as in the HPCC
 * simulator, FORMATS.md section 1). A node u's next hops toward d are its
 * ports whose peer v has distance(v, d) = distance(u, d) - 1 (and is d or a
 * switch): every first hop of a shortest path, one entry per parallel link.
 *
 * Ports: a node's ports are its links in the order they appear in the
 * topology (port 0 is its first link), the numbering RdmaTopologyHelper
 * gives switch ports (RdmaSwitch::AddPort order). Hosts are numbered by
 * their rank among hosts in node id order (host index).
 *
 * Cost: one BFS per destination, O(N + L) time, run when a question about
 * that destination is asked; memory: the distances of the destinations
 * asked last, 2 bytes per node each, in a direct-mapped cache of at most
 * 8 MiB (ROW_CACHE_BYTES; every destination's row at once on fabrics up to
 * about 2,000 nodes; a slot's row is allocated when first used, and
 * ReleaseRows() gives them all back: RdmaTopologyHelper does once the
 * routes are installed, as a run asks only a few paths before its end),
 * nothing per next hop (a node's next hops are found
 * from its ports and the distances when asked, O(ports)). Installing every
 * route asks destination by destination, one BFS each. Keeping every
 * destination's row took 155 MB on a k=32 fat-tree (8192 hosts, 9472
 * nodes), 1.58 GiB at k=48; storing the 134 M next hops of k=32 too took
 * 4 bytes each, 540 MB more.
 */
class RdmaRouteComputer
{
  public:
    /// Distance of a node that cannot reach the destination.
    static constexpr uint32_t UNREACHABLE = std::numeric_limits<uint32_t>::max();

    /// A node's port: the link and the node at its other end.
    struct Port
    {
        uint32_t link; //!< index into RdmaTopologySpec::links
        uint32_t peer; //!< node id of the other end
    };

    /**
     * \brief Read a topology's nodes and links; no distance is computed yet.
     * \param spec the topology (its links' endpoints must be node ids)
     * \param down per link index, true for a link that has failed: no path
     *        uses it, and ports keep their numbers (empty: every link is up)
     */
    explicit RdmaRouteComputer(const RdmaTopologySpec& spec, const std::vector<bool>& down = {});

    /// Bytes of distance rows kept at most (the row cache).
    static constexpr std::size_t ROW_CACHE_BYTES = 8 << 20;

    /// \return number of hosts
    uint32_t GetNHosts() const;
    /// \param host host index \return its node id
    uint32_t GetHostNode(uint32_t host) const;
    /// \param node node id \return its host index, or UNREACHABLE if a switch
    uint32_t GetHostIndex(uint32_t node) const;
    /// \param node node id \return its ports, in port order
    const std::vector<Port>& GetPorts(uint32_t node) const;

    /**
     * \param node node id
     * \param dstHost destination host index
     * \return links on a shortest path from node to the host, or UNREACHABLE
     */
    uint32_t GetDistance(uint32_t node, uint32_t dstHost) const;

    /**
     * \param node node id
     * \param dstHost destination host index
     * \return how many next hops node has toward the host (its ECMP group's size)
     */
    uint32_t GetNNextHops(uint32_t node, uint32_t dstHost) const;
    /**
     * \param node node id
     * \param dstHost destination host index
     * \param i 0 .. GetNNextHops() - 1
     * \return the port of the i-th next hop (ascending port order)
     */
    uint32_t GetNextHop(uint32_t node, uint32_t dstHost, uint32_t i) const;
    /**
     * \brief Every next hop at once (one pass over the node's ports).
     * \param node node id
     * \param dstHost destination host index
     * \param ports receives the next hops' ports, ascending (cleared first)
     */
    void GetNextHops(uint32_t node, uint32_t dstHost, std::vector<uint32_t>& ports) const;

    /**
     * \brief One shortest path: from srcHost, the lowest-numbered next hop
     * at every node. In the generated fabrics every shortest path between
     * two hosts has the same links per tier, so it stands for all of them.
     * \param srcHost source host index
     * \param dstHost destination host index
     * \return the links crossed, in order (empty if src = dst or unreachable)
     */
    std::vector<uint32_t> GetPath(uint32_t srcHost, uint32_t dstHost) const;

    /**
     * \param srcHost source host index
     * \param dstHost destination host index
     * \return number of distinct shortest paths (saturating at 2^64 - 1)
     */
    uint64_t CountPaths(uint32_t srcHost, uint32_t dstHost) const;

    /// Give back every cached distance row (a later question computes its
    /// destination's again).
    void ReleaseRows();

  private:
    /// \return whether the port's link has failed \param p a port
    bool IsDown(const Port& p) const
    {
        return !m_down.empty() && m_down[p.link];
    }
    /// \return whether port p of node u leads one link nearer dstHost, by
    /// the destination's distances dist
    bool IsNextHop(uint32_t u, uint32_t dstHost, const uint16_t* dist, const Port& p) const;
    /// \return the distances of every node to dstHost (a cached row, or one
    /// BFS into the row's cache slot), valid until the next call
    const uint16_t* GetRow(uint32_t dstHost) const;

    uint32_t m_nNodes;                      //!< nodes
    std::vector<bool> m_isSwitch;           //!< per node
    std::vector<uint32_t> m_hostNode;       //!< host index -> node id
    std::vector<uint32_t> m_hostIndex;      //!< node id -> host index (switches: UNREACHABLE)
    std::vector<std::vector<Port>> m_ports; //!< per node
    std::vector<bool> m_down;               //!< per link: failed (empty: none)
    uint32_t m_nRows;                       //!< cache slots: rows kept at most
    mutable std::vector<uint32_t> m_rowHost; //!< per slot: the host its row is of, or UNREACHABLE
    /// per slot: its row, distance by node (0xFFFF: unreachable), empty until used
    mutable std::vector<std::vector<uint16_t>> m_rows;
    mutable std::vector<uint32_t> m_queue;   //!< the BFS's queue
};

} // namespace ns3

#endif // RDMA_ROUTE_COMPUTER_H
