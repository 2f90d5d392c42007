/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-two-nodes: two hosts back to back over a 100 Gb/s link, one RC QP
 * each, running every operation (SEND, SEND with immediate, RDMA WRITE,
 * WRITE with immediate, RDMA READ, COMPARE_SWAP, FETCH_ADD) in data mode,
 * then a stream of WRITEs for goodput. Prints a summary: each operation's
 * completion status and latency, the bytes checked, goodput, and the
 * transport's counters. Optional pcap of both ports (--pcap=PREFIX) and
 * random loss (--loss=0.01) with either loss-recovery policy.
 *
 *   ./rdma-two-nodes --pcap=two-nodes --loss=0.01 --recovery=ns3::RdmaSelectiveRepeat
 */

#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

const uint64_t VA_A = 0x10000;
const uint64_t VA_B = 0x80000000;

void
FillPattern(Ptr<RdmaMemoryRegion> mr, uint64_t va, uint32_t length, uint8_t seed)
{
    std::vector<uint8_t> bytes(length);
    for (uint32_t i = 0; i < length; ++i)
    {
        bytes[i] = uint8_t(seed + i * 13);
    }
    mr->Write(va, bytes.data(), length);
}

bool
Same(Ptr<RdmaMemoryRegion> a, uint64_t va, Ptr<RdmaMemoryRegion> b, uint64_t vb, uint32_t length)
{
    std::vector<uint8_t> x(length);
    std::vector<uint8_t> y(length);
    a->Read(va, x.data(), length);
    b->Read(vb, y.data(), length);
    return x == y;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string rate = "100Gbps";
    Time delay = NanoSeconds(1000);
    std::string pcap;
    double loss = 0;
    std::string recovery = "ns3::RdmaGoBackN";
    uint32_t mtu = 4096;
    uint32_t streamMessages = 64;
    uint32_t messageSize = 1 << 20;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.AddValue("pcap", "write <prefix>-<node>-<device>.pcap of both ports", pcap);
    cmd.AddValue("loss", "packet loss probability on each receiving port (0-1)", loss);
    cmd.AddValue("recovery", "ns3::RdmaGoBackN or ns3::RdmaSelectiveRepeat", recovery);
    cmd.AddValue("mtu", "path MTU bytes (256-4096)", mtu);
    cmd.AddValue("messages", "WRITEs in the goodput stream", streamMessages);
    cmd.AddValue("size", "bytes of each streamed WRITE", messageSize);
    cmd.Parse(argc, argv);
    RdmaMtu mtuCode = IBV_MTU_256;
    while (mtuCode < IBV_MTU_4096 && RdmaMtuBytes(mtuCode) < mtu)
    {
        mtuCode = static_cast<RdmaMtu>(mtuCode + 1);
    }
    if (RdmaMtuBytes(mtuCode) != mtu || loss < 0 || loss >= 1 ||
        (recovery != "ns3::RdmaGoBackN" && recovery != "ns3::RdmaSelectiveRepeat"))
    {
        std::cerr << "rdma-two-nodes: --mtu must be 256, 512, 1024, 2048 or 4096, --loss in "
                     "[0, 1), --recovery ns3::RdmaGoBackN or ns3::RdmaSelectiveRepeat\n";
        return 2;
    }

    NodeContainer nodes(2);
    QbbHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer devs = link.Install(nodes);
    if (loss > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            auto em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(loss);
            em->AssignStreams(10 + i);
            devs.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    if (!pcap.empty())
    {
        link.EnablePcapAll(pcap);
    }

    RdmaHelper rdma;
    rdma.SetNicAttribute("DataMode", BooleanValue(true));
    Ptr<RdmaNic> nicA = rdma.Install(nodes.Get(0), devs.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> nicB = rdma.Install(nodes.Get(1), devs.Get(1), Ipv4Address("10.0.0.2"));
    ObjectFactory policy(recovery);
    nicA->SetQpAttribute("LossRecovery", PointerValue(policy.Create<RdmaLossRecovery>()));
    nicB->SetQpAttribute("LossRecovery", PointerValue(policy.Create<RdmaLossRecovery>()));
    const uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                            IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    uint64_t regionBytes = std::max<uint64_t>(4 << 20, 2ULL * messageSize);
    Ptr<RdmaProtectionDomain> pdA = nicA->AllocPd();
    Ptr<RdmaProtectionDomain> pdB = nicB->AllocPd();
    Ptr<RdmaMemoryRegion> mrA = nicA->RegMr(pdA, VA_A, regionBytes, access);
    Ptr<RdmaMemoryRegion> mrB = nicB->RegMr(pdB, VA_B, regionBytes, access);
    Ptr<RdmaCompletionQueue> cqA = nicA->CreateCq(4096);
    Ptr<RdmaCompletionQueue> cqB = nicB->CreateCq(4096);
    RdmaQueuePair::InitAttr init;
    init.pd = pdA;
    init.sendCq = cqA;
    init.recvCq = cqA;
    Ptr<RdmaQueuePair> qpA = nicA->CreateQp(init);
    init.pd = pdB;
    init.sendCq = cqB;
    init.recvCq = cqB;
    Ptr<RdmaQueuePair> qpB = nicB->CreateQp(init);
    RdmaConnectionConfig cfg;
    cfg.pathMtu = mtuCode;
    cfg.timeout = 8; // 1.05 ms
    cfg.psnA = 0xFFFFF0;
    if (RdmaHelper::Connect(qpA, nicA, qpB, nicB, cfg) != 0)
    {
        std::cerr << "rdma-two-nodes: connecting the QPs failed\n";
        return 1;
    }

    FillPattern(mrA, VA_A, 1 << 20, 1);
    FillPattern(mrB, VA_B + (2 << 20), 1 << 16, 2);
    mrB->WriteU64(VA_B + (3 << 20), 40);
    auto wr = [&](RdmaWrOpcode op, uint64_t id, uint64_t localVa, uint32_t len, uint64_t remote) {
        RdmaSendWr w;
        w.wrId = id;
        w.opcode = op;
        w.sgList.push_back({localVa, len, mrA->GetLkey()});
        w.remoteAddr = remote;
        w.rkey = mrB->GetRkey();
        return w;
    };
    RdmaRecvWr r1;
    r1.wrId = 101;
    r1.sgList.push_back({VA_B + (1 << 20), 65536, mrB->GetLkey()});
    RdmaRecvWr r2 = r1;
    r2.wrId = 102;
    r2.sgList[0].addr += 65536;
    RdmaRecvWr r3 = r2;
    r3.wrId = 103;
    r3.sgList[0].addr += 65536;
    qpB->PostRecv(r1);
    qpB->PostRecv(r2);
    qpB->PostRecv(r3);

    const char* names[] = {"SEND 64 KiB",
                           "SEND_WITH_IMM 100 B",
                           "RDMA_WRITE 256 KiB",
                           "RDMA_WRITE_WITH_IMM 1 KiB",
                           "RDMA_READ 64 KiB",
                           "COMPARE_SWAP",
                           "FETCH_ADD +2"};
    qpA->PostSend(wr(IBV_WR_SEND, 1, VA_A, 65536, 0));
    RdmaSendWr si = wr(IBV_WR_SEND_WITH_IMM, 2, VA_A, 100, 0);
    si.immData = 0xcafe;
    qpA->PostSend(si);
    qpA->PostSend(wr(IBV_WR_RDMA_WRITE, 3, VA_A, 262144, VA_B));
    RdmaSendWr wi = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 4, VA_A, 1024, VA_B + 262144);
    wi.immData = 0xbeef;
    qpA->PostSend(wi);
    qpA->PostSend(wr(IBV_WR_RDMA_READ, 5, VA_A + (2 << 20), 65536, VA_B + (2 << 20)));
    RdmaSendWr cs = wr(IBV_WR_ATOMIC_CMP_AND_SWP, 6, VA_A + (3 << 20), 8, VA_B + (3 << 20));
    cs.compareAdd = 40;
    cs.swap = 100;
    qpA->PostSend(cs);
    RdmaSendWr fa = wr(IBV_WR_ATOMIC_FETCH_AND_ADD, 7, VA_A + (3 << 20) + 8, 8, VA_B + (3 << 20));
    fa.compareAdd = 2;
    qpA->PostSend(fa);
    Simulator::Run();

    std::cout << "rdma-two-nodes: " << rate << ", " << delay.As(Time::US) << " one way, path MTU "
              << mtu << ", " << recovery << ", loss " << loss << "\n\n";
    std::cout << std::left << std::setw(28) << "operation" << std::setw(24) << "status"
              << "latency\n";
    bool ok = true;
    for (const RdmaWorkCompletion& wc : cqA->Poll(16))
    {
        std::cout << std::setw(28) << names[wc.wrId - 1] << std::setw(24)
                  << RdmaWcStatusName(wc.status) << (wc.completed - wc.posted).As(Time::US) << "\n";
        ok = ok && wc.status == IBV_WC_SUCCESS;
    }
    uint32_t received = 0;
    for (const RdmaWorkCompletion& wc : cqB->Poll(16))
    {
        received += wc.status == IBV_WC_SUCCESS;
    }
    bool bytes = Same(mrA, VA_A, mrB, VA_B + (1 << 20), 65536) &&
                 Same(mrA, VA_A, mrB, VA_B, 262144) &&
                 Same(mrA, VA_A + (2 << 20), mrB, VA_B + (2 << 20), 65536) &&
                 mrB->ReadU64(VA_B + (3 << 20)) == 102 && mrA->ReadU64(VA_A + (3 << 20)) == 40 &&
                 mrA->ReadU64(VA_A + (3 << 20) + 8) == 100;
    std::cout << "\nreceive completions on B: " << received
              << " of 3; bytes placed as expected: " << (bytes ? "yes" : "NO") << "\n";

    // Goodput: a stream of WRITEs.
    Time start = Simulator::Now();
    for (uint32_t i = 0; i < streamMessages; ++i)
    {
        qpA->PostSend(wr(IBV_WR_RDMA_WRITE, 1000 + i, VA_A, messageSize, VA_B));
    }
    Simulator::Run();
    std::vector<RdmaWorkCompletion> stream = cqA->Poll(streamMessages);
    Time end = stream.empty() ? start : stream.back().completed;
    double seconds = (end - start).GetSeconds();
    double goodput = seconds > 0 ? double(streamMessages) * messageSize * 8 / seconds : 0;
    double formula = DataRate(rate).GetBitRate() * double(mtu) / (mtu + 82);
    std::cout << std::fixed << std::setprecision(3) << "goodput of " << streamMessages << " x "
              << messageSize << " B WRITEs: " << goodput / 1e9
              << " Gb/s (R x P/(P+82) = " << formula / 1e9 << " Gb/s)\n";
    const RdmaQueuePair::Stats& a = qpA->GetStats();
    const RdmaQueuePair::Stats& b = qpB->GetStats();
    std::cout << "A: packets " << a.packetsSent << ", retransmitted " << a.retransmissions
              << ", timeouts " << a.timeouts << ", NAKs received " << a.nakSeqReceived << "\n"
              << "B: packets " << b.packetsSent << ", NAKs sent " << b.nakSeqSent << ", duplicates "
              << b.duplicates << ", out of sequence " << b.outOfSequence << ", ICRC drops "
              << nicB->GetStats().rxDrops[DROP_BAD_ICRC] << "\n";
    Simulator::Destroy();
    return (ok && bytes && received == 3 && stream.size() == streamMessages) ? 0 : 1;
}
