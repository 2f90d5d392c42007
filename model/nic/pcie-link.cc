/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pcie-link.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PcieLink");
NS_OBJECT_ENSURE_REGISTERED(PcieLink);

namespace
{

/**
 * \param ps an absolute simulation time in picoseconds
 * \return the earliest Time at the simulator's resolution not before ps (so
 * a completion is never seen before its modelled end)
 */
Time
NotBefore(int64_t ps)
{
    Time t = PicoSeconds(ps);
    if (t.GetPicoSeconds() < ps)
    {
        t += TimeStep(1);
    }
    return t;
}

/// \return whether v is a power of two in [lo, hi]
bool
IsPowerOfTwoIn(uint32_t v, uint32_t lo, uint32_t hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/// \return ceil(a / b), b > 0
uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

} // namespace

TypeId
PcieLink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PcieLink")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<PcieLink>()
            .AddAttribute("Generation",
                          "PCIe generation, 1-5: 2.5, 5, 8, 16 or 32 GT/s per lane, 8b/10b line "
                          "encoding for Gen1/2 and 128b/130b for Gen3-5 (PCIe Base Spec 5.0, "
                          "4.2). Default 3, the generation of Corundum's 100G boards.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&PcieLink::m_generation),
                          MakeUintegerChecker<uint8_t>(1, 5))
            .AddAttribute("Lanes",
                          "Link width in lanes: 1, 2, 4, 8, 12, 16 or 32. Default 16: Gen3 x16 "
                          "gives 126 Gb/s per direction after encoding, the figure Corundum's "
                          "documentation and the Intel/Xilinx PCIe IP guides give.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&PcieLink::m_lanes),
                          MakeUintegerChecker<uint8_t>(1, 32))
            .AddAttribute("MaxPayloadSize",
                          "Max payload size (MPS) of a write or completion TLP, bytes: a power "
                          "of two from 128 to 4096. Default 256, pcie-bench's model default "
                          "(Neugebauer et al., SIGCOMM 2018), the value typical server root "
                          "ports negotiate.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&PcieLink::m_mps),
                          MakeUintegerChecker<uint32_t>(128, 4096))
            .AddAttribute("MaxReadRequestSize",
                          "Max read request size (MRRS), bytes: a power of two from 128 to "
                          "4096. A DMA read is cut into ceil(bytes / MRRS) requests, one tag "
                          "each. Default 512, pcie-bench's model default.",
                          UintegerValue(512),
                          MakeUintegerAccessor(&PcieLink::m_mrrs),
                          MakeUintegerChecker<uint32_t>(128, 4096))
            .AddAttribute("ReadCompletionBytes",
                          "Payload bytes per completion TLP the host returns, a power of two "
                          "from 64 to MaxPayloadSize, or 0 for MaxPayloadSize. Default 0: "
                          "MPS-sized completions, pcie-bench's default; 64 models root "
                          "complexes that split at a 64-byte read completion boundary.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PcieLink::m_completionBytes),
                          MakeUintegerChecker<uint32_t>(0, 4096))
            .AddAttribute("TlpHeaderBytes",
                          "Header bytes of a memory read or write request TLP, framing not "
                          "included: 16 for a 4-DW header with a 64-bit address (the default, "
                          "as host memory sits above 4 GiB), 12 for a 3-DW header with a "
                          "32-bit address, +4 with an ECRC digest (PCIe Base Spec 5.0, 2.2).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&PcieLink::m_tlpHeaderBytes),
                          MakeUintegerChecker<uint32_t>(12, 20))
            .AddAttribute("ReadLatency",
                          "DMA read round trip: from a read request's last byte leaving the NIC "
                          "to its first completion byte arriving, serialization excluded "
                          "(host root complex, memory and link latency). Default 850 ns, "
                          "measured on a Gen3 FPGA endpoint; the order of the DMA read "
                          "latencies pcie-bench reports on Xeon hosts.",
                          TimeValue(NanoSeconds(850)),
                          MakeTimeAccessor(&PcieLink::m_readLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxReadTags",
                          "Read requests that may be outstanding at once (PCIe tags). Default "
                          "256, Corundum's PCIE_TAG_COUNT with extended tags; 32 without the "
                          "Extended Tag Field (PCIe Base Spec 5.0, 2.2.6.2).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&PcieLink::m_maxReadTags),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReadIssueInterval",
                          "Time the device's DMA engine takes to start a DMA read, for each "
                          "EngineChunkBytes of it or part: the next read starts no sooner (the "
                          "device's limit, not PCIe's); 0 = none, the default. pcie-bench's "
                          "NFP-6000 starts about 67 million 16-byte reads a second "
                          "(BW_DMA_RD, github.com/pcie-bench/data).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PcieLink::m_readIssueInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("WriteIssueInterval",
                          "Time the device's DMA engine takes to start a DMA write, for each "
                          "EngineChunkBytes of it or part; 0 = none, the default. pcie-bench's "
                          "NFP-6000 starts about 47.5 million 16-64 byte writes a second "
                          "(BW_DMA_WR).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PcieLink::m_writeIssueInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("EngineChunkBytes",
                          "The unit of ReadIssueInterval and WriteIssueInterval, bytes (at "
                          "least 1): a DMA of B bytes holds the engine ceil(B / "
                          "EngineChunkBytes) intervals. Default 128: pcie-bench's NFP-6000 "
                          "takes one interval per 128 bytes (its transfers a second step down "
                          "at 129, 257, 385, ... bytes, not at each TLP).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&PcieLink::m_engineChunkBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReadDataPathRate",
                          "Rate at which the device takes in one DMA read's data, which sets "
                          "how one read's latency grows with its size; reads in flight "
                          "overlap, so it does not cap the link's throughput. A read "
                          "completes no sooner than its issue + its request's serialization + "
                          "ReadLatency + bytes / ReadDataPathRate. 0 = no limit, the default. "
                          "pcie-bench's NFP-6000: LAT_DMA_RD grows about 590 ns from 64 to 2048 "
                          "bytes on every host measured, about 27.4 Gb/s.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&PcieLink::m_readDataPathRate),
                          MakeDataRateChecker())
            .AddAttribute("DataLinkOverhead",
                          "Fraction of each direction's rate taken by data-link traffic "
                          "(ACK/NAK and flow-control DLLPs) and SKP ordered sets, in [0, 0.5]; "
                          "every serialization time is divided by 1 - DataLinkOverhead. "
                          "Default 0. pcie-bench's model charges about 8 % for Gen3 x8 with "
                          "256-byte TLPs (its bw_calc.dat: 53.69 Gb/s of reads at 2 KiB "
                          "against 58.45 Gb/s for the TLPs alone).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&PcieLink::m_dataLinkOverhead),
                          MakeDoubleChecker<double>(0.0, 0.5))
            .AddTraceSource("DmaReadComplete",
                            "A DMA read completed: payload bytes and latency from the call.",
                            MakeTraceSourceAccessor(&PcieLink::m_readTrace),
                            "ns3::PcieLink::DmaTracedCallback")
            .AddTraceSource("DmaWriteComplete",
                            "A DMA write's last byte left the NIC: payload bytes and latency "
                            "from the call.",
                            MakeTraceSourceAccessor(&PcieLink::m_writeTrace),
                            "ns3::PcieLink::DmaTracedCallback")
            .AddTraceSource("ReadTagsInUse",
                            "Read tags held (outstanding read requests).",
                            MakeTraceSourceAccessor(&PcieLink::m_tagsInUse),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

PcieLink::PcieLink()
    : m_generation(3),
      m_lanes(16),
      m_mps(256),
      m_mrrs(512),
      m_completionBytes(0),
      m_tlpHeaderBytes(16),
      m_readLatency(NanoSeconds(850)),
      m_maxReadTags(256),
      m_tagsInUse(0),
      m_readIssueInterval(0),
      m_writeIssueInterval(0),
      m_engineChunkBytes(128),
      m_readDataPathRate(0),
      m_dataLinkOverhead(0.0)
{
    NS_LOG_FUNCTION(this);
}

PcieLink::~PcieLink()
{
    NS_LOG_FUNCTION(this);
}

void
PcieLink::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_readOps.clear();
    m_freeOps.clear();
    m_tagQueue.clear();
    Object::DoDispose();
}

void
PcieLink::CheckConfig() const
{
    static const uint8_t widths[] = {1, 2, 4, 8, 12, 16, 32};
    NS_ABORT_MSG_IF(std::find(std::begin(widths), std::end(widths), m_lanes) == std::end(widths),
                    "PcieLink: attribute Lanes = " << unsigned(m_lanes)
                                                   << " is not 1, 2, 4, 8, 12, 16 or 32");
    NS_ABORT_MSG_UNLESS(IsPowerOfTwoIn(m_mps, 128, 4096),
                        "PcieLink: attribute MaxPayloadSize = "
                            << m_mps << " is not a power of two from 128 to 4096");
    NS_ABORT_MSG_UNLESS(IsPowerOfTwoIn(m_mrrs, 128, 4096),
                        "PcieLink: attribute MaxReadRequestSize = "
                            << m_mrrs << " is not a power of two from 128 to 4096");
    NS_ABORT_MSG_UNLESS(m_completionBytes == 0 || IsPowerOfTwoIn(m_completionBytes, 64, m_mps),
                        "PcieLink: attribute ReadCompletionBytes = "
                            << m_completionBytes
                            << " is neither 0 nor a power of two from 64 to MaxPayloadSize");
}

double
PcieLink::RateBps() const
{
    static const double gtPerLane[] = {2.5e9, 5e9, 8e9, 16e9, 32e9};
    double encoding = m_generation <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
    return gtPerLane[m_generation - 1] * m_lanes * encoding;
}

DataRate
PcieLink::GetLinkRate() const
{
    return DataRate(static_cast<uint64_t>(std::llround(RateBps())));
}

int64_t
PcieLink::SerializationPs(uint64_t wireBytes) const
{
    return std::llround(static_cast<double>(wireBytes) * 8e12 /
                        (RateBps() * (1.0 - m_dataLinkOverhead)));
}

Time
PcieLink::GetSerializationTime(uint64_t wireBytes) const
{
    return PicoSeconds(SerializationPs(wireBytes));
}

uint64_t
PcieLink::GetWriteWireBytes(uint64_t bytes) const
{
    return bytes + CeilDiv(bytes, m_mps) * (m_tlpHeaderBytes + TLP_FRAMING_BYTES);
}

DataRate
PcieLink::GetWriteThroughput(uint64_t bytes) const
{
    NS_ABORT_MSG_IF(bytes == 0, "PcieLink::GetWriteThroughput: zero bytes");
    const double linkPs = static_cast<double>(SerializationPs(GetWriteWireBytes(bytes)));
    const double enginePs = static_cast<double>(CeilDiv(bytes, m_engineChunkBytes)) *
                            static_cast<double>(m_writeIssueInterval.GetPicoSeconds());
    return DataRate(static_cast<uint64_t>(std::llround(bytes * 8e12 / std::max(linkPs, enginePs))));
}

uint64_t
PcieLink::GetReadRequestCount(uint64_t bytes) const
{
    return CeilDiv(bytes, m_mrrs);
}

uint32_t
PcieLink::GetReadRequestWireBytes() const
{
    return m_tlpHeaderBytes + TLP_FRAMING_BYTES;
}

uint64_t
PcieLink::GetCompletionWireBytes(uint64_t bytes) const
{
    uint32_t chunk = m_completionBytes == 0 ? m_mps : m_completionBytes;
    return bytes + CeilDiv(bytes, chunk) * (COMPLETION_HEADER_BYTES + TLP_FRAMING_BYTES);
}

void
PcieLink::DmaWrite(uint64_t bytes, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "PcieLink::DmaWrite: zero bytes");
    CheckConfig();
    uint64_t wire = GetWriteWireBytes(bytes);
    int64_t nowPs = Simulator::Now().GetPicoSeconds();
    int64_t issuePs = std::max(nowPs, m_writeEngineFreePs);
    m_writeEngineFreePs = issuePs + static_cast<int64_t>(CeilDiv(bytes, m_engineChunkBytes)) *
                                        m_writeIssueInterval.GetPicoSeconds();
    int64_t startPs = std::max(issuePs, m_upFreePs);
    m_upFreePs = startPs + SerializationPs(wire);
    m_upWireBytes += wire;
    Simulator::Schedule(NotBefore(m_upFreePs) - Simulator::Now(),
                        &PcieLink::WriteDone,
                        this,
                        bytes,
                        Simulator::Now(),
                        done);
}

void
PcieLink::WriteDone(uint64_t bytes, Time start, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes);
    ++m_writes;
    m_writeBytes += bytes;
    m_writeTrace(bytes, Simulator::Now() - start);
    if (!done.IsNull())
    {
        done();
    }
}

