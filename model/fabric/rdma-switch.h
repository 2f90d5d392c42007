/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SWITCH_H
#define RDMA_SWITCH_H

#include "rdma-load-balancer.h"
#include "rdma-route-table.h"
#include "switch-mmu.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/object.h"
#include "ns3/qbb-net-device.h"
#include "ns3/qbb-trimmer.h"
#include "ns3/rdma-drop-reason.h"
#include "ns3/rdma-ecn-marker.h"
#include "ns3/rdma-pfc-watchdog.h"
#include "ns3/switch-ecn-params.h"
#include "ns3/traced-callback.h"

#include <array>
#include <memory>
#include <vector>

namespace ns3
{

class RdmaFrameView;
class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief A shared-buffer layer-3 switch for RoCEv2 fabrics, aggregated to a
 * switch Node, with any number of QbbNetDevice ports.
 *
 * Forwarding: every frame a port receives is read with RdmaFrameView (the
 * first bytes only: Ethernet, optional 802.1Q tag, IPv4 or IPv6, the L4
 * ports). Its destination address selects a host route (AddRoute); when
 * the route is an ECMP group of several ports, the member is
 * group[FlowHash % size] where FlowHash mixes the 5-tuple with the
 * switch's EcmpSeed (for RoCEv2 the UDP source port is the per-QP entropy,
 * RoceFrame::UdpSourcePort), so a flow keeps its path and flows spread.
 * Frames that are not IPv4/IPv6 or have no route are dropped (DROP_NOT_IP,
 * DROP_NO_ROUTE). With DecrementTtl (the default) the switch routes as an IP
 * router does: a frame whose IPv4 TTL or IPv6 Hop Limit is 1 or 0 is
 * dropped (DROP_TTL_EXPIRED; RFC 1812 5.3.1, RFC 8200 3), others leave with
 * it decremented, so a routing loop ends. The frame crosses as the same
 * RdmaFrame object, MAC addresses included (the hosts' NICs do not check them);
 * the TTL, an ECN mark or an INT record rewrite its first bytes in place
 * (RdmaFrameEditor).
 *
 * Egress: the frame's class is the egress port's GetClassMap().Classify() (PCP or DSCP);
 * it goes to the egress port's queue (QbbNetDevice::Enqueue, a
 * QbbEgressQueue) as a QbbQueueItem with its ingress port, class, bytes and
 * header offsets. The switch plugs its policies into every port's queue at
 * AddPort(): the shared-buffer SwitchMmu (admission against the ingress
 * (port, class), XOFF/XON through the ingress port's QbbPfcController), an
 * RdmaEcnMarker (EcnEnabled; RED with per-(port, class) Kmin/Kmax/Pmax,
 * defaulting to SwitchEcnParams::ForRate of the port's rate; at dequeue
 * with EcnAtDequeue, the default, as the HPCC simulator and switch ASICs
 * mark: SwitchNode::SwitchNotifyDequeue in
 * simulation/src/point-to-point/model/switch-node.cc of
 * github.com/alibaba-edu/High-Precision-Congestion-Control) and INT stamping
 * (IntEnabled: a frame to UDP port IntHeader::UDP_PORT gets the egress port's
 * hop record of its rate, the time, its cumulative tx bytes and its queued
 * bytes, all classes, which the port itself supplies; at dequeue with
 * IntAtDequeue, the HPCC simulator's choice). After that the switch is off
 * the egress path: the queue tells it of its drops (buffer, queue limit,
 * flush) with the frame, under the one vocabulary RdmaDropReason.
 *
 * PFC watchdog: an RdmaPfcWatchdog (the Watchdog attribute) watches every
 * port; with its Drop action a stormed class's queue is flushed and new
 * frames for it are dropped (DROP_PFC_STORM) until it is restored.
 *
 * Counters only on the per-frame path; the Drop and
 * EcnMark traces cost nothing unless connected.
 */
class RdmaSwitch : public Object
{
  public:
    /// Counters of the switch.
    struct Stats
    {
        uint64_t rxFrames{0};                            //!< frames received from ports
        uint64_t txFrames{0};                            //!< frames handed to an egress queue
        RdmaBufferDrops::Counters drops; //!< drops by RdmaDropReason: the switch's own
                                         //!< (forwarding) and its egress queues' (admission,
                                         //!< PFC storm), each counted once, where it happened
        uint64_t ecnMarked{0};                           //!< frames marked CE
        uint64_t trimmed{0};                             //!< frames cut to their headers (Trimmer)
        uint64_t intStamped{0};                          //!< INT records written
        uint64_t pfcXoff{0};                             //!< XOFF decisions (pause holds started)
        uint64_t pfcXon{0};                              //!< XON decisions (holds released)
    };

    /**
     * \brief TracedCallback signature of the Drop trace.
     * \param [in] frame the frame
     * \param [in] inPort the port it arrived on
     * \param [in] reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame,
                                       uint32_t inPort,
                                       RdmaDropReason reason);
    /**
     * \brief TracedCallback signature of the EcnMark trace.
     * \param [in] port the egress port
     * \param [in] cls the class
     * \param [in] queueBytes the bytes waiting in the class queue
     */
    typedef void (*EcnMarkTracedCallback)(uint32_t port, uint8_t cls, uint64_t queueBytes);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaSwitch();
    ~RdmaSwitch() override;

    /**
     * \brief Add a port: the switch takes its frames (frame callback),
     * adds it to the MMU (headroom from its rate, its channel's delay and
     * Mtu; its PFC controller pauses its upstream) and the watchdog, and
     * plugs the MMU, an ECN marker for its rate and INT stamping into its
     * egress queue.
     * \param device the port (attached to its channel)
     * \return the port index, 0 to n - 1 in the order of the calls
     */
    uint32_t AddPort(Ptr<QbbNetDevice> device);
    /// \return the number of ports
    uint32_t GetNPorts() const;
    /**
     * \param i a port index (aborts if out of range)
     * \return the port
     */
    Ptr<QbbNetDevice> GetPort(uint32_t i) const;
    /**
     * \param device a device
     * \return its port index, or -1 if it is not a port of this switch
     */
    int32_t GetPortIndex(Ptr<const NetDevice> device) const;

    /**
     * \brief Add a host route; a second port for the same destination
     * makes an ECMP group.
     * \param dst the destination host
     * \param port the egress port index (aborts if out of range)
     */
    void AddRoute(Ipv4Address dst, uint32_t port);
    /**
     * \brief Add an IPv6 host route (same rules).
     * \param dst the destination host
     * \param port the egress port index
     */
    void AddRoute(Ipv6Address dst, uint32_t port);
    /**
     * \brief Set the ECMP group of an IPv4 host route at once (what a fabric
     * builder does: RdmaTopologyHelper).
     * \param dst the host address
     * \param ports its egress ports, without repeats (aborts on a port the switch lacks)
     */
    void SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports);
    /// Remove every route.
    void ClearRoutes();
    /// \return the route table
    const RdmaRouteTable& GetRoutes() const;
    /**
     * \brief Use another switch's route table if it equals this one's
     * (RdmaRouteTable::operator==): switches alike in a fabric (a fat tree's
     * cores, the aggregation switches of a pod) then keep one table between
     * them. A later route change copies the table first (copy on write), so
     * sharing changes no lookup.
     * \param other a switch
     * \return whether the table is now shared
     */
    bool ShareRoutes(const RdmaSwitch& other);
    /// The equal-cost port policies (the LoadBalancing attribute).
    enum LoadBalancing
    {
        LB_ECMP = 0, //!< per-flow hash (RdmaEcmp)
        LB_SPRAY,    //!< per packet, uniform (RdmaSpray)
        LB_DRILL,    //!< DRILL (RdmaDrill)
        LB_LETFLOW,  //!< LetFlow flowlets (RdmaLetFlow)
        LB_ADAPTIVE, //!< per packet, least loaded (RdmaAdaptiveRouting)
        LB_CONGA,    //!< CONGA, leaf-to-leaf congestion feedback (RdmaConga)
    };

    /// \return the load-balancing policy
    Ptr<RdmaLoadBalancer> GetLoadBalancer() const;

    /**
     * \brief The egress port a frame would take under per-flow ECMP (no side
     * effect; the LoadBalancing policy may choose otherwise).
     * \param frame an Ethernet frame
     * \return the port index, or -1 if not IP or no route
     */
    int32_t SelectEgress(Ptr<const Packet> frame) const;

    /**
     * \brief Set the ECN marking of one egress (port, class).
     * \param port port index
     * \param cls class 0-7
     * \param params Kmin, Kmax, Pmax
     */
    void SetEcnParams(uint32_t port, uint8_t cls, const SwitchEcnParams& params);
    /**
     * \param port port index
     * \param cls class 0-7
     * \return its ECN marking parameters
     */
    const SwitchEcnParams& GetEcnParams(uint32_t port, uint8_t cls) const;

    /// \return the MMU
    Ptr<SwitchMmu> GetMmu() const;
    /// \return the watchdog
    Ptr<RdmaPfcWatchdog> GetWatchdog() const;
    /// \return the trimming policy of the ports
    Ptr<QbbTrimmer> GetTrimmer() const;
    /// \return the counters (the queues' and the MMU's summed in)
    Stats GetStats() const;

    /**
     * \param egress an egress port
     * \param cls a class
     * \return for each ingress port, the bytes it has waiting in that
     *         egress class queue (the wait-for relation deadlock detection uses)
     */
    std::vector<uint64_t> GetQueuedBytesByIngress(uint32_t egress, uint8_t cls) const;

    /**
     * \brief Assign the random stream of the ECN marking.
     * \param stream the stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// One port.
    struct Port
    {
        Ptr<QbbNetDevice> device;  //!< the device
        Ptr<RdmaEcnMarker> marker; //!< its ECN marker
    };

    /**
     * \brief A frame arrived on a port.
     * \param inPort the port index
     * \param device the port
     * \param frame the frame
     */
    void Receive(uint32_t inPort, Ptr<QbbNetDevice> device, Ptr<RdmaFrame> frame);
    /**
     * \param view a parsed frame
     * \return whether it asks for INT records (UDP to IntHeader::UDP_PORT)
     */
    static bool IsIntFrame(const RdmaFrameView& view);
    /**
     * \brief Plug the switch's policies (as the attributes now say) into a port's queue.
     * \param port the port index
     */
    void ApplyPolicies(uint32_t port);
    /**
     * \brief Set a policy attribute and apply it to every port.
     * \param flag the member
     * \param value its new value
     */
    void SetPolicy(bool& flag, bool value);
    void SetEcnEnabled(bool enabled);   //!< \param enabled EcnEnabled
    void SetEcnAtDequeue(bool dequeue); //!< \param dequeue EcnAtDequeue
    void SetIntEnabled(bool enabled);   //!< \param enabled IntEnabled
    void SetIntAtDequeue(bool dequeue); //!< \param dequeue IntAtDequeue
    bool GetEcnEnabled() const;         //!< \return EcnEnabled
    bool GetEcnAtDequeue() const;       //!< \return EcnAtDequeue
    bool GetIntEnabled() const;         //!< \return IntEnabled
    bool GetIntAtDequeue() const;       //!< \return IntAtDequeue
    /**
     * \brief The watchdog declared a storm with action Drop: flush the class.
     * \param port the egress port
     * \param cls the class
     */
    void FlushStormed(uint32_t port, uint8_t cls);
    /**
     * \brief Count and trace a drop: the switch's own, and its queues'
     * (their drop callback), under one vocabulary.
     * \param frame the frame
     * \param inPort its ingress port
     * \param reason why
     */
    void Drop(const RdmaFrame& frame, uint32_t inPort, RdmaDropReason reason);

    /// \param mode the LoadBalancing attribute: make the policy and give it the ports
    void SetLoadBalancing(LoadBalancing mode);
    /// \return the LoadBalancing attribute
    LoadBalancing GetLoadBalancing() const;

    std::vector<Port> m_ports;           //!< ports, by index
    LoadBalancing m_lbMode{LB_ECMP};     //!< LoadBalancing attribute
    Ptr<RdmaLoadBalancer> m_lb;          //!< the equal-cost port policy
    /// \return the route table, this switch's own (copied first if shared)
    RdmaRouteTable& OwnRoutes();

    std::shared_ptr<RdmaRouteTable> m_routes{std::make_shared<RdmaRouteTable>()}; //!< host routes (shared: ShareRoutes)
    uint32_t m_ecmpSeed;                 //!< EcmpSeed attribute
    bool m_ecnEnabled{true};             //!< EcnEnabled attribute
    bool m_ecnAtDequeue{true};           //!< EcnAtDequeue attribute
    bool m_intEnabled{false};            //!< IntEnabled attribute
    bool m_intAtDequeue{false};          //!< IntAtDequeue attribute
    bool m_decrementTtl{true};           //!< DecrementTtl attribute
    Ptr<SwitchMmu> m_mmu;                //!< buffer manager
    Ptr<QbbTrimmer> m_trimmer;           //!< Trimmer attribute
    Ptr<RdmaPfcWatchdog> m_watchdog;     //!< PFC watchdog
    Ptr<UniformRandomVariable> m_ecnRng; //!< ECN marking draws
    Stats m_stats;                       //!< own counters (GetStats adds the queues' and MMU's)

    TracedCallback<Ptr<const Packet>, uint32_t, RdmaDropReason> m_dropTrace;     //!< Drop
    TracedCallback<uint32_t, uint8_t, uint64_t> m_ecnMarkTrace;                  //!< EcnMark
};

} // namespace ns3

#endif // RDMA_SWITCH_H
