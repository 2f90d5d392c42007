/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TEST_LINK_H
#define RDMA_TEST_LINK_H

#include "ns3/mac48-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/qbb-helper.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/qbb-net-device.h"

#include <cstdint>
#include <string>

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

/// EtherType of the link suites' test frames (IEEE local experimental).
constexpr uint16_t TEST_ETHERTYPE = 0x88B5;

/**
 * \brief A frame of exactly frameBytes bytes: Ethernet header, then the
 * sequence number (4 bytes, big-endian), then a pattern that depends on it.
 * \param src source MAC
 * \param dst destination MAC
 * \param frameBytes total bytes (at least 18)
 * \param seq sequence number
 * \return the frame
 */
Ptr<Packet> MakeFrame(Mac48Address src, Mac48Address dst, uint32_t frameBytes, uint32_t seq);

/// \return the sequence number MakeFrame wrote into a frame
uint32_t FrameSeq(Ptr<const Packet> frame);

/**
 * \param rate the line rate ("100Gbps")
 * \param delay the propagation delay
 * \return a helper with that line rate and propagation delay
 */
QbbHelper MakeLinkHelper(const std::string& rate, Time delay);

/// One received frame and when its last bit arrived.
struct Arrival
{
    Time t;        //!< arrival time
    Ptr<Packet> p; //!< the frame as passed up
};

} // namespace rdmatest
} // namespace ns3

#endif // RDMA_TEST_LINK_H
