/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-target-pattern.h"

#include "ns3/double.h"
#include "ns3/rdma-page-size.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTargetPattern");
NS_OBJECT_ENSURE_REGISTERED(RdmaTargetPattern);

namespace
{

/// Base page: regions and slots are multiples of it.
constexpr uint64_t PAGE = RdmaPageSize::BASE_BYTES;

/// \return n rounded up to whole pages
uint64_t
RoundUpToPage(uint64_t n)
{
    return (n + PAGE - 1) / PAGE * PAGE;
}

} // namespace

TypeId
RdmaTargetPattern::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTargetPattern")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaTargetPattern>()
            .AddAttribute("FootprintBytes",
                          "Registered memory of every host over which messages are spread, "
                          "bytes; 0 (default): one region as long as the largest message, "
                          "every message at its start.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaTargetPattern::m_footprint),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Regions",
                          "Memory regions the footprint is registered as (each its own MPT "
                          "entry and MTT range).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaTargetPattern::m_regions),
                          MakeUintegerChecker<uint32_t>(1, 1 << 16))
            .AddAttribute("Distribution",
                          "Popularity of the footprint's slots: Uniform, or Zipf "
                          "(ZipfExponent).",
                          EnumValue(RdmaTargetPattern::UNIFORM),
                          MakeEnumAccessor(&RdmaTargetPattern::m_distribution),
                          MakeEnumChecker(RdmaTargetPattern::UNIFORM,
                                          "Uniform",
                                          RdmaTargetPattern::ZIPF,
                                          "Zipf"))
            .AddAttribute("ZipfExponent",
                          "Zipf exponent s (> 0): the slot of rank k is drawn with probability "
                          "proportional to 1 / k^s. Default 0.99, the YCSB skew.",
                          DoubleValue(0.99),
                          MakeDoubleAccessor(&RdmaTargetPattern::m_zipfExponent),
                          MakeDoubleChecker<double>(1e-6));
    return tid;
}

RdmaTargetPattern::RdmaTargetPattern()
    : m_footprint(0),
      m_regions(1),
      m_distribution(UNIFORM),
      m_zipfExponent(0.99),
      m_uniform(CreateObject<UniformRandomVariable>()),
      m_zipf(CreateObject<ZipfRandomVariable>())
{
}

bool
RdmaTargetPattern::IsSpread() const
{
    return m_footprint > 0;
}

uint32_t
RdmaTargetPattern::GetRegions() const
{
    return IsSpread() ? m_regions : 1;
}

uint64_t
RdmaTargetPattern::GetRegionBytes(uint64_t largestFlow) const
{
    return IsSpread() ? m_footprint / m_regions / PAGE * PAGE : largestFlow;
}

std::string
RdmaTargetPattern::Check(uint64_t largestFlow) const
{
    if (IsSpread() && GetRegionBytes(largestFlow) < RoundUpToPage(largestFlow))
    {
        return "FootprintBytes (" + std::to_string(m_footprint) + ") over Regions (" +
               std::to_string(m_regions) + ") gives regions of " +
               std::to_string(GetRegionBytes(largestFlow)) +
               " bytes, smaller than the largest message (" + std::to_string(largestFlow) +
               " bytes, rounded up to 4 KiB pages)";
    }
    return "";
}

RdmaTargetPattern::Target
RdmaTargetPattern::Draw(uint64_t size)
{
    Target t;
    if (!IsSpread())
    {
        return t;
    }
    const uint64_t slot = RoundUpToPage(std::max<uint64_t>(size, 1));
    const uint64_t perRegion = GetRegionBytes(size) / slot;
    NS_ABORT_MSG_IF(perRegion == 0, "RdmaTargetPattern::Draw: " << Check(size));
    const uint64_t slots = std::min<uint64_t>(perRegion * m_regions, UINT32_MAX);
    uint64_t k;
    if (m_distribution == ZIPF)
    {
        k = static_cast<uint64_t>(m_zipf->GetValue(static_cast<uint32_t>(slots), m_zipfExponent)) -
            1;
    }
    else
    {
        k = m_uniform->GetInteger(0, static_cast<uint32_t>(slots - 1));
    }
    t.region = static_cast<uint32_t>(k / perRegion);
    t.offset = (k % perRegion) * slot;
    return t;
}

int64_t
RdmaTargetPattern::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    m_zipf->SetStream(stream + 1);
    return 2;
}

} // namespace ns3
