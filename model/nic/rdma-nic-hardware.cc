/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaNic, part two: the hardware path, used only with a Pipeline. The
// pipeline's retire callbacks, the memory reads and completions it times,
// and the port's receive buffer with its PFC hold (the rules are listed on
// the class, rdma-nic.h). The verbs, transmit and receive are in
// rdma-nic.cc; where a received payload lands is RdmaNicRxPlacement's.

#include "rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-net-device.h"

namespace ns3
{

void
RdmaNic::SetPipeline(Ptr<RdmaNicPipeline> pipeline)
{
    NS_ABORT_MSG_IF(pipeline && (!m_qps.Empty() || !m_mrs.empty()),
                    "RdmaNic: attribute Pipeline set after QPs or MRs were made");
    m_pipeline = pipeline;
    if (m_pipeline)
    {
        m_pipeline->SetRetireCallbacks(MakeCallback(&RdmaNic::OnPipelineTx, this),
                                       MakeCallback(&RdmaNic::OnPipelineRx, this));
    }
}

Ptr<RdmaNicPipeline>
RdmaNic::GetPipeline() const
{
    return m_pipeline;
}

void
RdmaNic::OnPipelineTx(Ptr<RdmaFrame> frame)
{
    uint32_t port = 0;
    auto it = m_txPorts.find(PeekPointer(frame));
    if (it != m_txPorts.end())
    {
        port = it->second;
        m_txPorts.erase(it);
    }
    m_txFrames.push_back({frame, port});
    TrySend();
}

Ptr<RdmaNicRxBuffer>
RdmaNic::GetRxBuffer() const
{
    return m_rxBuffer;
}

std::string
RdmaNic::ConfigureRxBuffer()
{
    const Ptr<QbbNetDevice> device = GetDevice();
    NS_ABORT_MSG_IF(!device || !device->GetQbbChannel(),
                    "RdmaNic::ConfigureRxBuffer: the NIC's port has no link");
    m_rxBufferReady = true;
    // The buffer's PFC decisions hold the peers paused through every port
    // (one buffer behind all planes' ports, filled at their summed rate).
    m_rxBuffer->SetPfcHoldCallback(Callback<void, uint8_t, bool>([this](uint8_t cls, bool pause) {
        for (uint32_t i = 0; i < m_ports.GetN(); ++i)
        {
            m_ports.Get(i)->GetPfcController()->SetHold(cls, pause);
        }
    }));
    return m_rxBuffer->Configure(m_ports.GetRate(),
                                 device->GetQbbChannel()->GetDelay(),
                                 device->GetMtu() + QbbNetDevice::ETHERNET_HEADER_BYTES +
                                     QbbNetDevice::VLAN_TAG_BYTES);
}

bool
RdmaNic::AdmitRx(const RdmaFrame& frame, uint8_t cls)
{
    if (!m_rxBufferReady)
    {
        const std::string error = ConfigureRxBuffer();
        NS_ABORT_MSG_IF(!error.empty(), "RdmaNic: attribute RxBuffer: " << error);
    }
    if (m_rxBuffer->Admit(cls, frame.GetSize()) != DROP_NONE)
    {
        Drop(frame, DROP_RX_BUFFER_FULL);
        return false;
    }
    return true;
}

void
RdmaNic::OnPipelineRx(const RoceFrame& f)
{
    m_rxPlacement.Retired(f);
    m_rxBuffer->ReleaseOldest();
    Ptr<RdmaQueuePair> qp = GetQp(f.bth.GetDestQp());
    if (qp)
    {
        DeliverToQp(qp, f);
    }
    else
    {
        CountGoneQp(f); // destroyed while in the pipeline
    }
    TrySend();
}

void
RdmaNic::OnCompletion(const RdmaWorkCompletion&)
{
    if (m_pipeline)
    {
        m_pipeline->WriteCqe();
    }
}

} // namespace ns3
