/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-incast: N senders WRITE to one receiver through one RdmaSwitch
 * (a star, every link --rate with --delay). With PFC on (the default) the
 * switch's MMU pauses the senders when their ingress crosses the dynamic
 * threshold and nothing is dropped; with --pfc=0 the lossy class drops at
 * its ingress limit and go-back-N retransmits.
 *
 * Prints the switch's XOFF/XON decisions and pause frames, drops by
 * reason, the largest headroom used against the computed headroom, ECN
 * marks, and the goodput of the receiver's link.
 *
 *   ./rdma-incast --senders=16 --writes=4 --size=131072 --buffer=2097152
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <iostream>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    uint32_t senders = 8;
    uint32_t writes = 4;
    uint32_t size = 128 * 1024;
    uint64_t buffer = 2 * 1024 * 1024;
    bool pfc = true;
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);

    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "number of senders", senders);
    cmd.AddValue("writes", "WRITEs per sender", writes);
    cmd.AddValue("size", "bytes per WRITE", size);
    cmd.AddValue("buffer", "switch buffer, bytes", buffer);
    cmd.AddValue("pfc", "PFC on (1) or off (0)", pfc);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.Parse(argc, argv);

    const uint32_t hosts = senders + 1;
    const uint32_t rx = senders;
    Ptr<Node> switchNode = CreateObject<Node>();
    Ptr<RdmaSwitch> sw = CreateObject<RdmaSwitch>();
    switchNode->AggregateObject(sw);
    sw->GetMmu()->SetAttribute("BufferSize", UintegerValue(buffer));
    sw->GetMmu()->SetAttribute("PfcEnabled", BooleanValue(pfc));
    QbbHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    RdmaHelper rdma;
    rdma.SetNicAttribute("DataMode", BooleanValue(false));
    NodeContainer nodes;
    nodes.Create(hosts);
    std::vector<Ptr<RdmaNic>> nics;
    std::vector<Ptr<QbbNetDevice>> ports;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        NetDeviceContainer d = link.Install(nodes.Get(i), switchNode);
        auto port = DynamicCast<QbbNetDevice>(d.Get(1));
        port->GetTxQueue()->SetAttribute("MaxBytes", UintegerValue(1ULL << 32));
        sw->AddPort(port);
        ports.push_back(port);
        Ipv4Address addr(0x0A000001 + i);
        sw->AddRoute(addr, i);
        nics.push_back(rdma.Install(nodes.Get(i), d.Get(0), addr));
    }
    const uint64_t va = 0x10000;
    const uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    Ptr<RdmaProtectionDomain> rxPd = nics[rx]->AllocPd();
    Ptr<RdmaMemoryRegion> rxMr = nics[rx]->RegMr(rxPd, va, size, access);
    Ptr<RdmaCompletionQueue> rxCq = nics[rx]->CreateCq(1 << 16);
    uint32_t completed = 0;
    Time lastCompletion;
    RdmaConnectionConfig config;
    config.timeout = 10; // 4.2 ms
    for (uint32_t s = 0; s < senders; ++s)
    {
        Ptr<RdmaProtectionDomain> pd = nics[s]->AllocPd();
        Ptr<RdmaMemoryRegion> mr = nics[s]->RegMr(pd, va, size, access);
        Ptr<RdmaCompletionQueue> cq = nics[s]->CreateCq(1 << 16);
        cq->SetCompletionCallback(Callback<void, const RdmaWorkCompletion&>(
            [&completed, &lastCompletion](const RdmaWorkCompletion& wc) {
                completed += wc.status == IBV_WC_SUCCESS;
                lastCompletion = Simulator::Now();
            }));
        RdmaQueuePair::InitAttr ia;
        ia.pd = pd;
        ia.sendCq = cq;
        ia.recvCq = cq;
        RdmaQueuePair::InitAttr ib;
        ib.pd = rxPd;
        ib.sendCq = rxCq;
        ib.recvCq = rxCq;
        Ptr<RdmaQueuePair> qa = nics[s]->CreateQp(ia);
        Ptr<RdmaQueuePair> qb = nics[rx]->CreateQp(ib);
        RdmaHelper::Connect(qa, nics[s], qb, nics[rx], config);
        for (uint32_t w = 0; w < writes; ++w)
        {
            RdmaSendWr wr;
            wr.wrId = w;
            wr.opcode = IBV_WR_RDMA_WRITE;
            wr.sgList.push_back({va, size, mr->GetLkey()});
            wr.remoteAddr = va;
            wr.rkey = rxMr->GetRkey();
            qa->PostSend(wr);
        }
    }

    Simulator::Run();

    const RdmaSwitch::Stats& st = sw->GetStats();
    uint64_t pauseFrames = 0;
    uint64_t maxHeadroom = 0;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        pauseFrames += ports[i]->GetPfcController()->GetStats().framesTx;
        maxHeadroom = std::max(maxHeadroom, sw->GetMmu()->GetMaxHeadroomUsed(i, 3));
    }
    const double bytes = double(senders) * writes * size;
    std::cout << senders << "-to-1 incast, " << writes << " x " << size << " B per sender, PFC "
              << (pfc ? "on" : "off") << ", buffer " << buffer << " B\n"
              << "  XOFF " << st.pfcXoff << ", XON " << st.pfcXon << ", PFC frames sent "
              << pauseFrames << "\n"
              << "  max headroom used " << maxHeadroom << " of " << sw->GetMmu()->GetHeadroom(0)
              << " B per port\n"
              << "  drops:";
    for (uint32_t r = DROP_NONE + 1; r <= DROP_TTL_EXPIRED; ++r)
    {
        std::cout << " " << RdmaDropReasonName(RdmaDropReason(r)) << "=" << st.drops[RdmaDropReason(r)];
    }
    std::cout << "\n  ECN marks " << st.ecnMarked << "\n"
              << "  WRITEs completed " << completed << " of " << senders * writes << ", last at "
              << lastCompletion.As(Time::US) << ", goodput "
              << bytes * 8 / lastCompletion.GetSeconds() / 1e9 << " Gb/s" << std::endl;
    Simulator::Destroy();
    return completed == senders * writes ? 0 : 1;
}
