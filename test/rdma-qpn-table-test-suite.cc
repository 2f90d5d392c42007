/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RdmaQpnTable, a NIC's per-QP state by QP number: entries made,
 * found, erased and visited in QPN order; QPNs below the first one (the
 * 24-bit counter's wrap) move the entries without losing any; a miss is a
 * null, never an entry made by the lookup.
 */

#include "ns3/rdma-qpn-table.h"
#include "ns3/test.h"

#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Made, found, erased, visited in order.
class QpnTableTestCase : public TestCase
{
  public:
    QpnTableTestCase()
        : TestCase("entries by QPN: made, found, erased, visited in QPN order, below the base")
    {
    }

  private:
    void DoRun() override
    {
        RdmaQpnTable<std::string> t;
        NS_TEST_EXPECT_MSG_EQ(t.Empty(), true, "new table");
        NS_TEST_EXPECT_MSG_EQ((t.Find(0x100) == nullptr), true, "miss on an empty table");
        // As RdmaNic::CreateQp numbers them: 0x100 up.
        t[0x100] = "a";
        t[0x101] = "b";
        t[0x105] = "c";
        NS_TEST_EXPECT_MSG_EQ(t.Size(), 3, "three entries");
        NS_TEST_ASSERT_MSG_EQ((t.Find(0x101) != nullptr), true, "found");
        NS_TEST_EXPECT_MSG_EQ(*t.Find(0x101), "b", "its value");
        NS_TEST_EXPECT_MSG_EQ((t.Find(0x102) == nullptr), true, "a gap is a miss");
        NS_TEST_EXPECT_MSG_EQ((t.Find(0x106) == nullptr), true, "past the end is a miss");
        NS_TEST_EXPECT_MSG_EQ((t.Find(0xFF) == nullptr), true, "below the base is a miss");
        NS_TEST_EXPECT_MSG_EQ(t.Size(), 3, "misses make nothing");

        NS_TEST_EXPECT_MSG_EQ(t.Erase(0x101), true, "erased");
        NS_TEST_EXPECT_MSG_EQ(t.Erase(0x101), false, "erased once");
        NS_TEST_EXPECT_MSG_EQ((t.Find(0x101) == nullptr), true, "gone");
        NS_TEST_EXPECT_MSG_EQ(t.Size(), 2, "two left");

        // The 24-bit counter wrapped: QPN 2 is below the base.
        t[2] = "w";
        NS_TEST_EXPECT_MSG_EQ(t.Size(), 3, "three again");
        NS_TEST_ASSERT_MSG_EQ((t.Find(0x100) != nullptr), true, "old entry kept");
        NS_TEST_EXPECT_MSG_EQ(*t.Find(0x100), "a", "old value kept");
        NS_TEST_EXPECT_MSG_EQ(*t.Find(0x105), "c", "old value kept");
        NS_TEST_EXPECT_MSG_EQ(*t.Find(2), "w", "new entry");

        std::vector<std::pair<uint32_t, std::string>> seen;
        t.ForEach([&seen](uint32_t qpn, std::string& v) { seen.emplace_back(qpn, v); });
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 3, "visited every entry");
        NS_TEST_EXPECT_MSG_EQ(seen[0].first, 2, "QPN order");
        NS_TEST_EXPECT_MSG_EQ(seen[1].first, 0x100, "QPN order");
        NS_TEST_EXPECT_MSG_EQ(seen[2].first, 0x105, "QPN order");
        NS_TEST_EXPECT_MSG_EQ(seen[2].second, "c", "with its value");

        t[0x100] += "!";
        NS_TEST_EXPECT_MSG_EQ(*t.Find(0x100), "a!", "operator[] finds an existing entry");
        NS_TEST_EXPECT_MSG_EQ(t.Size(), 3, "and makes none");

        t.Clear();
        NS_TEST_EXPECT_MSG_EQ(t.Empty(), true, "cleared");
        NS_TEST_EXPECT_MSG_EQ((t.Find(0x105) == nullptr), true, "nothing found after Clear");
        t[0x200] = "x";
        NS_TEST_EXPECT_MSG_EQ(*t.Find(0x200), "x", "usable after Clear");
        NS_TEST_EXPECT_MSG_EQ((t.Find(2) == nullptr), true, "the old base is gone");
    }
};

/// The suite.
class RdmaQpnTableTestSuite : public TestSuite
{
  public:
    RdmaQpnTableTestSuite()
        : TestSuite("rdma-qpn-table", UNIT)
    {
        AddTestCase(new QpnTableTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
RdmaQpnTableTestSuite g_rdmaQpnTableTestSuite;

} // namespace
