/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QP_CC_H
#define RDMA_QP_CC_H

#include "rdma-cnp-generator.h"
#include "rdma-congestion-ops.h"
#include "rdma-rccc.h"

#include "ns3/int-header.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fifo.h"
#include "ns3/rdma-wire.h"

#include <cstdint>
#include <vector>

namespace ns3
{

struct RoceFrame;
class Packet;

/**
 * \ingroup rdma
 * \brief The congestion-control side of one QP on its NIC: it turns the
 * QP's packets into the hooks of the QP's RdmaCongestionOps (the reaction
 * point) and holds the QP's RdmaCnpGenerator (the notification point).
 *
 * Sender side. Every request packet the QP sends (SEND, WRITE, READ
 * request, atomic) is recorded by PSN with its frame bytes and send time
 * and goes to OnSend; a PSN sent again is a retransmission (no RTT sample
 * from it, Karn's rule). A response acknowledges the records it covers
 * (IBA 9.7.5.1: an ACK or NAK carries a cumulative PSN): an ACK, a READ
 * response or an atomic ACK with PSN p those up to p, a NAK or RNR NAK those
 * before p. Their frame bytes are the ACK's ackedBytes; the RTT sample is
 * the time since the newest acknowledged record was sent (the packet that
 * asked for the ACK), unless it was retransmitted; ecnEcho is the BTH BECN
 * bit of the ACK (see below); intHops come from the INT records the
 * receiver echoed. A sequence NAK then calls OnNak, the QP's local ACK
 * timeout OnTimeout, a CNP for the QP OnCnp. m_bytesInFlight is kept equal
 * to the bytes of the records in flight: sent, not acknowledged, not
 * reported lost by a sequence NAK, not sent before a timeout (a record sent
 * again after a loss or a timeout counts again). A request that closes the
 * window (m_bytesInFlight >= m_window after it) is sent with AckReq set, so
 * the ACK that opens the window again comes without waiting for the QP's
 * AckReqInterval (window algorithms want AckReqInterval 1 anyway: HPCC and
 * Swift react per ACK). For an algorithm whose NeedsSendRecords() is false
 * (DCQCN) no record is kept while m_window is 0: ackedBytes, the RTT sample
 * and m_bytesInFlight stay 0, and a QP costs nothing per packet it has
 * queued.
 *
 * Receiver side. A request packet that arrives CE-marked is counted; the
 * generator decides whether a CNP goes back now (at most one per QP per
 * MinTimeBetweenCnps), and the next response the QP sends carries BECN = 1
 * (the responder's echo of FECN/CE in IB congestion control, IBA 17.9 / A10;
 * DCTCP-style algorithms read it as their ECN echo).
 *
 * Byte units: frame bytes (Ethernet header to ICRC), the same unit the
 * pacing and the window use. RdmaCcState::m_mtu is the frame size of a full
 * packet: path MTU + 58 bytes of Ethernet, IPv4, UDP, BTH and ICRC.
 */
class RdmaQpCc : public Object
{
  public:
    /// Frame bytes around a full payload: Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4.
    static constexpr uint32_t FRAME_OVERHEAD_BYTES = RdmaWire::ROCEV2_FRAME_OVERHEAD_BYTES;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaQpCc();
    ~RdmaQpCc() override;

    /**
     * \brief Set up for one QP.
     * \param ops the QP's own congestion-control instance (forked)
     * \param np the QP's own notification point (forked)
     * \param lineRate the port's rate
     * \param baseRtt RTT of the empty path (HPCC's T)
     */
    void Setup(Ptr<RdmaCongestionOps> ops,
               Ptr<RdmaCnpGenerator> np,
               DataRate lineRate,
               Time baseRtt);

    /// \return the state the algorithm writes (rate, window) and the counters
    Ptr<RdmaCcState> GetState() const;
    /// \return the algorithm
    Ptr<RdmaCongestionOps> GetCongestionOps() const;
    /// \return the notification point
    Ptr<RdmaCnpGenerator> GetCnpGenerator() const;

