/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HPCC_H
#define RDMA_HPCC_H

#include "rdma-congestion-ops.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief HPCC (Li et al., "HPCC: High Precision Congestion Control",
 * SIGCOMM 2019, section 3.3 and Algorithm 1): a window computed from the
 * INT records that switches stamp on each data packet and the receiver
 * echoes in its ACK; the QP is paced at W/T as well.
 *
 * With T the base RTT (RdmaCcState::m_baseRtt), on each ACK carrying INT:
 *  - per hop j, from this ACK's record and the reference record of hop j's
 *    egress (the last record of the same slot and egress,
 *    RdmaIntHop::egressId; with one path per QP, the previous ACK's hop j):
 *    txRate_j = delta txBytes_j / delta ts_j and
 *    U_j = min(qLen_j, previous qLen_j) / (B_j T) + txRate_j / B_j
 *    (Algorithm 1 takes the smaller of the two queue lengths);
 *  - U = (1 - tau/T) U + (tau/T) max_j U_j, tau = min(delta ts of the
 *    hop with the largest U_j, T) (the EWMA over T);
 *  - if U >= eta or incStage >= MaxStage: W = W_c / (U/eta) + W_AI,
 *    else W = W_c + W_AI; the reference window W_c (and incStage: reset to
 *    0 after a multiplicative step, else + 1) is updated only by the first
 *    ACK that acknowledges data sent after the previous update (once per
 *    RTT); other ACKs compute W from W_c without changing it (fast
 *    reaction, FastReact);
 *  - window = W, rate = W / T; W stays within [MinRate x T, B_NIC x T].
 *
 * W starts at W_init = B_NIC x T (line rate, section 3.3) and U at 1 (as the
 * HPCC simulator's QPs). The first ACK with INT, or one whose hop count
 * differs from the previous one's (a path change), only records the hops.
 * W_AI = RateAi x T.
 *
 * Algorithm 1 compares hop j of consecutive ACKs, which assumes that all
 * of a QP's packets take one path. When they are spread over paths (spray,
 * nic.Entropy packet or flowlet), consecutive ACKs carry records of
 * different egresses in the same slot; comparing those gives meaningless
 * rates. So each hop is compared with the last record of its own egress,
 * and a hop whose egress has no record yet gives no measurement: U then
 * follows the most utilized egress among those the ACKs report (a port's
 * rate is measured over the time since this QP's last packet through it).
 */
class RdmaHpcc : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaHpcc();
    /**
     * \brief Copy the attributes of another instance (not its per-QP state).
     * \param other the instance to copy
     */
    RdmaHpcc(const RdmaHpcc& other);

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;

    /// \return the normalized inflight estimate U (EWMA)
    double GetUtilization() const;
    /// \return the reference window W_c, bytes
    double GetReferenceWindow() const;
    /// \return the current window W, bytes (before rounding)
    double GetWindow() const;
    /// \return the additive-increase step W_AI, bytes (after Init)
    double GetWindowAi() const;
    /// \return incStage, additive steps since the last multiplicative one
    uint32_t GetIncreaseStage() const;

  private:
    void DoInit(Ptr<RdmaCcState> state) override;
    void DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack) override;

    /**
     * \brief Algorithm 1's MeasureInflight: update U from the ACK's INT.
     * \param state the QP's state
     * \param hops the ACK's INT records, as many as the previous ACK's
     * \return whether any hop gave a measurement (a reference record of its
     *         egress and a positive time delta)
     */
    bool MeasureInflight(Ptr<const RdmaCcState> state, const std::vector<RdmaIntHop>& hops);
    /**
     * \param slot the hop's place in the ACK's records
     * \param egressId the egress that wrote it
     * \return the index in m_refs of that slot and egress's last record, or
     *         m_refs.size() if there is none
     */
    std::size_t FindReference(std::size_t slot, uint64_t egressId) const;
    /**
     * \brief Make each of the ACK's records its egress's reference.
     * \param hops the ACK's INT records
     */
    void KeepReferences(const std::vector<RdmaIntHop>& hops);
    /**
     * \brief Algorithm 1's ComputeWind.
     * \param updateWc whether W_c and incStage take the new value
     * \return the new window W, bytes, within its bounds
     */
    double ComputeWind(bool updateWc);

    // Attributes.
    double m_eta;        //!< target utilization eta
    uint32_t m_maxStage; //!< additive steps before a multiplicative one
    DataRate m_rateAi;   //!< W_AI / T; 0 = 10 Mb/s per 25 Gb/s of line rate
    bool m_fastReact;    //!< per-ACK reaction between reference updates
    DataRate m_minRate;  //!< floor of W / T

    // Per-QP state.
    double m_u{1};                  //!< U
    double m_wc{0};                 //!< W_c, bytes
    double m_w{0};                  //!< W, bytes
    double m_wInit{0};              //!< W_init = B_NIC x T, bytes
    double m_wMin{0};               //!< MinRate x T, bytes
    double m_wAi{0};                //!< W_AI, bytes
    uint32_t m_incStage{0};         //!< incStage
    uint64_t m_lastUpdateSeq{0};    //!< m_sndNxt at the last W_c update
    /// The last record seen of one egress in one slot.
    struct Reference
    {
        std::size_t slot; //!< place in the ACK's records
        RdmaIntHop hop;   //!< the record (hop.egressId: its egress)
    };

    std::vector<Reference> m_refs; //!< per (slot, egress) seen since the last path change
    std::size_t m_prevHops{0};     //!< the previous ACK's record count
    bool m_havePrev{false};        //!< an ACK with INT has been seen
};

} // namespace ns3

#endif // RDMA_HPCC_H
