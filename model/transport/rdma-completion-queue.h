/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_COMPLETION_QUEUE_H
#define RDMA_COMPLETION_QUEUE_H

#include "rdma-work-completion.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/rdma-fifo.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A completion queue (verbs ibv_cq) of a fixed depth.
 *
 * Completions are polled (Poll) or, when a completion callback is set,
 * handed to it as they are generated (the simulation's stand-in for a
 * completion channel plus an immediate poll) and not queued. A queued
 * completion that finds the queue full is a CQ overrun (IBA 11.4.2.1): the
 * CQ enters the error state, the CqError trace fires, Push returns false and
 * the QP that pushed moves to the error state.
 */
class RdmaCompletionQueue : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCompletionQueue();

    /// \param depth the number of completions the queue holds (cqe)
    void SetDepth(uint32_t depth);
    /// \return the depth
    uint32_t GetDepth() const;

    /**
     * \brief Callback invoked for each completion instead of queueing it.
     * \param cb the callback; a null callback returns to polling
     */
    void SetCompletionCallback(Callback<void, const RdmaWorkCompletion&> cb);

    /**
     * \brief Add a completion (used by the queue pairs).
     * \param wc the completion
     * \return false on overrun (the CQ is, or now is, in error)
     */
    bool Push(const RdmaWorkCompletion& wc);

    /**
     * \brief Remove up to `max` completions, oldest first (ibv_poll_cq).
     * \param max most completions to return
     * \return the completions
     */
    std::vector<RdmaWorkCompletion> Poll(uint32_t max);

    /// \return completions waiting to be polled
    uint32_t GetSize() const;
    /// \return whether an overrun put the CQ in error
    bool IsInError() const;

    /// Signature of the Completion and CqError traces.
    typedef void (*CompletionTracedCallback)(const RdmaWorkCompletion& wc);

  private:
    uint32_t m_depth;                                       //!< capacity
    bool m_error;                                           //!< overrun happened
    RdmaFifo<RdmaWorkCompletion> m_queue;                 //!< queued completions
    Callback<void, const RdmaWorkCompletion&> m_callback;   //!< delivery callback
    TracedCallback<const RdmaWorkCompletion&> m_completion; //!< every completion
    TracedCallback<const RdmaWorkCompletion&> m_cqError;    //!< the completion that overran
};

} // namespace ns3

#endif // RDMA_COMPLETION_QUEUE_H
