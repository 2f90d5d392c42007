/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_IDS_H
#define RDMA_NIC_IDS_H

#include "ns3/ipv4-address.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What a peer knows of a host's NIC, and the numbers the NIC hands
 * out: its address (the RoCEv2 GID, IPv4-mapped), the ns-3 node it is on,
 * its QP numbers and its memory keys.
 *
 * - QP numbers count up from 0x100, 24 bits (the BTH's DestQP field, IBA
 *   9.2); the low numbers are left to QP0 and QP1, the management QPs,
 *   and to those a provider reserves.
 * - Memory keys are index << 8 | 0x5A, indexes from 1: the low byte is the
 *   key variant a consumer may change (ibv_inc_rkey), as ConnectX keys
 *   look; a region's lkey and rkey are the same.
 *
 * An RdmaNic has one (RdmaNic::GetIds). On an MPI rank that does not
 * simulate a host, the host has no NIC but ids of its own
 * (RdmaTopologyHelper::GetHostIds): taken in the same order on every rank
 * (the flow and collective runners open QPs and register regions in the
 * same order everywhere), the numbers agree, so a QP here knows its peer's
 * QP number and rkey without the peer's NIC (doc/mpi.rst).
 */
class RdmaNicIds : public SimpleRefCount<RdmaNicIds>
{
  public:
    /**
     * \param address the host's address (the GID)
     * \param node the node id (UINT32_MAX: not placed yet)
     */
    RdmaNicIds(Ipv4Address address, uint32_t node);
    /// Place on a node: its address and node id \param address GID \param node node id
    void Place(Ipv4Address address, uint32_t node);
    /// \return the host's address
    Ipv4Address GetAddress() const;
    /// \return the node id the NIC is on
    uint32_t GetNode() const;
    /// \return the QP number the next QP gets, without taking it
    uint32_t PeekQpn() const;
    /// \return the next QP number, taken
    uint32_t TakeQpn();
    /// \return the next memory key (lkey = rkey), taken
    uint32_t TakeKey();

  private:
    Ipv4Address m_address; //!< GID
    uint32_t m_node;       //!< node id
    uint32_t m_nextQpn{0x100}; //!< next QP number (before the 24-bit mask)
    uint32_t m_nextKey{1};     //!< next key index
};

} // namespace ns3

#endif /* RDMA_NIC_IDS_H */
