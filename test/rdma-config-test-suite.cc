/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaConfig: INI files and overrides over declared keys and ns-3
 * attributes, with errors that name the file, line and key.
 */

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-config.h"
#include "ns3/test.h"

#include <sstream>

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

/// \return the message of the RdmaConfigError the function throws, or ""
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const RdmaConfigError& e)
    {
        return e.what();
    }
    return "";
}

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
        NS_TEST_EXPECT_MSG_NE(help.str().find("--link.DataRate (default: 100000000000bps)"),
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
        NS_TEST_EXPECT_MSG_NE(e.find("bad.ini:2: link.DataRate = 'fast' is not a valid DataRate"),
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
        NS_TEST_EXPECT_MSG_EQ(e, "command line: traffic.load = 'half': expected a number", e);
        e = ErrorOf([&] { c.Set("nosuch.key", "1", "command line"); });
        NS_TEST_EXPECT_MSG_NE(e.find("command line: unknown key 'nosuch.key'"),
                              std::string::npos,
                              e);
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
    }
};

/// Static instance.
static RdmaConfigTestSuite g_rdmaConfigTestSuite;

} // namespace
