/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The module's point-to-point link under ns-3's own stack: the standard
 * receive path (protocol handlers, promiscuous sniffers), and the PCAP and
 * ASCII files QbbHelper writes.
 *
 * The expected times are chosen to be whole nanoseconds, so they are exact
 * whether the runner keeps ns-3's default nanosecond resolution or the
 * module's picoseconds.
 */

#include "rdma-test-data.h"
#include "rdma-test-link.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/node-container.h"
#include "ns3/pcap-file.h"
#include "ns3/pointer.h"
#include "ns3/qbb-channel.h"
#include "ns3/qbb-helper.h"
#include "ns3/qbb-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/**
 * The standard NetDevice path: Send adds the Ethernet header and pads to 46
 * payload bytes; the receiver strips the header and classifies the
 * destination; a frame callback replaces the standard callbacks; sizes
 * beyond Mtu are refused.
 */
class StandardPathTestCase : public TestCase
{
  public:
    StandardPathTestCase()
        : TestCase("NetDevice Send and receive path, packet types, frame callback, Mtu")
    {
    }

  private:
    /// One standard-path delivery.
    struct Rx
    {
        bool promisc;               //!< from the promiscuous callback
        uint32_t size;              //!< payload bytes
        uint16_t protocol;          //!< EtherType
        NetDevice::PacketType type; //!< promiscuous only
        std::vector<uint8_t> bytes; //!< payload
    };

    void DoRun() override
    {
        QbbHelper helper = MakeLinkHelper("100Gbps", MicroSeconds(1));
        Link link(helper);
        std::vector<Rx> rx;
        link.b->SetReceiveCallback(NetDevice::ReceiveCallback(
            [&](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t proto, const Address&) {
                rx.push_back({false, p->GetSize(), proto, NetDevice::PACKET_HOST, ToBytes(p)});
                return true;
            }));
        link.b->SetPromiscReceiveCallback(
            NetDevice::PromiscReceiveCallback([&](Ptr<NetDevice>,
                                                  Ptr<const Packet> p,
                                                  uint16_t proto,
                                                  const Address&,
                                                  const Address&,
                                                  NetDevice::PacketType type) {
                rx.push_back({true, p->GetSize(), proto, type, ToBytes(p)});
                return true;
            }));
        std::vector<uint8_t> small = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        Simulator::Schedule(Time(0), [&]() { link.a->Send(ToPacket(small), link.macB, 0x0800); });
        Simulator::Schedule(MicroSeconds(5), [&]() {
            link.a->Send(Create<Packet>(100), Mac48Address::GetBroadcast(), 0x0806);
        });
        Simulator::Schedule(MicroSeconds(10), [&]() {
            link.a->Send(Create<Packet>(100), Mac48Address("02:00:00:00:00:99"), 0x86DD);
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rx.size(), 5, "2 + 2 + 1 callbacks");
        // Unicast to b: promiscuous (HOST) then standard.
        NS_TEST_EXPECT_MSG_EQ(rx[0].promisc, true, "promisc first");
        NS_TEST_EXPECT_MSG_EQ(rx[0].type, NetDevice::PACKET_HOST, "HOST");
        NS_TEST_EXPECT_MSG_EQ(rx[1].promisc, false, "then standard");
        NS_TEST_EXPECT_MSG_EQ(rx[1].protocol, 0x0800, "EtherType");
        NS_TEST_EXPECT_MSG_EQ(rx[1].size, 46, "padded to the Ethernet minimum");
        NS_TEST_EXPECT_MSG_EQ(
            (std::vector<uint8_t>(rx[1].bytes.begin(), rx[1].bytes.begin() + 10) == small),
            true,
            "payload bytes");
        NS_TEST_EXPECT_MSG_EQ(rx[2].type, NetDevice::PACKET_BROADCAST, "BROADCAST");
        NS_TEST_EXPECT_MSG_EQ(rx[3].promisc, false, "broadcast goes up");
        NS_TEST_EXPECT_MSG_EQ(rx[3].protocol, 0x0806, "ARP EtherType");
        NS_TEST_EXPECT_MSG_EQ(rx[3].size, 100, "not padded");
        NS_TEST_EXPECT_MSG_EQ(rx[4].promisc, true, "other host: promiscuous only");
        NS_TEST_EXPECT_MSG_EQ(rx[4].type, NetDevice::PACKET_OTHERHOST, "OTHERHOST");
        NS_TEST_EXPECT_MSG_EQ(rx[4].protocol, 0x86DD, "EtherType");

        // The frame callback replaces the standard ones and gets the whole frame.
        rx.clear();
        std::vector<std::vector<uint8_t>> frames;
        link.b->SetFrameReceiveCallback(QbbNetDevice::FrameReceiveCallback(
            [&](Ptr<QbbNetDevice>, Ptr<Packet> p) { frames.push_back(ToBytes(p)); }));
        Simulator::Schedule(Time(0),
                            [&]() { link.a->Send(Create<Packet>(100), link.macB, 0x0800); });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rx.size(), 0, "standard callbacks not called");
        NS_TEST_ASSERT_MSG_EQ(frames.size(), 1, "frame callback called");
        NS_TEST_ASSERT_MSG_EQ(frames[0].size(), 114, "header + payload");
        uint8_t macB[6];
        link.macB.CopyTo(macB);
        NS_TEST_EXPECT_MSG_EQ((std::vector<uint8_t>(frames[0].begin(), frames[0].begin() + 6) ==
                               std::vector<uint8_t>(macB, macB + 6)),
                              true,
                              "destination MAC first");
        NS_TEST_EXPECT_MSG_EQ(frames[0][12] * 256 + frames[0][13], 0x0800, "EtherType");

        // Sizes: Mtu 9000 payload; SendFrame allows 14 + 9000 + 4 bytes.
        NS_TEST_EXPECT_MSG_EQ(link.a->GetMtu(), 9000, "default Mtu");
        NS_TEST_EXPECT_MSG_EQ(link.a->Send(Create<Packet>(9001), link.macB, 0x0800),
                              false,
                              "payload beyond Mtu");
        NS_TEST_EXPECT_MSG_EQ(link.a->SendFrame(MakeFrame(link.macA, link.macB, 9019, 0)),
                              false,
                              "frame beyond Mtu + 18");
        NS_TEST_EXPECT_MSG_EQ(link.a->SendFrame(Create<Packet>(13)),
                              false,
                              "shorter than a header");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetStats().drops[DROP_BAD_SIZE], 3, "BAD_SIZE");
        NS_TEST_EXPECT_MSG_EQ(link.a->SendFrame(MakeFrame(link.macA, link.macB, 9018, 0)),
                              true,
                              "a tagged jumbo frame fits");
        NS_TEST_EXPECT_MSG_EQ(link.a->Send(Create<Packet>(9000), link.macB, 0x0800),
                              true,
                              "an Mtu payload fits");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(frames.size(), 3, "both delivered");
        Simulator::Destroy();
    }
};

