/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-test-link.h"

#include "ns3/data-rate.h"
#include "ns3/ethernet-header.h"

#include <vector>

namespace ns3
{
namespace rdmatest
{

Ptr<Packet>
MakeFrame(Mac48Address src, Mac48Address dst, uint32_t frameBytes, uint32_t seq)
{
    std::vector<uint8_t> payload(frameBytes - QbbNetDevice::ETHERNET_HEADER_BYTES);
    for (std::size_t i = 0; i < payload.size(); ++i)
    {
        payload[i] = static_cast<uint8_t>(seq * 31 + i * 7 + 1);
    }
    for (int i = 0; i < 4; ++i)
    {
        payload[i] = static_cast<uint8_t>(seq >> (24 - 8 * i));
    }
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    EthernetHeader eth(false);
    eth.SetSource(src);
    eth.SetDestination(dst);
    eth.SetLengthType(TEST_ETHERTYPE);
    p->AddHeader(eth);
    return p;
}

uint32_t
FrameSeq(Ptr<const Packet> frame)
{
    uint8_t b[18];
    frame->CopyData(b, sizeof(b));
    return (uint32_t{b[14]} << 24) | (uint32_t{b[15]} << 16) | (uint32_t{b[16]} << 8) | b[17];
}

QbbHelper
MakeLinkHelper(const std::string& rate, Time delay)
{
    QbbHelper h;
    h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
    h.SetChannelAttribute("Delay", TimeValue(delay));
    return h;
}

} // namespace rdmatest
} // namespace ns3
