/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: arbitrary bytes as a received Ethernet frame, as a NIC
 * or a switch gets a corrupted one: RoceFrame's parsers (with and without
 * the ICRC check, with an INT header, from the IP header as IPv4 and IPv6),
 * the switch's RdmaFrameView, and RdmaIntCodec::Strip on a copy. Any
 * outcome is a ParseStatus or false, never an abort, a sanitizer report
 * or a read beyond the frame.
 */

#include "rdma-fuzz.h"

#include "ns3/int-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-frame-view.h"
#include "ns3/rdma-int-codec.h"
#include "ns3/roce-frame.h"

#include <cstdint>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Ptr<Packet> frame = Create<Packet>(data, static_cast<uint32_t>(size));
    RoceFrame out;
    RoceFrame::ParseEthernetFrame(frame, out, true);
    RoceFrame::ParseEthernetFrame(frame, out, false);
    IntHeader intHeader;
    bool hasInt = false;
    RoceFrame::ParseEthernetFrameWithInt(frame, out, intHeader, hasInt);
    RoceFrame::ParseIpPacket(frame, false, out, true);
    RoceFrame::ParseIpPacket(frame, true, out, true);
    RdmaFrameView view;
    view.Parse(frame);
    Ptr<Packet> copy = frame->Copy();
    RdmaIntCodec::Strip(copy, intHeader);
    return 0;
}
