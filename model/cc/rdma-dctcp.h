/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DCTCP_H
#define RDMA_DCTCP_H

#include "rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A DCTCP-style ECN window for RDMA (Alizadeh et al., "Data Center
 * TCP (DCTCP)", SIGCOMM 2010, section 3.1; RFC 8257 section 3.3), driven by
 * the ECN-echo flag of each ACK (RdmaAckInfo::ecnEcho, the acknowledged
 * bytes arrived CE-marked). The QP sends at line rate within the window.
 *
 * An observation window starts at the first ACK and ends when every byte
 * sent before it started has been acknowledged (m_sndUna >= the m_sndNxt
 * recorded at its start, as Linux tcp_dctcp.c). At its end, with F the
 * fraction of its acknowledged bytes that were marked:
 * alpha = (1 - G) alpha + G F; and if no ACK in it echoed ECN, the window
 * grows by one MTU (additive increase, one MTU per RTT). The first ACK that
 * echoes ECN cuts the window, W = W (1 - alpha/2), and no further cut
 * happens until the data sent before that cut is acknowledged (once per
 * window, RFC 8257 section 3.3). A NAK (loss) halves the window under the
 * same once-per-window rule, a timeout sets it to one MTU (conventional TCP
 * reaction, RFC 8257 section 3.5). The window never falls below one MTU.
 */
class RdmaDctcp : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaDctcp();
    /**
     * \brief Copy the attributes of another instance (not its per-QP state).
     * \param other the instance to copy
     */
    RdmaDctcp(const RdmaDctcp& other);

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;

    /// \return alpha, the estimated fraction of marked bytes
    double GetAlpha() const;
    /// \return the window, bytes (before rounding)
    double GetCwnd() const;

  private:
    void DoInit(Ptr<RdmaCcState> state) override;
    void DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack) override;
    void DoOnNak(Ptr<RdmaCcState> state) override;
    void DoOnTimeout(Ptr<RdmaCcState> state) override;

    /**
     * \brief Cut the window to `factor` of itself unless a cut is already
     * in effect for the data in flight.
     * \param state the QP's state
     * \param factor the multiplier, in (0, 1]
     */
    void Reduce(Ptr<RdmaCcState> state, double factor);
    /**
     * \brief Publish the window to the state.
     * \param state the QP's state
     */
    void Apply(Ptr<RdmaCcState> state) const;

    // Attributes.
    double m_g;               //!< alpha gain
    double m_initialAlpha;    //!< alpha at Init
    uint64_t m_initialWindow; //!< bytes; 0 = the path's BDP

    // Per-QP state.
    double m_alpha{1};           //!< alpha
    double m_cwnd{0};            //!< window, bytes
    uint64_t m_ackedBytes{0};    //!< bytes acknowledged in the observation window
    uint64_t m_markedBytes{0};   //!< of which echoed ECN
    bool m_eceInWindow{false};   //!< an ACK in the observation window echoed ECN
    bool m_windowStarted{false}; //!< an observation window is open
    uint64_t m_windowEnd{0};     //!< m_sndNxt when the observation window started
    bool m_inCwr{false};         //!< a cut is in effect
    uint64_t m_cwrEnd{0};        //!< m_sndNxt at the cut
};

} // namespace ns3

#endif // RDMA_DCTCP_H
