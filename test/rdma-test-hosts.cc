/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-test-hosts.h"

#include "ns3/boolean.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/qbb-helper.h"
#include "ns3/qbb-net-device.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace rdmatest
{

TwoHosts::TwoHosts()
{
    Build(Options());
}

TwoHosts::TwoHosts(const Options& options)
{
    Build(options);
}

void
TwoHosts::Build(const Options& o)
{
    nodes.Create(2);
    QbbHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(o.rate));
    link.SetChannelAttribute("Delay", TimeValue(o.delay));
    devices = link.Install(nodes);
    RdmaHelper rdma;
    rdma.SetNicAttribute("DataMode", BooleanValue(o.dataMode));
    rdma.SetNicAttribute("Ecn", UintegerValue(o.ecn));
    if (o.congestionControl.GetTypeId().GetUid() != 0)
    {
        rdma.SetCongestionControl(o.congestionControl);
    }
    rdma.SetLossRecovery(ObjectFactory(o.lossRecovery));
    nicA = rdma.Install(nodes.Get(0), devices.Get(0), Ipv4Address("10.0.0.1"));
    nicB = rdma.Install(nodes.Get(1), devices.Get(1), Ipv4Address("10.0.0.2"));
    if (o.setupA)
    {
        o.setupA(nicA);
    }
    if (o.setupB)
    {
        o.setupB(nicB);
    }
    pdA = nicA->AllocPd();
    pdB = nicB->AllocPd();
    mrA = nicA->RegMr(pdA, VA_A, o.regionBytes, o.regionAccess);
    mrB = nicB->RegMr(pdB, VA_B, o.regionBytes, o.regionAccess);
    cqA = nicA->CreateCq(o.cqDepth);
    cqB = nicB->CreateCq(o.cqDepth);
    if (o.collect)
    {
        auto* a = &wcA;
        auto* b = &wcB;
        cqA->SetCompletionCallback(Callback<void, const RdmaWorkCompletion&>(
            [a](const RdmaWorkCompletion& wc) { a->push_back(wc); }));
        cqB->SetCompletionCallback(Callback<void, const RdmaWorkCompletion&>(
            [b](const RdmaWorkCompletion& wc) { b->push_back(wc); }));
    }
    RdmaQueuePair::InitAttr initA;
    initA.pd = pdA;
    initA.sendCq = cqA;
    initA.recvCq = cqA;
    RdmaQueuePair::InitAttr initB = initA;
    initB.pd = pdB;
    initB.sendCq = cqB;
    initB.recvCq = cqB;
    qpA = nicA->CreateQp(initA);
    qpB = nicB->CreateQp(initB);
    connectResult = RdmaHelper::Connect(qpA, nicA, qpB, nicB, o.connection);
}

void
TwoHosts::SetReceiveErrorModel(uint32_t host, Ptr<ErrorModel> em)
{
    devices.Get(host)->SetAttribute("ReceiveErrorModel", PointerValue(em));
}

void
TwoHosts::Fill(Ptr<RdmaMemoryRegion> mr, uint64_t va, uint64_t length, uint8_t seed)
{
    std::vector<uint8_t> bytes(length);
    for (uint64_t i = 0; i < length; ++i)
    {
        bytes[i] = uint8_t(seed * 31 + i * 7 + (i >> 8));
    }
    mr->Write(va, bytes.data(), length);
}

bool
TwoHosts::Holds(Ptr<RdmaMemoryRegion> mr, uint64_t va, uint64_t length, uint8_t seed)
{
    std::vector<uint8_t> bytes(length);
    mr->Read(va, bytes.data(), length);
    for (uint64_t i = 0; i < length; ++i)
    {
        if (bytes[i] != uint8_t(seed * 31 + i * 7 + (i >> 8)))
        {
            return false;
        }
    }
    return true;
}

RdmaSendWr
TwoHosts::Wr(RdmaWrOpcode op, uint64_t wrId, uint64_t localVa, uint32_t length) const
{
    RdmaSendWr wr;
    wr.wrId = wrId;
    wr.opcode = op;
    wr.sgList.push_back({localVa, length, mrA->GetLkey()});
    wr.rkey = mrB->GetRkey();
    return wr;
}

RdmaRecvWr
TwoHosts::Recv(uint64_t wrId, uint64_t va, uint32_t length) const
{
    RdmaRecvWr wr;
    wr.wrId = wrId;
    wr.sgList.push_back({va, length, mrB->GetLkey()});
    return wr;
}

uint32_t
TwoHosts::Count(const std::vector<RdmaWorkCompletion>& wcs, RdmaWcStatus status)
{
    uint32_t n = 0;
    for (const RdmaWorkCompletion& wc : wcs)
    {
        n += (wc.status == status);
    }
    return n;
}

} // namespace rdmatest
} // namespace ns3
