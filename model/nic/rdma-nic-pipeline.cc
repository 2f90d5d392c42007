/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic-pipeline.h"

#include "pcie-link.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-wire.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNicPipeline");
NS_OBJECT_ENSURE_REGISTERED(RdmaNicPipeline);

namespace
{

/// \return whether a requester opcode starts a work request (a WQE fetch)
bool
StartsRequest(uint8_t op)
{
    switch (op)
    {
    case RC_SEND_FIRST:
    case RC_SEND_ONLY:
    case RC_SEND_ONLY_WITH_IMMEDIATE:
    case RC_SEND_ONLY_WITH_INVALIDATE:
    case RC_RDMA_WRITE_FIRST:
    case RC_RDMA_WRITE_ONLY:
    case RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE:
    case RC_RDMA_READ_REQUEST:
    case RC_COMPARE_SWAP:
    case RC_FETCH_ADD:
        return true;
    default:
        return false;
    }
}

/// \return the payload bytes of a packet
uint32_t
PayloadBytes(const RoceFrame& f)
{
    return f.payload ? f.payload->GetSize() : 0;
}

} // namespace

TypeId
RdmaNicPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNicPipeline")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNicPipeline>()
            .AddAttribute("ClockFrequency",
                          "NIC clock, Hz; the tables' caches run on it too. Default 250 MHz, "
                          "Corundum's core clock (mqnic_core CLK_PERIOD_NS = 4).",
                          UintegerValue(250000000),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_clockHz),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("DatapathBytes",
                          "Datapath width, bytes per cycle, one datapath per direction: a "
                          "frame streams through it in ceil(bytes / width) cycles. Default 64, "
                          "Corundum's 512-bit AXI stream at 100 Gb/s.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_datapathBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("TxEngines",
                          "TX engines computing in parallel (a packet holds one only during a "
                          "stage's cycles). Default 1, illustrative.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_txEngines),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RxEngines",
                          "RX engines computing in parallel. Default 1, illustrative.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_rxEngines),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("TxContexts",
                          "TX packets in the pipeline at once (held from entry until the "
                          "frame goes to the port). Default 32, Corundum's TX_DESC_TABLE_SIZE.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_txContexts),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RxContexts",
                          "RX packets in the pipeline at once. Default 32, Corundum's "
                          "RX_DESC_TABLE_SIZE.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_rxContexts),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DoorbellCycles",
                          "TX: cycles to take a doorbell (first packet of a request). "
                          "Default 4, illustrative.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_doorbellCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WqeFetchCycles",
                          "Cycles to issue a WQE fetch (send WQE on TX, receive WQE on RX). "
                          "Default 4, illustrative.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_wqeFetchCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("QpcCycles",
                          "Cycles of the QPC stage (the cache's HitCycles come on top). "
                          "Default 2, illustrative.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_qpcCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MptCycles",
                          "Cycles of an MPT (key, R_Key check) stage. Default 2, illustrative.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_mptCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MttCycles",
                          "Cycles of an MTT stage, per page translated. Default 2, "
                          "illustrative.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_mttCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DmaCycles",
                          "Cycles to issue a payload DMA (read on TX, write on RX). Default 4, "
                          "illustrative.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_dmaCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HeaderCycles",
                          "TX: cycles to build the headers. Default 4, illustrative.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_headerCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ParseCycles",
                          "RX: cycles to parse the headers. Default 4, illustrative.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_parseCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CompletionCycles",
                          "RX: cycles to decide the ACK and CQE. Default 4, illustrative.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_completionCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WqeBytes",
                          "Bytes of a WQE fetch. Default 64, one mlx5 WQE basic block "
                          "(MLX5_SEND_WQE_BB), which holds a WRITE's control, remote-address "
                          "and one data segment.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_wqeBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CqeBytes",
                          "Bytes of a CQE write. Default 64, the mlx5 CQE (struct mlx5_cqe64).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaNicPipeline::m_cqeBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PcieLink",
                          "The PCIe link all DMA of the NIC shares.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNicPipeline::m_pcie),
                          MakePointerChecker<PcieLink>())
            .AddAttribute("Tables",
                          "The QPC, MPT and MTT caches with their backing stores.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNicPipeline::m_tables),
                          MakePointerChecker<RdmaNicTables>())
            .AddTraceSource("TxPacketDone",
                            "A TX packet left the pipeline: QPN and time since it entered.",
                            MakeTraceSourceAccessor(&RdmaNicPipeline::m_txDone),
                            "ns3::RdmaNicPipeline::PacketTracedCallback")
            .AddTraceSource("RxPacketDone",
                            "An RX packet reached the transport: QPN and time since it "
                            "entered.",
                            MakeTraceSourceAccessor(&RdmaNicPipeline::m_rxDone),
                            "ns3::RdmaNicPipeline::PacketTracedCallback");
    return tid;
}

