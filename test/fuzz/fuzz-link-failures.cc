/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: topology.failLinks, topology.failNodes and
 * topology.failPlanes of arbitrary bytes (RdmaParseLinkFailures, "A-B@time"
 * items; RdmaParseNodeFailures, "ID@time" items; RdmaParsePlaneFailures,
 * "P@time" items; RdmaJoinFailures) and topology.slowLinks (RdmaParseSlowLinks,
 * "A-B:F" and "A>B:F" items) on a k=4 fat tree of two planes. Bad input
 * must end in std::invalid_argument naming the item, never an abort or a
 * sanitizer report; what it accepts must name links of the topology, each
 * at a time that is not negative.
 */

#include "rdma-fuzz.h"

#include "ns3/abort.h"
#include "ns3/rdma-link-failures.h"
#include "ns3/rdma-slow-links.h"

#include <cstdint>
#include <stdexcept>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const RdmaLinkParams link;
    static const RdmaTopologySpec topo =
        RdmaTopologySpec::FatTree(4, link, link, link).WithPlanes(2);
    const std::string text(reinterpret_cast<const char*>(data), size);
    // The same text as topology.failLinks, topology.failNodes and topology.failPlanes.
    for (int key = 0; key < 3; ++key)
    {
        try
        {
            const auto failures = key == 0   ? RdmaParseLinkFailures(text, topo)
                                  : key == 1 ? RdmaParseNodeFailures(text, topo)
                                             : RdmaParsePlaneFailures(text, topo);
            for (const RdmaLinkFailure& f : RdmaJoinFailures(failures, failures))
            {
                NS_ABORT_MSG_UNLESS(f.link < topo.links.size(),
                                    "a link the topology does not have");
                NS_ABORT_MSG_IF(f.at.IsStrictlyNegative(), "a failure before the run");
            }
        }
        catch (const std::invalid_argument&)
        {
        }
    }
    try
    {
        for (const RdmaSlowLink& s : RdmaParseSlowLinks(text, topo))
        {
            NS_ABORT_MSG_UNLESS(s.link < topo.links.size(), "a link the topology does not have");
            NS_ABORT_MSG_UNLESS(s.fraction > 0 && s.fraction < 1, "a fraction outside (0, 1)");
            NS_ABORT_MSG_UNLESS(s.fromA || s.fromB, "a slow link that slows nothing");
        }
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
