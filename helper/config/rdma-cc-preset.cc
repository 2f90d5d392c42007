/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * cc.preset: named parameter sets as configuration keys, with their sources.
 */

#include "rdma-cc-preset.h"

#include "rdma-config.h"

#include "ns3/double.h"
#include "ns3/rdma-dcqcn.h"

#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The HPCC simulator's run.py, as every hpcc-sim source cites it.
const std::string g_runPy = "HPCC simulator run.py, config_template / line ";

/// \return the keys of NVIDIA's firmware defaults
std::vector<RdmaPresetValue>
NvidiaPreset()
{
    std::vector<RdmaPresetValue> v;
    const TypeId tid = RdmaDcqcn::GetTypeId();
    for (const auto& [name, value] : RdmaDcqcn::NvidiaFirmwareDefaults())
    {
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(name, &info);
        // Doubles in full (DoubleValue prints 6 digits: 5/1024 would lose some).
        Ptr<const DoubleValue> d = DynamicCast<const DoubleValue>(value);
        std::ostringstream text;
        text << std::setprecision(17) << (d ? d->Get() : 0.0);
        v.push_back({"cc.dcqcn." + name,
                     d ? text.str() : value->SerializeToString(info.checker),
                     "ConnectX firmware default (RdmaDcqcn::NvidiaFirmwareDefaults)"});
    }
    v.push_back({"cc.cnp.MinTimeBetweenCnps",
                 "2us",
                 "ConnectX firmware default MIN_TIME_BETWEEN_CNPS = 2 us (per QP here)"});
    return v;
}

/// \return v Mb/s as a rate key's value \param v the rate, Mb/s
std::string
Mbps(uint64_t v)
{
    return std::to_string(v) + "Mbps";
}

/// \return the keys run.py writes for CC mode 1 and 3 alike at a NIC rate of bw Gb/s
std::vector<RdmaPresetValue>
HpccSimCommon(uint64_t bw)
{
    // run.py runs under Python 2: '/' on integers is integer division.
    return {
        {"pfc.BufferSize",
         std::to_string(16 * bw / 50 * 1024 * 1024),
         g_runPy + "59 BUFFER_SIZE, line 83 bfsz = 16 * bw / 50 (MB; third.cc x 1024 x 1024)"},
        {"ecn.pmax", "0.2", g_runPy + "58 PMAX_MAP, line 98 (0.20 at bw and 4 x bw)"},
        {"transport.pathMtu",
         "1024",
         g_runPy + "8 PACKET_PAYLOAD_SIZE 1000 (the nearest IB path MTU)"},
        {"transport.AckReqInterval", "1", g_runPy + "33 L2_ACK_INTERVAL 1 (every packet ACKed)"},
        {"cc.cnp.MinTimeBetweenCnps",
         "0s",
         g_runPy + "33 L2_ACK_INTERVAL 1; rdma-hw.cc ReceiveUdp sets the CNP flag on the ACK of "
                   "every CE-marked packet"},
        {"switch.EcnAtDequeue",
         "true",
         "HPCC simulator, switch-node.cc: SwitchNotifyDequeue marks ECN as the packet leaves"},
        {"switch.DecrementTtl",
         "false",
         "HPCC simulator, switch-node.cc: SwitchNode forwards without touching the IP TTL"},
        {"nic.tx.ResponsesFirst",
         "true",
         "HPCC simulator, qbb-net-device.cc: RdmaEgressQueue::GetNextQindex serves the "
         "host's ACK queue before any QP"},
        {"link.WireOverhead",
         "0",
         "HPCC simulator, qbb-net-device.cc: TransmitStart times a packet by its size alone "
         "(no preamble, FCS or inter-packet gap)"},
    };
}

/// \return the keys run.py writes for CC mode 1 (dcqcn) at a NIC rate of bw Gb/s
std::vector<RdmaPresetValue>
HpccSimDcqcn(uint64_t bw)
{
    const std::string f = ", line 104 (--cc dcqcn)";
    return {
        {"cc.dcqcn.AlphaUpdate",
         "Periodic",
         g_runPy + "19 CC_MODE 1" + f + ": rdma-hw.cc UpdateAlphaMlx"},
        {"cc.dcqcn.AlphaUpdateInterval",
         "1us",
         g_runPy + "20 ALPHA_RESUME_INTERVAL" + f + " t_alpha=1"},
        {"cc.dcqcn.RateReduceMonitorPeriod",
         "4us",
         g_runPy + "21 RATE_DECREASE_INTERVAL" + f + " t_dec=4"},
        {"cc.dcqcn.DecreaseTiming",
         "Periodic",
         g_runPy + "21 RATE_DECREASE_INTERVAL: rdma-hw.cc CheckRateDecreaseMlx "
                   "cuts on a grid from the first CNP"},
        {"cc.dcqcn.ClampTargetRate", "false", g_runPy + "22 CLAMP_TARGET_RATE 0"},
        {"cc.dcqcn.TimeReset", "300us", g_runPy + "23 RP_TIMER" + f + " t_inc=300"},
        {"cc.dcqcn.G", "0.00390625", g_runPy + "24 EWMA_GAIN" + f + " g=0.00390625"},
        {"cc.dcqcn.Threshold", "1", g_runPy + "25 FAST_RECOVERY_TIMES 1"},
        {"cc.dcqcn.AiRate", Mbps(5 * bw / 25), g_runPy + "26 RATE_AI, line 100"},
        {"cc.dcqcn.HaiRate", Mbps(50 * bw / 25), g_runPy + "27 RATE_HAI, line 101"},
        {"cc.dcqcn.MinRate", "1000Mbps", g_runPy + "28 MIN_RATE 1000Mb/s"},
        {"cc.dcqcn.ByteReset", "0", g_runPy + "19 CC_MODE 1: rdma-hw.cc keeps no byte counter"},
        {"cc.dcqcn.IncreaseRule",
         "TimerOnly",
         g_runPy + "25 FAST_RECOVERY_TIMES: rdma-hw.cc RateIncEventMlx"},
        {"cc.dcqcn.InitialAlpha",
         "1",
         g_runPy + "19 CC_MODE 1: rdma-hw.cc cnp_received_mlx sets alpha 1"},
    };
}

