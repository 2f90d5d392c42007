/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-ecn-marker.h"

#include "ns3/abort.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaEcnMarker);

TypeId
RdmaEcnMarker::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEcnMarker")
                            .SetParent<Object>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaEcnMarker>();
    return tid;
}

RdmaEcnMarker::RdmaEcnMarker() = default;

RdmaEcnMarker::~RdmaEcnMarker() = default;

void
RdmaEcnMarker::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

void
RdmaEcnMarker::SetParams(uint8_t cls, const SwitchEcnParams& params)
{
    NS_ABORT_MSG_IF(cls >= RdmaWire::NUM_CLASSES,
                    "RdmaEcnMarker::SetParams: class " << +cls << " is not 0-7");
    NS_ABORT_MSG_IF(params.kmaxBytes < params.kminBytes || params.pmax < 0 || params.pmax > 1,
                    "RdmaEcnMarker::SetParams: need Kmin <= Kmax and 0 <= Pmax <= 1");
    m_params[cls] = params;
}

const SwitchEcnParams&
RdmaEcnMarker::GetParams(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= RdmaWire::NUM_CLASSES,
                    "RdmaEcnMarker::GetParams: class " << +cls << " is not 0-7");
    return m_params[cls];
}

void
RdmaEcnMarker::SetRandomVariable(Ptr<UniformRandomVariable> rng)
{
    m_rng = rng;
}

RdmaEcnMarker::MarkReason
RdmaEcnMarker::ShouldMark(uint8_t cls, uint64_t queueBytes) const
{
    const double p = m_params[cls].MarkProbability(queueBytes);
    if (p >= 1)
    {
        return FORCED_MARK;
    }
    if (p > 0 && !m_rng)
    {
        // A marker on its own draws from its own stream, made at its first
        // draw; a switch gives its markers one (SetRandomVariable).
        m_rng = CreateObject<UniformRandomVariable>();
    }
    if (p > 0 && m_rng->GetValue() < p)
    {
        return UNFORCED_MARK;
    }
    return NO_MARK;
}

} // namespace ns3
