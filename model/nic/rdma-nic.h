/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "rdma-nic-pipeline.h"
#include "rdma-nic-ids.h"
#include "rdma-nic-ports.h"
#include "rdma-nic-rx-buffer.h"
#include "rdma-nic-rx-placement.h"
#include "rdma-entropy.h"
#include "rdma-tx-scheduler.h"

#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/rdma-cnp-generator.h"
#include "ns3/rdma-completion-queue.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-memory-region.h"
#include "ns3/rdma-protection-domain.h"
#include "ns3/rdma-qp-cc.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-rccc.h"
#include "ns3/roce-frame.h"
#include "ns3/traced-callback.h"
#include "ns3/rdma-fifo.h"
#include "ns3/rdma-qpn-table.h"

#include <unordered_map>

namespace ns3
{

class QbbNetDevice;
class Packet;

/**
 * \ingroup rdma
 * \brief A RoCEv2 RDMA NIC, aggregated to a host Node, with the verbs API
 * (protection domains, memory regions, completion queues, RC queue pairs)
 * and one Ethernet port (a QbbNetDevice).
 *
 * Transmit: whenever the port can take a frame, pending CNPs go first;
 * then the NIC's RdmaTxScheduler picks the next QP allowed to send (round
 * robin or deficit round robin, each QP paced by the rate and limited by the
 * window of its congestion control), lets it fill the transport headers,
 * adds Ethernet, IPv4 (the QP's traffic class, the Ecn codepoint) and UDP
 * (port 4791 and a source port, the path entropy: see below) and builds the
 * frame with its ICRC. Receive: every frame is parsed and its ICRC checked; a bad frame is
 * dropped and counted by reason; a good one goes to the QP its DestQP names.
 *
 * Congestion control: every QP gets its own RdmaCongestionOps, forked from
 * the prototype SetCongestionControl() configures (default ns3::RdmaNoCc,
 * line rate), and its own notification point (a fork of the CnpGenerator
 * attribute), joined in an RdmaQpCc that feeds the algorithm from the QP's
 * packets. A CE-marked request makes the receiving NIC send a RoCEv2 CNP
 * (opcode 0x81, BTH DestQP = the sending QP, IBA Annex A17.9) at most once
 * per QP per MinTimeBetweenCnps, with DSCP CnpPriority x 8 (the
 * class-selector codepoint, so a QbbNetDevice's default DSCP map puts it in
 * class CnpPriority); a CNP that arrives goes to its QP's algorithm.
 *
 * Entropy. RoCEv2 leaves the UDP source port to the sender as path
 * entropy for ECMP (IBA Vol. 1 Annex A17.4.5.1, "UDP source port"): switches
 * that hash the 5-tuple send frames with different ports down different
 * equal-cost paths. With Entropy = qp (the default) every frame of a QP has
 * the port Linux derives from the QP pair (RoceFrame::UdpSourcePort), so
 * one QP takes one path. With packet every frame a QP sends (requests and
 * responses alike) draws a new port, uniform in 0xC000-0xFFFF, from the
 * NIC's own random stream (AssignStreams): oblivious per-packet spraying as
 * UEC 1.0 specifies it, which spreads one QP over every path of plain
 * per-flow ECMP switches. With flowlet a QP draws a new port when it has
 * sent nothing for FlowletTimeout (a flowlet, LetFlow: Vanini et al., NSDI
 * 2017), and keeps it otherwise. With reps each QP recycles the ports of
 * its requests that were acknowledged without an ECN echo (BECN) and draws
 * a fresh one when it has none (REPS, Bonato et al., arXiv:2407.21625;
 * RdmaReps, RepsBufferSize). CNPs keep the QP's port. Each choice is a
 * policy object (RdmaEntropy), the host's side of load balancing beside the
 * switches' RdmaLoadBalancer.
 *
 * Verbs calls return null or an errno value on bad arguments, as verbs do.
 *
 * Hardware. With a Pipeline (attribute; null by default, which keeps the
 * zero-cost NIC the transport tests assume) every packet also crosses the
 * clocked RdmaNicPipeline: TX packets are taken from the QPs as soon as a
 * TX context is free and reach the port when the pipeline retires them; RX
 * packets reach their QP when it retires them. Creating a QP or registering
 * an MR then reserves entries of the pipeline's QPC / MPT / MTT tables and
 * fails (null, the ENOMEM of ibv_create_qp / ibv_reg_mr) when a table's
 * backing store is full. Received frames (but CNPs, which go straight to
 * congestion control) then wait in the port's receive buffer (RxBuffer, an
 * RdmaNicRxBuffer) until the pipeline has written them to host memory; a
 * lossless class above its XOFF threshold makes the port hold its peer
 * paused (QbbPfcController::SetHold), so a NIC slowed by its cache misses
 * pauses its switch (Guo et al., SIGCOMM 2016, section 4.4); a frame that
 * does not fit is dropped as DROP_RX_BUFFER_FULL. Where a SEND's or READ
 * response's payload lands is found as the packet enters the pipeline, ahead
 * of its QP (RdmaNicRxPlacement).
 */
class RdmaNic : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaNic();
    ~RdmaNic() override;

