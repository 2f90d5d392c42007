/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FLOW_GENERATOR_H
#define RDMA_FLOW_GENERATOR_H

#include "ns3/data-rate.h"
#include "ns3/object.h"
#include "ns3/rdma-flow-size-cdf.h"
#include "ns3/rdma-flow.h"

#include <vector>

namespace ns3
{

class ExponentialRandomVariable;
class UniformRandomVariable;

/**
 * \ingroup rdma
 * \brief Makes workloads (lists of RdmaFlow, sorted by start time, ids
 * numbered from a given first id in start order): Poisson arrivals with
 * sizes from a CDF, incast, permutation and all-to-all, each flow's
 * operation drawn from an operation mix.
 *
 * Randomness: five streams, one per purpose, so that changing one pattern's
 * parameters does not shift another's draws: Poisson gaps, Poisson
 * destinations, flow sizes, host picks (permutation, incast senders) and
 * the operation mix. AssignStreams fixes them; the same streams and seed
 * give the same flows.
 *
 * Bad parameters throw std::runtime_error naming the parameter and what
 * was expected.
 */
class RdmaFlowGenerator : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaFlowGenerator();

    /**
     * \brief Fix the random streams.
     * \param stream first stream index
     * \return the number of streams used (5)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Set the operation mix: each flow is WRITE, READ or SEND with
     * probability proportional to these weights (default 1, 0, 0). A mix of
     * one operation draws nothing.
     * \param write weight of WRITE (>= 0)
     * \param read weight of READ (>= 0)
     * \param send weight of SEND (>= 0)
     * \throw std::runtime_error if a weight is negative or all are 0
     */
    void SetOperationMix(double write, double read, double send);

    /// Poisson arrivals per host at a target load.
    struct PoissonConfig
    {
        std::vector<uint32_t> hosts;    //!< the hosts (>= 2); each sends and receives
        DataRate hostRate{100'000'000'000ULL}; //!< each host's link rate (traffic_gen.py -b)
        double load{0.3};               //!< offered load per host, fraction of hostRate, (0, 1]
        Time start{Seconds(0)};         //!< start of the arrival window (HPCC: 2 s)
        Time duration{MilliSeconds(1)}; //!< length of the arrival window (traffic_gen.py -t)
        uint8_t priority{3};            //!< priority of every flow
        uint16_t dport{100};            //!< HPCC dport tag (100: background)
    };

    /**
     * \brief Poisson arrivals as HPCC's traffic_gen.py makes them: each
     * host's flows arrive with exponential gaps of mean
     * avg_size x 8 / (hostRate x load) (avg_size = cdf.GetMean()), each gap
     * truncated to whole nanoseconds; the first arrives one gap after
     * `start`. Hosts are merged in time order (ties: the host listed
     * first). For the host with the earliest pending arrival t, the next gap
     * g and a destination (uniform over the other hosts) are drawn; if
     * t + g is past the window's end the host stops (and, as in
     * traffic_gen.py, the arrival at t is not emitted); else a flow starts at
     * t with a size drawn from the CDF. The expected number of flows per host
     * is therefore lambda T - 1 + exp(-lambda T), lambda T = duration / mean gap.
     * \param config the parameters
     * \param cdf the flow-size distribution
     * \param firstId id of the first flow
     * \return the flows, sorted by start
     * \throw std::runtime_error on bad parameters (names the field)
     */
    std::vector<RdmaFlow> Poisson(const PoissonConfig& config,
                                  const RdmaFlowSizeCdf& cdf,
                                  uint32_t firstId = 0);

    /// An incast: N senders to one receiver, in rounds.
    struct IncastConfig
    {
        uint32_t receiver{0};             //!< the host every flow goes to
        std::vector<uint32_t> senders;    //!< the senders; if empty, fanIn are picked from hosts
        std::vector<uint32_t> hosts;      //!< candidates for senders when senders is empty
        uint32_t fanIn{0};                //!< number of senders to pick (senders empty)
        uint64_t size{0};                 //!< bytes of each flow (> 0)
        uint32_t repeats{1};              //!< rounds (>= 1)
        Time interval{MicroSeconds(100)}; //!< from one round's start to the next
        Time start{Seconds(0)};           //!< first round's start
        uint8_t priority{3};              //!< priority of every flow
        uint16_t dport{200};              //!< HPCC dport tag (200: incast)
    };

    /**
     * \brief An incast: in each of `repeats` rounds, every sender starts one
     * flow of `size` bytes to the receiver at the same instant (rounds
     * `interval` apart). Senders are listed, or fanIn distinct hosts drawn
     * uniformly (host-pick stream) from `hosts` without the receiver, once
     * for all rounds.
     * \param config the parameters
     * \param firstId id of the first flow
     * \return fanIn x repeats flows, sorted by start then sender order
     * \throw std::runtime_error on bad parameters
     */
    std::vector<RdmaFlow> Incast(const IncastConfig& config, uint32_t firstId = 0);

    /// A pattern where every host sends the same size at the same time.
    struct PatternConfig
    {
        std::vector<uint32_t> hosts; //!< the hosts (>= 2)
        uint64_t size{0};            //!< bytes of each flow (> 0)
        Time start{Seconds(0)};      //!< when every flow starts
        uint8_t priority{3};         //!< priority of every flow
        uint16_t dport{100};         //!< HPCC dport tag
    };

    /**
     * \brief A random permutation: every host sends one flow and receives
     * one, never to itself (a derangement, uniform over all derangements:
     * Fisher-Yates shuffles on the host-pick stream until one has no fixed
     * point).
     * \param config the parameters
     * \param firstId id of the first flow
     * \return one flow per host, in host order
     * \throw std::runtime_error on bad parameters
     */
    std::vector<RdmaFlow> Permutation(const PatternConfig& config, uint32_t firstId = 0);

    /**
     * \brief All-to-all: every host sends one flow to every other host.
     * \param config the parameters
     * \param firstId id of the first flow
     * \return n (n - 1) flows, source-major in host order
     * \throw std::runtime_error on bad parameters
     */
    std::vector<RdmaFlow> AllToAll(const PatternConfig& config, uint32_t firstId = 0);

    /**
     * \brief Merge workloads into one: flows sorted by start time (stable:
     * ties keep the order of the lists and within them), ids renumbered
     * 0, 1, ... in that order.
     * \param parts the workloads
     * \return the merged workload
     */
    static std::vector<RdmaFlow> Merge(const std::vector<std::vector<RdmaFlow>>& parts);

  private:
    /// Append a flow with the next operation of the mix.
    void Emit(std::vector<RdmaFlow>& flows,
              uint32_t id,
              uint32_t src,
              uint32_t dst,
              uint64_t size,
              Time start,
              uint8_t priority,
              uint16_t dport);
    /// \return the next flow's operation (draws only for a mixed mix)
    RdmaFlowOp PickOp();
    /// Check a host list and a size, naming the pattern in errors.
    static void CheckHosts(const std::string& pattern, const std::vector<uint32_t>& hosts);

    Ptr<ExponentialRandomVariable> m_gap; //!< Poisson gaps
    Ptr<UniformRandomVariable> m_dst;     //!< Poisson destinations
    Ptr<UniformRandomVariable> m_size;    //!< sizes from a CDF
    Ptr<UniformRandomVariable> m_pick;    //!< permutation, incast senders
    Ptr<UniformRandomVariable> m_op;      //!< operation mix
    double m_mix[3];                      //!< WRITE, READ, SEND weights
};

} // namespace ns3

#endif // RDMA_FLOW_GENERATOR_H
