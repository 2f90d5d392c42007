/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-frame-editor.h"

#include "int-header.h"
#include "rdma-raw-header.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

Ptr<Packet>
RdmaFrameEditor::ReplaceHead(Ptr<const Packet> frame,
                             uint32_t removed,
                             const uint8_t* head,
                             uint32_t n)
{
    Ptr<Packet> copy = frame->Copy();
    copy->RemoveAtStart(removed);
    copy->AddHeader(RdmaRawHeader(head, n));
    return copy;
}

uint16_t
RdmaFrameEditor::Ipv4Checksum(const uint8_t* header, uint32_t length)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < length; i += 2)
    {
        if (i == 10)
        {
            continue; // the checksum field itself
        }
        sum += static_cast<uint32_t>(header[i] << 8 | header[i + 1]);
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

void
RdmaFrameEditor::MarkCe(RdmaFrame& frame, const RdmaFrameView& view)
{
    MarkCe(frame, view.GetIpOffset(), view.IsIpv6());
}

uint32_t
RdmaFrameEditor::CopyIpHead(const RdmaFrame& frame, uint32_t ip, bool ipv6, uint8_t* head)
{
    // IPv6: the fixed header's first 8 bytes (Traffic Class, Hop Limit);
    // IPv4: the whole header, options included, for its checksum.
    const uint32_t n = frame.CopyData(head, std::min<uint32_t>(MAX_HEAD, ip + 60));
    const uint32_t end = ipv6 ? ip + 8 : ip + (head[ip] & 0x0F) * 4;
    NS_ABORT_MSG_IF(end > n, "RdmaFrameEditor: frame too short for its IP header");
    return end;
}

void
RdmaFrameEditor::FixIpv4Checksum(uint8_t* ipHeader, uint32_t length)
{
    if (ipHeader[10] != 0 || ipHeader[11] != 0)
    {
        const uint16_t sum = Ipv4Checksum(ipHeader, length);
        ipHeader[10] = static_cast<uint8_t>(sum >> 8);
        ipHeader[11] = static_cast<uint8_t>(sum);
    }
}

void
RdmaFrameEditor::MarkCe(RdmaFrame& frame, uint32_t ip, bool ipv6)
{
    uint8_t head[MAX_HEAD];
    const uint32_t n = CopyIpHead(frame, ip, ipv6, head);
    if (ipv6)
    {
        head[ip + 1] |= RdmaFrameView::ECN_CE << 4; // Traffic Class bits 1-0
    }
    else
    {
        head[ip + 1] |= RdmaFrameView::ECN_CE;
        FixIpv4Checksum(head + ip, n - ip);
    }
    frame.RewriteHead(head, n);
}

void
RdmaFrameEditor::DecrementTtl(RdmaFrame& frame, const RdmaFrameView& view)
{
    // The view already holds the head (Parse succeeded, so the fixed IP
    // header is there): rewrite only up to the field, and for IPv4 update
    // the checksum incrementally (RFC 1624 eq. 3, HC' = ~(~HC + ~m + m'),
    // m the 16-bit word TTL|Protocol) instead of summing the header again.
    uint8_t head[MAX_HEAD];
    const uint32_t ip = view.GetIpOffset();
    if (view.IsIpv6())
    {
        const uint32_t n = ip + 8; // Hop Limit is byte 7 (RFC 8200 3)
        std::memcpy(head, view.GetHead(), n);
        --head[ip + 7];
        frame.RewriteHead(head, n);
        return;
    }
    const uint32_t n = ip + 12; // TTL byte 8, checksum bytes 10-11 (RFC 791 3.1)
    std::memcpy(head, view.GetHead(), n);
    const uint16_t before = static_cast<uint16_t>(head[ip + 8] << 8 | head[ip + 9]);
    --head[ip + 8];
    const uint16_t after = static_cast<uint16_t>(head[ip + 8] << 8 | head[ip + 9]);
    const uint16_t checksum = static_cast<uint16_t>(head[ip + 10] << 8 | head[ip + 11]);
    if (checksum != 0)
    {
        uint32_t sum = static_cast<uint16_t>(~checksum) + static_cast<uint16_t>(~before) + after;
        sum = (sum & 0xFFFF) + (sum >> 16);
        sum = (sum & 0xFFFF) + (sum >> 16);
        const uint16_t updated = static_cast<uint16_t>(~sum);
        head[ip + 10] = static_cast<uint8_t>(updated >> 8);
        head[ip + 11] = static_cast<uint8_t>(updated);
    }
    frame.RewriteHead(head, n);
}

bool
RdmaFrameEditor::StampInt(RdmaFrame& frame, const RdmaFrameView& view, uint64_t record)
{
    return StampInt(frame, view.GetL4Offset() + 8, record); // after the UDP header
}

bool
RdmaFrameEditor::StampInt(RdmaFrame& frame, uint32_t shim, uint64_t record, uint64_t egressId)
{
    uint8_t head[MAX_HEAD];
    const uint32_t n = shim + IntHeader::SIZE;
    if (n > MAX_HEAD || frame.GetSize() < n)
    {
        return false;
    }
    frame.CopyData(head, n);
    frame.GetIntEgress()[IntHeader::PushHopBytes(head + shim, record)] = egressId;
    frame.RewriteHead(head, n);
    return true;
}

} // namespace ns3
