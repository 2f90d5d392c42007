/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_JOB_CONFIG_H
#define RDMA_JOB_CONFIG_H

#include "rdma-collective-runner.h"

#include "ns3/rdma-config.h"
#include "ns3/rdma-topology-spec.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The memory the jobs' collective schedules may take: a workload's
 * collective is run by every group of its kind at once, and its schedule
 * is copied once per group (RdmaCollectiveSchedule::Grouped), which for
 * thousands of GPUs outgrows the machine before a frame is sent.
 */
struct RdmaScheduleLimit
{
    uint64_t bytes{0};  //!< the limit (0: none)
    std::string source; //!< where it comes from, for the error (sim.maxMemory's value)
};

/**
 * \ingroup rdma
 * \brief The jobs of traffic.pattern = collective, from the job and
 * collective keys (doc/rdma.rst, "Collectives and jobs").
 *
 * job.count jobs of job.ranks ranks each (0: the hosts shared equally),
 * placed on hosts by job.placement: contiguous (job i on hosts i x n to
 * (i + 1) x n - 1, rank order = host order: a ring's neighbours share an
 * edge switch where they can), random (a random permutation of the
 * hosts, drawn from stream 3000 of the run's seed, cut into the jobs) or
 * rail (rail fabrics only: rail-major order, rank r on GPU r / S of server
 * r mod S for S servers, so a job of S ranks is one rail and its transfers
 * stay under one rail switch; job.ranks a multiple or a divisor of S).
 * One iteration is job.sequence, items separated by commas: "<collective>
 * [<size>] [<algorithm>]" (size and algorithm default to collective.bytes
 * and collective.algorithm) or "compute <time>"; empty, it is the one
 * collective collective.type of collective.bytes. Each job runs
 * job.iterations iterations from traffic.start + i x job.stagger, its QPs
 * at traffic.priority. The schedules are built here, with
 * collective.channels and collective.chunkBytes.
 *
 * On a rail fabric (RdmaTopologySpec::Rail) ranks go on GPUs (their NICs'
 * host indices, server-major, so contiguous placement keeps consecutive
 * ranks in a server), each job's intraHosts and servers set, and
 * job.ranks must be a multiple or a divisor of the GPUs per server.
 *
 * job.workload, a SimAI workload file (RdmaSimaiWorkload), or several
 * separated by commas (a job each, several tenants), gives the
 * iteration instead of job.sequence: its compute gaps and collectives in
 * SimAI's order, each collective run by every group of its kind (tensor,
 * data or expert parallel, Megatron-LM's rank order) at once; all_gpus must
 * equal the job's ranks (a file without all_gpus takes them), and on a rail fabric the tensor-parallel size must
 * divide the GPUs per server.
 *
 * \param c the configuration (traffic.pattern = collective)
 * \param topo the topology
 * \param warnings if not null, receives a line for each of collective.type,
 *        collective.bytes and collective.algorithm that was set but is not
 *        used (job.sequence gives what it would)
 * \return the jobs, their schedules built
 * \throws RdmaConfigError naming the key: an unknown collective or
 *         algorithm, an algorithm the collective does not have, more ranks
 *         than hosts (GPUs), fewer than 2 ranks, a rail job's ranks neither a
 *         multiple nor a divisor of the GPUs per server (of the servers with
 *         rail placement), rail placement off a rail fabric or with
 *         job.workload, a workload file's
 *         error or mismatch (naming file:line), a set collective.chunkBytes larger
 *         than a collective's message, a message below ranks x channels
 *         bytes, halving-doubling on ranks that are not a power of two;
 *         naming sim.maxMemory: a workload whose schedules would take more
 *         than limit.bytes (checked before each is copied to its groups)
 * \param limit what the schedules may take
 */
std::vector<RdmaJob> RdmaMakeJobs(const RdmaConfig& c,
                                  const RdmaTopologySpec& topo,
                                  std::vector<std::string>* warnings = nullptr,
                                  const RdmaScheduleLimit& limit = RdmaScheduleLimit());

/**
 * \ingroup rdma
 * \brief Refuse job and collective keys set for a traffic pattern that is
 * not collective (they would do nothing).
 * \param c the configuration
 * \throws RdmaConfigError naming the first such key
 */
void RdmaRefuseJobKeys(const RdmaConfig& c);

} // namespace ns3

#endif // RDMA_JOB_CONFIG_H
