/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PCAP_WRITER_H
#define RDMA_PCAP_WRITER_H

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pcap-file-wrapper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Writes whole Ethernet frames (no preamble, no FCS) to a pcap file of
 * link type Ethernet (DLT_EN10MB = 1) with nanosecond timestamps, the format
 * Wireshark/tshark and scapy decode RoCEv2 (UDP 4791) and PFC from.
 *
 * Built on ns-3's PcapFileWrapper; every device of the module writes its
 * frames through one of these.
 */
class RdmaPcapWriter : public SimpleRefCount<RdmaPcapWriter>
{
  public:
    /**
     * \brief Create (truncate) a pcap file.
     * \param filename path of the file
     * \param snapLen bytes kept of each frame (default: all)
     * \throws nothing; on failure IsOpen() is false and GetError() says why
     */
    explicit RdmaPcapWriter(const std::string& filename, uint32_t snapLen = 65535);

    /// \return whether the file was created and every write so far succeeded
    bool IsOpen() const;
    /// \return a message naming the file when IsOpen() is false
    const std::string& GetError() const;
    /// \return the file's path
    const std::string& GetFilename() const;

    /**
     * \brief Append one frame.
     * \param t timestamp (simulation time)
     * \param frame the Ethernet frame, starting at the destination MAC
     */
    void Write(Time t, Ptr<const Packet> frame);
    /**
     * \brief Trace-sink form of Write, stamping Simulator::Now(); connect with
     * MakeCallback(&RdmaPcapWriter::WriteNow, writer).
     * \param frame the Ethernet frame
     */
    void WriteNow(Ptr<const Packet> frame);
    /// \return frames written
    uint64_t GetFramesWritten() const;
    /// Flush and close the file; later frames are not written.
    void Close();

  private:
    Ptr<PcapFileWrapper> m_file; //!< ns-3's pcap file
    std::string m_filename;      //!< path
    std::string m_error;         //!< why the file is not usable, or empty
    uint64_t m_frames{0};        //!< frames written
    bool m_closed{false};        //!< Close() was called
};

} // namespace ns3

#endif // RDMA_PCAP_WRITER_H
