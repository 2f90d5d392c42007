/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TEST_DATA_H
#define RDMA_TEST_DATA_H

#include "ns3/packet.h"
#include "ns3/rdma-config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace rdmatest
{

/**
 * \param name a file in the module's test/data folder
 * \return its path (RDMA_TEST_DATA_DIR, defined by every build, is the folder)
 */
std::string DataPath(const std::string& name);

/// One frame of test/data/roce-vectors.txt.
struct RoceVector
{
    std::string name;           //!< e.g. "TV1_RC_RDMA_WRITE_ONLY_16B"
    uint32_t length;            //!< declared frame length, bytes
    uint32_t icrc;              //!< declared ICRC as its 4 wire bytes read big-endian
    std::vector<uint8_t> bytes; //!< Ethernet frame without FCS; last 4 bytes = ICRC
};

/**
 * \brief Read the RoCEv2 vectors file: "# comment" lines, then pairs of a
 * "NAME len=N icrc=HEX" line and a line of hex bytes.
 * \param path the file
 * \param error set to a message naming the file and line on a format error
 * \return the vectors (empty on error)
 */
std::vector<RoceVector> ReadRoceVectors(const std::string& path, std::string& error);

/// \return a packet holding exactly the given bytes
Ptr<Packet> ToPacket(const std::vector<uint8_t>& bytes);
/// \return the bytes of a packet
std::vector<uint8_t> ToBytes(Ptr<const Packet> p);
/// \return the bytes as lowercase hex, for messages
std::string ToHex(const std::vector<uint8_t>& bytes);

/**
 * \brief The message of the error a call throws (an RdmaConfigError, or
 * the type E names).
 * \param f the call
 * \return the error's message, or "" if it throws none
 */
template <typename E = RdmaConfigError, typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        return e.what();
    }
    return "";
}

} // namespace rdmatest
} // namespace ns3

#endif // RDMA_TEST_DATA_H
