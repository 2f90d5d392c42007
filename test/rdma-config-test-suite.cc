/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaConfig: INI files and overrides over declared keys and ns-3
 * attributes, with errors that name the file, line and key.
 */

#include "rdma-test-data.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/rdma-key-names.h"
#include "ns3/rdma-unused-keys.h"
#include "ns3/rdma-value-check.h"
#include "ns3/rdma-value-text.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <sstream>
#include <tuple>

using namespace ns3;

namespace
{

/// \return a schema with two plain keys and the QbbNetDevice attributes
RdmaConfig
MakeSchema()
{
    RdmaConfig c;
    c.AddKey("traffic.load", "0.3", "offered load, fraction of host line rate");
    c.AddKey("sim.duration", "2ms", "simulated time of arrivals");
    c.AddAttributeGroup("link", "ns3::QbbNetDevice");
    return c;
}

using rdmatest::ErrorOf;

/// Keys, defaults from the TypeId, INI values with their lines, typed getters.
class RdmaConfigReadTestCase : public TestCase
{
  public:
    RdmaConfigReadTestCase()
        : TestCase("INI values over defaults; attribute keys take the TypeId's defaults; origins "
                   "name file and line")
    {
    }

  private:
    void DoRun() override
    {
        RdmaConfig c = MakeSchema();
        NS_TEST_ASSERT_MSG_EQ(c.HasKey("link.DataRate"), true, "attribute key");
        NS_TEST_EXPECT_MSG_EQ(c.Get("link.DataRate"), "100000000000bps", "TypeId default");
        NS_TEST_EXPECT_MSG_EQ(c.GetBitRate("link.DataRate"), 100000000000ULL, "as a rate");
        NS_TEST_EXPECT_MSG_EQ(c.GetOrigin("traffic.load"), "default", "never set");

        c.ReadIniText("# an experiment\n[traffic]\nload = 0.5\n\n[link]\nDataRate = 25Gbps  # "
                      "slower\n",
                      "exp.ini");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.GetDouble("traffic.load"), 0.5, 1e-12, "INI value");
        NS_TEST_EXPECT_MSG_EQ(c.GetOrigin("traffic.load"), "exp.ini:3", "origin line");
        NS_TEST_EXPECT_MSG_EQ(c.GetBitRate("link.DataRate"), 25000000000ULL, "attribute value");
        NS_TEST_EXPECT_MSG_EQ(c.GetOrigin("link.DataRate"), "exp.ini:6", "origin line");
        NS_TEST_EXPECT_MSG_EQ(c.GetTime("sim.duration"), MilliSeconds(2), "time default");

        c.Set("traffic.load", "0.7", "command line");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.GetDouble("traffic.load"), 0.7, 1e-12, "override wins");

        std::ostringstream printed;
        c.Print(printed);
        NS_TEST_EXPECT_MSG_NE(printed.str().find("[traffic]\nload = 0.7  # command line\n"),
                              std::string::npos,
                              "merged config shows value and origin");
        std::ostringstream help;
        c.PrintHelp(help);
        NS_TEST_EXPECT_MSG_NE(help.str().find("--link.DataRate (default: 100Gbps)"),
                              std::string::npos,
                              "help lists attribute keys with defaults");
    }
};

/// Each kind of bad input names where it is and what was expected.
class RdmaConfigErrorsTestCase : public TestCase
{
  public:
    RdmaConfigErrorsTestCase()
        : TestCase("unknown key, bad attribute value, repeated key, malformed line, bad number: "
                   "errors name file, line and key")
    {
    }