/// \return the keys run.py writes for CC mode 3 (hp) at a NIC rate of bw Gb/s
std::vector<RdmaPresetValue>
HpccSimHpcc(uint64_t bw)
{
    const std::string f = ", line 123 (--cc hp)";
    return {
        {"cc.hpcc.TargetUtilization",
         "0.95",
         g_runPy + "40 U_TARGET, line 84 (--utgt 95, line 71)"},
        {"cc.hpcc.MaxStage", "0", g_runPy + "41 MI_THRESH, line 85 (--mi 0, line 72)"},
        {"cc.hpcc.RateAi", Mbps(10 * bw / 25), g_runPy + "26 RATE_AI, line 112"},
        {"cc.hpcc.FastReact", "true", g_runPy + "39 FAST_REACT" + f + " us=1"},
        {"cc.hpcc.MinRate", "1000Mbps", g_runPy + "28 MIN_RATE 1000Mb/s"},
        {"switch.IntAtDequeue",
         "true",
         g_runPy + "19 CC_MODE 3: switch-node.cc SwitchNotifyDequeue stamps INT"},
    };
}

/// \return the keys run.py writes for CC mode 1 or 3 at a NIC rate of bw Gb/s
std::vector<RdmaPresetValue>
HpccSimPreset(const std::string& algorithm, uint64_t bw)
{
    if (algorithm != "dcqcn" && algorithm != "hpcc")
    {
        throw std::invalid_argument("hpcc-sim: run.py's dcqcn (mode 1) and hp (mode 3) are "
                                    "modelled; cc.algorithm = " +
                                    algorithm + " has no hpcc-sim values");
    }
    std::vector<RdmaPresetValue> v = HpccSimCommon(bw);
    const auto more = algorithm == "dcqcn" ? HpccSimDcqcn(bw) : HpccSimHpcc(bw);
    v.insert(v.end(), more.begin(), more.end());
    return v;
}

const std::string g_cwRunPy = "ConWeave simulator run.py";
const std::string g_cwMain = "ConWeave simulator, scratch/network-load-balance.cc";

