/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-pfc-link: PFC on one link. Host A streams RDMA WRITEs to host B
 * over a 100 Gb/s link (DSCP 26, so traffic class 3). B's port holds A's
 * class 3 paused from --hold-start to --hold-end: it sends a pause of
 * --quanta quanta (512 bit times each), sends it again --margin before it
 * would expire, and sends XON at the release. A one-shot pause of class 5
 * (which carries nothing) shows a second class-enable vector in the capture.
 *
 * Prints every PFC frame B sent, how long A's class 3 was paused, and the
 * WRITEs' completions; --pcap=PREFIX writes PREFIX-<node>-0.pcap of both
 * ports, --manifest=FILE a TSV of the PFC frames (time in ps, sender node,
 * class, quanta). Read the pause frames with
 *
 *   tshark -r PREFIX-1-0.pcap -Y 'macc.opcode==0x0101' -T fields \
 *     -e frame.time_relative -e macc.cbfc.enbv -e macc.cbfc.pause_time.c3
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <fstream>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

/// One PFC class entry of a transmitted frame (QbbPfcController PauseTx).
struct PfcEntry
{
    Time t;          //!< transmission start
    uint32_t node;   //!< sending node
    uint8_t cls;     //!< class
    uint16_t quanta; //!< pause time (0 = XON)
};

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);
    Time holdStart = MicroSeconds(20);
    Time holdEnd = MicroSeconds(60);
    uint32_t quanta = 2000;
    Time margin = MicroSeconds(2);
    uint32_t messages = 2;
    std::string pcap;
    std::string manifest;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.AddValue("hold-start", "when B starts holding A's class 3 paused", holdStart);
    cmd.AddValue("hold-end", "when B releases it (XON)", holdEnd);
    cmd.AddValue("quanta", "pause time of each pause frame, quanta of 512 bit times", quanta);
    cmd.AddValue("margin", "refresh this long before the previous pause expires", margin);
    cmd.AddValue("messages", "1 MiB WRITEs A sends", messages);
    cmd.AddValue("pcap", "write <prefix>-<node>-0.pcap of both ports", pcap);
    cmd.AddValue("manifest", "TSV of the PFC frames sent (time_ps node class quanta)", manifest);
    cmd.Parse(argc, argv);
    if (quanta == 0 || quanta > 0xFFFF || holdEnd <= holdStart ||
        margin >= PfcHeader::QuantaToTime(quanta, DataRate(rate)))
    {
        std::cerr << "rdma-pfc-link: need 1 <= --quanta <= 65535, --hold-end after "
                     "--hold-start, and --margin below the pause time\n";
        return 2;
    }

    NodeContainer nodes(2);
    QbbHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetPfcAttribute("PauseQuanta", UintegerValue(quanta));
    link.SetPfcAttribute("RefreshMargin", TimeValue(margin));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer devs = link.Install(nodes);
    if (!pcap.empty())
    {
        link.EnablePcapAll(pcap);
    }
    Ptr<QbbNetDevice> portA = DynamicCast<QbbNetDevice>(devs.Get(0));
    Ptr<QbbNetDevice> portB = DynamicCast<QbbNetDevice>(devs.Get(1));

    std::vector<PfcEntry> sent;
    for (uint32_t n = 0; n < 2; ++n)
    {
        DynamicCast<QbbNetDevice>(devs.Get(n))->GetPfcController()->TraceConnectWithoutContext(
            "PauseTx",
            Callback<void, uint8_t, uint16_t>([&sent, n](uint8_t c, uint16_t q) {
                sent.push_back({Simulator::Now(), n, c, q});
            }));
    }

    RdmaHelper rdma;
    Ptr<RdmaNic> nicA = rdma.Install(nodes.Get(0), devs.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> nicB = rdma.Install(nodes.Get(1), devs.Get(1), Ipv4Address("10.0.0.2"));
    const uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    Ptr<RdmaProtectionDomain> pdA = nicA->AllocPd();
    Ptr<RdmaProtectionDomain> pdB = nicB->AllocPd();
    Ptr<RdmaMemoryRegion> mrA = nicA->RegMr(pdA, 0x10000, 1 << 20, access);
    Ptr<RdmaMemoryRegion> mrB = nicB->RegMr(pdB, 0x80000000, 1 << 20, access);
    Ptr<RdmaCompletionQueue> cqA = nicA->CreateCq(64);
    Ptr<RdmaCompletionQueue> cqB = nicB->CreateCq(64);
    RdmaQueuePair::InitAttr init;
    init.pd = pdA;
    init.sendCq = cqA;
    init.recvCq = cqA;
    Ptr<RdmaQueuePair> qpA = nicA->CreateQp(init);
    init.pd = pdB;
    init.sendCq = cqB;
    init.recvCq = cqB;
    Ptr<RdmaQueuePair> qpB = nicB->CreateQp(init);
    RdmaConnectionConfig cfg; // DSCP 26: class 3 under the default DscpToClass
    if (RdmaHelper::Connect(qpA, nicA, qpB, nicB, cfg) != 0)
    {
        std::cerr << "rdma-pfc-link: connecting the QPs failed\n";
        return 1;
    }
    for (uint32_t i = 0; i < messages; ++i)
    {
        RdmaSendWr w;
        w.wrId = i;
        w.opcode = IBV_WR_RDMA_WRITE;
        w.sgList.push_back({0x10000, 1 << 20, mrA->GetLkey()});
        w.remoteAddr = 0x80000000;
        w.rkey = mrB->GetRkey();
        qpA->PostSend(w);
    }

    const uint8_t data = 3;
    const uint8_t idle = 5;
    Simulator::Schedule(holdStart, &QbbPfcController::SetHold, portB->GetPfcController(), data, true);
    Simulator::Schedule(holdEnd, &QbbPfcController::SetHold, portB->GetPfcController(), data, false);
    Simulator::Schedule(MicroSeconds(5),
                        &QbbPfcController::SendPause,
                        portB->GetPfcController(),
                        idle,
                        uint16_t{1234});
    Simulator::Schedule(MicroSeconds(8), &QbbPfcController::SendResume, portB->GetPfcController(), idle);
    Simulator::Run();

    std::cout << "rdma-pfc-link: " << rate << ", " << delay.As(Time::US) << " one way; B holds "
              << "class 3 from " << holdStart.As(Time::US) << " to " << holdEnd.As(Time::US)
              << " with " << quanta << " quanta ("
              << PfcHeader::QuantaToTime(quanta, DataRate(rate)).As(Time::US) << "), margin "
              << margin.As(Time::US) << "\n\nPFC frames sent (start of transmission):\n";
    for (const PfcEntry& e : sent)
    {
        std::cout << "  " << e.t.As(Time::US) << "  node " << e.node << "  class " << +e.cls << "  "
                  << (e.quanta ? std::to_string(e.quanta) + " quanta" : "XON") << "\n";
    }
    uint32_t ok = 0;
    for (const RdmaWorkCompletion& wc : cqA->Poll(messages))
    {
        ok += wc.status == IBV_WC_SUCCESS;
    }
    const QbbPfcController::Stats& a = portA->GetPfcController()->GetStats();
    std::cout << "\nA's class 3 paused for " << a.pausedTime[3].As(Time::US) << " (pauses received "
              << a.pauseRx[3] << ", XON " << a.resumeRx[3] << "); class 5 paused for "
              << a.pausedTime[5].As(Time::US) << "\nWRITEs completed: " << ok << " of " << messages
              << "\n";
    if (!manifest.empty())
    {
        std::ofstream os(manifest);
        os << "time_ps\tnode\tclass\tquanta\n";
        for (const PfcEntry& e : sent)
        {
            os << e.t.GetPicoSeconds() << "\t" << e.node << "\t" << +e.cls << "\t" << e.quanta
               << "\n";
        }
        if (!os)
        {
            std::cerr << "rdma-pfc-link: cannot write manifest '" << manifest << "'\n";
            return 1;
        }
    }
    Simulator::Destroy();
    return ok == messages ? 0 : 1;
}
