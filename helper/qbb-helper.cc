/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-helper.h"

#include "rdma-pcap-writer.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-net-device.h"
#include "ns3/qbb-remote-port.h"
#include "ns3/simulator.h"

#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbHelper");

namespace
{

/**
 * \brief Write an ASCII "d" line.
 * \param stream the file
 * \param context the trace path, or empty for a file per device
 * \param frame the dropped frame
 * \param reason the reason's name
 */
void
WriteDrop(Ptr<OutputStreamWrapper> stream,
          const std::string& context,
          Ptr<const Packet> frame,
          const char* reason)
{
    std::ostream& os = *stream->GetStream();
    os << "d " << Simulator::Now().GetSeconds() << " ";
    if (!context.empty())
    {
        os << context << " ";
    }
    os << *frame << " reason=" << reason << std::endl;
}

/// ASCII "d" sink of a device's Drop (context empty for a file per device).
void
DeviceDropSink(Ptr<OutputStreamWrapper> stream,
               std::string context,
               Ptr<const Packet> frame,
               RdmaDropReason reason)
{
    WriteDrop(stream, context, frame, RdmaDropReasonName(reason));
}

/// ASCII "d" sink of an egress queue's Drop (context empty for a file per device).
void
QueueDropSink(Ptr<OutputStreamWrapper> stream,
              std::string context,
              Ptr<const Packet> frame,
              uint32_t /* inPort */,
              RdmaDropReason reason)
{
    WriteDrop(stream, context, frame, RdmaDropReasonName(reason));
}

} // namespace

QbbHelper::QbbHelper()
{
    m_deviceFactory.SetTypeId("ns3::QbbNetDevice");
    m_channelFactory.SetTypeId("ns3::QbbChannel");
    m_queueFactory.SetTypeId("ns3::QbbEgressQueue");
    m_pfcFactory.SetTypeId("ns3::QbbPfcController");
}

void
QbbHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
QbbHelper::SetQueueAttribute(std::string name, const AttributeValue& value)
{
    m_queueFactory.Set(name, value);
    m_queueSet = true;
}

void
QbbHelper::SetPfcAttribute(std::string name, const AttributeValue& value)
{
    m_pfcFactory.Set(name, value);
    m_pfcSet = true;
}

void
QbbHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
QbbHelper::Install(NodeContainer c)
{
    NS_ABORT_MSG_UNLESS(c.GetN() == 2,
                        "QbbHelper::Install: a link joins exactly 2 nodes, got " << c.GetN());
    return Install(c.Get(0), c.Get(1));
}

NetDeviceContainer
QbbHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_LOG_FUNCTION(this << a << b);
    Ptr<QbbChannel> channel;
    if (a->GetSystemId() == b->GetSystemId())
    {
        channel = m_channelFactory.Create<QbbChannel>();
    }
    else
    {
        // By name: QbbRemoteChannel is compiled only with ns-3's mpi module.
        TypeId remote;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe("ns3::QbbRemoteChannel", &remote),
                            "QbbHelper::Install: nodes " << a->GetId() << " and " << b->GetId()
                                                         << " are on different ranks, which "
                                                            "needs ns-3 built with MPI (make mpi)");
        ObjectFactory factory = m_channelFactory;
        factory.SetTypeId(remote);
        channel = factory.Create<QbbChannel>();
    }
    // Between ranks, the end on another rank is kept as a far end only
    // (QbbRemotePort): its device runs there.
    const uint32_t here = Simulator::GetSystemId();
    NS_ABORT_MSG_IF(a->GetSystemId() != b->GetSystemId() && a->GetSystemId() != here &&
                        b->GetSystemId() != here,
                    "QbbHelper::Install: nodes " << a->GetId() << " and " << b->GetId()
                                                 << " are both on ranks other than this one ("
                                                 << here << ")");
    NetDeviceContainer devices;
    for (const Ptr<Node>& node : {a, b})
    {
        if (node->GetSystemId() != here)
        {
            Ptr<QbbRemotePort> far = CreateObject<QbbRemotePort>();
            far->SetAddress(Mac48Address::Allocate());
            far->SetNode(node);
            NS_ABORT_MSG_UNLESS(channel->AttachFarEnd(far),
                                "QbbHelper::Install: the channel took no far end");
            devices.Add(far);
            continue;
        }
        Ptr<QbbNetDevice> dev = m_deviceFactory.Create<QbbNetDevice>();
        // A device starts with a queue and a controller of the attribute
        // defaults: made again only when this helper sets attributes of them.
        if (m_queueSet)
        {
            dev->SetTxQueue(m_queueFactory.Create<QbbEgressQueue>());
        }
        if (m_pfcSet)
        {
            dev->SetPfcController(m_pfcFactory.Create<QbbPfcController>());
        }
        dev->SetAddress(Mac48Address::Allocate());
        node->AddDevice(dev);
        dev->Attach(channel);
        devices.Add(dev);
    }
    return devices;
}

