/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-protection-domain.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaProtectionDomain);

TypeId
RdmaProtectionDomain::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaProtectionDomain").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaProtectionDomain::RdmaProtectionDomain(uint32_t handle)
    : m_handle(handle)
{
}

uint32_t
RdmaProtectionDomain::GetHandle() const
{
    return m_handle;
}

} // namespace ns3
