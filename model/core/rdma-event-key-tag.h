/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_EVENT_KEY_TAG_H
#define RDMA_EVENT_KEY_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The event key of a frame's arrival (RdmaEventScheduler::TakeKey,
 * taken by the sender when the frame starts), carried as a packet tag with
 * a frame that QbbRemoteChannel sends to another rank; the receiving rank
 * schedules the arrival with it (RdmaEventScheduler::SetNextKey). Packet
 * tags travel in Packet::Serialize's output: 16 bytes of the MPI message
 * (ns-3.37's PacketTagList: a size word, the TypeId hash, the 8-byte key),
 * not bytes on the simulated wire.
 */
class RdmaEventKeyTag : public Tag
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaEventKeyTag();
    /// \param key the packed event key
    explicit RdmaEventKeyTag(uint64_t key);

    /// \return the packed event key
    uint64_t GetKey() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint64_t m_key{0}; //!< the packed event key
};

} // namespace ns3

#endif // RDMA_EVENT_KEY_TAG_H