  private:
    void DoRun() override
    {
        auto read = [](const std::string& text) {
            return ErrorOf([&] { MakeSchema().ReadIniText(text, "bad.ini"); });
        };
        std::string e = read("[traffic]\nload = 0.5\nlaod = 0.4\n");
        NS_TEST_EXPECT_MSG_NE(e.find("bad.ini:3: unknown key 'traffic.laod'"),
                              std::string::npos,
                              e);
        e = read("[link]\nDataRate = fast\n");
        NS_TEST_EXPECT_MSG_NE(e.find("bad.ini:2: link.DataRate = 'fast': expected a rate with its "
                                     "unit"),
                              std::string::npos,
                              e);
        e = read("[traffic]\nload = 0.5\n[traffic]\nload = 0.6\n");
        NS_TEST_EXPECT_MSG_NE(e.find("bad.ini:4: 'traffic.load' is set twice (first at bad.ini:2)"),
                              std::string::npos,
                              e);
        e = read("[traffic]\nload 0.5\n");
        NS_TEST_EXPECT_MSG_NE(e.find("bad.ini:2: expected '[section]', 'name = value'"),
                              std::string::npos,
                              e);
        e = ErrorOf([] { MakeSchema().ReadIniFile("/nonexistent/exp.ini"); });
        NS_TEST_EXPECT_MSG_NE(e.find("/nonexistent/exp.ini: cannot open"), std::string::npos, e);

        RdmaConfig c = MakeSchema();
        c.Set("traffic.load", "half", "command line");
        e = ErrorOf([&] { c.GetDouble("traffic.load"); });
        NS_TEST_EXPECT_MSG_EQ(e,
                              "command line: traffic.load = 'half': expected a finite number",
                              e);
        e = ErrorOf([&] { c.Set("nosuch.key", "1", "command line"); });
        NS_TEST_EXPECT_MSG_NE(e.find("command line: unknown key 'nosuch.key'"),
                              std::string::npos,
                              e);
    }
};

/// Inputs read as the user meant: units, key case, nearest names, defaults as typed.
class RdmaConfigUserInputTestCase : public TestCase
{
  public:
    RdmaConfigUserInputTestCase()
        : TestCase("bare numbers and byte rates refused; byte keys take units; either case; "
                   "did you mean; defaults shown in units")
    {
    }

  private:
    void DoRun() override
    {
        // ns-3 reads a bare "1" as one second and "25GB/s" as 200 Gb/s.
        const Ptr<const AttributeChecker> time = MakeTimeChecker();
        NS_TEST_EXPECT_MSG_NE(RdmaCheckValue(time, "1").find("a bare number has none"),
                              std::string::npos,
                              "a time needs its unit");
        NS_TEST_EXPECT_MSG_EQ(RdmaCheckValue(time, "0"), "", "0 needs none");
        NS_TEST_EXPECT_MSG_EQ(RdmaCheckValue(time, "1us"), "", "with its unit");
        const Ptr<const AttributeChecker> rate = MakeDataRateChecker();
        NS_TEST_EXPECT_MSG_NE(RdmaCheckValue(rate, "25GB/s").find("ns-3 reads as 200Gbps"),
                              std::string::npos,
                              "a byte rate is refused with its reading in bits");
        NS_TEST_EXPECT_MSG_NE(RdmaCheckValue(rate, "100").find("a bare number has none"),
                              std::string::npos,
                              "a rate needs its unit");
        NS_TEST_EXPECT_MSG_EQ(RdmaCheckValue(rate, "25Gbps"), "", "bits per second");

        RdmaConfig c = MakeSchema();
        c.Set("Traffic.Load", "0.4", "command line");
        NS_TEST_EXPECT_MSG_EQ(c.Get("traffic.load"), "0.4", "a key in another case is the key");
        NS_TEST_EXPECT_MSG_EQ(c.Resolve("LINK.datarate", "x"), "link.DataRate", "either case");
        const std::string e = ErrorOf([&] { c.Set("traffic.laod", "1", "command line"); });
        NS_TEST_EXPECT_MSG_NE(e.find("(did you mean 'traffic.load'?)"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_EQ(RdmaKeyDistance("traffic.laod", "traffic.load"),
                              1u,
                              "a swap of neighbours costs 1");
        NS_TEST_EXPECT_MSG_EQ(RdmaKeyDistance("ecn.Kmin", "ecn.kmin"), 0u, "case is ignored");

        // Defaults as a user types them, reading back to the same value.
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(rate, "100000000000bps"), "100Gbps", "rate");
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(rate, "2500000bps"), "2.5Mbps", "decimals");
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(time, "+2e+11ps"), "200ms", "time");
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(time, "+1500000ps"), "1.5us", "decimals");
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(time, "+0ps"), "0s", "zero");
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(nullptr, "text"), "text", "no checker");
    }
};