/// \return the keys ConWeave's simulator sets apart from its DCQCN steps, by key
std::map<std::string, RdmaPresetValue>
ConweaveSimOwn()
{
    return {
        {"nic.AckPriority",
         {"nic.AckPriority",
          "7",
          g_cwMain + ": every switch's AckHighPrio = 1 (switch-node.cc: ACKs and NACKs in "
                     "queue 0, served before data, outside the MMU and PFC); qbb-net-device.cc "
                     "RdmaEgressQueue::ack_q_idx = 0 (the hosts' ACK queue in class 0)"}},
        {"nic.CnpPriority",
         {"nic.CnpPriority",
          "7",
          "ConWeave simulator, rdma-hw.cc ReceiveUdp: the CNP is a flag on the ACK (SetCnp), so "
          "it travels with the ACKs (a CNP behind them arrived after its QP was gone)"}},
        {"pfc.BufferSize",
         {"pfc.BufferSize",
          std::to_string(9 * 1024 * 1024),
          g_cwRunPy + " --buffer default 9 (BUFFER_SIZE, MB; network-load-balance.cc x 1024 x "
                      "1024)"}},
        {"pfc.Alpha",
         {"pfc.Alpha",
          "0.0625",
          "ConWeave simulator, switch-mmu.cc: IngressAlpha 0.0625 (the dynamic PFC "
          "threshold's factor; the HPCC simulator's is 1/8)"}},
        {"ecn.kmin", {"ecn.kmin", "100000", g_cwRunPy + " kmin_map: 100 KB at every rate"}},
        {"transport.timeout",
         {"transport.timeout",
          "10",
          "ConWeave simulator, rdma-queue-pair.cc: m_timeout = 4 ms, go-back-N's retransmission "
          "timer; the nearest local ACK timeout is 4.096 us x 2^10 = 4.19 ms"}},
        {"transport.gbn.NakInterval",
         {"transport.gbn.NakInterval",
          "4us",
          "ConWeave simulator, rdma-hw.cc: NACKGenerationInterval 4 us; ReceiverCheckSeq NAKs "
          "a gap again after it, ReceiveAck goes back on every NACK"}},
        {"cc.cnp.CnpOnNak",
         {"cc.cnp.CnpOnNak",
          "true",
          "ConWeave simulator, rdma-hw.cc ReceiverCheckSeq: cnp = true for every out-of-order "
          "packet it NAKs (go-back-N and IRN), so the NACK carries the CNP flag"}},
        {"transport.irn.RtoLow",
         {"transport.irn.RtoLow",
          "454us",
          "ConWeave simulator, rdma-hw.cc: IrnRtoLow 454 us"}},
        {"switch.lb.ControlByHash",
         {"switch.lb.ControlByHash",
          "true",
          "ConWeave simulator, switch-node.cc GetOutDev: ACK, NACK, CNP and PFC packets take "
          "DoLbFlowECMP under every LB_MODE"}},
        {"switch.drill.MemoryPerDestination",
         {"switch.drill.MemoryPerDestination",
          "true",
          "ConWeave simulator, switch-node.cc DoLbDrill: m_previousBestInterfaceMap[ch.dip]"}},
        {"transport.irn.RecoverAll",
         {"transport.irn.RecoverAll",
          "true",
          "ConWeave simulator, rdma-hw.cc ReceiveAck: the first NACK of an IRN episode calls "
          "RecoverQueue (snd_nxt = snd_una); GetBytesLeft skips SACKed blocks"}},
        {"transport.irn.RtoHigh",
         {"transport.irn.RtoHigh",
          "1350us",
          "ConWeave simulator, rdma-hw.cc: IrnRtoHigh 1350 us"}},
        {"ecn.kmax", {"ecn.kmax", "400000", g_cwRunPy + " kmax_map: 400 KB at every rate"}},
    };
}

/**
 * ConWeave's simulator: hpcc-sim (its code is the HPCC simulator's, and so
 * are its NIC and switch models where ConWeave did not change them), then
 * what its run.py writes differently and what its code fixes.
 */
std::vector<RdmaPresetValue>
ConweaveSimPreset(const std::string& algorithm, uint64_t bw)
{
    auto mbps = [](uint64_t v) { return std::to_string(v) + "Mbps"; };
    std::map<std::string, RdmaPresetValue> own = ConweaveSimOwn();
    if (algorithm == "dcqcn")
    {
        own["cc.dcqcn.AiRate"] = {"cc.dcqcn.AiRate",
                                  mbps(10 * bw / 25),
                                  g_cwRunPy + " RATE_AI: ai = 10 * bw / 25 (Mb/s)"};
        own["cc.dcqcn.HaiRate"] = {"cc.dcqcn.HaiRate",
                                   mbps(25 * bw / 25),
                                   g_cwRunPy + " RATE_HAI: hai = 25 * bw / 25 (Mb/s)"};
        own["cc.dcqcn.MinRate"] = {"cc.dcqcn.MinRate",
                                   "100Mbps",
                                   g_cwRunPy + " config_template: MIN_RATE 100Mb/s"};
    }
    std::vector<RdmaPresetValue> v;
    for (const auto& h : HpccSimPreset(algorithm, bw))
    {
        auto it = own.find(h.key);
        if (it == own.end())
        {
            v.push_back(h);
            v.back().source = "as hpcc-sim: " + h.source;
        }
    }
    for (const auto& [key, value] : own)
    {
        v.push_back(value);
    }
    return v;
}

} // namespace

std::vector<RdmaPresetValue>
RdmaCcPreset(const std::string& name, const std::string& algorithm, DataRate nicRate)
{
    if (name == "paper")
    {
        return {};
    }
    if (name == "nvidia")
    {
        return NvidiaPreset();
    }
    if (name == "hpcc-sim")
    {
        return HpccSimPreset(algorithm, nicRate.GetBitRate() / 1000000000);
    }
    if (name == "conweave-sim")
    {
        return ConweaveSimPreset(algorithm, nicRate.GetBitRate() / 1000000000);
    }
    throw std::invalid_argument("expected paper, nvidia, hpcc-sim or conweave-sim");
}

void
RdmaApplyCcPreset(RdmaConfig& c, DataRate nicRate)
{
    const std::string name = c.Get("cc.preset");
    std::vector<RdmaPresetValue> values;
    try
    {
        values = RdmaCcPreset(name, c.Get("cc.algorithm"), nicRate);
    }
    catch (const std::invalid_argument& e)
    {
        throw RdmaConfigError(c.GetOrigin("cc.preset") + ": cc.preset = '" + name +
                              "': " + e.what());
    }
    for (const auto& v : values)
    {
        if (c.GetOrigin(v.key) == "default")
        {
            c.Set(v.key, v.value, "cc.preset = " + name + " (" + v.source + ")");
        }
    }
}

} // namespace ns3
