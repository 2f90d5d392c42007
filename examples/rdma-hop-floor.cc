/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-hop-floor: what ns-3's core alone costs per link transmission on a
 * fabric workload, a floor for the speed of any model built on it (a
 * benchmark, not a model). It carries the flows of an HPCC flow file over
 * an HPCC topology file with nothing but what every packet-level ns-3
 * model does per hop: one scheduled event per hop carrying the frame, a
 * peek at the frame's first bytes, a route lookup with ECMP and the wire
 * time of the frame (an output FIFO kept as the time the port is free).
 * No buffer limit, no PFC, no ECN, no congestion control: each flow keeps
 * --window data frames of --mtu payload bytes in flight and every data frame
 * is answered by a 64-byte ACK, as under HPCC in the HPCC simulator and in
 * rdma-sim, so the link transmissions per data packet are comparable.
 *
 *   --frames=packet  each frame is an ns-3 Packet made at its source (a
 *                    58-byte header stack and a virtual zero payload), the
 *                    head copied out at each hop (default)
 *   --frames=pod     each frame is a 16-byte struct copied into the event:
 *                    the scheduler and event allocation alone
 *
 * Prints link transmissions, scheduler events, data packets delivered and
 * their rates per wall second of Simulator::Run, and the peak RSS. Example
 * (the 1 ms WebSearch file of the HPCC paper's 320-host fat tree, the
 * default, from the module's data/ or $RDMA_DATA_DIR):
 *
 *   ./rdma-hop-floor --topology=data/topology/fat.txt \
 *       --flows=data/flows/ws_fat_l30_t0.001.txt
 *
 * Or a generated k-ary fat tree (rdma-sim's topology.type = fat-tree with its
 * default links: 100 Gb/s, 1 us) and a random permutation of equal flows at
 * time 0 (rdma-sim's traffic.pattern = permutation), to see how the floor's
 * own cost per hop grows with the fabric:
 *
 *   ./rdma-hop-floor --fatTreeK=16 --permutationBytes=2000000
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <chrono>
#include <cstring>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Bytes of the header stack a data frame carries (Ethernet, IPv4, UDP,
/// BTH, RETH): what a switch copies out to route it.
const uint32_t HEAD_BYTES = 58;
/// Offset of the destination host (the IPv4 destination's place).
const uint32_t DST_OFFSET = 30;
/// Offset of the flow id (the BTH destination QP's place).
const uint32_t FLOW_OFFSET = 46;
/// Offset of the kind: 0 data, 1 ACK (the BTH opcode's place).
const uint32_t KIND_OFFSET = 42;
/// Bytes of an ACK frame.
const uint32_t ACK_BYTES = 64;
/// Preamble, start delimiter and inter-frame gap on the wire, bytes.
const uint32_t WIRE_OVERHEAD = 20;

/// A frame as the pod variant carries it.
struct Pod
{
    uint32_t flow;    //!< flow index
    uint32_t dstHost; //!< destination host index
    uint32_t bytes;   //!< frame bytes
    uint32_t ack;     //!< 1 for an ACK
};

/// The fabric and the flows of one run.
class Floor
{
  public:
    Floor(const RdmaTopologySpec& spec,
          const RdmaRouteComputer& routes,
          const std::vector<RdmaFlow>& flows,
          bool pod)
        : m_routes(routes),
          m_spec(spec),
          m_flows(flows),
          m_pod(pod)
    {
        const uint32_t nNodes = spec.GetNNodes();
        m_portFree.assign(spec.links.size() * 2, Time(0));
        m_nextPorts.resize(nNodes);
        for (uint32_t node = 0; node < nNodes; ++node)
        {
            if (!spec.isSwitch[node])
            {
                continue;
            }
            auto& table = m_nextPorts[node];
            table.resize(m_routes.GetNHosts());
            for (uint32_t h = 0; h < m_routes.GetNHosts(); ++h)
            {
                for (uint32_t i = 0; i < m_routes.GetNNextHops(node, h); ++i)
                {
                    table[h].push_back(m_routes.GetNextHop(node, h, i));
                }
            }
        }
        m_state.resize(flows.size());
    }

    void Start(uint32_t mtu, uint32_t window)
    {
        m_mtu = mtu;
        m_window = window;
        for (uint32_t i = 0; i < m_flows.size(); ++i)
        {
            Simulator::Schedule(m_flows[i].start, &Floor::StartFlow, this, i);
        }
    }

    uint64_t m_linkTx{0};      //!< link transmissions
    uint64_t m_delivered{0};   //!< data frames delivered
    uint32_t m_flowsDone{0};   //!< flows whose last ACK came back

  private:
    /// Per flow: frames sent and acknowledged.
    struct FlowState
    {
        uint64_t sent{0};  //!< data frames sent
        uint64_t acked{0}; //!< ACKs received
        uint64_t total{0}; //!< data frames of the flow
    };

    void StartFlow(uint32_t i)
    {
        FlowState& s = m_state[i];
        s.total = (m_flows[i].size + m_mtu - 1) / m_mtu;
        while (s.sent < s.total && s.sent - s.acked < m_window)
        {
            SendData(i);
        }
    }

    void SendData(uint32_t i)
    {
        FlowState& s = m_state[i];
        const uint64_t left = m_flows[i].size - s.sent * m_mtu;
        const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(left, m_mtu));
        ++s.sent;
        SendFrame(m_routes.GetHostNode(m_flows[i].src),
                  Pod{i, m_flows[i].dst, HEAD_BYTES + payload + 4, 0});
    }

    /// A frame leaves a host (made here).
    void SendFrame(uint32_t node, const Pod& f)
    {
        if (m_pod)
        {
            Forward(node, 0, f, nullptr);
            return;
        }
        uint8_t head[HEAD_BYTES] = {};
        std::memcpy(head + DST_OFFSET, &f.dstHost, 4);
        std::memcpy(head + FLOW_OFFSET, &f.flow, 4);
        head[KIND_OFFSET] = static_cast<uint8_t>(f.ack);
        Ptr<Packet> p = Create<Packet>(f.bytes - HEAD_BYTES);
        p->AddHeader(RdmaRawHeader(head, HEAD_BYTES));
        Forward(node, 0, f, p);
    }

    /// Put a frame on port `port` of `node`: FIFO behind what the port has.
    void Forward(uint32_t node, uint32_t port, const Pod& f, Ptr<Packet> p)
    {
        const RdmaRouteComputer::Port& out = m_routes.GetPorts(node)[port];
        const RdmaTopologySpec::Link& link = m_spec.links[out.link];
        Time& free = m_portFree[out.link * 2 + (link.a == node ? 0 : 1)];
        const Time now = Simulator::Now();
        const Time start = std::max(now, free);
        free = start + link.rate.CalculateBytesTxTime(f.bytes + WIRE_OVERHEAD);
        ++m_linkTx;
        const Time arrival = free + link.delay - now;
        if (m_pod)
        {
            Simulator::Schedule(arrival, &Floor::ArrivePod, this, out.peer, f);
        }
        else
        {
            Simulator::Schedule(arrival, &Floor::ArrivePacket, this, out.peer, p);
        }
    }

    void ArrivePacket(uint32_t node, Ptr<Packet> p)
    {
        uint8_t head[HEAD_BYTES];
        p->CopyData(head, HEAD_BYTES);
        Pod f{};
        std::memcpy(&f.dstHost, head + DST_OFFSET, 4);
        std::memcpy(&f.flow, head + FLOW_OFFSET, 4);
        f.ack = head[KIND_OFFSET];
        f.bytes = p->GetSize();
        Arrive(node, f, p);
    }

    void ArrivePod(uint32_t node, Pod f)
    {
        Arrive(node, f, nullptr);
    }

    void Arrive(uint32_t node, const Pod& f, Ptr<Packet> p)
    {
        if (m_spec.isSwitch[node])
        {
            const std::vector<uint32_t>& hops = m_nextPorts[node][f.dstHost];
            const uint32_t h = (f.flow * 2654435761U) ^ (node * 40503U);
            Forward(node, hops.size() == 1 ? hops[0] : hops[(h >> 7) % hops.size()], f, p);
            return;
        }
        if (f.ack == 0)
        {
            ++m_delivered;
            SendFrame(node, Pod{f.flow, m_flows[f.flow].src, ACK_BYTES, 1});
            return;
        }
        FlowState& s = m_state[f.flow];
        ++s.acked;
        if (s.acked == s.total)
        {
            ++m_flowsDone;
        }
        else if (s.sent < s.total)
        {
            SendData(f.flow);
        }
    }

    const RdmaRouteComputer& m_routes;                       //!< shortest paths
    const RdmaTopologySpec& m_spec;                          //!< the fabric
    const std::vector<RdmaFlow>& m_flows;                    //!< the flows
    bool m_pod;                                              //!< frames as structs
    std::vector<Time> m_portFree;                            //!< [link * 2 + side]
    std::vector<std::vector<std::vector<uint32_t>>> m_nextPorts; //!< [switch][host]
    std::vector<FlowState> m_state;                          //!< per flow
    uint32_t m_mtu{1000};                                    //!< payload per frame
    uint64_t m_window{100};                                  //!< frames in flight per flow
};

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string topology = RdmaDataDir() + "/topology/fat.txt";
    std::string flowFile = RdmaDataDir() + "/flows/ws_fat_l30_t0.001.txt";
    std::string frames = "packet";
    uint32_t mtu = 1000;
    uint32_t window = 100;
    std::string scheduler = "ns3::HeapScheduler";
    uint32_t fatTreeK = 0;
    uint64_t permutationBytes = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "HPCC topology file", topology);
    cmd.AddValue("flows", "HPCC flow file", flowFile);
    cmd.AddValue("frames", "packet (ns-3 Packets) or pod (16-byte structs)", frames);
    cmd.AddValue("mtu", "payload bytes per data frame", mtu);
    cmd.AddValue("window", "data frames in flight per flow", window);
    cmd.AddValue("scheduler", "ns-3 scheduler TypeId (rdma-sim's sim.scheduler default)", scheduler);
    cmd.AddValue("fatTreeK",
                 "arity of a generated fat tree (100 Gb/s, 1 us links) in place of --topology; 0: "
                 "the file",
                 fatTreeK);
    cmd.AddValue("permutationBytes",
                 "bytes of each flow of a random permutation at time 0 in place of --flows; 0: "
                 "the file",
                 permutationBytes);
    cmd.Parse(argc, argv);
    if (frames != "packet" && frames != "pod")
    {
        std::cerr << "rdma-hop-floor: --frames must be packet or pod, not " << frames << "\n";
        return 2;
    }
    if (mtu == 0 || window == 0)
    {
        std::cerr << "rdma-hop-floor: --mtu and --window must be positive\n";
        return 2;
    }
    RdmaTopologySpec spec;
    std::vector<RdmaFlow> flows;
    try
    {
        if (fatTreeK > 0)
        {
            const RdmaLinkParams link; // 100 Gb/s, 1 us
            spec = RdmaTopologySpec::FatTree(fatTreeK, link, link, link);
            topology = "fat tree k=" + std::to_string(fatTreeK);
        }
        else
        {
            spec = RdmaHpccTopologyReader::ReadFile(topology);
        }
        if (permutationBytes > 0)
        {
            RdmaFlowGenerator::PatternConfig pc;
            for (uint32_t n = 0; n < spec.GetNNodes(); ++n)
            {
                if (!spec.isSwitch[n])
                {
                    pc.hosts.push_back(n); // node ids: mapped to host indices below
                }
            }
            pc.size = permutationBytes;
            Ptr<RdmaFlowGenerator> gen = CreateObject<RdmaFlowGenerator>();
            gen->AssignStreams(1000); // rdma-sim's streams for its workload
            flows = gen->Permutation(pc);
            flowFile = "permutation";
        }
        else
        {
            flows = RdmaReadHpccFlowFile(flowFile);
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "rdma-hop-floor: " << e.what() << "\n";
        return 2;
    }
    ObjectFactory schedulerFactory;
    TypeId schedulerTid;
    if (!TypeId::LookupByNameFailSafe(scheduler, &schedulerTid) ||
        !schedulerTid.IsChildOf(Scheduler::GetTypeId()))
    {
        std::cerr << "rdma-hop-floor: --scheduler: " << scheduler << " is not an ns-3 Scheduler\n";
        return 2;
    }
    schedulerFactory.SetTypeId(schedulerTid);
    Simulator::SetScheduler(schedulerFactory);
    // HPCC flow files name nodes; the floor, like rdma-sim, numbers hosts.
    const RdmaRouteComputer routes(spec);
    for (auto& f : flows)
    {
        for (uint32_t* end : {&f.src, &f.dst})
        {
            if (*end >= spec.GetNNodes() ||
                routes.GetHostIndex(*end) == RdmaRouteComputer::UNREACHABLE)
            {
                std::cerr << "rdma-hop-floor: " << flowFile << ": flow " << f.id << " names node "
                          << *end << ", which is not a host of " << topology << "\n";
                return 2;
            }
            *end = routes.GetHostIndex(*end);
        }
    }
    Floor floor(spec, routes, flows, frames == "pod");
    floor.Start(mtu, window);
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const uint64_t events = Simulator::GetEventCount();
    const double simulatedNs = Simulator::Now().GetPicoSeconds() / 1e3;
    Simulator::Destroy();
    std::cout << "rdma-hop-floor: frames=" << frames << ", " << spec.GetNHosts() << " hosts, "
              << flows.size() << " flows, " << floor.m_flowsDone << " done\n"
              << "link transmissions " << floor.m_linkTx << ", events " << events
              << ", data packets " << floor.m_delivered << ", simulated " << std::fixed
              << std::setprecision(3) << simulatedNs << " ns\n"
              << "wall " << wall << " s: " << floor.m_linkTx / wall / 1e6
              << " M link tx/s, " << events / wall / 1e6 << " M events/s, "
              << floor.m_delivered / wall / 1e3 << " k data pkts/s; peak RSS "
              << RdmaMemoryCensus::PeakResidentBytes() / 1048576.0 << " MiB\n";
    return floor.m_flowsDone == flows.size() ? 0 : 1;
}