    /**
     * \brief Attach the Ethernet port and the host's address (the RoCEv2 GID).
     * \param device the port
     * \param address the IPv4 address packets are sent from and to
     */
    void Attach(Ptr<QbbNetDevice> device, Ipv4Address address);
    /**
     * \brief Attach the port on the next plane of a multi-plane fabric
     * (RdmaTopologySpec::WithPlanes): Attach() gave plane 0's; call before
     * any QP is created (its congestion control starts at the sum of the
     * ports' rates). RdmaNicPorts says which port each packet takes.
     * \param device the port
     */
    void AttachPlane(Ptr<QbbNetDevice> device);
    /// \return the host's IPv4 address
    Ipv4Address GetAddress() const;
    /// \return the port (plane 0's on a multi-plane NIC)
    Ptr<QbbNetDevice> GetDevice() const;
    /// \return the ports, one per plane, with their counters
    const RdmaNicPorts& GetPorts() const;
    /**
     * \brief Say which planes reach a destination: the fabric's routes
     * (RdmaTopologyHelper sets it on a multi-plane fabric and calls it
     * again after each reroute, InvalidatePlanes()).
     * \param f the function
     */
    void SetPlaneReachability(RdmaNicPorts::ReachFunction f);
    /// The fabric's routes changed: a QP moves off a plane that no longer reaches its peer.
    void InvalidatePlanes();

    /// \return a new protection domain (ibv_alloc_pd)
    Ptr<RdmaProtectionDomain> AllocPd();
    /**
     * \brief Register a memory region (ibv_reg_mr).
     * \param pd protection domain
     * \param addr first virtual address
     * \param length bytes (> 0)
     * \param access RdmaAccessFlags
     * \param pageBytes the page size backing the region on the host (4 KiB
     *        base pages, 2 MiB or 1 GiB huge pages): with a Pipeline it sets
     *        the region's MTT entries and the entry each address needs;
     *        0 (default): the MTT cache's PageBytes
     * \return the region, or null: length 0, or remote write/atomic without
     *         local write, or a pageBytes that is not 0 nor a page size
     *         (RdmaPageSize: a power of two of at least 4096; EINVAL in verbs); or, with a Pipeline, its MPT or
     *         MTT backing store is full (ENOMEM)
     */
    Ptr<RdmaMemoryRegion> RegMr(Ptr<RdmaProtectionDomain> pd,
                                uint64_t addr,
                                uint64_t length,
                                uint32_t access,
                                uint64_t pageBytes = 0);
    /**
     * \brief Deregister a memory region (ibv_dereg_mr): its keys stop working.
     * \param mr the region
     */
    void DeregMr(Ptr<RdmaMemoryRegion> mr);
    /**
     * \brief Create a completion queue (ibv_create_cq).
     * \param depth entries (cqe)
     * \return the queue
     */
    Ptr<RdmaCompletionQueue> CreateCq(uint32_t depth);
    /**
     * \brief Create an RC queue pair in RESET (ibv_create_qp); its
     * attributes (AckReqInterval, LossRecovery, ...) come from the NIC's
     * QpFactory (SetQpAttribute).
     * \param init PD, CQs and queue depths
     * \return the QP, or null without a PD or CQs (EINVAL), or, with a
     *         Pipeline, when its QPC backing store is full (ENOMEM)
     */
    Ptr<RdmaQueuePair> CreateQp(const RdmaQueuePair::InitAttr& init);
    /**
     * \return what a peer knows of this NIC and the numbers it hands out
     * (its address, node, QP numbers and memory keys; RdmaNicIds)
     */
    Ptr<RdmaNicIds> GetIds() const;
    /**
     * \brief Destroy a QP (ibv_destroy_qp): later packets to it are dropped.
     * \param qp the QP
     */
    void DestroyQp(Ptr<RdmaQueuePair> qp);
    /**
     * \brief Set an attribute of every QP created after this call.
     * \param name attribute name, e.g. "LossRecovery"
     * \param value its value
     */
    void SetQpAttribute(const std::string& name, const AttributeValue& value);
    /// \return the QP with this number, or null
    Ptr<RdmaQueuePair> GetQp(uint32_t qpn) const;

