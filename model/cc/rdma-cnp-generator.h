/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CNP_GENERATOR_H
#define RDMA_CNP_GENERATOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief DCQCN's notification point for one receiving QP (Zhu et al.,
 * SIGCOMM 2015, section 3.1): when a CE-marked packet arrives for the QP and
 * no CNP has been sent for it in the last MinTimeBetweenCnps, a CNP is sent
 * at once; otherwise none.
 *
 * One instance per receiving QP (Fork() a configured prototype). It only
 * decides; the NIC builds and sends the CNP (CnpHeader, IBA Annex A17.9).
 * With Enabled false it still counts CE marks and sends no CNP.
 */
class RdmaCnpGenerator : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaCnpGenerator();
    /**
     * \brief Copy the attributes of another instance (not its history).
     * \param other the instance to copy
     */
    RdmaCnpGenerator(const RdmaCnpGenerator& other);

    /// \return a new instance with this one's attributes and no history
    Ptr<RdmaCnpGenerator> Fork();

    /**
     * \brief A CE-marked packet arrived for the QP at `now`.
     * \param now the arrival time (Simulator::Now() in a simulation)
     * \return true if a CNP is to be sent now (and it is recorded as sent)
     */
    bool OnCongestionExperienced(Time now);

    /**
     * \brief The QP's responder sent a PSN-sequence NAK at `now`.
     * \param now the time (Simulator::Now() in a simulation)
     * \return true if a CNP is to be sent now: CnpOnNak is set and none was
     *         sent in the last MinTimeBetweenCnps
     */
    bool OnSequenceNakSent(Time now);

    /// \return CE-marked packets seen
    uint64_t GetCeMarkedPackets() const;
    /// \return CNPs decided
    uint64_t GetCnpsSent() const;

  private:
    /// \return whether a CNP is due at `now` (recorded as sent if so) \param now the time
    bool Decide(Time now);

    Time m_interval;        //!< least time between two CNPs of the QP
    bool m_cnpOnNak{false}; //!< CnpOnNak: a CNP for each sequence NAK too
    bool m_enabled{true};   //!< Enabled: the NIC sends CNPs at all
    bool m_sent{false};     //!< a CNP has been sent
    Time m_lastCnp;         //!< when the last CNP was sent
    uint64_t m_ceMarked{0}; //!< CE-marked packets seen
    uint64_t m_cnpsSent{0}; //!< CNPs decided
};

} // namespace ns3

#endif // RDMA_CNP_GENERATOR_H
