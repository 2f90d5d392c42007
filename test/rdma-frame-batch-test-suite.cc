/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaFrameBatch, the body of the one MPI message a rank sends another per
// granted-time window (RdmaWindowMpiInterface, doc/mpi.rst "How it
// works"): every frame appended for one rank is in the one buffer, each
// comes back with its arrival time, event key, node, interface and its
// bytes and tags, in the order appended; records stay on 8-byte
// boundaries (Packet::Serialize writes 32-bit words); a frame above
// ns-3.37's 2000-byte per-frame message fits. A notice (a record with no
// frame: a time, key, node and argument) rides between frames and comes
// back in its place, its time counted in the batch's earliest. A frame read
// from a received batch stays serialized in it, and keeps it, until it is
// made a Packet (RdmaFrameBatch::SerializedFrame). A frame's compact head
// length comes back with it.

#include "ns3/packet.h"
#include "ns3/rdma-event-key-tag.h"
#include "ns3/rdma-frame-batch.h"
#include "ns3/test.h"

#include <cstring>
#include <vector>

using namespace ns3;

namespace
{

/// \return a packet's serialized form (bytes, tags, metadata)
std::vector<uint8_t>
Serialized(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSerializedSize());
    p->Serialize(bytes.data(), uint32_t(bytes.size()));
    return bytes;
}

/// \return a batch as another rank receives it (a buffer of its own)
Ptr<RdmaFrameBatch::Received>
Receive(const RdmaFrameBatch& batch)
{
    Ptr<RdmaFrameBatch::Received> received = Create<RdmaFrameBatch::Received>(batch.GetBytes());
    batch.CopyTo(received->GetData());
    return received;
}

/// Frames of one window to one rank: one buffer, read back as appended.
class OneBufferTestCase : public TestCase
{
  public:
    OneBufferTestCase()
        : TestCase("a window's frames to one rank are one buffer, read back as appended")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFrameBatch batch;
        NS_TEST_EXPECT_MSG_EQ(batch.GetFrames(), 0, "empty");
        NS_TEST_EXPECT_MSG_EQ(batch.GetBytes(), 0, "empty");
        NS_TEST_EXPECT_MSG_EQ(batch.GetEarliestArrival(), uint64_t(INT64_MAX), "no arrival");
        std::vector<Ptr<Packet>> frames;
        // Sizes that leave each record at another remainder mod 8, and one
        // above ns-3.37's 2000-byte per-frame message.
        const uint32_t sizes[] = {64, 1, 1061, 4096, 7};
        uint8_t fill[4096];
        for (uint32_t i = 0; i < 4096; ++i)
        {
            fill[i] = uint8_t(i * 7 + 3);
        }
        for (uint32_t i = 0; i < 5; ++i)
        {
            Ptr<Packet> p = i == 3 ? Create<Packet>(fill, sizes[i]) : Create<Packet>(sizes[i]);
            p->AddPacketTag(RdmaEventKeyTag(1000 + i));
            frames.push_back(p);
            batch.Append(p, NanoSeconds(5000 - 10 * i), 77 + i, 10 + i, i % 3);
        }
        NS_TEST_EXPECT_MSG_EQ(batch.GetFrames(), 5, "five frames");
        NS_TEST_EXPECT_MSG_EQ(batch.GetBytes() % 8, 0, "whole 8-byte words");
        NS_TEST_EXPECT_MSG_EQ(batch.GetEarliestArrival(),
                              uint64_t(NanoSeconds(4960).GetTimeStep()),
                              "the earliest arrival");
        // Received into another buffer, as MPI would.
        uint32_t i = 0;
        const uint32_t n =
            RdmaFrameBatch::Read(Receive(batch), [&](const RdmaFrameBatch::Record& r) {
                NS_TEST_EXPECT_MSG_EQ(r.frame.GetSerializedSize(),
                                      frames[i]->GetSerializedSize(),
                                      "serialized size of frame " << i);
                const Ptr<Packet> frame = r.frame.ToPacket();
                NS_TEST_EXPECT_MSG_EQ(r.arrivalTs,
                                      uint64_t(NanoSeconds(5000 - 10 * i).GetTimeStep()),
                                      "arrival of frame " << i);
                NS_TEST_EXPECT_MSG_EQ(r.key, 77 + i, "key of frame " << i);
                NS_TEST_EXPECT_MSG_EQ(r.node, 10 + i, "node of frame " << i);
                NS_TEST_EXPECT_MSG_EQ(r.ifIndex, i % 3, "interface of frame " << i);
                NS_TEST_EXPECT_MSG_EQ(frame->GetSize(), sizes[i], "size of frame " << i);
                NS_TEST_EXPECT_MSG_EQ((Serialized(frame) == Serialized(frames[i])),
                                      true,
                                      "frame " << i << " serializes as sent");
                RdmaEventKeyTag tag;
                NS_TEST_EXPECT_MSG_EQ(frame->PeekPacketTag(tag), true, "tag of frame " << i);
                NS_TEST_EXPECT_MSG_EQ(tag.GetKey(), 1000 + i, "tag of frame " << i);
                if (i == 3)
                {
                    std::vector<uint8_t> bytes(sizes[i]);
                    frame->CopyData(bytes.data(), sizes[i]);
                    NS_TEST_EXPECT_MSG_EQ(std::memcmp(bytes.data(), fill, sizes[i]),
                                          0,
                                          "payload bytes");
                }
                ++i;
            });
        NS_TEST_EXPECT_MSG_EQ(n, 5, "five records");
        NS_TEST_EXPECT_MSG_EQ(i, 5, "five calls");
        batch.Clear();
        NS_TEST_EXPECT_MSG_EQ(batch.GetFrames(), 0, "cleared");
        NS_TEST_EXPECT_MSG_EQ(batch.GetBytes(), 0, "cleared");
        NS_TEST_EXPECT_MSG_EQ(batch.GetEarliestArrival(), uint64_t(INT64_MAX), "cleared");
        NS_TEST_EXPECT_MSG_EQ(RdmaFrameBatch::Read(Create<RdmaFrameBatch::Received>(0),
                                                   [](const RdmaFrameBatch::Record&) {}),
                              0,
                              "an empty batch has no record");
    }
};