RdmaNicPipeline::RdmaNicPipeline()
    : m_clockHz(250000000),
      m_datapathBytes(64),
      m_txEngines(1),
      m_rxEngines(1),
      m_txContexts(32),
      m_rxContexts(32),
      m_doorbellCycles(4),
      m_wqeFetchCycles(4),
      m_qpcCycles(2),
      m_mptCycles(2),
      m_mttCycles(2),
      m_dmaCycles(4),
      m_headerCycles(4),
      m_parseCycles(4),
      m_completionCycles(4),
      m_wqeBytes(64),
      m_cqeBytes(64)
{
    NS_LOG_FUNCTION(this);
    m_pcie = CreateObject<PcieLink>();
    m_tables = CreateObject<RdmaNicTables>();
    m_tx.tx = true;
    m_rx.tx = false;
}

RdmaNicPipeline::~RdmaNicPipeline()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaNicPipeline::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_tables)
    {
        m_tables->Dispose();
    }
    m_tables = nullptr;
    m_pcie = nullptr;
    m_tx = Direction();
    m_rx = Direction();
    m_txRetire = Callback<void, Ptr<RdmaFrame>>();
    m_rxRetire = Callback<void, const RoceFrame&>();
    Object::DoDispose();
}

void
RdmaNicPipeline::SetRetireCallbacks(Callback<void, Ptr<RdmaFrame>> tx,
                                    Callback<void, const RoceFrame&> rx)
{
    m_txRetire = tx;
    m_rxRetire = rx;
}

void
RdmaNicPipeline::Setup()
{
    if (!m_setup)
    {
        NS_ABORT_MSG_IF(!m_pcie || !m_tables,
                        "RdmaNicPipeline: attributes PcieLink and Tables must be set");
        m_tables->Setup(m_clockHz, m_pcie);
        m_setup = true;
    }
}

Ptr<PcieLink>
RdmaNicPipeline::GetPcieLink() const
{
    return m_pcie;
}

Ptr<RdmaNicTables>
RdmaNicPipeline::GetTables() const
{
    return m_tables;
}

Time
RdmaNicPipeline::GetClockPeriod() const
{
    return PicoSeconds(std::llround(1e12 / static_cast<double>(m_clockHz)));
}

const RdmaNicPipeline::Stats&
RdmaNicPipeline::GetStats() const
{
    return m_stats;
}

uint32_t
RdmaNicPipeline::GetTxInFlight() const
{
    return m_tx.inFlight;
}

int64_t
RdmaNicPipeline::AssignStreams(int64_t stream)
{
    return m_tables->AssignStreams(stream);
}

uint32_t
RdmaNicPipeline::NewJob(Direction& d)
{
    uint32_t i;
    if (d.freeJobs.empty())
    {
        i = static_cast<uint32_t>(d.jobs.size());
        d.jobs.emplace_back();
    }
    else
    {
        i = d.freeJobs.back();
        d.freeJobs.pop_back();
    }
    Job& j = d.jobs[i];
    j.stages.clear();
    j.next = 0;
    j.computed = false;
    j.done = false;
    j.start = Simulator::Now();
    return i;
}

void
RdmaNicPipeline::AddTranslation(Job& j, uint32_t key, uint64_t va, uint32_t length, bool mpt) const
{
    if (mpt)
    {
        j.stages.push_back(
            {m_mptCycles, LOOKUP, uint8_t(RdmaNicTables::MPT), RdmaNicTables::MptKey(key)});
    }
    if (length == 0)
    {
        return;
    }
    uint64_t pages = m_tables->MttPages(key, va, length);
    uint64_t first = m_tables->MttKey(key, va);
    for (uint64_t p = 0; p < pages; ++p)
    {
        j.stages.push_back({m_mttCycles, LOOKUP, uint8_t(RdmaNicTables::MTT), first + p});
    }
}

bool
RdmaNicPipeline::CanAcceptTx() const
{
    return m_tx.inFlight < m_txContexts;
}

void
RdmaNicPipeline::NoteRead(uint32_t key, uint64_t va, uint32_t length)
{
    m_txReads.push_back({key, va, length});
}

