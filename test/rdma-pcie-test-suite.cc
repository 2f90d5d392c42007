/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of PcieLink, the NIC's PCIe model, against closed-form timings.
 *
 * Notation (defaults: Gen3 x16, MPS 256, MRRS 512, 64-bit addresses):
 *   R    = 8 GT/s x 16 lanes x 128/130 = 126.03 Gb/s per direction
 *   ser(b) = 8 b / R, the time b bytes take on one direction
 *   write TLP overhead   = 16 (4-DW header) + 8 (framing) = 24 bytes per MPS
 *   read request         = 24 bytes upstream per MRRS
 *   completion overhead  = 12 (3-DW header) + 8 (framing) = 20 bytes per MPS
 *   L    = ReadLatency, from a request's last byte out to its first
 *          completion byte in (850 ns)
 * The simulator's time resolution may be ns (the test runner's default):
 * completion events are rounded up to it, so times are compared within
 * 1 ns.
 */

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/pcie-link.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/// Gen3 x16 rate per direction, bit/s.
const double GEN3_X16_BPS = 8e9 * 16 * 128.0 / 130.0;

/// \return the time b bytes take at GEN3_X16_BPS, ps
double
SerPs(double bytes)
{
    return bytes * 8 / GEN3_X16_BPS * 1e12;
}

/// Completion times of numbered DMA transactions.
struct Recorder
{
    std::vector<Time> done; //!< completion time of transaction i (-1 = not yet)

    /// \param n transactions to expect
    explicit Recorder(std::size_t n)
        : done(n, Time(-1))
    {
    }

    /// \param i the transaction that completed
    void Done(uint32_t i)
    {
        done[i] = Simulator::Now();
    }

    /// \return a callback recording transaction i
    Callback<void> Cb(uint32_t i)
    {
        return MakeCallback(&Recorder::Done, this, i);
    }
};

/// Rate per direction for each generation: lanes x GT/s x encoding.
class PcieRateTestCase : public TestCase
{
  public:
    PcieRateTestCase()
        : TestCase("link rate = lanes x GT per s x 8 over 10 (Gen1, Gen2) or 128 over 130 (Gen3-5)")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            uint8_t gen;     //!< generation
            uint8_t lanes;   //!< width
            double expected; //!< bit/s
        };

        const Case cases[] = {
            {1, 1, 2.0e9},
            {2, 8, 32.0e9},
            {3, 16, 126.0307692e9},
            {3, 8, 63.0153846e9},
            {4, 16, 252.0615385e9},
            {5, 16, 504.1230769e9},
        };
        for (const Case& c : cases)
        {
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("Generation", UintegerValue(c.gen));
            link->SetAttribute("Lanes", UintegerValue(c.lanes));
            double rate = link->GetLinkRate().GetBitRate();
            NS_TEST_EXPECT_MSG_EQ_TOL(rate,
                                      c.expected,
                                      c.expected * 1e-6,
                                      "Gen" << unsigned(c.gen) << " x" << unsigned(c.lanes));
        }
        // The default is Gen3 x16, Corundum's "~126 Gb/s".
        Ptr<PcieLink> def = CreateObject<PcieLink>();
        NS_TEST_EXPECT_MSG_EQ_TOL(double(def->GetLinkRate().GetBitRate()),
                                  GEN3_X16_BPS,
                                  1.0,
                                  "default Gen3 x16");
    }
};

