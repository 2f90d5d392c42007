/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_RCCC_RATE_CONTROL_H
#define RDMA_RCCC_RATE_CONTROL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RCCC's receiver-side rate control for an oversubscribed fabric
 * (htsim_uec's OversubscribedCC, which it turns on for RCCC alone on a
 * topology oversubscribed above 1:1): receiver credit keeps the last hop
 * from congesting, but not a core with less capacity than the hosts. Once
 * per control interval (RdmaRcccPacer: 0.75-1.25 x 1.5 base RTTs, drawn
 * each time) the receiving NIC takes, of the requests that arrived in it:
 * - the share of whole ones CE-marked, averaged: g <- (1 - ALPHA) g +
 *   ALPHA share; above TARGET_CONGESTION the rate is cut by
 *   (g - TARGET_CONGESTION) x MD of itself;
 * - the share trimmed: the rate falls by it;
 * - with neither cut, the rate rises by AI x 2^n after n intervals in a
 *   row without a CE mark (by AI if one came).
 * The rate is a share of the pacer's PullRate, between the minimum (htsim:
 * 0.9 / the oversubscription ratio) and 1.
 *
 * Simplified: htsim_uec leaves out of the trimmed share the headers trimmed
 * at the last hop (it compares hop counts; a RoCEv2 header carries no
 * such count), so here every trimmed header counts.
 */
class RdmaRcccRateControl
{
  public:
    static constexpr double TARGET_CONGESTION = 0.3; //!< htsim_uec's _target_congestion
    static constexpr double AI = 0.01;               //!< its _Ai
    static constexpr double MD = 0.5;                //!< its _Md
    static constexpr double ALPHA = 0.5;             //!< its _alpha

    /// \param minRate the lowest rate, a share of PullRate in (0, 1]
    explicit RdmaRcccRateControl(double minRate);
    /// \brief A whole request arrived. \param ce whether it was CE-marked
    void OnRequest(bool ce);
    /// \brief A trimmed request's headers arrived.
    void OnTrimmed();
    /**
     * \brief A control interval ended: update the rate from its arrivals.
     * \return the rate, a share of PullRate
     */
    double Update();
    /// \return the rate, a share of PullRate
    double GetRate() const;
    /// \return whether nothing arrived since the last Update
    bool IsQuiet() const;

  private:
    double m_minRate;         //!< the lowest rate
    double m_rate{1};         //!< the rate, a share of PullRate
    double m_g{0};            //!< the CE-marked share, averaged
    uint32_t m_increases{0};  //!< intervals in a row without a cut
    uint64_t m_requests{0};   //!< arrivals this interval, trimmed ones too
    uint64_t m_marked{0};     //!< of them CE-marked
    uint64_t m_trimmed{0};    //!< of them trimmed
};

} // namespace ns3

#endif /* RDMA_RCCC_RATE_CONTROL_H */
