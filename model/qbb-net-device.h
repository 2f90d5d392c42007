/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_NET_DEVICE_H
#define QBB_NET_DEVICE_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

class QbbChannel;
class ErrorModel;
class Node;
class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief A lean full-duplex Ethernet port for point-to-point links of the
 * rdma module (the device that 802.1Qbb PFC will be added to).
 *
 * The device carries whole Ethernet frames (destination MAC first, no
 * preamble, no FCS) to the one peer on its QbbChannel.
 *
 * Transmit: a frame handed to Send() (which adds the Ethernet header) or to
 * SendFrame() (which takes a frame that already has one) starts at once if
 * the transmitter is idle, else waits in a FIFO transmit queue of at most
 * TxQueueMaxBytes bytes (the frame being serialized is not counted). A frame
 * occupies the wire for GetWireTime(): its bytes (at least the 60-byte
 * minimum frame, shorter frames are padded by the PHY) plus the per-frame
 * wire overhead of IEEE 802.3 clause 3 and 4: 4 bytes FCS, 7 bytes preamble
 * and 1 byte SFD, and a 12-byte minimum inter-frame gap, 24 bytes in all,
 * at DataRate. One event per transmission ends it at the transmitter (one
 * reused event object, nothing allocated per frame); the channel delivers
 * the same Ptr<Packet> (no per-hop copy) to the peer GetWireTime() + Delay
 * after the start, with one event per frame.
 *
 * Pull interface for a NIC: when a transmission ends and the queue is empty
 * the transmitter goes idle and calls the TxReady callback once (from the
 * event that ended the transmission); a NIC keeps the queue short by pushing
 * one frame with SendFrame() on each call (and by pushing while IsTxIdle()
 * when it gets new work).
 *
 * Receive: with a frame callback set (SetFrameReceiveCallback) every frame
 * goes up whole, Ethernet header included, to that callback only (the NIC or
 * switch parses it). Otherwise the Ethernet header is removed and the payload
 * goes to the standard receive callbacks with protocol = EtherType, as
 * CsmaNetDevice does: the promiscuous callback sees every frame, the
 * non-promiscuous one frames addressed to this device, broadcast or
 * multicast. 802.1Q tags are not removed on that path.
 *
 * Errors: a frame the ReceiveErrorModel declares corrupt is really
 * corrupted: one bit of a copy of the frame is flipped (see CorruptTailBytes)
 * and the copy (a new Packet made from the bytes: packet tags do not carry
 * over) goes up the frame-callback path, where the NIC's ICRC check finds
 * it; on the standard path it is dropped (PhyRxDrop, Drop with
 * DROP_CORRUPT). Either way it is counted in Stats::rxCorrupt.
 *
 * Link failure: see QbbChannel::SetLinkDown(). The transmitter does not
 * notice a dead link: it keeps serializing frames at line rate, and every
 * frame that is on the wire while the link is down is lost and counted by
 * the transmitting device as DROP_LINK_DOWN.
 *
 * Every trace source carries whole Ethernet frames. Traces are the only
 * per-frame cost beyond the counters; nothing is logged on the per-frame
 * path unless NS_LOG is enabled for "QbbNetDevice".
 */
class QbbNetDevice : public NetDevice
{
  public:
    /// Bytes each frame adds on the wire (IEEE 802.3): FCS 4 + preamble/SFD 8 + IFG 12.
    static constexpr uint32_t WIRE_OVERHEAD_BYTES = 24;
    /// Smallest frame on the wire without its FCS (IEEE 802.3: 64 bytes with FCS).
    static constexpr uint32_t MIN_FRAME_BYTES = 60;
    /// Bytes of an untagged Ethernet header (destination, source, EtherType).
    static constexpr uint32_t ETHERNET_HEADER_BYTES = 14;
    /// Bytes of an IEEE 802.1Q tag, allowed on top of Mtu in SendFrame().
    static constexpr uint32_t VLAN_TAG_BYTES = 4;

    /// Why a frame was dropped (the Drop trace and Stats::drops).
    enum DropReason
    {
        DROP_QUEUE_FULL = 0, //!< the transmit queue would exceed TxQueueMaxBytes
        DROP_LINK_DOWN,      //!< on the wire while the link was down (counted by the sender)
        DROP_CORRUPT,        //!< corrupted (ReceiveErrorModel), standard receive path only
        DROP_BAD_SIZE,       //!< too short for an Ethernet header or longer than Mtu allows
        DROP_REASON_COUNT    //!< number of reasons (not a reason)
    };

    /**
     * \param reason a drop reason
     * \return its name, e.g. "QUEUE_FULL"
     */
    static const char* DropReasonName(DropReason reason);

    /// Counters of the device (frame bytes: Ethernet header to payload end, no FCS).
    struct Stats
    {
        uint64_t txFrames{0};  //!< frames whose transmission ended (lost ones included)
        uint64_t txBytes{0};   //!< their bytes
        uint64_t rxFrames{0};  //!< frames received and passed up (corrupted copies included)
        uint64_t rxBytes{0};   //!< their bytes
        uint64_t rxCorrupt{0}; //!< frames the ReceiveErrorModel corrupted (either path)
        std::array<uint64_t, DROP_REASON_COUNT> drops{}; //!< drops by DropReason
    };

    /**
     * \brief Callback that receives whole frames.
     * The frame is the object the sender transmitted (shared, not copied):
     * Copy() it before changing it.
     */
    typedef Callback<void, Ptr<QbbNetDevice>, Ptr<Packet>> FrameReceiveCallback;

