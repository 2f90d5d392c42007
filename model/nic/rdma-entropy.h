/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ENTROPY_H
#define RDMA_ENTROPY_H

#include "rdma-path-penalty.h"
#include "rdma-reps.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-frame.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The parameters of a NIC's entropy policies, read where the NIC
 * keeps them as its attributes (RdmaNic's FlowletTimeout and
 * RepsBufferSize), so a change takes effect at once.
 */
struct RdmaEntropyParams
{
    const Time& flowletTimeout;     //!< idle gap that ends a flowlet
    const uint32_t& repsBufferSize; //!< REPS: recycled ports kept per QP
    const uint32_t& entropyPaths;   //!< mixed: the entropies each QP walks
};

/**
 * \ingroup rdma
 * \brief How a NIC chooses the UDP source port of a QP's frames: the path
 * entropy ECMP switches hash (IBA Vol. 1 Annex A17.4.5.1, "UDP source
 * port"), the host's side of load balancing, as RdmaLoadBalancer is the
 * switch's. RdmaNic's Entropy attribute picks one policy per NIC
 * (RdmaQpEntropy, RdmaPacketEntropy, RdmaFlowletEntropy, RdmaRepsEntropy);
 * each keeps its per-QP state. Random ports come from the NIC's own stream
 * (AssignStreams), in the dynamic range 0xC000-0xFFFF.
 */
class RdmaEntropy : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Take over the policy this one replaces: its random stream (so
     * a stream fixed by AssignStreams stays), and read the NIC's parameters.
     * \param previous the policy replaced (null: none)
     * \param params the NIC's parameters (outlive the policy)
     */
    void Succeed(Ptr<RdmaEntropy> previous, const RdmaEntropyParams* params);

    /**
     * \brief Fix the random stream ports are drawn from.
     * \param stream the stream
     * \return the streams used: 1 (qp draws nothing and takes none)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief The UDP source port of the next frame a QP sends.
     * \param qpn the QP \param destQpn its destination QP
     * \return the port
     */
    virtual uint16_t Pick(uint32_t qpn, uint32_t destQpn) = 0;
    /**
     * \brief A frame `f` of QP qpn was built (after Pick).
     * \param qpn the QP \param f the frame
     */
    virtual void Sent(uint32_t qpn, const RoceFrame& f);
    /// \return whether the policy draws ports (all but qp)
    virtual bool Draws() const;
    /// \return whether the policy reads responses (Acked); default false
    virtual bool SeesResponses() const;
    /**
     * \brief A response arrived for one of the NIC's QPs (SeesResponses).
     * \param f the response
     * \param sack whether it is selective repeat's SACK (a sequence NAK whose
     *        MSN field holds the PSN that arrived)
     */
    virtual void Acked(const RoceFrame& f, bool sack);
    /// \brief A QP was destroyed: its state goes. \param qpn the QP
    virtual void Forget(uint32_t qpn);

  protected:
    void DoDispose() override;
    /// \return a random port of the dynamic range (0xC000-0xFFFF)
    uint16_t Draw();
    /// \return the NIC's parameters
    const RdmaEntropyParams& Params() const;

  private:
    Ptr<UniformRandomVariable> m_rng;           //!< port draws (made at first need)
    const RdmaEntropyParams* m_params{nullptr}; //!< the NIC's parameters
};

/**
 * \ingroup rdma
 * \brief Entropy = qp (the default): every frame of a QP has the port Linux
 * derives from the QP pair (RoceFrame::UdpSourcePort, rdma_calc_flow_label),
 * so one QP takes one path. Draws nothing.
 */
class RdmaQpEntropy : public RdmaEntropy
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    uint16_t Pick(uint32_t qpn, uint32_t destQpn) override;
    bool Draws() const override;
};

/**
 * \ingroup rdma
 * \brief Entropy = packet: every frame a QP sends (requests and responses
 * alike) draws a new port: oblivious per-packet spraying as UEC 1.0
 * specifies it, which spreads one QP over every path of per-flow ECMP
 * switches.
 */
class RdmaPacketEntropy : public RdmaEntropy
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    uint16_t Pick(uint32_t qpn, uint32_t destQpn) override;
};

/**
 * \ingroup rdma
 * \brief Entropy = flowlet: a QP draws a new port when it has sent nothing
 * for FlowletTimeout (a flowlet: LetFlow, Vanini et al., NSDI 2017) and
 * keeps it otherwise.
 */
class RdmaFlowletEntropy : public RdmaEntropy
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    uint16_t Pick(uint32_t qpn, uint32_t destQpn) override;
    void Forget(uint32_t qpn) override;

  protected:
    void DoDispose() override;

  private:
    /// A QP's current flowlet.
    struct Flowlet
    {
        Time last;        //!< when its last frame was built
        uint16_t port{0}; //!< its source port
    };

    std::unordered_map<uint32_t, Flowlet> m_flowlets; //!< by QPN
};

/**
 * \ingroup rdma
 * \brief Entropy = reps: each QP recycles the ports of its requests that
 * were acknowledged without an ECN echo (BECN) and draws a fresh one when
 * it has none (REPS, Bonato et al., arXiv:2407.21625; RdmaReps holds each
 * QP's buffer of RepsBufferSize ports). Responses keep nothing: only
 * requests (not READ responses or atomic acknowledgements) are recorded.
 */
class RdmaRepsEntropy : public RdmaEntropy
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    uint16_t Pick(uint32_t qpn, uint32_t destQpn) override;
    void Sent(uint32_t qpn, const RoceFrame& f) override;
    bool SeesResponses() const override;
    void Acked(const RoceFrame& f, bool sack) override;
    void Forget(uint32_t qpn) override;

  protected:
    void DoDispose() override;
    /// \return QP qpn's buffer (made on first use) \param qpn the QP
    RdmaReps& BufferOf(uint32_t qpn);
    /**
     * \brief A QP has no recycled entropy: a new one to explore with.
     * \param qpn the QP
     * \return the port (here a random one)
     */
    virtual uint16_t Explore(uint32_t qpn);

  private:
    std::unordered_map<uint32_t, RdmaReps> m_reps; //!< by QPN
};

/**
 * \ingroup rdma
 * \brief htsim_uec's default load balancer (uet-htsim's UecMpMixed): REPS's
 * recycled entropies first, and with none a walk over the QP's
 * RdmaNic::EntropyPaths entropies that skips those penalized by ECN echoes
 * and trimmed packets' NAKs (RdmaPathPenalty), instead of a random draw.
 */
class RdmaMixedEntropy : public RdmaRepsEntropy
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    void Acked(const RoceFrame& f, bool sack) override;
    void Forget(uint32_t qpn) override;

  protected:
    void DoDispose() override;
    uint16_t Explore(uint32_t qpn) override;

  private:
    /// \return QP qpn's penalties (made on first use) \param qpn the QP
    RdmaPathPenalty& PenaltyOf(uint32_t qpn);
    std::unordered_map<uint32_t, RdmaPathPenalty> m_penalty; //!< by QPN
};

} // namespace ns3

#endif /* RDMA_ENTROPY_H */
