/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_NET_DEVICE_H
#define QBB_NET_DEVICE_H

#include "qbb-class-config.h"
#include "qbb-egress-queue.h"
#include "qbb-pfc-controller.h"
#include "qbb-queue-item.h"
#include "qbb-transmitter.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rdma-stream-at-first-draw.h"
#include "ns3/rdma-wire.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <functional>

namespace ns3
{

class QbbChannel;
class ErrorModel;
class Node;

/**
 * \ingroup rdma
 * \brief A lean full-duplex Ethernet port for point-to-point links of the
 * rdma module, with eight traffic classes and IEEE 802.1Qbb priority-based
 * flow control (PFC), as a switch ASIC or NIC port implements them.
 *
 * The device carries whole Ethernet frames (destination MAC first, no
 * preamble, no FCS) to the one peer on its QbbChannel.
 *
 * Transmit: a frame handed to Send() (which adds the Ethernet header) or to
 * SendFrame() (which takes a frame that already has one) is classified to
 * one of NUM_CLASSES traffic classes (GetClassMap().Classify()); a switch hands its
 * frames to Enqueue() with the class and what its queue policies need. The
 * port's egress queue (the TxQueue attribute, a QbbEgressQueue: class
 * FIFOs, the SP/DWRR scheduler, and a switch's admission, ECN and INT
 * policies) holds what cannot start at once. A frame starts at once if
 * the transmitter is idle, its class is not paused and the queue has no
 * policy to apply (QbbEgressQueue::CanBypass()); otherwise it goes through
 * the queue, and when a transmission ends the queue gives the next frame
 * among the classes that are not paused. A frame occupies the wire for
 * GetWireTime(): its bytes (at least the 60-byte minimum frame, shorter
 * frames are padded by the PHY) plus the per-frame wire overhead of IEEE
 * 802.3 clauses 3 and 4 (the WireOverhead attribute, by default
 * RdmaWire::WIRE_OVERHEAD_BYTES: FCS, preamble, SFD, minimum inter-frame
 * gap, 24 bytes in all), at DataRate. One event per
 * transmission ends it at the transmitter (one reused event object, nothing
 * allocated per frame); the channel delivers the same frame object (an
 * RdmaFrame: compact, or a wrapped Packet; no per-hop copy) to the peer GetWireTime() + Delay after the start, with one
 * event per frame.
 *
 * PFC: the port's QbbPfcController (the PfcController attribute) decides
 * (IEEE 802.1Q-2018 clause 36); the device carries it out. A pending PFC
 * frame jumps ahead of every data frame: it starts as soon as the frame
 * being serialized ends (at once if the transmitter is idle), and it is
 * never paused itself. A received MAC Control frame (EtherType 0x8808,
 * untagged, at most the 60-byte minimum frame: IEEE 802.3 31.4 fixes MAC
 * Control frames at minFrameSize, so longer frames are not looked at) goes
 * to the controller: it is never passed to any receive callback, not counted
 * in Stats::rxFrames, and seen by the PhyRxEnd trace (so it is in the pcap).
 * A paused class starts no new frame (a frame already being serialized
 * finishes); while every class with frames is paused the transmitter is
 * idle, and when a pause ends transmission resumes.
 *
 * Pull interface for a NIC: when a transmission ends and every transmit
 * queue is empty the transmitter goes idle and calls the TxReady callback
 * once (from the event that ended the transmission); a NIC keeps the queues
 * short by pushing one frame with SendFrame() on each call (and by pushing
 * while IsTxIdle() when it gets new work). While the NIC's class is paused
 * its pushed frame waits in the queue, IsTxIdle() is false and the NIC
 * waits; after the resume that frame is sent and TxReady follows its end.
 *
 * Receive: with a frame handler set (SetFrameHandler: the NIC or switch,
 * which parse the frame as it is carried) or a frame callback
 * (SetFrameReceiveCallback: the frame as a Packet) every frame goes up
 * whole, Ethernet header included, to that one only. Otherwise the Ethernet header is removed and the payload
 * goes to the standard receive callbacks with protocol = EtherType, as
 * CsmaNetDevice does: the promiscuous callback sees every frame, the
 * non-promiscuous one frames addressed to this device, broadcast or
 * multicast. 802.1Q tags are not removed on that path.
 *
 * Errors: a frame the ReceiveErrorModel declares corrupt is really
 * corrupted: one bit of a copy of the frame is flipped (see CorruptTailBytes)
 * and the copy (a new Packet made from the bytes: packet tags do not carry
 * over) goes up the frame-callback path, where the NIC's ICRC check finds
 * it; on the standard path, and for MAC Control frames on either path (the
 * MAC's FCS check), it is dropped (PhyRxDrop, Drop with DROP_CORRUPT).
 * Either way it is counted in Stats::rxCorrupt.
 *
 * Link failure: see QbbChannel::SetLinkDown(). The transmitter does not
 * notice a dead link: it keeps serializing frames at line rate, and every
 * frame that is on the wire while the link is down is lost and counted by
 * the transmitting device as DROP_LINK_DOWN (PFC frames too).
 *
 * Every trace source carries whole Ethernet frames or PFC events. Traces
 * are the only per-frame cost beyond the counters; nothing is logged on the
 * per-frame path unless NS_LOG is enabled for "QbbNetDevice".
 */
class QbbNetDevice : public NetDevice
{
  public:
    /// Bytes each frame adds on the wire by default (RdmaWire::WIRE_OVERHEAD_BYTES).
    static constexpr uint32_t WIRE_OVERHEAD_BYTES = RdmaWire::WIRE_OVERHEAD_BYTES;
    /// Smallest frame on the wire without its FCS (RdmaWire::MIN_FRAME_BYTES).
    static constexpr uint32_t MIN_FRAME_BYTES = RdmaWire::MIN_FRAME_BYTES;
    /// Bytes of an untagged Ethernet header (destination, source, EtherType).
    static constexpr uint32_t ETHERNET_HEADER_BYTES = RdmaWire::ETHERNET_HEADER_BYTES;
    /// Bytes of an IEEE 802.1Q tag, allowed on top of Mtu in SendFrame().
    static constexpr uint32_t VLAN_TAG_BYTES = RdmaWire::VLAN_TAG_BYTES;
    /// Traffic classes (transmit queues), numbered 0 (lowest) to 7 (highest).
    static constexpr uint8_t NUM_CLASSES = RdmaWire::NUM_CLASSES;

