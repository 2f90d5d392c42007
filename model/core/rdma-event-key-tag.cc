/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-event-key-tag.h"

#include "rdma-event-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaEventKeyTag);

TypeId
RdmaEventKeyTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEventKeyTag")
                            .SetParent<Tag>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaEventKeyTag>();
    return tid;
}

TypeId
RdmaEventKeyTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaEventKeyTag::RdmaEventKeyTag() = default;

RdmaEventKeyTag::RdmaEventKeyTag(uint64_t key)
    : m_key(key)
{
}

uint64_t
RdmaEventKeyTag::GetKey() const
{
    return m_key;
}

uint32_t
RdmaEventKeyTag::GetSerializedSize() const
{
    return sizeof(m_key);
}

void
RdmaEventKeyTag::Serialize(TagBuffer i) const
{
    i.WriteU64(m_key);
}

void
RdmaEventKeyTag::Deserialize(TagBuffer i)
{
    m_key = i.ReadU64();
}

void
RdmaEventKeyTag::Print(std::ostream& os) const
{
    os << "origin=" << RdmaEventScheduler::GetOrigin(m_key)
       << " seq=" << RdmaEventScheduler::GetSequence(m_key);
}

} // namespace ns3
