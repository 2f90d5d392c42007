/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_REMOTE_CHANNEL_H
#define QBB_REMOTE_CHANNEL_H

#include "qbb-channel.h"
#include "qbb-remote-port.h"

#include "ns3/rdma-frame-batch.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A QbbChannel whose two devices live in different processes
 * (ranks) of a distributed simulation (ns-3's mpi module:
 * DistributedSimulatorImpl or NullMessageSimulatorImpl).
 *
 * Built only when ns-3 has its mpi module (NS3_MPI). The model is ns-3's
 * PointToPointRemoteChannel: a frame that starts at time t with wire time w
 * toward the device on the other rank is serialized (Packet::Serialize:
 * bytes, packet and byte tags, metadata) and sent for its arrival time
 * t + w + Delay; the receiving rank schedules its arrival at that time in
 * the receiving node's context, and it is passed up as QbbChannel does.
 * The arrival time is the one QbbChannel gives, so the models on either
 * side see the same frames at the same times; the channel's Delay is the
 * lookahead the synchronization algorithm takes from the link (it must be
 * above 0).
 *
 * Order at one time (RdmaEventScheduler): the arrival event of a frame
 * runs with the key QbbChannel gives it, taken by the sender when the
 * frame starts (TakeKey) and carried with the frame; the receiving rank
 * schedules the arrival with it (SetNextKey). The arrival then runs among
 * the receiving node's events of its time where it runs in a sequential
 * run.
 *
 * How the frame travels depends on the synchronization:
 * - granted-time (RdmaDistributedSimulatorImpl): into the window's batch
 *   for the other rank (RdmaWindowMpiInterface::SendFrame), the key beside
 *   it; at the window's end each batch goes as one MPI message; the
 *   receiving rank keeps each frame serialized until its arrival, when it
 *   is passed up (Deliver()). No limit on
 *   a frame's size.
 * - null-message (ns-3's NullMessageMpiInterface): one MPI message per
 *   frame (MpiInterface::SendPacket), the key as a packet tag
 *   (RdmaEventKeyTag). ns-3's interfaces schedule MpiReceiver::Receive
 *   themselves, when the rank reads its messages, with whatever key comes
 *   next; so the message is stamped one time step before the arrival, and
 *   the receive callback (Arrive(); an MpiReceiver is aggregated to every
 *   local device of a remote channel by Attach()) schedules the arrival one
 *   step later with the carried key. The early stamp stays within the
 *   lookahead: a frame's wire time is at least one step, so the stamp is
 *   at least Now() + Delay, the earliest time a peer can have been
 *   granted. ns-3.37's receive buffers hold MAX_MPI_MSG_SIZE = 2000 bytes
 *   per message (null-message-mpi-interface.cc): a frame whose serialized
 *   form (with its event key tag and 24 bytes of times, node and device)
 *   is longer ends the run with an error naming the sizes. Zero payloads
 *   (the module's default, RdmaMemoryRegion not in data mode) serialize as
 *   a length, so any MTU fits; real payload bytes fit up to about 1.9 KB.
 *
 * A rank builds the channels of the links with an end on it (every node
 * exists on every rank, with its system id): the end on this rank is a
 * QbbNetDevice (Attach), the other end a QbbRemotePort (AttachFarEnd),
 * which keeps only what the frames sent across are addressed to (the far
 * node and its interface index) and what the MPI simulators ask of a
 * channel's other end (its node). The far end's full device runs on its
 * own rank only. Link failures (SetLinkDown) act on this rank's copy only:
 * frames already sent are not lost.
 */
class QbbRemoteChannel : public QbbChannel
{
  public:
    /// ns-3.37's per-message receive buffer, bytes (MAX_MPI_MSG_SIZE), for
    /// null-message synchronization's per-frame messages.
    static constexpr uint32_t MAX_MESSAGE_BYTES = 2000;
    /// Bytes SendPacket puts before the packet: arrival time, node, device
    /// (16), and with null messages a guarantee time (8 more).
    static constexpr uint32_t MESSAGE_HEADER_BYTES = 24;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QbbRemoteChannel();
    ~QbbRemoteChannel() override;

    /**
     * \brief Attach a device. A device of a node on this rank receives the
     * frames from the other rank: under granted-time windows through
     * Deliver() (set as RdmaWindowMpiInterface's receive callback), under
     * null messages through an MpiReceiver aggregated to it.
     * \param device the device (its node set)
     * \return false if two devices are attached already
     */
    bool Attach(Ptr<QbbNetDevice> device) override;

    /**
     * \brief Attach the far end: the end of the link on another rank, as
     * this rank keeps it (its node and interface index set, not added to
     * its node). A channel joins one device and one far end, or two
     * devices.
     * \param port the far end
     * \return false if two ends are attached already
     */
    bool AttachFarEnd(Ptr<QbbRemotePort> port) override;

    /// \return the ends attached (devices and far end)
    std::size_t GetNDevices() const override;
    /**
     * \param i 0 or 1, in the order of attachment, the devices first
     * \return the device or far end, or null
     */
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \brief Send a frame to the device on the other rank, arriving at
     * Now() + wireTime + Delay (in this window's batch, or as an MPI
     * message of its own under null messages).
     * \param frame the frame
     * \param src the transmitting device (one of the two attached)
     * \param wireTime the frame's wire time
     * \return false if the link is down or there is no peer
     */
    bool TransmitStart(Ptr<RdmaFrame> frame, const QbbNetDevice* src, Time wireTime) override;

    /// \return frames this rank's end sent to the other rank
    uint64_t GetSentFrames() const;
    /// \return frames this rank's end received from the other rank
    uint64_t GetReceivedFrames() const;

    /**
     * \brief A frame of a batch from another rank arrives
     * (RdmaWindowMpiInterface's receive callback, at its arrival time in
     * the receiving node's context, with the key it carries): the Packet is
     * made from its serialized form and passed up to the receiving device,
     * in the compact form again if its sender had it so (Compacted).
     * \param record the frame, its arrival time, key, node and device
     */
    static void Deliver(const RdmaFrameBatch::Record& record);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief The compact frame a sender kept as `head` bytes of headers,
     * then zeros and the ICRC, from its Packet (the same bytes), so it
     * waits in this rank's queues as compact as in a sequential run.
     * \param packet the frame as read from the batch (its trailer taken)
     * \param head the head's bytes (RdmaFrameBatch::Record::compactHead)
     * \return the frame
     */
    static Ptr<RdmaFrame> Compacted(Ptr<Packet> packet, uint32_t head);

    /**
     * \brief A frame's message arrived from the other rank (MpiReceiver
     * callback, one time step before the frame's arrival): schedule the
     * arrival with the key the frame carries.
     * \param device the receiving device
     * \param frame the frame, rebuilt from its serialized form
     */
    void Arrive(Ptr<QbbNetDevice> device, Ptr<Packet> frame);

    Ptr<QbbRemotePort> m_farEnd; //!< the end on the other rank, or null
    uint64_t m_sent{0};     //!< frames sent to the other rank
    uint64_t m_received{0}; //!< frames received from the other rank
};

} // namespace ns3

#endif // QBB_REMOTE_CHANNEL_H
