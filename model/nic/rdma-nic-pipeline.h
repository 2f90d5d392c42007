/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_PIPELINE_H
#define RDMA_NIC_PIPELINE_H

#include "rdma-nic-tables.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/roce-frame.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Packet;
class PcieLink;

/**
 * \ingroup rdma
 * \brief The clocked packet pipeline of an FPGA RoCEv2 NIC (Corundum style):
 * what a packet costs between the transport deciding to send it and its
 * frame reaching the port (TX), and between the port and the transport
 * acting on it (RX). It sees only packets and the lookups and DMA they need;
 * it never reads transport state.
 *
 * Stages. Each stage has a cost in cycles of the NIC clock (ClockFrequency)
 * spent on one of the direction's engines (TxEngines / RxEngines: a packet
 * holds an engine only while it computes, not while it waits), followed by
 * what the stage waits for:
 *
 * | TX stage | cycles | then waits for |
 * |---|---|---|
 * | doorbell + WQE fetch (first packet of a request) | DoorbellCycles + WqeFetchCycles | DMA read
 * of WqeBytes | | QPC lookup | QpcCycles | the QPC cache (QPN) | | per local span: MPT lookup |
 * MptCycles | the MPT cache (key index) | | per page of the span: MTT lookup | MttCycles | the MTT
 * cache | | payload DMA read (if payload) | DmaCycles | DMA read of the payload | | header build |
 * HeaderCycles | the TX datapath: ceil(frame / DatapathBytes) cycles |
 *
 * | RX stage | cycles | then waits for |
 * |---|---|---|
 * | datapath in | - | the RX datapath: ceil(frame / DatapathBytes) cycles |
 * | parse | ParseCycles | - |
 * | QPC lookup | QpcCycles | the QPC cache (DestQP) |
 * | RETH/AtomicETH: MPT / R_Key check | MptCycles | the MPT cache (R_Key index) |
 * | WRITE/atomic: per page MTT lookup | MttCycles | the MTT cache |
 * | SEND first/only: receive WQE fetch | WqeFetchCycles | DMA read of WqeBytes |
 * | SEND, READ response: per span MPT (first packet), per page MTT | MptCycles,
 * MttCycles | the MPT and MTT caches |
 * | payload DMA write (if payload) | DmaCycles | posted DMA write of the payload |
 * | ACK/CQE generation | CompletionCycles | - |
 *
 * The address of a WRITE's middle and last packets comes from the RETH of
 * its first packet and the PSN distance to it (IBA 9.7.4.1.5: each packet
 * but the last carries exactly one PMTU), kept per QP as the NIC keeps it
 * in the QP context. Every completion queue entry is a posted DMA write of
 * CqeBytes (WriteCqe). All DMA goes over the one PcieLink, which the tables'
 * HostMemory misses share.
 *
 * Concurrency. At most TxContexts (RxContexts) packets are in a direction at
 * once (Corundum's TX_DESC_TABLE_SIZE / RX_DESC_TABLE_SIZE descriptor
 * tables); a TX context is held until the frame has gone to the port, an RX
 * context until the transport has the packet. RX frames beyond RxContexts
 * wait in an unbounded FIFO (counted: a real NIC would pause the link).
 * Packets leave each direction in the order they entered (in-order
 * retirement), which keeps every QP's PSN order.
 *
 * Rate ceiling. With no misses, TX packets of one page and one span cost
 * C = DoorbellCycles + WqeFetchCycles + QpcCycles + MptCycles + MttCycles +
 * DmaCycles + HeaderCycles engine cycles each (a 64-byte WRITE), so the
 * small-message rate is at most
 *   min(TxEngines x f / C, f / ceil(frame / DatapathBytes),
 *       TxContexts / L),
 * f the clock and L a packet's time in the pipeline (its cycles, the WQE and
 * payload DMA read latencies and the datapath).
 *
 * Cycle defaults are illustrative (no published per-stage figures exist for
 * Corundum's RoCEv2 roadmap): sweep them. Clock, datapath width and the
 * context tables are Corundum's.
 */
class RdmaNicPipeline : public Object
{
  public:
    /// One contiguous local memory span a TX packet reads.
    struct MemorySpan
    {
        uint32_t key;    //!< L_Key of the region
        uint64_t va;     //!< first virtual address
        uint32_t length; //!< bytes
    };

