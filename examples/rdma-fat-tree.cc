/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-fat-tree: a k-ary fat-tree (or an HPCC simulator topology file) of
 * RDMA hosts and switches built by RdmaTopologyHelper, with one RC WRITE
 * flow per host: host i writes --bytes to host (i + H/2) mod H, so in a
 * fat-tree every flow crosses the core. Prints the fabric's counts (hosts,
 * switches, links, route entries, ECMP groups), each flow's completion time
 * against its base RTT plus bytes over the bottleneck, how many flows
 * finished, and the aggregate goodput.
 *
 *   rdma-fat-tree --k=4 --bytes=1048576
 *   rdma-fat-tree --topology=fat.txt --bytes=65536
 *
 * A malformed topology file is reported with its file and line, exit code 1.
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
    uint32_t k = 4;
    uint32_t bytes = 1 << 20;
    std::string topology;
    std::string hostRate = "100Gbps";
    std::string fabricRate = "100Gbps";
    Time delay = MicroSeconds(1);
    bool verbose = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "fat-tree arity (even)", k);
    cmd.AddValue("bytes", "bytes each host writes", bytes);
    cmd.AddValue("topology", "HPCC simulator topology file (instead of the fat-tree)", topology);
    cmd.AddValue("host-rate", "fat-tree host link rate", hostRate);
    cmd.AddValue("fabric-rate", "fat-tree switch-to-switch link rate", fabricRate);
    cmd.AddValue("delay", "fat-tree link propagation delay", delay);
    cmd.AddValue("verbose", "print every flow", verbose);
    cmd.Parse(argc, argv);

    RdmaTopologySpec spec;
    try
    {
        RdmaLinkParams host;
        host.rate = DataRate(hostRate);
        host.delay = delay;
        RdmaLinkParams fabric = host;
        fabric.rate = DataRate(fabricRate);
        spec = topology.empty() ? RdmaTopologySpec::FatTree(k, host, fabric, fabric)
                                : RdmaHpccTopologyReader::ReadFile(topology);
        spec.Validate();
    }
    catch (const RdmaTopologyError& e)
    {
        std::cerr << "rdma-fat-tree: " << e.what() << std::endl;
        return 1;
    }

    RdmaTopologyHelper topo;
    topo.Install(spec);
    topo.AssignStreams(1);
    const uint32_t n = topo.GetNHosts();
    uint64_t routes = 0;
    uint64_t ecmp = 0;
    for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            const auto* g = topo.GetSwitch(s)->GetRoutes().Lookup(topo.GetHostAddress(d).Get());
            routes += g ? g->size() : 0;
            ecmp += (g && g->size() > 1) ? 1 : 0;
        }
    }
    std::cout << spec.name << ": " << n << " hosts, " << topo.GetNSwitches() << " switches, "
              << topo.GetNLinks() << " links, " << routes << " route entries, " << ecmp
              << " ECMP groups" << std::endl;

    // One WRITE per host, i -> (i + n/2) mod n.
    std::vector<Ptr<RdmaMemoryRegion>> mrs;
    std::vector<Ptr<RdmaCompletionQueue>> cqs;
    std::vector<Ptr<RdmaQueuePair>> qps;
    std::vector<Time> done(n, Time(-1));
    for (uint32_t h = 0; h < n; ++h)
    {
        Ptr<RdmaNic> nic = topo.GetNic(h);
        Ptr<RdmaProtectionDomain> pd = nic->AllocPd();
        mrs.push_back(nic->RegMr(pd,
                                 0,
                                 2 * uint64_t(bytes),
                                 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
        cqs.push_back(nic->CreateCq(16));
    }
    for (uint32_t h = 0; h < n; ++h)
    {
        const uint32_t d = (h + n / 2) % n;
        RdmaQueuePair::InitAttr ia;
        ia.pd = mrs[h]->GetPd();
        ia.sendCq = ia.recvCq = cqs[h];
        Ptr<RdmaQueuePair> a = topo.GetNic(h)->CreateQp(ia);
        ia.pd = mrs[d]->GetPd();
        ia.sendCq = ia.recvCq = cqs[d];
        Ptr<RdmaQueuePair> b = topo.GetNic(d)->CreateQp(ia);
        NS_ABORT_MSG_IF(RdmaHelper::Connect(a, topo.GetNic(h), b, topo.GetNic(d)) != 0, "connect");
        qps.push_back(a);
        cqs[h]->SetCompletionCallback(
            Callback<void, const RdmaWorkCompletion&>([&done, h](const RdmaWorkCompletion& wc) {
                if (wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RDMA_WRITE)
                {
                    done[h] = Simulator::Now();
                }
            }));
        RdmaSendWr wr;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.sgList.push_back({0, bytes, mrs[h]->GetLkey()});
        wr.remoteAddr = bytes;
        wr.rkey = mrs[d]->GetRkey();
        a->PostSend(wr);
    }
    Simulator::Run();

    uint32_t finished = 0;
    Time last;
    const RdmaPathFunction pathOf = topo.GetPaths().GetPathFunction(1024 + 58, 62);
    for (uint32_t h = 0; h < n; ++h)
    {
        const uint32_t d = (h + n / 2) % n;
        if (done[h].IsNegative())
        {
            continue;
        }
        ++finished;
        last = Max(last, done[h]);
        if (verbose)
        {
            // Ideal FCT (RdmaIdealFct: HPCC's formula with this wire's 82
            // bytes per 1024-byte packet) over the base RTT of a full
            // 1082-byte WRITE_MIDDLE frame and a 62-byte ACK.
            const RdmaPathInfo path = pathOf(h, d);
            const Time ideal = RdmaIdealFct().Compute(bytes, path.baseRtt, path.bottleneck);
            std::cout << "flow " << h << " -> " << d << ": " << done[h].GetMicroSeconds()
                      << " us (ideal " << ideal.GetMicroSeconds() << " us, slowdown "
                      << done[h].GetSeconds() / ideal.GetSeconds() << ")" << std::endl;
        }
    }
    std::cout << "flows done: " << finished << "/" << n << std::endl;
    if (finished > 0)
    {
        std::cout << "aggregate goodput: " << double(finished) * bytes * 8 / last.GetSeconds() / 1e9
                  << " Gb/s over " << last.GetMicroSeconds() << " us" << std::endl;
    }
    Simulator::Destroy();
    return finished == n ? 0 : 2;
}