    /**
     * \brief The counters of every QP this NIC has had, summed: live QPs and
     * those already destroyed (their counts are kept at DestroyQp).
     * \return the sums
     */
    RdmaQueuePair::Stats GetQpStatsTotal() const;

    /// \return the QPs this NIC has now (created and not destroyed)
    uint32_t GetNQps() const;

    /// How the UDP source port (path entropy) of a QP's frames is chosen.
    enum Entropy
    {
        ENTROPY_QP,      //!< one port per QP (Linux's, from the QP pair)
        ENTROPY_PACKET,  //!< a new random port per frame (oblivious spraying)
        ENTROPY_FLOWLET, //!< a new random port after an idle gap of FlowletTimeout
        ENTROPY_REPS,    //!< REPS: recycle ports ACKed without ECN echo (RdmaReps)
        ENTROPY_MIXED,   //!< htsim_uec's: REPS, else ports not penalized (RdmaPathPenalty)
    };

    /**
     * \brief Fix the random stream the packet and flowlet entropies draw
     * ports from (nothing is drawn, and no stream is taken, with qp).
     * \param stream the stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Put the NIC's hardware pipeline in the path (before any QP or
     * MR is made), or take it out with null.
     * \param pipeline the pipeline (one per NIC)
     */
    void SetPipeline(Ptr<RdmaNicPipeline> pipeline);
    /// \return the pipeline, or null when the NIC has none (zero cost)
    Ptr<RdmaNicPipeline> GetPipeline() const;
    /**
     * \return the receive buffer; it is in the path only with a Pipeline
     * (the zero-cost NIC drains every frame at once)
     */
    Ptr<RdmaNicRxBuffer> GetRxBuffer() const;
    /**
     * \brief Size the receive buffer's PFC headroom for the attached port's
     * link (RdmaNicRxBuffer::Configure); done at the first frame otherwise.
     * \return an empty string, or why the buffer cannot work on this link
     */
    std::string ConfigureRxBuffer();

    /// Counters of the NIC.
    struct Stats
    {
        uint64_t txFrames{0};               //!< frames handed to the port
        uint64_t txBytes{0};                //!< their bytes
        uint64_t rxFrames{0};               //!< frames received
        uint64_t rxBytes{0};                //!< their bytes
        RdmaNicDrops::Counters rxDrops;     //!< receive-side drops by reason (RdmaNicDrops)
        uint64_t cnpsSent{0};               //!< CNPs sent (notification point)
        uint64_t cnpsReceived{0};           //!< CNPs received for a QP of this NIC
        uint64_t rxPayloadPackets{0};       //!< frames with a payload handed to a QP
        uint64_t rxTrimmed{0};              //!< frames trimmed by a switch (TrimmedDscp)
        uint64_t rcccCreditsSent{0};        //!< RCCC credit frames sent (RdmaRcccPacer)
        uint64_t rcccCreditsReceived{0};    //!< RCCC credit frames received for a QP here
        uint64_t rcccCreditsToGoneQps{0};   //!< and for a QP destroyed (not drops)
        uint64_t rcccRequestsSent{0};       //!< RCCC requests to send sent
        uint64_t rcccRequestsReceived{0};   //!< and received for a QP here
        /// of the DROP_UNKNOWN_QP drops, SEND and WRITE packets with a payload:
        /// copies of requests that came after their QP was gone (its
        /// message done: a resend, or the original its resend overtook)
        uint64_t rxRequestsToGoneQps{0};
    };

    /// \return the counters
    const Stats& GetStats() const;