/// Notices among frames: read back in their place, with no frame.
class NoticeTestCase : public TestCase
{
  public:
    NoticeTestCase()
        : TestCase("a notice rides between frames and comes back in its place, with no frame")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFrameBatch batch;
        batch.Append(Create<Packet>(13), NanoSeconds(3000), 5, 40, 2, 58);
        batch.AppendNotice(NanoSeconds(2500), 6, 41, 123456);
        batch.Append(Create<Packet>(64), NanoSeconds(3100), 7, 42, 1);
        NS_TEST_EXPECT_MSG_EQ(batch.GetFrames(), 2, "two frames");
        NS_TEST_EXPECT_MSG_EQ(batch.GetNotices(), 1, "one notice");
        NS_TEST_EXPECT_MSG_EQ(batch.GetEarliestArrival(),
                              uint64_t(NanoSeconds(2500).GetTimeStep()),
                              "the notice's time is the earliest");
        std::vector<RdmaFrameBatch::Record> got;
        const uint32_t n =
            RdmaFrameBatch::Read(Receive(batch),
                                 [&](const RdmaFrameBatch::Record& r) { got.push_back(r); });
        NS_TEST_ASSERT_MSG_EQ(n, 3, "three records");
        NS_TEST_EXPECT_MSG_EQ(bool(got[0].frame), true, "a frame first");
        NS_TEST_EXPECT_MSG_EQ(got[0].ifIndex, 2, "its interface");
        NS_TEST_EXPECT_MSG_EQ(got[0].compactHead, 58, "its compact head's length");
        NS_TEST_EXPECT_MSG_EQ(bool(got[1].frame), false, "then the notice, with no frame");
        NS_TEST_EXPECT_MSG_EQ(got[1].arrivalTs,
                              uint64_t(NanoSeconds(2500).GetTimeStep()),
                              "its time");
        NS_TEST_EXPECT_MSG_EQ(got[1].key, 6, "its key");
        NS_TEST_EXPECT_MSG_EQ(got[1].node, 41, "its node");
        NS_TEST_EXPECT_MSG_EQ(got[1].argument, 123456, "its argument");
        NS_TEST_EXPECT_MSG_EQ(got[2].frame.ToPacket()->GetSize(), 64, "then the second frame");
        NS_TEST_EXPECT_MSG_EQ(got[2].ifIndex, 1, "its interface");
        NS_TEST_EXPECT_MSG_EQ(got[2].compactHead, 0, "a Packet to keep as it is");
        NS_TEST_EXPECT_MSG_EQ(got[1].compactHead, 0, "a notice has none");
        batch.Clear();
        NS_TEST_EXPECT_MSG_EQ(batch.GetNotices(), 0, "cleared");
    }
};

