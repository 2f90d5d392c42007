/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_NET_DEVICE_H
#define QBB_NET_DEVICE_H

#include "ns3/attribute-helper.h"
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
#include <istream>
#include <ostream>

namespace ns3
{

class QbbChannel;
class ErrorModel;
class Node;
class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief The traffic class of each DSCP value: the DscpToClass attribute of
 * QbbNetDevice.
 *
 * The default is the class-selector rule of RFC 2474 section 4.2.2: DSCP d
 * goes to class d >> 3 (CS0-CS7 to classes 0-7; AF31 = 26, the usual RoCEv2
 * data DSCP, to class 3; CS6 = 48, CNPs on many NICs, to class 6). As a
 * string (Config, command line): 64 class numbers 0-7 separated by spaces,
 * the class of DSCP 0 first; anything else fails to parse.
 */
struct QbbDscpClassMap
{
    /// The class-selector map: DSCP d to class d >> 3.
    QbbDscpClassMap();

    std::array<uint8_t, 64> cls; //!< class of DSCP d at index d, 0-7
};

/**
 * \brief Print a DSCP map as 64 space-separated class numbers.
 * \param os the stream
 * \param map the map
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const QbbDscpClassMap& map);
/**
 * \brief Read a DSCP map: exactly 64 class numbers 0-7 (failbit otherwise).
 * \param is the stream
 * \param map the map read
 * \return the stream
 */
std::istream& operator>>(std::istream& is, QbbDscpClassMap& map);

ATTRIBUTE_HELPER_HEADER(QbbDscpClassMap);

/**
 * \ingroup rdma
 * \brief The deficit-weighted round-robin quantum of each traffic class,
 * bytes: the DwrrQuanta attribute of QbbNetDevice. Default 9018 bytes for
 * every class (equal shares; one largest frame at the default Mtu, 9000 +
 * 14 + 4, so each turn sends at least one frame). As a string: 8 quanta
 * (1 to 2^32 - 1 bytes) separated by spaces, class 0 first.
 */
struct QbbDwrrQuanta
{
    /// Equal quanta of 9018 bytes.
    QbbDwrrQuanta();

