/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "aeth-header.h"

#include <array>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AethHeader);

AethHeader::AethHeader()
    : m_syndrome(CREDITS_NOT_LIMITED),
      m_msn(0)
{
}

TypeId
AethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<AethHeader>();
    return tid;
}

TypeId
AethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AethHeader::Print(std::ostream& os) const
{
    static const char* const types[] = {"ACK", "RNR_NAK", "RESERVED", "NAK"};
    os << "AETH " << types[GetSyndromeType()] << " value=" << +GetSyndromeValue()
       << " msn=" << m_msn;
}

uint32_t
AethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
AethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((uint32_t(m_syndrome) << 24) | m_msn);
}

uint32_t
AethHeader::Deserialize(Buffer::Iterator start)
{
    uint32_t w = start.ReadNtohU32();
    m_syndrome = w >> 24;
    m_msn = w & 0xFFFFFF;
    return SIZE;
}

void
AethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
AethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
AethHeader::SetAck(uint8_t creditCode)
{
    m_syndrome = (ACK << 5) | (creditCode & 0x1F);
}

void
AethHeader::SetRnrNak(uint8_t timerCode)
{
    m_syndrome = (RNR_NAK << 5) | (timerCode & 0x1F);
}

void
AethHeader::SetNak(NakCode code)
{
    m_syndrome = (NAK << 5) | (code & 0x1F);
}

AethHeader::SyndromeType
AethHeader::GetSyndromeType() const
{
    return static_cast<SyndromeType>((m_syndrome >> 5) & 0x3);
}

uint8_t
AethHeader::GetSyndromeValue() const
{
    return m_syndrome & 0x1F;
}

void
AethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn & 0xFFFFFF;
}

uint32_t
AethHeader::GetMsn() const
{
    return m_msn;
}

Time
AethHeader::RnrTimerCodeToTime(uint8_t timerCode)
{
    // IBA Vol 1 Table 45, in microseconds.
    static const std::array<uint32_t, 32> us = {
        655360, 10,    20,    30,    40,    60,     80,     120,    160,    240,   320,
        480,    640,   960,   1280,  1920,  2560,   3840,   5120,   7680,   10240, 15360,
        20480,  30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520};
    return MicroSeconds(us[timerCode & 0x1F]);
}

} // namespace ns3
