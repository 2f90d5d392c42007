/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SWITCH_H
#define RDMA_SWITCH_H

#include "qbb-net-device.h"
#include "rdma-pfc-watchdog.h"
#include "rdma-route-table.h"
#include "switch-ecn-params.h"
#include "switch-mmu.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
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
 * DROP_NO_ROUTE). The frame crosses unchanged (same Ptr<Packet>, MAC
 * addresses included: the hosts' NICs do not check them), unless it is
 * ECN-marked or INT-stamped, which replaces it by an edited copy
 * (RdmaFrameEditor). IP TTL/hop limit is not decremented (as in the HPCC
 * simulator), so a routing loop circulates frames until PFC stops them.
 *
 * Buffer: the egress class is the egress port's Classify() (PCP or DSCP).
 * Before the frame is queued the SwitchMmu admits it against its ingress
 * (port, class); a lossy class over its limit is dropped
 * (DROP_INGRESS_LIMIT, DROP_BUFFER_FULL), a lossless class over its XOFF
 * threshold pauses the ingress port's upstream with
 * QbbNetDevice::SetPfcHold (pauses refreshed until released), and XON
 * follows when the MMU's resume condition holds after frames leave. A
 * frame leaves the buffer when its transmission starts on the egress
 * port (the port's dequeue hook, QbbNetDevice::SetTxStartHook; per egress
 * class a FIFO of (ingress port, bytes) records mirrors the device's
 * queue, so no per-frame tag or allocation is needed). Set each port device's TxQueueMaxBytes above
 * the MMU's buffer so that the MMU, not the device, decides.
 *
 * ECN: with EcnEnabled, an ECT(0)/ECT(1) frame is marked CE with
 * probability SwitchEcnParams::MarkProbability of the bytes waiting in its
 * egress class queue; each (port, class) has its own Kmin/Kmax/Pmax,
 * defaulting to SwitchEcnParams::ForRate of the port's rate.
 *
 * INT: with IntEnabled, a frame to UDP port IntHeader::UDP_PORT gets a hop
 * record (egress rate, time, the egress port's cumulative tx bytes and
 * its queued bytes, all classes) as it joins the egress queue, or with
 * IntAtDequeue as it leaves it (the HPCC simulator's choice: then the bytes
 * queued are those behind the frame), in the port's dequeue hook.
 *
 * PFC watchdog: an RdmaPfcWatchdog (the Watchdog attribute) watches every
 * port; with its Drop action a stormed class's queue is flushed and new
 * frames for it are dropped (DROP_PFC_STORM) until it is restored.
 *
 * Counters only on the per-frame path; the Drop, PfcXoff, PfcXon and
 * EcnMark traces cost nothing unless connected.
 */
class RdmaSwitch : public Object
{
  public:
    /// Why the switch dropped a frame (Drop trace, Stats::drops).
    enum DropReason
    {
        DROP_NOT_IP = 0,     //!< not IPv4/IPv6 (MAC Control frames are consumed by the port)
        DROP_NO_ROUTE,       //!< no route to the destination address
        DROP_INGRESS_LIMIT,  //!< lossy class above its ingress threshold (SwitchMmu)
        DROP_BUFFER_FULL,    //!< lossy class, shared buffer exhausted (SwitchMmu)
        DROP_HEADROOM_FULL,  //!< lossless class beyond its PFC headroom (mis-sized headroom)
        DROP_PFC_STORM,      //!< egress class stormed, watchdog action Drop
        DROP_EGRESS_REFUSED, //!< the egress device refused it (its own queue limit)
        DROP_REASON_COUNT    //!< number of reasons (not a reason)
    };

    /**
     * \param reason a drop reason
     * \return its name, e.g. "NO_ROUTE"
     */
    static const char* DropReasonName(DropReason reason);

    /// Counters of the switch.
    struct Stats
    {
        uint64_t rxFrames{0};                            //!< frames received from ports
        uint64_t txFrames{0};                            //!< frames queued to an egress
        std::array<uint64_t, DROP_REASON_COUNT> drops{}; //!< drops by reason
        uint64_t ecnMarked{0};                           //!< frames marked CE
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
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, uint32_t inPort, DropReason reason);
    /**
     * \brief TracedCallback signature of the PfcXoff and PfcXon traces.
     * \param [in] port the ingress port whose upstream is paused/resumed
     * \param [in] cls the traffic class
     * \param [in] ingressBytes the (port, class)'s bytes in the buffer
     * \param [in] sharedBytes its bytes in the shared pool
     * \param [in] threshold the XOFF threshold at that moment, bytes
     */
    typedef void (*PfcDecisionTracedCallback)(uint32_t port,
                                              uint8_t cls,
                                              uint64_t ingressBytes,
                                              uint64_t sharedBytes,
                                              uint64_t threshold);
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
     * Mtu) and the watchdog, and sets its ECN parameters for its rate.
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
    /// Remove every route.
    void ClearRoutes();
    /// \return the route table
    const RdmaRouteTable& GetRoutes() const;
    /**
     * \brief The egress port a frame would take (no side effect).
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
    /// \return the counters
    const Stats& GetStats() const;

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
    /// The MMU record of a frame waiting in an egress class queue.
    struct Pending
    {
        uint32_t inPort;    //!< ingress port
        uint32_t bytes;     //!< frame bytes
        uint32_t intOffset; //!< its IntHeader's offset, to stamp at dequeue; 0: none
    };

    /// One port.
    struct Port
    {
        Ptr<QbbNetDevice> device;                                           //!< the device
        std::array<std::deque<Pending>, QbbNetDevice::NUM_CLASSES> pending; //!< per class
        std::array<SwitchEcnParams, QbbNetDevice::NUM_CLASSES> ecn;         //!< per class
    };

    /**
     * \brief A frame arrived on a port.
     * \param inPort the port index
     * \param device the port
     * \param frame the frame
     */
    void Receive(uint32_t inPort, Ptr<QbbNetDevice> device, Ptr<Packet> frame);
    /**
     * \brief A data frame leaves an egress queue for the wire (the port's
     * dequeue hook): release its buffer bytes (and send XON if due), and
     * stamp its INT record when IntAtDequeue.
     * \param port the port index
     * \param frame the frame
     * \param cls its class
     * \return the frame to send (a stamped copy, or the frame itself)
     */
    Ptr<Packet> EgressDequeue(uint32_t port, Ptr<Packet> frame, uint8_t cls);
    /**
     * \param egress the port the frame leaves by
     * \return its INT hop record now (IntHeader::EncodeHop)
     */
    uint64_t IntRecord(const Port& egress) const;
    /**
     * \param view a parsed frame
     * \return whether it asks for INT records (UDP to IntHeader::UDP_PORT)
     */
    static bool IsIntFrame(const RdmaFrameView& view);
    /**
     * \brief Release a frame's bytes and send XON if the MMU says so.
     * \param inPort ingress port
     * \param cls class
     * \param bytes bytes
     */
    void ReleaseBuffer(uint32_t inPort, uint8_t cls, uint32_t bytes);
    /**
     * \brief The watchdog declared a storm with action Drop.
     * \param port the egress port
     * \param cls the class
     */
    void FlushStormed(uint32_t port, uint8_t cls);
    /**
     * \brief Count and trace a drop.
     * \param frame the frame
     * \param inPort its ingress port
     * \param reason why
     */
    void Drop(Ptr<const Packet> frame, uint32_t inPort, DropReason reason);

    std::vector<Port> m_ports;           //!< ports, by index
    RdmaRouteTable m_routes;             //!< host routes
    uint32_t m_ecmpSeed;                 //!< EcmpSeed attribute
    bool m_ecnEnabled;                   //!< EcnEnabled attribute
    bool m_intEnabled{false};            //!< IntEnabled attribute
    bool m_intAtDequeue{false};          //!< IntAtDequeue attribute
    Ptr<SwitchMmu> m_mmu;                //!< buffer manager
    Ptr<RdmaPfcWatchdog> m_watchdog;     //!< PFC watchdog
    Ptr<UniformRandomVariable> m_ecnRng; //!< ECN marking draws
    Stats m_stats;                       //!< counters

    TracedCallback<Ptr<const Packet>, uint32_t, DropReason> m_dropTrace;         //!< Drop
    TracedCallback<uint32_t, uint8_t, uint64_t, uint64_t, uint64_t> m_xoffTrace; //!< PfcXoff
    TracedCallback<uint32_t, uint8_t, uint64_t, uint64_t, uint64_t> m_xonTrace;  //!< PfcXon
    TracedCallback<uint32_t, uint8_t, uint64_t> m_ecnMarkTrace;                  //!< EcnMark
};

} // namespace ns3

#endif // RDMA_SWITCH_H
