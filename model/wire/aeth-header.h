/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef AETH_HEADER_H
#define AETH_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief ACK Extended Transport Header (IBA Vol 1 9.3.5), 4 bytes:
 * Syndrome (8 bits) and MSN (24 bits), big-endian.
 *
 * Syndrome bit 7 is reserved (0); bits 6-5 give the type (00 ACK, 01 RNR
 * NAK, 11 NAK; IBA Table 44) and bits 4-0 the value: the credit code of an
 * ACK (0x1F = credits not limited, what RoCE NICs send), the RNR timer code
 * of an RNR NAK (IBA Table 45), the NAK code of a NAK (IBA Table 46).
 */
class AethHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 4;                  //!< serialized size, bytes
    static constexpr uint8_t CREDITS_NOT_LIMITED = 0x1F; //!< ACK credit code "invalid"

    /// Syndrome type, bits 6-5 (IBA Table 44).
    enum SyndromeType : uint8_t
    {
        ACK = 0,
        RNR_NAK = 1,
        RESERVED = 2,
        NAK = 3,
    };

    /// NAK codes, syndrome bits 4-0 when the type is NAK (IBA Table 46).
    enum NakCode : uint8_t
    {
        NAK_PSN_SEQUENCE_ERROR = 0,
        NAK_INVALID_REQUEST = 1,
        NAK_REMOTE_ACCESS_ERROR = 2,
        NAK_REMOTE_OPERATIONAL_ERROR = 3,
        NAK_INVALID_RD_REQUEST = 4,
        /// This module's extension, in a code IBA Table 46 reserves: the
        /// request with the PSN in the MSN field reached the responder
        /// trimmed to its headers (QbbTrimmer); the AETH's PSN is the
        /// responder's expected PSN, acknowledging every PSN before it. UEC
        /// NACKs a trimmed packet alike; RoCE has no code for it.
        NAK_TRIMMED = 5,
    };

    AethHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param syndrome the whole syndrome byte
    void SetSyndrome(uint8_t syndrome);
    /// \return the whole syndrome byte
    uint8_t GetSyndrome() const;
    /// \param creditCode ACK credit code 0-31 (0x1F: not limited)
    void SetAck(uint8_t creditCode = CREDITS_NOT_LIMITED);
    /// \param timerCode RNR timer code 0-31 (IBA Table 45; 0 = 655.36 ms)
    void SetRnrNak(uint8_t timerCode);
    /// \param code NAK code (NakCode)
    void SetNak(NakCode code);
    /// \return syndrome bits 6-5
    SyndromeType GetSyndromeType() const;
    /// \return syndrome bits 4-0: credit code, RNR timer code or NAK code
    uint8_t GetSyndromeValue() const;
    /// \param msn message sequence number, 24 bits
    void SetMsn(uint32_t msn);
    /// \return MSN, 24 bits
    uint32_t GetMsn() const;

    /**
     * \brief The RNR NAK timer table (IBA Vol 1 Table 45; Linux enum
     * ib_rnr_timeout): code 0 = 655.36 ms, 1 = 0.01 ms ... 31 = 491.52 ms.
     * \param timerCode 5-bit code (higher bits ignored)
     * \return the minimum time the requester waits before retrying
     */
    static Time RnrTimerCodeToTime(uint8_t timerCode);

  private:
    uint8_t m_syndrome; //!< syndrome byte
    uint32_t m_msn;     //!< MSN (24 bits)
};

} // namespace ns3

#endif // AETH_HEADER_H