/// Apply() makes attribute keys the defaults of objects created next.
class RdmaConfigApplyTestCase : public TestCase
{
  public:
    RdmaConfigApplyTestCase()
        : TestCase("Apply sets attribute defaults for new objects; Config::Reset undoes it")
    {
    }

  private:
    void DoRun() override
    {
        RdmaConfig c = MakeSchema();
        c.Set("link.DataRate", "40Gbps", "test");
        c.Apply("link");
        DataRateValue rate;
        CreateObject<QbbNetDevice>()->GetAttribute("DataRate", rate);
        NS_TEST_EXPECT_MSG_EQ(rate.Get().GetBitRate(), 40000000000ULL, "applied");
        Config::Reset();
        CreateObject<QbbNetDevice>()->GetAttribute("DataRate", rate);
        NS_TEST_EXPECT_MSG_EQ(rate.Get().GetBitRate(), 100000000000ULL, "reset");
    }
};

/// Every rdma-sim key's default is a value its own checker takes (AddKey
/// checks a default only in builds with NS_ASSERT), and a summary writes
/// times and rates in the units a user types.
class RdmaConfigDefaultsTestCase : public TestCase
{
  public:
    RdmaConfigDefaultsTestCase()
        : TestCase("every rdma-sim key's default passes its own checker")
    {
    }

  private:
    void DoRun() override
    {
        const RdmaConfig schema = RdmaMakeExperimentConfig();
        uint32_t checked = 0;
        for (const auto& key : schema.GetKeys())
        {
            if (!key.checker)
            {
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(RdmaCheckValue(key.checker, key.defaultValue),
                                  "",
                                  key.name << " = " << key.defaultValue);
            ++checked;
        }
        NS_TEST_EXPECT_MSG_GT(checked, 250u, "the schema's keys with a checker");
        const auto checkerOf = [&schema](const std::string& name) {
            for (const auto& key : schema.GetKeys())
            {
                if (key.name == name)
                {
                    return key.checker;
                }
            }
            return Ptr<const AttributeChecker>();
        };
        NS_TEST_EXPECT_MSG_EQ(
            RdmaValueText(checkerOf("link.DataRate"), schema.Get("link.DataRate")),
            "100Gbps",
            "a rate key's default as a user types it");
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(checkerOf("sim.stopTime"), "abc"),
                              "abc",
                              "a time that is no time is written as it is");
        NS_TEST_EXPECT_MSG_EQ(RdmaValueText(checkerOf("link.Mtu"), "1500"),
                              "1500",
                              "a number is written as it is");
    }
};

/// Keys set that the run does not use: each named with its reason.
class RdmaUnusedKeysTestCase : public TestCase
{
  public:
    RdmaUnusedKeysTestCase()
        : TestCase("RdmaUnusedKeys: a key the run does not read is named with why; one it "
                   "reads is not")
    {
    }

  private:
    /// \return the warnings of the default experiment with these keys set on the command line
    static std::vector<std::string> Unused(const std::vector<std::pair<std::string, std::string>>& set,
                                           uint32_t ranks = 1)
    {
        std::vector<std::string> warnings;
        RdmaConfig c = RdmaMakeExperimentConfig();
        c.ReadIniText(RdmaDefaultExperimentText(), "default");
        for (const auto& [k, v] : set)
        {
            c.Set(k, v, "command line");
        }
        std::vector<std::string> user;
        for (const std::string& k : RdmaSetKeys(c))
        {
            if (c.GetOrigin(k) == "command line")
            {
                user.push_back(k);
            }
        }
        for (const RdmaUnusedKey& u : RdmaUnusedKeys(c, user, ranks))
        {
            warnings.push_back(u.warning);
        }
        return warnings;
    }