void
PcieLink::DmaRead(uint64_t bytes, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "PcieLink::DmaRead: zero bytes");
    CheckConfig();
    uint32_t op;
    if (m_freeOps.empty())
    {
        op = static_cast<uint32_t>(m_readOps.size());
        m_readOps.emplace_back();
    }
    else
    {
        op = m_freeOps.back();
        m_freeOps.pop_back();
    }
    ReadOp& r = m_readOps[op];
    r.bytes = bytes;
    r.pending = GetReadRequestCount(bytes);
    r.start = Simulator::Now();
    r.done = done;
    r.issuePs = std::max(r.start.GetPicoSeconds(), m_readEngineFreePs);
    m_readEngineFreePs = r.issuePs + static_cast<int64_t>(CeilDiv(bytes, m_engineChunkBytes)) *
                                         m_readIssueInterval.GetPicoSeconds();
    r.notBeforePs = 0;
    if (m_readDataPathRate.GetBitRate() > 0)
    {
        r.notBeforePs =
            r.issuePs + SerializationPs(GetReadRequestWireBytes()) +
            m_readLatency.GetPicoSeconds() +
            std::llround(static_cast<double>(bytes) * 8e12 / m_readDataPathRate.GetBitRate());
    }
    for (uint64_t offset = 0; offset < bytes; offset += m_mrrs)
    {
        ReadRequest req{op, static_cast<uint32_t>(std::min<uint64_t>(m_mrrs, bytes - offset))};
        if (m_tagQueue.empty() && m_tagsInUse < m_maxReadTags)
        {
            IssueRead(req);
        }
        else
        {
            ++m_tagWaits;
            m_tagQueue.push_back(req);
        }
    }
}

