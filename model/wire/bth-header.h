/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BTH_HEADER_H
#define BTH_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief InfiniBand Base Transport Header (IBA Vol 1 9.2), 12 bytes, as
 * carried by RoCEv2 after UDP destination port 4791.
 *
 * Wire layout (big-endian):
 * byte 0 OpCode; byte 1 SE(0x80) MigReq(0x40) PadCnt(0x30) TVer(0x0F);
 * bytes 2-3 P_Key; byte 4 FECN(0x80) BECN(0x40) reserved(0x3F);
 * bytes 5-7 DestQP (24 bits); byte 8 AckReq(0x80) reserved(0x7F);
 * bytes 9-11 PSN (24 bits).
 *
 * Setters of 24-bit fields (DestQP, PSN) keep the low 24 bits; PadCnt keeps
 * the low 2 bits; TVer the low 4. Reserved bits are written as zero and
 * preserved on read so that a round trip is byte-exact.
 */
class BthHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 12;             //!< serialized size, bytes
    static constexpr uint16_t DEFAULT_PKEY = 0xFFFF; //!< default full-member P_Key
    static constexpr uint32_t PSN_MASK = 0xFFFFFF;   //!< 24-bit PSN and QPN

    BthHeader();

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

    /// \param opcode BTH OpCode (see RdmaOpcode)
    void SetOpcode(uint8_t opcode);
    /// \return BTH OpCode
    uint8_t GetOpcode() const;
    /// \param se Solicited Event bit
    void SetSolicitedEvent(bool se);
    /// \return Solicited Event bit
    bool GetSolicitedEvent() const;
    /// \param migReq MigReq bit (path migration state)
    void SetMigReq(bool migReq);
    /// \return MigReq bit
    bool GetMigReq() const;
    /// \param padCnt pad bytes after the payload, 0-3 (IBA 9.2: (4 - len % 4) % 4)
    void SetPadCnt(uint8_t padCnt);
    /// \return PadCnt, 0-3
    uint8_t GetPadCnt() const;
    /// \param tver transport header version, 0 for this spec
    void SetTver(uint8_t tver);
    /// \return TVer
    uint8_t GetTver() const;
    /// \param pkey partition key
    void SetPkey(uint16_t pkey);
    /// \return P_Key
    uint16_t GetPkey() const;
    /// \param fecn Forward ECN bit
    void SetFecn(bool fecn);
    /// \return FECN bit
    bool GetFecn() const;
    /// \param becn Backward ECN bit (set in the RoCEv2 CNP)
    void SetBecn(bool becn);
    /// \return BECN bit
    bool GetBecn() const;
    /// \param qpn destination QP number, 24 bits
    void SetDestQp(uint32_t qpn);
    /// \return DestQP, 24 bits
    uint32_t GetDestQp() const;
    /// \param ackReq AckReq bit: the requester asks for an acknowledgement
    void SetAckReq(bool ackReq);
    /// \return AckReq bit
    bool GetAckReq() const;
    /**
     * \brief The 13 reserved bits: byte 4's low 6 (the high part) and byte
     * 8's low 7. IBA 9.2 has senders write 0 there; this module carries
     * RCCC's pull target in them (RdmaRcccSender), where a RoCE NIC that
     * does not know it ignores them and Wireshark shows them as Reserved.
     * \param bits the value, 13 bits (higher bits ignored)
     */
    void SetReservedBits(uint16_t bits);
    /// \return the 13 reserved bits (SetReservedBits)
    uint16_t GetReservedBits() const;
    /// \param psn packet sequence number, 24 bits
    void SetPsn(uint32_t psn);
    /// \return PSN, 24 bits
    uint32_t GetPsn() const;

    /**
     * \param payloadSize payload bytes of a packet
     * \return the PadCnt that makes payload plus pad a multiple of 4 bytes
     */
    static uint8_t PadCntFor(uint32_t payloadSize);

  private:
    uint8_t m_opcode;  //!< OpCode
    uint8_t m_flags;   //!< byte 1: SE, MigReq, PadCnt, TVer
    uint16_t m_pkey;   //!< P_Key
    uint8_t m_ecnByte; //!< byte 4: FECN, BECN, reserved
    uint32_t m_destQp; //!< DestQP (24 bits)
    uint8_t m_ackByte; //!< byte 8: AckReq, reserved
    uint32_t m_psn;    //!< PSN (24 bits)
};

} // namespace ns3

#endif // BTH_HEADER_H