    void DoRun() override
    {
        // The three: a go-back-N run, ECMP, a collective run.
        auto w = Unused({{"transport.irn.ReorderWindow", "64"}});
        NS_TEST_ASSERT_MSG_EQ(w.size(), 1u, "one warning");
        NS_TEST_EXPECT_MSG_EQ(w[0],
                              "command line: transport.irn.ReorderWindow = 64 is not used: "
                              "transport.recovery = go-back-n (it takes effect with irn)",
                              "IRN's window under go-back-N");
        NS_TEST_EXPECT_MSG_EQ(Unused({{"transport.recovery", "irn"},
                                      {"transport.irn.ReorderWindow", "64"}})
                                  .size(),
                              0u,
                              "under IRN it is used");
        w = Unused({{"switch.drill.Samples", "4"}});
        NS_TEST_ASSERT_MSG_EQ(w.size(), 1u, "DRILL's samples under ECMP");
        NS_TEST_EXPECT_MSG_EQ((w[0].find("switch.drill.Samples = 4 is not used: "
                                         "switch.LoadBalancing = Ecmp") != std::string::npos),
                              true,
                              w[0]);
        w = Unused({{"traffic.pattern", "collective"},
                    {"traffic.load", "0.5"},
                    {"traffic.cdf", "fbhdp"},
                    {"traffic.duration", "1ms"}});
        NS_TEST_EXPECT_MSG_EQ(w.size(), 3u, "load, cdf and duration under collective");
        // Keys each pattern, generator and mode reads are not named.
        NS_TEST_EXPECT_MSG_EQ(Unused({{"traffic.load", "0.5"},
                                      {"cc.dcqcn.AiRate", "10Mbps"},
                                      {"topology.k", "8"},
                                      {"sim.seed", "3"}})
                                  .size(),
                              0u,
                              "the default run reads them all");
        NS_TEST_EXPECT_MSG_EQ(Unused({{"traffic.pattern", "incast"},
                                      {"traffic.background", "poisson"},
                                      {"traffic.cdf", "fbhdp"},
                                      {"traffic.backgroundLoad", "0.2"}})
                                  .size(),
                              0u,
                              "incast with Poisson background reads the CDF and its load");
        w = Unused({{"cc.algorithm", "hpcc"}, {"cc.dcqcn.AiRate", "10Mbps"}, {"topology.leaves", "3"}});
        NS_TEST_EXPECT_MSG_EQ(w.size(), 2u, "DCQCN's rate under HPCC, leaves on a fat tree");
        w = Unused({{"cache.qpc.Entries", "64"}});
        NS_TEST_ASSERT_MSG_EQ(w.size(), 1u, "a cache without the pipeline");
        NS_TEST_EXPECT_MSG_EQ((w[0].find("nic.pipeline = false") != std::string::npos), true, w[0]);
        NS_TEST_EXPECT_MSG_EQ(Unused({{"nic.pipeline", "true"}, {"cache.qpc.Entries", "64"}}).size(),
                              0u,
                              "with the pipeline");
        NS_TEST_EXPECT_MSG_EQ(Unused({{"sim.partitionRule", "metis"}}).size(), 1u, "one rank");
        NS_TEST_EXPECT_MSG_EQ(Unused({{"sim.partitionRule", "metis"}}, 2).size(), 0u, "two ranks");
    }
};

/**
 * Every key of rdma-sim's schema against texts that made ns-3 abort or
 * silently change the value (DeserializeFromString on "abc", "1 2", "nan",
 * "-1" as an integer, "1e999s", a rate beyond 2^64 bit/s): Set either takes
 * the value or throws RdmaConfigError naming the key, never aborts; and
 * every value Set takes, Config::SetDefault takes too (it aborts otherwise).
 */