    /**
     * \brief The QP sent a packet. Request packets feed OnSend; a response
     * gets BECN set when a CE-marked request arrived since the last response.
     * \param frame the packet's fields, addresses filled, not yet built
     *        (BECN may be set here)
     * \param pathMtu the QP's path MTU, bytes
     */
    void OnPacketSent(RoceFrame& frame, uint32_t pathMtu, bool intEnabled = false);
    /**
     * \brief INT on: the IntHeader a packet carries (RdmaIntCodec): a
     * request an empty one, to be stamped by switches; a response the records
     * of the latest request that arrived with INT (its echo), once; other
     * responses none.
     * \param f the packet's fields
     * \param udpPort set to the header's UDP destination port
     *        (IntHeader::UDP_PORT or RdmaIntCodec::ECHO_PORT)
     * \return the header, valid until the next call, or null for none
     */
    const IntHeader* TakeInt(const RoceFrame& f, uint16_t& udpPort);
    /**
     * \param frame a packet's fields
     * \return the bytes of its Ethernet frame (header to ICRC, no FCS)
     */
    static uint32_t FrameBytes(const RoceFrame& frame);
    /**
     * \brief A packet for the QP arrived (before the QP handles it).
     * \param frame the parsed packet
     * \param ack filled here for a response: ackedBytes, rtt, ecnEcho, and
     *        intHops from the echoed records (timestamps and tx bytes
     *        unwrapped per hop, so they grow monotonically)
     * \param intHeader the INT records the frame carried, or null
     * \param sack a sequence NAK's MSN field names the PSN that arrived out
     *        of order (selective repeat's SACK, RdmaLossRecovery::
     *        ResponderKeepsOutOfOrder): that request is delivered, no longer
     *        in flight. Without it, a QP whose oldest PSN waits to be resent
     *        counts everything delivered after it as in flight, and a window
     *        below that keeps the resend, and so the QP, waiting for its timer.
     * \return true if a CNP is to be sent for it now (a CE-marked request)
     */
    bool OnPacketReceived(const RoceFrame& frame,
                          RdmaAckInfo& ack,
                          const IntHeader* intHeader = nullptr,
                          bool sack = false);
    /**
     * \brief A request for the QP arrived trimmed to its headers (QbbTrimmer):
     * a congestion signal, as NDP's and UEC's senders take a trim; to the
     * notification point it is a CE mark (and echoed as one).
     * \return true if a CNP is to be sent for it now
     */
    bool OnTrimmed();
    /**
     * \brief The QP's loss recovery found `psn` lost and queued it to be
     * sent again (its "Lost" trace): it leaves the bytes in flight until it
     * is resent, as after a trimming NAK. Without this, a QP whose window
     * its lost packets filled waited for ACKs that could not come.
     * \param psn the request's PSN
     */
    void OnLost(uint32_t psn);
    /**
     * \brief The QP's responder answered a request with a PSN-sequence NAK.
     * \return true if a CNP is to be sent for it now (the notification
     *         point's CnpOnNak)
     */
    bool OnSequenceNakSent();
    /// A CNP for this QP arrived.
    void OnCnp();
    /// The QP's local ACK timer expired.
    void OnTimeout();

    /**
     * \brief The peer's responder answers every so many bytes by itself
     * (RdmaLossRecovery::GetAckBytes): under a window, only the request
     * that fills it asks for its ACK, not every one.
     * \param on whether it does
     */
    void SetResponderCoalesces(bool on);

    /**
     * \brief Gate the QP's requests by RCCC's receiver credit (RdmaRcccSender),
     * from its first request on. Call before the QP sends.
     * \param maxCredit bytes: the speculative credit and the most held
     */
    void EnableRccc(uint64_t maxCredit);
    /// \return whether RCCC gates this QP
    bool HasRccc() const;
    /**
     * \brief A request left (after OnPacketSent): spend its credit.
     * \param frame the request (its pull target goes in the BTH's reserved bits)
     * \param unsent bytes not yet sent once, after it
     * \param resend bytes queued to be sent again
     * \param activeSenders QPs of the NIC with something to send (>= 1)
     */
    void OnRcccSend(RoceFrame& frame, uint64_t unsent, uint64_t resend, uint32_t activeSenders);
    /**
     * \brief Whether the QP should send RCCC's request to send now: it has
     * something to send and no credit, it is past speculation, and it sent
     * no request to send in the last base RTT. If so, it is noted as sent.
     * \param unsent bytes not yet sent once \param resend bytes queued to resend
     * \param activeSenders QPs of the NIC with something to send (>= 1)
     * \param target set to the pull target to carry
     * \param retry set, when only the spacing held it back, to how long
     * until it may (else zero): a response that found the QP blocked is not
     * forgotten, or the last one before the responder went quiet leaves
     * the QP to its retransmission timer
     * \return true to send one
     */
    bool TakeRcccRequest(uint64_t unsent,
                         uint64_t resend,
                         uint32_t activeSenders,
                         uint16_t& target,
                         Time& retry);
    /**
     * \brief An RCCC credit frame arrived for the QP.
     * \param wirePull its PSN field
     * \return true if the QP may now send where it could not
     */
    bool OnRcccCredit(uint32_t wirePull);

    /// Counters.
    struct Stats
    {
        uint64_t cnpsReceived{0}; //!< CNPs handed to the algorithm
        uint64_t rttSamples{0};   //!< RTT samples taken
        uint64_t becnSent{0};     //!< responses sent with BECN
        uint64_t ackReqForced{0}; //!< requests given AckReq here (window CC, or closing the window)
    };