    /// Counters of the device (QbbDeviceStats).
    using Stats = QbbDeviceStats;

    /**
     * \brief Callback that receives whole frames as Packets: a wrapped
     * frame's own Packet (the object the sender transmitted, shared: Copy()
     * it before changing it), or a Packet made from a compact frame.
     */
    typedef Callback<void, Ptr<QbbNetDevice>, Ptr<Packet>> FrameReceiveCallback;
    /**
     * \brief Callback that receives whole frames as the fabric carries them
     * (the object the sender transmitted, shared: RdmaFrame::RewriteHead
     * changes it for every holder).
     */
    typedef std::function<void(Ptr<QbbNetDevice>, Ptr<RdmaFrame>)> FrameHandler;

    /**
     * \brief TracedCallback signature of the Drop trace.
     * \param [in] frame the dropped Ethernet frame
     * \param [in] reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, RdmaDropReason reason);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QbbNetDevice();
    ~QbbNetDevice() override;

    // Delete copy constructor and assignment operator to avoid misuse
    QbbNetDevice(const QbbNetDevice&) = delete;
    QbbNetDevice& operator=(const QbbNetDevice&) = delete;

    /**
     * \brief Connect the device to a channel (at most two devices per channel).
     * \param channel the channel
     * \return false if the channel already has two devices
     */
    bool Attach(Ptr<QbbChannel> channel);

