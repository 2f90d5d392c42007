/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-entropy.h"

#include "ns3/rdma-opcode.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaEntropy);
NS_OBJECT_ENSURE_REGISTERED(RdmaQpEntropy);
NS_OBJECT_ENSURE_REGISTERED(RdmaPacketEntropy);
NS_OBJECT_ENSURE_REGISTERED(RdmaFlowletEntropy);
NS_OBJECT_ENSURE_REGISTERED(RdmaRepsEntropy);

TypeId
RdmaEntropy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEntropy").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

void
RdmaEntropy::Succeed(Ptr<RdmaEntropy> previous, const RdmaEntropyParams* params)
{
    m_params = params;
    if (previous)
    {
        m_rng = previous->m_rng;
    }
}

int64_t
RdmaEntropy::AssignStreams(int64_t stream)
{
    // Qp draws nothing: no random variable is made, so the automatic
    // streams other components take stay those of a run without entropy.
    if (Draws())
    {
        if (!m_rng)
        {
            m_rng = CreateObject<UniformRandomVariable>();
        }
        m_rng->SetStream(stream);
    }
    return 1;
}

void
RdmaEntropy::Sent(uint32_t /* qpn */, const RoceFrame& /* f */)
{
}

bool
RdmaEntropy::Draws() const
{
    return true;
}

bool
RdmaEntropy::SeesResponses() const
{
    return false;
}

void
RdmaEntropy::Acked(const RoceFrame& /* f */, bool /* sack */)
{
}

void
RdmaEntropy::Forget(uint32_t /* qpn */)
{
}

void
RdmaEntropy::DoDispose()
{
    m_rng = nullptr;
    m_params = nullptr;
    Object::DoDispose();
}

uint16_t
RdmaEntropy::Draw()
{
    if (!m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    // The dynamic port range the QP-derived ports also use (0xC000-0xFFFF).
    return static_cast<uint16_t>(0xC000 | m_rng->GetInteger(0, 0x3FFF));
}

const RdmaEntropyParams&
RdmaEntropy::Params() const
{
    return *m_params;
}

TypeId
RdmaQpEntropy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaQpEntropy")
                            .SetParent<RdmaEntropy>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaQpEntropy>();
    return tid;
}

uint16_t
RdmaQpEntropy::Pick(uint32_t qpn, uint32_t destQpn)
{
    return RoceFrame::UdpSourcePort(qpn, destQpn);
}

bool
RdmaQpEntropy::Draws() const
{
    return false;
}

TypeId
RdmaPacketEntropy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaPacketEntropy")
                            .SetParent<RdmaEntropy>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaPacketEntropy>();
    return tid;
}

uint16_t
RdmaPacketEntropy::Pick(uint32_t /* qpn */, uint32_t /* destQpn */)
{
    return Draw();
}

TypeId
RdmaFlowletEntropy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaFlowletEntropy")
                            .SetParent<RdmaEntropy>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaFlowletEntropy>();
    return tid;
}

uint16_t
RdmaFlowletEntropy::Pick(uint32_t qpn, uint32_t /* destQpn */)
{
    const Time now = Simulator::Now();
    auto [it, added] = m_flowlets.try_emplace(qpn);
    Flowlet& f = it->second;
    if (added || now - f.last > Params().flowletTimeout)
    {
        f.port = Draw();
    }
    f.last = now;
    return f.port;
}

void
RdmaFlowletEntropy::Forget(uint32_t qpn)
{
    m_flowlets.erase(qpn);
}

void
RdmaFlowletEntropy::DoDispose()
{
    m_flowlets.clear();
    RdmaEntropy::DoDispose();
}

TypeId
RdmaRepsEntropy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRepsEntropy")
                            .SetParent<RdmaEntropy>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRepsEntropy>();
    return tid;
}

RdmaReps&
RdmaRepsEntropy::BufferOf(uint32_t qpn)
{
    return m_reps.try_emplace(qpn, Params().repsBufferSize).first->second;
}

uint16_t
RdmaRepsEntropy::Pick(uint32_t qpn, uint32_t /* destQpn */)
{
    uint16_t port = 0;
    return BufferOf(qpn).Next(port) ? port : Explore(qpn);
}

