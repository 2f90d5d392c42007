/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-frame-editor.h"

#include "int-header.h"
#include "rdma-raw-header.h"

#include "ns3/abort.h"

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

void
RdmaFrameEditor::RewriteHead(Ptr<Packet> frame, const uint8_t* head, uint32_t n)
{
    // The bytes taken off leave room in front of the buffer: putting n bytes
    // back writes into it without an allocation, unless the buffer is shared
    // with another Packet (then it is copied first, copy-on-write).
    frame->RemoveAtStart(n);
    frame->AddHeader(RdmaRawHeader(head, n));
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
RdmaFrameEditor::MarkCe(Ptr<Packet>& frame, const RdmaFrameView& view)
{
    uint8_t head[MAX_HEAD];
    const uint32_t ip = view.GetIpOffset();
    const uint32_t n = view.IsIpv6() ? ip + 2 : view.GetL4Offset();
    NS_ABORT_MSG_IF(n > MAX_HEAD, "RdmaFrameEditor: IP header beyond " << MAX_HEAD << " bytes");
    frame->CopyData(head, n);
    if (view.IsIpv6())
    {
        head[ip + 1] |= RdmaFrameView::ECN_CE << 4; // Traffic Class bits 1-0
    }
    else
    {
        head[ip + 1] |= RdmaFrameView::ECN_CE;
        if (head[ip + 10] != 0 || head[ip + 11] != 0)
        {
            uint16_t sum = Ipv4Checksum(head + ip, n - ip);
            head[ip + 10] = static_cast<uint8_t>(sum >> 8);
            head[ip + 11] = static_cast<uint8_t>(sum);
        }
    }
    RewriteHead(frame, head, n);
}

bool
RdmaFrameEditor::StampInt(Ptr<Packet>& frame, const RdmaFrameView& view, uint64_t record)
{
    return StampInt(frame, view.GetL4Offset() + 8, record); // after the UDP header
}

bool
RdmaFrameEditor::StampInt(Ptr<Packet>& frame, uint32_t shim, uint64_t record)
{
    uint8_t head[MAX_HEAD];
    const uint32_t n = shim + IntHeader::SIZE;
    if (n > MAX_HEAD || frame->GetSize() < n)
    {
        return false;
    }
    frame->CopyData(head, n);
    IntHeader::PushHopBytes(head + shim, record);
    RewriteHead(frame, head, n);
    return true;
}

} // namespace ns3