void
RdmaNicPipeline::SubmitTx(uint32_t qpn, const RoceFrame& f, Ptr<RdmaFrame> frame)
{
    std::vector<MemorySpan> reads;
    reads.swap(m_txReads);
    NS_LOG_FUNCTION(this << qpn);
    NS_ABORT_MSG_UNLESS(CanAcceptTx(), "RdmaNicPipeline::SubmitTx: no free TX context");
    Setup();
    uint32_t i = NewJob(m_tx);
    Job& j = m_tx.jobs[i];
    j.frame = frame;
    j.qpn = qpn;
    uint8_t op = f.bth.GetOpcode();
    if (StartsRequest(op))
    {
        ++m_stats.wqeFetches;
        j.stages.push_back({m_doorbellCycles + m_wqeFetchCycles, DMA_READ, 0, m_wqeBytes});
    }
    j.stages.push_back({m_qpcCycles, LOOKUP, uint8_t(RdmaNicTables::QPC), j.qpn});
    for (const MemorySpan& s : reads)
    {
        AddTranslation(j, s.key, s.va, s.length, true);
    }
    uint32_t payload = PayloadBytes(f);
    if (payload > 0)
    {
        j.stages.push_back({m_dmaCycles, DMA_READ, 0, payload});
    }
    j.stages.push_back({m_headerCycles, DATAPATH, 0, frame->GetSize()});
    m_tx.order.push_back(i);
    Start(&m_tx, i);
}

void
RdmaNicPipeline::AddRxStages(Job& j, const RoceFrame& f, const std::vector<MemorySpan>& places)
{
    uint8_t op = f.bth.GetOpcode();
    uint32_t qpn = f.bth.GetDestQp();
    uint32_t psn = f.bth.GetPsn();
    uint32_t payload = PayloadBytes(f);
    switch (op)
    {
    case RC_RDMA_WRITE_FIRST:
    case RC_RDMA_WRITE_ONLY:
    case RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE: {
        WriteState& w = m_writes[qpn];
        w.rkey = f.reth.GetRkey();
        w.va = f.reth.GetVirtualAddress();
        w.psn = psn;
        w.pmtu = payload;
        AddTranslation(j, w.rkey, w.va, payload, true);
        break;
    }
    case RC_RDMA_WRITE_MIDDLE:
    case RC_RDMA_WRITE_LAST:
    case RC_RDMA_WRITE_LAST_WITH_IMMEDIATE: {
        auto it = m_writes.find(qpn);
        if (it != m_writes.end())
        {
            const WriteState& w = it->second;
            uint64_t index = PsnSince(psn, w.psn);
            AddTranslation(j, w.rkey, w.va + index * w.pmtu, payload, false);
        }
        break;
    }
    case RC_RDMA_READ_REQUEST:
        AddTranslation(j, f.reth.GetRkey(), f.reth.GetVirtualAddress(), 0, true);
        break;
    case RC_COMPARE_SWAP:
    case RC_FETCH_ADD:
        AddTranslation(j, f.atomicEth.GetRkey(), f.atomicEth.GetVirtualAddress(), 8, true);
        break;
    case RC_SEND_FIRST:
    case RC_SEND_ONLY:
    case RC_SEND_ONLY_WITH_IMMEDIATE:
    case RC_SEND_ONLY_WITH_INVALIDATE:
        ++m_stats.wqeFetches;
        j.stages.push_back({m_wqeFetchCycles, DMA_READ, 0, m_wqeBytes});
        break;
    default:
        break;
    }
    // SEND and READ-response payloads land where the NIC found them (RdmaNic).
    const bool first = op == RC_SEND_FIRST || op == RC_SEND_ONLY ||
                       op == RC_SEND_ONLY_WITH_IMMEDIATE || op == RC_SEND_ONLY_WITH_INVALIDATE ||
                       op == RC_RDMA_READ_RESPONSE_FIRST || op == RC_RDMA_READ_RESPONSE_ONLY;
    for (const MemorySpan& s : places)
    {
        AddTranslation(j, s.key, s.va, s.length, first);
    }
}

void
RdmaNicPipeline::SubmitRx(const RoceFrame& f,
                          uint32_t frameBytes,
                          const std::vector<MemorySpan>& places)
{
    NS_LOG_FUNCTION(this << f.bth.GetDestQp());
    Setup();
    uint32_t i = NewJob(m_rx);
    Job& j = m_rx.jobs[i];
    j.packet = f;
    j.qpn = f.bth.GetDestQp();
    j.stages.push_back({0, DATAPATH, 0, frameBytes});
    j.stages.push_back({m_parseCycles, NOTHING, 0, 0});
    j.stages.push_back({m_qpcCycles, LOOKUP, uint8_t(RdmaNicTables::QPC), j.qpn});
    AddRxStages(j, f, places);
    uint32_t payload = PayloadBytes(f);
    if (payload > 0)
    {
        j.stages.push_back({m_dmaCycles, DMA_WRITE, 0, payload});
    }
    j.stages.push_back({m_completionCycles, NOTHING, 0, 0});
    m_rx.order.push_back(i);
    if (m_rx.inFlight < m_rxContexts)
    {
        Start(&m_rx, i);
    }
    else
    {
        ++m_stats.rxWaits;
        m_rx.backlog.push_back(i);
        m_stats.rxBacklogMax = std::max<uint64_t>(m_stats.rxBacklogMax, m_rx.backlog.size());
    }
}

