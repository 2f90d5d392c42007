/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-collective-runner.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-event-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCollectiveRunner");
NS_OBJECT_ENSURE_REGISTERED(RdmaCollectiveRunner);

namespace
{

/// wrId bit of a receive work request.
constexpr uint64_t RECV_WR = 1ULL << 63;
/// Virtual address of every host's region.
constexpr uint64_t REGION_VA = 0x100000;
/// Bits of the immediate that hold the receive index.
constexpr uint32_t RECV_BITS = 20;
/// Collective numbers the immediate tells apart (its other 12 bits).
constexpr uint32_t SEQ_MODULO = 1u << (32 - RECV_BITS);

/// \return the key of a QP \param src sender rank \param dst receiver rank \param channel it
uint64_t
QpKey(uint32_t src, uint32_t dst, uint32_t channel)
{
    return (uint64_t(src) << 40) | (uint64_t(dst) << 16) | channel;
}

/**
 * \brief Check each collective item: one rank per host, fewer receives per
 * rank than the immediate data numbers.
 * \param job the job \param where "job J: "
 * \param collectiveItems receives the indices of the items that are collectives
 * \return the bytes one iteration writes \throws std::invalid_argument
 */
uint64_t
CheckCollectiveItems(const RdmaJob& job,
                     const std::string& where,
                     std::vector<uint32_t>& collectiveItems)
{
    const auto n = static_cast<uint32_t>(job.hosts.size());
    uint64_t bytesPerIteration = 0;
    for (uint32_t i = 0; i < job.items.size(); ++i)
    {
        const auto& c = job.items[i].collective;
        if (!c)
        {
            continue;
        }
        if (c->GetRanks() != n)
        {
            throw std::invalid_argument(where + "item " + std::to_string(i) + " is for " +
                                        std::to_string(c->GetRanks()) + " ranks, the job has " +
                                        std::to_string(n));
        }
        if (c->GetMostRecvsPerRank() >= (1u << RECV_BITS))
        {
            throw std::invalid_argument(
                where + "item " + std::to_string(i) + ": a rank receives " +
                std::to_string(c->GetMostRecvsPerRank()) +
                " WRITEs, more than the immediate numbers (2^20): use larger chunks");
        }
        collectiveItems.push_back(i);
        for (const auto& op : c->GetOps())
        {
            bytesPerIteration += op.bytes;
        }
    }
    return bytesPerIteration;
}

} // namespace

Time
RdmaCollectiveRecord::GetCct() const
{
    return completed ? end - start : Time(0);
}

double
RdmaCollectiveRecord::GetAlgBw() const
{
    const double seconds = GetCct().GetSeconds();
    return seconds > 0 ? schedule->GetBytes() * 8.0 / seconds : 0.0;
}

double
RdmaCollectiveRecord::GetBusBw() const
{
    return GetAlgBw() * RdmaBusBandwidthFactor(schedule->GetKind(), schedule->GetGroupRanks());
}

void
RdmaCollectiveRecord::Merge(const RdmaCollectiveRecord& other)
{
    if (other.started)
    {
        start = started ? std::min(start, other.start) : other.start;
    }
    started = started || other.started;
    ranksEntered += other.ranksEntered;
    ranksDone += other.ranksDone;
    end = std::max(end, other.end);
    if (other.failed && (!failed || other.failedAt < failedAt))
    {
        failedRank = other.failedRank;
        failedHost = other.failedHost;
        failedAt = other.failedAt;
        failedStatus = other.failedStatus;
    }
    failed = failed || other.failed;
    if (std::tie(other.lastLanded, other.lastKey) > std::tie(lastLanded, lastKey))
    {
        lastSrc = other.lastSrc;
        lastDst = other.lastDst;
        lastLanded = other.lastLanded;
        lastKey = other.lastKey;
    }
    completed = schedule && ranksDone == schedule->GetActiveRanks();
}

Time
RdmaIterationRecord::GetTime() const
{
    return completed ? end - start : Time(0);
}

void
RdmaIterationRecord::Merge(const RdmaIterationRecord& other)
{
    if (other.started)
    {
        start = started ? std::min(start, other.start) : other.start;
    }
    started = started || other.started;
    end = std::max(end, other.end);
    ranksDone += other.ranksDone;
    completed = ranksDone == ranks;
}

