/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DCQCN_H
#define RDMA_DCQCN_H

#include "rdma-congestion-ops.h"

#include "ns3/attribute.h"
#include "ns3/event-id.h"
#include "ns3/object-factory.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief DCQCN's reaction point (Zhu et al., "Congestion Control for
 * Large-Scale RDMA Deployments", SIGCOMM 2015, section 3.1), a rate-based
 * algorithm driven by CNPs; no window.
 *
 * With current rate RC, target rate RT and congestion estimate alpha:
 *  - rate decrease, on a CNP (eq. 1): RT = RC; RC = RC (1 - alpha/2);
 *    alpha = (1 - g) alpha + g; the increase counters are reset and the
 *    increase timer restarts. RC never falls below MinRate.
 *  - alpha decay (eq. 2): each AlphaUpdateInterval K without a CNP,
 *    alpha = (1 - g) alpha.
 *  - rate increase events come from the timer (every TimeReset T) and from
 *    the byte counter (every ByteReset B bytes sent). With T and BC the
 *    timer and byte events since the last decrease, this one included, and
 *    F = Threshold: fast recovery while max(T, BC) <= F (RC = (RT + RC)/2);
 *    hyper increase when min(T, BC) > F (RT += i HaiRate with
 *    i = min(T, BC) - F; RC = (RT + RC)/2); additive increase otherwise
 *    (RT += AiRate; RC = (RT + RC)/2). RT never exceeds
 *    the line rate; increases stop once RC is back at the line rate.
 *
 * The attribute defaults are the paper's; SetNvidiaFirmwareDefaults() applies
 * NVIDIA ConnectX firmware defaults instead (mlxconfig names in the help
 * texts; the defaults of NVIDIA's "DCQCN CC Parameters" table, ConnectX-4
 * and later), which differ in three rules the attributes also select:
 *  - AlphaUpdate "Periodic": every K (DCE_TCP_RTT), alpha = (1 - g) alpha + g
 *    if a CNP arrived in that interval, else (1 - g) alpha;
 *  - RateReduceMonitorPeriod: at most one decrease per period; a CNP within
 *    the period after a decrease is acted on at the period's end;
 *  - ClampTargetRate false (CLAMP_TGT_RATE=0, CLAMP_TGT_RATE_AFTER_TIME_INC=1):
 *    a decrease sets RT = RC only if a timer increase event happened since
 *    the previous decrease.
 *
 * Alpha is kept lazily: its timer events are computed when alpha is read
 * (at a CNP, a decrease or GetAlpha), which gives the same values as a
 * timer firing every K but costs no events. The clock of alpha starts at
 * the QP's first CNP; until then alpha is InitialAlpha. The increase timer
 * is a real Simulator event, running only while RC is below the line rate.
 * With ByteReset 0 the byte counter is off, BC stays 0 and hyper increase
 * is never reached (both counters must pass F, as in the paper).
 *
 * IncreaseRule "TimerOnly" is the HPCC simulator's rule
 * (RdmaHw::RateIncEventMlx in simulation/src/point-to-point/model/rdma-hw.cc
 * of github.com/alibaba-edu/High-Precision-Congestion-Control; it keeps no
 * byte counter): after the T-th timer event since the last decrease, fast
 * recovery while T <= F, additive increase at T = F + 1, hyper increase
 * (RT += R_HAI, once per event) from T = F + 2.
 */
class RdmaDcqcn : public RdmaCongestionOps
{
  public:
    /// How alpha is updated.
    enum AlphaUpdateMode
    {
        ALPHA_ON_CNP,   //!< paper: alpha rises at each CNP, decays after each K without one
        ALPHA_PERIODIC, //!< firmware: every K, rises if a CNP arrived in the interval, else decays
    };

    /// Which counters choose the increase phase.
    enum IncreaseRule
    {
        INCREASE_PAPER,      //!< paper: timer T and byte counter BC, i x R_HAI in hyper increase
        INCREASE_TIMER_ONLY, //!< HPCC simulator: timer only; AI at T = F + 1, one R_HAI after
    };

    /// When a CNP's rate decrease happens.
    enum DecreaseTiming
    {
        DECREASE_ON_CNP,   //!< at the CNP, or when RateReduceMonitorPeriod has passed since the last
        DECREASE_PERIODIC, //!< HPCC simulator: at checks every period from the first CNP
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaDcqcn();
    /**
     * \brief Copy the attributes of another instance (not its per-QP state).
     * \param other the instance to copy
     */
    RdmaDcqcn(const RdmaDcqcn& other);
    ~RdmaDcqcn() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;
    /// \return false: DCQCN reacts to CNPs, its timer and bytes sent (Zhu
    /// et al., SIGCOMM 2015, section 5), never to ACKs
    bool NeedsSendRecords() const override;

