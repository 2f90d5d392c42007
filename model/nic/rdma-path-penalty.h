/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PATH_PENALTY_H
#define RDMA_PATH_PENALTY_H

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One sender's penalty scores over a fixed set of entropies (UDP
 * source ports), the exploring half of htsim_uec's default load balancer
 * (uet-htsim's UecMpMixed: REPS's recycled entropies first, else this;
 * UecMpBitmap). The sender walks the P entropies in a random order (its
 * position XORed with a value drawn again at each wrap); an entropy with a
 * penalty is skipped, and the first skip of a call takes one off its
 * score. An ECN echo adds 1 to the entropy's score, a trimmed packet's NAK
 * 4, both capped at 15 (UecMpBitmap's scores). The P entropies share upper
 * bits drawn once per sender, so they are P distinct ports of the dynamic
 * range (0xC000-0xFFFF) that ECMP hashes over the paths.
 */
class RdmaPathPenalty
{
  public:
    /// UecMpBitmap's scores: an ECN echo, a trimmed packet's NAK, the cap.
    static constexpr uint8_t ECN_PENALTY = 1;
    static constexpr uint8_t TRIM_PENALTY = 4;
    static constexpr uint8_t MAX_PENALTY = 15;

    /**
     * \param paths P, the entropies walked, 1 to 16384 (uet-htsim needs a
     *        power of two; for another P the walk passes over the positions
     *        of the next power of two at or past P)
     * \param draw a random port of the dynamic range (the NIC's stream)
     */
    RdmaPathPenalty(uint32_t paths, const std::function<uint16_t()>& draw);
    /**
     * \brief The next entropy to explore with.
     * \param draw a random port of the dynamic range (the NIC's stream)
     * \return the port: the next in the walk with no penalty (or, when every
     *         one has one, the one after a full round)
     */
    uint16_t Next(const std::function<uint16_t()>& draw);
    /**
     * \brief Feedback on a port: add a penalty to its score (capped).
     * \param port a port this sender sent with (others are ignored)
     * \param penalty ECN_PENALTY or TRIM_PENALTY
     */
    void Penalize(uint16_t port, uint8_t penalty);
    /// \return the score of port (0 for a port not of this sender) \param port a port
    uint8_t GetPenalty(uint16_t port) const;

  private:
    /// \return the port of walk position `index`
    uint16_t PortOf(uint32_t index) const;
    /// Move to the next position; after the last, a new order.
    void Advance(const std::function<uint16_t()>& draw);

    uint32_t m_mask;                //!< the power of two at or past P, less one
    uint16_t m_upper;               //!< the ports' shared upper bits
    uint32_t m_xor;                 //!< this round's order
    uint32_t m_index{0};            //!< position in the round
    std::vector<uint8_t> m_penalty; //!< score per entropy index
    uint32_t m_penalized{0};        //!< entropies whose score is above 0
};

} // namespace ns3

#endif /* RDMA_PATH_PENALTY_H */
