/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_STREAM_AT_FIRST_DRAW_H
#define RDMA_STREAM_AT_FIRST_DRAW_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A UniformRandomVariable made at its first draw, on the stream
 * AssignStreams gave it (ns-3's automatic stream if none was given then).
 *
 * Making an ns-3 random variable places its MRG32k3a stream (about 16,000
 * instructions, rng-stream.cc); a port's corruption position or an ECMP
 * switch's balancer is never drawn from in most runs. The draws are those
 * of a UniformRandomVariable made with the object and given the same
 * stream: AssignStreams before the first draw decides them whatever other
 * random variables were made in between.
 */
class RdmaStreamAtFirstDraw
{
  public:
    /**
     * \brief Use stream `stream` (ns-3's AssignStreams; before or after the
     * first draw).
     * \param stream the stream index, >= 0
     */
    void Assign(int64_t stream)
    {
        m_stream = stream;
        if (m_rng)
        {
            m_rng->SetStream(stream);
        }
    }

    /// \return the random variable, made now if this is its first use
    Ptr<UniformRandomVariable> Get()
    {
        if (!m_rng)
        {
            m_rng = CreateObject<UniformRandomVariable>();
            if (m_stream >= 0)
            {
                m_rng->SetStream(m_stream);
            }
        }
        return m_rng;
    }

    /// Drop the random variable (DoDispose).
    void Dispose()
    {
        m_rng = nullptr;
    }

  private:
    Ptr<UniformRandomVariable> m_rng; //!< made at the first Get
    int64_t m_stream{-1};             //!< Assign's stream; -1: ns-3's automatic one
};

} // namespace ns3

#endif /* RDMA_STREAM_AT_FIRST_DRAW_H */