TypeId
RdmaCollectiveRunner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCollectiveRunner")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaCollectiveRunner>()
            .AddAttribute("ReduceRate",
                          "Rate at which a rank's accelerator reduces a received chunk into its "
                          "own data, bit/s: a chunk of B bytes is usable B x 8 / ReduceRate "
                          "after it lands, one chunk after another per rank. The default, "
                          "4000Gbps (500 GB/s), is an NVIDIA A100's HBM2 bandwidth of 1,555 "
                          "GB/s (A100 Tensor Core GPU datasheet) over the three bytes a "
                          "reduction moves per byte reduced (two read, one written), rounded "
                          "down.",
                          DataRateValue(DataRate("4000Gbps")),
                          MakeDataRateAccessor(&RdmaCollectiveRunner::m_reduceRate),
                          MakeDataRateChecker())
            .AddAttribute("RecvDepth",
                          "Receive work requests each receiving QP keeps posted (one is "
                          "reposted per receive completion); a WRITE with immediate that "
                          "finds none gets an RNR NAK.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaCollectiveRunner::m_recvDepth),
                          MakeUintegerChecker<uint32_t>(1, 1 << 16))
            .AddAttribute("FastForward",
                          "Replay a collective that starts from a state already simulated "
                          "instead of simulating it again (RdmaCollectiveMemo: the same "
                          "schedule, each rank entering at the same offset, every sending QP "
                          "at the same CC rate and window): its ranks are done at the kept "
                          "offsets and nothing is sent. Only for one job on one MPI rank; a "
                          "collective is keyed when every rank's entry is known at the first "
                          "rank's (only compute gaps before it), and kept when no rank entered "
                          "the next one before it was over.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaCollectiveRunner::m_fastForward),
                          MakeBooleanChecker())
            .AddAttribute("FastForwardWindow",
                          "With FastForward, a simulated ring collective (every rank receiving "
                          "from one rank) whose every rank's last FastForwardWindow landings "
                          "came at one rate is steady: its remaining WRITEs are not simulated "
                          "but land at each rank's rate (RdmaSteadyCollective). Landings.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaCollectiveRunner::m_steadyWindow),
                          MakeUintegerChecker<uint32_t>(2, 1 << 16))
            .AddAttribute("FastForwardTolerance",
                          "The largest relative difference between the rates (bytes per "
                          "second) of a window's landings that is still one rate (a fraction).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RdmaCollectiveRunner::m_steadyTolerance),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("CollectiveComplete",
                            "Every rank of a job finished one collective of one iteration.",
                            MakeTraceSourceAccessor(&RdmaCollectiveRunner::m_collectiveComplete),
                            "ns3::RdmaCollectiveRunner::CollectiveTracedCallback");
    return tid;
}

RdmaCollectiveRunner::RdmaCollectiveRunner()
    : m_reduceRate("4000Gbps"),
      m_recvDepth(64)
{
}

RdmaCollectiveRunner::~RdmaCollectiveRunner() = default;

void
RdmaCollectiveRunner::DoDispose()
{
    for (Host& h : m_hosts)
    {
        h.Close(); // the CQs outlive the runner on their NICs
    }
    m_hosts.clear();
    m_jobs.clear();
    m_allDone = MakeNullCallback<void>();
    Object::DoDispose();
}

void
RdmaCollectiveRunner::SetHosts(const std::vector<Ptr<RdmaNic>>& nics)
{
    m_hosts.assign(nics.size(), Host());
    for (std::size_t h = 0; h < nics.size(); ++h)
    {
        m_hosts[h].SetNic(nics[h]);
    }
}

void
RdmaCollectiveRunner::SetFarHosts(const std::vector<Ptr<RdmaNicIds>>& far)
{
    NS_ABORT_MSG_IF(!m_jobs.empty(), "RdmaCollectiveRunner::SetFarHosts: after AddJob");
    NS_ABORT_MSG_IF(far.size() > m_hosts.size(), "RdmaCollectiveRunner::SetFarHosts: after SetHosts");
    for (std::size_t h = 0; h < far.size(); ++h)
    {
        if (far[h])
        {
            m_hosts[h].SetFar(far[h]);
        }
    }
}

bool
RdmaCollectiveRunner::IsLocal(uint32_t host) const
{
    return m_hosts[host].nic != nullptr;
}

void
RdmaCollectiveRunner::SetConnectionConfig(const RdmaConnectionConfig& config)
{
    m_config = config;
}

