/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PATH_MTU_H
#define RDMA_PATH_MTU_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Path MTU (enum ibv_mtu): IB MTU codes 1-5 = 256-4096 bytes.
 */
enum RdmaMtu : uint8_t
{
    IBV_MTU_256 = 1,
    IBV_MTU_512 = 2,
    IBV_MTU_1024 = 3,
    IBV_MTU_2048 = 4,
    IBV_MTU_4096 = 5,
};

/// \return the bytes of an IB MTU code (0 for an invalid code)
uint32_t RdmaMtuBytes(RdmaMtu mtu);

/**
 * \ingroup rdma
 * \brief The path MTU of an RC connection: its default and its rule, the
 * one place each is written (as RdmaPageSize is the MTT page's).
 *
 * The rule: 256, 512, 1024, 2048 or 4096 bytes, the payload a packet may
 * carry, coded 1-5 as verbs' enum ibv_mtu codes them (rdma-core's verbs.h;
 * the InfiniBand MTU values, IBA Vol 1 chapter 7). RoCEv2
 * rides Ethernet, whose 1500-byte frames take 1024 at most (the IB MTUs are
 * powers of two); 4096 needs jumbo frames. The default is 1024: the largest
 * MTU a standard Ethernet frame carries, what RoCE NICs negotiate on such a
 * fabric, and the payload nearest the HPCC simulator's 1000 bytes.
 */
class RdmaPathMtu
{
  public:
    /// The default path MTU.
    static constexpr RdmaMtu DEFAULT = IBV_MTU_1024;
    /// The default path MTU, bytes.
    static constexpr uint32_t DEFAULT_BYTES = 1024;
    /// The smallest and largest path MTU, bytes.
    static constexpr uint32_t MIN_BYTES = 256;
    static constexpr uint32_t MAX_BYTES = 4096; //!< as MIN_BYTES

    /// \param bytes a path MTU in bytes
    /// \return whether it follows the rule (a power of two from 256 to 4096)
    static constexpr bool IsValidBytes(uint64_t bytes)
    {
        return bytes >= MIN_BYTES && bytes <= MAX_BYTES && (bytes & (bytes - 1)) == 0;
    }

    /// \return the rule in words, for help texts and error messages
    static std::string Rule();

    /// \param bytes a path MTU; aborts unless IsValidBytes(bytes) (callers
    ///        that read user input check it first and report the input)
    /// \return its code
    static RdmaMtu FromBytes(uint64_t bytes);

    /**
     * \param payloadBytes a packet payload in bytes (> 0)
     * \return the path MTU nearest it, the larger of two as near (how an
     *         HPCC simulator config's PACKET_PAYLOAD_SIZE is read: 1000 is 1024)
     */
    static uint32_t NearestBytes(uint64_t payloadBytes);
};

} // namespace ns3

#endif // RDMA_PATH_MTU_H
