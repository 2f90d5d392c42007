/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-pcap-output.h"

#include "ns3/qbb-net-device.h"
#include "ns3/rdma-topology-helper.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace ns3
{

namespace fs = std::filesystem;

RdmaPcapOutput::~RdmaPcapOutput()
{
    m_writers.clear();
    if (!m_tmpDir.empty())
    {
        std::error_code ec;
        fs::remove_all(m_tmpDir, ec); // nothing to report from a destructor
    }
}

std::vector<uint32_t>
RdmaPcapOutput::ParseNodes(const std::string& text, uint32_t nNodes)
{
    std::vector<uint32_t> ids;
    std::istringstream items(text);
    std::string item;
    while (std::getline(items, item, ','))
    {
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (item.empty())
        {
            if (text.find_first_not_of(" \t") == std::string::npos)
            {
                break; // "" or blanks: no node
            }
            throw std::invalid_argument("empty item in the list '" + text + "'");
        }
        if (item.find_first_not_of("0123456789") != std::string::npos || item.size() > 9)
        {
            throw std::invalid_argument("'" + item + "' is not a node id (expected ids such as 0,5)");
        }
        const uint32_t id = static_cast<uint32_t>(std::stoul(item));
        if (id >= nNodes)
        {
            throw std::invalid_argument("node " + item + " does not exist (the topology has " +
                                        std::to_string(nNodes) + " nodes, ids 0 to " +
                                        std::to_string(nNodes - 1) + ")");
        }
        ids.push_back(id);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

void
RdmaPcapOutput::Enable(const RdmaTopologyHelper& topo, const std::vector<uint32_t>& nodes)
{
    if (nodes.empty())
    {
        return;
    }
    std::string pattern = (fs::temp_directory_path() / "rdma-sim-pcap.XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
    {
        throw std::runtime_error(pattern + ": cannot create a temporary folder for the captures");
    }
    m_tmpDir = pattern;
    for (uint32_t id : nodes)
    {
        Ptr<Node> node = topo.GetNode(id);
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<QbbNetDevice> dev = DynamicCast<QbbNetDevice>(node->GetDevice(i));
            if (!dev)
            {
                continue; // the loopback, if any
            }
            const std::string name =
                "node-" + std::to_string(id) + "-" + std::to_string(dev->GetIfIndex()) + ".pcap";
            auto writer = Create<RdmaPcapWriter>(m_tmpDir + "/" + name);
            if (!writer->IsOpen())
            {
                throw std::runtime_error(writer->GetError());
            }
            dev->TraceConnectWithoutContext("PhyTxBegin",
                                            MakeCallback(&RdmaPcapWriter::WriteNow, writer));
            dev->TraceConnectWithoutContext("PhyRxEnd",
                                            MakeCallback(&RdmaPcapWriter::WriteNow, writer));
            m_writers.push_back(writer);
            m_names.push_back(name);
        }
    }
}

void
RdmaPcapOutput::Commit(const std::string& outDir)
{
    if (m_tmpDir.empty())
    {
        return;
    }
    for (const auto& w : m_writers)
    {
        w->Close();
        if (!w->IsOpen())
        {
            throw std::runtime_error(w->GetError());
        }
    }
    const fs::path dest = fs::path(outDir) / "pcap";
    std::error_code ec;
    fs::create_directories(dest, ec);
    if (ec)
    {
        throw std::runtime_error(dest.string() + ": " + ec.message());
    }
    for (const auto& name : m_names)
    {
        const fs::path from = fs::path(m_tmpDir) / name;
        const fs::path to = dest / name;
        fs::rename(from, to, ec);
        if (ec)
        {
            // Another file system: copy beside the target, then rename into place.
            const fs::path part = dest / (name + ".tmp");
            ec.clear();
            fs::copy_file(from, part, fs::copy_options::overwrite_existing, ec);
            if (!ec)
            {
                fs::rename(part, to, ec);
            }
            if (ec)
            {
                std::error_code ignored;
                fs::remove(part, ignored);
                throw std::runtime_error(to.string() + ": " + ec.message());
            }
        }
    }
    fs::remove_all(m_tmpDir, ec);
    m_tmpDir.clear();
}

std::vector<std::string>
RdmaPcapOutput::GetFileNames() const
{
    return m_names;
}

} // namespace ns3
