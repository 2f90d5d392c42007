/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every kind of frame the module puts on a link survives ns-3's Packet
// serialization (Packet::Serialize, then Packet(buffer, size, true)), the
// form in which QbbRemoteChannel carries frames between the ranks of a
// distributed run (ns-3's MpiInterface::SendPacket): the same bytes, the
// same packet tags and byte tags, and the same parse. The frames are the
// ones real runs transmit (every QbbNetDevice's PhyTxBegin), so switch
// edits (ECN CE marks, INT records) and NIC frames are covered as sent;
// each also fits one MPI message of ns-3.37 (2000 bytes with its 16-byte
// header: zero payloads serialize as a length).

#include "ns3/aeth-header.h"
#include "ns3/config.h"
#include "ns3/int-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment-builder.h"
#include "ns3/rdma-experiment-spec.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What a frame is, for the tally of kinds seen.
std::string
KindOf(Ptr<const Packet> frame)
{
    uint8_t head[16];
    if (frame->GetSize() < 14)
    {
        return "short";
    }
    frame->CopyData(head, 14);
    const uint16_t etherType = (head[12] << 8) | head[13];
    if (etherType == 0x8808)
    {
        return "pfc";
    }
    RoceFrame f;
    IntHeader intHeader;
    bool hasInt = false;
    if (RoceFrame::ParseEthernetFrameWithInt(frame, f, intHeader, hasInt) != RoceFrame::OK)
    {
        return "other";
    }
    std::string kind;
    const uint8_t op = f.bth.GetOpcode();
    if (op == ROCE_CNP)
    {
        kind = "cnp";
    }
    else if (op == RC_ACKNOWLEDGE)
    {
        kind = f.aeth.GetSyndromeType() == AethHeader::NAK ? "nak" : "ack";
    }
    else
    {
        kind = "data";
    }
    return hasInt ? kind + "+int" : kind;
}

/// \return the tags of a packet as text (type and, for byte tags, the span)
std::string
TagsOf(Ptr<const Packet> p)
{
    std::string tags;
    PacketTagIterator pi = p->GetPacketTagIterator();
    while (pi.HasNext())
    {
        tags += "packet:" + pi.Next().GetTypeId().GetName() + ";";
    }
    ByteTagIterator bi = p->GetByteTagIterator();
    while (bi.HasNext())
    {
        const ByteTagIterator::Item item = bi.Next();
        tags += "byte:" + item.GetTypeId().GetName() + "@" + std::to_string(item.GetStart()) +
                "-" + std::to_string(item.GetEnd()) + ";";
    }
    return tags;
}

/**
 * \ingroup rdma-tests
 * \brief Runs one experiment and passes every transmitted frame through
 * serialization, checking bytes, tags and parse.
 */
class FrameSerializationTestCase : public TestCase
{
  public:
    /**
     * \param name what runs
     * \param ini the experiment
     * \param kinds frame kinds the run must have sent
     */
    FrameSerializationTestCase(const std::string& name,
                               const std::string& ini,
                               std::vector<std::string> kinds)
        : TestCase(name),
          m_ini(ini),
          m_kinds(std::move(kinds))
    {
    }

  private:
    void DoRun() override
    {
        RdmaConfig c = RdmaMakeExperimentConfig();
        c.ReadIniText(m_ini, "(test)");
        const RdmaExperimentSpec spec(c, false, false);
        RdmaExperimentBuilder sim(spec, false);
        Config::ConnectWithoutContext(
            "/NodeList/*/DeviceList/*/$ns3::QbbNetDevice/PhyTxBegin",
            MakeCallback(&FrameSerializationTestCase::Check, this));
        sim.Simulate(nullptr);
        Simulator::Destroy();
        Config::Reset();
        std::string tally;
        for (const auto& [kind, n] : m_seen)
        {
            tally += " " + kind + "=" + std::to_string(n);
        }
        for (const auto& kind : m_kinds)
        {
            NS_TEST_EXPECT_MSG_GT(m_seen[kind], 0u, "no " << kind << " frame; sent:" << tally);
        }
        NS_TEST_EXPECT_MSG_EQ(m_mismatches, 0u, "frames changed by serialization: " << m_first);
    }

