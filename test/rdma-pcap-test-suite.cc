/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System test of the pcap path every device uses: frames written by
 * RdmaPcapWriter from simulation events are read back with ns-3's own
 * PcapFile reader as Ethernet (link type 1) records with nanosecond
 * timestamps, byte for byte, and parse as the RoCEv2 packets they were.
 */

#include "rdma-test-data.h"

#include "ns3/pcap-file.h"
#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdio>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Frames written at simulation times come back at those times, unchanged.
class PcapRoundTripTestCase : public TestCase
{
  public:
    PcapRoundTripTestCase()
        : TestCase("frames written during a simulation read back from the pcap")
    {
    }

  private:
    void DoRun() override
    {
        std::string path = CreateTempDirFilename("rdma-pcap-test.pcap");
        std::vector<std::vector<uint8_t>> sent;
        {
            auto writer = Create<RdmaPcapWriter>(path);
            NS_TEST_ASSERT_MSG_EQ(writer->IsOpen(), true, writer->GetError());
            // A WRITE every 81.92 ns (1024 B at 100 Gb/s), PSNs across the wrap.
            for (uint32_t i = 0; i < 5; ++i)
            {
                RoceFrame f;
                f.bth.SetOpcode(RC_RDMA_WRITE_MIDDLE);
                f.bth.SetDestQp(0x42);
                f.bth.SetPsn(0xFFFFFE + i);
                f.payload = Create<Packet>(1024);
                Ptr<Packet> frame = f.BuildEthernetFrame();
                sent.push_back(ToBytes(frame));
                Simulator::Schedule(PicoSeconds(81920) * i,
                                    &RdmaPcapWriter::WriteNow,
                                    writer,
                                    frame);
            }
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_EXPECT_MSG_EQ(writer->GetFramesWritten(), 5, "frames written");
        } // the writer closes the file

        PcapFile in;
        in.Open(path, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(in.Fail(), false, "pcap opens for reading");
        NS_TEST_EXPECT_MSG_EQ(in.GetDataLinkType(), 1, "DLT_EN10MB (Ethernet)");
        NS_TEST_EXPECT_MSG_EQ(in.IsNanoSecMode(), true, "nanosecond timestamps");
        std::vector<uint8_t> buf(65536);
        for (uint32_t i = 0; i < sent.size(); ++i)
        {
            uint32_t sec = 0;
            uint32_t nsec = 0;
            uint32_t incl = 0;
            uint32_t orig = 0;
            uint32_t readLen = 0;
            in.Read(buf.data(), buf.size(), sec, nsec, incl, orig, readLen);
            NS_TEST_ASSERT_MSG_EQ(in.Fail(), false, "record " << i);
            NS_TEST_EXPECT_MSG_EQ(sec, 0, "record " << i << " seconds");
            // Records hold whole nanoseconds (exact at the module's picosecond
            // resolution; the runner may use ns-3's default of nanoseconds).
            uint64_t expectNs = (PicoSeconds(81920) * i).GetNanoSeconds();
            NS_TEST_EXPECT_MSG_EQ(nsec, expectNs, "record " << i << " nanoseconds");
            std::vector<uint8_t> got(buf.begin(), buf.begin() + incl);
            NS_TEST_EXPECT_MSG_EQ(orig, sent[i].size(), "original length");
            NS_TEST_EXPECT_MSG_EQ(ToHex(got), ToHex(sent[i]), "record " << i << " bytes");
            RoceFrame back;
            NS_TEST_EXPECT_MSG_EQ(RoceFrame::ParseEthernetFrame(ToPacket(got), back),
                                  RoceFrame::OK,
                                  "record " << i << " parses");
            NS_TEST_EXPECT_MSG_EQ(back.bth.GetPsn(), ((0xFFFFFE + i) & 0xFFFFFF), "PSN");
        }
        std::remove(path.c_str());
    }
};

/// A pcap that cannot be created is reported with its path, not a crash.
class PcapErrorTestCase : public TestCase
{
  public:
    PcapErrorTestCase()
        : TestCase("an uncreatable pcap file is reported by name")
    {
    }

  private:
    void DoRun() override
    {
        std::string path = "/nonexistent-rdma-dir/x.pcap";
        auto writer = Create<RdmaPcapWriter>(path);
        NS_TEST_EXPECT_MSG_EQ(writer->IsOpen(), false, "cannot open");
        NS_TEST_EXPECT_MSG_NE(writer->GetError().find(path),
                              std::string::npos,
                              "error names the file");
        writer->Write(Seconds(0), Create<Packet>(60)); // ignored, no crash
        NS_TEST_EXPECT_MSG_EQ(writer->GetFramesWritten(), 0, "nothing written");
    }
};

/// The pcap system-test suite.
class RdmaPcapTestSuite : public TestSuite
{
  public:
    RdmaPcapTestSuite()
        : TestSuite("rdma-pcap", SYSTEM)
    {
        AddTestCase(new PcapRoundTripTestCase, TestCase::QUICK);
        AddTestCase(new PcapErrorTestCase, TestCase::QUICK);
    }
};

RdmaPcapTestSuite g_rdmaPcapTestSuite; //!< static instance

} // namespace
