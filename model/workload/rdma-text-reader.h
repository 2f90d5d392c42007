/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TEXT_READER_H
#define RDMA_TEXT_READER_H

#include <cstdint>
#include <fstream>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Reads whitespace-separated text inputs (flow-size CDFs, HPCC flow
 * files) token by token or line by line, keeping the line number of every
 * token so that each error names the file, the line and what was expected.
 *
 * Every error is thrown as std::runtime_error with the message
 * "<name>:<line>: expected <what>, got '<token>'" (or "found end of file"),
 * so a command-line front end and the Python bindings can catch it.
 */
class RdmaTextReader
{
  public:
    /**
     * \param in the stream (read on demand, never rewound)
     * \param name what errors call it, usually the file's path
     */
    RdmaTextReader(std::istream& in, std::string name);

    /**
     * \brief Open a file.
     * \param path the file
     * \return the stream
     * \throw std::runtime_error "<path>: cannot open file" if it cannot be read
     */
    static std::ifstream Open(const std::string& path);

    /**
     * \brief The next token, whatever line it is on (C++ operator>> rules:
     * line breaks carry no meaning).
     * \param what what the caller expects, for the end-of-file error
     * \return the token
     * \throw std::runtime_error at end of input
     */
    std::string NextToken(const std::string& what);
    /**
     * \brief The tokens of the next non-blank line.
     * \param tokens filled with its tokens (never empty on success)
     * \return false at end of input
     */
    bool NextLine(std::vector<std::string>& tokens);
    /**
     * \brief The tokens not yet read on the current line, or, when none are
     * left, on the next non-blank line (which becomes the current one; its
     * tokens are still to be read).
     * \return their number; 0 at end of input
     */
    std::size_t TokensOnLine();
    /// \return the line of the last token or line returned (1-based; 0 before any)
    uint32_t GetLine() const;
    /// \return the name errors use
    const std::string& GetName() const;

    /**
     * \brief A whole token as an unsigned decimal integer in [min, max].
     * \param token the token
     * \param what the field, for the error ("size_bytes (1-4294967295)")
     * \param min smallest value allowed
     * \param max largest value allowed
     * \return the value
     * \throw std::runtime_error naming the line if it is not such an integer
     */
    uint64_t ToUint(const std::string& token,
                    const std::string& what,
                    uint64_t min,
                    uint64_t max) const;
    /**
     * \brief A whole token as a finite decimal number (strtod syntax).
     * \param token the token
     * \param what the field, for the error
     * \return the value
     * \throw std::runtime_error naming the line if it is not a finite number
     */
    double ToDouble(const std::string& token, const std::string& what) const;
    /**
     * \brief Throw an error at the current line.
     * \param message what is wrong and what was expected
     * \throw std::runtime_error "<name>:<line>: <message>"
     */
    [[noreturn]] void Fail(const std::string& message) const;

  private:
    /// Read lines until one has a token left; false at end of input.
    bool Fill();

    std::istream& m_in;                //!< the input
    std::string m_name;                //!< file name for errors
    uint32_t m_line{0};                //!< line of m_tokens
    std::vector<std::string> m_tokens; //!< tokens of the current line
    std::size_t m_next{0};             //!< next unread token of the line
};

} // namespace ns3

#endif // RDMA_TEXT_READER_H