    /// One transmitted frame. \param frame the frame
    void Check(Ptr<const Packet> frame)
    {
        const std::string kind = KindOf(frame);
        ++m_seen[kind];
        const uint32_t size = frame->GetSerializedSize();
        // ns-3.37's MPI receive buffers (MAX_MPI_MSG_SIZE): the frame and
        // 16 bytes of arrival time, node and device.
        if (size + 16 > 2000)
        {
            Mismatch(kind + ": serializes to " + std::to_string(size) +
                     " bytes, beyond ns-3's 2000-byte MPI message");
        }
        std::vector<uint8_t> wire(size);
        if (frame->Serialize(wire.data(), size) == 0)
        {
            Mismatch(kind + ": Serialize failed");
            return;
        }
        Ptr<Packet> copy = Create<Packet>(wire.data(), size, true);
        std::vector<uint8_t> a(frame->GetSize());
        std::vector<uint8_t> b(copy->GetSize());
        frame->CopyData(a.data(), a.size());
        copy->CopyData(b.data(), b.size());
        if (a != b)
        {
            Mismatch(kind + ": bytes differ");
        }
        if (TagsOf(frame) != TagsOf(copy))
        {
            Mismatch(kind + ": tags '" + TagsOf(frame) + "' became '" + TagsOf(copy) + "'");
        }
        if (KindOf(copy) != kind)
        {
            Mismatch(kind + ": parsed as " + KindOf(copy));
        }
    }

    /// Count a mismatch. \param what which
    void Mismatch(const std::string& what)
    {
        if (m_mismatches++ == 0)
        {
            m_first = what;
        }
    }

    std::string m_ini;                         //!< the experiment
    std::vector<std::string> m_kinds;          //!< kinds that must appear
    std::map<std::string, uint32_t> m_seen;    //!< frames by kind
    uint32_t m_mismatches{0};                  //!< frames that changed
    std::string m_first;                       //!< the first change
};

/**
 * \ingroup rdma-tests
 * \brief The suite.
 */
class FrameSerializationTestSuite : public TestSuite
{
  public:
    FrameSerializationTestSuite()
        : TestSuite("rdma-frame-serialization", UNIT)
    {
        // DCQCN incast on lossy links: data, ACK, NAK (corrupted frames),
        // CNP (ECN marks), PFC PAUSE and RESUME.
        AddTestCase(new FrameSerializationTestCase(
                        "incast, DCQCN, lossy links",
                        "[topology]\ntype = star\nhosts = 9\nerrorRate = 0.002\n"
                        "[traffic]\npattern = incast\nfanIn = 8\nreceiver = 0\nsize = 200000\n"
                        "repeats = 1\n[cc]\nalgorithm = dcqcn\n[pfc]\nBufferSize = 600000\n"
                        "[ecn]\nkmin = 5000\nkmax = 50000\n"
                        "[sim]\nstopTime = 20ms\n",
                        {"data", "ack", "nak", "cnp", "pfc"}),
                    TestCase::QUICK);
        // HPCC: data frames stamped with INT records, ACKs echoing them.
        AddTestCase(new FrameSerializationTestCase(
                        "incast, HPCC (INT)",
                        "[topology]\ntype = star\nhosts = 5\n"
                        "[traffic]\npattern = incast\nfanIn = 4\nreceiver = 0\nsize = 100000\n"
                        "repeats = 1\n[cc]\nalgorithm = hpcc\n[sim]\nstopTime = 20ms\n",
                        {"data+int", "ack+int"}),
                    TestCase::QUICK);
    }
};

/// The suite's instance.
FrameSerializationTestSuite g_frameSerializationTestSuite;

} // namespace