class RdmaConfigHostileValuesTestCase : public TestCase
{
  public:
    RdmaConfigHostileValuesTestCase()
        : TestCase("every schema key: hostile texts are refused with the key named, or taken "
                   "and accepted by Config::SetDefault; never an abort")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> texts{"",       "abc",      "-1",         "1 2",
                                             " 1",     "1 ",       "nan",        "inf",
                                             "1e999",  "1e999s",   "-5us",       "0",
                                             "0.5",    "1e30Gbps", "0.5bps",     "10us",
                                             "100Gbps", "18446744073709551616", "true", "x y",
                                             "1e-999", "+3",       "--1",        "0x10"};
        const RdmaConfig schema = RdmaMakeExperimentConfig();
        uint32_t refused = 0;
        uint32_t taken = 0;
        for (const auto& key : schema.GetKeys())
        {
            for (const auto& text : texts)
            {
                RdmaConfig c = schema;
                const std::string e = ErrorOf([&] { c.Set(key.name, text, "test"); });
                if (!e.empty())
                {
                    NS_TEST_EXPECT_MSG_NE(e.find("test: " + key.name + " = '" + text + "'"),
                                          std::string::npos,
                                          e);
                    ++refused;
                    continue;
                }
                ++taken;
                if (!key.typeId.empty())
                {
                    // Aborts the runner if the value is one ns-3 refuses.
                    Config::SetDefault(key.typeId + "::" + key.attribute, StringValue(text));
                    Config::Reset();
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(refused, 1000u, "most hostile texts are refused");
        NS_TEST_EXPECT_MSG_GT(taken, 100u, "valid numbers are taken");

        // The forms of bad values, one key a family.
        RdmaConfig c = schema;
        for (const auto& [key, text, expected] :
             std::vector<std::tuple<std::string, std::string, std::string>>{
                 {"pfc.Alpha", "-1", "expected a finite number >= 1e-09"},
                 {"pfc.Alpha", "abc", "expected a finite number >= 1e-09"},
                 {"sim.stopTime", "0s", "expected a duration with its unit"},
                 {"sim.stopTime", "abc", "expected a duration with its unit"},
                 {"topology.linkDelay", "-1us", "expected a duration with its unit"},
                 {"topology.hostRate", "0Gbps", "expected a rate with its unit"},
                 {"traffic.priority", "9", "expected a whole number <= 7"},
                 {"sim.seed", "4294967296", "expected a whole number >= 1"},
                 {"topology.type", "ring", "expected one of fat-tree,leaf-spine"},
                 {"ecn.pmax", "nan", "expected a finite number from 0 to 1"}})
        {
            const std::string e = ErrorOf([&c, k = key, t = text] { c.Set(k, t, "--" + k); });
            NS_TEST_EXPECT_MSG_NE(e.find("--" + key + ": " + key + " = '" + text + "': " +
                                         expected),
                                  std::string::npos,
                                  key + " = " + text + ": " + e);
        }
    }
};

/// The suite.
class RdmaConfigTestSuite : public TestSuite
{
  public:
    RdmaConfigTestSuite()
        : TestSuite("rdma-config", UNIT)
    {
        AddTestCase(new RdmaConfigReadTestCase, TestCase::QUICK);
        AddTestCase(new RdmaConfigErrorsTestCase, TestCase::QUICK);
        AddTestCase(new RdmaConfigApplyTestCase, TestCase::QUICK);
        AddTestCase(new RdmaConfigUserInputTestCase, TestCase::QUICK);
        AddTestCase(new RdmaConfigHostileValuesTestCase, TestCase::QUICK);
        AddTestCase(new RdmaConfigDefaultsTestCase, TestCase::QUICK);
        AddTestCase(new RdmaUnusedKeysTestCase, TestCase::QUICK);
    }
};

/// Static instance.
static RdmaConfigTestSuite g_rdmaConfigTestSuite;

} // namespace
