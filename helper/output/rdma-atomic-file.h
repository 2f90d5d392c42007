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
 * file in the same folder (mkstemp, "<name>.tmp.XXXXXX"), and the temporary
 * file is renamed over `path` (rename(2) is atomic within a file system).
 * An error, a crash or a signal of the program leaves either the old file
 * or the new one, never half of one; on error the temporary file is removed.
 *
 * The bytes are not forced to the disk (no fsync: one costs a journal
 * commit, about 0.3-1 ms, more than writing a run's small outputs). After an
 * operating-system crash or a power cut the file system's rules apply: ext4
 * (auto_da_alloc), XFS and btrfs write a file that a rename replaces before
 * the rename, so the old or the new file remains; a file that replaced
 * none may be found empty.
 * \param path the file to write
 * \param content its bytes
 * \throw std::runtime_error "<path>: <what failed>: <strerror>"
 */
void RdmaWriteFileAtomically(const std::string& path, const std::string& content);

/**
 * \ingroup rdma
 * \brief Create a file that does not exist yet and write all of it (for a
 * folder no one else reads until it is complete, as RdmaOutputStage's).
 * The mode is a plain create's (0666 less the umask).
 * \param path the file to create
 * \param content its bytes
 * \throw std::runtime_error "<path>: <what failed>: <strerror>" (it exists
 *        already: EEXIST); on a failed write the file is removed
 */
void RdmaWriteNewFile(const std::string& path, const std::string& content);

} // namespace ns3

#endif // RDMA_ATOMIC_FILE_H
