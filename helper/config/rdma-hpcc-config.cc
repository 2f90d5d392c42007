/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The HPCC simulator's config.txt as rdma-sim keys.
 */

#include "rdma-hpcc-config.h"

#include "rdma-config.h"

#include "ns3/rdma-hpcc-topology-reader.h"
#include "ns3/rdma-path-mtu.h"
#include "ns3/rdma-text-reader.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace ns3
{

namespace
{

/// Reads one config.txt: a line's key dispatches to its rule.
class HpccConfigParser
{
  public:
    HpccConfigParser(const std::string& text,
                     const std::string& name,
                     const std::set<uint64_t>& linkRates)
        : m_in(text),
          m_reader(m_in, name),
          m_linkRates(linkRates)
    {
    }

    RdmaHpccConfig Parse()
    {
        std::set<std::string> seen;
        while (m_reader.NextLine(m_tokens))
        {
            const std::string& key = m_tokens[0];
            if (!seen.insert(key).second)
            {
                m_reader.Fail(key + ": given twice");
            }
            Dispatch(key);
        }
        Finish(seen);
        return m_out;
    }

  private:
    /// \return "file:line"
    std::string Where() const
    {
        return m_reader.GetName() + ":" + std::to_string(m_reader.GetLine());
    }

    void Set(const std::string& key, const std::string& value)
    {
        m_out.settings.push_back({key, value, Where()});
    }

    /**
     * \brief What only the whole file decides: ConWeave's run.py writes no
     * SIMULATOR_STOP_TIME (its simulator stops at FLOWGEN_STOP_TIME + 10 s,
     * or when every flow is done), and its simulator's own choices (ACKs
     * ahead of data in every queue, its switch MMU) make a file with its keys
     * select cc.preset = conweave-sim rather than hpcc-sim.
     * \param seen the keys of the file
     */
    void Finish(const std::set<std::string>& seen)
    {
        if (m_flowgenStop && !seen.count("SIMULATOR_STOP_TIME"))
        {
            std::ostringstream t;
            t.precision(15); // 2.005 + 10 prints as 12.005
            t << m_flowgenStop->first + 10 << "s";
            m_out.settings.push_back({"sim.stopTime", t.str(), m_flowgenStop->second});
        }
        if (!m_conweaveKey.empty())
        {
            for (auto& st : m_out.settings)
            {
                if (st.key == "cc.preset" && st.value == "hpcc-sim")
                {
                    st.value = "conweave-sim";
                    st.where += " (with " + m_conweaveKey + ", a key of ConWeave's simulator)";
                }
            }
        }
    }

    /// Remembers the first key only ConWeave's simulator reads.
    void NoteConweaveKey(const std::string& key)
    {
        if (m_conweaveKey.empty())
        {
            m_conweaveKey = key;
        }
    }

    void Warn(const std::string& message)
    {
        m_out.warnings.push_back(Where() + ": " + message);
    }

    /// The line's one value (the key must have exactly one).
    const std::string& One(const std::string& what)
    {
        if (m_tokens.size() != 2)
        {
            m_reader.Fail(m_tokens[0] + ": expected one value (" + what + "), got " +
                          std::to_string(m_tokens.size() - 1));
        }
        return m_tokens[1];
    }

    uint64_t Uint(const std::string& what, uint64_t min = 0, uint64_t max = UINT32_MAX)
    {
        return m_reader.ToUint(One(what), m_tokens[0] + " " + what, min, max);
    }

    double Number(const std::string& what)
    {
        return m_reader.ToDouble(One(what), m_tokens[0] + " " + what);
    }

    bool Flag()
    {
        return Uint("0 or 1", 0, 1) == 1;
    }

    /// A time in microseconds, as the simulator's DCQCN timers.
    std::string Micros()
    {
        double us = Number("microseconds");
        if (us < 0)
        {
            m_reader.Fail(m_tokens[0] + ": expected microseconds >= 0, got " + m_tokens[1]);
        }
        std::ostringstream s;
        s.precision(17);
        s << us * 1000 << "ns";
        return s.str();
    }

    /// An ns-3 rate string ("5Mb/s"), checked.
    std::string Rate()
    {
        const std::string& text = One("an ns-3 rate such as 5Mb/s");
        DataRate r;
        if (!RdmaHpccTopologyReader::ParseRate(text, &r))
        {
            m_reader.Fail(m_tokens[0] + ": expected an ns-3 rate such as 5Mb/s, got '" + text +
                          "'");
        }
        return std::to_string(r.GetBitRate()) + "bps";
    }

    /**
     * \brief A per-rate map "n rate value ...".
     * \return rate (bit/s) -> value
     */
    std::map<uint64_t, double> Map()
    {
        const std::string key = m_tokens[0];
        if (m_tokens.size() < 2)
        {
            m_reader.Fail(key + ": expected a count of entries, got nothing");
        }
        const uint64_t n = m_reader.ToUint(m_tokens[1], key + " entry count", 1, 64);
        if (m_tokens.size() != 2 + 2 * n)
        {
            m_reader.Fail(key + ": " + std::to_string(n) + " entries need " +
                          std::to_string(2 * n) + " values after the count, got " +
                          std::to_string(m_tokens.size() - 2));
        }
        std::map<uint64_t, double> m;
        for (uint64_t i = 0; i < n; ++i)
        {
            const uint64_t rate =
                m_reader.ToUint(m_tokens[2 + 2 * i], key + " rate (bit/s)", 1, UINT64_MAX);
            m[rate] = m_reader.ToDouble(m_tokens[3 + 2 * i], key + " value");
        }
        // The simulator looks up each switch port's own rate: entries for
        // rates no link has are never read (ConWeave's run.py writes six
        // rates, with Pmax 0 at 20 and 50 Gb/s, for a fabric of 100 Gb/s).
        std::map<uint64_t, double> used;
        for (const auto& [rate, value] : m)
        {
            if (m_linkRates.count(rate))
            {
                used[rate] = value;
            }
        }
        return used.empty() ? m : used;
    }

    /// KMIN_MAP / KMAX_MAP: per-rate KB (x 1000 bytes, SwitchMmu::ConfigEcn).
    void KMap(const std::string& ourKey, double kbPerGbps)
    {
        const std::string key = m_tokens[0];
        auto m = Map();
        std::set<double> values;
        bool perRateDefault = true;
        for (const auto& [rate, kb] : m)
        {
            values.insert(kb);
            perRateDefault &= std::fabs(kb - kbPerGbps * static_cast<double>(rate) / 1e9) < 1e-6;
        }
        if (perRateDefault)
        {
            Set(ourKey, "0"); // SwitchEcnParams::ForRate, the same values per rate
        }
        else if (values.size() == 1)
        {
            Set(ourKey, std::to_string(static_cast<uint64_t>(std::llround(*values.begin() * 1000))));
        }
        else
        {
            m_reader.Fail(key + ": only one value for every rate, or " +
                          std::to_string(static_cast<int>(kbPerGbps)) +
                          " KB per Gb/s (this module's per-rate default), are modelled");
        }
    }

    /// Dispatch's step: the topology, flow, congestion-control, stop-time,
    /// MTU and ACK-interval keys. \return whether `key` is one of them
    bool SetRunKey(const std::string& key)
    {
        static const std::map<std::string, std::string> cc{{"1", "dcqcn"},
                                                           {"3", "hpcc"},
                                                           {"7", "timely"},
                                                           {"8", "dctcp"}};
        if (key == "TOPOLOGY_FILE")
        {
            Set("topology.type", "hpcc");
            Set("topology.file", One("a path"));
        }
        else if (key == "FLOW_FILE")
        {
            Set("traffic.pattern", "flow-file");
            Set("traffic.flowFile", One("a path"));
        }
        else if (key == "CC_MODE")
        {
            const std::string& mode = One("1, 3, 7 or 8");
            auto it = cc.find(mode);
            if (it == cc.end())
            {
                m_reader.Fail("CC_MODE: expected 1 (DCQCN), 3 (HPCC), 7 (TIMELY) or 8 (DCTCP), "
                              "got '" +
                              mode + "' (10, HPCC-PINT, is not modelled)");
            }
            Set("cc.algorithm", it->second);
            if (mode == "1" || mode == "3")
            {
                Set("cc.preset", "hpcc-sim");
            }
        }
        else if (key == "SIMULATOR_STOP_TIME")
        {
            std::ostringstream s;
            s.precision(17);
            s << Number("seconds") << "s";
            Set("sim.stopTime", s.str());
        }
        else if (key == "PACKET_PAYLOAD_SIZE")
        {
            const uint64_t payload = Uint("bytes", 1);
            const uint64_t mtu = RdmaPathMtu::NearestBytes(payload);
            if (mtu != payload)
            {
                Warn("PACKET_PAYLOAD_SIZE " + std::to_string(payload) + ": IB path MTUs are " +
                     RdmaPathMtu::Rule() + "; using " + std::to_string(mtu));
            }
            Set("transport.pathMtu", std::to_string(mtu));
            m_payload = payload;
        }
        else if (key == "L2_ACK_INTERVAL")
        {
            const uint64_t bytes = Uint("bytes (1: every packet)", 1);
            Set("transport.AckReqInterval",
                std::to_string(std::max<uint64_t>(1, (bytes + m_payload - 1) / m_payload)));
        }
        else
        {
            return false;
        }
        return true;
    }

    /// Dispatch's step: the switch, link, buffer, ECN and ACK-priority keys.
    /// \return whether `key` is one of them
    bool SetFabricKey(const std::string& key)
    {
        if (key == "ENABLE_QCN")
        {
            Set("switch.EcnEnabled", Flag() ? "true" : "false");
        }
        else if (key == "USE_DYNAMIC_PFC_THRESHOLD")
        {
            if (!Flag())
            {
                Warn("USE_DYNAMIC_PFC_THRESHOLD 0: the simulator then still uses its dynamic "
                     "threshold; so does this run");
            }
        }
        else if (key == "L2_BACK_TO_ZERO" || key == "ERROR_RATE_PER_LINK")
        {
            if (Number("0 or a value") != 0)
            {
                Warn(key + " " + m_tokens[1] + ": not modelled, ignored");
            }
        }
        else if (key == "LINK_DOWN")
        {
            if (m_tokens.size() != 4)
            {
                m_reader.Fail("LINK_DOWN: expected 'time_us node_a node_b', got " +
                              std::to_string(m_tokens.size() - 1) + " values");
            }
            if (m_reader.ToUint(m_tokens[1], "LINK_DOWN time (us)", 0, UINT64_MAX) != 0)
            {
                Warn("LINK_DOWN: link failures from config.txt are not modelled, ignored");
            }
        }
        else if (key == "BUFFER_SIZE")
        {
            Set("pfc.BufferSize", std::to_string(Uint("MB", 1, 1u << 20) * 1024 * 1024));
        }
        else if (key == "KMIN_MAP")
        {
            KMap("ecn.kmin", 4);
        }
        else if (key == "KMAX_MAP")
        {
            KMap("ecn.kmax", 16);
        }
        else if (key == "PMAX_MAP")
        {
            std::set<double> values;
            for (const auto& [rate, p] : Map())
            {
                values.insert(p);
            }
            if (values.size() != 1)
            {
                m_reader.Fail("PMAX_MAP: only one Pmax for every rate is modelled");
            }
            std::ostringstream s;
            s << *values.begin();
            Set("ecn.pmax", s.str());
        }
        else if (key == "ACK_HIGH_PRIO")
        {
            if (Flag())
            {
                Warn("ACK_HIGH_PRIO 1: the simulator's hosts then pause their ACK queue "
                     "(always sent ahead of data) with class 0; its switches still queue "
                     "ACKs with data. Here ACKs pause and travel with their QP's class "
                     "(ahead of data at the NIC with nic.tx.ResponsesFirst, which "
                     "cc.preset = hpcc-sim sets) unless nic.AckPriority gives them one of "
                     "their own; CNPs go in RdmaNic::CnpPriority");
            }
        }
        else
        {
            return false;
        }
        return true;
    }

    /// Dispatch's step: the DCQCN and HPCC parameters.
    /// \return whether `key` is one of them
    bool SetCcKey(const std::string& key)
    {
        if (key == "ALPHA_RESUME_INTERVAL")
        {
            Set("cc.dcqcn.AlphaUpdateInterval", Micros());
        }
        else if (key == "RATE_DECREASE_INTERVAL")
        {
            Set("cc.dcqcn.RateReduceMonitorPeriod", Micros());
        }
        else if (key == "RP_TIMER")
        {
            Set("cc.dcqcn.TimeReset", Micros());
        }
        else if (key == "CLAMP_TARGET_RATE")
        {
            Set("cc.dcqcn.ClampTargetRate", Flag() ? "true" : "false");
        }
        else if (key == "EWMA_GAIN")
        {
            Set("cc.dcqcn.G", One("a gain in [0, 1]"));
        }
        else if (key == "FAST_RECOVERY_TIMES")
        {
            Set("cc.dcqcn.Threshold", std::to_string(Uint("a count")));
        }
        else if (key == "RATE_AI")
        {
            const std::string r = Rate();
            Set("cc.dcqcn.AiRate", r);
            Set("cc.hpcc.RateAi", r);
        }
        else if (key == "RATE_HAI")
        {
            Set("cc.dcqcn.HaiRate", Rate());
        }
        else if (key == "MIN_RATE")
        {
            const std::string r = Rate();
            Set("cc.dcqcn.MinRate", r);
            Set("cc.hpcc.MinRate", r);
        }
        else if (key == "U_TARGET")
        {
            Set("cc.hpcc.TargetUtilization", One("a fraction"));
        }
        else if (key == "MI_THRESH")
        {
            Set("cc.hpcc.MaxStage", std::to_string(Uint("a count")));
        }
        else if (key == "FAST_REACT")
        {
            Set("cc.hpcc.FastReact", Flag() ? "true" : "false");
        }
        else
        {
            return false;
        }
        return true;
    }

    /// Dispatch's step: the keys only ConWeave's simulator reads (NoteConweaveKey).
    /// \return whether `key` is one of them
    bool SetConweaveKey(const std::string& key)
    {
        // ConWeave's simulator (github.com/conweave-project/conweave-ns3,
        // scratch/network-load-balance.cc): its own keys, read there for
        // outputs, monitors, the flow generator's window and ConWeave's
        // timers (LB_MODE 9 only), with no counterpart here.
        static const std::set<std::string> conweaveUnused{"FLOW_INPUT_FILE",
                                                          "CNP_OUTPUT_FILE",
                                                          "VOQ_MON_FILE",
                                                          "VOQ_MON_DETAIL_FILE",
                                                          "UPLINK_MON_FILE",
                                                          "CONN_MON_FILE",
                                                          "EST_ERROR_MON_FILE",
                                                          "SW_MONITORING_INTERVAL",
                                                          "FLOWGEN_START_TIME",
                                                          "LOAD",
                                                          "CONWEAVE_TX_EXPIRY_TIME",
                                                          "CONWEAVE_REPLY_TIMEOUT_EXTRA",
                                                          "CONWEAVE_PATH_PAUSE_TIME",
                                                          "CONWEAVE_EXTRA_VOQ_FLUSH_TIME",
                                                          "CONWEAVE_DEFAULT_VOQ_WAITING_TIME"};
        static const std::map<std::string, std::string> lb{{"0", "Ecmp"},
                                                           {"2", "Drill"},
                                                           {"3", "Conga"},
                                                           {"6", "LetFlow"}};
        if (key == "LB_MODE")
        {
            NoteConweaveKey(key);
            const std::string& mode = One("0, 2, 3 or 6");
            auto it = lb.find(mode);
            if (it == lb.end())
            {
                m_reader.Fail("LB_MODE: expected 0 (per-flow ECMP), 2 (DRILL), 3 (CONGA) or 6 "
                              "(LetFlow), got '" +
                              mode + "' (9, ConWeave, is not modelled)");
            }
            Set("switch.LoadBalancing", it->second);
        }
        else if (key == "ENABLE_PFC")
        {
            NoteConweaveKey(key);
            Set("pfc.PfcEnabled", Flag() ? "true" : "false");
        }
        else if (key == "ENABLE_IRN")
        {
            NoteConweaveKey(key);
            Set("transport.recovery", Flag() ? "irn" : "go-back-n");
        }
        else if (key == "FLOWGEN_STOP_TIME")
        {
            NoteConweaveKey(key);
            const double t = Number("seconds");
            if (t < 0)
            {
                m_reader.Fail("FLOWGEN_STOP_TIME: expected seconds >= 0, got " + m_tokens[1]);
            }
            m_flowgenStop = std::make_pair(t, Where());
        }
        else if (key == "RANDOM_SEED")
        {
            NoteConweaveKey(key);
            Set("sim.seed", std::to_string(Uint("a seed >= 1", 1)));
        }
        else if (conweaveUnused.count(key))
        {
            NoteConweaveKey(key); // read by ConWeave's simulator for models and outputs not here
        }
        else
        {
            return false;
        }
        return true;
    }

    void Dispatch(const std::string& key)
    {
        // Known keys with no counterpart here: accepted in their documented form.
        static const std::set<std::string> unused{
            "TRACE_FILE", "TRACE_OUTPUT_FILE", "FCT_OUTPUT_FILE", "PFC_OUTPUT_FILE",
            "QLEN_MON_FILE", "QLEN_MON_START", "QLEN_MON_END", "ENABLE_TRACE", "GLOBAL_T",
            "HAS_WIN", "VAR_WIN", "INT_MULTI", "MULTI_RATE", "SAMPLE_FEEDBACK", "PINT_LOG_BASE",
            "PINT_PROB", "RATE_BOUND", "DCTCP_RATE_AI", "PAUSE_TIME", "DATA_RATE", "LINK_DELAY",
            "L2_CHUNK_SIZE"};
        if (SetRunKey(key) || SetFabricKey(key) || SetCcKey(key) || SetConweaveKey(key))
        {
            return;
        }
        if (unused.count(key))
        {
            // Read by the simulator for its own outputs or models not here.
        }
        else
        {
            Warn(key + ": unknown key, ignored");
        }
    }

    std::istringstream m_in;           //!< the text
    RdmaTextReader m_reader;           //!< lines and numbers with file:line errors
    std::vector<std::string> m_tokens; //!< the current line
    uint64_t m_payload{1000};          //!< PACKET_PAYLOAD_SIZE (the simulator's default)
    std::set<uint64_t> m_linkRates;    //!< the topology's link rates (empty: unknown)
    std::string m_conweaveKey;         //!< a key only ConWeave's simulator reads, if any
    std::optional<std::pair<double, std::string>> m_flowgenStop; //!< FLOWGEN_STOP_TIME, where
    RdmaHpccConfig m_out;              //!< the result
};

/// \return whether a regular file exists at the path
bool
IsFile(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

/**
 * \brief The link rates of the topology the run will use: topology.file if
 * the INI file or command line gave it, else the config's TOPOLOGY_FILE
 * (none if they gave a topology.type other than hpcc).
 * \param c the configuration
 * \param text the config.txt
 * \param resolve how a path in it is found
 * \return the rates in bit/s; empty if the file cannot be read (its error
 * comes when the topology is built)
 */
std::set<uint64_t>
HpccLinkRates(const RdmaConfig& c,
              const std::string& text,
              const std::function<std::string(const std::string&)>& resolve)
{
    if (c.GetOrigin("topology.type") != "default" && c.Get("topology.type") != "hpcc")
    {
        return {}; // another kind of topology: its rates are not known here
    }
    std::string file;
    if (c.GetOrigin("topology.file") != "default")
    {
        file = c.Get("topology.file");
    }
    else
    {
        std::istringstream lines(text);
        std::string line;
        while (std::getline(lines, line))
        {
            std::istringstream words(line);
            std::string key;
            std::string value;
            if (words >> key >> value && key == "TOPOLOGY_FILE")
            {
                file = resolve(value);
                break;
            }
        }
    }
    std::set<uint64_t> rates;
    try
    {
        for (const auto& link : RdmaHpccTopologyReader::ReadFile(file).links)
        {
            rates.insert(link.rate.GetBitRate());
        }
    }
    catch (const std::exception&)
    {
        return {};
    }
    return rates;
}

} // namespace

RdmaHpccConfig
RdmaParseHpccConfig(const std::string& text,
                    const std::string& name,
                    const std::set<uint64_t>& linkRates)
{
    try
    {
        return HpccConfigParser(text, name, linkRates).Parse();
    }
    catch (const RdmaHpccConfigError&)
    {
        throw;
    }
    catch (const std::runtime_error& e)
    {
        throw RdmaHpccConfigError(e.what());
    }
}

std::vector<std::string>
RdmaApplyHpccConfig(RdmaConfig& c, const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw RdmaConfigError(c.GetOrigin("hpcc.config") + ": hpcc.config = " + path +
                              ": cannot read the file");
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::string folder =
        path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
    // As the simulator reads a path: from the working directory, else from
    // the config file's folder.
    auto resolve = [&folder](const std::string& p) {
        return !p.empty() && p[0] != '/' && !IsFile(p) && IsFile(folder + "/" + p)
                   ? folder + "/" + p
                   : p;
    };
    RdmaHpccConfig hc;
    try
    {
        hc = RdmaParseHpccConfig(text.str(), path, HpccLinkRates(c, text.str(), resolve));
    }
    catch (const RdmaHpccConfigError& e)
    {
        throw RdmaConfigError(e.what());
    }
    for (auto s : hc.settings)
    {
        if (c.GetOrigin(s.key) != "default")
        {
            continue; // the INI file or command line wins
        }
        if (s.key == "topology.file" || s.key == "traffic.flowFile")
        {
            s.value = resolve(s.value);
        }
        try
        {
            c.Set(s.key, s.value, s.where);
        }
        catch (const RdmaConfigError& e)
        {
            throw RdmaConfigError(s.where + ": " + e.what());
        }
    }
    return hc.warnings;
}

} // namespace ns3
