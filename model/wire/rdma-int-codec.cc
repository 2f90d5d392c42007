/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-int-codec.h"

#include "rdma-frame-editor.h"
#include "rdma-raw-header.h"
#include "rdma-wire.h"

#include "ns3/buffer.h"
#include "ns3/packet.h"

#include <cstring>
#include <vector>

namespace ns3
{

namespace
{
/// Bytes an INT edit reads: Ethernet, 802.1Q tag, IPv6 (or IPv4 with options), UDP.
constexpr uint32_t HEAD = RdmaWire::ETHERNET_HEADER_BYTES + RdmaWire::VLAN_TAG_BYTES + 60 +
                          RdmaWire::UDP_HEADER_BYTES; // 60: IPv4 with the most options

/// Offsets of the IP and UDP headers in the first `n` bytes of a frame, or false if it is not IP/UDP.
bool
Locate(const uint8_t* b, uint32_t n, uint32_t& ip, uint32_t& udp, bool& v6)
{
    uint32_t off = 12;
    if (n < off + 2)
    {
        return false;
    }
    uint16_t type = b[off] << 8 | b[off + 1];
    if (type == RdmaWire::ETHERTYPE_VLAN)
    {
        off += 4;
        if (n < off + 2)
        {
            return false;
        }
        type = b[off] << 8 | b[off + 1];
    }
    ip = off + 2;
    if (type == RdmaWire::ETHERTYPE_IPV4 && n >= ip + RdmaWire::IPV4_HEADER_BYTES && b[ip + 9] == 17)
    {
        v6 = false;
        udp = ip + (b[ip] & 0x0F) * 4;
    }
    else if (type == RdmaWire::ETHERTYPE_IPV6 && n >= ip + RdmaWire::IPV6_HEADER_BYTES && b[ip + 6] == 17)
    {
        v6 = true;
        udp = ip + RdmaWire::IPV6_HEADER_BYTES;
    }
    else
    {
        return false;
    }
    return n >= udp + RdmaWire::UDP_HEADER_BYTES;
}

/// Add `delta` to the big-endian 16-bit field at `p`.
void
Add16(uint8_t* p, int delta)
{
    uint16_t v = static_cast<uint16_t>((p[0] << 8 | p[1]) + delta);
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

/// Change the IP and UDP lengths by `delta` and set the UDP destination port.
void
Fix(uint8_t* b, uint32_t ip, uint32_t udp, bool v6, int delta, uint16_t port)
{
    Add16(&b[udp + 4], delta);
    b[udp + 2] = static_cast<uint8_t>(port >> 8);
    b[udp + 3] = static_cast<uint8_t>(port);
    if (v6)
    {
        Add16(&b[ip + 4], delta);
        return;
    }
    Add16(&b[ip + 2], delta);
    uint16_t sum = RdmaFrameEditor::Ipv4Checksum(&b[ip], udp - ip);
    b[ip + 10] = static_cast<uint8_t>(sum >> 8);
    b[ip + 11] = static_cast<uint8_t>(sum);
}
} // namespace

uint32_t
RdmaIntCodec::InsertIntoHead(const uint8_t* head,
                             uint32_t n,
                             const IntHeader& header,
                             uint16_t udpPort,
                             uint8_t* out)
{
    uint32_t ip = 0;
    uint32_t udp = 0;
    bool v6 = false;
    if (!Locate(head, n, ip, udp, v6))
    {
        return 0;
    }
    const uint32_t keep = udp + 8;
    std::memcpy(out, head, keep);
    Buffer hb;
    hb.AddAtStart(IntHeader::SIZE);
    header.Serialize(hb.Begin());
    hb.CopyData(out + keep, IntHeader::SIZE);
    std::memcpy(out + keep + IntHeader::SIZE, head + keep, n - keep);
    Fix(out, ip, udp, v6, IntHeader::SIZE, udpPort);
    return n + IntHeader::SIZE;
}

uint32_t
RdmaIntCodec::MakeHead(Ptr<const Packet> frame,
                       const IntHeader& header,
                       uint16_t udpPort,
                       uint8_t* head,
                       uint32_t& keep)
{
    // Only the head is rewritten: Ethernet through UDP, then the INT header.
    uint8_t in[HEAD];
    keep = frame->CopyData(in, HEAD);
    return InsertIntoHead(in, keep, header, udpPort, head);
}

void
RdmaIntCodec::Insert(Ptr<Packet>& frame, const IntHeader& header, uint16_t udpPort)
{
    uint8_t head[HEAD + IntHeader::SIZE];
    uint32_t keep = 0;
    if (const uint32_t n = MakeHead(frame, header, udpPort, head, keep))
    {
        frame = RdmaFrameEditor::ReplaceHead(frame, keep, head, n);
    }
}

void
RdmaIntCodec::InsertInPlace(Ptr<Packet> frame, const IntHeader& header, uint16_t udpPort)
{
    uint8_t head[HEAD + IntHeader::SIZE];
    uint32_t keep = 0;
    if (const uint32_t n = MakeHead(frame, header, udpPort, head, keep))
    {
        frame->RemoveAtStart(keep);
        frame->AddHeader(RdmaRawHeader(head, n));
    }
}

uint32_t
RdmaIntCodec::StripFromHead(uint8_t* head, uint32_t n, IntHeader& header)
{
    uint32_t ip = 0;
    uint32_t udp = 0;
    bool v6 = false;
    if (!Locate(head, n, ip, udp, v6))
    {
        return 0;
    }
    const uint16_t port = head[udp + 2] << 8 | head[udp + 3];
    const uint32_t keep = udp + 8;
    if ((port != IntHeader::UDP_PORT && port != ECHO_PORT) || n < keep + IntHeader::SIZE)
    {
        return 0;
    }
    Buffer hb;
    hb.AddAtStart(IntHeader::SIZE);
    hb.Begin().Write(head + keep, IntHeader::SIZE);
    header.Deserialize(hb.Begin());
    std::memmove(head + keep, head + keep + IntHeader::SIZE, n - keep - IntHeader::SIZE);
    Fix(head, ip, udp, v6, -static_cast<int>(IntHeader::SIZE), RdmaWire::ROCEV2_UDP_PORT);
    return n - IntHeader::SIZE;
}

bool
RdmaIntCodec::Strip(Ptr<Packet>& frame, IntHeader& header)
{
    uint8_t head[HEAD + IntHeader::SIZE];
    const uint32_t n = frame->CopyData(head, sizeof(head));
    const uint32_t stripped = StripFromHead(head, n, header);
    if (stripped == 0)
    {
        return false;
    }
    frame = RdmaFrameEditor::ReplaceHead(frame, n, head, stripped);
    return true;
}

} // namespace ns3