void
QbbHelper::ScheduleLinkDown(Ptr<QbbChannel> channel, Time down, Time up)
{
    NS_ABORT_MSG_UNLESS(channel, "QbbHelper::ScheduleLinkDown: no channel");
    NS_ABORT_MSG_UNLESS(
        down.IsPositive() && up > down,
        "QbbHelper::ScheduleLinkDown: need 0 <= down < up, got down=" << down << " up=" << up);
    Simulator::Schedule(down, &QbbChannel::SetLinkDown, channel);
    Simulator::Schedule(up, &QbbChannel::SetLinkUp, channel);
}

void
QbbHelper::ScheduleLinkDown(const NetDeviceContainer& devices, Time down, Time up)
{
    std::set<QbbChannel*> done;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Ptr<QbbNetDevice> dev = DynamicCast<QbbNetDevice>(*it);
        if (!dev || !dev->GetQbbChannel())
        {
            continue;
        }
        Ptr<QbbChannel> channel = dev->GetQbbChannel();
        if (done.insert(PeekPointer(channel)).second)
        {
            ScheduleLinkDown(channel, down, up);
        }
    }
}

int64_t
QbbHelper::AssignStreams(const NetDeviceContainer& devices, int64_t stream)
{
    int64_t current = stream;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Ptr<QbbNetDevice> dev = DynamicCast<QbbNetDevice>(*it);
        if (dev)
        {
            current += dev->AssignStreams(current);
        }
    }
    return current - stream;
}

void
QbbHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool /* promiscuous */,
                              bool explicitFilename)
{
    Ptr<QbbNetDevice> device = nd->GetObject<QbbNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("QbbHelper::EnablePcapInternal: device " << nd
                                                             << " is not a ns3::QbbNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    // RdmaPcapWriter writes link type 1 (Ethernet) with nanosecond stamps.
    static_assert(PcapHelper::DLT_EN10MB == 1, "pcap link type Ethernet");
    auto writer = Create<RdmaPcapWriter>(filename);
    NS_ABORT_MSG_UNLESS(writer->IsOpen(), "QbbHelper: " << writer->GetError());
    device->TraceConnectWithoutContext("PhyTxBegin",
                                       MakeCallback(&RdmaPcapWriter::WriteNow, writer));
    device->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&RdmaPcapWriter::WriteNow, writer));
}

void
QbbHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    Ptr<QbbNetDevice> device = nd->GetObject<QbbNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("QbbHelper::EnableAsciiInternal: device " << nd
                                                              << " is not a ns3::QbbNetDevice");
        return;
    }
    // The default sinks print packets.
    Packet::EnablePrinting();

    if (!stream)
    {
        // A file per device: no context needed.
        AsciiTraceHelper asciiTraceHelper;
        std::string filename =
            explicitFilename ? prefix : asciiTraceHelper.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> file = asciiTraceHelper.CreateFileStream(filename);
        asciiTraceHelper.HookDefaultEnqueueSinkWithoutContext<QbbNetDevice>(device, "MacTx", file);
        asciiTraceHelper.HookDefaultDequeueSinkWithoutContext<QbbNetDevice>(device,
                                                                            "PhyTxBegin",
                                                                            file);
        asciiTraceHelper.HookDefaultReceiveSinkWithoutContext<QbbNetDevice>(device, "MacRx", file);
        device->TraceConnectWithoutContext("Drop",
                                           MakeBoundCallback(&DeviceDropSink, file, std::string()));
        device->GetTxQueue()->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(&QueueDropSink, file, std::string()));
        return;
    }

    // A shared stream: Config paths give each line its context.
    std::ostringstream base;
    base << "/NodeList/" << nd->GetNode()->GetId() << "/DeviceList/" << nd->GetIfIndex()
         << "/$ns3::QbbNetDevice/";
    Config::Connect(base.str() + "MacTx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultEnqueueSinkWithContext, stream));
    Config::Connect(base.str() + "PhyTxBegin",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDequeueSinkWithContext, stream));
    Config::Connect(base.str() + "MacRx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultReceiveSinkWithContext, stream));
    Config::Connect(base.str() + "Drop", MakeBoundCallback(&DeviceDropSink, stream));
    Config::Connect(base.str() + "TxQueue/Drop", MakeBoundCallback(&QueueDropSink, stream));
}

} // namespace ns3
