/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-runner.h"

#include "ns3/qbb-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowRunner");
NS_OBJECT_ENSURE_REGISTERED(RdmaFlowRunner);

namespace
{

/// wrId bit marking a SEND flow's receive work request.
constexpr uint64_t RECV_WR = 1ULL << 63;
/// Virtual address of every host's region.
constexpr uint64_t REGION_VA = 0x100000;

/// \return the virtual address of a target in a host's regions
template <class Host>
uint64_t
TargetVa(const Host& h, const RdmaTargetPattern::Target& t)
{
    return REGION_VA + t.region * h.regionBytes + t.offset;
}

/// Largest message (IBA 9.4.1: 2^31 bytes).
constexpr uint64_t MAX_MESSAGE = 1ULL << 31;

} // namespace

TypeId
RdmaFlowRunner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowRunner")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaFlowRunner>()
            .AddAttribute("QpReuse",
                          "false: a new RC QP pair per flow, connected at its start and "
                          "destroyed after its completion (the HPCC simulator's one QP per "
                          "flow). true: flows with the same requester, responder and priority "
                          "share a pool of QpsPerPair QP pairs, round robin.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaFlowRunner::m_qpReuse),
                          MakeBooleanChecker())
            .AddAttribute("QpsPerPair",
                          "QP pairs in each pool when QpReuse is true (QPs per requester, "
                          "responder and priority).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaFlowRunner::m_qpsPerPair),
                          MakeUintegerChecker<uint32_t>(1, 1 << 20))
            .AddAttribute("MaxSendWr",
                          "Send queue depth of each QP, work requests (ibv_qp_cap.max_send_wr; "
                          "1024 is RdmaQueuePair::InitAttr's default). Flows beyond it wait "
                          "in the runner for a completion on that QP.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RdmaFlowRunner::m_maxSendWr),
                          MakeUintegerChecker<uint32_t>(1, 1 << 20))
            .AddAttribute("TargetPattern",
                          "Where in the responders' registered memory messages go (footprint, "
                          "regions, uniform or Zipf slots): the NICs' MTT working set.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaFlowRunner::m_target),
                          MakePointerChecker<RdmaTargetPattern>())
            .AddTraceSource("FlowComplete",
                            "A flow's requester completion arrived (any status).",
                            MakeTraceSourceAccessor(&RdmaFlowRunner::m_flowComplete),
                            "ns3::RdmaFlowRunner::FlowTracedCallback");
    return tid;
}

RdmaFlowRunner::RdmaFlowRunner()
    : m_qpReuse(false),
      m_qpsPerPair(1),
      m_maxSendWr(1024),
      m_target(CreateObject<RdmaTargetPattern>())
{
}

RdmaFlowRunner::~RdmaFlowRunner() = default;

void
RdmaFlowRunner::DoDispose()
{
    m_startEvent.Cancel();
    for (Host& h : m_hosts)
    {
        h.Close(); // the CQs outlive the runner on their NICs
    }
    m_slots.clear();
    m_hosts.clear();
    m_allDone = MakeNullCallback<void>();
    Object::DoDispose();
}

void
RdmaFlowRunner::SetHosts(const std::vector<Ptr<RdmaNic>>& nics)
{
    m_hosts.assign(nics.size(), Host());
    for (std::size_t h = 0; h < nics.size(); ++h)
    {
        m_hosts[h].SetNic(nics[h]);
    }
}

void
RdmaFlowRunner::SetHosts(const NodeContainer& nodes)
{
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<RdmaNic> nic = nodes.Get(i)->GetObject<RdmaNic>();
        if (!nic)
        {
            throw std::runtime_error("RdmaFlowRunner: host " + std::to_string(i) + " (node " +
                                     std::to_string(nodes.Get(i)->GetId()) + ") has no RdmaNic");
        }
        nics.push_back(nic);
    }
    SetHosts(nics);
}

void
RdmaFlowRunner::SetConnectionConfig(const RdmaConnectionConfig& config)
{
    m_config = config;
}

