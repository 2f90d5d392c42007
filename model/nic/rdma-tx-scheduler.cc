/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-tx-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rdma-protection-domain.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTxScheduler");
NS_OBJECT_ENSURE_REGISTERED(RdmaTxScheduler);

TypeId
RdmaTxScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTxScheduler")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaTxScheduler>()
            .AddAttribute("Mode",
                          "Arbitration among the QPs that may send: RoundRobin (one packet "
                          "per QP per turn, as the NIC did before) or DeficitRoundRobin "
                          "(QuantumBytes per QP per turn; Shreedhar and Varghese 1995).",
                          EnumValue(RdmaTxScheduler::ROUND_ROBIN),
                          MakeEnumAccessor(&RdmaTxScheduler::m_mode),
                          MakeEnumChecker(RdmaTxScheduler::ROUND_ROBIN,
                                          "RoundRobin",
                                          RdmaTxScheduler::DEFICIT_ROUND_ROBIN,
                                          "DeficitRoundRobin"))
            .AddAttribute("QuantumBytes",
                          "Deficit round robin: bytes of credit a QP gets per turn. Default "
                          "1500 bytes, one Ethernet MTU (as FqCoDel's quantum).",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&RdmaTxScheduler::m_quantum),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ResponsesFirst",
                          "Whether a QP with a response to send (an ACK, a READ response) "
                          "goes ahead of the round: the HPCC simulator's hosts send every "
                          "ACK from a queue served before any QP's data "
                          "(RdmaEgressQueue::GetNextQindex, qbb-net-device.cc in "
                          "github.com/alibaba-edu/High-Precision-Congestion-Control). Off "
                          "(default): responses take their QP's turn. On costs a look over "
                          "the QPs in the round per packet.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaTxScheduler::m_responsesFirst),
                          MakeBooleanChecker())
            .AddAttribute(
                "ByTenant",
                "Whether tenants (protection domains) take turns before their QPs "
                "do: a hierarchical round robin (Bennett and Zhang, SIGCOMM 1996), "
                "so a tenant's share of the packets does not grow with its QPs; a "
                "tenant takes one packet a turn (Mode RoundRobin only). "
                "Off (default): every QP takes its own turn.",
                BooleanValue(false),
                MakeBooleanAccessor(&RdmaTxScheduler::SetByTenant, &RdmaTxScheduler::GetByTenant),
                MakeBooleanChecker());
    return tid;
}

RdmaTxScheduler::RdmaTxScheduler()
    : m_mode(ROUND_ROBIN),
      m_quantum(1500),
      m_responsesFirst(false)
{
    NS_LOG_FUNCTION(this);
}

RdmaTxScheduler::~RdmaTxScheduler() = default;

void
RdmaTxScheduler::DoDispose()
{
    m_timer.Cancel();
    m_flows.Clear();
    m_round.Clear();
    m_paced = decltype(m_paced)();
    m_txReady = Callback<void>();
    Object::DoDispose();
}

void
RdmaTxScheduler::SetTxReadyCallback(Callback<void> cb)
{
    m_txReady = cb;
}

void
RdmaTxScheduler::AddQp(Ptr<RdmaQueuePair> qp, Ptr<RdmaCcState> cc)
{
    NS_ASSERT(qp && cc);
    Flow& f = m_flows[qp->GetQpn()];
    f.qp = qp;
    f.cc = cc;
    f.nextTx = Time(0);
    f.deficit = 0;
    f.where = IDLE;
    f.tenant = qp->GetPd() ? qp->GetPd()->GetHandle() : 0;
}

void
RdmaTxScheduler::RemoveQp(uint32_t qpn)
{
    // Stale entries in the round or the heap are skipped when met.
    m_flows.Erase(qpn);
}

bool
RdmaTxScheduler::CanSend(const Flow& f)
{
    if (!f.qp->HasPacket())
    {
        return false;
    }
    const RdmaCcState& cc = *f.cc;
    const uint64_t window = cc.m_window;
    const uint64_t inFlight = cc.m_bytesInFlight;
    const bool open =
        window == 0 || (cc.m_wholePacketWindow ? inFlight == 0 || inFlight + cc.m_mtu <= window
                                               : inFlight < window);
    return (open && !cc.m_noCredit) || f.qp->HasResponse();
}

void
RdmaTxScheduler::Notify(uint32_t qpn)
{
    Flow* f = m_flows.Find(qpn);
    if (f && f->where == IDLE)
    {
        f->where = READY;
        m_round.Push(qpn, f->tenant);
    }
}