void
RdmaCollectiveRunner::CheckJobHosts(const RdmaJob& job, const std::string& where) const
{
    const auto n = static_cast<uint32_t>(job.hosts.size());
    if (!job.intraHosts.empty() && (job.intraHosts.size() != n || job.servers.size() != n))
    {
        throw std::invalid_argument(where + "expected one intra-server host and one server per "
                                            "rank, or none");
    }
    std::set<uint32_t> taken;
    for (const auto* list : {&job.hosts, &job.intraHosts})
    {
        for (uint32_t r = 0; r < list->size(); ++r)
        {
            const uint32_t h = (*list)[r];
            if (h >= m_hosts.size() || !m_hosts[h].ids)
            {
                throw std::invalid_argument(where + "rank " + std::to_string(r) + ": host " +
                                            std::to_string(h) + " is not a host");
            }
            if (m_hosts[h].job != UINT32_MAX || !taken.insert(h).second)
            {
                throw std::invalid_argument(
                    where + "rank " + std::to_string(r) + ": host " + std::to_string(h) +
                    " already runs " +
                    (m_hosts[h].job != UINT32_MAX ? "job " + std::to_string(m_hosts[h].job)
                                                  : std::string("a rank of this job")));
            }
        }
    }
}

void
RdmaCollectiveRunner::MakeRecords(JobState& s, uint32_t j)
{
    const RdmaJob& job = s.job;
    s.records.resize(uint64_t(s.collectiveItems.size()) * job.iterations);
    for (uint32_t it = 0; it < job.iterations; ++it)
    {
        for (uint32_t k = 0; k < s.collectiveItems.size(); ++k)
        {
            RdmaCollectiveRecord& rec = s.records[uint64_t(it) * s.collectiveItems.size() + k];
            rec.job = j;
            rec.iteration = it;
            rec.item = s.collectiveItems[k];
            rec.schedule = job.items[rec.item].collective;
        }
    }
    s.iterations.resize(job.iterations);
    // The busiest rank's compute (ranks may compute in different gaps: a
    // pipeline's stages), which is every rank's when they compute alike.
    Time compute(0);
    for (uint32_t r = 0; r < job.hosts.size(); ++r)
    {
        Time own(0);
        for (const auto& item : job.items)
        {
            own += item.collective ? Time(0) : item.GetCompute(r);
        }
        compute = std::max(compute, own);
    }
    for (uint32_t it = 0; it < job.iterations; ++it)
    {
        s.iterations[it].job = j;
        s.iterations[it].iteration = it;
        s.iterations[it].compute = compute;
        s.iterations[it].ranks = static_cast<uint32_t>(job.hosts.size());
    }
}

void
RdmaCollectiveRunner::AddJob(const RdmaJob& job)
{
    const auto j = static_cast<uint32_t>(m_jobs.size());
    const std::string where = "job " + std::to_string(j) + ": ";
    if (job.items.empty() || job.iterations == 0)
    {
        throw std::invalid_argument(where + "expected at least one item and one iteration");
    }
    if (job.priority > 7)
    {
        throw std::invalid_argument(where + "expected priority 0-7");
    }
    CheckJobHosts(job, where);
    JobState s;
    s.job = job;
    const auto n = static_cast<uint32_t>(job.hosts.size());
    s.ranks.resize(n);
    const uint64_t bytesPerIteration = CheckCollectiveItems(job, where, s.collectiveItems);
    for (uint32_t r = 0; r < n; ++r)
    {
        m_hosts[job.hosts[r]].job = j;
        m_hosts[job.hosts[r]].rank = r;
        s.ranks[r].host = job.hosts[r];
        s.localRanks += IsLocal(job.hosts[r]);
        if (!job.intraHosts.empty())
        {
            m_hosts[job.intraHosts[r]].job = j;
            m_hosts[job.intraHosts[r]].rank = r;
            if (IsLocal(job.intraHosts[r]) != IsLocal(job.hosts[r]))
            {
                throw std::invalid_argument(
                    where + "rank " + std::to_string(r) + ": host " + std::to_string(job.hosts[r]) +
                    " and its intra-server host " + std::to_string(job.intraHosts[r]) +
                    " are on different MPI ranks (a rank's dependencies are its own "
                    "completions)");
            }
        }
    }
    // A job none of whose ranks run here is over for this MPI rank.
    m_jobsOver += s.localRanks == 0;
    MakeRecords(s, j);
    m_collectives += s.records.size();
    m_totalBytes += bytesPerIteration * job.iterations;
    m_jobs.push_back(std::move(s));
    m_jobList.push_back(job);
}

