/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-pcap-writer.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cerrno>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPcapWriter");

namespace
{
constexpr uint32_t DLT_EN10MB = 1; // pcap-linktype(7): LINKTYPE_ETHERNET
} // namespace

RdmaPcapWriter::RdmaPcapWriter(const std::string& filename, uint32_t snapLen)
    : m_filename(filename)
{
    m_file = CreateObject<PcapFileWrapper>();
    m_file->SetAttribute("NanosecMode", BooleanValue(true));
    errno = 0;
    m_file->Open(filename, std::ios::out);
    if (m_file->Fail())
    {
        m_error = "cannot create pcap file '" + filename +
                  "': " + (errno ? std::strerror(errno) : "open failed");
        return;
    }
    m_file->Init(DLT_EN10MB, snapLen);
    if (m_file->Fail())
    {
        m_error = "cannot write pcap header to '" + filename + "'";
    }
}

bool
RdmaPcapWriter::IsOpen() const
{
    return m_error.empty();
}

const std::string&
RdmaPcapWriter::GetError() const
{
    return m_error;
}

const std::string&
RdmaPcapWriter::GetFilename() const
{
    return m_filename;
}

void
RdmaPcapWriter::Write(Time t, Ptr<const Packet> frame)
{
    if (!IsOpen() || m_closed)
    {
        return;
    }
    errno = 0;
    m_file->Write(t, frame);
    if (m_file->Fail())
    {
        // The system's reason (EFBIG past a file size limit, ENOSPC on a full disk).
        m_error = "write to pcap file '" + m_filename + "' failed" +
                  (errno ? std::string(": ") + std::strerror(errno) : std::string());
        NS_LOG_WARN(m_error);
        return;
    }
    ++m_frames;
}

void
RdmaPcapWriter::WriteNow(Ptr<const Packet> frame)
{
    Write(Simulator::Now(), frame);
}

void
RdmaPcapWriter::Close()
{
    if (!m_closed)
    {
        m_file->Close();
        m_closed = true;
    }
}

uint64_t
RdmaPcapWriter::GetFramesWritten() const
{
    return m_frames;
}

} // namespace ns3
