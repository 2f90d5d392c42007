/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DRE_H
#define RDMA_DRE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief CONGA's Discounting Rate Estimator of one link (Alizadeh et al.,
 * SIGCOMM 2014, section 3.3): a register X grows by the bytes sent on the
 * link and shrinks by X x alpha every Tdre, so that X ~ R x tau for a rate
 * R, tau = Tdre / alpha; the congestion metric is X / (C x tau) for the
 * link rate C, quantised to Q bits (2^Q - 1 at or above line rate).
 *
 * Updated lazily, without events: a reading at time t first applies the
 * decrements due at every multiple of Tdre since the last reading
 * (X x (1 - alpha)^k), then adds the bytes the link sent since then, read
 * from the port's running count. The decrements are those of the periodic
 * register exactly; the bytes are placed at the reading, so a link read
 * less often than every Tdre counts its last bytes up to one Tdre late.
 */
class RdmaDre
{
  public:
    /**
     * \brief Set the estimator's constants (and clear it).
     * \param period Tdre, positive
     * \param alpha the decrement factor, in (0, 1]
     * \param rate C, the link's rate
     * \param bits Q, the metric's bits, 1-8
     * \param now the time from which it counts
     * \param sentBytes the link's bytes sent so far (a running count)
     */
    void Configure(Time period,
                   double alpha,
                   DataRate rate,
                   uint8_t bits,
                   Time now,
                   uint64_t sentBytes);

    /**
     * \brief Bring X up to a time.
     * \param now the time (not before the last update)
     * \param sentBytes the link's bytes sent so far, a running count
     */
    void Update(Time now, uint64_t sentBytes);

    /// \return X, bytes, as of the last Update
    double GetRegister() const
    {
        return m_x;
    }

    /// \return the metric as of the last Update: floor(X / (C tau) x 2^Q), at most 2^Q - 1
    uint8_t GetMetric() const;

  private:
    int64_t m_periodPs{1};   //!< Tdre, ps
    double m_keep{1};        //!< 1 - alpha
    double m_fullBytes{1};   //!< C x tau, bytes
    uint8_t m_max{0};        //!< 2^Q - 1
    double m_x{0};           //!< the register, bytes
    int64_t m_tick{0};       //!< the last decrement applied, in periods since 0
    uint64_t m_sent{0};      //!< the byte count at the last Update
};

} // namespace ns3

#endif // RDMA_DRE_H