    /**
     * \brief Set the line rate (the DataRate attribute).
     * \param rate bits per second on the wire
     */
    void SetDataRate(DataRate rate);
    /// \return the line rate
    DataRate GetDataRate() const;
    /**
     * \brief Set the bytes each frame adds on the wire (the WireOverhead
     * attribute: 24 by IEEE 802.3, 0 as the HPCC simulator times frames).
     * \param bytes the overhead, bytes
     */
    void SetWireOverhead(uint32_t bytes);
    /// \return the bytes each frame adds on the wire (WireOverhead attribute)
    uint32_t GetWireOverhead() const;

    /**
     * \brief Time a frame occupies the wire at the line rate:
     * (max(frameBytes, MIN_FRAME_BYTES) + WireOverhead) * 8 / DataRate,
     * rounded to the simulator's time resolution (exact at picoseconds for
     * whole-Gb/s rates).
     * \param frameBytes Ethernet frame bytes without FCS
     * \return the wire time
     */
    Time GetWireTime(uint32_t frameBytes) const;

    /**
     * \brief Queue a complete Ethernet frame for transmission.
     *
     * It starts at once when the transmitter is idle and its class (see
     * GetClassMap().Classify()) is not paused (IsTxIdle() is then false on return); else
     * it waits in its class's queue. The MacTx trace sees every frame
     * accepted.
     * \param frame an Ethernet frame, destination MAC first, no FCS, of
     *        ETHERNET_HEADER_BYTES to Mtu + ETHERNET_HEADER_BYTES +
     *        VLAN_TAG_BYTES bytes; the device keeps and transmits this very
     *        object, so the caller must not change it afterwards
     * \return false if it was dropped: bad size (DROP_BAD_SIZE), refused
     *         by the egress queue (its Drop trace), or the device has no channel
     */
    bool SendFrame(Ptr<Packet> frame);
    /**
     * \brief SendFrame() for a frame as the fabric carries it (what a NIC
     * builds: RoceFrame::BuildFrame).
     * \param frame the frame; the device keeps and transmits this very object
     * \return as SendFrame(Ptr<Packet>)
     */
    bool SendFrame(Ptr<RdmaFrame> frame);
    /**
     * \brief Queue a frame a switch has classified and described already
     * (QbbQueueItem: class, bytes, ingress port, header offsets), through
     * the egress queue and its policies.
     * \param item the frame and what the queue needs to know about it
     * \return false if it was dropped: bad size (DROP_BAD_SIZE), no
     *         channel, or by the queue (its Drop trace)
     */
    bool Enqueue(QbbQueueItem item);

    /**
     * \brief Set the pull hook: called, from the event that ends a
     * transmission (data or PFC), each time the transmitter becomes idle
     * with every transmit queue empty (once per such transition; not while
     * frames wait in paused classes). Calling SendFrame() inside it starts
     * the next frame at once.
     * \param callback the hook (a null callback removes it)
     */
    void SetTxReadyCallback(Callback<void> callback);

    /**
     * \brief Set the raw-frame receive callback. While set, it gets every
     * received frame whole (Ethernet header included, corrupted copies too)
     * and the standard receive callbacks get nothing.
     * \param callback the callback (a null callback restores the standard path)
     */
    void SetFrameReceiveCallback(FrameReceiveCallback callback);
    /**
     * \brief Set the frame handler: as SetFrameReceiveCallback, the frame as
     * it is carried (no Packet made for a compact frame). It takes precedence
     * over the frame callback.
     * \param handler the handler (a null callback removes it)
     */
    void SetFrameHandler(FrameHandler handler);

    /// \return true if nothing is being transmitted and every transmit queue is empty
    bool IsTxIdle() const;
    /**
     * \brief Replace the egress queue (the TxQueue attribute); only while
     * it holds no frame.
     * \param queue the queue (not null)
     */
    void SetTxQueue(Ptr<QbbEgressQueue> queue);
    /// \return the egress queue
    Ptr<QbbEgressQueue> GetTxQueue() const;
    /**
     * \brief Replace the PFC controller (the PfcController attribute).
     * \param pfc the controller (not null)
     */
    void SetPfcController(Ptr<QbbPfcController> pfc);
    /// \return the PFC controller
    Ptr<QbbPfcController> GetPfcController() const;


