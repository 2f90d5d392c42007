/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The compact per-port and per-switch state of large fabrics: the ring FIFO
// behind the egress queues, wires and CC records, and the route table that
// stores each ECMP group once.

#include "ns3/packet.h"
#include "ns3/rdma-module.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

/// RdmaFifo: order across growth and wrap-around, no allocation until used,
/// slots kept after draining, popped items released at once.
class FifoTestCase : public TestCase
{
  public:
    FifoTestCase()
        : TestCase("RdmaFifo: FIFO order through growth and wrap-around, lazy allocation")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFifo<uint32_t> fifo;
        NS_TEST_ASSERT_MSG_EQ(fifo.capacity(), 0, "an unused FIFO allocates nothing");
        uint32_t next = 0;
        uint32_t expected = 0;
        // Push 3, pop 2, repeatedly: the head walks round the ring while it grows.
        for (int round = 0; round < 50; ++round)
        {
            for (int i = 0; i < 3; ++i)
            {
                uint32_t v = next++;
                fifo.push_back(std::move(v));
            }
            for (int i = 0; i < 2; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(fifo.front(), expected, "oldest first");
                fifo.pop_front();
                ++expected;
            }
            NS_TEST_ASSERT_MSG_EQ(fifo.back(), next - 1, "newest last");
        }
        NS_TEST_ASSERT_MSG_EQ(fifo.size(), 50, "3 in, 2 out, 50 times");
        NS_TEST_ASSERT_MSG_EQ(fifo.capacity(), 64, "doubled from 4 to the high-water mark");
        for (uint32_t i = 0; i < fifo.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(fifo[i], expected + i, "indexing from the oldest");
        }
        fifo.clear();
        NS_TEST_ASSERT_MSG_EQ(fifo.empty(), true, "cleared");
        NS_TEST_ASSERT_MSG_EQ(fifo.capacity(), 64, "the slots stay for the next burst");

        // Iteration from the oldest across the wrap, and swap.
        RdmaFifo<uint32_t> other;
        for (uint32_t v : {7u, 8u, 9u, 10u, 11u})
        {
            other.push_back(v); // 8 slots from the fifth
        }
        for (int i = 0; i < 4; ++i)
        {
            other.pop_front(); // 11 alone, at slot 4
        }
        for (uint32_t v : {12u, 13u, 14u, 15u})
        {
            other.push_back(v); // slots 5, 6, 7, then 0: round the ring
        }
        std::vector<uint32_t> seen;
        for (uint32_t v : other)
        {
            seen.push_back(v);
        }
        NS_TEST_ASSERT_MSG_EQ(other.capacity(), 8, "no growth: the ring wrapped");
        NS_TEST_ASSERT_MSG_EQ((seen == std::vector<uint32_t>{11, 12, 13, 14, 15}),
                              true,
                              "oldest first across the wrap");
        fifo.swap(other);
        NS_TEST_ASSERT_MSG_EQ(fifo.size(), 5, "swapped in");
        NS_TEST_ASSERT_MSG_EQ(fifo.back(), 15, "swapped in, newest last");
        NS_TEST_ASSERT_MSG_EQ(other.empty(), true, "the cleared FIFO swapped out");

        RdmaFifo<Ptr<Packet>> frames;
        Ptr<Packet> p = Create<Packet>(100);
        frames.push_back(Ptr<Packet>(p));
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "the FIFO holds a reference");
        frames.pop_front();
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 1, "popping releases the frame");
    }
};

/// RdmaRouteTable: groups stored once, dense and sparse IPv4, IPv6.
class RouteTableTestCase : public TestCase
{
  public:
    RouteTableTestCase()
        : TestCase("RdmaRouteTable: one copy of each ECMP group, dense and sparse destinations")
    {
    }

  private:
    void DoRun() override
    {
        // An edge switch of a k=8 fat-tree: 4 local hosts on ports 0-3, the
        // other 124 behind the uplink group {4, 5, 6, 7}.
        RdmaRouteTable t;
        const uint32_t base = Ipv4Address("10.0.0.1").Get();
        for (uint32_t h = 0; h < 128; ++h)
        {
            if (h < 4)
            {
                t.Add(Ipv4Address(base + h), h);
                continue;
            }
            for (uint32_t up = 4; up < 8; ++up)
            {
                t.Add(Ipv4Address(base + h), up);
                t.Add(Ipv4Address(base + h), up); // again: no change
            }
        }
        NS_TEST_ASSERT_MSG_EQ(t.GetNRoutes(), 128, "one route per host");
        // {0} {1} {2} {3}, and {4} {4,5} {4,5,6} {4,5,6,7} on the way to the uplink group.
        NS_TEST_ASSERT_MSG_EQ(t.GetNGroups(), 8, "each distinct group stored once");
        const RdmaRouteTable::Group* a = t.Lookup(base + 10);
        const RdmaRouteTable::Group* b = t.Lookup(base + 127);
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "remote hosts share the uplink group");
        NS_TEST_ASSERT_MSG_EQ(a->size(), 4, "four uplinks");
        NS_TEST_ASSERT_MSG_EQ(t.Lookup(base + 2)->at(0), 2, "a local host's down port");
        NS_TEST_ASSERT_MSG_EQ((t.Lookup(base - 1) == nullptr), true, "below the hosts: no route");
        NS_TEST_ASSERT_MSG_EQ((t.Lookup(base + 128) == nullptr), true, "above the hosts: no route");
        NS_TEST_ASSERT_MSG_EQ(RdmaRouteTable::Select(*a, 6), 6, "modulo-N: 6 % 4 = 2, port 6");

