/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TX_SCHEDULER_H
#define RDMA_TX_SCHEDULER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-qpn-table.h"
#include "ns3/rdma-tx-round.h"

#include <cstdint>
#include <deque>
#include <queue>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief The NIC's transmit arbiter across queue pairs: which QP builds the
 * next packet when the port can take one, and when each QP may send at all.
 *
 * Arbitration (the Mode attribute): round robin (one packet per QP per
 * turn) or deficit round robin by bytes (Shreedhar and Varghese, SIGCOMM
 * 1995, with the deficit charged after the packet as ns-3's FqCoDelQueueDisc
 * does, since a QP's next packet size is known only once it is built: a QP
 * keeps its turn while its deficit is positive and gets QuantumBytes more
 * when its turn comes round again).
 *
 * Limits from the QP's congestion control (RdmaCcState):
 *  - pacing: after a packet of b bytes started at t, the QP's next packet
 *    may start at t + b x 8 / m_rate (m_rate read when the packet is sent);
 *  - window: when m_window > 0, a QP whose m_bytesInFlight >= m_window may
 *    send only responses (ACKs, READ responses), which no window counts.
 *
 * Tenants (the ByTenant attribute): the protection domains with a QP that
 * may send take turns first, and each then gives its QPs their turns
 * (RdmaTxRound), so a tenant's share does not grow with its QP count.
 *
 * A QP that waits for its pacing time leaves the round and sits in a
 * min-heap by its time; one timer runs for the earliest of them (not one
 * event per QP), and when it expires the due QPs rejoin the round at its end
 * and the owner is asked to send (the TxReady callback). A QP with nothing
 * to send or a closed window leaves the round until Notify().
 */
class RdmaTxScheduler : public Object
{
  public:
    /// Arbitration among QPs that may send.
    enum Mode
    {
        ROUND_ROBIN,         //!< one packet per QP per turn
        DEFICIT_ROUND_ROBIN, //!< QuantumBytes per QP per turn
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaTxScheduler();
    ~RdmaTxScheduler() override;

    /**
     * \brief Set what is called when a paced QP becomes due (the owner then
     * calls Next() while its port is idle).
     * \param cb the callback
     */
    void SetTxReadyCallback(Callback<void> cb);

    /**
     * \brief Add a QP.
     * \param qp the QP (HasPacket, HasResponse are asked)
     * \param cc its congestion-control state (rate, window, bytes in flight)
     */
    void AddQp(Ptr<RdmaQueuePair> qp, Ptr<RdmaCcState> cc);
    /**
     * \brief Remove a QP (destroyed).
     * \param qpn its number
     */
    void RemoveQp(uint32_t qpn);
    /**
     * \brief A QP may have a packet to send, or its window may have opened:
     * it joins the round if it is not in it or waiting for its pacing time.
     * \param qpn the QP's number
     */
    void Notify(uint32_t qpn);
    /**
     * \brief The QP that sends next, now. QPs met on the way that cannot
     * send leave the round (paced ones to the heap, with the timer armed).
     * \return the QP, or null if none may send now
     */
    Ptr<RdmaQueuePair> Next();
    /**
     * \brief The QP returned by Next() has built a packet (or not).
     * \param qpn the QP's number
     * \param bytes the packet's bytes on the wire (its frame); 0 = nothing was built
     */
    void Sent(uint32_t qpn, uint32_t bytes);

    /**
     * \param qpn a QP's number
     * \return the earliest time its next packet may start (pacing)
     */
    Time GetNextTxTime(uint32_t qpn) const;
    /// \return times the pacing timer expired
    uint64_t GetTimerExpiries() const;

  protected:
    void DoDispose() override;

  private:
    /// Where a QP is.
    enum Where
    {
        IDLE,  //!< not in the round (nothing to send, window closed)
        READY, //!< in the round
        PACED, //!< in the heap, waiting for its pacing time
    };

    /// One QP's scheduling state.
    struct Flow
    {
        Ptr<RdmaQueuePair> qp; //!< the QP
        Ptr<RdmaCcState> cc;   //!< its congestion-control state
        Time nextTx;           //!< earliest start of its next packet
        int64_t deficit{0};    //!< DRR deficit, bytes
        Where where{IDLE};     //!< where it is
        uint32_t tenant{0};    //!< its protection domain (ByTenant)
        uint64_t gapBps{0};    //!< the rate gapTime was worked out at, bit/s
        uint32_t gapBytes{0};  //!< the packet size gapTime was worked out for
        Time gapTime;          //!< gapBytes' time at gapBps (a rate changes
                               //!< seldom next to packets sent: kept, not redone)
    };

    /// A heap entry: (time, qpn), earliest first.
    typedef std::pair<Time, uint32_t> PacedEntry;

    /// \return whether the flow has a packet its window lets out
    static bool CanSend(const Flow& f);
    /// Move due QPs from the heap to the round.
    void ReleaseDue();
    /**
     * \brief ResponsesFirst: move the first ready QP with a response due now
     * to the front of the round.
     * \param now the current time
     */
    void PromoteResponse(Time now);
    /// Arm the timer for the earliest paced QP, if it is not armed for it.
    void ArmTimer();
    /// The timer expired.
    void TimerExpired();
    /// \param byTenant the ByTenant attribute
    void SetByTenant(bool byTenant);
    /// \return the ByTenant attribute
    bool GetByTenant() const;

    Mode m_mode;                                //!< arbitration
    uint32_t m_quantum;                         //!< DRR quantum, bytes
    bool m_responsesFirst;                      //!< responses ahead of the round
    RdmaQpnTable<Flow> m_flows; //!< by QPN
    RdmaTxRound m_round;        //!< QPs in the round, next first
    std::priority_queue<PacedEntry, std::vector<PacedEntry>, std::greater<PacedEntry>>
        m_paced;                 //!< QPs waiting for pacing
    EventId m_timer;             //!< the one pacing timer
    Time m_timerAt;              //!< when it expires
    Callback<void> m_txReady;    //!< owner's send loop
    uint64_t m_timerExpiries{0}; //!< counter
};

} // namespace ns3

#endif // RDMA_TX_SCHEDULER_H
