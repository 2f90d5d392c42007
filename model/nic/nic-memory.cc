/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-memory.h"

#include "pcie-link.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicMemory");
NS_OBJECT_ENSURE_REGISTERED(NicMemory);

TypeId
NicMemory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NicMemory")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<NicMemory>()
            .AddAttribute("Kind",
                          "Where the table lives: Sram (on the FPGA: no misses, hard capacity; "
                          "the default, phase 2 of Corundum's RoCEv2 roadmap), CardDram (on-card "
                          "DRAM: DramLatency, DramBandwidth) or HostMemory (over the PcieLink).",
                          EnumValue(NicMemory::SRAM),
                          MakeEnumAccessor(&NicMemory::m_kind),
                          MakeEnumChecker(NicMemory::SRAM,
                                          "Sram",
                                          NicMemory::CARD_DRAM,
                                          "CardDram",
                                          NicMemory::HOST_MEMORY,
                                          "HostMemory"))
            .AddAttribute("Capacity",
                          "Entries the table can hold; Allocate fails past it. 0 (the default) "
                          "= unlimited. For Sram this is the on-chip table size (Corundum, for "
                          "reference, keeps 2^13 transmit queue states on chip by default).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NicMemory::m_capacity),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("DramLatency",
                          "CardDram: time from the end of an access's transfer to its "
                          "completion. Default 100 ns, within the 75-170 ns typical read "
                          "latencies of FPGA DDR controllers (Altera External Memory Interface "
                          "Handbook vol. 3, HPC II latency tables).",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&NicMemory::m_dramLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DramBandwidth",
                          "CardDram: data rate shared by fetches and write-backs. Default "
                          "153.6 Gb/s, the peak of one 64-bit DDR4-2400 channel (2400 MT/s x "
                          "8 bytes, JEDEC JESD79-4), as on Corundum's Alveo boards.",
                          DataRateValue(DataRate("153.6Gbps")),
                          MakeDataRateAccessor(&NicMemory::m_dramBandwidth),
                          MakeDataRateChecker())
            .AddAttribute("PcieLink",
                          "HostMemory: the PCIe link the table is reached over.",
                          PointerValue(),
                          MakePointerAccessor(&NicMemory::m_pcie),
                          MakePointerChecker<PcieLink>())
            .AddTraceSource("FetchComplete",
                            "A fetch completed: bytes and latency from the call.",
                            MakeTraceSourceAccessor(&NicMemory::m_fetchTrace),
                            "ns3::NicMemory::AccessTracedCallback")
            .AddTraceSource("WriteBackComplete",
                            "A write-back completed: bytes and latency from the call.",
                            MakeTraceSourceAccessor(&NicMemory::m_writeBackTrace),
                            "ns3::NicMemory::AccessTracedCallback");
    return tid;
}

NicMemory::NicMemory()
    : m_kind(SRAM),
      m_capacity(0),
      m_dramLatency(NanoSeconds(100)),
      m_dramBandwidth(DataRate(153'600'000'000ULL))
{
    NS_LOG_FUNCTION(this);
}

NicMemory::~NicMemory()
{
    NS_LOG_FUNCTION(this);
}

void
NicMemory::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_pcie = nullptr;
    Object::DoDispose();
}

NicMemory::Kind
NicMemory::GetKind() const
{
    return m_kind;
}

void
NicMemory::SetPcieLink(Ptr<PcieLink> link)
{
    NS_LOG_FUNCTION(this << link);
    m_pcie = link;
}

Ptr<PcieLink>
NicMemory::GetPcieLink() const
{
    return m_pcie;
}

void
NicMemory::Fetch(uint32_t bytes, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes);
    Access(bytes, false, done);
}

void
NicMemory::WriteBack(uint32_t bytes, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes);
    Access(bytes, true, done);
}

void
NicMemory::Access(uint32_t bytes, bool write, Callback<void> done)
{
    NS_ABORT_MSG_IF(bytes == 0, "NicMemory: access of zero bytes");
    Time now = Simulator::Now();
    switch (m_kind)
    {
    case SRAM:
        Simulator::ScheduleNow(&NicMemory::Done, this, bytes, write, now, done);
        break;
    case CARD_DRAM: {
        NS_ABORT_MSG_IF(m_dramBandwidth.GetBitRate() == 0,
                        "NicMemory: attribute DramBandwidth is 0");
        int64_t nowPs = now.GetPicoSeconds();
        int64_t transferPs =
            std::llround(static_cast<double>(bytes) * 8e12 / m_dramBandwidth.GetBitRate());
        m_dramFreePs = std::max(nowPs, m_dramFreePs) + transferPs;
        int64_t endPs = m_dramFreePs + m_dramLatency.GetPicoSeconds();
        Time end = PicoSeconds(endPs);
        if (end.GetPicoSeconds() < endPs)
        {
            end += TimeStep(1);
        }
        Simulator::Schedule(end - now, &NicMemory::Done, this, bytes, write, now, done);
        break;
    }
    case HOST_MEMORY: {
        NS_ABORT_MSG_IF(!m_pcie, "NicMemory: Kind HostMemory needs the attribute PcieLink");
        Callback<void> cb = MakeCallback(&NicMemory::Done, this, bytes, write, now, done);
        if (write)
        {
            m_pcie->DmaWrite(bytes, cb);
        }
        else
        {
            m_pcie->DmaRead(bytes, cb);
        }
        break;
    }
    }
}

void
NicMemory::Done(uint32_t bytes, bool write, Time start, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes << write);
    Time latency = Simulator::Now() - start;
    if (write)
    {
        ++m_writeBacks;
        m_writtenBytes += bytes;
        m_writeBackTrace(bytes, latency);
    }
    else
    {
        ++m_fetches;
        m_fetchedBytes += bytes;
        m_fetchTrace(bytes, latency);
    }
    if (!done.IsNull())
    {
        done();
    }
}

bool
NicMemory::Allocate(uint64_t entries)
{
    NS_LOG_FUNCTION(this << entries);
    if (m_capacity != 0 && entries > m_capacity - std::min(m_allocated, m_capacity))
    {
        ++m_allocFailures;
        NS_LOG_LOGIC("refused: " << m_allocated << " of " << m_capacity << " in use");
        return false;
    }
    m_allocated += entries;
    return true;
}

void
NicMemory::Release(uint64_t entries)
{
    NS_LOG_FUNCTION(this << entries);
    NS_ABORT_MSG_IF(entries > m_allocated,
                    "NicMemory::Release: " << entries << " entries, only " << m_allocated
                                           << " allocated");
    m_allocated -= entries;
}

uint64_t
NicMemory::GetCapacity() const
{
    return m_capacity;
}

uint64_t
NicMemory::GetAllocated() const
{
    return m_allocated;
}

uint64_t
NicMemory::GetAvailable() const
{
    if (m_capacity == 0)
    {
        return std::numeric_limits<uint64_t>::max();
    }
    return m_capacity - std::min(m_allocated, m_capacity);
}

uint64_t
NicMemory::GetFetches() const
{
    return m_fetches;
}

uint64_t
NicMemory::GetWriteBacks() const
{
    return m_writeBacks;
}

uint64_t
NicMemory::GetFetchedBytes() const
{
    return m_fetchedBytes;
}

uint64_t
NicMemory::GetWrittenBytes() const
{
    return m_writtenBytes;
}

uint64_t
NicMemory::GetAllocationFailures() const
{
    return m_allocFailures;
}

} // namespace ns3
