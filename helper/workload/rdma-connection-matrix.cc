/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-connection-matrix.h"

#include "ns3/rdma-text-reader.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{

/// htsim's priority of a connection without "prio" (ConnectionMatrix::load).
constexpr uint64_t HTSIM_DEFAULT_PRIO = 2000000;

/**
 * \brief Read one connection line's tokens into a flow.
 * \param r the reader (for errors) \param tokens the line's tokens
 * \param nodes the header's node count \param flow receives it
 */
void
ReadConnection(const RdmaTextReader& r,
               const std::vector<std::string>& tokens,
               uint32_t nodes,
               RdmaFlow& flow)
{
    const std::string& ends = tokens[0];
    const std::size_t arrow = ends.find("->");
    const std::string range = "a node (0-" + std::to_string(nodes - 1) + ")";
    flow.src = static_cast<uint32_t>(
        r.ToUint(ends.substr(0, arrow), "the source, " + range, 0, nodes - 1));
    flow.dst = static_cast<uint32_t>(
        r.ToUint(ends.substr(arrow + 2), "the destination, " + range, 0, nodes - 1));
    if (flow.src == flow.dst)
    {
        r.Fail("a connection from node " + std::to_string(flow.src) + " to itself");
    }
    bool started = false;
    for (std::size_t i = 1; i < tokens.size(); i += 2)
    {
        const std::string& key = tokens[i];
        if (key == "trigger" || key == "send_done_trigger" || key == "recv_done_trigger" ||
            key == "msg")
        {
            r.Fail("'" + key +
                   "': connections started by others' completion (htsim's triggers) are not "
                   "read here; give each a start");
        }
        if (key != "start" && key != "size" && key != "id" && key != "prio")
        {
            r.Fail("expected start, size, id or prio, got '" + key + "'");
        }
        if (i + 1 >= tokens.size())
        {
            r.Fail("'" + key + "' without its value");
        }
        const std::string& value = tokens[i + 1];
        if (key == "start")
        {
            const double us = r.ToDouble(value, "a start in microseconds (>= 0)");
            if (us < 0 || us >= 4294967296.0)
            {
                r.Fail("expected a start in microseconds (0 to 2^32), got '" + value + "'");
            }
            flow.start = MicroSeconds(static_cast<uint64_t>(std::floor(us)));
            started = true;
        }
        else if (key == "size")
        {
            flow.size = r.ToUint(value, "a size in bytes (1-2147483648)", 1, 1ULL << 31);
        }
        else if (key == "id")
        {
            r.ToUint(value, "an id (1-4294967295)", 1, UINT32_MAX);
        }
        else if (r.ToUint(value, "a priority", 0, UINT64_MAX) != HTSIM_DEFAULT_PRIO)
        {
            r.Fail("prio " + value +
                   ": htsim's connection priorities have no counterpart here (traffic.priority "
                   "gives every flow's class)");
        }
    }
    if (!started)
    {
        r.Fail("a connection without 'start'");
    }
    if (flow.size == 0)
    {
        r.Fail("a connection without 'size'");
    }
}

} // namespace

RdmaConnectionMatrix
RdmaParseConnectionMatrix(std::istream& in, const std::string& name)
{
    RdmaTextReader r(in, name);
    RdmaConnectionMatrix m;
    bool haveNodes = false;
    bool haveCount = false;
    uint64_t count = 0;
    std::vector<std::string> tokens;
    while (r.NextLine(tokens))
    {
        if (tokens[0][0] == '#')
        {
            continue;
        }
        const std::string& head = tokens[0];
        if (head == "Nodes" || head == "Connections" || head == "Triggers" || head == "Failures")
        {
            if (!m.flows.empty())
            {
                r.Fail("'" + head + "' after the first connection");
            }
            if (tokens.size() != 2)
            {
                r.Fail("expected '" + head + " <count>'");
            }
            const uint64_t n = r.ToUint(tokens[1], "a count", 0, UINT32_MAX);
            if (head == "Nodes")
            {
                m.nodes = static_cast<uint32_t>(n);
                haveNodes = n >= 2;
                if (!haveNodes)
                {
                    r.Fail("expected at least 2 nodes, got " + tokens[1]);
                }
            }
            else if (head == "Connections")
            {
                count = n;
                haveCount = true;
            }
            else if (n > 0)
            {
                r.Fail("'" + head + " " + tokens[1] + "': htsim's " +
                       (head == "Triggers" ? std::string("triggers (connections started by "
                                                         "others' completion)")
                                           : std::string("failure lines (topology.failLinks "
                                                         "says which links fail)")) +
                       " are not read here");
            }
            continue;
        }
        if (head == "trigger" || head == "failure")
        {
            r.Fail("'" + head + "' lines are not read here");
        }
        if (head.find("->") == std::string::npos)
        {
            r.Fail("expected a connection '<src>-><dst> start <us> size <bytes>' or a header "
                   "line, got '" +
                   head + "'");
        }
        if (!haveNodes || !haveCount)
        {
            r.Fail("a connection before the 'Nodes' and 'Connections' lines");
        }
        if (m.flows.size() == count)
        {
            r.Fail("more connections than the " + std::to_string(count) + " 'Connections' says");
        }
        RdmaFlow flow;
        flow.id = static_cast<uint32_t>(m.flows.size());
        ReadConnection(r, tokens, m.nodes, flow);
        m.flows.push_back(flow);
    }
    if (!haveNodes || !haveCount)
    {
        throw std::runtime_error(name + ": expected 'Nodes <N>' and 'Connections <C>' lines");
    }
    if (m.flows.size() != count)
    {
        throw std::runtime_error(name + ": 'Connections " + std::to_string(count) + "' but " +
                                 std::to_string(m.flows.size()) + " connections");
    }
    return m;
}

RdmaConnectionMatrix
RdmaReadConnectionMatrix(const std::string& path)
{
    std::ifstream in = RdmaTextReader::Open(path);
    return RdmaParseConnectionMatrix(in, path);
}

} // namespace ns3
