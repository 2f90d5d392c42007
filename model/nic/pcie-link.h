/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PCIE_LINK_H
#define PCIE_LINK_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The NIC's PCIe link to host memory, as a DMA engine sees it: DMA
 * reads (non-posted memory reads answered by completions with data) and
 * DMA writes (posted memory writes), each cut into TLPs, sharing the link's
 * bandwidth with every other user of the link.
 *
 * Rate. Generation g (1-5) and lanes n give the rate per direction after
 * line encoding: n x {2.5, 5, 8, 16, 32} GT/s x (8/10 for Gen1/2, 128/130
 * for Gen3-5) (PCIe Base Spec 5.0, 4.2 and 8.1). Gen3 x16 is
 * 16 x 8 x 128/130 = 126.03 Gb/s, the "~126 Gb/s" Corundum's and the Intel
 * and Xilinx PCIe IP guides quote per direction.
 *
 * TLP overhead. Each TLP carries framing bytes around its header:
 * TLP_FRAMING_BYTES = 8 (Gen1/2: 1 STP symbol + 2 sequence number + 4
 * LCRC + 1 END; Gen3+: a 4-byte STP token holding the sequence number + 4
 * LCRC), the header is TlpHeaderBytes (16, a 4-DW memory request header
 * with a 64-bit address) for memory reads and writes, and
 * COMPLETION_HEADER_BYTES = 12 (3 DW) for completions; no ECRC. These are
 * the sizes pcie-bench's model uses (Neugebauer et al., "Understanding PCIe
 * performance for end host networking", SIGCOMM 2018; github.com/pcie-bench/
 * pcie-model: 24 bytes per 64-bit MWr/MRd, 20 per CplD).
 *
 * - A DMA write of B bytes is ceil(B / MPS) posted TLPs, B + ceil(B / MPS) x
 *   (TlpHeaderBytes + 8) bytes on the upstream (NIC to host) direction. It
 *   completes, from the NIC's point of view, when its last byte has left
 *   the NIC: posted writes get no answer.
 * - A DMA read of B bytes is ceil(B / MRRS) read requests of TlpHeaderBytes +
 *   8 bytes upstream; each holds one of MaxReadTags tags from when it is
 *   sent until its last completion arrives. The host answers each request
 *   ReadLatency after the request's last byte left the NIC, with
 *   completions of at most ReadCompletionBytes payload (0 = MPS) and 12 + 8
 *   bytes of overhead each, on the downstream (host to NIC) direction. A
 *   read completes when the completions of all its requests have arrived.
 *   Requests that find no free tag wait, in order, for one.
 *
 * Directions. PCIe is dual simplex: each direction has the full rate. DMA
 * writes and read requests share the upstream direction; read completions
 * use the downstream direction. So every client of the link (payload DMA,
 * WQE fetch, CQE writes, cache-miss fetches) shares these two resources:
 * reads steal bandwidth from reads, writes and read requests from each
 * other. Each direction serves transactions first come, first served, one
 * whole transaction (all its TLPs back to back) at a time.
 *
 * The device's DMA engine. Two limits belong to the device, not to PCIe,
 * and are off (0) by default: ReadIssueInterval and WriteIssueInterval, the
 * time the engine takes to start a read (write) for each EngineChunkBytes
 * of it, which caps small transfers' rate below the link's; and
 * ReadDataPathRate,
 * the rate at which the device takes in one read's data, which sets how a
 * single read's latency grows with its size. Reads in flight overlap, so it
 * bounds one read's latency, not the link's throughput: a read completes at
 * the later of its last completion's arrival and its issue + its request's
 * serialization + ReadLatency + bytes / ReadDataPathRate. pcie-bench's
 * published data (github.com/pcie-bench/data) show both on the NFP-6000:
 * BW_DMA_RD and BW_DMA_WR reach at most about 67 and 47.5 million 16-byte
 * transfers a second, their rates step down every 128 bytes, and LAT_DMA_RD grows by about 590 ns
 * from 64 to 2048 bytes on every host measured (the host moves only the fixed part).
 *
 * Data-link overhead. ACK/NAK and flow-control DLLPs and SKP ordered sets
 * take a fraction DataLinkOverhead of each direction (0 by default); every
 * serialization time is divided by 1 - DataLinkOverhead.
 *
 * Not modelled: flow-control credit
 * stalls, the 4 KiB address-boundary rule (transfers are taken as aligned),
 * TLP interleaving between transactions, replays, IOMMU/IOTLB misses, and
 * host memory contention (folded into ReadLatency).
 */
