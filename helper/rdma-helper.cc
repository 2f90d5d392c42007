/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-helper.h"

#include "ns3/node.h"
#include "ns3/qbb-net-device.h"

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
RdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::SetCongestionControl(const ObjectFactory& factory)
{
    m_ccFactory = factory;
}

Ptr<RdmaNic>
RdmaHelper::Install(Ptr<Node> node, Ptr<NetDevice> device, Ipv4Address address) const
{
    Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
    if (m_pipeline)
    {
        nic->SetPipeline(m_pipelineFactory.Create<RdmaNicPipeline>());
    }
    if (m_ccFactory.GetTypeId().GetUid() != 0)
    {
        nic->SetCongestionControl(m_ccFactory);
    }
    node->AggregateObject(nic);
    nic->Attach(DynamicCast<QbbNetDevice>(device), address);
    return nic;
}

namespace
{
int
Bring(Ptr<RdmaQueuePair> qp,
      Ptr<RdmaNic> peerNic,
      Ptr<RdmaQueuePair> peer,
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
    attr.ahAttr.destGid = peerNic->GetAddress();
    attr.ahAttr.trafficClass = c.trafficClass;
    attr.pathMtu = c.pathMtu;
    attr.destQpNum = peer->GetQpn();
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
    int rc = Bring(a, nicB, b, config.psnA, config.psnB, config);
    return rc != 0 ? rc : Bring(b, nicA, a, config.psnB, config.psnA, config);
}

} // namespace ns3