    /**
     * \brief NVIDIA ConnectX firmware defaults as attribute values: the
     * defaults of NVIDIA's "DCQCN CC Parameters" table, ConnectX-4 and later
     * (NVIDIA networking documentation; RPG_TIME_RESET=300 us,
     * RPG_BYTE_RESET=32767 B, RPG_THRESHOLD=1, RPG_AI_RATE=5 Mb/s,
     * RPG_HAI_RATE=50 Mb/s, RPG_MIN_RATE=1 Mb/s, DCE_TCP_RTT=1 us,
     * DCE_TCP_G=1019, INITIAL_ALPHA_VALUE=1023, RATE_REDUCE_MONITOR_PERIOD=4 us,
     * CLAMP_TGT_RATE=0 with CLAMP_TGT_RATE_AFTER_TIME_INC=1).
     * DCE_TCP_G=1019 is read as the weight of the old alpha in 1024ths,
     * g = 5/1024 (the firmware's formula is not in our sources).
     * \return (attribute name, value) pairs
     */
    static std::vector<std::pair<std::string, Ptr<AttributeValue>>> NvidiaFirmwareDefaults();
    /**
     * \brief Set the NVIDIA firmware defaults on a factory that makes
     * RdmaDcqcn instances.
     * \param factory the factory, its TypeId set to ns3::RdmaDcqcn
     */
    static void SetNvidiaFirmwareDefaults(ObjectFactory& factory);
    /// \brief Set this instance's attributes to the NVIDIA firmware defaults.
    void SetNvidiaFirmwareDefaults();

    /// \return alpha now (its decay events up to Simulator::Now() applied)
    double GetAlpha() const;
    /// \return the target rate RT
    DataRate GetTargetRate() const;
    /// \return timer increase events since the last decrease (T)
    uint32_t GetTimerStage() const;
    /// \return byte-counter increase events since the last decrease (BC)
    uint32_t GetByteStage() const;
    /// \return rate decreases so far
    uint64_t GetDecreaseCount() const;

  protected:
    void DoDispose() override;

  private:
    void DoInit(Ptr<RdmaCcState> state) override;
    void DoOnSend(Ptr<RdmaCcState> state, uint32_t bytes) override;
    void DoOnCnp(Ptr<RdmaCcState> state) override;

    /**
     * \param now a time not before the last alpha event
     * \return alpha at `now`
     */
    double AlphaAt(Time now) const;
    /**
     * \brief Apply alpha's timer events up to `now`.
     * \param now the current time
     */
    void AdvanceAlpha(Time now);
    /// \brief Cut the rate now (eq. 1) and restart the increase process.
    void DecreaseRate();
    /// \brief A decrease held back by RateReduceMonitorPeriod is due.
    void DeferredDecrease();
    /**
     * \brief DecreaseTiming Periodic: note the CNP and make sure the next
     * check of the QP's grid is scheduled.
     * \param now the CNP's arrival
     */
    void NoteCnpForPeriodicCheck(Time now);
    /// \brief A check of the Periodic grid: cut if a CNP arrived since the last.
    void PeriodicDecreaseCheck();
    /// \brief The increase timer T expired.
    void IncreaseTimerExpired();
    /// \brief One rate-increase event (fast recovery, additive or hyper).
    void IncreaseRate();

    // Attributes.
    double m_g;                  //!< alpha gain g
    double m_initialAlpha;       //!< alpha before the first CNP
    AlphaUpdateMode m_alphaMode; //!< paper or firmware alpha rule
    IncreaseRule m_increaseRule; //!< paper or timer-only increase phases
    DecreaseTiming m_decreaseTiming; //!< at the CNP or on the periodic grid
    Time m_alphaInterval;        //!< K
    Time m_decreasePeriod;       //!< least time between decreases; 0 = none
    bool m_clampTargetRate;      //!< RT = RC at every decrease
    Time m_timeReset;            //!< T
    uint64_t m_byteReset;        //!< B, bytes; 0 = byte counter off
    uint32_t m_threshold;        //!< F
    DataRate m_aiRate;           //!< R_AI
    DataRate m_haiRate;          //!< R_HAI
    DataRate m_minRate;          //!< floor of RC

    // Per-QP state.
    Ptr<RdmaCcState> m_state;    //!< the QP's state (for timer events)
    double m_targetRate{0};      //!< RT, bits per second
    double m_alpha{1};           //!< alpha as of m_alphaTime
    Time m_alphaTime;            //!< time of the last alpha event applied
    bool m_alphaStarted{false};  //!< a CNP has arrived, alpha's clock runs
    bool m_cnpInInterval{false}; //!< a CNP arrived in the current K (periodic mode)
    bool m_increasing{false};    //!< RC is below the line rate, increase events run
    uint32_t m_timerStage{0};    //!< T
    uint32_t m_byteStage{0};     //!< BC
    uint64_t m_bytesCounted{0};  //!< bytes sent towards the next byte-counter event
    bool m_decreased{false};     //!< a decrease has happened
    Time m_lastDecrease;         //!< when the last decrease happened
    uint64_t m_decreases{0};     //!< decreases so far
    EventId m_increaseEvent;     //!< the increase timer
    EventId m_decreaseEvent;     //!< a held-back decrease, or the next periodic check
    bool m_gridStarted{false};   //!< Periodic: the first CNP has started the grid
    Time m_gridOrigin;           //!< Periodic: checks at m_gridOrigin + k x period, k >= 1
    bool m_cnpSinceCheck{false}; //!< Periodic: a CNP arrived since the last check
};

} // namespace ns3

#endif // RDMA_DCQCN_H
