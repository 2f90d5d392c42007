/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-output-stage.h"

#include "rdma-atomic-file.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

namespace fs = std::filesystem;

RdmaOutputStage::RdmaOutputStage(std::string dir)
    : m_dir(std::move(dir))
{
}

RdmaOutputStage::~RdmaOutputStage()
{
    std::error_code ec; // nothing to report from a destructor
    if (!m_stage.empty())
    {
        fs::remove_all(m_stage, ec);
    }
    for (auto it = m_created.rbegin(); it != m_created.rend(); ++it)
    {
        fs::remove(*it, ec); // only if still empty
    }
}

void
RdmaOutputStage::Open()
{
    // The folders to create, outermost first.
    std::vector<fs::path> missing;
    std::error_code ec;
    for (fs::path p = fs::path(m_dir).lexically_normal(); !p.empty() && !fs::exists(p, ec);
         p = p.parent_path())
    {
        missing.insert(missing.begin(), p);
        if (p == p.parent_path())
        {
            break;
        }
    }
    for (const auto& p : missing)
    {
        if (::mkdir(p.c_str(), 0777) != 0 && errno != EEXIST)
        {
            throw std::runtime_error(m_dir + ": cannot create the output folder: " +
                                     std::strerror(errno));
        }
        m_created.push_back(p.string());
    }
    std::string pattern = (fs::path(m_dir) / ".rdma-sim-stage.XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
    {
        throw std::runtime_error(m_dir + ": cannot write in the output folder: " +
                                 std::strerror(errno));
    }
    m_stage = pattern;
}

const std::string&
RdmaOutputStage::GetStageDir() const
{
    return m_stage;
}

void
RdmaOutputStage::Write(const std::string& name, const std::string& content)
{
    const fs::path staged = fs::path(m_stage) / name;
    std::error_code ec;
    fs::create_directories(staged.parent_path(), ec);
    try
    {
        RdmaWriteNewFile(staged.string(), content);
    }
    catch (const std::runtime_error& e)
    {
        // The message names the staged file; the user knows the output's name.
        std::string what = e.what();
        const auto colon = what.find(": ", staged.string().size());
        throw std::runtime_error((fs::path(m_dir) / name).string() +
                                 (colon == std::string::npos ? ": " + what : what.substr(colon)) +
                                 " (nothing was written to " + m_dir + ")");
    }
}

void
RdmaOutputStage::Commit(const std::vector<std::string>& replaces)
{
    sigset_t held;
    sigset_t previous;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &held, &previous);
    std::string error;
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(m_stage, ec);
         !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
    {
        if (it->is_regular_file())
        {
            files.push_back(it->path());
        }
    }
    std::set<fs::path> staged;
    for (const auto& from : files)
    {
        staged.insert(from.lexically_relative(m_stage));
    }
    for (const std::string& r : replaces)
    {
        const auto star = r.find("/*");
        if (star == std::string::npos)
        {
            if (!staged.count(r))
            {
                fs::remove(fs::path(m_dir) / r, ec);
            }
            continue;
        }
        const fs::path folder = fs::path(m_dir) / r.substr(0, star);
        const std::string suffix = r.substr(star + 2);
        std::vector<fs::path> old;
        for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator();
             it.increment(ec))
        {
            const std::string name = it->path().filename().string();
            if (it->is_regular_file() && name.size() >= suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
                !staged.count(fs::path(r.substr(0, star)) / name))
            {
                old.push_back(it->path());
            }
        }
        ec.clear();
        for (const auto& p : old)
        {
            fs::remove(p, ec);
        }
        fs::remove(folder, ec); // only if now empty
        ec.clear();
    }
    for (const auto& from : files)
    {
        const fs::path to = fs::path(m_dir) / from.lexically_relative(m_stage);
        fs::create_directories(to.parent_path(), ec);
        fs::rename(from, to, ec);
        if (ec && error.empty())
        {
            error = to.string() + ": " + ec.message();
        }
    }
    fs::remove_all(m_stage, ec);
    m_stage.clear();
    m_created.clear(); // they hold the outputs now
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (!error.empty())
    {
        throw std::runtime_error(error);
    }
}

} // namespace ns3
