/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_LOSS_RECOVERY_H
#define RDMA_LOSS_RECOVERY_H

#include "ns3/object.h"

#include <set>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The requester's loss-recovery state of one QP, read and written
 * by an RdmaLossRecovery (as TcpSocketState is by TCP's recovery ops), so a
 * unit test can drive a policy without a network. PSNs are 24-bit.
 */
struct RdmaRecoveryState
{
    uint32_t una{0};               //!< oldest PSN not yet acknowledged
    uint32_t nextPsn{0};           //!< next PSN the requester sends
    uint32_t highestSent{0};       //!< one past the highest PSN ever sent
    std::set<uint32_t> sacked;     //!< PSNs >= una the responder reported received
    std::set<uint32_t> retransmit; //!< PSNs to send again before new data (selective repeat)
    std::set<uint32_t> resent;     //!< PSNs already sent again since they were found lost
};

/**
 * \ingroup rdma
 * \brief Loss-recovery policy of an RC QP: how a requester answers a
 * sequence NAK or an ACK timeout, how much it may have in flight, and
 * whether its responder keeps out-of-order packets. A TypeId chosen per QP
 * through the QP's "LossRecovery" attribute.
 */
class RdmaLossRecovery : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return the policy's name
    virtual std::string GetName() const = 0;
    /**
     * \return whether the responder keeps out-of-sequence packets and
     * answers each with a SACK-carrying NAK (selective repeat), instead of
     * dropping them after one NAK (go-back-N, IBA 9.7.5.1.2)
     */
    virtual bool ResponderKeepsOutOfOrder() const = 0;
    /**
     * \param mtu path MTU, bytes
     * \return the most PSNs the requester may have outstanding, 0 = no limit
     */
    virtual uint32_t GetWindowPackets(uint32_t mtu) const = 0;
    /**
     * \brief A sequence NAK arrived: every PSN before `expectedPsn` is
     * acknowledged (state.una already advanced).
     * \param state the requester's state
     * \param expectedPsn the responder's expected PSN (the NAK's PSN)
     * \param sackPsn the out-of-order PSN that triggered the NAK
     * \param hasSack whether sackPsn is meaningful (selective-repeat responders)
     */
    virtual void OnSequenceNak(RdmaRecoveryState& state,
                               uint32_t expectedPsn,
                               uint32_t sackPsn,
                               bool hasSack) = 0;
    /**
     * \brief The local ACK timer expired with PSNs outstanding.
     * \param state the requester's state
     */
    virtual void OnTimeout(RdmaRecoveryState& state) = 0;
};

/**
 * \ingroup rdma
 * \brief Go-back-N, as the IBA specifies for RC (9.7.5.1.2, C9-106): the
 * responder drops every packet after a gap and NAKs once; the requester
 * resends everything from the NAK's PSN (or from the oldest unacknowledged
 * PSN after a timeout).
 */
class RdmaGoBackN : public RdmaLossRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    bool ResponderKeepsOutOfOrder() const override;
    uint32_t GetWindowPackets(uint32_t mtu) const override;
    void OnSequenceNak(RdmaRecoveryState& state,
                       uint32_t expectedPsn,
                       uint32_t sackPsn,
                       bool hasSack) override;
    void OnTimeout(RdmaRecoveryState& state) override;
};

/**
 * \ingroup rdma
 * \brief Selective repeat in the style of IRN (Mittal et al., "Revisiting
 * Network Support for RDMA", SIGCOMM 2018): the responder keeps
 * out-of-order packets and answers each with a NAK carrying the expected
 * PSN and the PSN received (a simple SACK); the requester resends only the
 * PSNs below the highest SACKed one that were not SACKed, and keeps at most
 * a bandwidth-delay product of packets in flight.
 */
class RdmaSelectiveRepeat : public RdmaLossRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaSelectiveRepeat();
    std::string GetName() const override;
    bool ResponderKeepsOutOfOrder() const override;
    uint32_t GetWindowPackets(uint32_t mtu) const override;
    void OnSequenceNak(RdmaRecoveryState& state,
                       uint32_t expectedPsn,
                       uint32_t sackPsn,
                       bool hasSack) override;
    void OnTimeout(RdmaRecoveryState& state) override;

  private:
    uint64_t m_bdpBytes; //!< in-flight cap, bytes (IRN: the path's BDP)
};

/**
 * \brief Signed distance a - b of two 24-bit PSNs (IBA 9.7.2; Linux rxe
 * psn_compare): negative when a is before b, within 2^23 either way.
 * \param a a PSN
 * \param b a PSN
 * \return a - b in [-2^23, 2^23)
 */
inline int32_t
PsnDiff(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>((a - b) << 8) >> 8;
}

/// \return (psn + n) mod 2^24
inline uint32_t
PsnAdd(uint32_t psn, int64_t n)
{
    return static_cast<uint32_t>(static_cast<int64_t>(psn) + n) & 0xFFFFFF;
}

} // namespace ns3

#endif // RDMA_LOSS_RECOVERY_H
