/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_OUTPUT_STAGE_H
#define RDMA_OUTPUT_STAGE_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The output files of one run, written all or none.
 *
 * Open() creates the output folder if it is missing (and the parents it
 * needs) and a private staging folder inside it; Write() puts a file in the
 * stage (RdmaWriteNewFile: no one reads the stage); Commit() renames every
 * staged file into the output folder with SIGINT and SIGTERM held, so an
 * interrupt lands before or after the whole set. Until Commit, the output
 * folder holds nothing new: an error (a full disk, ENOSPC; a file size
 * limit, EFBIG) or an interrupt before Commit, and the destructor removes
 * the stage and the folders Open created, leaving the output folder as it
 * was before the run. A file Commit replaces is replaced by rename(2),
 * whole. Nothing is forced to the disk (no fsync; RdmaWriteFileAtomically
 * says what an operating-system crash leaves).
 */
class RdmaOutputStage
{
  public:
    /// \param dir the output folder
    explicit RdmaOutputStage(std::string dir);
    /// Removes what was staged and not committed, and the folders Open made.
    ~RdmaOutputStage();
    RdmaOutputStage(const RdmaOutputStage&) = delete;
    RdmaOutputStage& operator=(const RdmaOutputStage&) = delete;

    /// \brief Create the folder if missing, and the stage inside it.
    /// \throws std::runtime_error naming the folder and the system's reason
    void Open();

    /// \return the stage's folder (files put there by other writers, such
    /// as RdmaPcapOutput::Commit, are committed with the rest)
    const std::string& GetStageDir() const;

    /**
     * \brief Write one file into the stage.
     * \param name its path relative to the output folder ("fct.csv")
     * \param content its bytes
     * \throws std::runtime_error "<folder>/<name>: write failed: <reason>"
     */
    void Write(const std::string& name, const std::string& content);

    /**
     * \brief Move every staged file into the output folder (SIGINT and
     * SIGTERM held meanwhile), remove what an earlier run left of the set
     * this one replaces, and remove the stage.
     * \param replaces the outputs a run may write, relative to the folder:
     *        a file name ("collectives.csv"), or a folder's files with a
     *        suffix (the folder, a slash, a star and the suffix: for pcap,
     *        its .pcap files); each one the stage
     *        does not hold is removed (a folder emptied so is removed too),
     *        so no file of an older run stays beside a newer summary.json.
     *        Files not named here are left alone.
     * \throws std::runtime_error if a rename fails
     */
    void Commit(const std::vector<std::string>& replaces = {});

  private:
    std::string m_dir;                  //!< the output folder
    std::string m_stage;                //!< the staging folder ("" before Open)
    std::vector<std::string> m_created; //!< folders Open created, outermost first
};

} // namespace ns3

#endif /* RDMA_OUTPUT_STAGE_H */