    std::array<uint32_t, 8> bytes; //!< quantum of class c at index c, bytes (> 0)
};

/**
 * \brief Print DWRR quanta as 8 space-separated byte counts.
 * \param os the stream
 * \param quanta the quanta
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const QbbDwrrQuanta& quanta);
/**
 * \brief Read DWRR quanta: exactly 8 byte counts above 0 (failbit otherwise).
 * \param is the stream
 * \param quanta the quanta read
 * \return the stream
 */
std::istream& operator>>(std::istream& is, QbbDwrrQuanta& quanta);

ATTRIBUTE_HELPER_HEADER(QbbDwrrQuanta);

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
 * one of NUM_CLASSES traffic classes (see Classify()). It starts at once if
 * the transmitter is idle and its class is not paused, else it waits in its
 * class's FIFO transmit queue. TxQueueMaxBytes bounds the bytes waiting in
 * all eight queues together (the frame being serialized is not counted),
 * as one shared buffer; a switch's MMU does its own per-class admission
 * with the per-class getters. When a transmission ends the next frame is
 * taken from the classes that have frames and are not paused, by the
 * Scheduler: strict priority (the highest class first, IEEE 802.1Q 8.6.8.1)
 * or deficit-weighted round robin (Shreedhar and Varghese, SIGCOMM 1995:
 * each class in turn gets its DwrrQuanta bytes of credit and sends frames
 * while the head frame fits its credit; a class that empties loses its
 * credit). A frame occupies the wire for GetWireTime(): its bytes (at
 * least the 60-byte minimum frame, shorter frames are padded by the PHY)
 * plus the per-frame wire overhead of IEEE 802.3 clause 3 and 4: 4 bytes
 * FCS, 7 bytes preamble and 1 byte SFD, and a 12-byte minimum inter-frame
 * gap, 24 bytes in all, at DataRate. One event per transmission ends it at
 * the transmitter (one reused event object, nothing allocated per frame);
 * the channel delivers the same Ptr<Packet> (no per-hop copy) to the peer
 * GetWireTime() + Delay after the start, with one event per frame.
 *
 * PFC, sending: SendPfcPause() and SendPfcResume() are the interface for
 * whoever decides to pause the peer (a switch MMU, a NIC). The request
 * becomes a 60-byte MAC Control frame (PfcHeader: to 01-80-C2-00-00-01,
 * EtherType 0x8808, opcode 0x0101) that jumps ahead of every data frame: it
 * starts as soon as the frame being serialized ends (at once if the
 * transmitter is idle), and it is never paused itself. Requests made
 * before it starts are merged into that one frame (one class-enable bit per
 * class, the latest time of each class). SetPfcHold() keeps the peer's
 * class paused for as long as the owner wants: it sends PfcPauseQuanta, sends
 * the pause again PfcRefreshMargin before the last one would expire at the
 * peer, and sends XON (time 0) when released.
 *
 * PFC, receiving: a MAC Control frame (EtherType 0x8808, untagged, at most
 * the 60-byte minimum frame: IEEE 802.3 31.4 fixes MAC Control frames at
 * minFrameSize, so longer frames are not looked at) is consumed by the
 * device: never passed to any receive callback, not counted in
 * Stats::rxFrames, seen by the PhyRxEnd trace (so it is in the pcap). A
 * PFC frame (opcode 0x0101) sets, for each class whose enable bit
 * is set and whose bit is set in PfcRxEnable, the class's pause timer to
 * quanta x 512 bit times at this device's DataRate (IEEE 802.1Q clause 36;
 * PfcHeader::QuantaToTime), counted from the arrival of the frame's last bit
 * (its serialization and propagation have already happened); a new time
 * replaces a running one, time 0 resumes the class at once. An IEEE 802.3x
 * PAUSE frame (opcode 0x0001, one pause time for the whole link, Annex 31B)
 * does the same to every class in PfcRxEnable. Other opcodes are ignored.
 * A paused class starts no new frame (a frame already being serialized
 * finishes); while every class with frames is paused the transmitter is
 * idle, and when a pause expires or is cancelled transmission resumes.
 *
 * Pull interface for a NIC: when a transmission ends and every transmit
 * queue is empty the transmitter goes idle and calls the TxReady callback
 * once (from the event that ended the transmission); a NIC keeps the queues
 * short by pushing one frame with SendFrame() on each call (and by pushing
 * while IsTxIdle() when it gets new work). While the NIC's class is paused
 * its pushed frame waits in the queue, IsTxIdle() is false and the NIC
 * waits; after the resume that frame is sent and TxReady follows its end.
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
    /// Bytes each frame adds on the wire (IEEE 802.3): FCS 4 + preamble/SFD 8 + IFG 12.
    static constexpr uint32_t WIRE_OVERHEAD_BYTES = 24;
    /// Smallest frame on the wire without its FCS (IEEE 802.3: 64 bytes with FCS).
    static constexpr uint32_t MIN_FRAME_BYTES = 60;
    /// Bytes of an untagged Ethernet header (destination, source, EtherType).
    static constexpr uint32_t ETHERNET_HEADER_BYTES = 14;
    /// Bytes of an IEEE 802.1Q tag, allowed on top of Mtu in SendFrame().
    static constexpr uint32_t VLAN_TAG_BYTES = 4;
    /// Traffic classes (transmit queues), numbered 0 (lowest) to 7 (highest).
    static constexpr uint8_t NUM_CLASSES = 8;
    /// Marks a class not known yet (internal; never a valid class).
    static constexpr uint8_t NO_CLASS = 0xFF;

    /// How the transmitter chooses between traffic classes (the Scheduler attribute).
    enum Scheduler
    {
        STRICT_PRIORITY = 0, //!< the highest class with an eligible frame first
        DWRR,                //!< deficit-weighted round robin with DwrrQuanta
    };

    /// Why a frame was dropped (the Drop trace and Stats::drops).
    enum DropReason
    {
        DROP_QUEUE_FULL = 0, //!< the transmit queue would exceed TxQueueMaxBytes
        DROP_LINK_DOWN,      //!< on the wire while the link was down (counted by the sender)
        DROP_CORRUPT,        //!< corrupted (ReceiveErrorModel), standard receive path only
        DROP_BAD_SIZE,       //!< too short for an Ethernet header or longer than Mtu allows
        DROP_FLUSHED,        //!< removed from its queue by FlushClass() (a PFC watchdog)
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
        uint64_t txFrames{0};  //!< frames whose transmission ended (lost and PFC ones included)
        uint64_t txBytes{0};   //!< their bytes
        uint64_t rxFrames{0};  //!< frames received and passed up (corrupted copies included)
        uint64_t rxBytes{0};   //!< their bytes
        uint64_t rxCorrupt{0}; //!< frames the ReceiveErrorModel corrupted (either path)
        std::array<uint64_t, DROP_REASON_COUNT> drops{}; //!< drops by DropReason
        uint64_t pfcFramesTx{0};   //!< PFC frames this device sent (transmission started)
        uint64_t pfcFramesRx{0};   //!< PFC frames received (corrupted ones not included)
        uint64_t pauseFramesRx{0}; //!< 802.3x PAUSE frames received
        std::array<uint64_t, NUM_CLASSES> pfcPauseTx{};  //!< sent PFC frames pausing class c
        std::array<uint64_t, NUM_CLASSES> pfcResumeTx{}; //!< sent PFC frames with XON for c
        /// Received pauses (time > 0) of class c, PFC or 802.3x, obeyed or not.
        std::array<uint64_t, NUM_CLASSES> pfcPauseRx{};
        std::array<uint64_t, NUM_CLASSES> pfcResumeRx{}; //!< received XONs (time 0) of class c
        /// Time class c's transmission was paused, pauses that have ended only
        /// (GetPausedTime() adds a running one).
        std::array<Time, NUM_CLASSES> pausedTime{};
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
     * \brief TracedCallback signature of the PfcPauseTx and PfcPauseRx
     * traces: one call per class a PFC frame enables.
     * \param [in] cls the traffic class, 0-7
     * \param [in] quanta its pause time in quanta of 512 bit times; 0 is XON
     */
    typedef void (*PfcTracedCallback)(uint8_t cls, uint16_t quanta);

    /**
     * \brief TracedCallback signature of the PfcPauseState trace.
     * \param [in] cls the traffic class, 0-7
     * \param [in] paused true when the class's transmission becomes paused,
     *             false when it may send again (expiry or XON)
     */
    typedef void (*PfcPauseStateTracedCallback)(uint8_t cls, bool paused);

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
     * It starts at once when the transmitter is idle and its class (see
     * Classify()) is not paused (IsTxIdle() is then false on return); else
     * it waits in its class's queue. The MacTx trace sees every frame
     * accepted.
     * \param frame an Ethernet frame, destination MAC first, no FCS, of
     *        ETHERNET_HEADER_BYTES to Mtu + ETHERNET_HEADER_BYTES +
     *        VLAN_TAG_BYTES bytes; the device keeps and transmits this very
     *        object, so the caller must not change it afterwards
     * \return false if it was dropped: bad size (DROP_BAD_SIZE), queue full
     *         (DROP_QUEUE_FULL), or the device has no channel
     */
    bool SendFrame(Ptr<Packet> frame);
    /**
     * \brief SendFrame() for a caller that has classified the frame already
     * (a switch reads the byte that decides it with the rest of the head).
     * \param frame as for SendFrame()
     * \param cls the frame's class as Classify() gives it, 0-7
     * \return as for SendFrame()
     */
    bool SendFrame(Ptr<Packet> frame, uint8_t cls);

    /**
     * \brief Set the pull hook: called, from the event that ends a
     * transmission (data or PFC), each time the transmitter becomes idle
     * with every transmit queue empty (once per such transition; not while
     * frames wait in paused classes). Calling SendFrame() inside it starts
     * the next frame at once.
     * \param callback the hook (a null callback removes it)
     */
    void SetTxReadyCallback(Callback<void> callback);

    /// Edits a data frame as it starts on the wire: (frame, class) -> the frame to send.
    typedef Callback<Ptr<Packet>, Ptr<Packet>, uint8_t> TxStartHook;
    /**
     * \brief Set the dequeue hook: called with each data frame (not PFC
     * frames) as it starts on the wire, after it left its queue and before
     * the PhyTxBegin trace; the frame it returns is the one sent. A switch
     * edits frames at dequeue here (INT as the HPCC simulator stamps it). The
     * returned frame must have the same size.
     * \param hook the hook (a null callback removes it)
     */
    void SetTxStartHook(TxStartHook hook);

    /**
     * \brief Set the raw-frame receive callback. While set, it gets every
     * received frame whole (Ethernet header included, corrupted copies too)
     * and the standard receive callbacks get nothing.
     * \param callback the callback (a null callback restores the standard path)
     */
    void SetFrameReceiveCallback(FrameReceiveCallback callback);

    /// \return true if nothing is being transmitted and every transmit queue is empty
    bool IsTxIdle() const;
    /// \return bytes waiting in all transmit queues (not the frame being sent)
    uint64_t GetTxQueueBytes() const;
    /// \return frames waiting in all transmit queues (not the frame being sent)
    uint32_t GetTxQueueFrames() const;
    /**
     * \param cls traffic class, 0-7 (aborts otherwise)
     * \return bytes waiting in the class's transmit queue
     */
    uint64_t GetTxQueueBytes(uint8_t cls) const;
    /**
     * \param cls traffic class, 0-7 (aborts otherwise)
     * \return frames waiting in the class's transmit queue
     */
    uint32_t GetTxQueueFrames(uint8_t cls) const;

    /**
     * \brief The traffic class of a frame, from the fewest bytes that decide
     * it: an 802.1Q-tagged frame (EtherType 0x8100 at offset 12) goes to its
     * PCP (byte 14, top 3 bits; IEEE 802.1Qbb pauses per priority, so class
     * = priority, without 802.1Q Table 8-5's swap of priorities 0 and 1); an
     * untagged IPv4 frame (0x0800) to DscpToClass[DSCP] (DSCP = byte 15 >> 2);
     * an untagged IPv6 frame (0x86DD) to DscpToClass[DSCP] of its Traffic
     * Class (bytes 14-15); anything else (ARP, MAC Control, frames too short to
     * hold the field) to the highest class, 7.
     * \param frame an Ethernet frame, destination MAC first
     * \return the class, 0-7
     */
    uint8_t Classify(Ptr<const Packet> frame) const;
    /**
     * \brief Classify() from a copy of the frame's first bytes.
     * \param head the first bytes of an Ethernet frame
     * \param n how many: at least 16, or the whole frame if it is shorter
     * \return the class, 0-7
     */
    uint8_t ClassifyHead(const uint8_t* head, uint32_t n) const;
    /**
     * \brief Set the class of one DSCP value (one entry of DscpToClass).
     * \param dscp 0-63 (aborts otherwise)
     * \param cls traffic class 0-7 (aborts otherwise)
     */
    void SetDscpClass(uint8_t dscp, uint8_t cls);
    /**
     * \param dscp 0-63 (aborts otherwise)
     * \return its traffic class
     */
    uint8_t GetDscpClass(uint8_t dscp) const;
    /**
     * \brief Set the DWRR quantum of one class (one entry of DwrrQuanta).
     * \param cls traffic class 0-7 (aborts otherwise)
     * \param bytes quantum, bytes (aborts if 0); at least the largest frame
     *        keeps each dequeue to one pass over the classes
     */
    void SetDwrrQuantum(uint8_t cls, uint32_t bytes);

    /**
     * \brief Ask the peer to pause one class: a PFC frame enabling class
     * cls with time quanta is sent ahead of all data, as soon as the frame
     * being serialized ends (merged with other requests not yet on the
     * wire; a later request for the same class replaces the earlier). It
     * fires PfcPauseTx when its transmission starts. The peer stops starting
     * frames of cls from the arrival of the frame's last bit for quanta x 512
     * bit times at the peer's rate.
     * \param cls traffic class 0-7 (aborts otherwise)
     * \param quanta pause time in quanta of 512 bit times; 0 sends XON
     */
    void SendPfcPause(uint8_t cls, uint16_t quanta);
    /**
     * \brief Let the peer send class cls again at once: SendPfcPause(cls, 0), XON.
     * \param cls traffic class 0-7 (aborts otherwise)
     */
    void SendPfcResume(uint8_t cls);
    /**
     * \brief Hold the peer's class cls paused, or release it.
     *
     * Holding sends a pause of PfcPauseQuanta and, each time a pause of the
     * class starts its transmission at time t, schedules the next one at
     * t + PfcPauseQuanta x 512 / DataRate - PfcRefreshMargin, so the peer
     * gets it before its pause expires as long as the margin exceeds the
     * wait behind one frame in serialization (IEEE 802.1Qbb leaves the
     * refresh policy to the implementation; switches refresh before expiry
     * while their XOFF condition lasts). Releasing cancels the refresh and
     * sends XON. Holding a held class, or releasing a free one, does nothing.
     * SendPfcPause() and SendPfcResume() on a held class send their frame
     * and leave the refresh schedule alone (a later refresh pauses again).
     * \param cls traffic class 0-7 (aborts otherwise)
     * \param hold true to hold, false to release
     */
    void SetPfcHold(uint8_t cls, bool hold);
    /**
     * \param cls traffic class 0-7 (aborts otherwise)
     * \return true if SetPfcHold() holds the peer's class paused
     */
    bool IsPfcHeld(uint8_t cls) const;
    /**
     * \param cls traffic class 0-7 (aborts otherwise)
     * \return true if the peer has paused this device's class cls
     */
    bool IsClassPaused(uint8_t cls) const;
    /**
     * \brief Obey or ignore the peer's pauses of one class (one bit of
     * PfcRxEnable), as a PFC watchdog does to a stormed queue. Ignoring a
     * class that is paused resumes it at once.
     * \param cls traffic class 0-7 (aborts otherwise)
     * \param enabled true to obey pauses, false to ignore them
     */
    void SetPfcRxEnabled(uint8_t cls, bool enabled);
    /**
     * \brief Drop every frame waiting in one class's transmit queue (Drop
     * trace with DROP_FLUSHED); the frame being serialized is not touched.
     * \param cls traffic class 0-7 (aborts otherwise)
     * \return the number of frames dropped
     */
    uint32_t FlushClass(uint8_t cls);
    /**
     * \param cls traffic class 0-7 (aborts otherwise)
     * \return total time the peer has kept class cls paused, a running pause
     *         included
     */
    Time GetPausedTime(uint8_t cls) const;

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

    /// Transmit-side PFC state of one class (paused by the peer).
    struct PauseState
    {
        EventId expiry; //!< end of the running pause
        Time since;     //!< start of the running pause
        Time until;     //!< end of the running pause
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
     * \brief Remove the next frame to transmit from the queues of the
     * classes that are not paused, by the Scheduler.
     * \param cls receives the frame's class
     * \return the frame, or null if no such class has a frame
     */
    Ptr<Packet> DequeueFrame(uint8_t& cls);
    /**
     * \brief DWRR choice among the eligible classes.
     * \param eligible bit c set for each class with frames and not paused (not 0)
     * \return the class to send from
     */
    uint8_t DwrrSelect(uint8_t eligible);
    /**
     * \brief Remove the head frame of a class's queue.
     * \param cls the class (its queue is not empty)
     * \return the frame
     */
    Ptr<Packet> PopFrame(uint8_t cls);
    /**
     * \brief Start the next frame if the transmitter is idle: a pending PFC
     * frame first, then data.
     * \return true if a transmission started
     */
    bool StartNextFrame();
    /// \return the PFC frame for the pending requests (clears them, fires PfcPauseTx)
    Ptr<Packet> BuildPfcFrame();
    /**
     * \brief Consume a received MAC Control frame (PFC or 802.3x PAUSE).
     * \param frame the frame
     */
    void ReceiveMacControl(Ptr<const Packet> frame);
    /**
     * \brief Apply a received pause time to one class.
     * \param cls the class
     * \param quanta the time, quanta of 512 bit times (0 resumes)
     */
    void PauseClass(uint8_t cls, uint16_t quanta);
    /**
     * \brief End the pause of a class (expiry or XON); the caller then
     * calls StartNextFrame().
     * \param cls the class
     */
    void ResumeClass(uint8_t cls);
    /// A pause timer ran out: resume every class whose pause ends now, then transmit.
    void PauseExpired();
    /**
     * \brief Time from the start of a held pause's transmission to its
     * refresh: the PfcPauseQuanta time minus PfcRefreshMargin (aborts, naming
     * both attributes, unless positive).
     * \return the interval
     */
    Time PfcRefreshInterval() const;
    /**
     * \brief Send the refresh of a held class's pause.
     * \param cls the class
     */
    void RefreshPfcHold(uint8_t cls);
    /**
     * \brief Put a frame on the wire. The end of its transmission is an
     * event only if something waits for it (queued frames, a pending PFC
     * frame, a TxReady callback or a PhyTxEnd sink); otherwise the
     * transmission is settled when the device is next used or looked at
     * (SettleTx), which on a lightly loaded switch port saves one event in
     * two. Counters and behaviour are the same either way.
     * \param frame the frame
     */
    void TransmitStart(Ptr<Packet> frame);
    /// SendFrame() with the class, or NO_CLASS if not known yet.
    bool DoSendFrame(Ptr<Packet> frame, uint8_t cls);
    /**
     * \brief TransmitStart() of a data frame, through the dequeue hook if one is set.
     * \param frame the frame
     * \param cls its class, or NO_CLASS if not known yet (sent at once
     *        without a look at its bytes)
     */
    void TransmitData(Ptr<Packet> frame, uint8_t cls);
    /// The current frame has been serialized: start the next or go idle.
    void TransmitComplete();
    /// Count the current frame as sent, fire PhyTxEnd and go idle.
    void EndTx() const;
    /**
     * \brief Settle a transmission that has ended without a completion
     * event. Const so that the getters can settle too.
     * \return true if a frame is still on the wire
     */
    bool SettleTx() const;
    /// Something now waits for the current transmission: make its end an event.
    void NeedTxComplete();
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

    std::array<TxQueue, NUM_CLASSES> m_txQueues;   //!< transmit queues, by class
    uint64_t m_txQueueBytes{0};                    //!< bytes in all queues
    uint8_t m_backlogMask{0};                      //!< bit c: class c's queue is not empty
    Scheduler m_scheduler{STRICT_PRIORITY};        //!< how the next class is chosen
    QbbDscpClassMap m_dscpMap;                     //!< DSCP to class
    QbbDwrrQuanta m_dwrrQuanta;                    //!< DWRR quanta, bytes
    std::array<uint64_t, NUM_CLASSES> m_deficit{}; //!< DWRR credit, bytes
    uint8_t m_dwrrClass{0};                        //!< class whose DWRR turn it is
    bool m_dwrrCredited{false};                    //!< it has had its quantum this turn

    uint8_t m_pausedMask{0};                          //!< bit c: peer paused class c
    uint8_t m_pfcRxEnable{0xFF};                      //!< classes whose received pauses apply
    std::array<PauseState, NUM_CLASSES> m_pause;      //!< per class, paused by the peer
    uint8_t m_pfcPendingMask{0};                      //!< classes of the PFC frame to send
    std::array<uint16_t, NUM_CLASSES> m_pfcPending{}; //!< their pause times, quanta
    uint8_t m_pfcHoldMask{0};                         //!< classes held paused at the peer
    std::array<EventId, NUM_CLASSES> m_pfcRefresh;    //!< refresh of each held class
    uint16_t m_pfcHoldQuanta;                         //!< pause time of a hold, quanta
    Time m_pfcRefreshMargin;                          //!< refresh this long before expiry
    mutable Ptr<Packet> m_txFrame; //!< frame being serialized, or null (settled lazily: SettleTx)
    Time m_txEnd;                  //!< when the current transmission ends
    Ptr<EventImpl> m_txCompleteImpl; //!< TransmitComplete event, reused for every frame
    EventId m_txCompleteEvent;       //!< end of the current transmission

    mutable std::array<uint32_t, 2> m_wireTimeBytes; //!< frame sizes of the cached wire times
    mutable std::array<Time, 2> m_wireTime;          //!< GetWireTime of each, latest first

    mutable Stats m_stats; //!< counters (mutable: SettleTx counts a lazily ended frame)

    Callback<void> m_txReadyCallback;                      //!< pull hook
    TxStartHook m_txStartHook;                             //!< dequeue hook
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
    TracedCallback<uint8_t, uint16_t> m_pfcPauseTxTrace;       //!< PfcPauseTx: class, quanta sent
    TracedCallback<uint8_t, uint16_t> m_pfcPauseRxTrace; //!< PfcPauseRx: class, quanta received
    TracedCallback<uint8_t, bool> m_pfcPauseStateTrace;  //!< PfcPauseState: class paused/free
};

} // namespace ns3

#endif // QBB_NET_DEVICE_H
