/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-atomic-file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ns3
{

namespace
{

[[noreturn]] void
Fail(const std::string& path, const std::string& what, int error, const std::string& written)
{
    if (!written.empty())
    {
        ::unlink(written.c_str());
    }
    throw std::runtime_error(path + ": " + what + ": " + std::strerror(error));
}

/// Write all of content to fd and close it; on failure remove `file` and throw naming `path`.
void
WriteAllAndClose(int fd,
                 const std::string& content,
                 const std::string& path,
                 const std::string& file)
{
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
            Fail(path, "write failed", error, file);
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0)
    {
        Fail(path, "close failed", errno, file);
    }
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
    // mkstemp creates mode 0600; give the file the mode a plain create would.
    mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd, 0666 & ~mask) != 0)
    {
        int error = errno;
        ::close(fd);
        Fail(path, "fchmod failed", error, tmp);
    }
    WriteAllAndClose(fd, content, path, tmp);
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
    {
        Fail(path, "rename failed", errno, tmp);
    }
}

void
RdmaWriteNewFile(const std::string& path, const std::string& content)
{
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
    {
        Fail(path, "cannot create it", errno, "");
    }
    WriteAllAndClose(fd, content, path, path);
}

} // namespace ns3