/// A posted write takes bytes x (1 + 24 / MPS) / R.
class PcieWriteTestCase : public TestCase
{
  public:
    PcieWriteTestCase()
        : TestCase("DMA write of 4 KiB at Gen3 x16 takes 4096 x (1 + 24 over 256) x 8 over R; 1 MiB "
                   "reaches R x 256 over 280")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PcieLink> link = CreateObject<PcieLink>();
        NS_TEST_ASSERT_MSG_EQ(link->GetWriteWireBytes(4096), 4096u + 16 * 24, "16 TLPs of 24");
        NS_TEST_ASSERT_MSG_EQ(link->GetWriteWireBytes(100), 124u, "one TLP");
        Recorder rec(2);
        link->DmaWrite(4096, rec.Cb(0));
        // 4096 x (1 + 24/256) = 4480 bytes: 284.375 ns.
        const double expected4k = 4096 * (1 + 24.0 / 256) * 8 / GEN3_X16_BPS * 1e12;
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[0].GetPicoSeconds()),
                                  expected4k,
                                  1000,
                                  "4 KiB write time (ps)");
        NS_TEST_EXPECT_MSG_EQ(link->GetDmaWrites(), 1u, "one write counted");
        NS_TEST_EXPECT_MSG_EQ(link->GetWriteBytes(), 4096u, "bytes counted");
        NS_TEST_EXPECT_MSG_EQ(link->GetUpstreamWireBytes(), 4480u, "wire bytes counted");
        NS_TEST_EXPECT_MSG_EQ(link->GetDownstreamWireBytes(), 0u, "a write uses no downstream");

        // Back-to-back: 1 MiB goodput = R x MPS / (MPS + 24).
        Time start = Simulator::Now();
        link->DmaWrite(1 << 20, rec.Cb(1));
        Simulator::Run();
        double goodput = (1 << 20) * 8.0 / (rec.done[1] - start).GetSeconds();
        double expected = GEN3_X16_BPS * 256 / 280;
        NS_TEST_EXPECT_MSG_EQ_TOL(goodput, expected, expected * 1e-4, "1 MiB write goodput (b/s)");
        Simulator::Destroy();
    }
};

/// A read completes after the request, the round trip and the completions.
class PcieReadTestCase : public TestCase
{
  public:
    PcieReadTestCase()
        : TestCase("DMA read of 4 KiB completes after ser(24) + L + ser(4096 + 16 x 20)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PcieLink> link = CreateObject<PcieLink>();
        NS_TEST_ASSERT_MSG_EQ(link->GetReadRequestCount(4096), 8u, "8 requests of MRRS 512");
        NS_TEST_ASSERT_MSG_EQ(link->GetCompletionWireBytes(512), 552u, "2 completions of 256");
        Time latency(-1);
        link->TraceConnectWithoutContext(
            "DmaReadComplete",
            MakeBoundCallback(+[](Time* out, uint64_t, Time l) { *out = l; }, &latency));
        Recorder rec(2);
        link->DmaRead(4096, rec.Cb(0));
        Simulator::Run();
        // The 8 requests leave back to back (24 bytes each); the completions
        // of the first arrive L after the first request and the rest queue
        // behind them on the downstream direction (each request's
        // completions take longer than a request), so the last byte is in
        // at ser(24) + L + ser(4096 + 16 x 20).
        double expected = SerPs(24) + 850e3 + SerPs(4096 + 16 * 20);
        NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[0].GetPicoSeconds()),
                                  expected,
                                  1000,
                                  "4 KiB read time (ps)");
        NS_TEST_EXPECT_MSG_EQ(latency, rec.done[0], "DmaReadComplete latency");
        NS_TEST_EXPECT_MSG_EQ(link->GetReadRequests(), 8u, "8 tags used");
        NS_TEST_EXPECT_MSG_EQ(link->GetTagWaits(), 0u, "no tag wait with 256 tags");
        NS_TEST_EXPECT_MSG_EQ(link->GetTagsInUse(), 0u, "all tags back");
        NS_TEST_EXPECT_MSG_EQ(link->GetUpstreamWireBytes(), 8u * 24, "request bytes");
        NS_TEST_EXPECT_MSG_EQ(link->GetDownstreamWireBytes(), 4096u + 16 * 20, "completion bytes");

        // A 64-byte read (a cache fill): one request, one completion.
        Time start = Simulator::Now();
        link->DmaRead(64, rec.Cb(1));
        Simulator::Run();
        double small = SerPs(24) + 850e3 + SerPs(64 + 20);
        NS_TEST_EXPECT_MSG_EQ_TOL(double((rec.done[1] - start).GetPicoSeconds()),
                                  small,
                                  1000,
                                  "64-byte read time (ps)");
        Simulator::Destroy();
    }
};

/// Read requests beyond the tag limit wait for a tag.
class PcieTagLimitTestCase : public TestCase
{
  public:
    PcieTagLimitTestCase()
        : TestCase("with 2 tags, four 512-byte reads finish at T1 = r + L + c, T2 = T1 + c, "
                   "T3 = 2(r + L + c), T4 = T3 + c")
    {
    }

