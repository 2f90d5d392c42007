/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The keys of RdmaExperiment (its schema) and the embedded default.
 */

#include "rdma-experiment-config.h"

#include "rdma-byte-size.h"
#include "rdma-value-check.h"

#include "ns3/double.h"
#include "ns3/rdma-path-mtu.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

namespace
{

// What each plain key's values must be (ns-3 checkers; RdmaConfig::Set checks).

/// \return a count of at least min
Ptr<const AttributeChecker>
Count(uint32_t min)
{
    return MakeUintegerChecker<uint32_t>(min);
}

/// \return a rate of at least 1 bit/s
Ptr<const AttributeChecker>
Rate()
{
    return RdmaMakeDataRateChecker(DataRate(1));
}

/// \return a time of at least 0
Ptr<const AttributeChecker>
Duration()
{
    return MakeTimeChecker(Time(0));
}

/// \return a time of at least 1 ns
Ptr<const AttributeChecker>
PositiveDuration()
{
    return MakeTimeChecker(NanoSeconds(1));
}

/// \return a probability or share in [0, 1]
Ptr<const AttributeChecker>
Fraction()
{
    return MakeDoubleChecker<double>(0, 1);
}

/// \return a weight of at least 0
Ptr<const AttributeChecker>
Weight()
{
    return MakeDoubleChecker<double>(0);
}


/// \brief Declare the keys of the topology generators: which, and their sizes (RdmaTopologySpec). \param c the configuration
void
AddTopologyKeys(RdmaConfig& c)
{
    // Topology (RdmaTopologySpec / RdmaTopologyHelper).
    c.AddKey("topology.type",
             "fat-tree",
             "fat-tree, leaf-spine, dumbbell, star, hpcc (an HPCC simulator topology file) or "
             "rail (rail-optimized: the topology.rail keys; collective traffic only)",
             MakeEnumChecker(0,
                             "fat-tree",
                             1,
                             "leaf-spine",
                             2,
                             "dumbbell",
                             3,
                             "star",
                             4,
                             "hpcc",
                             5,
                             "rail"));
    c.AddKey("topology.k", "4", "fat-tree arity k (even): k^3/4 hosts",
             Count(2));
    c.AddKey("topology.leaves", "4", "leaf-spine: leaf switches",
             Count(1));
    c.AddKey("topology.spines", "2", "leaf-spine and rail: spine switches",
             Count(1));
    c.AddKey("topology.hostsPerLeaf", "4", "leaf-spine: hosts per leaf",
             Count(1));
    c.AddKey("topology.oversubscription",
             "1",
             "leaf-spine: host to uplink capacity ratio (0: uplinks at topology.fabricRate)",
             Weight());
    c.AddKey("topology.left", "8", "dumbbell: hosts on the left switch",
             Count(1));
    c.AddKey("topology.right", "1", "dumbbell: hosts on the right switch",
             Count(1));
    c.AddKey("topology.hosts", "17", "star: hosts on the one switch",
             Count(2));
    c.AddKey("topology.file",
             "",
             "hpcc: topology file path (relative paths: from the config file's folder)");
}

/// \brief Declare the keys of the rail-optimized fabric (RdmaTopologySpec::Rail). \param c the configuration
void
AddRailKeys(RdmaConfig& c)
{
    // Rail-optimized fabric (RdmaTopologySpec::Rail; doc/rdma.rst, "Rail-optimized fabrics").
    c.AddKey("topology.rail.Servers", "8", "rail: servers", Count(1));
    c.AddKey("topology.rail.GpusPerServer",
             "8",
             "rail: GPUs per server, each with one NIC on its own rail switch (as many rails)",
             Count(1));
    c.AddKey("topology.rail.IntraServerRate",
             "3600Gbps",
             "rail: rate of each GPU's intra-server (NVLink) link, bit/s each way (H100's NVLink "
             "4: 900 GB/s both ways, 450 GB/s = 3600 Gb/s each way, NVIDIA H100 datasheet)",
             Rate());
    c.AddKey("topology.rail.IntraServerDelay",
             "1us",
             "rail: one-way propagation delay of each intra-server link (the generated links' "
             "default, not a measured NVLink latency)",
             Duration());
}

/// \brief Declare the keys of the generated links: rates, delay, errors, failures (RdmaTopologyHelper). \param c the configuration
void
AddLinkKeys(RdmaConfig& c)
{
    c.AddKey("topology.hostRate", "100Gbps", "host link rate, bit/s (tier 0)",
             Rate());
    c.AddKey("topology.fabricRate",
             "100Gbps",
             "edge-aggregation, leaf-spine, rail-spine or dumbbell bottleneck link rate, bit/s "
             "(tier 1)",
             Rate());
    c.AddKey("topology.coreRate", "100Gbps", "fat-tree aggregation-core link rate, bit/s (tier 2)",
             Rate());
    c.AddKey("topology.linkDelay", "1us", "one-way propagation delay of every generated link",
             Duration());
    c.AddKey("topology.errorRate",
             "0",
             "probability a frame is corrupted on reception, every generated link",
             Fraction());
    c.AddKey("topology.failLinks",
             "",
             "links that fail during the run: A-B@time items separated by commas, A and B the "
             "node ids at its ends (nodes.csv), for example 17-33@1ms; frames on a failed link "
             "are lost",
             nullptr);
    c.AddKey("topology.slowLinks",
             "",
             "links that run below their rate for the whole run (degraded links): A-B:F items "
             "separated by commas, A and B node ids (nodes.csv), F the fraction of the rate "
             "kept, in (0, 1); A>B:F slows only A's transmitter toward B. The slowed port's "
             "queue (link.queue.MaxBytes) and ECN thresholds scale by F too",
             nullptr);
    c.AddKey("topology.failNodes",
             "",
             "nodes that fail during the run: ID@time items separated by commas, ID a node id "
             "(nodes.csv: a switch, or a host with its NIC), for example 16@1ms; each of its "
             "links fails then, as in topology.failLinks",
             nullptr);
    c.AddKey("topology.planes",
             "1",
             "copies of the fabric (fat-tree, leaf-spine, dumbbell, star), each host with a NIC "
             "port on every one, at topology.hostRate each: a multi-plane NIC (MRC's 8 x 100G); "
             "nic.Entropy says how a QP's packets take the planes (doc/planes.rst)",
             Count(1));
    c.AddKey("topology.failPlanes",
             "",
             "planes that fail during the run: P@time items separated by commas, P a plane (0 "
             "to topology.planes - 1), for example 1@2ms; every link of the plane fails then",
             nullptr);
    c.AddKey("topology.routeConvergence",
             "1ms",
             "time from a link's failure to routes that avoid it in every switch (the control "
             "plane's reaction: a parameter of the study); ECMP keeps sending into the link "
             "until then",
             Duration());
}

/// \brief Declare the keys of the workload of flows (RdmaFlowGenerator, RdmaReadHpccFlowFile, RdmaFlowRunner). \param c the configuration
void
AddTrafficKeys(RdmaConfig& c)
{
    // Traffic (RdmaFlowGenerator, RdmaReadHpccFlowFile, RdmaFlowRunner).
    c.AddKey("traffic.pattern",
             "poisson",
             "poisson (sizes from traffic.cdf at traffic.load), incast, permutation, all-to-all, "
             "flow-file (an HPCC simulator flow file), connection-matrix (an htsim .cm file) or "
             "collective (training jobs: the job and collective keys)",
             MakeEnumChecker(0,
                             "poisson",
                             1,
                             "incast",
                             2,
                             "permutation",
                             3,
                             "all-to-all",
                             4,
                             "flow-file",
                             5,
                             "collective",
                             6,
                             "connection-matrix"));
    c.AddKey("traffic.cdf",
             "websearch",
             "flow-size CDF: websearch, fbhdp, alistorage, googlerpc (shipped in data/cdf) or a "
             "file in the HPCC format");
    c.AddKey("traffic.load", "0.3", "poisson: offered load per host, fraction of its line rate",
             MakeDoubleChecker<double>(1e-9, 1));
    c.AddKey("traffic.start", "0s", "time the first arrivals may start",
             Duration());
    c.AddKey("traffic.duration", "2ms", "poisson: length of the arrival window",
             PositiveDuration());
    c.AddKey("traffic.flowFile", "", "flow-file: the HPCC flow file (relative: as topology.file)");
    c.AddKey("traffic.connectionMatrix",
             "",
             "connection-matrix: an htsim connection matrix (.cm, as csg-htsim's and uet-htsim's "
             "connection_matrices/ write them), its node i the topology's host i (relative: as "
             "topology.file)");
    c.AddKey("traffic.size", "1000000", "incast, permutation, all-to-all: bytes of each flow",
             MakeUintegerChecker<uint64_t>(1));
    c.AddKey("traffic.fanIn", "16", "incast: senders",
             Count(1));
    c.AddKey("traffic.receiver", "0", "incast: the receiving host index",
             Count(0));
    c.AddKey("traffic.repeats", "1", "incast: rounds",
             Count(1));
    c.AddKey("traffic.interval", "100us", "incast: time from one round to the next",
             Duration());
    c.AddKey("traffic.background",
             "none",
             "flows beside an incast or the jobs: none; poisson (sizes from traffic.cdf at "
             "traffic.backgroundLoad over traffic.duration from traffic.start, among every host "
             "but an incast's receiver, or with traffic.pattern = collective among every host: "
             "a rail fabric's GPU NICs); or, with traffic.pattern = collective, flow-file "
             "(traffic.flowFile's flows)",
             MakeEnumChecker(0, "none", 1, "poisson", 2, "flow-file"));
    c.AddKey("traffic.backgroundLoad",
             "0.3",
             "traffic.background = poisson: offered load per host, fraction of its line rate");
    c.AddKey("traffic.writeWeight", "1", "operation mix: weight of RDMA WRITE",
             Weight());
    c.AddKey("traffic.readWeight", "0", "operation mix: weight of RDMA READ",
             Weight());
    c.AddKey("traffic.sendWeight", "0", "operation mix: weight of SEND",
             Weight());
    c.AddKey("traffic.priority", "3", "traffic class of every flow (0-7)",
             MakeUintegerChecker<uint8_t>(0, 7));
    c.AddAttributeGroup("traffic", "ns3::RdmaFlowRunner");
    c.AddAttributeGroup("traffic.target", "ns3::RdmaTargetPattern");
}

/// \brief Declare the keys of the training jobs (traffic.pattern = collective: RdmaMakeJobs). \param c the configuration
void
AddJobKeys(RdmaConfig& c)
{
    // Training jobs (traffic.pattern = collective): RdmaMakeJobs, RdmaCollectiveRunner.
    c.AddKey("job.count", "1", "collective: jobs sharing the fabric, each on its own hosts",
             Count(1));
    c.AddKey("job.ranks",
             "0",
             "collective: ranks of each job, one per host (rail: per GPU; 0: the hosts shared "
             "equally among job.count jobs)",
             Count(0));
    c.AddKey("job.placement",
             "contiguous",
             "collective: contiguous (job i on the hosts i x job.ranks onward, ranks in host "
             "order), random (a random permutation of the hosts, from sim.seed) or rail "
             "(topology.type = rail: ranks in rail-major order, rank r on GPU r / Servers of "
             "server r mod Servers, so a job of Servers ranks is one rail)",
             MakeEnumChecker(0, "contiguous", 1, "random", 2, "rail"));
    c.AddKey("job.sequence",
             "",
             "collective: one iteration, items separated by commas: '<collective> [<size>] "
             "[<algorithm>]' or 'compute <time>', e.g. 'all-reduce 64MiB ring, compute 1ms, "
             "all-to-all 8MiB'; empty: the one collective collective.type of collective.bytes");
    c.AddKey("job.workload",
             "",
             "collective: a SimAI (AICB) workload file giving the iteration instead of "
             "job.sequence: per layer compute times and tensor-, data- or expert-parallel "
             "collectives; several separated by commas: a job each, side by side (several "
             "tenants; relative paths: from the config file's folder)");
    c.AddKey("job.chakra",
             "",
             "collective: Chakra execution traces giving the iteration instead of job.sequence "
             "(MLCommons Chakra's et_def.proto): a prefix, <prefix>.0.et, <prefix>.1.et, ... "
             "a rank each, or a folder of one such set (relative: from the config file's "
             "folder); compute nodes are delays, collective nodes this module's schedules");
    c.AddKey("job.workloadCommScale",
             "1",
             "collective: factor on every job.workload or job.chakra collective's bytes "
             "(SimAI's comm_scale), "
             "to run a smaller copy of a workload",
             MakeDoubleChecker<double>(1e-9, 1e9));
    c.AddKey("job.iterations", "1", "collective: iterations each job runs",
             Count(1));
    c.AddKey("job.stagger", "0s", "collective: job i starts at traffic.start + i x job.stagger",
             Duration());
}

/// \brief Declare the keys of each job's collectives (RdmaCollectiveRunner). \param c the configuration
void
AddCollectiveKeys(RdmaConfig& c)
{
    c.AddKey("collective.type",
             "all-reduce",
             "collective: all-reduce, all-gather, reduce-scatter, broadcast (from rank 0), "
             "all-to-all or send-recv (nccl-tests' sendrecv: rank r to r + 1), when "
             "job.sequence is empty",
             MakeEnumChecker(0,
                             "all-reduce",
                             1,
                             "all-gather",
                             2,
                             "reduce-scatter",
                             3,
                             "broadcast",
                             4,
                             "all-to-all",
                             5,
                             "send-recv"));
    c.AddKey("collective.bytes",
             "67108864",
             "collective: the size S of a collective, bytes (nccl-tests' size: the buffer of "
             "all-reduce and broadcast, the output of all-gather, the input of reduce-scatter, "
             "one rank's send buffer of all-to-all), where job.sequence gives none",
             MakeUintegerChecker<uint64_t>(1));
    c.AddKey("collective.algorithm",
             "auto",
             "collective: auto (ring; pairwise for all-to-all, direct for send-recv), ring, "
             "tree (NCCL's double binary tree, all-reduce), halving-doubling (Rabenseifner, "
             "all-reduce, power-of-two ranks), pairwise (all-to-all) or direct (send-recv), "
             "where job.sequence names none",
             MakeEnumChecker(0,
                             "auto",
                             1,
                             "ring",
                             2,
                             "tree",
                             3,
                             "halving-doubling",
                             4,
                             "pairwise",
                             5,
                             "direct"));
    c.AddKey("collective.chunkBytes",
             "524288",
             "collective: largest RDMA WRITE with immediate, bytes (NCCL's Simple protocol: "
             "NCCL_BUFFSIZE 4 MiB over NCCL_STEPS 8 = 512 KiB); a step's data is cut into "
             "chunks that pipeline",
             MakeUintegerChecker<uint64_t>(1, 1ULL << 31));
    c.AddKey("collective.channels",
             "1",
             "collective: NCCL's channels: the message is cut into this many parts, each on "
             "its own QP per peer (and its own ECMP path)",
             MakeUintegerChecker<uint32_t>(1, 64));
    c.AddAttributeGroup("collective", "ns3::RdmaCollectiveRunner");
}

/// \brief Declare the keys of the transport: connections and loss recovery. \param c the configuration
void
AddTransportKeys(RdmaConfig& c)
{
    // Transport: the ModifyQp attributes of every connection, and the QP's own.
    c.AddKey("transport.pathMtu",
             std::to_string(RdmaPathMtu::DEFAULT_BYTES),
             "path MTU, bytes: " + RdmaPathMtu::Rule(),
             MakeUintegerChecker<uint32_t>(RdmaPathMtu::MIN_BYTES, RdmaPathMtu::MAX_BYTES));
    c.AddKey("transport.timeout", "14", "local ACK timeout exponent: 4.096 us x 2^timeout",
             MakeUintegerChecker<uint8_t>(0, 31));
    c.AddKey("transport.retryCnt", "7", "retry_cnt (0-7)",
             MakeUintegerChecker<uint8_t>(0, 7));
    c.AddKey("transport.rnrRetry", "7", "rnr_retry (0-7, 7 = infinite)",
             MakeUintegerChecker<uint8_t>(0, 7));
    c.AddAttributeGroup("transport", "ns3::RdmaQueuePair");
    c.AddKey("transport.recovery",
             "go-back-n",
             "loss recovery of every QP: go-back-n (IBA 9.7.5.1.2, as RoCE NICs; timed by "
             "transport.timeout) or irn (selective repeat of IRN, SIGCOMM 2018: SACK NAKs, "
             "RTO_low/RTO_high, BDP-FC; its settings are the transport.irn keys; rdma-sim sets "
             "transport.irn.BdpBytes, unless given, to the host rate x the longest path's base "
             "RTT)",
             MakeEnumChecker(0, "go-back-n", 1, "irn"));
    c.AddAttributeGroup("transport.irn", "ns3::RdmaSelectiveRepeat");
    c.AddAttributeGroup("transport.gbn", "ns3::RdmaGoBackN");
}

/// \brief Declare the keys of the links', switches' and MMUs' attributes, and ECN marking. \param c the configuration
void
AddSwitchKeys(RdmaConfig& c)
{
    // Layers whose keys are the models' attributes.
    c.AddAttributeGroup("link", "ns3::QbbNetDevice");
    c.AddAttributeGroup("link.queue", "ns3::QbbEgressQueue");
    c.AddAttributeGroup("link.pfc", "ns3::QbbPfcController");
    c.AddAttributeGroup("switch", "ns3::RdmaSwitch");
    c.AddAttributeGroup("switch.lb", "ns3::RdmaLoadBalancer");
    c.AddAttributeGroup("switch.drill", "ns3::RdmaDrill");
    c.AddAttributeGroup("switch.letflow", "ns3::RdmaLetFlow");
    c.AddAttributeGroup("switch.conga", "ns3::RdmaConga");
    c.AddAttributeGroup("switch.trim", "ns3::QbbTrimmer");
    c.AddAttributeGroup("pfc", "ns3::SwitchMmu");
    c.AddAttributeGroup("pfc.watchdog", "ns3::RdmaPfcWatchdog");
    c.AddKey("ecn.kmin",
             "0",
             "RED Kmin, bytes, every switch egress queue (0 with ecn.kmax 0: per link rate, "
             "SwitchEcnParams::ForRate)",
             MakeUintegerChecker<uint64_t>());
    c.AddKey("ecn.kmax", "0", "RED Kmax, bytes (0: per link rate)",
             MakeUintegerChecker<uint64_t>());
    c.AddKey("ecn.pmax", "0.2", "RED Pmax, marking probability at Kmax",
             Fraction());
}

/// \brief Declare the keys of the NIC, and the NIC as hardware. \param c the configuration
void
AddNicKeys(RdmaConfig& c)
{
    // sim.icrc chooses ComputeIcrc; switch.trim.Dscp, TrimmedDscp
    c.AddAttributeGroup("nic", "ns3::RdmaNic", false, {"ComputeIcrc", "TrimmedDscp"});
    c.OverrideDefault("nic.VerifyIcrc",
                      "false",
                      "rdma-sim's links have no bit errors, so checking every frame's ICRC "
                      "would change nothing but the speed (and sim.icrc = auto then spares "
                      "senders the CRC too, unless pcap output is on)");
    // The NIC as hardware (RdmaNicPipeline): clock, stages, PCIe, caches.
    c.AddKey("nic.pipeline",
             "false",
             "model each NIC's pipeline, PCIe link and QPC/MPT/MTT caches (false: zero-cost NIC)");
    c.AddKey("nic.preset",
             "none",
             "a measured NIC's profile (RdmaNicPreset): none (the attribute defaults) or nfp6000 "
             "(the NFP-6000's DMA engine and PCIe Gen3 x8 link on pcie-bench's Broadwell host, "
             "SIGCOMM 2018); it sets nic.pipeline = true and its nic.hw, pcie and cache keys, "
             "each with its source (--print-config); keys set in the file or command line win");
    c.AddAttributeGroup("nic.tx", "ns3::RdmaTxScheduler");
    c.AddAttributeGroup("nic.hw", "ns3::RdmaNicPipeline");
    c.AddAttributeGroup("nic.rx", "ns3::RdmaNicRxBuffer");
    c.AddAttributeGroup("pcie", "ns3::PcieLink");
    for (const char* table : {"qpc", "mpt", "mtt"})
    {
        const std::string g = std::string("cache.") + table;
        c.AddAttributeGroup(g, "ns3::NicCache", true);
        c.AddAttributeGroup(g + ".memory", "ns3::NicMemory", true);
    }
}

/// \brief Declare the keys of congestion control. \param c the configuration
void
AddCcKeys(RdmaConfig& c)
{
    // Congestion control: the algorithm, and each algorithm's attributes.
    c.AddKey("cc.algorithm",
             "dcqcn",
             "dcqcn, hpcc, timely, dctcp, swift, nscc (UEC 1.0's NSCC) or none (line rate, "
             "for PFC-only studies)",
             MakeEnumChecker(0,
                             "dcqcn",
                             1,
                             "hpcc",
                             2,
                             "timely",
                             3,
                             "dctcp",
                             4,
                             "swift",
                             5,
                             "none",
                             6,
                             "nscc"));
    c.AddKey("cc.preset",
             "paper",
             "paper (the attribute defaults: DCQCN SIGCOMM 2015), nvidia (ConnectX firmware "
             "defaults of the reaction and notification points), hpcc-sim (the values the "
             "HPCC simulator's run.py writes for dcqcn or hpcc: CC, Pmax, switch buffer, ACK "
             "interval, MTU; RdmaCcPreset) or conweave-sim (ConWeave's simulator: hpcc-sim "
             "with its run.py's DCQCN steps, buffer and ECN thresholds, its PFC alpha and its "
             "ACKs ahead of data in every queue); keys set in the file or command line win");
    c.AddAttributeGroup("cc.dcqcn", "ns3::RdmaDcqcn");
    c.AddAttributeGroup("cc.hpcc", "ns3::RdmaHpcc");
    c.AddAttributeGroup("cc.timely", "ns3::RdmaTimely");
    c.AddAttributeGroup("cc.dctcp", "ns3::RdmaDctcp");
    c.AddAttributeGroup("cc.swift", "ns3::RdmaSwift");
    c.AddAttributeGroup("cc.nscc", "ns3::RdmaNscc");
    c.AddAttributeGroup("cc.rccc", "ns3::RdmaRcccPacer");
    c.AddAttributeGroup("cc.cnp", "ns3::RdmaCnpGenerator");
}

/// \brief Declare the keys of an HPCC simulator config.txt, and the run itself. \param c the configuration
void
AddSimKeys(RdmaConfig& c)
{
    // An HPCC simulator config.txt (RdmaApplyHpccConfig), under the keys above.
    c.AddKey("hpcc.config",
             "",
             "the HPCC simulator's config.txt (TOPOLOGY_FILE, FLOW_FILE, CC_MODE, rate, ECN and "
             "PFC keys), or ConWeave's (its LB_MODE, ENABLE_PFC, ENABLE_IRN, FLOWGEN_STOP_TIME "
             "too), read as these keys; keys set in the INI file or command line win; "
             "unknown keys are listed as warnings");
    // Run and outputs.
    c.AddKey("sim.seed", "1", "random seed (RngSeedManager::SetSeed); same seed, same outputs",
             MakeUintegerChecker<uint32_t>(1));
    c.AddKey("sim.scheduler",
             "ns3::RdmaEventScheduler",
             "ns-3 event scheduler TypeId: ns3::RdmaEventScheduler orders the events of one time "
             "by the node that scheduled them and its own count (the same order on any number of "
             "ranks, doc/mpi.rst); ns-3's own (ns3::HeapScheduler, ns3::MapScheduler, "
             "ns3::CalendarScheduler, ...) order them by when they were scheduled: the same "
             "results as one another, not as the default, and refused on several ranks");
    c.AddKey("sim.icrc",
             "auto",
             "whether senders compute the RoCEv2 ICRC (each NIC's ComputeIcrc): on, off (refused "
             "with nic.VerifyIcrc or output.pcapNodes), or auto (on only when something reads it: "
             "nic.VerifyIcrc or output.pcapNodes); the results do not depend on it, speed does "
             "(about 4 % on the HPCC configs)",
             MakeEnumChecker(0, "auto", 1, "on", 2, "off"));
    c.AddKey("sim.ranks",
             "0",
             "processes of one distributed simulation (ns-3's mpi module, `make mpi`; "
             "doc/mpi.rst): 0 takes mpirun's -np (1 without mpirun); any other value must equal "
             "it, except with rdma-sim --check outside mpirun, which checks the launch of that "
             "many ranks (scripts/launch_mpi.py)",
             MakeUintegerChecker<uint32_t>());
    c.AddKey("sim.partition",
             "",
             "with several ranks, a file placing each node on a rank ('node rank' per line, "
             "node ids as pfc.csv's); empty: sim.partitionRule's map (doc/mpi.rst)");
    c.AddKey("sim.partitionRule",
             "auto",
             "with several ranks and no sim.partition file, the rule placing nodes on ranks: "
             "metis (METIS's balanced min-cut, hosts with their ToR, balanced by hosts and "
             "port capacity), by-tor (ToR blocks balanced by hosts, other switches with their "
             "neighbors), by-pod (fat-tree only: pods on ranks, cores spread), by-server "
             "(rail only: servers with their GPUs' NICs on ranks, rails and spines spread), or "
             "auto (by-pod for fat-tree, by-tor for leaf-spine, by-server for rail, metis for "
             "the rest; doc/mpi.rst)",
             MakeEnumChecker(0, "auto", 1, "metis", 2, "by-tor", 3, "by-pod", 4, "by-server"));
    c.AddKey("sim.mpiSync",
             "granted-time",
             "synchronization of several ranks: granted-time (global windows, the frames "
             "of a window to one rank in one MPI message), granted-time-per-frame (ns-3's "
             "DistributedSimulatorImpl, an MPI message per frame) or null-message "
             "(NullMessageSimulatorImpl, per-neighbor, an MPI message per frame)",
             MakeEnumChecker(0, "granted-time", 1, "null-message", 2, "granted-time-per-frame"));
    c.AddKey("sim.stopTime",
             "100ms",
             "hard end of the simulation; flows not done by then are reported INCOMPLETE",
             PositiveDuration());
    c.AddKey("sim.maxMemory",
             "available",
             "memory the run may take, as 8GiB or 500MB: a run whose estimate (measured "
             "per-item costs of hosts, switches, ports, routes and flows; doc/rdma.rst, "
             "\"Memory\") is above it is refused before it is built; available: the machine's "
             "available memory (MemAvailable)",
             RdmaMakeByteSizeChecker(1 << 20, "available"));
    c.AddKey("sim.fastForward",
             "off",
             "skip what repeats (doc/fast-forward.rst): on replays a job's collective that "
             "starts from a state already simulated (the same collective, ranks entering at the "
             "same offsets, every QP at the same CC rate and window) instead of simulating it "
             "again; check runs the case with on, then again with off into "
             "<output.dir>/fast-forward-off, and writes the per-collective and per-iteration "
             "differences (fast-forward-check.csv); off simulates every packet",
             MakeEnumChecker(0, "off", 1, "on", 2, "check"));
    c.AddKey("sim.census",
             "false",
             "print where the memory went (RdmaMemoryCensus): the heap each part of the "
             "construction took, per item, and the traffic's peak, against the peak resident "
             "set; also in summary.json (memory_census)");
}

/// \brief Declare the keys of the outputs. \param c the configuration
void
AddOutputKeys(RdmaConfig& c)
{
    c.AddKey("output.dir", "rdma-sim-out", "output folder (refused if not empty, unless --force)");
    c.AddKey("output.qlenInterval", "10us", "qlen.csv sampling period (0: none)",
             Duration());
    c.AddKey("output.pcapNodes",
             "",
             "ns-3 node ids (as pfc.csv's node column), comma-separated, whose every port is "
             "captured to pcap/node-<id>-<port>.pcap (Ethernet, ns stamps; tshark decodes "
             "RoCEv2 on UDP 4791 and PFC); empty: no capture");
}

} // namespace

RdmaConfig
RdmaMakeExperimentConfig()
{
    RdmaConfig c;
    AddTopologyKeys(c);
    AddRailKeys(c);
    AddLinkKeys(c);
    AddTrafficKeys(c);
    AddJobKeys(c);
    AddCollectiveKeys(c);
    AddTransportKeys(c);
    AddSwitchKeys(c);
    AddNicKeys(c);
    AddCcKeys(c);
    AddSimKeys(c);
    AddOutputKeys(c);
    return c;
}

const char*
RdmaDefaultExperimentName()
{
    return "(embedded default)";
}

const char*
RdmaDefaultExperimentText()
{
    return "# rdma-sim's embedded default: a k=4 fat-tree (16 hosts) at 100 Gb/s,\n"
           "# WebSearch flow sizes at 30 % load for 2 ms, DCQCN, PFC on.\n"
           "[topology]\n"
           "type = fat-tree\n"
           "k = 4\n"
           "[traffic]\n"
           "pattern = poisson\n"
           "cdf = websearch\n"
           "load = 0.3\n"
           "duration = 2ms\n"
           "[cc]\n"
           "algorithm = dcqcn\n";
}

} // namespace ns3
