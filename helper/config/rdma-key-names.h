/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_KEY_NAMES_H
#define RDMA_KEY_NAMES_H

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The edit distance of two key names, ignoring case: insertions,
 * deletions, substitutions and swaps of two neighbouring characters each
 * cost 1 (the optimal string alignment distance), so "traffic.laod" is 1
 * from "traffic.load".
 * \param a one name \param b the other
 * \return the distance
 */
std::size_t RdmaKeyDistance(const std::string& a, const std::string& b);

/**
 * \ingroup rdma
 * \brief The known names nearest to an unknown one, for "did you mean":
 * names within an edit distance of max(2, length / 4) (RdmaKeyDistance), and
 * names whose part after the last '.' equals the unknown one's ignoring case
 * (the same attribute in another group), nearest first, at most three.
 * \param unknown the name as typed
 * \param known every known name
 * \return the suggestions, possibly none
 */
std::vector<std::string> RdmaNearestKeys(const std::string& unknown,
                                         const std::vector<std::string>& known);

/**
 * \ingroup rdma
 * \brief The text an error appends for an unknown name: " (did you mean
 * 'a' or 'b'?)" with RdmaNearestKeys' suggestions, or "" if there are none.
 * \param unknown the name as typed \param known every known name
 * \return the text
 */
std::string RdmaDidYouMean(const std::string& unknown, const std::vector<std::string>& known);

} // namespace ns3

#endif /* RDMA_KEY_NAMES_H */
