/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/nic-cache.h"
#include "ns3/nic-memory.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

RdmaHelper::RdmaHelper()
{
    m_nicFactory.SetTypeId(RdmaNic::GetTypeId());
    m_pipelineFactory.SetTypeId(RdmaNicPipeline::GetTypeId());
}

void
RdmaHelper::EnablePipeline(bool enable)
{
    m_pipeline = enable;
}

void
RdmaHelper::SetPipelineAttribute(const std::string& name, const AttributeValue& value)
{
    m_pipelineFactory.Set(name, value);
}

void
RdmaHelper::SetCacheAttribute(RdmaNicTables::Table table,
                              const std::string& name,
                              const AttributeValue& value)
{
    m_cacheAttributes.push_back({table, false, name, value.Copy()});
}

void
RdmaHelper::SetCacheMemoryAttribute(RdmaNicTables::Table table,
                                    const std::string& name,
                                    const AttributeValue& value)
{
    m_cacheAttributes.push_back({table, true, name, value.Copy()});
}

void
RdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::SetCongestionControl(const ObjectFactory& factory)
{
    m_ccFactory = factory;
}

void
RdmaHelper::SetLossRecovery(const ObjectFactory& factory)
{
    m_recoveryFactory = factory;
}

void
RdmaHelper::SetLossRecoveryBdp(Time rtt, uint32_t minBytes)
{
    m_bdpRtt = rtt;
    m_bdpMinBytes = minBytes;
}

void
RdmaHelper::SetPathMtu(uint32_t bytes)
{
    m_pathMtu = bytes;
}

Ptr<RdmaNic>
RdmaHelper::Install(Ptr<Node> node,
                    Ptr<NetDevice> device,
                    Ipv4Address address,
                    const std::vector<Ptr<QbbNetDevice>>& planes) const
{
    Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
    if (m_pipeline)
    {
        Ptr<RdmaNicPipeline> pipeline = m_pipelineFactory.Create<RdmaNicPipeline>();
        for (const CacheAttribute& a : m_cacheAttributes)
        {
            Ptr<NicCache> cache = pipeline->GetTables()->GetCache(a.table);
            if (a.memory)
            {
                cache->GetMemory()->SetAttribute(a.name, *a.value);
            }
            else
            {
                cache->SetAttribute(a.name, *a.value);
            }
        }
        nic->SetPipeline(pipeline);
    }
    if (m_ccFactory.GetTypeId().GetUid() != 0)
    {
        nic->SetCongestionControl(m_ccFactory);
    }
    node->AggregateObject(nic);
    Ptr<QbbNetDevice> port = DynamicCast<QbbNetDevice>(device);
    nic->Attach(port, address);
    for (const Ptr<QbbNetDevice>& plane : planes)
    {
        nic->AttachPlane(plane);
    }
    if (m_recoveryFactory.GetTypeId().GetUid() != 0)
    {
        Ptr<RdmaLossRecovery> policy = m_recoveryFactory.Create<RdmaLossRecovery>();
        if (m_bdpRtt.IsStrictlyPositive())
        {
            const uint64_t bdp =
                static_cast<uint64_t>(nic->GetPorts().GetRate().GetBitRate() * m_bdpRtt.GetSeconds() / 8);
            policy->SetAttribute("BdpBytes", UintegerValue(std::max<uint64_t>(bdp, m_bdpMinBytes)));
        }
        nic->SetQpAttribute("LossRecovery", PointerValue(policy));
        if (m_pipeline)
        {
            nic->GetPipeline()->GetTables()->SetQpcStateBits(policy->GetQpContextBits(m_pathMtu));
        }
    }
    if (m_pipeline)
    {
        const std::string error = nic->ConfigureRxBuffer();
        if (!error.empty())
        {
            throw std::invalid_argument(error);
        }
    }
    return nic;
}