    /**
     * \brief TracedCallback signature of the Drop trace.
     * \param [in] frame the dropped Ethernet frame
     * \param [in] reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, DropReason reason);

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
     * \brief Time a frame occupies the wire at the line rate:
     * (max(frameBytes, MIN_FRAME_BYTES) + WIRE_OVERHEAD_BYTES) * 8 / DataRate,
     * rounded to the simulator's time resolution (exact at picoseconds for
     * whole-Gb/s rates).
     * \param frameBytes Ethernet frame bytes without FCS
     * \return the wire time
     */
    Time GetWireTime(uint32_t frameBytes) const;

    /**
     * \brief Queue a complete Ethernet frame for transmission.
     *
     * It starts at once when the transmitter is idle (IsTxIdle() is then
     * false on return). The MacTx trace sees every frame accepted.
     * \param frame an Ethernet frame, destination MAC first, no FCS, of
     *        ETHERNET_HEADER_BYTES to Mtu + ETHERNET_HEADER_BYTES +
     *        VLAN_TAG_BYTES bytes; the device keeps and transmits this very
     *        object, so the caller must not change it afterwards
     * \return false if it was dropped: bad size (DROP_BAD_SIZE), queue full
     *         (DROP_QUEUE_FULL), or the device has no channel
     */
    bool SendFrame(Ptr<Packet> frame);

    /**
     * \brief Set the pull hook: called, from the event that ends a
     * transmission, each time the transmitter becomes idle with an empty
     * queue (once per such transition). Calling SendFrame() inside it starts
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

    /// \return true if nothing is being transmitted and the queue is empty
    bool IsTxIdle() const;
    /// \return bytes waiting in the transmit queue (not the frame being sent)
    uint64_t GetTxQueueBytes() const;
    /// \return frames waiting in the transmit queue (not the frame being sent)
    uint32_t GetTxQueueFrames() const;

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
    friend class QbbChannel;

    /// One FIFO of frames waiting for the transmitter.
    struct TxQueue
    {
        std::deque<Ptr<Packet>> frames; //!< waiting frames, oldest first
        uint64_t bytes{0};              //!< their bytes
    };

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
     * \brief Index of the transmit queue a frame waits in (always 0 until
     * priority classes arrive).
     * \param frame the frame
     * \return the queue index
     */
    uint32_t SelectTxQueue(Ptr<const Packet> frame) const;
    /**
     * \brief Remove the next frame to transmit from the queues.
     * \return the frame, or null if every queue is empty
     */
    Ptr<Packet> DequeueFrame();
    /**
     * \brief Put a frame on the wire and schedule the end of its transmission.
     * \param frame the frame
     */
    void TransmitStart(Ptr<Packet> frame);
    /// The current frame has been serialized: start the next or go idle.
    void TransmitComplete();
    /**
     * \brief Called by the channel when a frame's last bit arrives.
     * \param frame the frame the peer transmitted
     */
    void Receive(Ptr<Packet> frame);
    /**
     * \brief Called by the channel when a frame this device sent was on the
     * wire while the link went down.
     * \param frame the lost frame
     */
    void LostOnLink(Ptr<Packet> frame);
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
    Ptr<Packet> CorruptCopy(Ptr<const Packet> frame);
    /**
     * \brief Count a drop and fire the Drop trace.
     * \param frame the frame
     * \param reason why
     */
    void Drop(Ptr<const Packet> frame, DropReason reason);

    Ptr<Node> m_node;                        //!< the node
    Ptr<QbbChannel> m_channel;               //!< the channel
    uint32_t m_ifIndex{0};                   //!< interface index
    Mac48Address m_address;                  //!< MAC address
    uint16_t m_mtu;                          //!< Ethernet payload bytes
    DataRate m_rate;                         //!< line rate
    uint64_t m_txQueueMaxBytes;              //!< queue limit, bytes
    uint32_t m_corruptTailBytes;             //!< span of the flipped bit, bytes from the end
    Ptr<ErrorModel> m_receiveErrorModel;     //!< receive errors, or null
    Ptr<UniformRandomVariable> m_corruptRng; //!< position of the flipped bit

    std::array<TxQueue, 1> m_txQueues; //!< transmit queues (one class for now)
    uint64_t m_txQueueBytes{0};        //!< bytes in all queues
    Ptr<Packet> m_txFrame;             //!< frame being serialized, or null when idle
    Ptr<EventImpl> m_txCompleteImpl;   //!< TransmitComplete event, reused for every frame
    EventId m_txCompleteEvent;         //!< end of the current transmission

    mutable uint32_t m_wireTimeBytes{0}; //!< frame size of the cached wire time
    mutable Time m_wireTime;             //!< cached GetWireTime(m_wireTimeBytes)

    Stats m_stats; //!< counters

    Callback<void> m_txReadyCallback;                      //!< pull hook
    FrameReceiveCallback m_frameRxCallback;                //!< raw-frame receive
    NetDevice::ReceiveCallback m_rxCallback;               //!< standard receive
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous receive
    TracedCallback<> m_linkChangeCallbacks;                //!< link up/down listeners

    TracedCallback<Ptr<const Packet>> m_macTxTrace;      //!< MacTx: frame accepted for sending
    TracedCallback<Ptr<const Packet>> m_macRxTrace;      //!< MacRx: frame passed up
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace; //!< PhyTxBegin: first bit sent
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;   //!< PhyTxEnd: last bit sent
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;   //!< PhyRxEnd: last bit received
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;  //!< PhyRxDrop: corrupt, dropped
    TracedCallback<Ptr<const Packet>, DropReason> m_dropTrace; //!< Drop: any drop, with reason
};

} // namespace ns3

#endif // QBB_NET_DEVICE_H