void
RdmaCollectiveRunner::Start()
{
    // Regions first, before anything runs: a NIC that cannot register one
    // stops the run with an error, as the flow runner's do.
    for (JobState& s : m_jobs)
    {
        uint64_t largest = 1;
        for (uint32_t i : s.collectiveItems)
        {
            largest = std::max(largest, s.job.items[i].collective->GetLargestOp());
        }
        for (uint32_t r = 0; r < s.ranks.size(); ++r)
        {
            PrepareHost(s.ranks[r].host, largest);
            if (!s.job.intraHosts.empty())
            {
                PrepareHost(s.job.intraHosts[r], largest);
            }
        }
    }
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const Time start = m_jobs[j].job.start;
        Simulator::Schedule(start > Simulator::Now() ? start - Simulator::Now() : Time(0),
                            &RdmaCollectiveRunner::StartJob,
                            this,
                            j);
    }
}

void
RdmaCollectiveRunner::PrepareHost(uint32_t id, uint64_t bytes)
{
    Host& h = m_hosts[id];
    if (!h.nic)
    {
        h.rkey = h.ids->TakeKey(); // another rank's host: the key its NIC gives there
        return;
    }
    h.Open(Callback<void, const RdmaWorkCompletion&>(
        [this, id](const RdmaWorkCompletion& wc) { OnCompletion(id, wc); }));
    h.mr = h.nic->RegMr(h.pd, REGION_VA, bytes, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!h.mr)
    {
        throw std::runtime_error("host " + std::to_string(id) + ": ibv_reg_mr of " +
                                 std::to_string(bytes) +
                                 " bytes failed: the NIC's MPT or MTT store is full");
    }
    h.rkey = h.mr->GetRkey();
}

void
RdmaCollectiveRunner::StartJob(uint32_t j)
{
    JobState& s = m_jobs[j];
    const auto n = static_cast<uint32_t>(s.ranks.size());
    // Every QP the schedules use, and the send queue depth each needs (the
    // hosts' regions are registered already: Start).
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> pairs;
    uint32_t sendDepth = 1;
    for (uint32_t i : s.collectiveItems)
    {
        const RdmaCollectiveSchedule& c = *s.job.items[i].collective;
        for (const auto& op : c.GetOps())
        {
            pairs.emplace(op.src, op.dst, op.channel);
        }
        sendDepth = std::max(sendDepth, c.GetMostOpsPerQp());
    }
    for (const auto& [src, dst, channel] : pairs)
    {
        const auto [hostA, hostB] = Endpoints(s, src, dst);
        Host& a = m_hosts[hostA];
        Host& b = m_hosts[hostB];
        // A QP is made only where its host is simulated (on a rank of a
        // distributed run); the other's number is what its own rank gives it.
        const bool localA = IsLocal(hostA);
        const bool localB = IsLocal(hostB);
        const auto [req, resp] = RdmaHelper::CreateConnectedQps(a,
                                                                a.QpInit(sendDepth, m_recvDepth),
                                                                b,
                                                                b.QpInit(sendDepth, m_recvDepth),
                                                                m_config,
                                                                s.job.priority);
        if ((localA && !req) || (localB && !resp))
        {
            // ibv_create_qp failed (ENOMEM): the job cannot run as configured,
            // which is the run's error, not a result (GetError).
            m_error = "job " + std::to_string(j) + ": ibv_create_qp for rank " +
                      std::to_string(src) + " -> " + std::to_string(dst) + " on host " +
                      std::to_string(localA && !req ? hostA : hostB) +
                      " failed: the NIC's QP context memory is full";
            Simulator::Stop();
            return;
        }
        for (uint32_t k = 0; localB && k < m_recvDepth; ++k)
        {
            RdmaRecvWr recv;
            recv.wrId = RECV_WR;
            const int posted = resp->PostRecv(recv);
            NS_ABORT_MSG_IF(posted != 0,
                            "RdmaCollectiveRunner: PostRecv failed (errno " << posted << ")");
        }
        if (resp)
        {
            b.receivers[resp->GetQpn()] = resp;
        }
        if (req)
        {
            s.senders[QpKey(src, dst, channel)] = req;
            if (m_fastForward)
            {
                s.senderCc.push_back(a.nic->GetQpCc(req->GetQpn()));
            }
        }
    }
    NS_LOG_INFO("job " << j << ": " << n << " ranks, " << pairs.size() << " QP pairs");
    for (uint32_t r = 0; r < n; ++r)
    {
        // In the rank's host's context, as everything its NICs then do: the
        // context is whose events these are (RdmaEventScheduler's origin),
        // the same on one process and on any partition across MPI ranks.
        const uint32_t host = s.ranks[r].host;
        s.ranks[r].itemEnd = Simulator::Now();
        if (IsLocal(host))
        {
            Simulator::ScheduleWithContext(m_hosts[host].ids->GetNode(),
                                           Time(0),
                                           &RdmaCollectiveRunner::EnterItem,
                                           this,
                                           j,
                                           r);
        }
    }
}

