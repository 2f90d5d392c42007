/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// QbbRemotePort, the far end of a link between ranks as the near end's
// rank keeps it: the node and interface index frames sent across are
// addressed to, and its MAC address; a point-to-point device, up once
// attached to its channel, never added to its node. A channel within one process takes
// no far end (QbbChannel::AttachFarEnd), and QbbHelper gives every end on
// one rank a full device. (QbbRemoteChannel, which takes one, is in the MPI
// build: test/python/test_mpi.py counts each rank's ports.)

#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-helper.h"
#include "ns3/qbb-net-device.h"
#include "ns3/qbb-remote-port.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/// What a far end answers, and what it leaves alone.
class FarEndTestCase : public TestCase
{
  public:
    FarEndTestCase()
        : TestCase("a far end: its node, interface index and address; up once attached")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> node = CreateObject<Node>();
        const uint32_t devicesBefore = node->GetNDevices();
        const Mac48Address address("00:00:00:00:12:34");
        Ptr<QbbRemotePort> port = CreateObject<QbbRemotePort>();
        port->SetNode(node);
        port->SetIfIndex(7);
        port->SetAddress(address);
        NS_TEST_EXPECT_MSG_EQ(port->GetNode(), node, "its node");
        NS_TEST_EXPECT_MSG_EQ(port->GetIfIndex(), 7, "the interface index its rank gives it");
        NS_TEST_EXPECT_MSG_EQ(Mac48Address::ConvertFrom(port->GetAddress()),
                              address,
                              "its MAC address");
        NS_TEST_EXPECT_MSG_EQ(node->GetNDevices(),
                              devicesBefore,
                              "not added to its node (no device, no Initialize event)");
        NS_TEST_EXPECT_MSG_EQ(port->IsPointToPoint(), true, "point to point");
        NS_TEST_EXPECT_MSG_EQ(port->NeedsArp(), false, "no ARP");
        NS_TEST_EXPECT_MSG_EQ(port->SupportsSendFrom(), false, "sends nothing");
        NS_TEST_EXPECT_MSG_EQ(port->SetMtu(1500), false, "its MTU is its own rank's");
        NS_TEST_EXPECT_MSG_EQ(port->IsLinkUp(), false, "no channel: down");

        Ptr<QbbChannel> channel = CreateObject<QbbChannel>();
        port->SetChannel(channel);
        NS_TEST_EXPECT_MSG_EQ(port->GetChannel(), channel, "its channel");
        NS_TEST_EXPECT_MSG_EQ(port->IsLinkUp(), true, "up once attached");

        port->Dispose();
        NS_TEST_EXPECT_MSG_EQ(port->GetNode(), nullptr, "disposed: no node");
        NS_TEST_EXPECT_MSG_EQ(port->GetChannel(), nullptr, "disposed: no channel");
        Simulator::Destroy();
    }
};

/// A channel of one process joins two devices and takes no far end.
class LocalChannelTestCase : public TestCase
{
  public:
    LocalChannelTestCase()
        : TestCase("a channel within one process takes no far end; QbbHelper builds two devices")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QbbChannel> channel = CreateObject<QbbChannel>();
        NS_TEST_EXPECT_MSG_EQ(channel->AttachFarEnd(CreateObject<QbbRemotePort>()),
                              false,
                              "refused");
        NS_TEST_EXPECT_MSG_EQ(channel->GetNDevices(), 0, "nothing attached");

        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        NetDeviceContainer d = QbbHelper().Install(a, b);
        NS_TEST_ASSERT_MSG_EQ(d.GetN(), 2, "two ends");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_NE(DynamicCast<QbbNetDevice>(d.Get(i)),
                                  nullptr,
                                  "both on this rank: full devices");
            NS_TEST_EXPECT_MSG_EQ(d.Get(i)->GetChannel()->GetNDevices(), 2, "joined");
        }
        NS_TEST_EXPECT_MSG_EQ(a->GetNDevices(), 1, "added to its node");
        NS_TEST_EXPECT_MSG_EQ(b->GetNDevices(), 1, "added to its node");
        Simulator::Destroy();
    }
};

/// The suite.
class RdmaQbbRemotePortTestSuite : public TestSuite
{
  public:
    RdmaQbbRemotePortTestSuite()
        : TestSuite("rdma-qbb-remote-port", UNIT)
    {
        AddTestCase(new FarEndTestCase, TestCase::QUICK);
        AddTestCase(new LocalChannelTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaQbbRemotePortTestSuite g_rdmaQbbRemotePortTestSuite;

} // namespace
