/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_SIMAI_WORKLOAD_H
#define RDMA_SIMAI_WORKLOAD_H

#include "ns3/rdma-collective-schedule.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A training workload in SimAI's format (the files AICB writes,
 * github.com/aliyun/SimAI example/workload_gpt7b_64g.txt), read as SimAI's
 * astra-sim reads it (astra-sim/workload/Workload.cc, initialize_workload).
 *
 * Line 1: the parallelism policy and "key: value" pairs:
 * model_parallel_NPU_group (the tensor-parallel size TP), ep, pp, vpp, ga,
 * all_gpus, checkpoints and checkpoint_initiates (a count, then that many
 * layer numbers), pp_comm (bytes). The policies:
 * - HYBRID_TRANSFORMER_FWD_IN_BCKWD and HYBRID_TRANSFORMER (AICB's training
 *   workloads): model_parallel_NPU_group is required;
 * - DATA (data parallel) and MICRO (AICB's micro tests, one collective per
 *   line): SimAI reads no parallelism from their header, so TP = pp = ep =
 *   1 and every weight-gradient collective spans every GPU; their forward
 *   and input-gradient collectives are not run (SimAI's
 *   decode_involved_dimensions gives them no dimension);
 * - others are refused.
 * all_gpus may be missing (older AICB writes only
 * model_parallel_NPU_group, and MICRO files no field at all): the GPU
 * count is then the job's (SetAllGpus), as SimAI takes its own. Line 2: the
 * layer count L. Then L lines, one per layer: its name, a dependency (an
 * integer SimAI does not use), and for the forward pass, the input
 * gradient and the weight gradient each a compute time (SimAI's ticks:
 * nanoseconds in its ns-3 back end, which schedules NanoSeconds(ticks)), a
 * collective and its bytes; last the update time (ticks).
 *
 * Collectives: NONE, or ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL or
 * ALLREDUCEALLTOALL, alone or with _EP or _DP_EP. BROADCAST (which AICB
 * writes for a norm layer) is read and left out with a warning, as SimAI's
 * loader, which knows no broadcast, leaves it out. Their group, as SimAI
 * gives it: alone, the tensor-parallel group (forward, input gradient) or
 * the data-parallel group (weight gradient); _EP the expert-parallel group
 * (ep ranks); _DP_EP the expert-data-parallel group (DP / ep ranks). DP =
 * all_gpus / (TP x pp).
 *
 * Every error is thrown as std::runtime_error "<file>:<line>: <what>".
 */
struct RdmaSimaiWorkload
{
    /// Which ranks a collective runs among.
    enum class Group : uint8_t
    {
        TP,    //!< tensor parallel: TP consecutive ranks
        DP,    //!< data parallel: the ranks of one tensor-parallel index and stage
        EP,    //!< expert parallel: ep consecutive members of a data-parallel group
        DP_EP, //!< expert data parallel: the members of a DP group of one EP index
    };

    /// One collective of a layer's phase, as written.
    struct Comm
    {
        std::string type;  //!< as written ("NONE", "ALLGATHER_EP", ...)
        bool none{true};   //!< NONE
        bool modelled{false}; //!< a collective this module runs (not ALLREDUCEALLTOALL)
        RdmaCollectiveKind kind{RdmaCollectiveKind::ALL_REDUCE}; //!< if modelled
        Group group{Group::TP}; //!< its group
        uint64_t bytes{0};      //!< its size, nccl-tests' S
    };

    /// One layer line.
    struct Layer
    {
        std::string name;        //!< its id
        uint32_t line{0};        //!< its line in the file
        uint64_t compute[3]{};   //!< forward, input-gradient, weight-gradient compute, ns
        Comm comm[3];            //!< forward, input-gradient, weight-gradient collective
        uint64_t updateTime{0};  //!< update time after each collective, ns
    };