std::pair<uint32_t, uint32_t>
RdmaCollectiveRunner::Endpoints(const JobState& s, uint32_t src, uint32_t dst)
{
    const RdmaJob& job = s.job;
    if (!job.intraHosts.empty() && job.servers[src] == job.servers[dst])
    {
        return {job.intraHosts[src], job.intraHosts[dst]};
    }
    return {s.ranks[src].host, s.ranks[dst].host};
}

const RdmaCollectiveSchedule&
RdmaCollectiveRunner::Current(uint32_t j, uint32_t r) const
{
    const JobState& s = m_jobs[j];
    return *s.job.items[s.ranks[r].item % s.job.items.size()].collective;
}

void
RdmaCollectiveRunner::EnterItem(uint32_t j, uint32_t r)
{
    JobState& s = m_jobs[j];
    if (s.failed)
    {
        return;
    }
    Rank& rank = s.ranks[r];
    const uint64_t nItems = s.job.items.size();
    if (rank.item >= nItems * s.job.iterations)
    {
        if (++s.ranksFinished == s.localRanks)
        {
            NS_LOG_INFO("job " << j << " finished");
            ++m_jobsOver;
            CheckAllDone();
        }
        return;
    }
    const auto iteration = static_cast<uint32_t>(rank.item / nItems);
    RdmaIterationRecord& ir = s.iterations[iteration];
    if (rank.item % nItems == 0 && (!ir.started || Simulator::Now() < ir.start))
    {
        ir.started = true;
        ir.start = Simulator::Now();
    }
    const RdmaJobItem& item = s.job.items[rank.item % nItems];
    if (!item.collective)
    {
        rank.itemEnd = Simulator::Now() + item.GetCompute(r);
        Simulator::Schedule(item.GetCompute(r), &RdmaCollectiveRunner::LeaveItem, this, j, r);
        return;
    }
    if (!item.collective->IsActive(r))
    {
        // Not one of its ranks (point-to-point, groups that leave it out):
        // it goes on at once, its sequence number counted as theirs are.
        ++rank.seq;
        Simulator::ScheduleNow(&RdmaCollectiveRunner::LeaveItem, this, j, r);
        return;
    }
    RdmaCollectiveRecord& rec = s.records[rank.seq];
    if (m_fastForward && m_memo.IsRecording(j) && rank.seq > s.recordingSeq)
    {
        m_memo.NextEntered(j); // the recorded collective's end now depends on this one
    }
    // A send-recv starts when a sender comes to it (a receiver waiting
    // before is the program's wait, not the transfer's); any other
    // collective when its first rank does.
    const bool opens = item.collective->GetKind() != RdmaCollectiveKind::SEND_RECV ||
                       !item.collective->GetSends(r).empty();
    ++rec.ranksEntered;
    if (opens && !rec.started)
    {
        rec.started = true;
        rec.start = Simulator::Now();
        if (m_fastForward)
        {
            BeginCollective(j, r);
        }
    }
    if (s.replay && rank.seq == s.replaySeq)
    {
        rank.inCollective = true;
        rank.replaying = true;
        rank.itemEnd = s.replayFirst + s.replay->done[r];
        if (rank.replayDone)
        {
            rank.replayDone = false;
            ReplayDone(j, r);
        }
        return;
    }
    rank.endKnown = false;
    const RdmaCollectiveSchedule& c = *item.collective;
    if (m_fastForward && rec.ranksEntered == 1 && !s.steady && c.GetActiveRanks() == c.GetRanks() &&
        RdmaSteadyCollective::IsStream(c))
    {
        s.steady = std::make_unique<RdmaSteadyCollective>(c, m_steadyWindow, m_steadyTolerance);
        s.steadySeq = rank.seq;
        s.frozen = false;
        s.planned = false;
        s.steadyCounts = CountsNow();
        s.steadyLanded = m_landedBytes;
    }
    if (s.steady && rank.seq == s.steadySeq)
    {
        s.steady->Entered();
    }
    const auto& sends = c.GetSends(r);
    rank.inCollective = true;
    rank.waiting.resize(sends.size());
    rank.sendsLeft = static_cast<uint32_t>(sends.size());
    rank.recvsLeft = static_cast<uint32_t>(c.GetRecvs(r).size());
    for (std::size_t i = 0; i < sends.size(); ++i)
    {
        rank.waiting[i] = c.GetDeps(sends[i]).size();
    }
    for (std::size_t i = 0; i < sends.size(); ++i)
    {
        if (rank.waiting[i] == 0)
        {
            Post(j, r, sends[i]);
        }
    }
    auto early = rank.early.find(rank.seq);
    if (early != rank.early.end())
    {
        const std::vector<uint32_t> arrived = std::move(early->second);
        rank.early.erase(early);
        for (uint32_t recv : arrived)
        {
            Arrive(j, r, recv);
        }
    }
    CheckRankDone(j, r);
}

