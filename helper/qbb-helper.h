/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_HELPER_H
#define QBB_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class QbbChannel;

/**
 * \ingroup rdma
 * \brief Builds QbbNetDevice links, in the manner of PointToPointHelper.
 *
 * Install() puts one QbbNetDevice (MAC from Mac48Address::Allocate()) on each
 * of two nodes and joins them with a QbbChannel; SetDeviceAttribute() and
 * SetChannelAttribute() set the attributes of the objects made after them.
 * Two nodes of different system ids (ranks of a distributed simulation,
 * Node::GetSystemId()) are joined by a QbbRemoteChannel with the same
 * attributes, which exists only when ns-3 has its mpi module (NS3_MPI); the
 * run aborts otherwise. Of such a link only the end on this rank
 * (Simulator::GetSystemId()) gets a QbbNetDevice, added to its node; the
 * other end is a QbbRemotePort (its node set, a MAC address allocated in
 * the same order, not added to its node): its device runs on its own rank.
 * One of the two nodes must be on this rank.
 *
 * Tracing (the PcapHelperForDevice and AsciiTraceHelperForDevice mixins):
 * - PCAP: one file per device, "<prefix>-<node>-<device>.pcap", link type
 *   Ethernet (PcapHelper::DLT_EN10MB) with nanosecond timestamps, through
 *   RdmaPcapWriter. It holds every frame the device transmits, stamped when
 *   its first bit leaves (PhyTxBegin), and every frame it receives, stamped
 *   when its last bit arrives (PhyRxEnd), whole from the destination MAC
 *   (no preamble, no FCS), so tshark/Wireshark decode RoCEv2 and PFC. The
 *   PFC frames the device sends and consumes are there too (tshark:
 *   -Y 'macc.opcode==0x0101', fields macc.cbfc.enbv and
 *   macc.cbfc.pause_time.c0 to c7). A point-to-point device sees every
 *   frame: the promiscuous flag changes nothing. The file is complete once
 *   the device is destroyed (after Simulator::Destroy() and once no Ptr to
 *   the device is held).
 * - ASCII: "+" when a frame is accepted (MacTx), "-" when its transmission
 *   starts (PhyTxBegin), "r" when it is passed up (MacRx), and "d" for every
 *   drop (the device's Drop and its egress queue's Drop), the reason
 *   following the packet as "reason=QUEUE_FULL".
 *   PFC frames the device generates have a "-" line only; received ones,
 *   consumed by the device, have none.
 */
class QbbHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    QbbHelper();
    ~QbbHelper() override = default;

    /**
     * \brief Set an attribute of the QbbNetDevices Install() creates.
     * \param name attribute name, e.g. "DataRate"
     * \param value its value
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the egress queue (QbbEgressQueue) of each
     * device Install() creates.
     * \param name attribute name, e.g. "MaxBytes", "Scheduler"
     * \param value its value
     */
    void SetQueueAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the PFC controller (QbbPfcController) of
     * each device Install() creates.
     * \param name attribute name, e.g. "PauseQuanta"
     * \param value its value
     */
    void SetPfcAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the QbbChannels Install() creates.
     * \param name attribute name, e.g. "Delay"
     * \param value its value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Link two nodes.
     * \param c exactly two nodes (aborts otherwise)
     * \return the two devices, in the order of the nodes
     */
    NetDeviceContainer Install(NodeContainer c);

    /**
     * \brief Link two nodes.
     * \param a first node
     * \param b second node
     * \return the two devices, a's first (between ranks, the other rank's
     *         end a QbbRemotePort)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * \brief Schedule a link failure (see QbbChannel::SetLinkDown()).
     * \param channel the link
     * \param down when the link goes down, from now (the simulation time
     *        when called before Simulator::Run())
     * \param up when it comes back, from now; must be after down (for a
     *        permanent failure pass a time after the end of the run)
     */
    static void ScheduleLinkDown(Ptr<QbbChannel> channel, Time down, Time up);

    /**
     * \brief Schedule a failure of the links of some devices, each link once
     * even if both its devices are in the container; devices that are not
     * QbbNetDevices or have no channel are skipped.
     * \param devices the devices
     * \param down when the links go down, from now
     * \param up when they come back, from now; must be after down
     */
    static void ScheduleLinkDown(const NetDeviceContainer& devices, Time down, Time up);

    /**
     * \brief Assign fixed random variable streams to the devices
     * (QbbNetDevice::AssignStreams(); other devices are skipped).
     * \param devices the devices
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    static int64_t AssignStreams(const NetDeviceContainer& devices, int64_t stream);

  private:
    /**
     * \brief Enable PCAP output on one device (PcapHelperForDevice).
     * \param prefix filename prefix
     * \param nd the device (ignored unless a QbbNetDevice)
     * \param promiscuous ignored: the device sees every frame of its link
     * \param explicitFilename use prefix as the whole filename
     */
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    /**
     * \brief Enable ASCII output on one device (AsciiTraceHelperForDevice).
     * \param stream shared output stream, or null for a file per device
     * \param prefix filename prefix
     * \param nd the device (ignored unless a QbbNetDevice)
     * \param explicitFilename use prefix as the whole filename
     */
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  //!< makes the devices
    ObjectFactory m_queueFactory;   //!< makes their egress queues
    ObjectFactory m_pfcFactory;     //!< makes their PFC controllers
    ObjectFactory m_channelFactory; //!< makes the channels
    bool m_queueSet{false};         //!< SetQueueAttribute was called
    bool m_pfcSet{false};           //!< SetPfcAttribute was called
};

} // namespace ns3

#endif // QBB_HELPER_H
