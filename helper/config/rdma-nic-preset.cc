/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * nic.preset: the NIC as hardware made one measured NIC, with sources.
 */

#include "rdma-nic-preset.h"

#include "rdma-config.h"

#include "ns3/config.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

namespace
{

/// pcie-bench's published data for the NFP-6000 on the Broadwell host.
const std::string g_pcieBench =
    "pcie-bench (Neugebauer et al., SIGCOMM 2018), github.com/pcie-bench/data "
    "nfp6000-1.2GHz_bdw-Xeon-E5-2630v4-dell-t430-s0-s0-s0/";

/// \return the keys of the NFP-6000 on pcie-bench's Broadwell host
std::vector<RdmaPresetValue>
Nfp6000Preset()
{
    return {
        {"pcie.Generation",
         "3",
         "NFP-6000: PCIe Gen3 x8; " + g_pcieBench +
             "bw_dma_sz_sweep.csv: BW_DMA_RD levels off at 55.6 Gb/s, under Gen3 x8's 63.0"},
        {"pcie.Lanes",
         "8",
         "NFP-6000: PCIe Gen3 x8; " + g_pcieBench +
             "bw_calc.dat, pcie-bench's model of this "
             "host, gives Gen3 x8's rates"},
        {"pcie.MaxPayloadSize",
         "256",
         g_pcieBench + "bw_calc.dat (pcie-bench's model for this host): read and write "
                       "bandwidths at 2 KiB, 53.69 and 52.92 Gb/s, stand in the ratio of "
                       "256-byte TLPs, 256/276 : 256/280"},
        {"pcie.DataLinkOverhead",
         "0.08",
         g_pcieBench + "bw_calc.dat: 53.69 Gb/s of reads at 2 KiB against 58.45 Gb/s for "
                       "256-byte completions alone on Gen3 x8"},
        {"pcie.ReadLatency",
         "538ns",
         "fitted: " + g_pcieBench +
             "lat_dma_sizes.csv, LAT_DMA_RD medians at 4 B to 2 KiB (15 points, each within "
             "2.5 %): 541.7 ns + 0.294 ns/B, less the 3.3 ns of the read request"},
        {"pcie.ReadDataPathRate",
         "27.2Gbps",
         "fitted: " + g_pcieBench +
             "lat_dma_sizes.csv, LAT_DMA_RD's slope of 0.294 ns/B (8 / 0.294 = 27.2 Gb/s); "
             "the slope is the same on every host in the data, so it is the device's"},
        {"pcie.ReadIssueInterval",
         "16ns",
         "fitted: " + g_pcieBench +
             "bw_dma_sz_sweep.csv, BW_DMA_RD at the multiples of 64 bytes (67.0 million 16-byte "
             "and 62.3 million 64-byte reads a second; the rate steps every 128 bytes)"},
        {"pcie.WriteIssueInterval",
         "20ns",
         "fitted: " + g_pcieBench +
             "bw_dma_sz_sweep.csv, BW_DMA_WR at the multiples of 64 bytes (47.4-47.6 million "
             "16-64 byte writes a second; 26.3 million of 192 bytes, two 128-byte units)"},
    };
}

} // namespace

std::vector<std::string>
RdmaNicPresetNames()
{
    return {"none", "nfp6000"};
}

std::vector<RdmaPresetValue>
RdmaNicPreset(const std::string& name)
{
    if (name == "none")
    {
        return {};
    }
    if (name == "nfp6000")
    {
        return Nfp6000Preset();
    }
    std::string known;
    for (const std::string& n : RdmaNicPresetNames())
    {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("expected one of " + known);
}

void
RdmaApplyNicPreset(RdmaConfig& c)
{
    const std::string name = c.Get("nic.preset");
    std::vector<RdmaPresetValue> values;
    try
    {
        values = RdmaNicPreset(name);
    }
    catch (const std::invalid_argument& e)
    {
        throw RdmaConfigError(c.GetOrigin("nic.preset") + ": nic.preset = '" + name +
                              "': " + e.what());
    }
    if (values.empty())
    {
        return;
    }
    if (c.GetOrigin("nic.pipeline") != "default" && !c.GetBool("nic.pipeline"))
    {
        throw RdmaConfigError(c.GetOrigin("nic.preset") + ": nic.preset = '" + name +
                              "' describes the NIC as hardware, but " +
                              c.GetOrigin("nic.pipeline") +
                              " sets nic.pipeline = false (a zero-cost NIC)");
    }
    const std::string origin = "nic.preset = " + name;
    if (c.GetOrigin("nic.pipeline") == "default")
    {
        c.Set("nic.pipeline", "true", origin + " (a NIC profile models the NIC as hardware)");
    }
    for (const auto& v : values)
    {
        if (c.GetOrigin(v.key) == "default")
        {
            c.Set(v.key, v.value, origin + " (" + v.source + ")");
        }
    }
}

void
RdmaSetPcieDefaults(const std::string& name)
{
    for (const auto& v : RdmaNicPreset(name))
    {
        if (v.key.rfind("pcie.", 0) == 0)
        {
            Config::SetDefault("ns3::PcieLink::" + v.key.substr(5), StringValue(v.value));
        }
    }
}

std::string
RdmaApplyPresetArgument(int argc, char* argv[])
{
    const std::string flag = "--preset=";
    std::string name;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if (a.rfind(flag, 0) == 0)
        {
            name = a.substr(flag.size());
        }
    }
    if (!name.empty())
    {
        RdmaSetPcieDefaults(name);
    }
    return name;
}

} // namespace ns3