void
RdmaCollectiveRunner::Post(uint32_t j, uint32_t r, uint32_t opIndex)
{
    JobState& s = m_jobs[j];
    if (RdmaSteadyCollective* w = Watched(j, r))
    {
        if (s.frozen)
        {
            return; // its remainder is computed, not simulated
        }
        w->Posted(opIndex);
    }
    const RdmaCollectiveSchedule& c = Current(j, r);
    const RdmaCollectiveSchedule::Op& op = c.GetOps()[opIndex];
    const auto [srcHost, dstHost] = Endpoints(s, op.src, op.dst);
    Host& src = m_hosts[srcHost];
    Host& dst = m_hosts[dstHost];
    RdmaSendWr wr;
    wr.wrId = opIndex;
    wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
    wr.sgList.push_back({REGION_VA, static_cast<uint32_t>(op.bytes), src.mr->GetLkey()});
    wr.remoteAddr = REGION_VA;
    wr.rkey = dst.rkey;
    wr.immData = ((s.ranks[r].seq % SEQ_MODULO) << RECV_BITS) | c.GetRecvIndex(opIndex);
    const int rc = s.senders.at(QpKey(op.src, op.dst, op.channel))->PostSend(wr);
    NS_ABORT_MSG_IF(rc != 0, "RdmaCollectiveRunner: PostSend failed (errno " << rc << ")");
}

void
RdmaCollectiveRunner::Arrive(uint32_t j, uint32_t r, uint32_t recv)
{
    Rank& rank = m_jobs[j].ranks[r];
    const RdmaCollectiveSchedule& c = Current(j, r);
    const uint32_t opIndex = c.GetRecvs(r)[recv];
    const RdmaCollectiveSchedule::Op& op = c.GetOps()[opIndex];
    if (!op.reduce)
    {
        Landed(j, r, opIndex);
        return;
    }
    // One reduction unit per rank: chunks are reduced one after another.
    const Time begin = std::max(Simulator::Now(), rank.reduceFree);
    rank.reduceFree = begin + m_reduceRate.CalculateBytesTxTime(op.bytes);
    Simulator::Schedule(rank.reduceFree - Simulator::Now(),
                        &RdmaCollectiveRunner::Landed,
                        this,
                        j,
                        r,
                        opIndex);
}

void
RdmaCollectiveRunner::Landed(uint32_t j, uint32_t r, uint32_t opIndex)
{
    JobState& s = m_jobs[j];
    if (s.failed)
    {
        return;
    }
    Rank& rank = s.ranks[r];
    const RdmaCollectiveSchedule& c = Current(j, r);
    const RdmaCollectiveSchedule::Op& op = c.GetOps()[opIndex];
    m_landedBytes += op.bytes;
    --rank.recvsLeft;
    RdmaCollectiveRecord& rec = s.records[rank.seq];
    if (Simulator::Now() >= rec.lastLanded)
    {
        rec.lastSrc = op.src;
        rec.lastDst = op.dst;
        rec.lastLanded = Simulator::Now();
        rec.lastKey = RdmaEventScheduler::GetRunningKey();
    }
    if (RdmaSteadyCollective* w = Watched(j, r))
    {
        w->Landed(opIndex, Simulator::Now());
        CheckSteady(j);
    }
    for (uint32_t d : c.GetDependents(opIndex))
    {
        if (--rank.waiting[c.GetSendIndex(d)] == 0)
        {
            Post(j, r, d);
        }
    }
    CheckRankDone(j, r);
}