void
RdmaNicPipeline::WriteCqe()
{
    Setup();
    ++m_stats.cqeWrites;
    m_pcie->DmaWrite(m_cqeBytes, Callback<void>());
}

void
RdmaNicPipeline::Start(Direction* d, uint32_t job)
{
    ++d->inFlight;
    Run(d, job);
}

void
RdmaNicPipeline::Run(Direction* d, uint32_t job)
{
    Job& j = d->jobs[job];
    if (j.next == j.stages.size())
    {
        j.done = true;
        Retire(d);
        return;
    }
    const Stage& s = j.stages[j.next];
    if (s.cycles > 0 && !j.computed)
    {
        uint32_t engines = d->tx ? m_txEngines : m_rxEngines;
        if (d->enginesBusy < engines)
        {
            ++d->enginesBusy;
            Simulator::Schedule(GetClockPeriod() * int64_t(s.cycles),
                                &RdmaNicPipeline::EngineDone,
                                this,
                                d,
                                job);
        }
        else
        {
            d->engineQueue.push_back(job);
        }
        return;
    }
    j.computed = false;
    ++j.next;
    switch (s.action)
    {
    case NOTHING:
        Run(d, job);
        break;
    case LOOKUP: {
        auto table = RdmaNicTables::Table(s.table);
        // QPC lookups update the context (PSN, MSN): they dirty the entry.
        m_tables->Lookup(table,
                         s.arg,
                         table == RdmaNicTables::QPC,
                         MakeCallback(&RdmaNicPipeline::LookupDone, this, d, job),
                         j.qpn);
        break;
    }
    case DMA_READ:
        m_pcie->DmaRead(s.arg, MakeCallback(&RdmaNicPipeline::Run, this, d, job));
        break;
    case DMA_WRITE:
        m_pcie->DmaWrite(s.arg, MakeCallback(&RdmaNicPipeline::Run, this, d, job));
        break;
    case DATAPATH: {
        int64_t nowPs = Simulator::Now().GetPicoSeconds();
        int64_t cycles = int64_t((s.arg + m_datapathBytes - 1) / m_datapathBytes);
        int64_t startPs = std::max(nowPs, d->datapathFreePs);
        d->datapathFreePs = startPs + cycles * GetClockPeriod().GetPicoSeconds();
        Simulator::Schedule(PicoSeconds(d->datapathFreePs - nowPs),
                            &RdmaNicPipeline::Run,
                            this,
                            d,
                            job);
        break;
    }
    }
}

void
RdmaNicPipeline::EngineDone(Direction* d, uint32_t job)
{
    --d->enginesBusy;
    if (!d->engineQueue.empty())
    {
        uint32_t next = d->engineQueue.front();
        d->engineQueue.pop_front();
        Run(d, next); // takes the engine just freed
    }
    d->jobs[job].computed = true;
    Run(d, job);
}

void
RdmaNicPipeline::LookupDone(Direction* d, uint32_t job, bool /* hit */)
{
    Run(d, job);
}

void
RdmaNicPipeline::Retire(Direction* d)
{
    while (!d->order.empty() && d->jobs[d->order.front()].done)
    {
        uint32_t i = d->order.front();
        d->order.pop_front();
        Job& j = d->jobs[i];
        Time latency = Simulator::Now() - j.start;
        d->freeJobs.push_back(i);
        if (d->tx)
        {
            ++m_stats.txPackets;
            m_txDone(j.qpn, latency);
            Ptr<RdmaFrame> frame = j.frame;
            j.frame = nullptr;
            if (!m_txRetire.IsNull())
            {
                m_txRetire(frame);
            }
        }
        else
        {
            ++m_stats.rxPackets;
            --d->inFlight;
            m_rxDone(j.qpn, latency);
            RoceFrame packet = j.packet;
            j.packet = RoceFrame();
            if (!m_rxRetire.IsNull())
            {
                m_rxRetire(packet);
            }
            while (!d->backlog.empty() && d->inFlight < m_rxContexts)
            {
                uint32_t next = d->backlog.front();
                d->backlog.pop_front();
                Start(d, next);
            }
        }
    }
}

void
RdmaNicPipeline::TxLeft()
{
    NS_ABORT_MSG_IF(m_tx.inFlight == 0, "RdmaNicPipeline::TxLeft: no TX context held");
    --m_tx.inFlight;
}

} // namespace ns3