    /// One item of an iteration, in the order SimAI runs them.
    struct Item
    {
        bool compute{false};  //!< a compute gap (else a collective)
        uint64_t computeNs{0}; //!< its length (consecutive gaps merged)
        const Comm* comm{nullptr}; //!< the collective
        uint32_t line{0};     //!< the layer line it comes from
        std::string layer;    //!< the collective's layer id and phase ("attention fwd",
                              //!< "attention ig": input gradient, "attention wg": weight
                              //!< gradient); empty for a compute gap
    };

    std::string path;     //!< the file, as errors name it
    std::string policy;   //!< the parallelism policy
    uint32_t tp{0};       //!< model_parallel_NPU_group
    uint32_t ep{1};       //!< ep
    uint32_t pp{1};       //!< pp
    uint32_t vpp{1};      //!< vpp (read, not used)
    uint32_t ga{1};       //!< ga (read, not used: the file lists every micro-batch)
    uint32_t allGpus{0};  //!< all_gpus (0 until SetAllGpus when the file gives none)
    uint32_t checkpoints{0}; //!< layers named by checkpoints
    uint64_t ppComm{0};   //!< pp_comm
    std::vector<Layer> layers; //!< by line
    /// What the file asks that this module does not model, each "<file>:<line>: ..."
    std::vector<std::string> warnings;

    /**
     * \brief Read a workload.
     * \param in the text \param name the file name errors and warnings use
     * \return the workload
     * \throws std::runtime_error "<name>:<line>: ..." on a malformed header, a
     *         missing or extra layer line, a bad number, an unknown collective,
     *         group sizes that do not divide all_gpus
     */
    static RdmaSimaiWorkload Parse(std::istream& in, const std::string& name);
    /// \brief Read a file. \param path it \return the workload
    /// \throws std::runtime_error as Parse, or "<path>: cannot open file"
    static RdmaSimaiWorkload ReadFile(const std::string& path);
    /// \return whether the policy is DATA or MICRO (TP = pp = ep = 1)
    bool IsDataParallelOnly() const;
    /**
     * \brief Give the GPU count of a file whose header has no all_gpus
     * (allGpus is 0 after Parse), and check the groups against it, as Parse
     * does when the header gives it. Adds a warning that says so.
     * \param gpus the job's GPUs (ranks)
     * \throws std::runtime_error "<path>:1: ..." if TP x pp does not divide
     *         gpus or ep does not divide the data-parallel size
     */
    void SetAllGpus(uint32_t gpus);

    /// \return DP, all_gpus / (TP x pp)
    uint32_t GetDp() const;
    /// \return the ranks of one group of a kind \param g the kind
    uint32_t GetGroupSize(Group g) const;
    /**
     * \return every group of a kind, ranks in Megatron-LM's order (tensor
     * parallel fastest, then data parallel, then the pipeline stage: rank
     * = (stage x DP + d) x TP + t) \param g the kind
     */
    std::vector<std::vector<uint32_t>> GetGroups(Group g) const;
    /**
     * \return one iteration as SimAI's loop for the policy runs it.
     * Transformer: for each layer in order its forward compute then forward
     * collective; then for each layer in reverse its input-gradient compute
     * and collective, then its weight-gradient compute and collective.
     * DATA (SimAI's iterate_data_parallel): the forward computes in order;
     * then for each layer in reverse its weight-gradient compute and
     * collective, then its input-gradient compute. MICRO: each line's
     * weight-gradient collective, in file order, one after another (as
     * nccl-tests runs a sweep of sizes; SimAI's iterate_micro_benchmark
     * issues the first line's only). Compute gaps of 0 are left out and
     * consecutive ones merged; collectives of NONE, of 0 bytes, of a group
     * of one rank or not modelled are left out. Empty while allGpus is 0.
     */
    std::vector<Item> GetIteration() const;
};

/// \return "TP", "DP", "EP" or "DP_EP" \param g a group kind
const char* RdmaSimaiGroupName(RdmaSimaiWorkload::Group g);

} // namespace ns3

#endif // RDMA_SIMAI_WORKLOAD_H
