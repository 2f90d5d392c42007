/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * nic.preset (RdmaNicPreset): the keys a NIC profile sets and their
 * sources, the user's keys winning, the refusals, and the nfp6000 profile's
 * PCIe link against pcie-bench's published NFP-6000 measurements (Neugebauer
 * et al., SIGCOMM 2018; github.com/pcie-bench/data).
 */

#include "ns3/pcie-link.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/rdma-nic-preset.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <functional>

using namespace ns3;

namespace
{

/// \return a PcieLink with the profile's pcie keys set \param name the profile
Ptr<PcieLink>
ProfileLink(const std::string& name)
{
    Ptr<PcieLink> link = CreateObject<PcieLink>();
    for (const auto& v : RdmaNicPreset(name))
    {
        if (v.key.rfind("pcie.", 0) == 0)
        {
            link->SetAttribute(v.key.substr(5), StringValue(v.value));
        }
    }
    return link;
}

/// \return whether f throws an RdmaConfigError whose text holds part
bool
Refused(const std::function<void()>& f, const std::string& part)
{
    try
    {
        f();
    }
    catch (const RdmaConfigError& e)
    {
        return std::string(e.what()).find(part) != std::string::npos;
    }
    return false;
}

/// The profile through a configuration.
class NicPresetKeysTestCase : public TestCase
{
  public:
    NicPresetKeysTestCase()
        : TestCase("nfp6000 sets nic.pipeline and its pcie keys with pcie-bench as their "
                   "source; the user's keys win; unknown names and nic.pipeline = false are "
                   "refused naming the key")
    {
    }

  private:
    void DoRun() override
    {
        RdmaConfig c = RdmaMakeExperimentConfig();
        c.Set("nic.preset", "nfp6000", "test");
        c.Set("pcie.ReadLatency", "900ns", "test");
        RdmaApplyNicPreset(c);
        NS_TEST_EXPECT_MSG_EQ(c.Get("nic.pipeline"), "true", "a profile is the NIC as hardware");
        NS_TEST_EXPECT_MSG_EQ(c.Get("pcie.ReadLatency"), "900ns", "the user's value wins");
        NS_TEST_EXPECT_MSG_EQ(c.Get("pcie.Lanes"), "8", "the NFP-6000 is Gen3 x8");
        NS_TEST_EXPECT_MSG_EQ(c.GetOrigin("pcie.Lanes").rfind("nic.preset = nfp6000 (", 0),
                              0,
                              "origin names the profile");
        for (const auto& v : RdmaNicPreset("nfp6000"))
        {
            NS_TEST_EXPECT_MSG_NE(v.source.find("pcie-bench"),
                                  std::string::npos,
                                  v.key << " cites pcie-bench: " << v.source);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaNicPreset("none").size(), 0u, "none: the defaults");

        RdmaConfig bad = RdmaMakeExperimentConfig();
        bad.Set("nic.preset", "cx7", "cli");
        NS_TEST_EXPECT_MSG_EQ(Refused([&]() { RdmaApplyNicPreset(bad); },
                                      "nic.preset = 'cx7': expected one of none, nfp6000"),
                              true,
                              "unknown profile");
        RdmaConfig off = RdmaMakeExperimentConfig();
        off.Set("nic.preset", "nfp6000", "cli");
        off.Set("nic.pipeline", "false", "cli");
        NS_TEST_EXPECT_MSG_EQ(Refused([&]() { RdmaApplyNicPreset(off); }, "nic.pipeline = false"),
                              true,
                              "a profile with the NIC at zero cost");
    }
};

/// The profile's link against the published points.
class Nfp6000AgainstPcieBenchTestCase : public TestCase
{
  public:
    Nfp6000AgainstPcieBenchTestCase()
        : TestCase("nfp6000: a 64-byte DMA read takes 546.7 ns and a 2 KiB one 1133.3 ns "
                   "(LAT_DMA_RD medians, within 3 %); 2 KiB reads 64 at a time reach 55.6 Gb per s "
                   "(BW_DMA_RD, within 5 %)")
    {
    }

  private:
    void DoRun() override
    {
        for (auto [bytes, ns] : {std::pair<uint64_t, double>{64, 546.7}, {2048, 1133.3}})
        {
            Ptr<PcieLink> link = ProfileLink("nfp6000");
            Time done;
            link->DmaRead(bytes,
                          MakeBoundCallback(
                              +[](Time* t) { *t = Simulator::Now(); },
                              &done));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ_TOL(done.GetNanoSeconds(),
                                      ns,
                                      0.03 * ns,
                                      bytes << " B read (ns)");
            Simulator::Destroy();
        }
        // BW_DMA_RD at 2048 B: 55.58 Gb/s. 64 reads in flight, each
        // reissued as it completes, 2,000 in all.
        Ptr<PcieLink> link = ProfileLink("nfp6000");

        struct Load
        {
            Ptr<PcieLink> link;
            uint32_t left{2000};
            Time last;

            static void Done(Load* l)
            {
                l->last = Simulator::Now();
                if (l->left > 0)
                {
                    --l->left;
                    l->link->DmaRead(2048, MakeBoundCallback(&Load::Done, l));
                }
            }
        } load{link, 2000, Time(0)};

        for (uint32_t i = 0; i < 64; ++i)
        {
            --load.left;
            link->DmaRead(2048, MakeBoundCallback(&Load::Done, &load));
        }
        Simulator::Run();
        double gbps = 2000.0 * 2048 * 8 / load.last.GetSeconds() / 1e9;
        NS_TEST_EXPECT_MSG_EQ_TOL(gbps, 55.58, 0.05 * 55.58, "2 KiB reads (Gb/s)");
        Simulator::Destroy();
    }
};

/// The nic.preset suite.
class RdmaNicPresetTestSuite : public TestSuite
{
  public:
    RdmaNicPresetTestSuite()
        : TestSuite("rdma-nic-preset", UNIT)
    {
        AddTestCase(new NicPresetKeysTestCase, TestCase::QUICK);
        AddTestCase(new Nfp6000AgainstPcieBenchTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
RdmaNicPresetTestSuite g_rdmaNicPresetTestSuite;

} // namespace