void
RdmaCollectiveRunner::CheckRankDone(uint32_t j, uint32_t r)
{
    Rank& rank = m_jobs[j].ranks[r];
    if (rank.inCollective && rank.sendsLeft == 0 && rank.recvsLeft == 0)
    {
        rank.inCollective = false;
        rank.itemEnd = Simulator::Now();
        rank.endKnown = true;
        JobState& s = m_jobs[j];
        RdmaCollectiveRecord& rec = s.records[rank.seq];
        const bool replayed = s.replay && rank.seq == s.replaySeq;
        const bool recorded = m_fastForward && m_memo.IsRecording(j) && rank.seq == s.recordingSeq;
        if (recorded)
        {
            m_memo.RankDone(j, r, Simulator::Now());
        }
        ++rank.seq;
        rec.end = Simulator::Now(); // the last rank done so far
        if (++rec.ranksDone == rec.schedule->GetActiveRanks())
        {
            rec.completed = true;
            if (replayed)
            {
                rec.lastSrc = s.replay->lastSrc;
                rec.lastDst = s.replay->lastDst;
                rec.lastLanded = s.replayFirst + s.replay->lastLanded;
                uint64_t bytes = 0;
                for (uint32_t k = 0; k < s.ranks.size(); ++k)
                {
                    bytes += rec.schedule->GetBytesSent(k);
                }
                m_memo.Replayed(rec.GetCct(), bytes);
                if (m_counters)
                {
                    m_counters->Credit(s.replay->counts);
                }
                s.replay = nullptr;
            }
            if (s.steady && s.steadySeq == rank.seq - 1)
            {
                if (s.planned)
                {
                    // The computed remainder's last landing, if it came after the simulated.
                    const RdmaCollectiveSchedule::Op& op = rec.schedule->GetOps()[s.plan.lastOp];
                    if (s.plan.lastLanded >= rec.lastLanded)
                    {
                        rec.lastSrc = op.src;
                        rec.lastDst = op.dst;
                        rec.lastLanded = s.plan.lastLanded;
                        rec.lastKey = 0;
                    }
                    m_memo.FastForwarded(rec.end - s.frozenAt, s.plan.bytes);
                }
                s.steady.reset();
            }
            if (recorded)
            {
                m_memo.Finish(j, rec.lastSrc, rec.lastDst, rec.lastLanded, CountsNow());
            }
            ++m_completed;
            NS_LOG_INFO("job " << j << " iteration " << rec.iteration << " "
                               << RdmaCollectiveName(rec.schedule->GetKind()) << ": CCT "
                               << rec.GetCct().As(Time::US));
            m_collectiveComplete(rec);
        }
        // Not from inside a completion: the next collective posts WRITEs.
        Simulator::ScheduleNow(&RdmaCollectiveRunner::LeaveItem, this, j, r);
    }
}

void
RdmaCollectiveRunner::LeaveItem(uint32_t j, uint32_t r)
{
    JobState& s = m_jobs[j];
    if (s.failed)
    {
        return;
    }
    Rank& rank = s.ranks[r];
    const uint64_t nItems = s.job.items.size();
    if (rank.item % nItems == nItems - 1)
    {
        RdmaIterationRecord& ir = s.iterations[rank.item / nItems];
        ir.end = std::max(ir.end, Simulator::Now());
        if (++ir.ranksDone == s.ranks.size())
        {
            ir.completed = true;
        }
    }
    ++rank.item;
    EnterItem(j, r);
}

void
RdmaCollectiveRunner::FailJob(uint32_t j, uint32_t r, RdmaWcStatus status)
{
    JobState& s = m_jobs[j];
    s.failed = true;
    const Rank& rank = s.ranks[r];
    if (rank.seq < s.records.size())
    {
        RdmaCollectiveRecord& record = s.records[rank.seq];
        record.failed = true;
        record.failedRank = r;
        record.failedHost = rank.host;
        record.failedAt = Simulator::Now();
        record.failedStatus = status;
    }
    ++m_failed;
    ++m_jobsOver;
    CheckAllDone();
}

