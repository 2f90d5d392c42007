/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_STATS_HELPER_H
#define RDMA_STATS_HELPER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-queue-pair.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ns3
{

class QbbNetDevice;
class RdmaTopologyHelper;

/**
 * \ingroup rdma
 * \brief Fabric-wide statistics of one run: PFC frames sent (every port,
 * from the QbbPfcController PauseTx trace), sampled egress queue lengths of the switch
 * ports, and the counters summary.json reports (link transmissions, data
 * packets delivered, drops, retransmissions, ECN marks).
 *
 * Output formats (written by the experiment, one file each):
 * - pfc.csv: time_ns,node,port,class,event,sender — one row per PFC frame a
 *   port sent, event "pause" (time > 0) or "resume" (XON, time 0); node is
 *   the node id, port the device's index on its node, sender "host" (a NIC's
 *   receive buffer paused its switch) or "switch";
 * - qlen.csv: time_ns,node,port,class,bytes — every interval, one row per
 *   switch egress (port, class) whose queue is not empty (rows with 0
 *   bytes are left out to keep the file small).
 */
class RdmaStatsHelper
{
  public:
    /// \brief Connect to every device of the topology. \param topo the fabric
    explicit RdmaStatsHelper(const RdmaTopologyHelper& topo);

    /**
     * \brief Sample switch queues every interval from `from` until `until`.
     * \param interval the period (0: no sampling)
     * \param from the first sample's time
     * \param until the last sample's time
     */
    void StartQueueSampling(Time interval, Time from, Time until);

    /// Totals over the fabric at the time of the call.
    struct Totals
    {
        uint64_t linkTransmissions{0};       //!< frames sent on any link (QbbNetDevice txFrames)
        uint64_t dataPacketsDelivered{0};    //!< RoCE request/response payload packets accepted
        uint64_t pfcPauseFrames{0};          //!< PFC frames pausing a class
        uint64_t pfcPauseFramesFromHosts{0}; //!< of those, sent by a host's NIC port
        uint64_t pfcResumeFrames{0};         //!< PFC XON frames
        uint64_t drops{0};                   //!< frames dropped anywhere (links, switches, NICs)
        uint64_t dropsOnLinks{0};            //!< of those, by devices (link down, corrupt, size)
        uint64_t dropsInSwitches{0};         //!< by switches (RdmaDropReason)
        uint64_t dropsAtNics{0};             //!< by NICs (RdmaNicDrops)
        uint64_t dropsToGoneQps{0};          //!< of the NICs', UNKNOWN_QP: copies that came
                                             //!< after their QP was destroyed (a finished flow)
        uint64_t requestsToGoneQps{0};       //!< of those, SEND and WRITE packets with data
        uint64_t retransmissions{0};         //!< requester packets sent again
        uint64_t ecnMarks{0};                //!< frames switches marked CE
        uint64_t trimmed{0};                 //!< frames switches cut to their headers

        /**
         * \brief Apply op(mine, theirs) to every counter.
         * \param o the other totals \param op a callable (uint64_t&, uint64_t)
         */
        template <class Op>
        void Combine(const Totals& o, Op op)
        {
            for (auto m : {&Totals::linkTransmissions,
                           &Totals::dataPacketsDelivered,
                           &Totals::pfcPauseFrames,
                           &Totals::pfcPauseFramesFromHosts,
                           &Totals::pfcResumeFrames,
                           &Totals::drops,
                           &Totals::dropsOnLinks,
                           &Totals::dropsInSwitches,
                           &Totals::dropsAtNics,
                           &Totals::dropsToGoneQps,
                           &Totals::requestsToGoneQps,
                           &Totals::retransmissions,
                           &Totals::ecnMarks,
                           &Totals::trimmed})
            {
                op(this->*m, o.*m);
            }
        }
    };

    /// \return the totals now (with what Credit added)
    Totals GetTotals() const;

    /**
     * \brief Where the counters a skipped part of the run advances stand:
     * summary.json's totals, every QP's counters summed, and each link
     * direction's bytes (QbbNetDevice txBytes, in the order of the
     * topology's links, side A then side B).
     */
    struct Counts
    {
        Totals totals;              //!< the fabric's
        RdmaQueuePair::Stats qps;   //!< every QP's, summed
        std::vector<uint64_t> txBytes; //!< per link direction

        /**
         * \brief Apply op(mine, theirs) to every counter (txBytes grows to the other's size).
         * \param o the other counts \param op a callable (uint64_t&, uint64_t)
         */
        template <class Op>
        void Combine(const Counts& o, Op op)
        {
            totals.Combine(o.totals, op);
            qps.Combine(o.qps, op);
            txBytes.resize(std::max(txBytes.size(), o.txBytes.size()));
            for (std::size_t i = 0; i < o.txBytes.size(); ++i)
            {
                op(txBytes[i], o.txBytes[i]);
            }
        }

        /// \brief Take away counts taken earlier. \param o them \return this
        Counts& operator-=(const Counts& o)
        {
            Combine(o, [](uint64_t& a, uint64_t b) { a -= b; });
            return *this;
        }

        /// \return every counter times k, rounded \param k the factor (>= 0)
        Counts Scaled(double k) const
        {
            Counts c = *this;
            c.Combine(*this, [k](uint64_t& a, uint64_t b) { a = std::llround(b * k); });
            return c;
        }
    };

    /// \return the counts now (with what Credit added)
    Counts GetCounts() const;
    /**
     * \brief Count what a skipped part of the run would have counted, as if
     * it had been simulated (a replayed collective's recorded counts, a
     * steady collective's remainder at its measured rate:
     * doc/fast-forward.rst). GetTotals, GetCounts and GetTierLoads include it.
     * \param c the counts to add
     */
    void Credit(const Counts& c);
    /// \return what Credit added, summed
    const Counts& GetCredit() const;

    /// What the links of one tier carried (both directions of each link).
    struct TierLoad
    {
        uint32_t tier{0};         //!< the link's tier: the lower of its ends' tiers (0: host links)
        uint32_t directions{0};   //!< link directions (two per link)
        uint64_t txBytes{0};      //!< bytes sent on them (QbbNetDevice txBytes, frames whole)
        double utilisation{0};    //!< txBytes x 8 over their summed rates x the time
        double maxUtilisation{0}; //!< the busiest direction's
    };

    /**
     * \brief The links' load by tier over a time. A link's tier is the lower
     * of its ends' tiers (RdmaNodeTiers): 0 host links, 1 a leaf-spine's
     * leaf-spine links (a fat tree's edge-aggregation links, a dumbbell's
     * bottleneck), 2 a fat tree's aggregation-core links.
     * \param nodeTier per node id its tier (RdmaNodeTiers)
     * \param seconds the time the bytes were sent in (> 0)
     * \return one entry per tier that has links, by tier
     */
    std::vector<TierLoad> GetTierLoads(const std::vector<uint32_t>& nodeTier, double seconds) const;

    /// \return pfc.csv's text
    std::string FormatPfcCsv() const;
    /// \return qlen.csv's text
    std::string FormatQlenCsv() const;

  private:
    /// A PFC frame sent.
    struct PfcEvent
    {
        uint64_t timeNs; //!< when
        uint32_t node;   //!< node id
        uint32_t port;   //!< device index on the node
        uint8_t cls;     //!< class
        bool pause;      //!< pause (true) or XON
        bool fromHost;   //!< sent by a host's NIC port (false: a switch port)
    };

    /// A queue sample.
    struct QlenSample
    {
        uint64_t timeNs; //!< when
        uint32_t node;   //!< node id
        uint32_t port;   //!< device index on the node
        uint8_t cls;     //!< class
        uint64_t bytes;  //!< queued bytes
    };

    /// PfcPauseTx sink. \param device which \param cls class \param quanta time
    void OnPfcTx(uint32_t device, uint8_t cls, uint16_t quanta);
    /// Take one sample and schedule the next.
    void Sample();

    const RdmaTopologyHelper& m_topo;             //!< the fabric
    std::vector<Ptr<QbbNetDevice>> m_devices;     //!< both ends of every built link (null: far end)
    std::vector<Ptr<QbbNetDevice>> m_switchPorts; //!< devices on switches
    std::vector<PfcEvent> m_pfc;                  //!< PFC frames sent, in time order
    std::vector<QlenSample> m_qlen;               //!< queue samples
    Time m_interval;                              //!< sampling period
    Time m_until;                                 //!< last sample time
    Counts m_credit;                              //!< what skipped parts counted
};

} // namespace ns3

#endif /* RDMA_STATS_HELPER_H */