    /// Counters of the pipeline.
    struct Stats
    {
        uint64_t txPackets{0};    //!< TX packets retired
        uint64_t rxPackets{0};    //!< RX packets retired
        uint64_t wqeFetches{0};   //!< send and receive WQE DMA reads
        uint64_t cqeWrites{0};    //!< CQE DMA writes
        uint64_t rxWaits{0};      //!< RX packets that waited for a context
        uint64_t rxBacklogMax{0}; //!< most RX packets waiting at once
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaNicPipeline();
    ~RdmaNicPipeline() override;

    /**
     * \brief Where retired packets go (set by RdmaNic).
     * \param tx called with each TX frame, in submission order
     * \param rx called with each RX packet, in submission order
     */
    void SetRetireCallbacks(Callback<void, Ptr<RdmaFrame>> tx, Callback<void, const RoceFrame&> rx);

    /// \return whether a TX context is free
    bool CanAcceptTx() const;
    /**
     * \brief Start a TX packet (a TX context must be free).
     * \param qpn the local QP sending it
     * \param f the packet's fields (opcode, payload)
     * \param frame the Ethernet frame built from it; its payload was
     *        read from the spans NoteRead() was given since the last SubmitTx
     */
    void SubmitTx(uint32_t qpn, const RoceFrame& f, Ptr<RdmaFrame> frame);
    /**
     * \brief The QP building the next TX packet read local memory for it
     * (the QP's memory-read callback, set by RdmaNic).
     * \param key L_Key of the region
     * \param va first virtual address
     * \param length bytes
     */
    void NoteRead(uint32_t key, uint64_t va, uint32_t length);
    /// \brief A retired TX frame has been handed to the port: its context is free.
    void TxLeft();
    /**
     * \brief Start an RX packet (parsed, ICRC checked, for a known QP).
     * \param f the packet
     * \param frameBytes its frame's size
     * \param places where a SEND or READ-response payload lands (the receive
     *        WQE's or the READ's scatter list, as RdmaNic finds it): an MPT
     *        lookup per span on a message's first packet and an MTT lookup
     *        per page; WRITE and atomic targets come from their RETH /
     *        AtomicETH instead
     */
    void SubmitRx(const RoceFrame& f,
                  uint32_t frameBytes,
                  const std::vector<MemorySpan>& places = {});
    /// \brief A completion was generated: write its CQE to host memory.
    void WriteCqe();

    /// \return the PCIe link every DMA of this NIC uses
    Ptr<PcieLink> GetPcieLink() const;
    /// \return the QPC/MPT/MTT tables
    Ptr<RdmaNicTables> GetTables() const;
    /// \return one clock cycle
    Time GetClockPeriod() const;
    /// \return the counters
    const Stats& GetStats() const;
    /// \return TX packets in the pipeline (contexts held)
    uint32_t GetTxInFlight() const;

    /**
     * \brief Fixed random streams (the tables' Random replacement).
     * \param stream first stream index
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature of a retired packet.
     * \param [in] qpn the QP (source QP on TX, DestQP on RX)
     * \param [in] latency from submission to retirement
     */
    typedef void (*PacketTracedCallback)(uint32_t qpn, Time latency);

  protected:
    void DoDispose() override;

  private:
    /// What a stage waits for after its cycles.
    enum Action : uint8_t
    {
        NOTHING,   //!< no wait
        LOOKUP,    //!< a table lookup: table, key
        DMA_READ,  //!< a DMA read: bytes
        DMA_WRITE, //!< a posted DMA write: bytes
        DATAPATH,  //!< streaming through the datapath: bytes
    };

    /// One stage of a job.
    struct Stage
    {
        uint32_t cycles; //!< engine cycles
        Action action;   //!< then
        uint8_t table;   //!< LOOKUP: RdmaNicTables::Table
        uint64_t arg;    //!< LOOKUP: key; DMA/DATAPATH: bytes
    };

    /// One packet in a direction.
    struct Job
    {
        std::vector<Stage> stages; //!< to run, in order
        std::size_t next{0};       //!< next stage
        bool computed{false};      //!< the next stage's cycles are done
        bool done{false};          //!< every stage done
        uint32_t qpn{0};           //!< for stall accounting and traces
        Time start;                //!< submission time
        Ptr<RdmaFrame> frame;      //!< TX: the frame
        RoceFrame packet;          //!< RX: the packet
    };