void
PcieLink::IssueRead(const ReadRequest& req)
{
    NS_LOG_FUNCTION(this << req.op << req.bytes);
    m_tagsInUse = m_tagsInUse + 1;
    ++m_readRequests;
    int64_t nowPs = Simulator::Now().GetPicoSeconds();
    uint64_t reqWire = GetReadRequestWireBytes();
    int64_t upStartPs = std::max({nowPs, m_upFreePs, m_readOps[req.op].issuePs});
    m_upFreePs = upStartPs + SerializationPs(reqWire);
    m_upWireBytes += reqWire;
    // Completions of successive requests arrive in the order the requests
    // were sent (constant round trip, FIFO upstream), so reserving the
    // downstream direction now serves them first come, first served.
    int64_t arrivePs = m_upFreePs + m_readLatency.GetPicoSeconds();
    uint64_t cplWire = GetCompletionWireBytes(req.bytes);
    int64_t downStartPs = std::max(arrivePs, m_downFreePs);
    m_downFreePs = downStartPs + SerializationPs(cplWire);
    m_downWireBytes += cplWire;
    Simulator::Schedule(NotBefore(m_downFreePs) - Simulator::Now(),
                        &PcieLink::ReadRequestDone,
                        this,
                        req.op);
}

void
PcieLink::ReadRequestDone(uint32_t op)
{
    NS_LOG_FUNCTION(this << op);
    m_tagsInUse = m_tagsInUse - 1;
    // Waiting requests take the freed tag before the caller hears of the
    // completion, so a read it starts from the callback queues behind them.
    while (!m_tagQueue.empty() && m_tagsInUse < m_maxReadTags)
    {
        ReadRequest next = m_tagQueue.front();
        m_tagQueue.pop_front();
        IssueRead(next);
    }
    ReadOp& r = m_readOps[op];
    if (--r.pending > 0)
    {
        return;
    }
    if (r.notBeforePs > Simulator::Now().GetPicoSeconds())
    {
        Simulator::Schedule(NotBefore(r.notBeforePs) - Simulator::Now(),
                            &PcieLink::ReadDone,
                            this,
                            op);
        return;
    }
    ReadDone(op);
}

