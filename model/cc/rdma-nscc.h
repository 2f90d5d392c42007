/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NSCC_H
#define RDMA_NSCC_H

#include "rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief NSCC, the network-signaled congestion control of Ultra Ethernet
 * (the UEC 1.0 specification of June 2025, its NSCC section): a sender-side
 * window, in bytes, driven by two signals per ACK, the queueing delay
 * (RTT sample - base RTT) and the ECN echo, and by trimming NAKs. The rules
 * are those of the consortium's reference model (uet-htsim, UecSrc's NSCC).
 *
 * Constants, from the network's base RTT R (RdmaCcState::m_baseRtt, the
 * fabric's longest unloaded RTT) and line rate C, against the reference
 * network of 100 Gb/s and 12 us (ReferenceRate, ReferenceRtt):
 *  - target queueing delay T = TargetQueueDelay, or TargetBaseRtts x R
 *    when 0 (1 by default; UEC's reference model takes 0.75 with trimming);
 *  - a = (C x R) / (100 Gb/s x 12 us), b = T / 12 us;
 *  - fair increase FI = FairIncrease x MSS x a, proportional gain
 *    alpha = ProportionalIncrease x MSS x a x b / T, eta = Eta x MSS x a,
 *    fast-increase scale FastIncreaseScale x a (MSS = RdmaCcState::m_mtu);
 *  - window bounds [MSS, MaxWindowBdp x BDP], BDP = C x base RTT, the base
 *    RTT lowered by any smaller sample.
 *
 * Each ACK (acked bytes, delay d = sample - base RTT, or the average delay
 * when there is no sample) updates the window by its quadrant:
 *  - no ECN, d >= T: fair increase, pending += FI x acked;
 *  - no ECN, d < T: fast increase (once a window's worth of ACKs has seen
 *    d < FastIncreaseDelay, W += acked x scale per ACK), else proportional
 *    increase, pending += alpha x acked x (T - d);
 *  - ECN, d >= T: multiplicative decrease, at most once per base RTT, by
 *    W x max(1 - Gamma (D - T) / D, 1/2) with D the average delay, if D > T;
 *  - ECN, d < T: nothing (the echo only moves the path).
 * The pending increase is applied as W += pending / W once 8 MSS have been
 * acknowledged or a base RTT has passed since the last application, which
 * also adds eta once per base RTT. The average delay D is an EWMA of the
 * samples with weight DelayEwmaWeight (a sample above T with no ECN counts
 * as R/4: delay the switches did not mark is not taken for queueing).
 *
 * Quick adapt: every base RTT + T, if a trimming NAK arrived, or a sample
 * exceeded 4 T, and the bytes acknowledged in that period are below
 * MaxWindow / 2^QuickAdaptGate, the window drops to those bytes (at least one
 * MSS), and the NAKs of the packets then in flight are not counted again.
 * A trimming NAK otherwise takes its bytes off the window. A timeout takes
 * off what was in flight. Sequence NAKs (reordering under spraying, or a
 * go-back-N loss) leave the window as it is, as in the reference model,
 * which has no such NAK.
 *
 * The window is the QP's only limit: the QP is not paced (line rate).
 */
class RdmaNscc : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaNscc();
    /**
     * \brief Copy the attributes of another instance (not its per-QP state).
     * \param other the instance to copy
     */
    RdmaNscc(const RdmaNscc& other);

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;

    /// \return the window, bytes
    double GetCwnd() const;
    /// \return the average queueing delay D
    Time GetAverageDelay() const;
    /// \return the target queueing delay T of the QP (after Init)
    Time GetTarget() const;
    /// \return the largest window, bytes: MaxWindowBdp x line rate x base RTT
    double GetMaxWindow() const;

  private:
    void DoInit(Ptr<RdmaCcState> state) override;
    void DoOnSend(Ptr<RdmaCcState> state, uint32_t bytes) override;
    void DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack) override;
    void DoOnTrimNak(Ptr<RdmaCcState> state, uint32_t bytes) override;
    void DoOnTimeout(Ptr<RdmaCcState> state) override;

    /**
     * \brief Take a delay sample into D.
     * \param delay the sample's queueing delay, seconds
     * \param ecn whether it came with an ECN echo (or a trim)
     */
    void UpdateAverage(double delay, bool ecn);
    /**
     * \brief The quick-adapt check, run before any other rule.
     * \param loss a trimming NAK is being handled
     * \param ecn the ACK echoed ECN (or it is a NAK)
     * \param delay the ACK's delay, seconds
     * \return true if the window was set here (or the ACK is ignored)
     */
    bool QuickAdapt(bool loss, bool ecn, double delay);
    /**
     * \brief Fast increase, or the proportional increase it replaces.
     * \param acked bytes acknowledged
     * \param delay the ACK's delay, seconds (below T)
     */
    void Increase(double acked, double delay);
    /// Multiplicative decrease by the average delay, once per base RTT.
    void Decrease();
    /// Apply the pending increase (and eta once per base RTT).
    void Fulfill();
    /**
     * \brief Lower the base RTT (and the BDP and largest window) to a sample.
     * \param rtt an RTT sample
     */
    void LowerBaseRtt(Time rtt);
    /**
     * \brief Keep the window in bounds and publish it.
     * \param state the QP's state
     */
    void Apply(Ptr<RdmaCcState> state);

    // Attributes.
    Time m_target;               //!< T; 0 = m_targetRtts x the base RTT
    double m_targetRtts;         //!< T in base RTTs when m_target is 0
    DataRate m_referenceRate;    //!< the reference network's rate
    Time m_referenceRtt;         //!< the reference network's RTT
    double m_fairIncrease;       //!< FI, MSS x a per acknowledged byte
    double m_propIncrease;       //!< alpha's coefficient
    double m_eta;                //!< eta, MSS x a per base RTT
    double m_fastScale;          //!< fast increase, bytes per acknowledged byte / a
    Time m_fastDelay;            //!< delay below which fast increase counts
    double m_gamma;              //!< multiplicative-decrease gain
    double m_delayWeight;        //!< the EWMA weight of D
    double m_maxWindowBdp;       //!< largest window in BDPs
    uint32_t m_quickAdaptGate;   //!< quick adapt below MaxWindow / 2^gate
    bool m_quickAdapt;           //!< quick adapt on
    uint64_t m_initialWindow;    //!< bytes; 0 = the largest window

    // Constants of the QP, from its state at Init.
    double m_lineBytesPerSec{0}; //!< C / 8
    double m_networkRtt{0};      //!< R, seconds
    double m_targetSec{0};       //!< T, seconds
    double m_mss{0};             //!< bytes
    double m_fi{0};              //!< fair increase per acknowledged byte
    double m_alpha{0};           //!< proportional gain, per second
    double m_etaBytes{0};        //!< eta, bytes
    double m_fiScale{0};         //!< fast-increase bytes per acknowledged byte
    double m_adjustBytes{0};     //!< bytes between applications of the pending increase

    // Per-QP state.
    double m_cwnd{0};          //!< window, bytes
    double m_maxWnd{0};        //!< largest window, bytes
    double m_baseRtt{0};       //!< base RTT, seconds
    double m_avgDelay{0};      //!< D, seconds
    double m_pending{0};       //!< increase waiting for Fulfill (bytes^2)
    double m_received{0};      //!< bytes acknowledged since Fulfill
    double m_achieved{0};      //!< bytes acknowledged in this quick-adapt period
    double m_fastCount{0};     //!< bytes acknowledged at a delay below FastIncreaseDelay
    bool m_increasing{false};  //!< fast increase is on
    double m_toIgnore{0};      //!< NAKed bytes quick adapt does not act on again
    double m_ignored{0};       //!< of which seen
    bool m_triggerQa{false};   //!< a trimming NAK asks for quick adapt
    Time m_qaEnd;              //!< end of the quick-adapt period (0 = none yet)
    Time m_lastDecrease;       //!< last multiplicative decrease
    Time m_lastAdjust;         //!< last application of the pending increase
    double m_inFlight{0};      //!< bytes in flight after the latest hook
};

} // namespace ns3

#endif // RDMA_NSCC_H