  private:
    void DoRun() override
    {
        const double r = SerPs(24);           // one request
        const double c = SerPs(512 + 2 * 20); // one request's completions
        const double L = 850e3;
        {
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("MaxReadTags", UintegerValue(2));
            uint32_t maxTags = 0;
            link->TraceConnectWithoutContext(
                "ReadTagsInUse",
                MakeBoundCallback(+[](uint32_t* m, uint32_t, uint32_t v) { *m = std::max(*m, v); },
                                  &maxTags));
            Recorder rec(4);
            for (uint32_t i = 0; i < 4; ++i)
            {
                link->DmaRead(512, rec.Cb(i));
            }
            NS_TEST_EXPECT_MSG_EQ(link->GetTagWaits(), 2u, "reads 3 and 4 wait for a tag");
            Simulator::Run();
            // Reads 1 and 2 take both tags at 0; their completions share the
            // downstream direction (T2 = T1 + c). Read 3 takes read 1's tag
            // at T1 and needs a whole round trip; read 4 takes read 2's tag at
            // T2 and its completions queue behind read 3's.
            const double t1 = r + L + c;
            const double t2 = t1 + c;
            const double t3 = t1 + r + L + c;
            const double t4 = t3 + c;
            const double expected[] = {t1, t2, t3, t4};
            for (uint32_t i = 0; i < 4; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[i].GetPicoSeconds()),
                                          expected[i],
                                          1000,
                                          "read " << i + 1 << " completion (ps)");
            }
            NS_TEST_EXPECT_MSG_EQ(maxTags, 2u, "never more than 2 tags in use");
            Simulator::Destroy();
        }
        {
            // With enough tags all four overlap: one round trip in total.
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("MaxReadTags", UintegerValue(32));
            Recorder rec(4);
            for (uint32_t i = 0; i < 4; ++i)
            {
                link->DmaRead(512, rec.Cb(i));
            }
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(link->GetTagWaits(), 0u, "no wait with 32 tags");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[3].GetPicoSeconds()),
                                      r + L + 4 * c,
                                      1000,
                                      "last of 4 overlapped reads (ps)");
            Simulator::Destroy();
        }
    }
};

/// Writes and read requests share the upstream direction; completions use
/// the downstream one.
class PcieDirectionsTestCase : public TestCase
{
  public:
    PcieDirectionsTestCase()
        : TestCase("a read request waits behind a write upstream; a write does not delay "
                   "completions downstream")
    {
    }

  private:
    void DoRun() override
    {
        const double L = 850e3;
        {
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            Recorder rec(2);
            link->DmaWrite(65536, rec.Cb(0));
            link->DmaRead(256, rec.Cb(1));
            Simulator::Run();
            const double w = SerPs(65536 + 256 * 24);
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[0].GetPicoSeconds()), w, 1000, "write");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[1].GetPicoSeconds()),
                                      w + SerPs(24) + L + SerPs(256 + 20),
                                      1000,
                                      "read behind the write");
            Simulator::Destroy();
        }
        {
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            Recorder rec(2);
            link->DmaRead(256, rec.Cb(1));
            link->DmaWrite(65536, rec.Cb(0));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[1].GetPicoSeconds()),
                                      SerPs(24) + L + SerPs(256 + 20),
                                      1000,
                                      "read ahead of the write is not delayed by it");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[0].GetPicoSeconds()),
                                      SerPs(24) + SerPs(65536 + 256 * 24),
                                      1000,
                                      "write behind one read request");
            Simulator::Destroy();
        }
        {
            // 64-byte completions (a 64-byte read completion boundary).
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("ReadCompletionBytes", UintegerValue(64));
            NS_TEST_EXPECT_MSG_EQ(link->GetCompletionWireBytes(512),
                                  512u + 8 * 20,
                                  "8 completions of 64");
        }
    }
};

/// The device's DMA engine: start intervals per 128 bytes, one read's data
/// path rate (not a cap on reads in flight), and the data-link overhead.
class PcieDeviceEngineTestCase : public TestCase
{
  public:
    PcieDeviceEngineTestCase()
        : TestCase("the DMA engine spaces transfers by ceil(B over 128) intervals; a read ends no "
                   "sooner than ser(24) + L + B over ReadDataPathRate, reads in flight overlap; "
                   "DLLPs stretch serialization by 1 over (1 - overhead)")
    {
    }