    /// State of one direction.
    struct Direction
    {
        std::vector<Job> jobs;            //!< slots
        std::vector<uint32_t> freeJobs;   //!< free slots
        std::deque<uint32_t> order;       //!< jobs in submission order
        std::deque<uint32_t> backlog;     //!< RX jobs waiting for a context
        std::deque<uint32_t> engineQueue; //!< jobs waiting for an engine
        uint32_t enginesBusy{0};          //!< engines computing
        uint32_t inFlight{0};             //!< contexts held
        int64_t datapathFreePs{0};        //!< when the datapath is free
        bool tx{true};                    //!< TX or RX
    };

    /// RX write state of one QP (from the first packet's RETH).
    struct WriteState
    {
        uint32_t rkey{0}; //!< R_Key
        uint64_t va{0};   //!< VA of the first packet
        uint32_t psn{0};  //!< PSN of the first packet
        uint32_t pmtu{0}; //!< payload of the first packet
    };

    /// \brief Give the tables the clock and link (first use).
    void Setup();
    /// \return a free job slot of d, reset
    uint32_t NewJob(Direction& d);
    /// \brief Add the MPT and MTT lookups of one span to a job.
    void AddTranslation(Job& j, uint32_t key, uint64_t va, uint32_t length, bool mpt) const;
    /// \brief Append the RX address stages of a packet to a job.
    void AddRxStages(Job& j, const RoceFrame& f, const std::vector<MemorySpan>& places);
    /// \brief Run job's next stage.
    void Run(Direction* d, uint32_t job);
    /// \brief An engine finished job's cycles.
    void EngineDone(Direction* d, uint32_t job);
    /// \brief A lookup completed.
    void LookupDone(Direction* d, uint32_t job, bool hit);
    /// \brief Retire finished jobs at the head of d's order.
    void Retire(Direction* d);
    /// \brief Start a job (it holds a context).
    void Start(Direction* d, uint32_t job);

    uint64_t m_clockHz;          //!< NIC clock, Hz
    uint32_t m_datapathBytes;    //!< datapath width, bytes per cycle
    uint32_t m_txEngines;        //!< TX engines
    uint32_t m_rxEngines;        //!< RX engines
    uint32_t m_txContexts;       //!< TX packets in flight
    uint32_t m_rxContexts;       //!< RX packets in flight
    uint32_t m_doorbellCycles;   //!< TX doorbell
    uint32_t m_wqeFetchCycles;   //!< WQE fetch issue
    uint32_t m_qpcCycles;        //!< QPC stage
    uint32_t m_mptCycles;        //!< MPT stage
    uint32_t m_mttCycles;        //!< MTT stage, per page
    uint32_t m_dmaCycles;        //!< payload DMA issue
    uint32_t m_headerCycles;     //!< TX header build
    uint32_t m_parseCycles;      //!< RX parse
    uint32_t m_completionCycles; //!< RX ACK/CQE generation
    uint32_t m_wqeBytes;         //!< WQE size
    uint32_t m_cqeBytes;         //!< CQE size
    Ptr<PcieLink> m_pcie;        //!< the PCIe link
    Ptr<RdmaNicTables> m_tables; //!< QPC/MPT/MTT

    bool m_setup{false};                               //!< Setup done
    Direction m_tx;                                    //!< TX direction
    Direction m_rx;                                    //!< RX direction
    std::unordered_map<uint32_t, WriteState> m_writes; //!< RX WRITE state by QPN
    Callback<void, Ptr<RdmaFrame>> m_txRetire;            //!< TX output
    Callback<void, const RoceFrame&> m_rxRetire;       //!< RX output
    Stats m_stats;                                     //!< counters
    TracedCallback<uint32_t, Time> m_txDone;           //!< TxPacketDone
    TracedCallback<uint32_t, Time> m_rxDone;           //!< RxPacketDone
    std::vector<MemorySpan> m_txReads; //!< spans the next TX packet reads (NoteRead)
};

} // namespace ns3

#endif // RDMA_NIC_PIPELINE_H
