/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TIMELY_H
#define RDMA_TIMELY_H

#include "rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief TIMELY (Mittal et al., "TIMELY: RTT-based Congestion Control for
 * the Datacenter", SIGCOMM 2015, section 4 and Algorithm 1): a rate set from
 * RTT samples and their gradient; no window.
 *
 * Once per RTT (on the first ACK with an RTT sample that acknowledges data
 * sent after the previous update, as the HPCC simulator does), with the
 * sample new_rtt:
 *  - new_rtt_diff = new_rtt - prev_rtt; prev_rtt = new_rtt;
 *  - rtt_diff = (1 - Alpha) rtt_diff + Alpha new_rtt_diff;
 *  - normalized_gradient = rtt_diff / MinRtt;
 *  - new_rtt < TLow: rate += delta;
 *  - new_rtt > THigh: rate = rate (1 - Beta (1 - THigh/new_rtt));
 *  - normalized_gradient <= 0: rate += delta;
 *  - otherwise: rate = rate (1 - Beta normalized_gradient).
 * delta is AdditiveIncrease, or HaiFactor x AdditiveIncrease (hyperactive
 * increase) once HaiThreshold increases in a row have happened; a decrease
 * resets that count. The rate stays within [MinRate, line rate]. The first
 * RTT sample only sets prev_rtt.
 */
class RdmaTimely : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaTimely();
    /**
     * \brief Copy the attributes of another instance (not its per-QP state).
     * \param other the instance to copy
     */
    RdmaTimely(const RdmaTimely& other);

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;

    /// \return rtt_diff, the EWMA of RTT differences, seconds
    double GetRttDiff() const;
    /// \return increases in a row since the last decrease
    uint32_t GetIncreaseStage() const;
    /// \return the additive step delta in use, bits per second (after Init)
    double GetAdditiveStep() const;

  private:
    void DoInit(Ptr<RdmaCcState> state) override;
    void DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack) override;

    // Attributes.
    double m_alpha;          //!< EWMA weight of the newest RTT difference
    double m_beta;           //!< multiplicative-decrease factor
    Time m_tLow;             //!< T_low
    Time m_tHigh;            //!< T_high
    Time m_minRtt;           //!< gradient normalisation
    DataRate m_delta;        //!< additive step; 0 = 10 Mb/s per 10 Gb/s of line rate
    uint32_t m_haiFactor;    //!< N, the hyperactive-increase multiple of delta
    uint32_t m_haiThreshold; //!< increases in a row before hyperactive increase
    DataRate m_minRate;      //!< floor of the rate

    // Per-QP state.
    double m_step{0};            //!< delta in use, bits per second
    bool m_haveRtt{false};       //!< prev_rtt is set
    Time m_prevRtt;              //!< prev_rtt
    double m_rttDiff{0};         //!< rtt_diff, seconds
    uint32_t m_incStage{0};      //!< increases in a row
    uint64_t m_lastUpdateSeq{0}; //!< m_sndNxt at the last update
};

} // namespace ns3

#endif // RDMA_TIMELY_H
