/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Goodput of one QP streaming 1 MiB RDMA WRITEs over a 100 Gb/s link.
 *
 * Every data packet of P payload bytes costs on the wire P plus a fixed
 * per-packet overhead O: Ethernet header 14, IPv4 20, UDP 8, BTH 12, ICRC 4,
 * FCS 4, preamble and SFD 8, inter-frame gap 12, so O = 82 bytes (IEEE
 * 802.3, IBA Annex A17); the first packet of each message also carries a
 * 16-byte RETH. Goodput = R x P / (P + O) per full packet:
 * 100 Gb/s x 1024 / 1106 = 92.586 Gb/s at a 1024-byte path MTU,
 * 100 Gb/s x 4096 / 4178 = 98.037 Gb/s at 4096. ACKs flow the other way
 * and do not take forward bandwidth. The test measures delivered payload
 * between the completions of the 2nd and the last WRITE and checks it is
 * within 1 % of the formula.
 */

#include "rdma-test-hosts.h"

#include "ns3/rdma-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Streaming WRITEs at one path MTU.
class GoodputTestCase : public TestCase
{
  public:
    GoodputTestCase(RdmaMtu mtu)
        : TestCase("1 MiB WRITEs at 100 Gbps, path MTU " + std::to_string(RdmaMtuBytes(mtu)) +
                   ": goodput = R x P over (P + 82) within 1 %"),
          m_mtu(mtu)
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts::Options o;
        o.dataMode = false;
        o.connection.pathMtu = m_mtu;
        o.regionBytes = 1 << 20;
        TwoHosts h(o);
        const uint32_t messages = 12;
        for (uint32_t i = 0; i < messages; ++i)
        {
            RdmaSendWr w = h.Wr(IBV_WR_RDMA_WRITE, i, TwoHosts::VA_A, 1 << 20);
            w.remoteAddr = TwoHosts::VA_B;
            h.qpA->PostSend(w);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(TwoHosts::Count(h.wcA, IBV_WC_SUCCESS), messages, "all completed");
        // Completions are spaced by the serialization of one message; measure
        // between the 2nd and the last to leave out the start-up RTT.
        Time span = h.wcA.back().completed - h.wcA[1].completed;
        double goodput = (messages - 2) * double(1 << 20) * 8 / span.GetSeconds();
        double p = RdmaMtuBytes(m_mtu);
        double expected = 100e9 * p / (p + 82);
        NS_TEST_EXPECT_MSG_EQ_TOL(goodput, expected, expected * 0.01, "goodput (b/s)");
        Simulator::Destroy();
    }

    RdmaMtu m_mtu;
};

/// The goodput suite.
class RdmaGoodputTestSuite : public TestSuite
{
  public:
    RdmaGoodputTestSuite()
        : TestSuite("rdma-goodput", SYSTEM)
    {
        AddTestCase(new GoodputTestCase(IBV_MTU_1024), TestCase::QUICK);
        AddTestCase(new GoodputTestCase(IBV_MTU_4096), TestCase::QUICK);
    }
};

RdmaGoodputTestSuite g_rdmaGoodputTestSuite; //!< static instance

} // namespace