/**
 * The helper's PCAP files read back with ns-3's PcapFile: link type 1
 * (Ethernet), the sender's file holds each frame when its first bit left
 * (k * W), the receiver's when its last bit arrived ((k + 1) * W + D), byte
 * for byte. The ASCII file has the "+", "-", "r" and "d" lines.
 */
class TraceFilesTestCase : public TestCase
{
  public:
    TraceFilesTestCase()
        : TestCase("helper PCAP (Ethernet link type, frames as sent and received) and ASCII files")
    {
    }

  private:
    /**
     * \brief Read a pcap file and check its frames.
     * \param path the file
     * \param frames the frames expected, in order
     * \param times their expected timestamps
     */
    void CheckPcap(const std::string& path,
                   const std::vector<std::vector<uint8_t>>& frames,
                   const std::vector<Time>& times)
    {
        PcapFile in;
        in.Open(path, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(in.Fail(), false, "pcap " << path << " opens");
        NS_TEST_EXPECT_MSG_EQ(in.GetDataLinkType(), 1, "DLT_EN10MB in " << path);
        std::vector<uint8_t> buf(65536);
        for (std::size_t i = 0; i < frames.size(); ++i)
        {
            uint32_t sec = 0;
            uint32_t frac = 0;
            uint32_t incl = 0;
            uint32_t orig = 0;
            uint32_t readLen = 0;
            in.Read(buf.data(), buf.size(), sec, frac, incl, orig, readLen);
            NS_TEST_ASSERT_MSG_EQ(in.Fail(), false, path << " record " << i);
            uint64_t ns = uint64_t{sec} * 1000000000ULL +
                          (in.IsNanoSecMode() ? frac : uint64_t{frac} * 1000ULL);
            NS_TEST_EXPECT_MSG_EQ(ns, static_cast<uint64_t>(times[i].GetNanoSeconds()), path << " time " << i);
            NS_TEST_EXPECT_MSG_EQ(orig, frames[i].size(), path << " length " << i);
            NS_TEST_EXPECT_MSG_EQ(
                (std::vector<uint8_t>(buf.begin(), buf.begin() + incl) == frames[i]),
                true,
                path << " bytes " << i);
        }
        uint32_t sec = 0;
        uint32_t frac = 0;
        uint32_t incl = 0;
        uint32_t orig = 0;
        uint32_t readLen = 0;
        in.Read(buf.data(), buf.size(), sec, frac, incl, orig, readLen);
        NS_TEST_EXPECT_MSG_EQ(in.Eof(), true, path << " has no more records");
    }

    void DoRun() override
    {
        const std::string prefix = CreateTempDirFilename("rdma-qbb-link");
        const Time w = NanoSeconds(100);
        const Time d = MicroSeconds(1);
        std::vector<std::vector<uint8_t>> sent;
        std::string pcapA;
        std::string pcapB;
        std::string asciiA;
        std::string asciiB;
        {
            QbbHelper helper = MakeLinkHelper("100Gbps", d);
            helper.SetQueueAttribute("MaxBytes", UintegerValue(3 * 1226));
            Link link(helper);
            helper.EnablePcap(prefix, link.devs);
            helper.EnableAscii(prefix, link.devs);
            auto name = [&](Ptr<NetDevice> dev, const char* ext) {
                std::ostringstream oss;
                oss << prefix << "-" << dev->GetNode()->GetId() << "-" << dev->GetIfIndex() << ext;
                return oss.str();
            };
            pcapA = name(link.a, ".pcap");
            pcapB = name(link.b, ".pcap");
            asciiA = name(link.a, ".tr");
            asciiB = name(link.b, ".tr");
            link.b->SetFrameReceiveCallback(
                QbbNetDevice::FrameReceiveCallback([](Ptr<QbbNetDevice>, Ptr<Packet>) {}));
            // 5 frames: 1 on the wire + 3 queued are sent, the 5th is dropped.
            for (uint32_t i = 0; i < 5; ++i)
            {
                Ptr<Packet> f = MakeFrame(link.macA, link.macB, 1226, i);
                if (link.a->SendFrame(f))
                {
                    sent.push_back(ToBytes(f));
                }
            }
            Simulator::Run();
            Simulator::Destroy();
        } // devices and their trace files are released here

        NS_TEST_ASSERT_MSG_EQ(sent.size(), 4, "four frames accepted");
        std::vector<Time> txTimes;
        std::vector<Time> rxTimes;
        for (int64_t k = 0; k < 4; ++k)
        {
            txTimes.push_back(w * k);
            rxTimes.push_back(w * (k + 1) + d);
        }
        CheckPcap(pcapA, sent, txTimes);
        CheckPcap(pcapB, sent, rxTimes);

        auto countLines = [](const std::string& path, char kind, const std::string& needle) {
            std::ifstream in(path);
            std::string line;
            uint32_t n = 0;
            while (std::getline(in, line))
            {
                if (!line.empty() && line[0] == kind && line.find(needle) != std::string::npos)
                {
                    ++n;
                }
            }
            return n;
        };
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiA, '+', ""), 5, "+ lines (MacTx)");
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiA, '-', ""), 4, "- lines (PhyTxBegin)");
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiA, 'd', "reason=QUEUE_FULL"), 1, "d line");
        NS_TEST_EXPECT_MSG_EQ(countLines(asciiB, 'r', ""), 4, "r lines (MacRx)");
        for (const std::string& f : {pcapA, pcapB, asciiA, asciiB})
        {
            std::remove(f.c_str());
        }
    }
};

/// The rdma-qbb-link-stack suite.
class RdmaQbbLinkStackTestSuite : public TestSuite
{
  public:
    RdmaQbbLinkStackTestSuite()
        : TestSuite("rdma-qbb-link-stack", UNIT)
    {
        AddTestCase(new StandardPathTestCase, TestCase::QUICK);
        // Last: ASCII tracing turns on packet printing for the process.
        AddTestCase(new TraceFilesTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaQbbLinkStackTestSuite g_rdmaQbbLinkStackTestSuite;

} // namespace
