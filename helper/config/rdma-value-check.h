/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_VALUE_CHECK_H
#define RDMA_VALUE_CHECK_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Check a value's text against an ns-3 attribute checker, the way
 * Config::SetDefault would take it, without ever letting ns-3 abort.
 *
 * ns-3.37's DeserializeFromString aborts the process (NS_ABORT_MSG, "is
 * not properly formatted", "Can't Parse Time") on text that is not a
 * number of its type (DoubleValue, UintegerValue, IntegerValue, TimeValue,
 * StringValue with a blank, EnumValue with an unknown name), and silently
 * turns some texts into other values ("-1" into 2^64-1 as an integer,
 * "1e999s" into 0 s, "0.5bps" into 0 bit/s, a rate beyond 2^64 bit/s into an
 * undefined cast). So the text is first checked here by its value type
 * (a number that is finite and fits, a time or rate with a known unit that
 * fits in Time's or DataRate's integer, an enum name the checker lists, no
 * blanks), then parsed with the checker's own DeserializeFromString, then
 * range-checked with the checker's Check (the attribute's declared
 * minimum and maximum). Times are durations: negative times are refused
 * whatever the checker's range.
 *
 * \param checker the attribute's checker (TypeId::AttributeInformation's,
 *        or one of MakeXChecker's)
 * \param text the value as the user typed it
 * \return "" if the value is valid, else what was expected, for an error
 *         message ("a number in [0, 1]", "a time with its unit ...")
 */
std::string RdmaCheckValue(Ptr<const AttributeChecker> checker, const std::string& text);

/**
 * \ingroup rdma
 * \brief A DataRate checker with a minimum (ns-3's MakeDataRateChecker has
 * no range): rates of links must be above 0 bit/s.
 * \param min the smallest rate accepted
 * \return the checker (its values are ordinary DataRateValues)
 */
Ptr<const AttributeChecker> RdmaMakeDataRateChecker(DataRate min);

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

} // namespace ns3

#endif /* RDMA_VALUE_CHECK_H */
