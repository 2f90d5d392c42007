/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PROTECTION_DOMAIN_H
#define RDMA_PROTECTION_DOMAIN_H

#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A protection domain (ibv_pd): memory regions and queue pairs of
 * one PD only work together (IBA 10.2.3); a mismatch is an access error.
 */
class RdmaProtectionDomain : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param handle the PD's number on its NIC
    explicit RdmaProtectionDomain(uint32_t handle = 0);
    /// \return the PD's number on its NIC
    uint32_t GetHandle() const;

  private:
    uint32_t m_handle; //!< number on the NIC
};

} // namespace ns3

#endif // RDMA_PROTECTION_DOMAIN_H