    /// \return the classifier: a frame's traffic class by its PCP, or its
    /// DSCP through the DscpToClass map (QbbDscpClassMap::Classify)
    const QbbDscpClassMap& GetClassMap() const;
    /// \return the classifier, to change the class of a DSCP value
    QbbDscpClassMap& GetClassMap();
    /// \return the counters
    const Stats& GetStats() const;

    /**
     * \brief Set the receive error model (the ReceiveErrorModel attribute).
     * \param em the error model, or null for none
     */
    void SetReceiveErrorModel(Ptr<ErrorModel> em);

    /**
     * \brief Assign a fixed random variable stream number to the random
     * variables used by this device (the corrupted-bit position).
     * \param stream first stream index to use
     * \return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the channel as a QbbChannel (null before Attach())
    Ptr<QbbChannel> GetQbbChannel() const;

    // Inherited from NetDevice.
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    /**
     * \brief Set the MTU (the Mtu attribute): Ethernet payload bytes.
     * \param mtu payload bytes (at least 46)
     * \return false (and no change) if mtu is below 46
     */
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    /// \return true if attached to a channel whose link is up
    bool IsLinkUp() const override;
    /// \param callback called whenever the channel's link goes down or up
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    /// \return false
    bool IsBridge() const override;
    /// \return true: the link joins exactly two devices
    bool IsPointToPoint() const override;
    /**
     * \brief Send a packet: add an Ethernet header (this device's MAC as
     * source, dest, EtherType = protocolNumber), pad the payload to the
     * 46-byte Ethernet minimum, and queue it as SendFrame() does.
     * \param packet payload of at most Mtu bytes (it gets the header added)
     * \param dest destination MAC address
     * \param protocolNumber EtherType
     * \return false if dropped (see SendFrame()) or larger than Mtu
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    /**
     * \brief Send() with a given source MAC address.
     * \param packet payload of at most Mtu bytes
     * \param source source MAC address
     * \param dest destination MAC address
     * \param protocolNumber EtherType
     * \return false if dropped
     */
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    /// \return true: Ethernet addressing (ARP/NDP resolve the peer's MAC)
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    /// \return true
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief This port's INT hop record now (the egress queue asks at the
     * stamping point): its rate, the time, the bytes it has sent, and the
     * queue's bytes. \param queueBytes the bytes the record reports as queued
     * \return IntHeader::EncodeHop's record
     */
    uint64_t IntRecord(uint64_t queueBytes) const;
    /**
     * \brief This port's identity beside its INT records (IntHeader::EgressIds).
     * \return ((node ID + 1) << 32) | device index; 0 before the device is on a node
     */
    uint64_t IntEgressId() const;
    friend class QbbChannel;
    friend class QbbWire;