    /// \return the counters
    const Stats& GetStats() const;

  protected:
    void DoDispose() override;

  private:
    /// One request packet not yet acknowledged (16 bytes).
    struct Record
    {
        int64_t sent;     //!< when it was (last) sent, in time steps (Time::GetTimeStep)
        uint32_t psn;     //!< its PSN
        uint16_t bytes;   //!< its frame bytes (a RoCE frame is under 64 KiB)
        bool ambiguous : 1; //!< resent while an earlier copy could still arrive (Karn: no
                            //!< RTT sample from its ACK)
        bool inFlight : 1;  //!< counted in m_inFlightBytes (not lost, not timed out)
        bool sacked : 1;    //!< SACKed: delivered, so a resend of it is not in flight either
        bool trimmed : 1;   //!< its last copy sent was trimmed (a trim NAK named it): that
                            //!< copy cannot arrive, so its resend is not ambiguous
    };

    /**
     * \param psn a PSN
     * \return the record of the request with that PSN, or null
     */
    Record* FindRecord(uint32_t psn);
    /**
     * \brief A selective-repeat SACK arrived: the request its MSN field names
     * and each its bitmap marks are delivered. Each not SACKed before leaves
     * the bytes in flight and counts in ack.ackedBytes (RFC 6675's
     * DeliveredData; UecSrc counts a SACK's bytes as received); the named
     * one, if sent once, gives the RTT sample when the cumulative part gave
     * none (UecSrc samples the packet an ACK answers).
     * \param frame the SACK \param ack the ACK's information, added to
     */
    void Sack(const RoceFrame& frame, RdmaAckInfo& ack);
    /// \brief Take a record out of the bytes in flight (delivered, or lost). \param r the record
    void LeaveFlight(Record& r);

    /// One egress's INT clock, to unwrap its modular timestamp and tx bytes.
    struct HopClock
    {
        uint32_t slot{0};     //!< the slot its records come in
        uint64_t egressId{0}; //!< the egress (IntHeader::EgressIds; 0 = unknown)
        bool valid{false};   //!< a record has been seen
        uint32_t rawTime{0}; //!< last timestamp field
        uint32_t rawTx{0};   //!< last tx-bytes field
        Time time;           //!< unwrapped timestamp
        uint64_t txBytes{0}; //!< unwrapped tx bytes
    };

    /**
     * \brief Turn echoed records into RdmaIntHops.
     * \param h the records
     * \param hops receives them, first switch first
     */
    void DecodeInt(const IntHeader& h, std::vector<RdmaIntHop>& hops);

    /// Start the algorithm at the first packet (the path MTU is known then).
    void EnsureInit(uint32_t pathMtu);
    /**
     * \brief Record a request packet sent, or refresh the record of one sent
     * again (Karn's rule: no RTT sample from it).
     * \param psn its PSN
     * \param frameBytes its frame bytes (aborts above 65,535: a RoCE frame
     *        with a 4096-byte MTU is under 4.3 KB)
     */
    void Remember(uint32_t psn, uint32_t frameBytes);
    /**
     * \brief Acknowledge the records up to `psn` (inclusive or not).
     * \param psn the bound
     * \param inclusive whether the record with `psn` is acknowledged
     * \param ack receives ackedBytes and the RTT sample
     */
    void Acknowledge(uint32_t psn, bool inclusive, RdmaAckInfo& ack);

    Ptr<RdmaCongestionOps> m_ops;      //!< the algorithm
    Ptr<RdmaCnpGenerator> m_np;        //!< the notification point
    Ptr<RdmaCcState> m_state;          //!< its state
    bool m_initialized{false};         //!< Init done
    bool m_rcccOn{false};              //!< EnableRccc called
    uint64_t m_rcccMaxCredit{0};       //!< its maxCredit, bytes
    RdmaRcccSender m_rccc;             //!< RCCC's credit (m_rcccOn)
    Time m_rcccLastRequest{-1};        //!< when it last sent a request to send
    bool m_keepRecords{true};          //!< m_ops->NeedsSendRecords()
    RdmaFifo<Record> m_records;        //!< unacknowledged requests, oldest first
    uint64_t m_inFlightBytes{0};       //!< bytes of the records in flight
    bool m_echoCe{false};              //!< a CE-marked request arrived since the last response
    bool m_ackEveryPacketWithWindow{true}; //!< AckEveryPacketWithWindow attribute
    bool m_responderCoalesces{false};      //!< the responder answers by AckBytes
    bool m_hasEcho{false};             //!< m_echo holds records to echo
    IntHeader m_echo;                  //!< INT records of the latest request received
    std::vector<HopClock> m_hopClocks; //!< per (slot, egress) seen, sender side
    Stats m_stats;                     //!< counters
};

} // namespace ns3

#endif // RDMA_QP_CC_H