void
PcieLink::ReadDone(uint32_t op)
{
    NS_LOG_FUNCTION(this << op);
    ReadOp& r = m_readOps[op];
    uint64_t bytes = r.bytes;
    Time latency = Simulator::Now() - r.start;
    Callback<void> done = r.done;
    r.done = Callback<void>();
    m_freeOps.push_back(op);
    ++m_reads;
    m_readBytes += bytes;
    m_readTrace(bytes, latency);
    if (!done.IsNull())
    {
        done();
    }
}

uint64_t
PcieLink::GetDmaReads() const
{
    return m_reads;
}

uint64_t
PcieLink::GetDmaWrites() const
{
    return m_writes;
}

uint64_t
PcieLink::GetReadBytes() const
{
    return m_readBytes;
}

uint64_t
PcieLink::GetWriteBytes() const
{
    return m_writeBytes;
}

uint64_t
PcieLink::GetReadRequests() const
{
    return m_readRequests;
}

uint64_t
PcieLink::GetTagWaits() const
{
    return m_tagWaits;
}

uint32_t
PcieLink::GetTagsInUse() const
{
    return m_tagsInUse;
}

uint64_t
PcieLink::GetUpstreamWireBytes() const
{
    return m_upWireBytes;
}

uint64_t
PcieLink::GetDownstreamWireBytes() const
{
    return m_downWireBytes;
}

} // namespace ns3
