/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TEST_HOSTS_H
#define RDMA_TEST_HOSTS_H

#include "ns3/error-model.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace rdmatest
{

/**
 * Two hosts back to back (A and B), each with an RdmaNic, one PD, one
 * memory region, one CQ (completions collected into vectors) and one RC QP,
 * connected to each other. Used by the transport test suites.
 */
struct TwoHosts
{
    /// How to build the pair.
    struct Options
    {
        bool dataMode{true};                          //!< regions hold real bytes
        std::string lossRecovery{"ns3::RdmaGoBackN"}; //!< QP policy
        std::string rate{"100Gbps"};                  //!< link rate
        Time delay{NanoSeconds(1000)};                //!< propagation delay
        uint64_t regionBytes{1 << 20};                //!< size of each host's region
        uint32_t regionAccess{IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                              IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC}; //!< access
        RdmaConnectionConfig connection;                                          //!< QP attributes
        uint32_t cqDepth{1 << 16};                                                //!< CQ depth
        bool collect{true};              //!< collect completions by callback
        ObjectFactory congestionControl; //!< both NICs' CC; no TypeId = RdmaNoCc
        uint8_t ecn{2};                  //!< ECN codepoint both NICs send (3 = CE)
        /// Called on each NIC right after it is installed, before any PD, MR,
        /// CQ or QP is made (e.g. to give it a pipeline); may be empty.
        std::function<void(Ptr<RdmaNic>)> setupA;
        std::function<void(Ptr<RdmaNic>)> setupB; //!< the same for B
    };

    NodeContainer nodes;                 //!< A = 0, B = 1
    NetDeviceContainer devices;          //!< the two ports
    Ptr<RdmaNic> nicA;                   //!< A's NIC
    Ptr<RdmaNic> nicB;                   //!< B's NIC
    Ptr<RdmaProtectionDomain> pdA;       //!< A's PD
    Ptr<RdmaProtectionDomain> pdB;       //!< B's PD
    Ptr<RdmaMemoryRegion> mrA;           //!< A's region at VA 0x10000
    Ptr<RdmaMemoryRegion> mrB;           //!< B's region at VA 0x80000000
    Ptr<RdmaCompletionQueue> cqA;        //!< A's CQ (send and receive)
    Ptr<RdmaCompletionQueue> cqB;        //!< B's CQ
    Ptr<RdmaQueuePair> qpA;              //!< A's QP
    Ptr<RdmaQueuePair> qpB;              //!< B's QP
    std::vector<RdmaWorkCompletion> wcA; //!< completions on A
    std::vector<RdmaWorkCompletion> wcB; //!< completions on B
    int connectResult{-1};               //!< RdmaHelper::Connect's result

    static constexpr uint64_t VA_A = 0x10000;    //!< A's region start
    static constexpr uint64_t VA_B = 0x80000000; //!< B's region start

    /// Build with the options (the simulator must be fresh).
    explicit TwoHosts(const Options& options);
    /// Build with default options.
    TwoHosts();
    TwoHosts(const TwoHosts&) = delete;            //!< completions point into this object
    TwoHosts& operator=(const TwoHosts&) = delete; //!< completions point into this object

    /// Set a receive error model on a host's port (0 = A receives, 1 = B).
    void SetReceiveErrorModel(uint32_t host, Ptr<ErrorModel> em);
    /// Fill a region with a pattern derived from seed (data mode).
    static void Fill(Ptr<RdmaMemoryRegion> mr, uint64_t va, uint64_t length, uint8_t seed);
    /// \return whether a region holds the pattern
    static bool Holds(Ptr<RdmaMemoryRegion> mr, uint64_t va, uint64_t length, uint8_t seed);
    /// A send work request on A's region.
    RdmaSendWr Wr(RdmaWrOpcode op, uint64_t wrId, uint64_t localVa, uint32_t length) const;
    /// A receive work request on B's region.
    RdmaRecvWr Recv(uint64_t wrId, uint64_t va, uint32_t length) const;
    /// \return completions on a host with a status
    static uint32_t Count(const std::vector<RdmaWorkCompletion>& wcs, RdmaWcStatus status);

  private:
    void Build(const Options& options);
};

} // namespace rdmatest
} // namespace ns3

#endif // RDMA_TEST_HOSTS_H
