/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_REPS_H
#define RDMA_REPS_H

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief REPS, one sender's recycled entropies (Bonato et al., "REPS:
 * Recycling Entropies for Packet Spraying to Adaptively Explore Paths and
 * Mitigate Failures", arXiv:2407.21625): a circular buffer of the entropies
 * (here RoCEv2 UDP source ports) whose packets were acknowledged without
 * an ECN echo. A packet to send reuses the oldest valid one (and consumes
 * it); with none valid the sender draws a fresh entropy, which explores a
 * new path. An acknowledgement with an ECN echo recycles nothing, so a
 * congested path's entropy leaves circulation.
 *
 * Acknowledgements here are RoCEv2 ACKs and selective repeat's SACKs,
 * with the responder's ECN echo in the BTH's BECN bit (RdmaQpCc). An ACK
 * names one PSN (and covers those before it): the entropy recycled is the
 * one that PSN was last sent with (OnSent). A SACK (RdmaSelectiveRepeat's
 * NAK) names the out-of-order PSN that arrived: its entropy is recycled.
 * Each sent copy's entropy is recycled at most once. Not modelled: REPS's
 * freezing mode after a failure (reusing entropies while it lasts).
 */
class RdmaReps
{
  public:
    /// \param bufferSize entries of the circular buffer (at least 1)
    explicit RdmaReps(uint32_t bufferSize);

    /**
     * \brief The entropy of the next packet, when one can be recycled.
     * \param[out] entropy the oldest valid entropy, now consumed
     * \return false if none is valid (draw a fresh one)
     */
    bool Next(uint16_t& entropy);

    /**
     * \brief A request packet left with an entropy.
     * \param psn its PSN (24 bits)
     * \param entropy its UDP source port
     */
    void OnSent(uint32_t psn, uint16_t entropy);

    /**
     * \brief A positive acknowledgement arrived.
     * \param psn the PSN it acknowledges (and those before it)
     * \param ecnEcho whether it carried the ECN echo (BECN)
     */
    void OnAck(uint32_t psn, bool ecnEcho);

    /**
     * \brief A SACK arrived (selective repeat's sequence NAK).
     * \param expectedPsn the responder's expected PSN: those before it are acknowledged
     * \param sackPsn the PSN that arrived out of order
     * \param ecnEcho whether it carried the ECN echo (BECN)
     */
    void OnSack(uint32_t expectedPsn, uint32_t sackPsn, bool ecnEcho);

    /**
     * \brief The entropy a PSN was last sent with, while no ACK covers it.
     * \param psn the PSN \param[out] entropy its entropy
     * \return false if no copy of it is remembered
     */
    bool EntropyOf(uint32_t psn, uint16_t& entropy);
    /// \return how many entropies are valid in the buffer
    uint32_t GetValid() const
    {
        return m_valid;
    }

  private:
    /// A request sent and not yet covered by an ACK.
    struct Sent
    {
        uint32_t psn;    //!< its PSN
        uint16_t ev;     //!< its entropy
        bool recycled;   //!< already put back in the buffer
    };

    /// Put an entropy in the buffer (the oldest is overwritten when full).
    void Recycle(uint16_t entropy);
    /// \return the latest copy sent of PSN psn (24 bits), or null \param psn the PSN
    Sent* Latest(uint32_t psn);
    /// Forget every sent copy at or before PSN `psn`.
    void Forget(uint32_t psn);

    std::vector<uint16_t> m_buffer; //!< the circular buffer
    uint32_t m_head{0};             //!< next slot written
    uint32_t m_valid{0};            //!< valid entries before m_head
    std::deque<Sent> m_sent;        //!< copies sent, in send order
};

} // namespace ns3

#endif // RDMA_REPS_H