class PcieLink : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PcieLink();
    ~PcieLink() override;

    /// Framing bytes around each TLP (physical-layer start/end and
    /// data-link sequence number and LCRC; PCIe Base Spec 5.0, 3.6 and 4.2).
    static constexpr uint32_t TLP_FRAMING_BYTES = 8;
    /// Header bytes of a completion with data (3 DW; PCIe Base Spec 5.0,
    /// 2.2.9).
    static constexpr uint32_t COMPLETION_HEADER_BYTES = 12;

    /**
     * \brief Read bytes from host memory (non-posted: requests go up,
     * completions with data come back).
     * \param bytes bytes to read, at least 1
     * \param done called when the last completion byte has arrived (may be
     * null)
     */
    void DmaRead(uint64_t bytes, Callback<void> done);
    /**
     * \brief Write bytes to host memory (posted).
     * \param bytes bytes to write, at least 1
     * \param done called when the last TLP's last byte has left the NIC
     * (may be null)
     */
    void DmaWrite(uint64_t bytes, Callback<void> done);

    /// \return the rate of one direction after line encoding (8b/10b or
    /// 128b/130b), before TLP overhead
    DataRate GetLinkRate() const;
    /**
     * \param bytes payload bytes of a DMA write
     * \return bytes it puts on the upstream direction, TLP overhead included
     */
    uint64_t GetWriteWireBytes(uint64_t bytes) const;
    /**
     * \param bytes payload bytes of a DMA read
     * \return the number of read requests (tags) it needs, ceil(bytes / MRRS)
     */
    uint64_t GetReadRequestCount(uint64_t bytes) const;
    /**
     * \param bytes payload bytes of one read request (at most MRRS)
     * \return bytes its completions put on the downstream direction
     */
    uint64_t GetCompletionWireBytes(uint64_t bytes) const;
    /// \return bytes of one read request TLP on the wire
    uint32_t GetReadRequestWireBytes() const;
    /**
     * \param wireBytes bytes on one direction of the link
     * \return their serialization time at GetLinkRate() x (1 -
     * DataLinkOverhead)
     */
    Time GetSerializationTime(uint64_t wireBytes) const;

    /**
     * \brief The payload rate of DMA writes of one size issued back to back:
     * the link's rate less TLP and data-link overhead, or the DMA engine's
     * WriteIssueInterval per EngineChunkBytes, whichever is slower. A NIC
     * whose writes are slower than its port cannot place what arrives at
     * line rate.
     * \param bytes payload bytes of each write, at least 1
     * \return the payload rate
     */
    DataRate GetWriteThroughput(uint64_t bytes) const;

    /// \return DMA reads completed
    uint64_t GetDmaReads() const;
    /// \return DMA writes completed
    uint64_t GetDmaWrites() const;
    /// \return payload bytes of the DMA reads completed
    uint64_t GetReadBytes() const;
    /// \return payload bytes of the DMA writes completed
    uint64_t GetWriteBytes() const;
    /// \return read requests sent (each held a tag)
    uint64_t GetReadRequests() const;
    /// \return read requests that had to wait for a free tag
    uint64_t GetTagWaits() const;
    /// \return read tags held now
    uint32_t GetTagsInUse() const;
    /// \return bytes (overhead included) reserved so far on the upstream
    /// direction
    uint64_t GetUpstreamWireBytes() const;
    /// \return bytes (overhead included) reserved so far on the downstream
    /// direction
    uint64_t GetDownstreamWireBytes() const;

    /**
     * TracedCallback signature of a completed DMA transaction.
     * \param [in] bytes payload bytes
     * \param [in] latency from the DmaRead/DmaWrite call to completion
     */
    typedef void (*DmaTracedCallback)(uint64_t bytes, Time latency);

  protected:
    void DoDispose() override;

  private:
    /// One DMA read in progress.
    struct ReadOp
    {
        uint64_t bytes{0};      //!< payload bytes
        uint64_t pending{0};    //!< requests whose completions have not all arrived
        Time start;             //!< when DmaRead was called
        int64_t issuePs{0};     //!< when the engine starts it, ps
        int64_t notBeforePs{0}; //!< its data path's bound on completion, ps
        Callback<void> done;    //!< to call at the end
    };

    /// One read request waiting for a tag.
    struct ReadRequest
    {
        uint32_t op;    //!< index into m_readOps
        uint32_t bytes; //!< payload bytes, at most MRRS
    };

    /// Abort with the attribute's name unless the configuration is valid.
    void CheckConfig() const;
    /// \return the rate of one direction after encoding, bit/s
    double RateBps() const;
    /**
     * \param wireBytes bytes on one direction
     * \return serialization time, ps
     */
    int64_t SerializationPs(uint64_t wireBytes) const;
    /**
     * \brief Send one read request now (a tag is free).
     * \param req the request
     */
    void IssueRead(const ReadRequest& req);
    /**
     * \brief The last completion of one read request arrived.
     * \param op index into m_readOps
     */
    void ReadRequestDone(uint32_t op);
    /**
     * \brief Every completion of a read arrived and its data path is done.
     * \param op index into m_readOps
     */
    void ReadDone(uint32_t op);
    /**
     * \brief A DMA write's last byte left.
     * \param bytes payload bytes
     * \param start when DmaWrite was called
     * \param done the caller's callback
     */
    void WriteDone(uint64_t bytes, Time start, Callback<void> done);

    uint8_t m_generation;            //!< PCIe generation, 1-5
    uint8_t m_lanes;                 //!< link width
    uint32_t m_mps;                  //!< max payload size, bytes
    uint32_t m_mrrs;                 //!< max read request size, bytes
    uint32_t m_completionBytes;      //!< completion payload size, bytes (0 = MPS)
    uint32_t m_tlpHeaderBytes;       //!< memory request header, bytes
    Time m_readLatency;              //!< request out to first completion in
    uint32_t m_maxReadTags;          //!< outstanding read requests

    int64_t m_upFreePs{0};           //!< when the upstream direction is free, ps
    int64_t m_downFreePs{0};         //!< when the downstream direction is free, ps
    std::vector<ReadOp> m_readOps;   //!< reads in progress (slots)
    std::vector<uint32_t> m_freeOps; //!< free slots of m_readOps
    std::deque<ReadRequest> m_tagQueue; //!< requests waiting for a tag
    TracedValue<uint32_t> m_tagsInUse;  //!< read tags held
    Time m_readIssueInterval;           //!< least time between two reads' starts
    Time m_writeIssueInterval;          //!< least time between two writes' starts
    uint32_t m_engineChunkBytes;        //!< the unit of the issue intervals, bytes
    DataRate m_readDataPathRate;        //!< one read's data into the device (0: no limit)
    double m_dataLinkOverhead;          //!< fraction of each direction DLLPs take
    int64_t m_readEngineFreePs{0};      //!< when the engine may start the next read, ps
    int64_t m_writeEngineFreePs{0};     //!< when the engine may start the next write, ps

    uint64_t m_reads{0};          //!< DMA reads completed
    uint64_t m_writes{0};         //!< DMA writes completed
    uint64_t m_readBytes{0};      //!< payload bytes read
    uint64_t m_writeBytes{0};     //!< payload bytes written
    uint64_t m_readRequests{0};   //!< read requests sent
    uint64_t m_tagWaits{0};       //!< read requests that waited for a tag
    uint64_t m_upWireBytes{0};    //!< upstream bytes reserved
    uint64_t m_downWireBytes{0};  //!< downstream bytes reserved

    TracedCallback<uint64_t, Time> m_readTrace;  //!< DmaReadComplete
    TracedCallback<uint64_t, Time> m_writeTrace; //!< DmaWriteComplete
};

} // namespace ns3

#endif // PCIE_LINK_H
