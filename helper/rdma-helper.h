/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-nic-tables.h"
#include "ns3/rdma-nic.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Settings of an RC connection made by RdmaHelper::Connect: what
 * real code exchanges out of band (GIDs, QPNs, PSNs) is taken from the two
 * NICs and QPs; these are the rest of the ModifyQp attributes.
 */
struct RdmaConnectionConfig
{
    RdmaMtu pathMtu{RdmaPathMtu::DEFAULT}; //!< path MTU
    uint8_t timeout{14};           //!< local ACK timeout exponent (4.096 us x 2^14 = 67 ms)
    uint8_t retryCnt{7};           //!< retry_cnt
    uint8_t rnrRetry{7};           //!< rnr_retry (7 = infinite)
    uint8_t minRnrTimer{1};        //!< min_rnr_timer code (1 = 10 us)
    uint8_t maxRdAtomic{16};       //!< max_rd_atomic
    uint8_t maxDestRdAtomic{16};   //!< max_dest_rd_atomic
    uint32_t accessFlags{IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                         IBV_ACCESS_REMOTE_ATOMIC}; //!< QP access flags
    uint32_t psnA{0};                               //!< first PSN A sends (B expects)
    uint32_t psnB{0};                               //!< first PSN B sends (A expects)
    uint8_t trafficClass{26 << 2};                  //!< IP TOS of the QPs' packets (DSCP 26)
};

/**
 * \ingroup rdma
 * \brief One host's verbs resources as a workload runner holds them
 * (RdmaFlowRunner, RdmaCollectiveRunner): its NIC, a protection domain and
 * a completion queue whose completions go to a callback (no overrun).
 *
 * On an MPI rank that does not simulate the host, it has no NIC here, only
 * its ids: the QP numbers and memory keys its NIC hands out on its own rank
 * (RdmaNicIds), taken here in the same order.
 */
struct RdmaHostVerbs
{
    Ptr<RdmaNic> nic;             //!< the NIC (null: another rank simulates the host)
    Ptr<RdmaNicIds> ids;          //!< its ids (the NIC's, where there is one)
    Ptr<RdmaProtectionDomain> pd; //!< its PD (after Open)
    Ptr<RdmaCompletionQueue> cq;  //!< its CQ (after Open)

    /// Make it a host with this NIC (its ids the NIC's) \param n the NIC (null: not a host)
    void SetNic(Ptr<RdmaNic> n);
    /// Make it another rank's host: no NIC here, these ids \param far its ids
    void SetFar(Ptr<RdmaNicIds> far);
    /**
     * \brief Allocate the PD and a CQ of 2^16 entries that delivers every
     * completion to a callback.
     * \param onCompletion the callback
     */
    void Open(Callback<void, const RdmaWorkCompletion&> onCompletion);
    /**
     * \return the creation attributes of a QP on this host: its PD, its CQ
     * for both queues, the queue depths
     * \param maxSendWr send queue depth \param maxRecvWr receive queue depth
     */
    RdmaQueuePair::InitAttr QpInit(uint32_t maxSendWr, uint32_t maxRecvWr) const;
    /// Stop the CQ's callback (the CQ outlives a runner on its NIC); nothing if not open.
    void Close();
};

