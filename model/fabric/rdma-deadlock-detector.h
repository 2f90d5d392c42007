/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_DEADLOCK_DETECTOR_H
#define RDMA_DEADLOCK_DETECTOR_H

#include "rdma-switch.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Finds PFC deadlocks: cycles in the pause-wait graph of a set of
 * switches (Hu et al., "Deadlocks in Datacenter Networks: Why Do They
 * Form, and How to Avoid Them", HotNets 2016; Shpiner et al., "Unlocking
 * Credit Loop Deadlock", HotNets 2016).
 *
 * A vertex is an egress (switch, port, class) whose transmission is
 * paused by its peer. Vertex (S, p, c) waits for (T, r, c) when p's peer
 * is port q of switch T (T paused it because its ingress (q, c) is full)
 * and T holds frames from ingress q in egress queue (r, c), which is
 * paused too: the bytes that keep (q, c) above XON can only leave through
 * r. A cycle of such waits never clears by itself: every queue in it
 * waits for the next. Ports whose peer is a host end the chain (a host
 * that pauses forever is a storm, the PFC watchdog's case).
 *
 * FindCycles() is a snapshot over the switches' current state (O(ports x
 * classes x ports) per call, not for the per-packet path); Start() repeats
 * it periodically and fires the Deadlock trace once per distinct cycle.
 */
class RdmaDeadlockDetector : public Object
{
  public:
    /// One vertex of a cycle.
    struct Hop
    {
        uint32_t switchIndex; //!< index of the switch in the set given
        uint32_t nodeId;      //!< the switch's Node id (UINT32_MAX if not aggregated)
        uint32_t port;        //!< the paused egress port
        uint8_t cls;          //!< its paused class

        /// \return true if the same vertex
        bool operator==(const Hop& o) const;
        /// \return ordering by (switchIndex, port, cls)
        bool operator<(const Hop& o) const;
    };

    /// A cycle, each hop waiting for the next and the last for the first.
    typedef std::vector<Hop> Cycle;

    /**
     * \brief TracedCallback signature of the Deadlock trace.
     * \param [in] cycle the cycle found
     */
    typedef void (*DeadlockTracedCallback)(const Cycle& cycle);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief The cycles of the pause-wait graph now, each once, rotated to
     * start at its smallest hop.
     * \param switches the switches to look at (ports to other devices end chains)
     * \return the cycles (empty if none)
     */
    static std::vector<Cycle> FindCycles(const std::vector<Ptr<RdmaSwitch>>& switches);

    /**
     * \brief Check every interval from now on.
     * \param switches the switches
     * \param interval time between checks (> 0)
     */
    void Start(const std::vector<Ptr<RdmaSwitch>>& switches, Time interval);
    /// Stop checking.
    void Stop();
    /// \return the distinct cycles reported so far
    const std::vector<Cycle>& GetReported() const;

  protected:
    void DoDispose() override;

  private:
    /// One periodic check.
    void Check();

    std::vector<Ptr<RdmaSwitch>> m_switches;      //!< the switches watched
    Time m_interval;                              //!< check period
    EventId m_event;                              //!< next check
    std::set<Cycle> m_seen;                       //!< cycles already reported
    std::vector<Cycle> m_reported;                //!< same, in order
    TracedCallback<const Cycle&> m_deadlockTrace; //!< Deadlock trace
};

} // namespace ns3

#endif // RDMA_DEADLOCK_DETECTOR_H
