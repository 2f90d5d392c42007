/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ATOMIC_FILE_H
#define RDMA_ATOMIC_FILE_H

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Write a whole file atomically: the content goes to a new temporary
 * file in the same folder (mkstemp, "<name>.tmp.XXXXXX"), is flushed to disk
 * (fsync), and the temporary file is renamed over `path` (rename(2) is atomic
 * within a file system). A crash or an error leaves either the old file or
 * the new one, never half of one; on error the temporary file is removed.
 * \param path the file to write
 * \param content its bytes
 * \throw std::runtime_error "<path>: <what failed>: <strerror>"
 */
void RdmaWriteFileAtomically(const std::string& path, const std::string& content);

} // namespace ns3

#endif // RDMA_ATOMIC_FILE_H
