/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-atomic-file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ns3
{

namespace
{

[[noreturn]] void
Fail(const std::string& path, const std::string& what, int error, const std::string& tmp)
{
    if (!tmp.empty())
    {
        ::unlink(tmp.c_str());
    }
    throw std::runtime_error(path + ": " + what + ": " + std::strerror(error));
}

} // namespace

void
RdmaWriteFileAtomically(const std::string& path, const std::string& content)
{
    std::string pattern = path + ".tmp.XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0)
    {
        Fail(path, "cannot create a temporary file beside it", errno, "");
    }
    std::string tmp(name.data());
    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0)
    {
        ssize_t n = ::write(fd, data, left);
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n < 0)
        {
            int error = errno;
            ::close(fd);
            Fail(path, "write failed", error, tmp);
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    // mkstemp creates mode 0600; give the file the mode a plain create would.
    mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd, 0666 & ~mask) != 0 || ::fsync(fd) != 0)
    {
        int error = errno;
        ::close(fd);
        Fail(path, "fchmod/fsync failed", error, tmp);
    }
    if (::close(fd) != 0)
    {
        Fail(path, "close failed", errno, tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
    {
        Fail(path, "rename failed", errno, tmp);
    }
}

} // namespace ns3
