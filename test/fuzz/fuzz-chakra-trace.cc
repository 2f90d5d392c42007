/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: one rank's Chakra execution trace of arbitrary bytes
 * (RdmaParseChakraRank), and its steps (RdmaChakraSteps) when it parses, beside
 * a second rank that mirrors its sends and receives. Bad
 * input must end in std::runtime_error naming the file, never an abort, a
 * sanitizer report or a hang.
 */

#include "rdma-fuzz.h"

#include "ns3/rdma-chakra-steps.h"
#include "ns3/rdma-chakra-trace.h"

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    RdmaFuzzText(data, size, [](std::istream& in) {
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        RdmaChakraTrace t;
        t.files = {"fuzz.0.et", "fuzz.1.et"};
        t.versions.resize(2);
        t.ranks.push_back(RdmaParseChakraRank(bytes, "fuzz.0.et", &t.versions[0]));
        // Rank 1 mirrors rank 0: its sends are rank 0's receives from it and
        // the other way round, so sends find matches and the merge runs.
        t.ranks.push_back(t.ranks[0]);
        for (RdmaChakraNode& n : t.ranks[1])
        {
            if (n.kind == RdmaChakraNode::SEND || n.kind == RdmaChakraNode::RECV)
            {
                n.kind = n.kind == RdmaChakraNode::SEND ? RdmaChakraNode::RECV : RdmaChakraNode::SEND;
                n.peer = n.peer == 1 ? 0 : n.peer;
            }
        }
        std::vector<std::string> warnings;
        RdmaChakraSteps(t, &warnings);
    });
    return 0;
}
