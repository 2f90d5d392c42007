/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-pcie-bench: pcie-bench's DMA tests (Neugebauer et al., "Understanding
 * PCIe performance for end host networking", SIGCOMM 2018) run against the
 * NIC's PCIe model, PcieLink, so its curves can be held against the
 * published measurements (data/nic-measurements/).
 *
 *  - LAT_DMA_RD: one DMA read of S bytes at a time, the next issued when the
 *    last completes; the latency of each (all equal here: the model has no
 *    jitter), reported as latency_ns.
 *  - BW_DMA_RD, BW_DMA_WR: DMA reads (writes) of S bytes kept --outstanding
 *    at a time; payload bandwidth (gbps) and DMAs a second over the
 *    transfers after the first tenth.
 *
 * The link is the PcieLink attribute defaults, changed by --preset=NAME
 * (the pcie keys of a nic.preset, RdmaNicPreset) and then by ns-3's
 * --ns3::PcieLink::ATTRIBUTE=VALUE. One CSV row per test and size, the
 * fields a test does not measure empty:
 *
 *   test,bytes,latency_ns,gbps,transfers_per_s
 *
 * Example:
 *
 *   ./rdma-pcie-bench --preset=nfp6000 --sizes=64,512,2048 --out=dma.csv
 */

#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// Keeps DMAs of one size in flight and measures them.
class DmaLoad
{
  public:
    /**
     * \param link the link under test
     * \param write whether the DMAs are writes
     * \param bytes the size of each
     * \param total DMAs to run
     */
    DmaLoad(Ptr<PcieLink> link, bool write, uint64_t bytes, uint64_t total)
        : m_link(link),
          m_write(write),
          m_bytes(bytes),
          m_total(total),
          m_warm(total / 10)
    {
    }

    /// \param outstanding DMAs to keep in flight
    void Start(uint32_t outstanding)
    {
        for (uint32_t i = 0; i < outstanding && m_issued < m_total; ++i)
        {
            Issue();
        }
    }

    /// \return the latency of the last DMA
    Time GetLastLatency() const
    {
        return m_lastLatency;
    }

    /// \return payload bandwidth after the warm-up, bit/s
    double GetBitRate() const
    {
        double s = (m_end - m_warmEnd).GetSeconds();
        return s > 0 ? double(m_total - m_warm) * m_bytes * 8 / s : 0;
    }

    /// \return DMAs a second after the warm-up
    double GetTransfersPerSecond() const
    {
        double s = (m_end - m_warmEnd).GetSeconds();
        return s > 0 ? double(m_total - m_warm) / s : 0;
    }

  private:
    /// Start one DMA.
    void Issue()
    {
        ++m_issued;
        Callback<void> done = MakeBoundCallback(&DmaLoad::Done, this, Simulator::Now());
        if (m_write)
        {
            m_link->DmaWrite(m_bytes, done);
        }
        else
        {
            m_link->DmaRead(m_bytes, done);
        }
    }

    /// \param self the load \param start when the DMA was issued
    static void Done(DmaLoad* self, Time start)
    {
        self->m_lastLatency = Simulator::Now() - start;
        if (++self->m_done == self->m_warm)
        {
            self->m_warmEnd = Simulator::Now();
        }
        self->m_end = Simulator::Now();
        if (self->m_issued < self->m_total)
        {
            self->Issue();
        }
    }

    Ptr<PcieLink> m_link; //!< the link
    bool m_write;         //!< writes, not reads
    uint64_t m_bytes;     //!< bytes per DMA
    uint64_t m_total;     //!< DMAs to run
    uint64_t m_warm;      //!< DMAs before the measurement starts
    uint64_t m_issued{0}; //!< DMAs issued
    uint64_t m_done{0};   //!< DMAs done
    Time m_warmEnd;       //!< when the warm-up ended
    Time m_end;           //!< when the last DMA ended
    Time m_lastLatency;   //!< the last DMA's latency
};

/// One row of the output.
struct Row
{
    double latencyNs{0};     //!< one DMA's latency (LAT tests)
    double gbps{0};          //!< payload bandwidth (BW tests)
    double transfersPerS{0}; //!< DMAs a second (BW tests)
};

