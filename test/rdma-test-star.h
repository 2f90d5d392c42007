/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TEST_STAR_H
#define RDMA_TEST_STAR_H

#include "ns3/node-container.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-collective-runner.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace rdmatest
{

/**
 * N hosts around one RdmaSwitch (host i on switch port i, address
 * 10.0.0.(i+1), a route to each), each host with an RdmaNic, a PD, one
 * memory region at VA and one CQ whose completions are collected. Used by
 * the switch suites (incast, watchdog).
 */
struct Star
{
    /// How to build the star.
    struct Options
    {
        uint32_t hosts{3};                              //!< number of hosts
        std::string rate{"100Gbps"};                    //!< every link's rate
        Time delay{NanoSeconds(1000)};                  //!< every link's delay
        uint16_t deviceMtu{9000};                       //!< every port's Mtu
        uint64_t regionBytes{1 << 20};                  //!< region size per host
        RdmaConnectionConfig connection;                //!< QP attributes
        std::function<void(Ptr<RdmaSwitch>)> configure; //!< runs before AddPort
    };

    NodeContainer hosts;                              //!< the hosts
    Ptr<Node> switchNode;                             //!< the switch's node
    Ptr<RdmaSwitch> sw;                               //!< the switch
    std::vector<Ptr<QbbNetDevice>> hostPorts;         //!< host i's port
    std::vector<Ptr<QbbNetDevice>> switchPorts;       //!< switch port i (to host i)
    std::vector<Ptr<RdmaNic>> nics;                   //!< host i's NIC
    std::vector<Ipv4Address> addresses;               //!< host i's address
    std::vector<Ptr<RdmaProtectionDomain>> pds;       //!< host i's PD
    std::vector<Ptr<RdmaMemoryRegion>> mrs;           //!< host i's region at VA
    std::vector<Ptr<RdmaCompletionQueue>> cqs;        //!< host i's CQ
    std::vector<std::vector<RdmaWorkCompletion>> wcs; //!< host i's completions
    RdmaConnectionConfig connection;                  //!< QP attributes used

    static constexpr uint64_t VA = 0x10000; //!< every region's start

    /// Build (the simulator must be fresh).
    explicit Star(const Options& options);
    Star(const Star&) = delete;            //!< completions point into this object
    Star& operator=(const Star&) = delete; //!< completions point into this object

    /**
     * \brief Create and connect a QP on host a and one on host b.
     * \param a one host
     * \param b the other
     * \return a's QP (b's QP is connected to it)
     */
    Ptr<RdmaQueuePair> Connect(uint32_t a, uint32_t b);
    /**
     * \brief Post a WRITE of length bytes from host a's region to host b's.
     * \param qp a's QP (from Connect)
     * \param a the sender
     * \param b the receiver
     * \param wrId work request id
     * \param length bytes
     * \return PostSend's result
     */
    int PostWrite(Ptr<RdmaQueuePair> qp, uint32_t a, uint32_t b, uint64_t wrId, uint32_t length);
    /**
     * \param host a host
     * \param status a status
     * \return its completions with that status
     */
    uint32_t Count(uint32_t host, RdmaWcStatus status) const;
};

/**
 * A training job (RdmaCollectiveRunner) on a Star of hosts, run to its end
 * (or 1 s); the simulator is destroyed with it.
 */
struct StarJob
{
    /// \param hosts hosts of the star \param job the job (hosts 0..n-1 if empty)
    /// \param reduceRate the runner's ReduceRate \param fastForward its FastForward
    StarJob(uint32_t hosts,
            RdmaJob job,
            const std::string& reduceRate = "4000Gbps",
            bool fastForward = false);
    ~StarJob();

    std::unique_ptr<Star> star;                  //!< the fabric
    Ptr<RdmaCollectiveRunner> runner;            //!< the engine
    std::vector<RdmaCollectiveRecord> records;   //!< its records
    std::vector<RdmaIterationRecord> iterations; //!< its iterations
};

} // namespace rdmatest
} // namespace ns3

#endif // RDMA_TEST_STAR_H
