/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FLOW_RUNNER_H
#define RDMA_FLOW_RUNNER_H

#include "rdma-target-pattern.h"

#include "ns3/event-id.h"
#include "ns3/node-container.h"
#include "ns3/object.h"
#include "ns3/rdma-fifo.h"
#include "ns3/rdma-flow.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/traced-callback.h"

#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Runs a workload on RdmaNic hosts: at each flow's start time it
 * posts the flow's operation on an RC queue pair between the two hosts and
 * records the requester's work completion (FCT = completion - start,
 * status).
 *
 * The requester is the flow's source for WRITE and SEND and its
 * destination for READ (RdmaFlow). Each host gets one protection domain,
 * one memory region as long as its largest flow (both ends of every flow
 * use offset 0 of it; DataMode NICs then carry real bytes) and one
 * completion queue whose completions are delivered by callback (no overrun).
 * A SEND's receive work request is posted on the responder's QP just
 * before the SEND.
 *
 * QPs: without QpReuse, every flow gets its own QP pair, created and
 * connected (RdmaHelper::Connect) at its start and destroyed after its
 * completion, as the HPCC simulator makes one QP per flow. With QpReuse,
 * flows with the same requester, responder and priority share a pool of
 * QpsPerPair QP pairs, used round robin and created at the first flow that
 * needs them: the number of QPs is fixed by the workload's pairs, which is
 * how NIC QP-context caches are stressed. A QP holds at most MaxSendWr
 * outstanding work requests; later flows wait (in the runner) for one to
 * complete, so their FCT includes that wait.
 *
 * A QP's traffic class is the flow's priority
 * (RdmaHelper::CreateConnectedQps).
 *
 * Per flow the runner keeps the RdmaFlow, an RdmaFlowResult and a QP slot
 * index; one pending start event serves all flows.
 */