/// A frame read from a received batch keeps the batch until it is made a Packet.
class KeptSerializedTestCase : public TestCase
{
  public:
    KeptSerializedTestCase()
        : TestCase("a received frame stays serialized in its batch, which it keeps")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFrameBatch batch;
        const Ptr<Packet> sent = Create<Packet>(1000);
        sent->AddPacketTag(RdmaEventKeyTag(42));
        batch.Append(sent, NanoSeconds(3000), 5, 40, 2);
        batch.Append(Create<Packet>(58), NanoSeconds(3010), 6, 40, 2);
        Ptr<RdmaFrameBatch::Received> received = Receive(batch);
        std::vector<RdmaFrameBatch::SerializedFrame> frames;
        RdmaFrameBatch::Read(received,
                             [&](const RdmaFrameBatch::Record& r) { frames.push_back(r.frame); });
        NS_TEST_ASSERT_MSG_EQ(frames.size(), 2, "two frames");
        NS_TEST_EXPECT_MSG_EQ(received->GetReferenceCount(), 3, "the frames hold the batch");
        // What the batch was received into goes; the frames keep its bytes.
        const RdmaFrameBatch::Received* bytes = PeekPointer(received);
        received = nullptr;
        NS_TEST_EXPECT_MSG_EQ(bytes->GetReferenceCount(), 2, "held by its two frames");
        batch.Clear();
        const Ptr<Packet> first = frames[0].ToPacket();
        NS_TEST_EXPECT_MSG_EQ((Serialized(first) == Serialized(sent)), true, "as sent");
        RdmaEventKeyTag tag;
        NS_TEST_EXPECT_MSG_EQ(first->PeekPacketTag(tag) && tag.GetKey() == 42, true, "its tag");
        NS_TEST_EXPECT_MSG_EQ(frames[1].ToPacket()->GetSize(), 58, "the second frame");
        frames.pop_back();
        NS_TEST_EXPECT_MSG_EQ(bytes->GetReferenceCount(), 1, "held by the first frame");
        NS_TEST_EXPECT_MSG_EQ(frames[0].ToPacket()->GetSize(), 1000, "still readable");
        NS_TEST_EXPECT_MSG_EQ(bool(RdmaFrameBatch::SerializedFrame()), false, "none: a notice");
    }
};

/// A batch above one chunk: records whole, in order across chunks.
class ChunksTestCase : public TestCase
{
  public:
    ChunksTestCase()
        : TestCase("a batch in several chunks: records whole and in order, one larger than a chunk")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFrameBatch batch;
        const uint32_t n = 8000;
        std::vector<uint8_t> big(RdmaFrameBatch::CHUNK_BYTES + 1000, 0x5a);
        for (uint32_t i = 0; i < n; ++i)
        {
            if (i == n / 2)
            {
                batch.Append(Create<Packet>(big.data(), uint32_t(big.size())),
                             NanoSeconds(1),
                             7,
                             1,
                             0);
            }
            batch.Append(Create<Packet>(100 + i % 50), NanoSeconds(2 + i), 100 + i, 2, 1);
        }
        const std::vector<RdmaFrameBatch::Chunk> chunks = batch.GetChunks();
        std::size_t bytes = 0;
        bool whole = true;
        for (const RdmaFrameBatch::Chunk& c : chunks)
        {
            bytes += c.bytes;
            whole = whole && c.bytes % 8 == 0 && reinterpret_cast<uintptr_t>(c.data) % 8 == 0 &&
                    c.bytes <= big.size() + RdmaFrameBatch::HEADER_BYTES + 64;
        }
        NS_TEST_EXPECT_MSG_GT(chunks.size(), 3, "several chunks");
        NS_TEST_EXPECT_MSG_EQ(bytes, batch.GetBytes(), "the chunks hold the batch");
        NS_TEST_EXPECT_MSG_EQ(whole, true, "aligned, whole words, no chunk beyond its record");
        std::vector<uint64_t> keys;
        uint32_t bigSize = 0;
        RdmaFrameBatch::Read(Receive(batch), [&](const RdmaFrameBatch::Record& r) {
            keys.push_back(r.key);
            if (r.key == 7)
            {
                bigSize = r.frame.ToPacket()->GetSize();
            }
        });
        NS_TEST_ASSERT_MSG_EQ(keys.size(), n + 1, "every record");
        bool inOrder = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            inOrder = inOrder && keys[i + (i >= n / 2)] == 100 + i;
        }
        NS_TEST_EXPECT_MSG_EQ(inOrder, true, "in the order appended");
        NS_TEST_EXPECT_MSG_EQ(keys[n / 2], 7, "the large one in its place");
        NS_TEST_EXPECT_MSG_EQ(bigSize, big.size(), "whole");
        batch.Clear();
        NS_TEST_EXPECT_MSG_EQ(batch.GetChunks().size(), 0, "cleared");
        NS_TEST_EXPECT_MSG_EQ(batch.GetBytes(), 0, "cleared");
    }
};

/// The suite.
class RdmaFrameBatchTestSuite : public TestSuite
{
  public:
    RdmaFrameBatchTestSuite()
        : TestSuite("rdma-frame-batch", UNIT)
    {
        AddTestCase(new OneBufferTestCase, TestCase::QUICK);
        AddTestCase(new NoticeTestCase, TestCase::QUICK);
        AddTestCase(new KeptSerializedTestCase, TestCase::QUICK);
        AddTestCase(new ChunksTestCase, TestCase::QUICK);
    }
};

/// Static instance that registers the suite.
RdmaFrameBatchTestSuite g_rdmaFrameBatchTestSuite;

} // namespace
