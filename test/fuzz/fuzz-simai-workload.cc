/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: a SimAI (AICB) workload file of arbitrary bytes
 * (RdmaSimaiWorkload::Parse), then what rdma-sim asks of it: the iteration
 * in SimAI's order and, for workloads of at most 4096 GPUs, the ranks of
 * every tensor-, data- and expert-parallel group, which must cover each
 * rank at most once. Bad input must end in std::runtime_error naming the
 * line, never an abort, a sanitizer report or a hang.
 */

#include "rdma-fuzz.h"

#include "ns3/abort.h"
#include "ns3/rdma-simai-workload.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    RdmaFuzzText(data, size, [](std::istream& in) {
        RdmaSimaiWorkload w = RdmaSimaiWorkload::Parse(in, "fuzz.txt");
        if (w.allGpus == 0)
        {
            w.SetAllGpus(16); // no all_gpus in the header: the job's GPUs, as rdma-sim gives them
        }
        volatile uint64_t sink = w.GetIteration().size();
        if (w.allGpus > 4096)
        {
            return;
        }
        using G = RdmaSimaiWorkload::Group;
        for (G g : {G::TP, G::DP, G::EP, G::DP_EP})
        {
            std::vector<bool> seen(w.allGpus, false);
            for (const auto& group : w.GetGroups(g))
            {
                NS_ABORT_UNLESS(group.size() == w.GetGroupSize(g));
                for (uint32_t r : group)
                {
                    NS_ABORT_UNLESS(r < w.allGpus && !seen[r]);
                    seen[r] = true;
                }
            }
            sink = sink + w.GetGroupSize(g);
        }
    });
    return 0;
}