void
RdmaTxScheduler::ReleaseDue()
{
    Time now = Simulator::Now();
    while (!m_paced.empty() && m_paced.top().first <= now)
    {
        uint32_t qpn = m_paced.top().second;
        m_paced.pop();
        Flow* f = m_flows.Find(qpn);
        if (f && f->where == PACED)
        {
            f->where = READY;
            m_round.Push(qpn, f->tenant);
        }
    }
}

Ptr<RdmaQueuePair>
RdmaTxScheduler::Next()
{
    NS_ABORT_MSG_IF(m_mode == DEFICIT_ROUND_ROBIN && m_round.ByTenant(),
                    "RdmaTxScheduler: attribute ByTenant needs Mode RoundRobin (tenants take a "
                    "packet a turn; a deficit is per QP)");
    ReleaseDue();
    Time now = Simulator::Now();
    if (m_responsesFirst)
    {
        PromoteResponse(now);
    }
    while (!m_round.Empty())
    {
        uint32_t qpn = m_round.Front();
        Flow* found = m_flows.Find(qpn);
        if (!found || found->where != READY)
        {
            m_round.Drop(); // destroyed
            continue;
        }
        Flow& f = *found;
        if (!CanSend(f))
        {
            m_round.Drop();
            f.where = IDLE;
            continue;
        }
        if (f.nextTx > now)
        {
            m_round.Drop();
            f.where = PACED;
            m_paced.emplace(f.nextTx, qpn);
            continue;
        }
        if (m_mode == DEFICIT_ROUND_ROBIN && f.deficit <= 0)
        {
            f.deficit += m_quantum;
            m_round.Rotate();
            continue;
        }
        return f.qp;
    }
    ArmTimer();
    return nullptr;
}

void
RdmaTxScheduler::PromoteResponse(Time now)
{
    m_round.PromoteFirst([this, now](uint32_t qpn) {
        const Flow* f = m_flows.Find(qpn);
        return f && f->where == READY && f->nextTx <= now && f->qp->HasResponse();
    });
}

void
RdmaTxScheduler::Sent(uint32_t qpn, uint32_t bytes)
{
    Flow* found = m_flows.Find(qpn);
    if (!found)
    {
        return;
    }
    Flow& f = *found;
    if (bytes > 0)
    {
        const uint64_t bps = f.cc->m_rate.Get().GetBitRate();
        if (bps != f.gapBps || bytes != f.gapBytes)
        {
            f.gapBps = bps;
            f.gapBytes = bytes;
            f.gapTime = Seconds(bytes * 8.0 / static_cast<double>(bps));
        }
        f.nextTx = Simulator::Now() + f.gapTime;
        f.deficit -= bytes;
    }
    if (m_round.Empty() || m_round.Front() != qpn)
    {
        return;
    }
    if (bytes == 0)
    {
        m_round.Drop();
        f.where = IDLE;
    }
    else if (m_mode == ROUND_ROBIN)
    {
        // Round robin: its turn is over. DRR keeps the QP at the front while
        // its deficit is positive; Next() moves it on otherwise.
        m_round.Rotate();
    }
}

void
RdmaTxScheduler::ArmTimer()
{
    while (!m_paced.empty())
    {
        const Flow* f = m_flows.Find(m_paced.top().second);
        if (f && f->where == PACED)
        {
            break;
        }
        m_paced.pop(); // stale
    }
    if (m_paced.empty())
    {
        return;
    }
    Time at = m_paced.top().first;
    if (m_timer.IsRunning() && m_timerAt <= at)
    {
        return;
    }
    m_timer.Cancel();
    m_timerAt = at;
    m_timer = Simulator::Schedule(at - Simulator::Now(), &RdmaTxScheduler::TimerExpired, this);
}

void
RdmaTxScheduler::TimerExpired()
{
    ++m_timerExpiries;
    ReleaseDue();
    if (!m_txReady.IsNull())
    {
        m_txReady();
    }
    ArmTimer();
}

Time
RdmaTxScheduler::GetNextTxTime(uint32_t qpn) const
{
    const Flow* f = m_flows.Find(qpn);
    return f ? f->nextTx : Time(0);
}

void
RdmaTxScheduler::SetByTenant(bool byTenant)
{
    m_round.SetTenants(byTenant);
}

bool
RdmaTxScheduler::GetByTenant() const
{
    return m_round.ByTenant();
}

uint64_t
RdmaTxScheduler::GetTimerExpiries() const
{
    return m_timerExpiries;
}

} // namespace ns3
