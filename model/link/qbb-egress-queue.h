/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_EGRESS_QUEUE_H
#define QBB_EGRESS_QUEUE_H

#include "qbb-admission.h"
#include "qbb-class-config.h"
#include "qbb-queue-item.h"
#include "qbb-trimmer.h"
#include "rdma-ecn-marker.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/rdma-fifo.h"
#include "ns3/rdma-wire.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The egress queue of a port (QbbNetDevice), in the shape of ns-3's
 * QueueDisc: eight class FIFOs, the class scheduler, and the policies a
 * switch plugs in, behind a non-virtual Enqueue()/Dequeue() that calls
 * DoEnqueue()/DoDequeue(), with named drop and mark reasons and trace
 * sources on the queue.
 *
 * Enqueue, in order: the frame must fit MaxBytes (all classes together;
 * DROP_QUEUE_FULL); a frame from a switch ingress port (QbbQueueItem::inPort)
 * is admitted by the shared-buffer manager (SetAdmission: QbbAdmission::Admit,
 * a SwitchMmu's refusals being DROP_INGRESS_LIMIT, DROP_BUFFER_FULL,
 * DROP_HEADROOM_FULL), which then decides whether the ingress's upstream is
 * paused (QbbAdmission::CheckXoff); with a trimmer (SetTrimmer), a frame of
 * a trimmed class that either check refuses, or that finds its class queue
 * above the trimmer's threshold, is cut to its headers and queued in the
 * trimmer's class outside the shared buffer (Trim trace), dropped only if
 * MaxBytes refuses it;
 * with an ECN marker at enqueue the frame is marked against its class
 * queue's bytes ahead of it; with INT at enqueue it gets its hop record.
 *
 * Dequeue: among the classes with frames that are not paused (the port's
 * QbbPfcController), the Scheduler picks: strict priority (the highest
 * class first, IEEE 802.1Q-2018 8.6.8.1) or deficit-weighted round robin
 * (Shreedhar and Varghese, SIGCOMM 1995: each class in turn gets its
 * DwrrQuanta bytes of credit and sends while its head frame fits; a class
 * that empties loses its credit). The frame then leaves the MMU's buffer
 * (QbbAdmission::Release, and XON if due: QbbAdmission::CheckXon), is marked
 * against the bytes left in its class queue with an ECN marker at dequeue,
 * and gets its INT record at dequeue (the queue's bytes behind it; the record
 * is the owning port's, SetIntRecordCallback). Every drop is counted, traced
 * (Drop) and told to the owner with the frame (SetDropCallback), under the
 * module's one vocabulary, RdmaDropReason.
 *
 * A queue without admission, marker or INT (a NIC's port) has nothing to
 * account, so the port may send a frame straight to an idle wire
 * (CanBypass()). Counters only on the per-frame path; traces cost nothing
 * unless connected.
 */
class QbbEgressQueue : public Object
{
  public:
    static constexpr uint8_t NUM_CLASSES = RdmaWire::NUM_CLASSES; //!< classes 0-7

    /// How the next class is chosen (the Scheduler attribute).
    enum Scheduler
    {
        STRICT_PRIORITY = 0, //!< the highest class with an eligible frame first
        DWRR,                //!< deficit-weighted round robin with DwrrQuanta
    };

    /// Where INT hop records are stamped (SetIntStamping).
    enum IntStamping
    {
        INT_OFF = 0,     //!< not at all
        INT_AT_ENQUEUE,  //!< as the frame joins the queue (bytes ahead of it)
        INT_AT_DEQUEUE,  //!< as it leaves (bytes behind it: the HPCC simulator's choice)
    };

    /// Counters of the queue.
    struct Stats
    {
        uint64_t enqueued{0};                            //!< frames taken in
        uint64_t dequeued{0};                            //!< frames given to the wire
        RdmaBufferDrops::Counters drops; //!< drops by RdmaDropReason (RdmaBufferDrops)
        uint64_t marks{0};                               //!< frames marked CE
        uint64_t trimmed{0};                             //!< frames cut to their headers
        uint64_t intStamped{0};                          //!< INT records written
    };

    // The owner's hooks are std::function, as QueueDisc's send callback is:
    // a lambda that captures its owner is kept inline (an ns-3 Callback
    // costs ~200 bytes of heap each, six per switch port), and an ns-3
    // Callback still converts to one.

    /// Computes the INT hop record of this port: (bytes in the queue) -> IntHeader::EncodeHop.
    typedef std::function<uint64_t(uint64_t)> IntRecordCallback;
    /// The owning port's identity for INT records (IntHeader::EgressIds).
    typedef std::function<uint64_t()> IntEgressCallback;
    /// Tells the queue's owner of a drop: the frame, its ingress port, why.
    typedef std::function<void(const RdmaFrame&, uint32_t, RdmaDropReason)> DropCallback;
    /// Tells the queue's owner of a CE mark: the class, the bytes the class had queued.
    typedef std::function<void(uint8_t, uint64_t)> MarkCallback;

    /**
     * \brief TracedCallback signature of Enqueue and Dequeue.
     * \param [in] frame the frame
     * \param [in] cls its class
     */
    typedef void (*ItemTracedCallback)(Ptr<const Packet> frame, uint8_t cls);
    /**
     * \brief TracedCallback signature of Drop.
     * \param [in] frame the frame
     * \param [in] inPort its ingress port (QbbQueueItem::NO_PORT for a NIC's)
     * \param [in] reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame,
                                       uint32_t inPort,
                                       RdmaDropReason reason);
    /**
     * \brief TracedCallback signature of Mark.
     * \param [in] cls the class
     * \param [in] queueBytes the class queue's bytes the decision looked at
     * \param [in] reason UNFORCED_MARK or FORCED_MARK
     */
    typedef void (*MarkTracedCallback)(uint8_t cls,
                                       uint64_t queueBytes,
                                       RdmaEcnMarker::MarkReason reason);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QbbEgressQueue();
    ~QbbEgressQueue() override;

    /**
     * \brief Take a frame in (see the class notes for the order of checks).
     * \param item the frame, its bytes and class (0-7), and for a switch its
     *        ingress port and header offsets
     * \return false if it was dropped (Drop trace)
     */
    bool Enqueue(QbbQueueItem item);
    /**
     * \brief Give the next frame to the wire.
     * \param pausedMask classes that may not send (bit c = class c)
     * \param item receives the frame (possibly a marked or stamped edit)
     * \return false if no eligible class has a frame
     */
    bool Dequeue(uint8_t pausedMask, QbbQueueItem& item);
    /**
     * \brief Drop every frame waiting in one class (DROP_PFC_STORM: a PFC
     * watchdog's Drop action), releasing their buffer.
     * \param cls class 0-7 (aborts otherwise)
     * \return the number of frames dropped
     */
    uint32_t Flush(uint8_t cls);

    /**
     * \brief Plug in a shared-buffer manager (a switch's SwitchMmu): frames
     * with an ingress port are admitted by it and leave it at dequeue.
     * \param admission the manager (null: none)
     */
    void SetAdmission(Ptr<QbbAdmission> admission);
    /**
     * \brief Tell the owner of every drop with the frame itself (no Packet is
     * made for it), as well as the Drop trace.
     * \param drop the callback (null: none)
     */
    void SetDropCallback(DropCallback drop);
    /**
     * \brief Tell the owner of every CE mark, before the Mark trace's sinks.
     * \param mark the callback (null: none)
     */
    void SetMarkCallback(MarkCallback mark);
    /**
     * \brief Plug in packet trimming (a switch's QbbTrimmer).
     * \param trimmer the policy (null, or one with no class: none)
     */
    void SetTrimmer(Ptr<QbbTrimmer> trimmer);
    /**
     * \brief Plug in ECN marking.
     * \param marker the marker (null: none)
     * \param atDequeue mark as frames leave (true) or as they join (false)
     */
    void SetEcnMarker(Ptr<RdmaEcnMarker> marker, bool atDequeue);
    /// \return the ECN marker, or null
    Ptr<RdmaEcnMarker> GetEcnMarker() const;
    /**
     * \brief Stamp INT records into frames whose QbbQueueItem::intOffset is set.
     * \param mode where (INT_OFF: nowhere)
     */
    void SetIntStamping(IntStamping mode);
    /**
     * \brief Where INT records come from: the port that owns the queue
     * (QbbNetDevice, which knows its rate and the bytes it has sent).
     * \param record computes the port's record from the queue's bytes
     * \param egress gives the port's identity, kept beside each record it
     *        stamps (IntHeader::EgressIds); null: 0, unknown
     */
    void SetIntRecordCallback(IntRecordCallback record,
                              IntEgressCallback egress = IntEgressCallback());

    /**
     * \brief Set the DWRR quantum of one class (one entry of DwrrQuanta).
     * \param cls class 0-7 (aborts otherwise)
     * \param bytes quantum, bytes (aborts if 0)
     */
    void SetDwrrQuantum(uint8_t cls, uint32_t bytes);

    /// \return true if no policy is plugged in: a frame may skip the queue to an idle wire
    bool CanBypass() const
    {
        return m_bypass;
    }
    /// \return true if no frame waits
    bool IsEmpty() const
    {
        return m_bytes == 0 && m_backlogMask == 0;
    }
    /// \return bit c set for each class with frames waiting
    uint8_t GetBacklogMask() const
    {
        return m_backlogMask;
    }
    /// \return bytes waiting in all classes
    uint64_t GetBytes() const
    {
        return m_bytes;
    }
    /**
     * \param cls class 0-7 (aborts otherwise)
     * \return bytes waiting in the class
     */
    uint64_t GetBytes(uint8_t cls) const;
    /// \return frames waiting in all classes
    uint32_t GetFrames() const;
    /**
     * \param cls class 0-7 (aborts otherwise)
     * \return frames waiting in the class
     */
    uint32_t GetFrames(uint8_t cls) const;
    /**
     * \param cls class 0-7 (aborts otherwise)
     * \param nPorts ports of the switch
     * \return for each ingress port, its bytes waiting in this class (the
     *         wait-for relation deadlock detection uses)
     */
    std::vector<uint64_t> GetBytesByIngress(uint8_t cls, uint32_t nPorts) const;
    /// \return the counters
    const Stats& GetStats() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Put an admitted frame in its class FIFO.
     * \param item the frame
     */
    virtual void DoEnqueue(QbbQueueItem&& item);
    /**
     * \brief Take the scheduler's next frame out of its class FIFO.
     * \param eligible classes with frames that may send (not 0)
     * \return the frame
     */
    virtual QbbQueueItem DoDequeue(uint8_t eligible);
    /**
     * \param eligible bit c set for each class with frames that may send (not 0)
     * \return the class whose turn it is under DWRR
     */
    uint8_t DwrrSelect(uint8_t eligible);
    /**
     * \brief Remove the head frame of a class.
     * \param cls the class (not empty)
     * \return the frame
     */
    QbbQueueItem Pop(uint8_t cls);
    /**
     * \brief Mark a frame CE if it is ECN-capable and the marker says so.
     * \param item the frame (rewritten in place when marked)
     * \param queueBytes its class queue's bytes the decision looks at
     */
    void MaybeMark(QbbQueueItem& item, uint64_t queueBytes);
    /**
     * \brief Stamp the frame's INT record.
     * \param item the frame (rewritten in place)
     */
    void Stamp(QbbQueueItem& item);
    /**
     * \brief The checks a frame must pass to join the queue: MaxBytes and
     * the admission of a frame from a switch ingress.
     * \param item the frame
     * \return DROP_NONE if admitted, else why not
     */
    RdmaDropReason Admit(const QbbQueueItem& item);
    /**
     * \brief Cut the newest frame of a class queue to its headers and queue
     * them in the trimmer's class (QbbTrimmer's QueuedVictimProbability),
     * making room for an arriving frame; its shared buffer is released.
     * \param cls the class queue
     * \return false if there is nothing to cut there (empty, already
     *         trimmed, no payload)
     */
    bool TrimNewest(uint8_t cls);
    /**
     * \brief Cut a frame to its headers and move it to the trimmer's class.
     * \param item the frame (replaced by the trimmed one)
     * \return false (item unchanged) if there is nothing to cut
     */
    bool Trim(QbbQueueItem& item);
    /**
     * \brief Count and trace a drop.
     * \param item the frame
     * \param reason why
     */
    void Drop(const QbbQueueItem& item, RdmaDropReason reason);
    /// Recompute CanBypass() after a policy changed.
    void UpdateBypass();

    /// One class FIFO.
    struct ClassQueue
    {
        RdmaFifo<QbbQueueItem> items; //!< oldest first
        uint64_t bytes{0};              //!< their bytes
    };

    // What every frame reads first and together (after the reference count),
    // ahead of the eight class FIFOs: order only, no behaviour.
    uint64_t m_bytes{0};                           //!< bytes in all classes
    uint64_t m_trimmedBytes{0};                    //!< of which trimmed frames (not in MaxBytes)
    uint64_t m_maxBytes;                           //!< MaxBytes attribute
    uint8_t m_backlogMask{0};                      //!< bit c: class c not empty
    bool m_bypass{true};                           //!< CanBypass()
    bool m_markAtDequeue{true};                    //!< where the marker looks
    Scheduler m_scheduler{STRICT_PRIORITY};        //!< Scheduler attribute
    IntStamping m_int{INT_OFF};                    //!< where INT records are stamped
    Ptr<QbbAdmission> m_mmu;                       //!< admission, or null
    Ptr<RdmaEcnMarker> m_marker;                   //!< ECN marker, or null
    Ptr<QbbTrimmer> m_trimmer;                     //!< trimming, or null
    TracedCallback<Ptr<const Packet>, uint8_t> m_enqueueTrace;               //!< Enqueue
    TracedCallback<Ptr<const Packet>, uint8_t> m_dequeueTrace;               //!< Dequeue
    Stats m_stats;                                 //!< counters
    std::array<ClassQueue, NUM_CLASSES> m_classes; //!< by class

    QbbDwrrQuanta m_quanta;                        //!< DwrrQuanta attribute
    std::array<uint64_t, NUM_CLASSES> m_deficit{}; //!< DWRR credit, bytes
    uint8_t m_dwrrClass{0};                        //!< class whose DWRR turn it is
    bool m_dwrrCredited{false};                    //!< it had its quantum this turn
    IntRecordCallback m_intRecord;                 //!< the port's INT record
    IntEgressCallback m_intEgress;                 //!< the port's INT identity
    DropCallback m_dropCallback;                   //!< the owner's drop callback, or null
    MarkCallback m_markCallback;                   //!< the owner's mark callback, or null

    TracedCallback<Ptr<const Packet>, uint32_t, RdmaDropReason> m_dropTrace; //!< Drop
    TracedCallback<uint8_t, uint64_t, RdmaEcnMarker::MarkReason> m_markTrace; //!< Mark
    TracedCallback<Ptr<const Packet>, uint8_t> m_trimTrace;                    //!< Trim
};

} // namespace ns3

#endif // QBB_EGRESS_QUEUE_H