namespace
{
int
Bring(Ptr<RdmaQueuePair> qp,
      Ipv4Address peerGid,
      uint32_t peerQpn,
      uint32_t sqPsn,
      uint32_t rqPsn,
      const RdmaConnectionConfig& c)
{
    RdmaQpAttr attr;
    attr.qpState = IBV_QPS_INIT;
    attr.pkeyIndex = 0;
    attr.portNum = 1;
    attr.qpAccessFlags = c.accessFlags;
    int rc = qp->Modify(attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    if (rc != 0)
    {
        return rc;
    }
    attr.qpState = IBV_QPS_RTR;
    attr.ahAttr.destGid = peerGid;
    attr.ahAttr.trafficClass = c.trafficClass;
    attr.pathMtu = c.pathMtu;
    attr.destQpNum = peerQpn;
    attr.rqPsn = rqPsn;
    attr.maxDestRdAtomic = c.maxDestRdAtomic;
    attr.minRnrTimer = c.minRnrTimer;
    rc = qp->Modify(attr,
                    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                        IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (rc != 0)
    {
        return rc;
    }
    attr.qpState = IBV_QPS_RTS;
    attr.sqPsn = sqPsn;
    attr.maxRdAtomic = c.maxRdAtomic;
    attr.retryCnt = c.retryCnt;
    attr.rnrRetry = c.rnrRetry;
    attr.timeout = c.timeout;
    return qp->Modify(attr,
                      IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT |
                          IBV_QP_RNR_RETRY | IBV_QP_TIMEOUT);
}
} // namespace

int
RdmaHelper::Connect(Ptr<RdmaQueuePair> a,
                    Ptr<RdmaNic> nicA,
                    Ptr<RdmaQueuePair> b,
                    Ptr<RdmaNic> nicB,
                    const RdmaConnectionConfig& config)
{
    int rc = Bring(a, nicB->GetAddress(), b->GetQpn(), config.psnA, config.psnB, config);
    return rc != 0 ? rc
                   : Bring(b, nicA->GetAddress(), a->GetQpn(), config.psnB, config.psnA, config);
}

void
RdmaHostVerbs::SetNic(Ptr<RdmaNic> n)
{
    nic = n;
    ids = n ? n->GetIds() : nullptr;
}

void
RdmaHostVerbs::SetFar(Ptr<RdmaNicIds> far)
{
    nic = nullptr;
    ids = far;
}

void
RdmaHostVerbs::Open(Callback<void, const RdmaWorkCompletion&> onCompletion)
{
    pd = nic->AllocPd();
    cq = nic->CreateCq(1 << 16);
    cq->SetCompletionCallback(onCompletion);
}

RdmaQueuePair::InitAttr
RdmaHostVerbs::QpInit(uint32_t maxSendWr, uint32_t maxRecvWr) const
{
    RdmaQueuePair::InitAttr init;
    init.maxSendWr = maxSendWr;
    init.maxRecvWr = maxRecvWr;
    init.pd = pd;
    init.sendCq = cq;
    init.recvCq = cq;
    return init;
}

void
RdmaHostVerbs::Close()
{
    if (cq)
    {
        cq->SetCompletionCallback(MakeNullCallback<void, const RdmaWorkCompletion&>());
    }
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::CreateConnectedQps(Ptr<RdmaNic> a,
                               const RdmaQueuePair::InitAttr& initA,
                               Ptr<RdmaNic> b,
                               const RdmaQueuePair::InitAttr& initB,
                               const RdmaConnectionConfig& config,
                               uint8_t priority)
{
    RdmaHostVerbs hostA;
    hostA.SetNic(a);
    RdmaHostVerbs hostB;
    hostB.SetNic(b);
    return CreateConnectedQps(hostA, initA, hostB, initB, config, priority);
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::CreateConnectedQps(const RdmaHostVerbs& a,
                               const RdmaQueuePair::InitAttr& initA,
                               const RdmaHostVerbs& b,
                               const RdmaQueuePair::InitAttr& initB,
                               const RdmaConnectionConfig& config,
                               uint8_t priority)
{
    Ptr<RdmaQueuePair> qa = a.nic ? a.nic->CreateQp(initA) : nullptr;
    const uint32_t qpnA = a.nic ? (qa ? qa->GetQpn() : 0) : a.ids->TakeQpn();
    Ptr<RdmaQueuePair> qb = b.nic ? b.nic->CreateQp(initB) : nullptr;
    const uint32_t qpnB = b.nic ? (qb ? qb->GetQpn() : 0) : b.ids->TakeQpn();
    if ((a.nic && !qa) || (b.nic && !qb))
    {
        if (qa)
        {
            a.nic->DestroyQp(qa);
        }
        if (qb)
        {
            b.nic->DestroyQp(qb);
        }
        return {nullptr, nullptr};
    }
    RdmaConnectionConfig c = config;
    const auto dscp = static_cast<uint8_t>((priority << 3) | ((c.trafficClass >> 2) & 7));
    c.trafficClass = static_cast<uint8_t>((dscp << 2) | (c.trafficClass & 3));
    int rc = qa ? Bring(qa, b.ids->GetAddress(), qpnB, c.psnA, c.psnB, c) : 0;
    rc = (rc == 0 && qb) ? Bring(qb, a.ids->GetAddress(), qpnA, c.psnB, c.psnA, c) : rc;
    NS_ABORT_MSG_IF(rc != 0,
                    "RdmaHelper::CreateConnectedQps: connecting a QP pair failed (errno "
                        << rc << "): check the connection config");
    return {qa, qb};
}

} // namespace ns3