/**
 * \ingroup rdma
 * \brief Installs RdmaNic on host nodes and connects RC queue pairs.
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    /**
     * \brief Set an RdmaNic attribute for the NICs installed next.
     * \param name attribute name
     * \param value its value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Give every NIC installed next its own RdmaNicPipeline (off by
     * default: NICs cost no time).
     * \param enable whether to
     */
    void EnablePipeline(bool enable = true);
    /**
     * \brief Set an RdmaNicPipeline attribute for the NICs installed next
     * (their tables are set on the NIC afterwards: GetPipeline()->GetTables()).
     * \param name attribute name, e.g. "TxEngines"
     * \param value its value
     */
    void SetPipelineAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of one table's cache (NicCache) in the
     * pipelines of the NICs installed next.
     * \param table the table (QPC, MPT or MTT)
     * \param name attribute name, e.g. "Entries"
     * \param value its value
     */
    void SetCacheAttribute(RdmaNicTables::Table table,
                           const std::string& name,
                           const AttributeValue& value);
    /**
     * \brief Set an attribute of the backing store (NicMemory) of one
     * table's cache in the pipelines of the NICs installed next.
     * \param table the table
     * \param name attribute name
     * \param value its value
     */
    void SetCacheMemoryAttribute(RdmaNicTables::Table table,
                                 const std::string& name,
                                 const AttributeValue& value);

    /**
     * \brief Choose the congestion control of the QPs of the NICs installed
     * next: one instance per QP, forked from a prototype with these
     * attributes (the ObjectFactory pattern of ns-3's TCP).
     * \param type an RdmaCongestionOps TypeId name, e.g. "ns3::RdmaDcqcn"
     * \param args attribute name / value pairs, e.g. "G", DoubleValue (1.0 / 256)
     */
    template <typename... Ts>
    void SetCongestionControl(const std::string& type, Ts&&... args);
    /**
     * \brief Choose the congestion control through a ready factory (e.g. one
     * given RdmaDcqcn::SetNvidiaFirmwareDefaults).
     * \param factory the factory; its TypeId must be an RdmaCongestionOps
     */
    void SetCongestionControl(const ObjectFactory& factory);

    /**
     * \brief Choose the loss recovery of the QPs of the NICs installed next:
     * one policy per NIC (the policies keep no per-QP state), made by this
     * factory and set as the NIC's QP attribute LossRecovery.
     * \param factory the factory; its TypeId must be an RdmaLossRecovery
     */
    void SetLossRecovery(const ObjectFactory& factory);
    /**
     * \brief Size the window cap (attribute BdpBytes, which the policy of
     * SetLossRecovery must have, as ns3::RdmaSelectiveRepeat) of each NIC
     * installed next as the bandwidth-delay product of its path: the port's
     * DataRate x rtt / 8 bytes, at least minBytes (IRN, Mittal et al.,
     * SIGCOMM 2018, section 3.2: the cap is one BDP).
     * \param rtt the round-trip time, e.g. the longest path's base RTT
     * \param minBytes the floor, e.g. one path MTU
     */
    void SetLossRecoveryBdp(Time rtt, uint32_t minBytes);
    /**
     * \brief The path MTU the QPs of the NICs installed next will use: with
     * a pipeline it sizes the out-of-order state of the loss recovery in
     * every QPC entry (RdmaLossRecovery::GetQpContextBits,
     * RdmaNicTables::SetQpcStateBits). Default 1024, RdmaQpAttr's default.
     * \param bytes the path MTU, bytes
     */
    void SetPathMtu(uint32_t bytes);

    /**
     * \brief Aggregate an RdmaNic to a node and attach it to its port: the
     * NIC (SetNicAttribute), its pipeline with its caches' attributes
     * (EnablePipeline), its congestion control and its loss recovery. With
     * a pipeline, the receive buffer is sized for the port's link at once
     * (RdmaNic::ConfigureRxBuffer), so the device must be linked.
     * \param node the host
     * \param device its QbbNetDevice (plane 0's on a multi-plane fabric)
     * \param address the host's IPv4 address (GID)
     * \param planes its ports on planes 1, 2, ... of a multi-plane fabric
     *        (RdmaNic::AttachPlane; the loss recovery's BDP is at their summed rate)
     * \return the NIC
     * \throws std::invalid_argument if the pipeline's receive buffer cannot
     * work on the port's link (the reason RdmaNic::ConfigureRxBuffer gives,
     * naming the RdmaNicRxBuffer attribute)
     */
    Ptr<RdmaNic> Install(Ptr<Node> node,
                         Ptr<NetDevice> device,
                         Ipv4Address address,
                         const std::vector<Ptr<QbbNetDevice>>& planes = {}) const;

    /**
     * \brief Walk two QPs through RESET -> INIT -> RTR -> RTS, each pointed
     * at the other, as a connection manager would.
     * \param a one QP (in RESET)
     * \param nicA its NIC
     * \param b the other QP (in RESET)
     * \param nicB its NIC
     * \param config the attributes to use
     * \return 0, or the errno of the first ModifyQp that failed
     */
    static int Connect(Ptr<RdmaQueuePair> a,
                       Ptr<RdmaNic> nicA,
                       Ptr<RdmaQueuePair> b,
                       Ptr<RdmaNic> nicB,
                       const RdmaConnectionConfig& config = RdmaConnectionConfig());

    /**
     * \brief Create an RC QP on each of two NICs (ibv_create_qp: a's first)
     * and connect them (Connect) in the traffic class of a priority: DSCP =
     * priority x 8 + the low three bits of config's DSCP (RFC 2474 class
     * selectors: the QbbNetDevice's default DSCP-to-class map sends it to
     * class = priority; priority 3 with the default AF31 = 26 keeps 26).
     * \param a the requester's NIC
     * \param initA its QP's resources
     * \param b the responder's NIC
     * \param initB its QP's resources
     * \param config the connection settings
     * \param priority the traffic class (0-7)
     * \return a's and b's QPs, connected; both null if a NIC could not
     *         create one (ENOMEM: its QP context memory is full; the other
     *         is destroyed)
     * Aborts if Connect fails (a bad connection config).
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> CreateConnectedQps(
        Ptr<RdmaNic> a,
        const RdmaQueuePair::InitAttr& initA,
        Ptr<RdmaNic> b,
        const RdmaQueuePair::InitAttr& initB,
        const RdmaConnectionConfig& config,
        uint8_t priority);

    /**
     * \brief CreateConnectedQps between two hosts either of which another MPI
     * rank may simulate (a host without a NIC here): a QP is created only on
     * a host with a NIC; the other side's QP number is the one its NIC gives
     * on its own rank (RdmaNicIds::TakeQpn: the ranks take them in the same
     * order), and the local QP is connected to it as Connect would (the GID
     * is the peer's address). With both NICs here, as the NIC overload.
     * \param a the requester's host
     * \param initA its QP's resources (unused without a NIC)
     * \param b the responder's host
     * \param initB its QP's resources (the same)
     * \param config the connection settings
     * \param priority the traffic class (0-7)
     * \return a's and b's QPs, null for a host without a NIC; both null if
     *         a NIC could not create one (as the NIC overload)
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> CreateConnectedQps(
        const RdmaHostVerbs& a,
        const RdmaQueuePair::InitAttr& initA,
        const RdmaHostVerbs& b,
        const RdmaQueuePair::InitAttr& initB,
        const RdmaConnectionConfig& config,
        uint8_t priority);

  private:
    ObjectFactory m_nicFactory;      //!< NIC attributes
    ObjectFactory m_pipelineFactory; //!< pipeline attributes
    bool m_pipeline{false};          //!< install a pipeline
    ObjectFactory m_ccFactory;       //!< congestion control; no TypeId = the NIC's default
    ObjectFactory m_recoveryFactory; //!< loss recovery; no TypeId = the NIC's default
    Time m_bdpRtt;                   //!< SetLossRecoveryBdp's rtt (zero: not asked)
    uint32_t m_bdpMinBytes{0};       //!< SetLossRecoveryBdp's floor
    uint32_t m_pathMtu{1024};        //!< SetPathMtu's bytes

    /// One attribute of a table's cache or of its backing store.
    struct CacheAttribute
    {
        RdmaNicTables::Table table; //!< the table
        bool memory;                //!< the backing store (else the cache)
        std::string name;           //!< attribute name
        Ptr<AttributeValue> value;  //!< its value
    };

    std::vector<CacheAttribute> m_cacheAttributes; //!< in the order set
};

template <typename... Ts>
void
RdmaHelper::SetCongestionControl(const std::string& type, Ts&&... args)
{
    ObjectFactory factory(type, std::forward<Ts>(args)...);
    SetCongestionControl(factory);
}

} // namespace ns3

#endif // RDMA_HELPER_H