uint16_t
RdmaRepsEntropy::Explore(uint32_t /* qpn */)
{
    return Draw();
}

void
RdmaRepsEntropy::Sent(uint32_t qpn, const RoceFrame& f)
{
    const uint8_t op = f.bth.GetOpcode();
    if (op < RC_RDMA_READ_RESPONSE_FIRST || op > RC_ATOMIC_ACKNOWLEDGE)
    {
        BufferOf(qpn).OnSent(f.bth.GetPsn(), f.udpSrcPort);
    }
}

bool
RdmaRepsEntropy::SeesResponses() const
{
    return true;
}

void
RdmaRepsEntropy::Acked(const RoceFrame& f, bool sack)
{
    const uint8_t op = f.bth.GetOpcode();
    const bool carriesAeth = op == RC_ACKNOWLEDGE || op == RC_ATOMIC_ACKNOWLEDGE ||
                             op == RC_RDMA_READ_RESPONSE_ONLY ||
                             op == RC_RDMA_READ_RESPONSE_LAST;
    auto it = carriesAeth ? m_reps.find(f.bth.GetDestQp()) : m_reps.end();
    if (it == m_reps.end())
    {
        return;
    }
    if (f.aeth.GetSyndromeType() == AethHeader::ACK)
    {
        it->second.OnAck(f.bth.GetPsn(), f.bth.GetBecn());
    }
    else if (sack)
    {
        // Selective repeat's SACK: the MSN field holds the PSN that arrived.
        it->second.OnSack(f.bth.GetPsn(), f.aeth.GetMsn(), f.bth.GetBecn());
    }
}

void
RdmaRepsEntropy::Forget(uint32_t qpn)
{
    m_reps.erase(qpn);
}

void
RdmaRepsEntropy::DoDispose()
{
    m_reps.clear();
    RdmaEntropy::DoDispose();
}

TypeId
RdmaMixedEntropy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaMixedEntropy")
                            .SetParent<RdmaRepsEntropy>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaMixedEntropy>();
    return tid;
}

RdmaPathPenalty&
RdmaMixedEntropy::PenaltyOf(uint32_t qpn)
{
    auto it = m_penalty.find(qpn);
    if (it == m_penalty.end())
    {
        it = m_penalty
                 .emplace(qpn,
                          RdmaPathPenalty(Params().entropyPaths, [this]() { return Draw(); }))
                 .first;
    }
    return it->second;
}

uint16_t
RdmaMixedEntropy::Explore(uint32_t qpn)
{
    return PenaltyOf(qpn).Next([this]() { return Draw(); });
}

void
RdmaMixedEntropy::Acked(const RoceFrame& f, bool sack)
{
    const bool response = f.bth.GetOpcode() == RC_ACKNOWLEDGE;
    const bool ack = response && f.aeth.GetSyndromeType() == AethHeader::ACK;
    const bool trimNak = response && f.aeth.GetSyndromeType() == AethHeader::NAK &&
                         f.aeth.GetSyndromeValue() == AethHeader::NAK_TRIMMED;
    auto it = m_penalty.find(f.bth.GetDestQp());
    if (it != m_penalty.end() && (trimNak || (f.bth.GetBecn() && (ack || sack))))
    {
        // The packet the response is about: the one ACKed, or the trimmed or
        // SACKed one its MSN field names (UecSrc feeds back that path).
        const uint32_t psn = ack ? f.bth.GetPsn() : f.aeth.GetMsn();
        uint16_t port = 0;
        if (BufferOf(f.bth.GetDestQp()).EntropyOf(psn, port))
        {
            it->second.Penalize(port,
                                trimNak ? RdmaPathPenalty::TRIM_PENALTY
                                        : RdmaPathPenalty::ECN_PENALTY);
        }
    }
    RdmaRepsEntropy::Acked(f, sack);
}

void
RdmaMixedEntropy::Forget(uint32_t qpn)
{
    m_penalty.erase(qpn);
    RdmaRepsEntropy::Forget(qpn);
}

void
RdmaMixedEntropy::DoDispose()
{
    m_penalty.clear();
    RdmaRepsEntropy::DoDispose();
}

} // namespace ns3