void
RdmaFlowRunner::SetFlows(std::vector<RdmaFlow> flows)
{
    auto isHost = [this](uint32_t h) { return h < m_hosts.size() && m_hosts[h].ids; };
    for (const RdmaFlow& f : flows)
    {
        std::string where = "flow " + std::to_string(f.id) + ": ";
        if (!isHost(f.src) || !isHost(f.dst))
        {
            throw std::runtime_error(where + "expected src and dst to be hosts (ids below " +
                                     std::to_string(m_hosts.size()) + " with an RdmaNic), got " +
                                     std::to_string(f.src) + " -> " + std::to_string(f.dst));
        }
        if (f.src == f.dst)
        {
            throw std::runtime_error(where + "expected src != dst, got " + std::to_string(f.src));
        }
        if (f.size == 0 || f.size > MAX_MESSAGE)
        {
            throw std::runtime_error(where +
                                     "expected a size of 1 to 2^31 bytes (IBA message "
                                     "limit), got " +
                                     std::to_string(f.size));
        }
        if (f.priority > 7)
        {
            throw std::runtime_error(where + "expected priority 0-7, got " +
                                     std::to_string(f.priority));
        }
        if (f.start.IsStrictlyNegative())
        {
            throw std::runtime_error(where + "expected a start time >= 0");
        }
    }
    m_flows = std::move(flows);
    m_results.assign(m_flows.size(), RdmaFlowResult());
    m_slotOf.assign(m_flows.size(), 0);
    m_order.resize(m_flows.size());
    std::iota(m_order.begin(), m_order.end(), 0);
    std::stable_sort(m_order.begin(), m_order.end(), [this](uint32_t a, uint32_t b) {
        return m_flows[a].start < m_flows[b].start;
    });
    for (const RdmaFlow& f : m_flows)
    {
        m_hosts[f.src].bytes = std::max(m_hosts[f.src].bytes, f.size);
        m_hosts[f.dst].bytes = std::max(m_hosts[f.dst].bytes, f.size);
    }
    uint64_t largest = 0;
    for (const Host& h : m_hosts)
    {
        largest = std::max(largest, h.bytes);
    }
    const std::string fit = m_target->Check(largest);
    if (!fit.empty())
    {
        throw std::runtime_error("attribute TargetPattern: " + fit);
    }
}

int64_t
RdmaFlowRunner::AssignStreams(int64_t stream)
{
    return m_target->AssignStreams(stream);
}

void
RdmaFlowRunner::SetFarHosts(const std::vector<Ptr<RdmaNicIds>>& far)
{
    NS_ABORT_MSG_IF(m_qpReuse, "RdmaFlowRunner: QpReuse must be false on a rank of a distributed run");
    NS_ABORT_MSG_IF(far.size() > m_hosts.size(), "RdmaFlowRunner::SetFarHosts: after SetHosts");
    for (std::size_t h = 0; h < far.size(); ++h)
    {
        if (far[h])
        {
            m_hosts[h].SetFar(far[h]);
        }
    }
}

bool
RdmaFlowRunner::IsLocal(uint32_t host) const
{
    return m_hosts[host].nic != nullptr;
}

uint32_t
RdmaFlowRunner::RequesterOf(uint32_t flow) const
{
    const RdmaFlow& f = m_flows[flow];
    return f.op == RdmaFlowOp::READ ? f.dst : f.src;
}

void
RdmaFlowRunner::Start()
{
    m_localFlows = 0;
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        m_localFlows += IsLocal(RequesterOf(i));
    }
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        if (m_hosts[h].bytes > 0)
        {
            PrepareHost(h);
        }
    }
    m_cursor = 0;
    if (!m_order.empty())
    {
        Time first = m_flows[m_order[0]].start;
        Time delay = first > Simulator::Now() ? first - Simulator::Now() : Time(0);
        m_startEvent = Simulator::Schedule(delay, &RdmaFlowRunner::StartDue, this);
    }
}