  private:
    void DoRun() override
    {
        const double L = 850e3;
        {
            // A 200-byte read holds the engine two 16 ns intervals, so the
            // 64-byte read after it starts at 32 ns.
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("ReadIssueInterval", TimeValue(NanoSeconds(16)));
            Recorder rec(2);
            link->DmaRead(200, rec.Cb(0));
            link->DmaRead(64, rec.Cb(1));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[0].GetPicoSeconds()),
                                      SerPs(24) + L + SerPs(200 + 20),
                                      1000,
                                      "first read, started at once (ps)");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[1].GetPicoSeconds()),
                                      32e3 + SerPs(24) + L + SerPs(64 + 20),
                                      1000,
                                      "second read, started after 2 x 16 ns (ps)");
            Simulator::Destroy();
        }
        {
            // Writes: 64 bytes is one 20 ns interval.
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("WriteIssueInterval", TimeValue(NanoSeconds(20)));
            Recorder rec(2);
            link->DmaWrite(64, rec.Cb(0));
            link->DmaWrite(64, rec.Cb(1));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[1].GetPicoSeconds()),
                                      20e3 + SerPs(64 + 24),
                                      1000,
                                      "second write, started after 20 ns (ps)");
            Simulator::Destroy();
        }
        {
            // A 10 Gb/s data path: a 1000-byte read takes 800 ns more than
            // its round trip; four at once all end then (4 x 10 Gb/s).
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("ReadDataPathRate", DataRateValue(DataRate("10Gbps")));
            Recorder rec(4);
            for (uint32_t i = 0; i < 4; ++i)
            {
                link->DmaRead(1000, rec.Cb(i));
            }
            Simulator::Run();
            for (uint32_t i = 0; i < 4; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(double(rec.done[i].GetPicoSeconds()),
                                          SerPs(24) + L + 800e3,
                                          1000,
                                          "read " << i + 1 << " bound by its data path (ps)");
            }
            NS_TEST_EXPECT_MSG_EQ(link->GetDmaReads(), 4u, "four reads counted");
            Simulator::Destroy();
        }
        {
            Ptr<PcieLink> link = CreateObject<PcieLink>();
            link->SetAttribute("DataLinkOverhead", DoubleValue(0.2));
            // Writes of 1 KiB: 1024 + 4 x 24 bytes at 126.03 Gb/s x 0.8.
            NS_TEST_EXPECT_MSG_EQ_TOL(double(link->GetWriteThroughput(1024).GetBitRate()),
                                      GEN3_X16_BPS * 0.8 * 1024 / 1120,
                                      1e6,
                                      "link-bound write throughput (bit/s)");
            // An engine of 20 ns per 128 bytes: 8 x 20 ns for 1 KiB, 51.2 Gb/s.
            link->SetAttribute("WriteIssueInterval", TimeValue(NanoSeconds(20)));
            NS_TEST_EXPECT_MSG_EQ(link->GetWriteThroughput(1024).GetBitRate(),
                                  51200000000u,
                                  "engine-bound write throughput (bit/s)");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(link->GetSerializationTime(280).GetPicoSeconds()),
                                      SerPs(280) / 0.8,
                                      1000,
                                      "a 256-byte write TLP at 80 % of the rate (ps)");
        }
    }
};

/// The PCIe suite.
class RdmaPcieTestSuite : public TestSuite
{
  public:
    RdmaPcieTestSuite()
        : TestSuite("rdma-pcie", UNIT)
    {
        AddTestCase(new PcieRateTestCase, TestCase::QUICK);
        AddTestCase(new PcieWriteTestCase, TestCase::QUICK);
        AddTestCase(new PcieReadTestCase, TestCase::QUICK);
        AddTestCase(new PcieTagLimitTestCase, TestCase::QUICK);
        AddTestCase(new PcieDirectionsTestCase, TestCase::QUICK);
        AddTestCase(new PcieDeviceEngineTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
RdmaPcieTestSuite g_rdmaPcieTestSuite;

} // namespace
