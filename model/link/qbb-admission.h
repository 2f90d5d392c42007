/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_ADMISSION_H
#define QBB_ADMISSION_H

#include "ns3/object.h"
#include "ns3/rdma-drop-reason.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What an egress queue asks of a buffer manager shared by the
 * ports of a switch: whether a frame from an ingress (port, class) may take
 * buffer, and the PFC decisions that follow its arrival and departure
 * (IEEE 802.1Qbb). SwitchMmu is the switches' one; the queue knows only
 * this interface.
 */
class QbbAdmission : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Take a frame into the buffer, accounted to its ingress
     * (port, class), or refuse it.
     * \param port ingress port
     * \param cls traffic class 0-7
     * \param bytes frame bytes
     * \return DROP_NONE, or why it was refused (DROP_INGRESS_LIMIT,
     *         DROP_BUFFER_FULL, DROP_HEADROOM_FULL; nothing is accounted then)
     */
    virtual RdmaDropReason Admit(uint32_t port, uint8_t cls, uint32_t bytes) = 0;
    /**
     * \brief A frame admitted with these arguments left the buffer.
     * \param port ingress port \param cls traffic class \param bytes frame bytes
     */
    virtual void Release(uint32_t port, uint8_t cls, uint32_t bytes) = 0;
    /**
     * \brief After an admission: pause the ingress (port, class)'s upstream if it
     * should be. \param port ingress port \param cls traffic class
     */
    virtual void CheckXoff(uint32_t port, uint8_t cls) = 0;
    /**
     * \brief After a release: resume it if it may be.
     * \param port ingress port \param cls traffic class
     */
    virtual void CheckXon(uint32_t port, uint8_t cls) = 0;
};

} // namespace ns3

#endif /* QBB_ADMISSION_H */
