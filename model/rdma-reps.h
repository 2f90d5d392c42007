/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_REPS_H
#define RDMA_REPS_H

#include <cstdint>
#include <deque>
#include <utility>
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
 * Acknowledgements here are RoCEv2 ACKs: each names one PSN (coalesced
 * ACKs cover earlier ones) and carries the responder's ECN echo in the
 * BTH's BECN bit (RdmaQpCc); the entropy recycled is the one the ACKed PSN
 * was last sent with (OnSent). Not modelled: REPS's freezing mode after a
 * failure (reusing entropies while it lasts).
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

    /// \return how many entropies are valid in the buffer
    uint32_t GetValid() const
    {
        return m_valid;
    }

  private:
    std::vector<uint16_t> m_buffer;                     //!< the circular buffer
    uint32_t m_head{0};                                 //!< next slot written
    uint32_t m_valid{0};                                //!< valid entries before m_head
    std::deque<std::pair<uint32_t, uint16_t>> m_sent;   //!< (PSN, entropy) not yet ACKed
};

} // namespace ns3

#endif // RDMA_REPS_H