void
RdmaFlowRunner::PrepareHost(uint32_t id)
{
    Host& h = m_hosts[id];
    if (!h.rkeys.empty())
    {
        return;
    }
    h.regionBytes = m_target->GetRegionBytes(h.bytes);
    if (!h.nic)
    {
        // Another rank's host: the keys its NIC gives its regions there.
        for (uint32_t r = 0; r < m_target->GetRegions(); ++r)
        {
            h.rkeys.push_back(h.ids->TakeKey());
        }
        return;
    }
    h.Open(Callback<void, const RdmaWorkCompletion&>(
        [this, id](const RdmaWorkCompletion& wc) { OnCompletion(id, wc); }));
    for (uint32_t r = 0; r < m_target->GetRegions(); ++r)
    {
        Ptr<RdmaMemoryRegion> mr =
            h.nic->RegMr(h.pd,
                         REGION_VA + r * h.regionBytes,
                         h.regionBytes,
                         IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
        if (!mr)
        {
            throw std::runtime_error("host " + std::to_string(id) + ": ibv_reg_mr of region " +
                                     std::to_string(r) + " (" + std::to_string(h.regionBytes) +
                                     " bytes) failed: the NIC's MPT or MTT store is full");
        }
        h.mrs.push_back(mr);
        h.rkeys.push_back(mr->GetRkey());
    }
}

void
RdmaFlowRunner::StartDue()
{
    while (m_cursor < m_order.size() && m_flows[m_order[m_cursor]].start <= Simulator::Now())
    {
        // In the requester's context, as everything its NIC then does: the
        // context is whose events these are (RdmaEventScheduler's origin).
        const uint32_t i = m_order[m_cursor++];
        Simulator::ScheduleWithContext(m_hosts[RequesterOf(i)].ids->GetNode(),
                                       Time(0),
                                       &RdmaFlowRunner::StartFlow,
                                       this,
                                       i);
    }
    if (m_cursor < m_order.size())
    {
        m_startEvent = Simulator::Schedule(m_flows[m_order[m_cursor]].start - Simulator::Now(),
                                           &RdmaFlowRunner::StartDue,
                                           this);
    }
}

uint32_t
RdmaFlowRunner::PickSlot(uint32_t requester, uint32_t responder, uint8_t priority)
{
    if (!m_qpReuse)
    {
        uint32_t s;
        if (!m_freeSlots.empty())
        {
            s = m_freeSlots.back();
            m_freeSlots.pop_back();
        }
        else
        {
            s = static_cast<uint32_t>(m_slots.size());
            m_slots.emplace_back();
        }
        m_slots[s].requester = requester;
        m_slots[s].responder = responder;
        m_slots[s].priority = priority;
        return s;
    }
    auto key = std::make_tuple(requester, responder, priority);
    auto it = m_pools.find(key);
    if (it == m_pools.end())
    {
        auto first = static_cast<uint32_t>(m_slots.size());
        for (uint32_t k = 0; k < m_qpsPerPair; ++k)
        {
            m_slots.emplace_back();
            m_slots.back().requester = requester;
            m_slots.back().responder = responder;
            m_slots.back().priority = priority;
        }
        it = m_pools.emplace(key, std::make_pair(first, 0u)).first;
    }
    uint32_t s = it->second.first + it->second.second;
    it->second.second = (it->second.second + 1) % m_qpsPerPair;
    return s;
}

bool
RdmaFlowRunner::OpenSlot(uint32_t s)
{
    Slot& slot = m_slots[s];
    Host& a = m_hosts[slot.requester];
    Host& b = m_hosts[slot.responder];
    // On a rank of a distributed run a QP is made only where its host is;
    // the other's number is what its own rank gives it.
    const bool localA = IsLocal(slot.requester);
    const bool localB = IsLocal(slot.responder);
    std::tie(slot.req, slot.resp) = RdmaHelper::CreateConnectedQps(a,
                                                                   a.QpInit(m_maxSendWr, m_maxSendWr),
                                                                   b,
                                                                   b.QpInit(m_maxSendWr, m_maxSendWr),
                                                                   m_config,
                                                                   slot.priority);
    if ((localA && !slot.req) || (localB && !slot.resp))
    {
        // ibv_create_qp's ENOMEM: a NIC's QP context memory is full.
        NS_LOG_WARN("no QP for " << slot.requester << " -> " << slot.responder
                                 << ": CreateQp returned null");
        return false;
    }
    slot.open = true;
    slot.reqQpn = slot.req ? slot.req->GetQpn() : 0;
    ++m_qpPairs;
    return true;
}

void
RdmaFlowRunner::CloseSlot(uint32_t s, uint32_t flow)
{
    Slot& slot = m_slots[s];
    if (slot.req && !IsLocal(slot.responder) && !m_farClose.IsNull())
    {
        m_farClose(slot.responder, flow);
    }
    if (slot.req)
    {
        m_hosts[slot.requester].nic->DestroyQp(slot.req);
    }
    if (slot.resp)
    {
        m_hosts[slot.responder].nic->DestroyQp(slot.resp);
    }
    slot.open = false;
    slot.req = nullptr;
    slot.resp = nullptr;
    m_freeSlots.push_back(s);
}

void
RdmaFlowRunner::StartFlow(uint32_t i)
{
    const RdmaFlow& f = m_flows[i];
    bool read = f.op == RdmaFlowOp::READ;
    uint32_t s = PickSlot(read ? f.dst : f.src, read ? f.src : f.dst, f.priority);
    if (!m_slots[s].open && !OpenSlot(s))
    {
        m_results[i].noQp = true;
        ++m_noQp;
        m_localDone += IsLocal(RequesterOf(i));
        if (!m_qpReuse)
        {
            m_freeSlots.push_back(s);
        }
        NS_LOG_INFO("flow " << f.id << " not started: no QP");
        CheckAllDone();
        return;
    }
    m_slotOf[i] = s;
    m_results[i].started = true;
    m_results[i].qpn = m_slots[s].reqQpn;
    NS_LOG_INFO("flow " << f.id << " " << RdmaFlowOpName(f.op) << " " << f.size << " B on QP "
                        << m_results[i].qpn);
    if (m_slots[s].outstanding < m_maxSendWr)
    {
        Post(i);
    }
    else
    {
        m_slots[s].backlog.push_back(i);
    }
}

void
RdmaFlowRunner::Post(uint32_t i)
{
    const RdmaFlow& f = m_flows[i];
    Slot& slot = m_slots[m_slotOf[i]];
    Host& req = m_hosts[slot.requester];
    Host& resp = m_hosts[slot.responder];
    auto length = static_cast<uint32_t>(f.size);
    ++slot.outstanding;
    const RdmaTargetPattern::Target target = m_target->Draw(f.size);
    if (f.op == RdmaFlowOp::SEND && IsLocal(slot.responder))
    {
        RdmaRecvWr recv;
        recv.wrId = RECV_WR | i;
        recv.sgList.push_back({TargetVa(resp, target), length, resp.mrs[target.region]->GetLkey()});
        int rc = slot.resp->PostRecv(recv);
        NS_ABORT_MSG_IF(rc != 0, "RdmaFlowRunner: PostRecv failed (errno " << rc << ")");
    }
    if (!IsLocal(slot.requester))
    {
        return; // another rank's
    }
    RdmaSendWr wr;
    wr.wrId = i;
    wr.opcode = f.op == RdmaFlowOp::WRITE
                    ? IBV_WR_RDMA_WRITE
                    : (f.op == RdmaFlowOp::READ ? IBV_WR_RDMA_READ : IBV_WR_SEND);
    wr.sgList.push_back({REGION_VA, length, req.mrs[0]->GetLkey()});
    wr.remoteAddr = TargetVa(resp, target);
    wr.rkey = resp.rkeys[target.region];
    int rc = slot.req->PostSend(wr);
    NS_ABORT_MSG_IF(rc != 0, "RdmaFlowRunner: PostSend failed (errno " << rc << ")");
}

void
RdmaFlowRunner::Drain()
{
    if (m_draining)
    {
        return; // the outer call picks up what this completion queued
    }
    m_draining = true;
    while (!m_toDrain.empty())
    {
        uint32_t s = m_toDrain.back();
        m_toDrain.pop_back();
        Slot& slot = m_slots[s];
        while (!slot.backlog.empty() && slot.outstanding < m_maxSendWr)
        {
            uint32_t next = slot.backlog.front();
            slot.backlog.pop_front();
            Post(next);
        }
    }
    m_draining = false;
}

void
RdmaFlowRunner::OnCompletion(uint32_t host, const RdmaWorkCompletion& wc)
{
    if (wc.wrId & RECV_WR)
    {
        return; // a SEND flow's receive side; the flow ends at the requester
    }
    auto i = static_cast<uint32_t>(wc.wrId);
    NS_ASSERT(i < m_flows.size() && !m_results[i].completed);
    RdmaFlowResult& r = m_results[i];
    r.completed = true;
    r.completion = wc.completed;
    r.status = wc.status;
    ++m_completed;
    ++m_localDone;
    m_failed += (wc.status != IBV_WC_SUCCESS);
    NS_LOG_INFO("flow " << m_flows[i].id << " done on host " << host << ": "
                        << RdmaWcStatusName(wc.status) << ", FCT "
                        << (wc.completed - m_flows[i].start).As(Time::NS));
    uint32_t s = m_slotOf[i];
    --m_slots[s].outstanding;
    m_flowComplete(m_flows[i], r);
    if (!m_qpReuse)
    {
        // Not from inside the QP's own completion path.
        Simulator::ScheduleNow(&RdmaFlowRunner::CloseSlot, this, s, i);
    }
    else if (!m_slots[s].backlog.empty())
    {
        m_toDrain.push_back(s);
        Drain();
    }
    CheckAllDone();
}

void
RdmaFlowRunner::SetFarCloseCallback(Callback<void, uint32_t, uint32_t> cb)
{
    m_farClose = cb;
}

void
RdmaFlowRunner::CloseResponder(uint32_t flow)
{
    NS_ABORT_MSG_IF(flow >= m_flows.size() || !m_results[flow].started,
                    "RdmaFlowRunner::CloseResponder: flow " << flow << " has no QP pair here");
    const uint32_t s = m_slotOf[flow];
    const Slot& slot = m_slots[s];
    NS_ABORT_MSG_UNLESS(slot.open && slot.resp && !slot.req,
                        "RdmaFlowRunner::CloseResponder: flow "
                            << m_flows[flow].id << "'s responder QP is not open here alone");
    NS_LOG_INFO("flow " << m_flows[flow].id << ": responder QP " << slot.resp->GetQpn()
                        << " closed after its requester's completion on another rank");
    CloseSlot(s, flow);
}

void
RdmaFlowRunner::CheckAllDone()
{
    if (m_localDone == m_localFlows && !m_allDone.IsNull())
    {
        m_allDone();
    }
}

uint32_t
RdmaFlowRunner::GetNoQpCount() const
{
    return m_noQp;
}

const std::vector<RdmaFlow>&
RdmaFlowRunner::GetFlows() const
{
    return m_flows;
}

const std::vector<RdmaFlowResult>&
RdmaFlowRunner::GetResults() const
{
    return m_results;
}

uint32_t
RdmaFlowRunner::GetCompletedCount() const
{
    return m_completed;
}

uint32_t
RdmaFlowRunner::GetFailedCount() const
{
    return m_failed;
}

uint32_t
RdmaFlowRunner::GetQpPairsCreated() const
{
    return m_qpPairs;
}

void
RdmaFlowRunner::SetAllDoneCallback(Callback<void> cb)
{
    m_allDone = cb;
}

} // namespace ns3