void
RdmaCollectiveRunner::OnCompletion(uint32_t host, const RdmaWorkCompletion& wc)
{
    Host& h = m_hosts[host];
    const uint32_t j = h.job;
    JobState& s = m_jobs[j];
    if (s.failed)
    {
        return;
    }
    if (wc.status != IBV_WC_SUCCESS)
    {
        NS_LOG_WARN("job " << j << ": rank " << h.rank << ": " << RdmaWcStatusName(wc.status)
                           << ": the job stops");
        FailJob(j, h.rank, wc.status);
        return;
    }
    const uint32_t r = h.rank;
    Rank& rank = s.ranks[r];
    if (!(wc.wrId & RECV_WR))
    {
        RdmaSteadyCollective* w = Watched(j, r);
        if (w)
        {
            w->Completed(static_cast<uint32_t>(wc.wrId), Simulator::Now());
        }
        --rank.sendsLeft;
        CheckRankDone(j, r);
        if (w)
        {
            CheckSteady(j);
        }
        return;
    }
    // Keep the receive queue full, as NCCL reposts its receives.
    RdmaRecvWr recv;
    recv.wrId = RECV_WR;
    const int rc = h.receivers.at(wc.qpNum)->PostRecv(recv);
    NS_ABORT_MSG_IF(rc != 0, "RdmaCollectiveRunner: PostRecv failed (errno " << rc << ")");
    const uint32_t tag = wc.immData >> RECV_BITS;
    const uint32_t index = wc.immData & ((1u << RECV_BITS) - 1);
    // The sender is at most SEQ_MODULO - 1 collectives ahead.
    const uint32_t seq = rank.seq + ((tag + SEQ_MODULO - rank.seq % SEQ_MODULO) % SEQ_MODULO);
    if (rank.inCollective && seq == rank.seq)
    {
        Arrive(j, r, index);
    }
    else
    {
        rank.early[seq].push_back(index);
    }
}

bool
RdmaCollectiveRunner::IsAllDone() const
{
    return m_jobsOver == m_jobs.size();
}

void
RdmaCollectiveRunner::CheckAllDone()
{
    if (IsAllDone() && !m_allDone.IsNull())
    {
        m_allDone();
    }
}

void
RdmaCollectiveRunner::SetAllDoneCallback(Callback<void> cb)
{
    m_allDone = cb;
}

const std::vector<RdmaJob>&
RdmaCollectiveRunner::GetJobs() const
{
    return m_jobList;
}

std::vector<RdmaCollectiveRecord>
RdmaCollectiveRunner::GetCollectiveRecords() const
{
    std::vector<RdmaCollectiveRecord> out;
    for (const JobState& s : m_jobs)
    {
        for (const auto& rec : s.records)
        {
            if (rec.ranksEntered > 0)
            {
                out.push_back(rec);
            }
        }
    }
    return out;
}

std::vector<RdmaIterationRecord>
RdmaCollectiveRunner::GetIterationRecords() const
{
    std::vector<RdmaIterationRecord> out;
    for (const JobState& s : m_jobs)
    {
        for (const auto& it : s.iterations)
        {
            if (it.started)
            {
                out.push_back(it);
            }
        }
    }
    return out;
}

uint64_t
RdmaCollectiveRunner::GetCollectiveCount() const
{
    return m_collectives;
}

uint64_t
RdmaCollectiveRunner::GetCompletedCount() const
{
    return m_completed;
}

uint64_t
RdmaCollectiveRunner::GetFailedCount() const
{
    return m_failed;
}

uint64_t
RdmaCollectiveRunner::GetNotRunCount() const
{
    uint64_t n = 0;
    for (const JobState& s : m_jobs)
    {
        for (const RdmaCollectiveRecord& r : s.records)
        {
            n += s.failed && !r.completed && !r.failed;
        }
    }
    return n;
}

const std::string&
RdmaCollectiveRunner::GetError() const
{
    return m_error;
}

uint64_t
RdmaCollectiveRunner::GetLandedBytes() const
{
    return m_landedBytes;
}

const RdmaCollectiveMemo::Stats&
RdmaCollectiveRunner::GetFastForwardStats() const
{
    return m_memo.GetStats();
}

uint64_t
RdmaCollectiveRunner::GetTotalBytes() const
{
    return m_totalBytes;
}

} // namespace ns3