    /**
     * \brief Build an Ethernet frame around a payload and queue it.
     * \param packet the payload
     * \param source source MAC
     * \param dest destination MAC
     * \param protocolNumber EtherType
     * \return false if dropped
     */
    bool DoSend(Ptr<Packet> packet,
                Mac48Address source,
                Mac48Address dest,
                uint16_t protocolNumber);
    /**
     * \brief Start the next frame if the transmitter is idle: a pending PFC
     * frame first, then data.
     * \return true if a transmission started
     */
    bool StartNextFrame();
    /// The PFC controller or a pause's end asks for a transmission.
    void Kick();
    /**
     * \brief Send a classified frame: straight to an idle wire when its
     * class is free and the queue can be bypassed, else through the queue.
     * \param item the frame
     * \return false if the queue dropped it
     */
    bool Queue(QbbQueueItem&& item);
    /**
     * \brief Put a frame on the wire. The end of its transmission is an
     * event only if something waits for it (queued frames, a pending PFC
     * frame, a TxReady callback or a PhyTxEnd sink); otherwise the
     * transmission is settled when the device is next used or looked at
     * (QbbTransmitter::Settle), which on a lightly loaded switch port saves one event in
     * two. Counters and behaviour are the same either way.
     * \param frame the frame
     */
    void TransmitStart(Ptr<RdmaFrame> frame);
    /**
     * \brief Check a frame's size and channel, fire MacTx.
     * \param frame the frame
     * \return false if it was dropped (bad size) or there is no channel
     */
    bool Accept(const Ptr<RdmaFrame>& frame);
    /// The current frame has been serialized: start the next or go idle.
    void TransmitComplete();
    /**
     * \brief Called by the channel when a frame's last bit arrives.
     * \param frame the frame the peer transmitted
     */
    void Receive(Ptr<RdmaFrame> frame);
    /**
     * \brief Called by the channel when a frame this device sent was on the
     * wire while the link went down.
     * \param frame the lost frame
     */
    void LostOnLink(Ptr<RdmaFrame> frame);
    /// Called by the channel when its link goes down or up.
    void NotifyLinkChange();
    /**
     * \brief Pass a received frame up the standard path.
     * \param frame the whole frame
     */
    void ForwardUp(Ptr<Packet> frame);
    /**
     * \brief A copy of a frame with one bit flipped (see CorruptTailBytes).
     * \param frame the frame
     * \return the corrupted copy
     */
    Ptr<RdmaFrame> CorruptCopy(const RdmaFrame& frame);
    /**
     * \brief Count a drop and fire the Drop trace.
     * \param frame the frame
     * \param reason why
     */
    void Drop(const RdmaFrame& frame, RdmaDropReason reason);

    // The members a frame's pass through the port reads, first and together
    // (after the object's reference count, which every Ptr copy of the
    // device touches): a frame costs one or two cache lines of the device,
    // not one per member. Changing this order changes no behaviour.
    QbbTransmitter m_tx;           //!< the frame on the wire, its end, wire times
    Ptr<QbbChannel> m_channel;     //!< the channel
    Ptr<QbbEgressQueue> m_queue;   //!< the egress queue (TxQueue attribute)
    Ptr<QbbPfcController> m_pfc;   //!< PFC decisions (PfcController attribute)
    Ptr<ErrorModel> m_receiveErrorModel; //!< receive errors, or null
    uint16_t m_mtu;                //!< Ethernet payload bytes
    bool m_dequeuing{false};       //!< inside StartNextFrame (the queue's policies may call back)
    Callback<void> m_txReadyCallback;                      //!< pull hook
    FrameHandler m_frameHandler;                           //!< raw-frame receive, as carried
    Stats m_stats; //!< counters (the transmitter counts what it sends)
    TracedCallback<Ptr<const Packet>> m_macTxTrace;      //!< MacTx: frame accepted for sending
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace; //!< PhyTxBegin: first bit sent
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;   //!< PhyTxEnd: last bit sent
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;   //!< PhyRxEnd: last bit received
    TracedCallback<Ptr<const Packet>> m_macRxTrace;      //!< MacRx: frame passed up

    Ptr<Node> m_node;                        //!< the node
    uint32_t m_ifIndex{0};                   //!< interface index
    Mac48Address m_address;                  //!< MAC address
    uint32_t m_corruptTailBytes;             //!< span of the flipped bit, bytes from the end
    RdmaStreamAtFirstDraw m_corruptRng; //!< position of the flipped bit (most links never corrupt)
    QbbDscpClassMap m_dscpMap;     //!< DSCP to class

    FrameReceiveCallback m_frameRxCallback;                //!< raw-frame receive
    NetDevice::ReceiveCallback m_rxCallback;               //!< standard receive
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous receive
    TracedCallback<> m_linkChangeCallbacks;                //!< link up/down listeners

    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;  //!< PhyRxDrop: corrupt, dropped
    TracedCallback<Ptr<const Packet>, RdmaDropReason> m_dropTrace; //!< Drop: any drop, with reason
};

} // namespace ns3

#endif // QBB_NET_DEVICE_H
