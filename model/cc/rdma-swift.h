/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SWIFT_H
#define RDMA_SWIFT_H

#include "rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Swift (Kumar et al., "Swift: Delay is Simple and Effective for
 * Congestion Control in the Datacenter", SIGCOMM 2020, sections 3.1-3.5 and
 * Algorithm 1): a delay-based window, in packets (fractional), with a
 * fabric part and a host (endpoint) part.
 *
 * Each ACK with an RTT sample splits it into the host delay (the ACK's
 * remoteDelay) and the fabric delay (RTT - host delay), and updates two
 * windows with the same rule against their own targets:
 *  - fabric target = BaseTarget + hops x PerHopDelay + flow-scaling delay,
 *    the flow-scaling delay being clamp(a / sqrt(fcwnd) + b, 0, FsRange)
 *    with a = FsRange / (1/sqrt(FsMinCwnd) - 1/sqrt(FsMaxCwnd)) and
 *    b = -a / sqrt(FsMaxCwnd) (section 3.5); hops = RdmaAckInfo::hops, or
 *    the number of INT records if that is 0;
 *  - host target = HostTarget (the endpoint window is only updated by ACKs
 *    that carry a remoteDelay);
 *  - delay < target: cwnd += Ai x acked / cwnd when cwnd >= 1, else
 *    cwnd += Ai x acked (acked in packets of one MTU);
 *  - otherwise, if the last decrease of that window is at least one RTT
 *    old: cwnd = cwnd max(1 - Beta (delay - target) / delay, 1 - MaxMdf).
 * The QP's window is min(fabric, host) x MTU bytes, at least 1 byte. Below
 * one packet the QP is paced: rate = cwnd x MTU / RTT (one packet every
 * RTT / cwnd); otherwise it runs at line rate. A NAK (fast retransmit)
 * cuts the fabric window by MaxMdf at most once per RTT; a timeout does the
 * same, and RetxResetThreshold timeouts in a row set both windows to MinCwnd.
 * The window stays at least MinCwnd packets.
 */
class RdmaSwift : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaSwift();
    /**
     * \brief Copy the attributes of another instance (not its per-QP state).
     * \param other the instance to copy
     */
    RdmaSwift(const RdmaSwift& other);

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;

    /// \return the QP's window, packets: min(fabric, host)
    double GetCwnd() const;
    /// \return the fabric window, packets
    double GetFabricCwnd() const;
    /// \return the host (endpoint) window, packets; infinity until an ACK carries a remoteDelay
    double GetHostCwnd() const;
    /**
     * \param cwnd a window, packets
     * \return the flow-scaling delay for that window, in [0, FsRange]
     */
    Time GetFlowScalingDelay(double cwnd) const;
    /**
     * \param hops switches on the path
     * \return the fabric target for the current fabric window
     */
    Time GetFabricTarget(uint32_t hops) const;

  private:
    void DoInit(Ptr<RdmaCcState> state) override;
    void DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack) override;
    void DoOnNak(Ptr<RdmaCcState> state) override;
    void DoOnTimeout(Ptr<RdmaCcState> state) override;

    /// One of Swift's two windows.
    struct Window
    {
        double cwnd{1};        //!< packets
        Time lastDecrease;     //!< when it last decreased
        bool decreased{false}; //!< it has decreased at least once
    };

    /**
     * \brief Algorithm 1's update of one window from one delay sample.
     * \param w the window
     * \param delay the measured delay, seconds
     * \param target its target, seconds
     * \param ackedPackets packets acknowledged
     * \param rtt the RTT that spaces decreases
     */
    void Update(Window& w, double delay, double target, double ackedPackets, Time rtt) const;
    /**
     * \param cwnd a window, packets
     * \param hops switches on the path
     * \return the fabric target for that window, seconds (not rounded to
     * the time resolution)
     */
    double FabricTargetSeconds(double cwnd, uint32_t hops) const;
    /**
     * \param cwnd a window, packets
     * \return the flow-scaling delay for that window, seconds
     */
    double FlowScalingSeconds(double cwnd) const;
    /**
     * \brief Multiply a window by (1 - MaxMdf) if a decrease is allowed.
     * \param w the window
     * \param rtt the RTT that spaces decreases
     */
    void CutByMaxMdf(Window& w, Time rtt) const;
    /**
     * \param w a window
     * \param rtt the RTT that spaces decreases
     * \return whether the window may decrease now (its last decrease is at
     * least one RTT old)
     */
    static bool CanDecrease(const Window& w, Time rtt);
    /**
     * \brief Publish window and pacing rate to the state.
     * \param state the QP's state
     */
    void Apply(Ptr<RdmaCcState> state);
    /**
     * \param state the QP's state
     * \return the latest RTT sample, or the base RTT before the first
     */
    static Time CurrentRtt(Ptr<const RdmaCcState> state);

    // Attributes.
    Time m_baseTarget;    //!< fabric base target
    Time m_perHopDelay;   //!< h, per switch hop
    Time m_fsRange;       //!< flow-scaling range
    double m_fsMinCwnd;   //!< window (packets) getting the whole range
    double m_fsMaxCwnd;   //!< window (packets) getting none
    Time m_hostTarget;    //!< endpoint target
    double m_ai;          //!< additive increase, packets per RTT
    double m_beta;        //!< multiplicative-decrease factor
    double m_maxMdf;      //!< largest fraction of one decrease
    double m_minCwnd;     //!< floor, packets
    double m_initialCwnd; //!< packets; 0 = the path's BDP
    uint32_t m_retxReset; //!< timeouts in a row that reset the windows

    // Per-QP state.
    Window m_fabric;        //!< fabric window
    Window m_host;          //!< host (endpoint) window
    uint32_t m_timeouts{0}; //!< timeouts in a row
};

} // namespace ns3

#endif // RDMA_SWIFT_H
