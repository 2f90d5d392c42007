/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TARGET_PATTERN_H
#define RDMA_TARGET_PATTERN_H

#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Where in a responder's memory each flow's message goes: the
 * registered footprint of every host and the access pattern over it, so the
 * NIC's MTT working set is a parameter of the workload.
 *
 * With FootprintBytes 0 (the default) every host registers one region as
 * long as its largest flow and every message starts at its first byte, so a
 * NIC sees the same few pages again and again. With FootprintBytes F > 0
 * every host registers Regions memory regions of F / Regions bytes each
 * (rounded down to 4 KiB), and each flow's remote address (the WRITE or
 * READ target, the SEND's receive buffer) is drawn: one of the
 * S = floor(F / Regions / slot) x Regions slots of `slot` bytes (the flow's
 * size rounded up to 4 KiB), either uniformly (Distribution Uniform) or with
 * Zipf popularity, P(slot of rank k) proportional to 1 / k^ZipfExponent
 * (Distribution Zipf; ranks are slots in address order, so rank 1 is the
 * first slot of the first region), from the pattern's own random stream.
 * The MTT working set is then about min(F, touched slots x slot) / page
 * size entries. Requesters read or place their side of each message at the
 * start of their first region.
 */
class RdmaTargetPattern : public Object
{
  public:
    /// Popularity of slots.
    enum Distribution
    {
        UNIFORM, //!< every slot equally likely
        ZIPF,    //!< slot of rank k with probability ~ 1 / k^s
    };

    /// A drawn target.
    struct Target
    {
        uint32_t region{0}; //!< index of the region
        uint64_t offset{0}; //!< bytes from the region's start
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaTargetPattern();

    /// \return whether FootprintBytes > 0
    bool IsSpread() const;
    /// \return regions each host registers (1 unless spread)
    uint32_t GetRegions() const;
    /**
     * \param largestFlow bytes of the largest message a host takes part in
     * \return bytes of each region a host registers
     */
    uint64_t GetRegionBytes(uint64_t largestFlow) const;
    /**
     * \brief Check the pattern can hold a workload.
     * \param largestFlow bytes of the largest message
     * \return an empty string, or why not (naming the attribute)
     */
    std::string Check(uint64_t largestFlow) const;
    /**
     * \brief Draw a message's target.
     * \param size the message's bytes
     * \return region 0 offset 0 unless spread; else a slot as the class says
     */
    Target Draw(uint64_t size);

    /**
     * \brief Fix the random stream.
     * \param stream stream index
     * \return streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    uint64_t m_footprint;                 //!< FootprintBytes
    uint32_t m_regions;                   //!< Regions
    Distribution m_distribution;          //!< Distribution
    double m_zipfExponent;                //!< ZipfExponent
    Ptr<UniformRandomVariable> m_uniform; //!< uniform slots
    Ptr<ZipfRandomVariable> m_zipf;       //!< Zipf ranks (made for a slot count)
};

} // namespace ns3

#endif // RDMA_TARGET_PATTERN_H
