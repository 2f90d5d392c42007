/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_LOAD_BALANCER_H
#define RDMA_LOAD_BALANCER_H

#include "rdma-route-table.h"

#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/qbb-net-device.h"
#include "ns3/rdma-frame-view.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-stream-at-first-draw.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaFrame;

/**
 * \ingroup rdma
 * \brief How a switch picks one of a destination's equal-cost egress ports:
 * a policy object per switch, beside its MMU and ECN markers (the
 * RdmaSwitch LoadBalancing attribute chooses it).
 *
 * The non-virtual Select() sends a frame whose route has one port there at
 * once, without asking the policy or changing its state; with several it
 * asks DoSelect() (or, with ControlByHash, hashes acknowledgements and CNPs
 * as ECMP does). Policies that weigh congestion read each port's egress
 * queue and PFC state through the port itself (GetQueuedBytes, IsPaused),
 * never through a copy: the switch hands them its ports (AddPort) in port
 * order. A policy that reads or writes the frames it forwards (CONGA's
 * overlay fields) asks for them with SetSeesFrames; the switch then calls
 * Forwarded() for every frame, once its egress port is known.
 * Subclasses: RdmaEcmp (per-flow hash, the default), RdmaSpray (per
 * packet, uniform), RdmaDrill (DRILL), RdmaLetFlow (LetFlow flowlets),
 * RdmaConga (CONGA), RdmaAdaptiveRouting (per packet, least loaded).
 */
class RdmaLoadBalancer : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief The switch's next port (ports are added in port order).
     * \param port the port's device
     */
    void AddPort(Ptr<QbbNetDevice> port);

    /**
     * \brief The egress port of a frame.
     * \param group its destination's equal-cost ports (not empty)
     * \param view the frame, parsed
     * \param seed the switch's ECMP hash seed (RdmaFrameView::FlowHash)
     * \return one port of the group
     */
    uint32_t Select(const RdmaRouteTable::Group& group, const RdmaFrameView& view, uint32_t seed)
    {
        if (group.size() == 1)
        {
            return group[0];
        }
        if (m_controlByHash && view.IsRoceControl())
        {
            return RdmaRouteTable::Select(group, view.FlowHash(seed));
        }
        return DoSelect(group, view, seed);
    }

    /**
     * \brief A frame leaves for its egress port (after Select, before the
     * egress queue): policies that asked (SetSeesFrames) read or write it.
     * \param frame the frame
     * \param view the frame, parsed
     * \param inPort its ingress port
     * \param outPort its egress port
     */
    void Forwarded(RdmaFrame& frame, const RdmaFrameView& view, uint32_t inPort, uint32_t outPort)
    {
        if (m_seesFrames)
        {
            DoForwarded(frame, view, inPort, outPort);
        }
    }

    RdmaLoadBalancer();

    /**
     * \brief Assign the random stream the policy draws from (Draw).
     * \param stream the stream index
     * \return the number of streams used: 1 (0 for a policy without draws)
     */
    virtual int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

    /// \return the number of ports added
    uint32_t GetNPorts() const;
    /// Ask for Forwarded() calls (DoForwarded).
    void SetSeesFrames();
    /**
     * \param port a port index
     * \return its device
     */
    Ptr<QbbNetDevice> GetPortDevice(uint32_t port) const;
    /**
     * \param port a port index
     * \return the bytes waiting in its egress queue, all classes
     */
    uint64_t GetQueuedBytes(uint32_t port) const;
    /**
     * \param port a port index
     * \param view the frame (its class is the port's classification of it)
     * \return whether the port may not send the frame's class now (PFC pause)
     */
    bool IsPaused(uint32_t port, const RdmaFrameView& view) const;
    /**
     * \param n how many to choose from (at least 1)
     * \return a uniform draw from 0 .. n - 1, from this policy's own stream
     */
    uint32_t Draw(uint32_t n);

  private:
    /**
     * \brief Pick among two or more ports.
     * \param group the equal-cost ports (two or more)
     * \param view the frame
     * \param seed the switch's ECMP hash seed
     * \return one port of the group
     */
    virtual uint32_t DoSelect(const RdmaRouteTable::Group& group,
                              const RdmaFrameView& view,
                              uint32_t seed) = 0;

    /**
     * \brief See a forwarded frame (policies that called SetSeesFrames).
     * \param frame the frame
     * \param view the frame, parsed
     * \param inPort its ingress port
     * \param outPort its egress port
     */
    virtual void DoForwarded(RdmaFrame& frame,
                             const RdmaFrameView& view,
                             uint32_t inPort,
                             uint32_t outPort);

    std::vector<Ptr<QbbNetDevice>> m_ports; //!< the switch's ports, by index
    bool m_seesFrames{false};               //!< call DoForwarded
    bool m_controlByHash{false};            //!< ControlByHash: ACKs, NAKs, CNPs by the flow hash
    RdmaStreamAtFirstDraw m_rng;            //!< Draw's stream (ECMP never draws)
};

} // namespace ns3

#endif /* RDMA_LOAD_BALANCER_H */
