/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_CHANNEL_H
#define QBB_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/qbb-wire.h"
#include "ns3/rdma-frame.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>

namespace ns3
{

class QbbNetDevice;
class QbbRemotePort;

/**
 * \ingroup rdma
 * \brief A full-duplex point-to-point cable between two QbbNetDevices.
 *
 * A frame whose transmission starts at time t with wire time w (see
 * QbbNetDevice::GetWireTime()) arrives whole at the peer at t + w + Delay:
 * the peer gets the transmitted frame object itself (no copy), from one
 * event per frame in the receiving node's context. Each direction (QbbWire)
 * keeps its frames in flight and is itself their arrival event, at most one
 * pending, so the scheduler holds two events per link at most and nothing
 * is allocated per frame.
 *
 * Event order (RdmaEventScheduler): a frame takes the key of its arrival
 * event when its transmission starts (one sequence number of the sender's
 * node, as if the arrival were scheduled then), and its arrival is
 * scheduled with that key whenever the reused event gets to it; so the
 * arrival's place among the receiver's events of its time depends only on
 * the sender, the key QbbRemoteChannel carries across ranks.
 *
 * The link can fail (SetLinkDown(), SetLinkUp(), or
 * QbbHelper::ScheduleLinkDown()). Link state belongs to the channel, i.e. to
 * both directions of the cable at once, and both devices' link-change
 * callbacks are called on every change. A frame is lost if any part of it is
 * on the wire while the link is down: if its transmission starts while the
 * link is down, or if the link goes down between the start of its
 * transmission and the arrival of its last bit (even if the link is up again
 * by then). The transmitting device counts each loss as
 * DROP_LINK_DOWN: at once when the transmission starts on a
 * dead link, at the would-be arrival time for a frame caught in flight.
 */
class QbbChannel : public Channel
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QbbChannel();
    ~QbbChannel() override;

    /**
     * \brief Attach a device (called by QbbNetDevice::Attach()).
     * \param device the device
     * \return false if two devices are attached already
     */
    virtual bool Attach(Ptr<QbbNetDevice> device);

    /**
     * \brief Attach the end of the link that is on another rank of a
     * distributed run, as this rank keeps it (QbbRemotePort): only a
     * channel between ranks has one (QbbRemoteChannel).
     * \param port the far end
     * \return false: a channel within one process joins two devices
     */
    virtual bool AttachFarEnd(Ptr<QbbRemotePort> port);

    /**
     * \brief Start carrying a frame (called by QbbNetDevice at the start of
     * a transmission): schedules its arrival at the peer after
     * wireTime + Delay unless the link is down or there is no peer.
     * \param frame the frame
     * \param src the transmitting device (one of the two attached)
     * \param wireTime the frame's wire time
     * \return false if the frame cannot arrive (link down or no peer)
     */
    virtual bool TransmitStart(Ptr<RdmaFrame> frame, const QbbNetDevice* src, Time wireTime);

    /**
     * \brief Take the link down (both directions). Frames on the wire are
     * lost; frames sent while it stays down are lost. No effect if already down.
     */
    void SetLinkDown();
    /// Bring the link up again. No effect if already up.
    void SetLinkUp();
    /// \return true if the link is up (it is up when created)
    bool IsLinkUp() const;

    /// \return the propagation delay (the Delay attribute)
    Time GetDelay() const;

    /**
     * \param i 0 or 1, in the order of attachment
     * \return the attached device, or null
     */
    Ptr<QbbNetDevice> GetQbbDevice(std::size_t i) const;

    // Inherited from Channel.
    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \brief TracedCallback signature of the LinkState trace.
     * \param [in] up true when the link comes up, false when it goes down
     */
    typedef void (*LinkStateTracedCallback)(bool up);

  protected:
    void DoDispose() override;

    /**
     * \brief Hand a frame whose last bit has arrived to a device, as
     * QbbWire does (for channels whose frames arrive by other means:
     * QbbRemoteChannel).
     * \param device the receiving device
     * \param frame the frame
     */
    static void PassUp(Ptr<QbbNetDevice> device, Ptr<RdmaFrame> frame);

  private:
    std::array<Ptr<QbbNetDevice>, 2> m_devices; //!< the two ends
    std::array<Ptr<QbbWire>, 2> m_wires;        //!< the two directions, by receiving device
                                                //!< (null until two devices are attached)
    std::size_t m_nDevices{0};                  //!< devices attached
    Time m_delay;                               //!< propagation delay
    bool m_linkUp{true};                        //!< link state
    TracedCallback<bool> m_linkStateTrace;      //!< LinkState trace
};

} // namespace ns3

#endif // QBB_CHANNEL_H
