/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-header.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{
constexpr uint32_t PAD_BYTES = PfcHeader::SIZE - 2 - 2 - 2 * PfcHeader::NUM_CLASSES;
} // namespace

PfcHeader::PfcHeader()
    : m_opcode(OPCODE_PFC),
      m_classEnable(0)
{
}

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC opcode=0x" << std::hex << m_opcode << " cev=0x" << m_classEnable << std::dec;
    for (uint8_t p = 0; p < NUM_CLASSES; ++p)
    {
        if (IsEnabled(p))
        {
            os << " c" << +p << "=" << m_quanta[p];
        }
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_opcode);
    start.WriteHtonU16(m_classEnable);
    for (uint16_t q : m_quanta)
    {
        start.WriteHtonU16(q);
    }
    start.WriteU8(0, PAD_BYTES);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadNtohU16();
    m_classEnable = start.ReadNtohU16();
    for (uint16_t& q : m_quanta)
    {
        q = start.ReadNtohU16();
    }
    start.Next(PAD_BYTES);
    return SIZE;
}

Mac48Address
PfcHeader::GetDestination()
{
    return Mac48Address("01:80:c2:00:00:01");
}

void
PfcHeader::SetOpcode(uint16_t opcode)
{
    m_opcode = opcode;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

void
PfcHeader::SetPause(uint8_t priority, uint16_t quanta)
{
    if (priority >= NUM_CLASSES)
    {
        return;
    }
    m_classEnable |= (1u << priority);
    m_quanta[priority] = quanta;
}

bool
PfcHeader::IsEnabled(uint8_t priority) const
{
    return priority < NUM_CLASSES && (m_classEnable & (1u << priority));
}

uint16_t
PfcHeader::GetPauseQuanta(uint8_t priority) const
{
    return priority < NUM_CLASSES ? m_quanta[priority] : 0;
}

uint16_t
PfcHeader::GetClassEnableVector() const
{
    return m_classEnable;
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, DataRate rate)
{
    return rate.CalculateBitsTxTime(uint32_t(quanta) * QUANTUM_BITS);
}

uint16_t
PfcHeader::TimeToQuanta(Time duration, DataRate rate)
{
    Time quantum = rate.CalculateBitsTxTime(QUANTUM_BITS);
    if (duration <= Time(0) || quantum <= Time(0))
    {
        return 0;
    }
    int64_t n = (duration.GetTimeStep() + quantum.GetTimeStep() - 1) / quantum.GetTimeStep();
    return static_cast<uint16_t>(std::min<int64_t>(n, 0xFFFF));
}

uint64_t
PfcHeader::ComputeHeadroom(DataRate rate, Time delay, uint32_t maxFrameBytes)
{
    // Bytes on the cable during 2 x delay, rounded up, in exact integers:
    // 2 x ps x bit/s / (8 x 10^12).
    const unsigned __int128 bits2 = static_cast<unsigned __int128>(2) *
                                    static_cast<uint64_t>(delay.GetPicoSeconds()) *
                                    rate.GetBitRate();
    const unsigned __int128 perByte = static_cast<unsigned __int128>(8) * 1000000000000ULL;
    const uint64_t cable = static_cast<uint64_t>((bits2 + perByte - 1) / perByte);
    return cable + 2ULL * (maxFrameBytes + RdmaWire::WIRE_OVERHEAD_BYTES) +
           (RdmaWire::MIN_FRAME_BYTES + RdmaWire::WIRE_OVERHEAD_BYTES);
}

} // namespace ns3
