/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGESTION_OPS_H
#define RDMA_CONGESTION_OPS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The congestion-control state of one sending QP, read and written by
 * its RdmaCongestionOps (as TcpSocketState is by TcpCongestionOps), so a unit
 * test drives an algorithm without a network.
 *
 * The QP's owner sets the path's constants (m_lineRate, m_mtu, m_baseRtt)
 * before RdmaCongestionOps::Init. The algorithm's output is m_rate and
 * m_window; the transmit scheduler obeys both:
 *  - it starts a packet of b bytes no sooner than b/m_rate after the start
 *    of the QP's previous packet (pacing), and
 *  - when m_window > 0, it starts a packet only while m_bytesInFlight <
 *    m_window (so a window below one MTU still lets one packet out: the
 *    HPCC simulator's rule), or, with m_wholePacketWindow, only when a full
 *    packet fits: m_bytesInFlight + m_mtu <= m_window, or nothing is in
 *    flight (UE 1.0's NSCC; uet-htsim's UecSrc::can_send_NSCC).
 *
 * The byte counters are kept by RdmaCongestionOps' public hooks: an
 * algorithm reads them, and only the owner's loss recovery may overwrite
 * m_bytesInFlight (for instance from its PSN window) before calling a hook.
 * Every "byte" here is a byte the window counts; the owner counts payload
 * bytes or wire bytes, consistently.
 */
class RdmaCcState : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCcState();

    // Path constants, set by the owner before RdmaCongestionOps::Init.
    DataRate m_lineRate{DataRate(100'000'000'000ULL)}; //!< the NIC port's rate, the highest m_rate
    uint32_t m_mtu{1000};                     //!< bytes of one full packet
    Time m_baseRtt{MicroSeconds(10)};         //!< RTT of the empty path (HPCC's T), > 0

    // The algorithm's output.
    TracedValue<DataRate> m_rate;   //!< pacing rate, (0, m_lineRate]
    TracedValue<uint64_t> m_window; //!< window, bytes; 0 = no window limit
    /// m_window admits a packet only if all of it fits (set by the algorithm
    /// in Init); false: one that starts below the window may end past it
    bool m_wholePacketWindow{false};
    /// RCCC (RdmaRcccSender, kept by RdmaQpCc): no credit, so no request may
    /// start (a response still may), whatever m_rate and m_window allow
    bool m_noCredit{false};

    // Counters kept by RdmaCongestionOps' public hooks.
    uint64_t m_sndNxt{0};        //!< bytes ever sent, retransmissions included (OnSend)
    uint64_t m_sndUna{0};        //!< bytes ever acknowledged (OnAck)
    uint64_t m_bytesInFlight{0}; //!< sent and not acknowledged, bytes (0 after a timeout)
    Time m_lastRtt{0};           //!< latest RTT sample, 0 before the first
    Time m_minRtt{0};            //!< smallest RTT sample, 0 before the first

    /// \return the path's bandwidth-delay product, bytes: m_lineRate x m_baseRtt / 8
    uint64_t GetBdpBytes() const;
};

/**
 * \ingroup rdma
 * \brief One switch egress's in-band telemetry record, as an HPCC INT hop
 * (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019,
 * section 3.2 and Figure 4): stamped on the data packet as it leaves the
 * egress port and echoed by the receiver in the ACK.
 *
 * timestamp and txBytes are unwrapped from the wire's modular fields
 * against earlier records of the same slot and egress, so only records of
 * the same egress (same egressId, same place in the list) are comparable.
 */
struct RdmaIntHop
{
    DataRate linkRate;     //!< B: the egress link's rate
    Time timestamp;        //!< ts: when the packet left the egress
    uint64_t txBytes{0};   //!< txBytes: bytes the egress had sent, cumulative
    uint32_t qlenBytes{0}; //!< qLen: the egress queue's length, bytes
    uint64_t egressId{0};  //!< the egress that wrote it (IntHeader::EgressIds); 0 = unknown
};

/**
 * \ingroup rdma
 * \brief What one ACK (or the cumulative part of a NAK) tells the sender's
 * congestion control. Fields an algorithm does not use may stay at their
 * defaults.
 */
struct RdmaAckInfo
{
    uint64_t ackedBytes{0};          //!< bytes newly acknowledged by this ACK
    Time rtt{0};                     //!< RTT sample of the acknowledged packet; 0 = none
    bool ecnEcho{false};             //!< the acknowledged packet arrived CE-marked (DCTCP echo)
    std::vector<RdmaIntHop> intHops; //!< INT records, first switch first (HPCC)
    uint32_t hops{0};                //!< switches the data crossed (from TTL); 0 = intHops.size()
    Time remoteDelay{0}; //!< time the data spent in the receiving host before the ACK left
                         //!< (Swift's endpoint delay); 0 = unknown
};

/**
 * \ingroup rdma
 * \brief A congestion-control algorithm for RDMA queue pairs: a TypeId
 * chosen through an ObjectFactory, one instance per sending QP (Fork() the
 * configured prototype, as TcpCongestionOps::Fork), its per-QP state in an
 * RdmaCcState.
 *
 * The owner calls the public hooks; each keeps the state's byte counters
 * and RTT samples, lets the algorithm react through the matching private
 * Do* method, and keeps m_rate within (0, m_lineRate]. Algorithms that need
 * timers schedule them with the Simulator from the instance and cancel them
 * in DoDispose, so Dispose() the instance when its QP is destroyed.
 */
class RdmaCongestionOps : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCongestionOps();
    /**
     * \brief Copy the configuration (attributes) of another instance; the
     * per-QP state starts afresh at Init.
     * \param other the instance to copy
     */
    RdmaCongestionOps(const RdmaCongestionOps& other);
    ~RdmaCongestionOps() override;

    /// \return the algorithm's name (its class name)
    virtual std::string GetName() const = 0;

    /**
     * \brief Copy this instance's configuration into a new instance for
     * another QP. Call it on a prototype that has not been Init-ed.
     * \return the copy
     */
    virtual Ptr<RdmaCongestionOps> Fork() = 0;

    /**
     * \brief Whether the algorithm reads what a record per packet sent
     * gives: RdmaAckInfo's ackedBytes and rtt, and the state's m_sndUna,
     * m_bytesInFlight, m_lastRtt and m_minRtt (a window, an RTT or an ACKed
     * byte count). The default, true, keeps them (RdmaNoCc too: its state's
     * RTTs and bytes in flight are what a fixed-rate run measures). An
     * algorithm driven by CNPs, timers and bytes sent alone (DCQCN) returns
     * false: RdmaQpCc then keeps no record per unacknowledged packet (16
     * bytes each, as many as the QP has queued in the fabric) while
     * m_window is 0, and those fields stay 0.
     * \return true if the per-packet records are needed
     */
    virtual bool NeedsSendRecords() const;

    /**
     * \brief The QP starts sending: the counters of `state` are zeroed,
     * m_rate is set to the line rate, m_window to 0, then the algorithm sets
     * its starting point. Aborts if the line rate, MTU or base RTT is zero.
     * \param state the QP's state, its path constants set
     */
    void Init(Ptr<RdmaCcState> state);

    /**
     * \brief A packet left: m_sndNxt and m_bytesInFlight grow by `bytes`.
     * \param state the QP's state
     * \param bytes the packet's bytes
     */
    void OnSend(Ptr<RdmaCcState> state, uint32_t bytes);

    /**
     * \brief An ACK arrived (for a NAK, call this with its cumulative part
     * first, then OnNak): m_sndUna grows and m_bytesInFlight shrinks by
     * ack.ackedBytes, an RTT sample updates m_lastRtt and m_minRtt.
     * \param state the QP's state
     * \param ack what the ACK tells
     */
    void OnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack);

    /**
     * \brief A congestion notification packet (RoCEv2 CNP, IBA Annex A17.9)
     * for this QP arrived.
     * \param state the QP's state
     */
    void OnCnp(Ptr<RdmaCcState> state);

    /**
     * \brief A sequence NAK reported a lost packet (a loss signal).
     * \param state the QP's state
     */
    void OnNak(Ptr<RdmaCcState> state);

    /**
     * \brief A NAK reported a request that a switch trimmed (AETH NAK code
     * NAK_TRIMMED, the NACK of UEC 1.0's trimming): its bytes are lost and
     * the sender knows it at once. The owner takes the trimmed request out
     * of m_bytesInFlight before the call.
     * \param state the QP's state
     * \param bytes the trimmed request's bytes
     */
    void OnTrimNak(Ptr<RdmaCcState> state, uint32_t bytes);

    /**
     * \brief The QP's ACK timer expired: nothing is taken to be in flight
     * any more (m_bytesInFlight = 0), then the algorithm reacts.
     * \param state the QP's state
     */
    void OnTimeout(Ptr<RdmaCcState> state);

  protected:
    /**
     * \brief Set m_rate to `bps` rounded, within [1 b/s, m_lineRate].
     * \param state the QP's state
     * \param bps the new rate, bits per second
     */
    static void SetRate(Ptr<RdmaCcState> state, double bps);

  private:
    /**
     * \brief Bring m_rate back into [1 b/s, m_lineRate] if an algorithm
     * left it outside.
     * \param state the QP's state
     */
    static void KeepRateInRange(Ptr<RdmaCcState> state);
    /**
     * \brief The algorithm's part of Init; the default does nothing (line
     * rate, no window).
     * \param state the QP's state
     */
    virtual void DoInit(Ptr<RdmaCcState> state);
    /**
     * \brief The algorithm's part of OnSend; the default does nothing.
     * \param state the QP's state
     * \param bytes the packet's bytes
     */
    virtual void DoOnSend(Ptr<RdmaCcState> state, uint32_t bytes);
    /**
     * \brief The algorithm's part of OnAck; the default does nothing.
     * \param state the QP's state, its counters already updated
     * \param ack what the ACK tells
     */
    virtual void DoOnAck(Ptr<RdmaCcState> state, const RdmaAckInfo& ack);
    /**
     * \brief The algorithm's part of OnCnp; the default does nothing.
     * \param state the QP's state
     */
    virtual void DoOnCnp(Ptr<RdmaCcState> state);
    /**
     * \brief The algorithm's part of OnNak; the default does nothing.
     * \param state the QP's state
     */
    virtual void DoOnNak(Ptr<RdmaCcState> state);
    /**
     * \brief The algorithm's part of OnTrimNak; the default does nothing
     * (the receiver's notification point has already treated the trimmed
     * request as CE-marked).
     * \param state the QP's state
     * \param bytes the trimmed request's bytes
     */
    virtual void DoOnTrimNak(Ptr<RdmaCcState> state, uint32_t bytes);
    /**
     * \brief The algorithm's part of OnTimeout; the default does nothing.
     * \param state the QP's state
     */
    virtual void DoOnTimeout(Ptr<RdmaCcState> state);
};

/**
 * \ingroup rdma
 * \brief No congestion control: the QP sends at line rate with no window,
 * for PFC-only studies (the "none" choice).
 */
class RdmaNoCc : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaNoCc();
    /**
     * \brief Copy constructor.
     * \param other the instance to copy
     */
    RdmaNoCc(const RdmaNoCc& other);
    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() override;
};

} // namespace ns3

#endif // RDMA_CONGESTION_OPS_H