        // A destination far from the others: the table goes sparse, every route kept.
        t.Add(Ipv4Address("192.168.0.1"), 3);
        NS_TEST_ASSERT_MSG_EQ(t.GetNRoutes(), 129, "the far route added");
        NS_TEST_ASSERT_MSG_EQ(t.Lookup(Ipv4Address("192.168.0.1").Get())->at(0), 3, "far route");
        NS_TEST_ASSERT_MSG_EQ((t.Lookup(base + 127) == t.Lookup(base + 4)), true, "still shared");
        NS_TEST_ASSERT_MSG_EQ(t.Lookup(base + 1)->at(0), 1, "local route kept");
        NS_TEST_ASSERT_MSG_EQ((t.Lookup(base + 200) == nullptr), true, "still no route");

        // A destination below the first one stays dense (the array grows down).
        RdmaRouteTable d;
        d.Add(Ipv4Address(base + 10), 1);
        d.Add(Ipv4Address(base + 5), 2);
        NS_TEST_ASSERT_MSG_EQ(d.Lookup(base + 5)->at(0), 2, "grown down");
        NS_TEST_ASSERT_MSG_EQ(d.Lookup(base + 10)->at(0), 1, "kept");
        NS_TEST_ASSERT_MSG_EQ((d.Lookup(base + 7) == nullptr), true, "a hole has no route");

        RdmaRouteTable v6;
        const Ipv6Address dst("2001:db8::1");
        v6.Add(dst, 5);
        v6.Add(dst, 9);
        uint8_t bytes[16];
        dst.GetBytes(bytes);
        NS_TEST_ASSERT_MSG_EQ(v6.Lookup(bytes)->size(), 2, "an IPv6 group of two");
        t.Clear();
        NS_TEST_ASSERT_MSG_EQ(t.GetNRoutes() + t.GetNGroups(), 0, "cleared");
        NS_TEST_ASSERT_MSG_EQ((t.Lookup(base) == nullptr), true, "no route after Clear");
    }
};

/// RdmaGroupIndexArray and the route table over it: one byte a route while
/// the table has fewer than 255 groups, widened in place past 255 and 65,535.
class GroupIndexWidthTestCase : public TestCase
{
  public:
    GroupIndexWidthTestCase()
        : TestCase("RdmaRouteTable: group indices 1, 2 then 4 bytes wide, every route kept")
    {
    }

  private:
    void DoRun() override
    {
        RdmaGroupIndexArray a;
        a.Resize(3);
        NS_TEST_ASSERT_MSG_EQ(a.Get(1), RdmaGroupIndexArray::NONE, "new entries: no group");
        a.Set(0, 254);
        NS_TEST_ASSERT_MSG_EQ(a.GetWidth(), 1, "254 fits a byte (255 means none)");
        a.Set(1, 255);
        NS_TEST_ASSERT_MSG_EQ(a.GetWidth(), 2, "255 needs two bytes");
        NS_TEST_ASSERT_MSG_EQ(a.Get(0), 254, "kept through the widening");
        NS_TEST_ASSERT_MSG_EQ(a.Get(2), RdmaGroupIndexArray::NONE, "none kept as none");
        a.Set(2, 70000);
        NS_TEST_ASSERT_MSG_EQ(a.GetWidth(), 4, "70,000 needs four bytes");
        NS_TEST_ASSERT_MSG_EQ(a.Get(0) + a.Get(1), 254 + 255, "kept through the second widening");
        a.PrependNone(2);
        NS_TEST_ASSERT_MSG_EQ(a.size(), 5, "two prepended");
        NS_TEST_ASSERT_MSG_EQ(a.Get(4), 70000, "entries moved up");

        // A table whose every destination has its own port: 70,000 groups.
        RdmaRouteTable t;
        const uint32_t base = Ipv4Address("10.0.0.1").Get();
        const uint32_t n = 70000;
        for (uint32_t h = 0; h < n; ++h)
        {
            t.Set(Ipv4Address(base + h), {h});
        }
        NS_TEST_ASSERT_MSG_EQ(t.GetNGroups(), n, "a group per destination");
        for (uint32_t h : {0u, 254u, 255u, 65534u, 65535u, n - 1})
        {
            NS_TEST_ASSERT_MSG_EQ(t.Lookup(base + h)->at(0), h, "destination " << h);
        }
        NS_TEST_ASSERT_MSG_EQ((t.Lookup(base + n) == nullptr), true, "past the last: no route");
    }
};

/// The suite.
class RdmaFabricStateTestSuite : public TestSuite
{
  public:
    RdmaFabricStateTestSuite()
        : TestSuite("rdma-fabric-state", UNIT)
    {
        AddTestCase(new FifoTestCase, TestCase::QUICK);
        AddTestCase(new RouteTableTestCase, TestCase::QUICK);
        AddTestCase(new GroupIndexWidthTestCase, TestCase::QUICK);
    }
};

/// Static instance: registers the suite.
static RdmaFabricStateTestSuite g_rdmaFabricStateTestSuite;