class RdmaFlowRunner : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaFlowRunner();
    ~RdmaFlowRunner() override;

    /**
     * \brief The hosts: host id h is nics[h]; a null entry is not a host
     * (e.g. a switch's node id in an HPCC topology) unless SetFarHosts
     * names it.
     * \param nics the NICs by host id
     */
    void SetHosts(const std::vector<Ptr<RdmaNic>>& nics);
    /**
     * \brief The hosts: host id h is nodes.Get(h), which must have an
     * RdmaNic aggregated (RdmaHelper::Install).
     * \param nodes the host nodes
     * \throw std::runtime_error naming the first node without an RdmaNic
     */
    void SetHosts(const NodeContainer& nodes);
    /**
     * \brief The attributes RdmaHelper::Connect gives every QP pair (path
     * MTU, timeout, retry counts, DSCP, ...).
     * \param config the connection settings
     */
    void SetConnectionConfig(const RdmaConnectionConfig& config);
    /**
     * \brief The workload (set after SetHosts, before Start).
     * \param flows the flows, any order; ids need not be dense
     * \throw std::runtime_error naming the flow id and field if a host is not
     *        one, src == dst, the size is outside 1..2^31 (the IBA message
     *        limit), the priority is over 7 or the start is negative, or the
     *        TargetPattern cannot hold the largest message
     */
    void SetFlows(std::vector<RdmaFlow> flows);
    /**
     * \brief Register every host's memory and schedule the flows (call once,
     * before or during Simulator::Run).
     * \throw std::runtime_error if a NIC refuses a region (ENOMEM: its MPT or
     *        MTT store is full), naming the host
     */
    void Start();
    /**
     * \brief Fix the random streams (the TargetPattern's).
     * \param stream first stream index
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the flows, in the order given to SetFlows
    const std::vector<RdmaFlow>& GetFlows() const;
    /// \return one result per flow, same order
    const std::vector<RdmaFlowResult>& GetResults() const;
    /// \return flows whose completion arrived (any status)
    uint32_t GetCompletedCount() const;
    /// \return flows completed with a status other than IBV_WC_SUCCESS
    uint32_t GetFailedCount() const;
    /// \return QP pairs created so far
    uint32_t GetQpPairsCreated() const;
    /// \return flows never posted because no QP could be created (RdmaFlowResult::noQp)
    uint32_t GetNoQpCount() const;
    /**
     * \brief Run one rank's share of a distributed simulation (after
     * SetHosts, before SetFlows). Every rank keeps the whole workload's
     * bookkeeping, so QP numbers (which pick ECMP paths through the UDP
     * source port) are those of a sequential run: at each flow's start a QP
     * is created on the NIC of each local end, and a far end's QP number is
     * taken from its ids, as its own rank's NIC gives it (RdmaNicIds); only
     * a local requester posts its send and only a local responder its
     * receive; completions arrive where the requester is, and the all-done
     * callback follows the local requesters' flows. Needs QpReuse false (a
     * backlog drains on completions only the requester's rank sees).
     * \param far per host id: null where this rank simulates the host (it
     *        has its NIC from SetHosts), else the ids of a host another rank
     *        simulates (it has no NIC here: its SetHosts entry is dropped)
     */
    void SetFarHosts(const std::vector<Ptr<RdmaNicIds>>& far);
    /**
     * \brief With SetFarHosts: how to close a pair's far responder. In a
     * sequential run the requester's completion closes both QPs of its
     * pair; on a rank, when it closes a pair whose responder another rank
     * simulates, the runner calls this so that rank's runner closes that
     * QP later (CloseResponder, e.g. through RdmaMpi::SendNotice). Without
     * it, such a responder's QP stays open to the end of the run.
     * \param cb called with the responder's host id and the flow's index
     */
    void SetFarCloseCallback(Callback<void, uint32_t, uint32_t> cb);
    /**
     * \brief Close the responder's QP of a flow whose requester another
     * rank simulates and has completed (its SetFarCloseCallback). Its
     * frames have all arrived (the requester completed on them), so
     * closing it later than the sequential run does changes nothing the
     * fabric sees.
     * \param flow the flow's index (in the order given to SetFlows)
     */
    void CloseResponder(uint32_t flow);
    /**
     * \brief Called once when every flow has completed or failed to start
     * (e.g. to stop the simulation); with SetFarHosts, every flow whose
     * requester is local.
     * \param cb the callback
     */
    void SetAllDoneCallback(Callback<void> cb);

    /// Signature of the FlowComplete trace: the flow and its result.
    typedef void (*FlowTracedCallback)(const RdmaFlow& flow, const RdmaFlowResult& result);

  protected:
    void DoDispose() override;

  private:
    /// A host's verbs resources.
    struct Host : RdmaHostVerbs
    {
        std::vector<Ptr<RdmaMemoryRegion>> mrs; //!< its regions (RdmaTargetPattern; with a NIC)
        std::vector<uint32_t> rkeys;            //!< their keys (a far host's from its ids)
        uint64_t bytes{0};                      //!< largest message it takes part in
        uint64_t regionBytes{0};                //!< length of each region
    };

    /// A QP pair and the flows waiting for it.
    struct Slot
    {
        uint32_t requester{0};        //!< requester host id
        uint32_t responder{0};        //!< responder host id
        uint8_t priority{0};          //!< priority of its packets
        bool open{false};             //!< its QP pair is made (OpenSlot)
        uint32_t reqQpn{0};           //!< the requester's QP number (0 on a rank without its host)
        Ptr<RdmaQueuePair> req;       //!< requester's QP (null until open; on a
                                      //!< rank of a distributed run, where its host is)
        Ptr<RdmaQueuePair> resp;      //!< responder's QP (the same)
        uint32_t outstanding{0};      //!< posted, not completed
        RdmaFifo<uint32_t> backlog; //!< flows waiting for the send queue
    };

    /// Schedule the start of every flow that is due, in its requester's
    /// context (StartFlow), and schedule the next call.
    void StartDue();
    /// Start one flow.
    void StartFlow(uint32_t flow);
    /// \return a slot for a flow (a new one or one of its pool)
    uint32_t PickSlot(uint32_t requester, uint32_t responder, uint8_t priority);
    /**
     * \brief Create and connect the slot's QPs.
     * \return false if a NIC could not create one (nothing is left open)
     */
    bool OpenSlot(uint32_t slot);
    /// Run the all-done callback if every flow has completed or failed to start.
    void CheckAllDone();
    /// \return whether this rank simulates a host \param host host id
    bool IsLocal(uint32_t host) const;
    /// \return the requester host of a flow (dst for a READ) \param flow its index
    uint32_t RequesterOf(uint32_t flow) const;
    /// Post a flow's work request(s) on its slot.
    void Post(uint32_t flow);
    /// Post waiting flows of the slots that freed room.
    void Drain();
    /**
     * \brief Destroy a per-flow slot's QPs here and recycle it; a far
     * responder's through the far-close callback.
     * \param slot the slot \param flow the flow it served
     */
    void CloseSlot(uint32_t slot, uint32_t flow);
    /// Set up a host's PD, MR and CQ.
    void PrepareHost(uint32_t id);
    /// A completion on a host's CQ.
    void OnCompletion(uint32_t host, const RdmaWorkCompletion& wc);

    bool m_qpReuse;                        //!< share QP pools
    uint32_t m_qpsPerPair;                 //!< pool size
    uint32_t m_maxSendWr;                  //!< send queue depth
    Ptr<RdmaTargetPattern> m_target;       //!< where messages go
    RdmaConnectionConfig m_config;         //!< Connect attributes
    std::vector<Host> m_hosts;             //!< by host id
    std::vector<RdmaFlow> m_flows;         //!< the workload
    std::vector<RdmaFlowResult> m_results; //!< per flow
    std::vector<uint32_t> m_slotOf;        //!< per flow
    std::vector<uint32_t> m_order;         //!< flows by start time
    std::size_t m_cursor{0};               //!< next flow of m_order
    EventId m_startEvent;                  //!< the pending start
    std::vector<Slot> m_slots;             //!< QP pairs
    std::vector<uint32_t> m_freeSlots;     //!< recycled per-flow slots
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, std::pair<uint32_t, uint32_t>>
        m_pools;                     //!< (req, resp, prio) -> (first slot, next)
    std::vector<uint32_t> m_toDrain; //!< slots with room and a backlog
    bool m_draining{false};          //!< inside Drain
    uint32_t m_completed{0};         //!< completions
    uint32_t m_failed{0};            //!< error completions
    uint32_t m_noQp{0};              //!< flows without a QP
    uint32_t m_localFlows{0};        //!< flows whose requester is local (Start)
    uint32_t m_localDone{0};         //!< of those, completed or without a QP
    uint32_t m_qpPairs{0};           //!< QP pairs created
    Callback<void> m_allDone;        //!< all flows completed
    Callback<void, uint32_t, uint32_t> m_farClose; //!< closes a far responder's QP
    TracedCallback<const RdmaFlow&, const RdmaFlowResult&> m_flowComplete; //!< trace
};

} // namespace ns3

#endif // RDMA_FLOW_RUNNER_H
