/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-int-codec.h"

#include "rdma-frame-editor.h"
#include "roce-frame.h"

#include "ns3/buffer.h"
#include "ns3/packet.h"

#include <vector>

namespace ns3
{

namespace
{
/// Offsets of the IP and UDP headers in a frame, or false if it is not IP/UDP.
bool
Locate(const std::vector<uint8_t>& b, uint32_t& ip, uint32_t& udp, bool& v6)
{
    uint32_t off = 12;
    if (b.size() < off + 2)
    {
        return false;
    }
    uint16_t type = b[off] << 8 | b[off + 1];
    if (type == 0x8100)
    {
        off += 4;
        if (b.size() < off + 2)
        {
            return false;
        }
        type = b[off] << 8 | b[off + 1];
    }
    ip = off + 2;
    if (type == RoceFrame::ETHERTYPE_IPV4 && b.size() >= ip + 20 && b[ip + 9] == 17)
    {
        v6 = false;
        udp = ip + (b[ip] & 0x0F) * 4;
    }
    else if (type == RoceFrame::ETHERTYPE_IPV6 && b.size() >= ip + 40 && b[ip + 6] == 17)
    {
        v6 = true;
        udp = ip + 40;
    }
    else
    {
        return false;
    }
    return b.size() >= udp + 8;
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
Fix(std::vector<uint8_t>& b, uint32_t ip, uint32_t udp, bool v6, int delta, uint16_t port)
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

void
RdmaIntCodec::Insert(Ptr<Packet>& frame, const IntHeader& header, uint16_t udpPort)
{
    std::vector<uint8_t> b(frame->GetSize());
    frame->CopyData(b.data(), b.size());
    uint32_t ip = 0;
    uint32_t udp = 0;
    bool v6 = false;
    if (!Locate(b, ip, udp, v6))
    {
        return;
    }
    Buffer hb;
    hb.AddAtStart(IntHeader::SIZE);
    header.Serialize(hb.Begin());
    std::vector<uint8_t> h(IntHeader::SIZE);
    hb.CopyData(h.data(), h.size());
    b.insert(b.begin() + udp + 8, h.begin(), h.end());
    Fix(b, ip, udp, v6, IntHeader::SIZE, udpPort);
    frame = Create<Packet>(b.data(), b.size());
}

bool
RdmaIntCodec::Strip(Ptr<Packet>& frame, IntHeader& header)
{
    uint8_t head[14 + 4 + 60 + 8];
    uint32_t n = frame->CopyData(head, sizeof(head));
    std::vector<uint8_t> peek(head, head + n);
    uint32_t ip = 0;
    uint32_t udp = 0;
    bool v6 = false;
    if (!Locate(peek, ip, udp, v6))
    {
        return false;
    }
    uint16_t port = peek[udp + 2] << 8 | peek[udp + 3];
    if ((port != IntHeader::UDP_PORT && port != ECHO_PORT) ||
        frame->GetSize() < udp + 8 + IntHeader::SIZE)
    {
        return false;
    }
    std::vector<uint8_t> b(frame->GetSize());
    frame->CopyData(b.data(), b.size());
    Buffer hb;
    hb.AddAtStart(IntHeader::SIZE);
    hb.Begin().Write(&b[udp + 8], IntHeader::SIZE);
    header.Deserialize(hb.Begin());
    b.erase(b.begin() + udp + 8, b.begin() + udp + 8 + IntHeader::SIZE);
    Fix(b, ip, udp, v6, -static_cast<int>(IntHeader::SIZE), RoceFrame::UDP_PORT);
    frame = Create<Packet>(b.data(), b.size());
    return true;
}

} // namespace ns3
