/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ECN_MARKER_H
#define RDMA_ECN_MARKER_H

#include "switch-ecn-params.h"

#include "ns3/object.h"
#include "ns3/rdma-wire.h"

#include <array>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief The ECN marking policy of one switch egress port: RED on the
 * instantaneous bytes of the frame's class queue, as DCQCN's congestion
 * point does (Zhu et al., SIGCOMM 2015, section 3.1): probability 0 at or
 * below Kmin, rising linearly to Pmax at Kmax, 1 above Kmax
 * (SwitchEcnParams::MarkProbability), each class with its own parameters.
 *
 * Where the queue is looked at is the port's choice (QbbEgressQueue): as
 * the frame joins it, or as it leaves it (the bytes still queued behind it),
 * which is what shared-buffer switch ASICs and the HPCC simulator do
 * (RdmaSwitch::EcnAtDequeue). Only ECN-capable frames (ECT(0)/ECT(1), RFC
 * 3168 section 5) are marked.
 */
class RdmaEcnMarker : public Object
{
  public:
    /// Why a frame was marked (the queue's Mark trace).
    enum MarkReason
    {
        UNFORCED_MARK = 0, //!< Kmin < q < Kmax and the draw fell below p(q) (as ns-3's RED names it)
        FORCED_MARK,       //!< q at or above Kmax: p = 1
        NO_MARK,           //!< not marked (not a reason; what ShouldMark returns otherwise)
    };

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaEcnMarker();
    ~RdmaEcnMarker() override;

    /**
     * \brief Set one class's parameters.
     * \param cls class 0-7 (aborts otherwise)
     * \param params Kmin <= Kmax, 0 <= Pmax <= 1 (aborts otherwise)
     */
    void SetParams(uint8_t cls, const SwitchEcnParams& params);
    /**
     * \param cls class 0-7 (aborts otherwise)
     * \return its parameters
     */
    const SwitchEcnParams& GetParams(uint8_t cls) const;
    /**
     * \brief Draw from this stream (a switch's ports share one, so that the
     * draws follow the frames' order across the switch).
     * \param rng the stream
     */
    void SetRandomVariable(Ptr<UniformRandomVariable> rng);

    /**
     * \brief Decide whether to mark a frame, drawing only when 0 < p < 1.
     * \param cls its class
     * \param queueBytes the class queue's bytes the decision looks at
     * \return UNFORCED_MARK, FORCED_MARK or NO_MARK
     */
    MarkReason ShouldMark(uint8_t cls, uint64_t queueBytes) const;

  protected:
    void DoDispose() override;

  private:
    std::array<SwitchEcnParams, RdmaWire::NUM_CLASSES> m_params; //!< per class
    mutable Ptr<UniformRandomVariable> m_rng; //!< marking draws (its own made at the first draw)
};

} // namespace ns3

#endif // RDMA_ECN_MARKER_H
