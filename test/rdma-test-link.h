/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TEST_LINK_H
#define RDMA_TEST_LINK_H

#include "ns3/mac48-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/qbb-helper.h"
#include "ns3/qbb-net-device.h"

namespace ns3
{
namespace rdmatest
{

/**
 * Two nodes joined by one link of a configured QbbHelper: the fixture of
 * the link and PFC suites (a sends data, b sends PFC in most tests).
 */
struct Link
{
    NodeContainer nodes;     //!< the nodes
    NetDeviceContainer devs; //!< their devices
    Ptr<QbbNetDevice> a;     //!< node 0's port
    Ptr<QbbNetDevice> b;     //!< node 1's port
    Mac48Address macA;       //!< a's MAC
    Mac48Address macB;       //!< b's MAC

    /// \param helper the configured helper that installs the link
    explicit Link(QbbHelper& helper)
    {
        nodes.Create(2);
        devs = helper.Install(nodes);
        a = DynamicCast<QbbNetDevice>(devs.Get(0));
        b = DynamicCast<QbbNetDevice>(devs.Get(1));
        macA = Mac48Address::ConvertFrom(a->GetAddress());
        macB = Mac48Address::ConvertFrom(b->GetAddress());
    }
};

} // namespace rdmatest
} // namespace ns3

#endif // RDMA_TEST_LINK_H