/**
 * \param test LAT_DMA_RD, BW_DMA_RD or BW_DMA_WR
 * \param bytes bytes per DMA
 * \param outstanding DMAs in flight (BW tests)
 * \param transfers DMAs to run
 * \return the measurement
 */
Row
Run(const std::string& test, uint64_t bytes, uint32_t outstanding, uint64_t transfers)
{
    Ptr<PcieLink> link = CreateObject<PcieLink>();
    bool latency = test == "LAT_DMA_RD";
    DmaLoad load(link, test == "BW_DMA_WR", bytes, transfers);
    load.Start(latency ? 1 : outstanding);
    Simulator::Run();
    Row r;
    r.latencyNs = load.GetLastLatency().GetNanoSeconds();
    if (!latency)
    {
        r.gbps = load.GetBitRate() / 1e9;
        r.transfersPerS = load.GetTransfersPerSecond();
    }
    Simulator::Destroy();
    return r;
}

/// \return the items of a comma-separated list
std::vector<std::string>
Split(const std::string& text)
{
    std::vector<std::string> v;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        v.push_back(item);
    }
    return v;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string tests = "LAT_DMA_RD,BW_DMA_RD,BW_DMA_WR";
    std::string sizes = "4,8,16,32,64,128,256,512,768,1024,1280,1536,2048";
    std::string preset;
    std::string out;
    uint32_t outstanding = 64;
    uint64_t transfers = 20000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("tests", "comma-separated: LAT_DMA_RD, BW_DMA_RD, BW_DMA_WR", tests);
    cmd.AddValue("sizes", "comma-separated DMA sizes, bytes", sizes);
    cmd.AddValue("preset", "a nic.preset whose pcie keys set the link (RdmaNicPreset)", preset);
    cmd.AddValue("outstanding", "DMAs in flight in the BW tests", outstanding);
    cmd.AddValue("transfers", "DMAs per test and size", transfers);
    cmd.AddValue("out", "CSV file (default: standard output)", out);
    // The preset first, so --ns3::PcieLink::X on the command line wins.
    try
    {
        RdmaApplyPresetArgument(argc, argv);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "rdma-pcie-bench: --preset: " << e.what() << "\n";
        return 2;
    }
    cmd.Parse(argc, argv);
    std::vector<std::pair<std::string, uint64_t>> runs;
    for (const std::string& t : Split(tests))
    {
        if (t != "LAT_DMA_RD" && t != "BW_DMA_RD" && t != "BW_DMA_WR")
        {
            std::cerr << "rdma-pcie-bench: --tests: unknown test '" << t
                      << "' (LAT_DMA_RD, BW_DMA_RD, BW_DMA_WR)\n";
            return 2;
        }
        for (const std::string& s : Split(sizes))
        {
            uint64_t b = 0;
            std::istringstream in(s);
            if (!(in >> b) || !in.eof() || b == 0)
            {
                std::cerr << "rdma-pcie-bench: --sizes: '" << s
                          << "' is not a positive number of bytes\n";
                return 2;
            }
            runs.emplace_back(t, b);
        }
    }
    if (outstanding == 0 || transfers < 10)
    {
        std::cerr << "rdma-pcie-bench: --outstanding must be at least 1 and --transfers at "
                     "least 10\n";
        return 2;
    }
    std::ostringstream csv;
    csv << "test,bytes,latency_ns,gbps,transfers_per_s\n";
    for (const auto& [test, bytes] : runs)
    {
        Row r = Run(test, bytes, outstanding, test == "LAT_DMA_RD" ? 10 : transfers);
        // A LAT test measures latency only, a BW test rates only.
        csv << test << ',' << bytes << ',';
        if (test == "LAT_DMA_RD")
        {
            csv << r.latencyNs << ",,\n";
        }
        else
        {
            csv << ',' << r.gbps << ',' << r.transfersPerS << '\n';
        }
    }
    if (out.empty())
    {
        std::cout << csv.str();
        return 0;
    }
    std::ofstream f(out + ".tmp");
    f << csv.str();
    f.close();
    if (!f || std::rename((out + ".tmp").c_str(), out.c_str()) != 0)
    {
        std::cerr << "rdma-pcie-bench: cannot write " << out << "\n";
        std::remove((out + ".tmp").c_str());
        return 1;
    }
    return 0;
}
