/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-test-star.h"

#include "ns3/boolean.h"
#include "ns3/qbb-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace rdmatest
{

Star::Star(const Options& o)
    : connection(o.connection)
{
    hosts.Create(o.hosts);
    switchNode = CreateObject<Node>();
    sw = CreateObject<RdmaSwitch>();
    switchNode->AggregateObject(sw);
    if (o.configure)
    {
        o.configure(sw);
    }
    QbbHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(o.rate));
    link.SetChannelAttribute("Delay", TimeValue(o.delay));
    link.SetDeviceAttribute("Mtu", UintegerValue(o.deviceMtu));
    RdmaHelper rdma;
    rdma.SetNicAttribute("DataMode", BooleanValue(false));
    wcs.resize(o.hosts);
    for (uint32_t i = 0; i < o.hosts; ++i)
    {
        NetDeviceContainer d = link.Install(hosts.Get(i), switchNode);
        hostPorts.push_back(DynamicCast<QbbNetDevice>(d.Get(0)));
        switchPorts.push_back(DynamicCast<QbbNetDevice>(d.Get(1)));
        // The MMU decides admission, not the port's own queue limit.
        switchPorts.back()->GetTxQueue()->SetAttribute("MaxBytes", UintegerValue(1ULL << 32));
        NS_ABORT_UNLESS(sw->AddPort(switchPorts.back()) == i);
        Ipv4Address addr(0x0A000001 + i);
        addresses.push_back(addr);
        sw->AddRoute(addr, i);
        nics.push_back(rdma.Install(hosts.Get(i), hostPorts.back(), addr));
        pds.push_back(nics.back()->AllocPd());
        mrs.push_back(nics.back()->RegMr(pds.back(),
                                         VA,
                                         o.regionBytes,
                                         IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                             IBV_ACCESS_REMOTE_READ));
        cqs.push_back(nics.back()->CreateCq(1 << 16));
        std::vector<RdmaWorkCompletion>* sink = &wcs[i];
        cqs.back()->SetCompletionCallback(Callback<void, const RdmaWorkCompletion&>(
            [sink](const RdmaWorkCompletion& wc) { sink->push_back(wc); }));
    }
}

Ptr<RdmaQueuePair>
Star::Connect(uint32_t a, uint32_t b)
{
    RdmaQueuePair::InitAttr ia;
    ia.pd = pds[a];
    ia.sendCq = cqs[a];
    ia.recvCq = cqs[a];
    RdmaQueuePair::InitAttr ib;
    ib.pd = pds[b];
    ib.sendCq = cqs[b];
    ib.recvCq = cqs[b];
    Ptr<RdmaQueuePair> qa = nics[a]->CreateQp(ia);
    Ptr<RdmaQueuePair> qb = nics[b]->CreateQp(ib);
    NS_ABORT_UNLESS(RdmaHelper::Connect(qa, nics[a], qb, nics[b], connection) == 0);
    return qa;
}

int
Star::PostWrite(Ptr<RdmaQueuePair> qp, uint32_t a, uint32_t b, uint64_t wrId, uint32_t length)
{
    RdmaSendWr wr;
    wr.wrId = wrId;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.sgList.push_back({VA, length, mrs[a]->GetLkey()});
    wr.remoteAddr = VA;
    wr.rkey = mrs[b]->GetRkey();
    return qp->PostSend(wr);
}

uint32_t
Star::Count(uint32_t host, RdmaWcStatus status) const
{
    uint32_t n = 0;
    for (const RdmaWorkCompletion& wc : wcs[host])
    {
        n += wc.status == status;
    }
    return n;
}

StarJob::StarJob(uint32_t hosts, RdmaJob job, const std::string& reduceRate, bool fastForward)
{
    Star::Options o;
    o.hosts = hosts;
    star = std::make_unique<Star>(o);
    runner = CreateObject<RdmaCollectiveRunner>();
    runner->SetAttribute("ReduceRate", DataRateValue(DataRate(reduceRate)));
    runner->SetAttribute("FastForward", BooleanValue(fastForward));
    runner->SetHosts(star->nics);
    if (job.hosts.empty())
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            job.hosts.push_back(h);
        }
    }
    runner->AddJob(job);
    runner->SetAllDoneCallback(MakeCallback(static_cast<void (*)()>(&Simulator::Stop)));
    runner->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    records = runner->GetCollectiveRecords();
    iterations = runner->GetIterationRecords();
}

StarJob::~StarJob()
{
    runner->Dispose();
    runner = nullptr;
    star.reset();
    Simulator::Destroy();
}

} // namespace rdmatest
} // namespace ns3
