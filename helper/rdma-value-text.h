/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_VALUE_TEXT_H
#define RDMA_VALUE_TEXT_H

#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A value's text in the units a user types: a time as ns-3 prints it
 * ("+2e+11ps") in the largest unit that holds it in at most three decimals
 * ("200ms", "1.5us"), a rate in bit/s ("100000000000bps") in the largest of Gbps, Mbps, Kbps, bps that holds it
 * ("100Gbps"); every other text unchanged. The result reads back to the
 * same value.
 * \param checker the key's checker (null: the text is returned as it is)
 * \param text the value's text
 * \return the text to show
 */
std::string RdmaValueText(Ptr<const AttributeChecker> checker, const std::string& text);

/**
 * \ingroup rdma
 * \brief A time in the largest unit that holds it in at most three
 * decimals ("200ms", "1.5us", "0s"), as RdmaValueText shows a time key.
 * \param t the time
 * \return its text (ns-3's own, "+1.25e+03ps" style, where no unit holds it)
 */
std::string RdmaTimeText(Time t);

} // namespace ns3

#endif /* RDMA_VALUE_TEXT_H */
