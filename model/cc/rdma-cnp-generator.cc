/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-cnp-generator.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCnpGenerator");
NS_OBJECT_ENSURE_REGISTERED(RdmaCnpGenerator);

TypeId
RdmaCnpGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCnpGenerator")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaCnpGenerator>()
            .AddAttribute("MinTimeBetweenCnps",
                          "Least time between two CNPs for one QP; 0 = a CNP for every "
                          "CE-marked packet. Default 50 us (DCQCN paper's N, per flow). "
                          "NVIDIA firmware's MIN_TIME_BETWEEN_CNPS (2 us; NVIDIA's DCQCN "
                          "parameter table, notification point) is per port, not per QP.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaCnpGenerator::m_interval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CnpOnNak",
                          "Also answer each PSN-sequence NAK the QP's responder sends with a "
                          "CNP (within MinTimeBetweenCnps), so the sender's CC cuts its rate "
                          "on reordering as on congestion. Default false (DCQCN, SIGCOMM 2015: "
                          "CNPs answer CE marks only); true is the HPCC and ConWeave "
                          "simulators' responder (rdma-hw.cc ReceiverCheckSeq sets the CNP "
                          "flag on every NAK).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaCnpGenerator::m_cnpOnNak),
                          MakeBooleanChecker())
            .AddAttribute("Enabled",
                          "Whether the NIC sends CNPs at all. Default true (a RoCE NIC's "
                          "notification point, whatever the sender's algorithm). False: none "
                          "(a UEC NIC: NSCC reads congestion from the ECN echo of its ACKs; "
                          "rdma-sim sets false for cc.algorithm = nscc when this key is not "
                          "given).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaCnpGenerator::m_enabled),
                          MakeBooleanChecker());
    return tid;
}

RdmaCnpGenerator::RdmaCnpGenerator()
    : m_interval(MicroSeconds(50))
{
    NS_LOG_FUNCTION(this);
}

RdmaCnpGenerator::RdmaCnpGenerator(const RdmaCnpGenerator& other)
    : Object(other),
      m_interval(other.m_interval),
      m_cnpOnNak(other.m_cnpOnNak),
      m_enabled(other.m_enabled)
{
    NS_LOG_FUNCTION(this);
}

Ptr<RdmaCnpGenerator>
RdmaCnpGenerator::Fork()
{
    return CopyObject<RdmaCnpGenerator>(this);
}

bool
RdmaCnpGenerator::OnCongestionExperienced(Time now)
{
    NS_LOG_FUNCTION(this << now);
    ++m_ceMarked;
    return Decide(now);
}

bool
RdmaCnpGenerator::OnSequenceNakSent(Time now)
{
    NS_LOG_FUNCTION(this << now);
    return m_cnpOnNak && Decide(now);
}

bool
RdmaCnpGenerator::Decide(Time now)
{
    if (!m_enabled || (m_sent && now - m_lastCnp < m_interval))
    {
        return false;
    }
    m_sent = true;
    m_lastCnp = now;
    ++m_cnpsSent;
    return true;
}

uint64_t
RdmaCnpGenerator::GetCeMarkedPackets() const
{
    return m_ceMarked;
}

uint64_t
RdmaCnpGenerator::GetCnpsSent() const
{
    return m_cnpsSent;
}

} // namespace ns3
