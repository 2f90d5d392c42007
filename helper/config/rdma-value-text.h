/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_VALUE_TEXT_H
#define RDMA_VALUE_TEXT_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A time in the largest unit that holds it in at most three
 * decimals ("200ms", "1.5us", "0s"), as RdmaValueText (rdma-value-check.h) shows a time key.
 * \param t the time
 * \return its text (ns-3's own, "+1.25e+03ps" style, where no unit holds it)
 */
std::string RdmaTimeText(Time t);

/**
 * \ingroup rdma
 * \brief A rate in the largest of Gbps, Mbps, Kbps, bps that holds it in at
 * most three decimals ("100Gbps", "2.5Gbps", "0bps"), as RdmaValueText (rdma-value-check.h)
 * shows a rate key.
 * \param r the rate
 * \return its text
 */
std::string RdmaRateText(DataRate r);

/**
 * \ingroup rdma
 * \brief The length of the unsigned decimal number at the start of a text:
 * digits with at most one '.' and at least one digit ("12", "1.5", "5.",
 * ".25"), then an exponent if one follows whole ("e9", "E-3": "1e" is the
 * number "1" before the text "e"). The number part of a time, a rate or a
 * byte size in a configuration value.
 * \param text the text
 * \return the number's length in characters; 0 where the text starts with none
 */
std::size_t RdmaDecimalLength(const std::string& text);

} // namespace ns3

#endif /* RDMA_VALUE_TEXT_H */