    /**
     * \brief Set the congestion control of every QP created after this
     * call: a factory whose TypeId is an RdmaCongestionOps subclass (e.g.
     * ns3::RdmaDcqcn) with its attributes. Each QP gets a Fork() of one
     * prototype made from it. Aborts if the TypeId is not an
     * RdmaCongestionOps.
     * \param factory the factory
     */
    void SetCongestionControl(const ObjectFactory& factory);
    /// \return the transmit scheduler
    Ptr<RdmaTxScheduler> GetTxScheduler() const;
    /**
     * \param qpn a QP's number
     * \return its congestion-control side, or null
     */
    Ptr<RdmaQpCc> GetQpCc(uint32_t qpn) const;

    /// Signature of the RxDrop trace.
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, RdmaDropReason reason);

  protected:
    void DoDispose() override;

  private:
    // --- verbs, transmit and receive (rdma-nic.cc) ---

    /// A QP has something to send.
    void OnQpTxReady(Ptr<RdmaQueuePair> qp);
    /// Port `port` can take a frame: the QPs that waited for it go on.
    void OnDeviceTxReady(uint32_t port);
    /// Send as long as a port is idle and a QP has a packet.
    void TrySend();
    /// Send the CNPs and retired frames whose ports are idle.
    void SendReadyFrames();
    /// A frame arrived from the port.
    void OnFrameReceived(Ptr<QbbNetDevice> device, Ptr<RdmaFrame> frame);
    /// \return the region with this key, or null
    Ptr<RdmaMemoryRegion> LookupMr(uint32_t key) const;
    /// Queue a CNP back to the sender of a CE-marked request `f` for `qp`.
    void SendCnp(Ptr<RdmaQueuePair> qp, const RoceFrame& f);
    /**
     * \brief Queue an RCCC credit frame to the QP that sends to `qpn`.
     * \param qpn the receiving QP \param wirePull the pull, its PSN field
     */
    void SendCredit(uint32_t qpn, uint32_t wirePull);
    /**
     * \brief Queue an RCCC control frame (BTH only) from a QP to its peer.
     * \param qpn the QP here \param opcode RCCC_CREDIT or RCCC_REQUEST
     * \param psn the PSN field \param reserved the BTH's reserved bits
     * \return false if the QP is gone
     */
    bool SendRcccFrame(uint32_t qpn, uint8_t opcode, uint32_t psn, uint16_t reserved);
    /**
     * \brief RCCC: send a QP's request to send if it has something to send,
     * no credit, and its receiver may not know (RdmaQpCc::TakeRcccRequest).
     * \param qpn the QP
     */
    void MaybeRequestCredit(uint32_t qpn);
    /**
     * \brief RCCC: a request of `qp` leaves; spend its credit and write its
     * pull target (RdmaQpCc::OnRcccSend), keeping the count of active senders.
     * \param qpn the QP \param f the request
     */
    void SpendCredit(uint32_t qpn, RoceFrame& f);
    /// \return the QP's RCCC credit limit, bytes: 1.5 BDPs of the NIC's rate
    /// and base RTT (UecSrc's maximum window)
    uint64_t GetRcccMaxCredit() const;
    /**
     * \brief Hand a received frame to its QP; if the QP's responder answered
     * it with a sequence NAK and the notification point's CnpOnNak says so,
     * queue a CNP too.
     * \param qp the frame's QP \param f the frame
     */
    void DeliverToQp(Ptr<RdmaQueuePair> qp, const RoceFrame& f);
    /// Count and trace a dropped frame.
    void Drop(const RdmaFrame& frame, RdmaDropReason reason);
    /// \brief Count a frame for a QP that is not (or no longer) here:
    /// DROP_UNKNOWN_QP, and rxRequestsToGoneQps if it is a request with a
    /// payload. \param f the frame, parsed
    void CountGoneQp(const RoceFrame& f);
    /// Whether a new packet can be taken from a QP now.
    bool CanStartTx() const;
    /// Send a built frame on a port (through the pipeline if there is one).
    void Transmit(uint32_t qpn, const RoceFrame& f, Ptr<RdmaFrame> frame, uint32_t port);
    /// Hand a frame to a port.
    void SendToPort(Ptr<RdmaFrame> frame, uint32_t port);
    /// \brief Choose the entropy policy (RdmaEntropy). \param mode the Entropy attribute
    void SetEntropy(Entropy mode);
    /// \return the Entropy attribute
    Entropy GetEntropy() const;

    // --- the hardware path, with a Pipeline (rdma-nic-hardware.cc) ---

    /// The pipeline retired a TX frame.
    void OnPipelineTx(Ptr<RdmaFrame> frame);
    /// The pipeline retired an RX packet: give it to its QP.
    void OnPipelineRx(const RoceFrame& f);
    /// A completion was generated on one of the NIC's CQs.
    void OnCompletion(const RdmaWorkCompletion& wc);
    /// Put a received frame of class cls in the receive buffer, or drop it.
    bool AdmitRx(const RdmaFrame& frame, uint8_t cls);

    RdmaNicPorts m_ports;                                      //!< the ports, one per plane
    std::vector<std::vector<uint32_t>> m_waiting;              //!< per port: QPs waiting for it
    bool m_dataMode;                                           //!< MRs hold real bytes
    bool m_verifyIcrc;                                         //!< check ICRC on receive
    bool m_computeIcrc;                                        //!< compute ICRC on send
    uint8_t m_ecn;                                             //!< ECN codepoint sent
    uint32_t m_nextPd;                                         //!< PD numbers
    Ipv4Address m_address;                                     //!< GID (m_ids's, read per frame)
    Ptr<RdmaNicIds> m_ids;                                     //!< GID, node, QP numbers, keys
    uint16_t m_ipId;                                           //!< IPv4 identification
    ObjectFactory m_qpFactory;                                 //!< QP attributes
    std::unordered_map<uint32_t, Ptr<RdmaMemoryRegion>> m_mrs; //!< by key
    /// A QP and its congestion control, made and destroyed together.
    struct QpEntry
    {
        Ptr<RdmaQueuePair> qp; //!< the QP
        Ptr<RdmaQpCc> cc;      //!< its congestion control
        bool rcccActive{false}; //!< counted in m_rcccActive (something left to send)
        EventId rcccRetry;      //!< a request to send held back by its spacing
    };

    RdmaQpnTable<QpEntry> m_qps;                               //!< by QPN
    RdmaQueuePair::Stats m_destroyedQpStats;                   //!< sums of destroyed QPs
    Ptr<RdmaTxScheduler> m_scheduler;                          //!< TX choice across QPs
    ObjectFactory m_ccFactory;                                 //!< congestion control
    Ptr<RdmaCongestionOps> m_ccPrototype;                      //!< forked per QP
    Ptr<RdmaCnpGenerator> m_cnpPrototype;                      //!< forked per QP
    Ptr<RdmaRcccPacer> m_rccc;                                 //!< RCCC's receiver half
    uint32_t m_rcccActive{0};                                  //!< QPs with something to send
    Time m_baseRtt;                                            //!< CC's base RTT
    uint8_t m_cnpPriority;                                     //!< CNP class
    int8_t m_ackPriority;                                      //!< ACK/NAK class, -1: QP's
    int8_t m_trimmedDscp;                                      //!< TrimmedDscp, -1: none
    bool m_intEnabled;                                         //!< carry INT (HPCC)
    Entropy m_entropy;                                         //!< source-port choice
    Time m_flowletTimeout;                                     //!< FlowletTimeout
    uint32_t m_repsBufferSize;                                 //!< RepsBufferSize
    uint32_t m_entropyPaths;                                   //!< EntropyPaths
    RdmaEntropyParams m_entropyParams;                         //!< the three, for the policy
    Ptr<RdmaEntropy> m_entropyPolicy;                          //!< Entropy's policy
    /// A frame and the port it leaves on.
    typedef std::pair<Ptr<RdmaFrame>, uint32_t> PortFrame;
    RdmaFifo<PortFrame> m_cnpQueue;                             //!< CNPs to send first
    Stats m_stats;                                             //!< counters
    TracedCallback<Ptr<const Packet>, RdmaDropReason> m_rxDrop; //!< RxDrop trace
    // The hardware path.
    Ptr<RdmaNicPipeline> m_pipeline;                  //!< hardware, or null
    RdmaFifo<PortFrame> m_txFrames;                   //!< retired, not yet sent
    std::unordered_map<const RdmaFrame*, uint32_t> m_txPorts; //!< in the pipeline: their ports
    Ptr<RdmaNicRxBuffer> m_rxBuffer;                  //!< the port's receive buffer
    bool m_rxBufferReady{false};                      //!< ConfigureRxBuffer done
    RdmaNicRxPlacement m_rxPlacement;                 //!< where received payloads land
};

} // namespace ns3

#endif // RDMA_NIC_H
