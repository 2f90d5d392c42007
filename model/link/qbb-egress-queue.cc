/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-egress-queue.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rdma-frame-editor.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QbbEgressQueue");

NS_OBJECT_ENSURE_REGISTERED(QbbEgressQueue);

namespace
{
/**
 * \param cls a class
 * \param caller the calling method, for the message
 */
void
CheckClass(uint8_t cls, const char* caller)
{
    NS_ABORT_MSG_IF(cls >= RdmaWire::NUM_CLASSES,
                    "QbbEgressQueue::" << caller << ": class " << +cls << " is not 0-7");
}

/// ECN-capable transport, ECT(1) or ECT(0) (RFC 3168 section 5).
bool
IsEct(uint8_t ecn)
{
    return ecn == 1 || ecn == 2;
}
} // namespace

TypeId
QbbEgressQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QbbEgressQueue")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<QbbEgressQueue>()
            .AddAttribute("MaxBytes",
                          "Capacity of the queue, bytes of frames waiting in all eight classes "
                          "together (the frame being serialized and PFC frames are not "
                          "counted); a frame that does not fit is dropped (QUEUE_FULL). A "
                          "switch port's MMU decides before this limit when it is larger than "
                          "the switch buffer, as by default.",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&QbbEgressQueue::m_maxBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Scheduler",
                          "How the next class is chosen among those that have frames and are "
                          "not paused: StrictPriority (highest class first, IEEE 802.1Q-2018 "
                          "8.6.8.1) or Dwrr (deficit-weighted round robin with DwrrQuanta, "
                          "counting frame bytes).",
                          EnumValue(QbbEgressQueue::STRICT_PRIORITY),
                          MakeEnumAccessor(&QbbEgressQueue::m_scheduler),
                          MakeEnumChecker(QbbEgressQueue::STRICT_PRIORITY,
                                          "StrictPriority",
                                          QbbEgressQueue::DWRR,
                                          "Dwrr"))
            .AddAttribute("DwrrQuanta",
                          "DWRR quantum of each class, bytes: 8 numbers above 0, class 0 first. "
                          "A class's share of the link among backlogged classes is its quantum "
                          "over the sum of theirs.",
                          QbbDwrrQuantaValue(QbbDwrrQuanta()),
                          MakeQbbDwrrQuantaAccessor(&QbbEgressQueue::m_quanta),
                          MakeQbbDwrrQuantaChecker())
            .AddTraceSource("Enqueue",
                            "A frame joined its class queue: frame, class.",
                            MakeTraceSourceAccessor(&QbbEgressQueue::m_enqueueTrace),
                            "ns3::QbbEgressQueue::ItemTracedCallback")
            .AddTraceSource("Dequeue",
                            "A frame left for the wire (after any marking or stamping): "
                            "frame, class.",
                            MakeTraceSourceAccessor(&QbbEgressQueue::m_dequeueTrace),
                            "ns3::QbbEgressQueue::ItemTracedCallback")
            .AddTraceSource("Drop",
                            "A frame was dropped: frame, ingress port, reason.",
                            MakeTraceSourceAccessor(&QbbEgressQueue::m_dropTrace),
                            "ns3::QbbEgressQueue::DropTracedCallback")
            .AddTraceSource("Trim",
                            "A frame was cut to its headers (QbbTrimmer) instead of being "
                            "dropped: the trimmed frame, the class it was in.",
                            MakeTraceSourceAccessor(&QbbEgressQueue::m_trimTrace),
                            "ns3::QbbEgressQueue::ItemTracedCallback")
            .AddTraceSource("Mark",
                            "A frame was marked CE: class, the class queue's bytes the "
                            "decision looked at, reason.",
                            MakeTraceSourceAccessor(&QbbEgressQueue::m_markTrace),
                            "ns3::QbbEgressQueue::MarkTracedCallback");
    return tid;
}

QbbEgressQueue::QbbEgressQueue()
    : m_maxBytes(10000000)
{
}

QbbEgressQueue::~QbbEgressQueue() = default;

void
QbbEgressQueue::DoDispose()
{
    for (ClassQueue& q : m_classes)
    {
        q.items.clear();
        q.bytes = 0;
    }
    m_bytes = 0;
    m_trimmedBytes = 0;
    m_backlogMask = 0;
    m_mmu = nullptr;
    m_marker = nullptr;
    m_trimmer = nullptr;
    m_intRecord = nullptr;
    m_intEgress = nullptr;
    m_dropCallback = nullptr;
    m_markCallback = nullptr;
    Object::DoDispose();
}

void
QbbEgressQueue::UpdateBypass()
{
    m_bypass = !m_mmu && !m_marker && !m_trimmer && m_int == INT_OFF;
}

void
QbbEgressQueue::SetTrimmer(Ptr<QbbTrimmer> trimmer)
{
    m_trimmer = trimmer && trimmer->IsEnabled() ? trimmer : nullptr;
    UpdateBypass();
}

void
QbbEgressQueue::SetAdmission(Ptr<QbbAdmission> admission)
{
    m_mmu = admission;
    UpdateBypass();
}

void
QbbEgressQueue::SetDropCallback(DropCallback drop)
{
    m_dropCallback = drop;
}

void
QbbEgressQueue::SetMarkCallback(MarkCallback mark)
{
    m_markCallback = mark;
}

void
QbbEgressQueue::SetEcnMarker(Ptr<RdmaEcnMarker> marker, bool atDequeue)
{
    m_marker = marker;
    m_markAtDequeue = atDequeue;
    UpdateBypass();
}

Ptr<RdmaEcnMarker>
QbbEgressQueue::GetEcnMarker() const
{
    return m_marker;
}

void
QbbEgressQueue::SetIntStamping(IntStamping mode)
{
    NS_ABORT_MSG_IF(mode != INT_OFF && !m_intRecord,
                    "QbbEgressQueue::SetIntStamping: INT needs the port's record "
                    "(SetIntRecordCallback; a QbbNetDevice sets it on its queue)");
    m_int = mode;
    UpdateBypass();
}

void
QbbEgressQueue::SetIntRecordCallback(IntRecordCallback record, IntEgressCallback egress)
{
    m_intRecord = record;
    m_intEgress = egress;
}

void
QbbEgressQueue::SetDwrrQuantum(uint8_t cls, uint32_t bytes)
{
    CheckClass(cls, "SetDwrrQuantum");
    NS_ABORT_MSG_IF(bytes == 0, "QbbEgressQueue: a DWRR quantum must be above 0 bytes");
    m_quanta.bytes[cls] = bytes;
}

bool
QbbEgressQueue::Enqueue(QbbQueueItem item)
{
    // Per-frame path: no NS_LOG_FUNCTION (see QbbNetDevice's notes).
    bool trimmed = false;
    if (m_trimmer && item.cls == m_trimmer->GetTrimClass())
    {
        // Headers trimmed upstream (and anything else of the trimmed
        // frames' class) queue in the trimmed frames' budget, outside the
        // shared buffer, at every hop.
        item.trimmed = 1;
        item.inPort = QbbQueueItem::NO_PORT;
    }
    else if (m_trimmer && m_trimmer->AboveThreshold(item.cls, m_classes[item.cls].bytes))
    {
        trimmed = Trim(item);
    }
    RdmaDropReason refused = Admit(item);
    if (refused == DROP_QUEUE_FULL && !trimmed && m_trimmer && m_trimmer->Trims(item.cls) &&
        m_trimmer->CutQueued() && TrimNewest(item.cls))
    {
        refused = Admit(item); // in the place the cut frame left
    }
    if (refused != DROP_NONE && !trimmed && m_trimmer && m_trimmer->Trims(item.cls) && Trim(item))
    {
        refused = Admit(item); // the headers alone, in the trimmer's class and budget
    }
    if (refused != DROP_NONE)
    {
        Drop(item, refused);
        return false;
    }
    if (m_mmu && item.inPort != QbbQueueItem::NO_PORT)
    {
        m_mmu->CheckXoff(item.inPort, item.cls);
    }
    if (m_marker && !m_markAtDequeue)
    {
        MaybeMark(item, m_classes[item.cls].bytes);
    }
    if (m_int == INT_AT_ENQUEUE && item.intOffset != 0)
    {
        Stamp(item);
    }
    ++m_stats.enqueued;
    FireFrameTrace(m_enqueueTrace, *item.frame, item.cls);
    DoEnqueue(std::move(item));
    return true;
}

RdmaDropReason
QbbEgressQueue::Admit(const QbbQueueItem& item)
{
    if (item.trimmed)
    {
        // Trimmed headers queue beside the data, in a budget of their own.
        const uint64_t own = m_trimmer->GetMaxBytes();
        const uint64_t budget = own > 0 ? own : m_maxBytes;
        return m_trimmedBytes + item.Bytes() > budget ? DROP_QUEUE_FULL : DROP_NONE;
    }
    if (m_bytes - m_trimmedBytes + item.Bytes() > m_maxBytes)
    {
        return DROP_QUEUE_FULL;
    }
    if (m_mmu && item.inPort != QbbQueueItem::NO_PORT)
    {
        return m_mmu->Admit(item.inPort, item.cls, item.Bytes());
    }
    return DROP_NONE;
}

bool
QbbEgressQueue::TrimNewest(uint8_t cls)
{
    ClassQueue& q = m_classes[cls];
    if (q.items.empty() || q.items.back().trimmed)
    {
        return false;
    }
    QbbQueueItem victim = std::move(q.items.back());
    q.items.pop_back();
    const uint32_t bytes = victim.Bytes();
    const uint32_t inPort = victim.inPort;
    if (!Trim(victim)) // no payload: it stays where it was
    {
        q.items.push_back(std::move(victim));
        return false;
    }
    q.bytes -= bytes;
    m_bytes -= bytes;
    if (q.items.empty())
    {
        m_backlogMask &= ~(1U << cls);
    }
    if (m_mmu && inPort != QbbQueueItem::NO_PORT)
    {
        m_mmu->Release(inPort, cls, bytes);
        m_mmu->CheckXon(inPort, cls);
    }
    const RdmaDropReason refused = Admit(victim);
    if (refused != DROP_NONE)
    {
        Drop(victim, refused);
        return true;
    }
    DoEnqueue(std::move(victim));
    return true;
}

bool
QbbEgressQueue::Trim(QbbQueueItem& item)
{
    Ptr<RdmaFrame> trimmed = m_trimmer->Trim(*item.frame);
    if (!trimmed)
    {
        return false;
    }
    NS_LOG_LOGIC("trim " << item.frame->GetSize() << " bytes to " << trimmed->GetSize());
    ++m_stats.trimmed;
    const uint8_t from = item.cls;
    item.frame = trimmed;
    item.cls = m_trimmer->GetTrimClass();
    // Trimmed frames take no shared buffer (switch ASICs keep them in a
    // queue of their own): the MMU neither admits nor releases them.
    item.inPort = QbbQueueItem::NO_PORT;
    item.trimmed = 1;
    FireFrameTrace(m_trimTrace, *item.frame, from);
    return true;
}

void
QbbEgressQueue::DoEnqueue(QbbQueueItem&& item)
{
    ClassQueue& q = m_classes[item.cls];
    q.bytes += item.Bytes();
    m_bytes += item.Bytes();
    if (item.trimmed)
    {
        m_trimmedBytes += item.Bytes();
    }
    m_backlogMask |= 1U << item.cls;
    q.items.push_back(std::move(item));
}

bool
QbbEgressQueue::Dequeue(uint8_t pausedMask, QbbQueueItem& item)
{
    const uint8_t eligible = m_backlogMask & ~pausedMask;
    if (eligible == 0)
    {
        return false;
    }
    item = DoDequeue(eligible);
    if (m_mmu && item.inPort != QbbQueueItem::NO_PORT)
    {
        m_mmu->Release(item.inPort, item.cls, item.Bytes());
        m_mmu->CheckXon(item.inPort, item.cls);
    }
    if (m_marker && m_markAtDequeue)
    {
        MaybeMark(item, m_classes[item.cls].bytes);
    }
    if (m_int == INT_AT_DEQUEUE && item.intOffset != 0)
    {
        Stamp(item);
    }
    ++m_stats.dequeued;
    FireFrameTrace(m_dequeueTrace, *item.frame, item.cls);
    return true;
}

QbbQueueItem
QbbEgressQueue::DoDequeue(uint8_t eligible)
{
    if (m_scheduler == STRICT_PRIORITY)
    {
        uint8_t c = NUM_CLASSES - 1;
        while (!(eligible & (1U << c)))
        {
            --c;
        }
        return Pop(c);
    }
    const uint8_t c = DwrrSelect(eligible);
    QbbQueueItem item = Pop(c);
    m_deficit[c] -= item.Bytes();
    if (m_classes[c].items.empty())
    {
        // An idle class keeps no credit; the turn passes on.
        m_deficit[c] = 0;
        m_dwrrClass = (c + 1) % NUM_CLASSES;
        m_dwrrCredited = false;
    }
    return item;
}

uint8_t
QbbEgressQueue::DwrrSelect(uint8_t eligible)
{
    // Visit the classes in turn; an eligible class gets its quantum once
    // per turn and keeps the turn while its head frame fits its credit.
    // Paused classes with frames keep their credit and lose their turn.
    while (true)
    {
        const uint8_t c = m_dwrrClass;
        if (eligible & (1U << c))
        {
            if (!m_dwrrCredited)
            {
                m_deficit[c] += m_quanta.bytes[c];
                m_dwrrCredited = true;
            }
            if (m_classes[c].items.front().Bytes() <= m_deficit[c])
            {
                return c;
            }
        }
        m_dwrrClass = (c + 1) % NUM_CLASSES;
        m_dwrrCredited = false;
    }
}

QbbQueueItem
QbbEgressQueue::Pop(uint8_t cls)
{
    ClassQueue& q = m_classes[cls];
    QbbQueueItem item = std::move(q.items.front());
    q.items.pop_front();
    q.bytes -= item.Bytes();
    m_bytes -= item.Bytes();
    if (item.trimmed)
    {
        m_trimmedBytes -= item.Bytes();
    }
    if (q.items.empty())
    {
        m_backlogMask &= ~(1U << cls);
    }
    return item;
}

void
QbbEgressQueue::MaybeMark(QbbQueueItem& item, uint64_t queueBytes)
{
    if (!IsEct(item.ecn))
    {
        return;
    }
    const RdmaEcnMarker::MarkReason reason = m_marker->ShouldMark(item.cls, queueBytes);
    if (reason == RdmaEcnMarker::NO_MARK)
    {
        return;
    }
    RdmaFrameEditor::MarkCe(*item.frame, item.ipOffset, item.ipv6);
    item.ecn = 3;
    ++m_stats.marks;
    if (m_markCallback)
    {
        m_markCallback(item.cls, queueBytes);
    }
    m_markTrace(item.cls, queueBytes, reason);
}

void
QbbEgressQueue::Stamp(QbbQueueItem& item)
{
    const uint64_t egress = m_intEgress ? m_intEgress() : 0;
    if (RdmaFrameEditor::StampInt(*item.frame, item.intOffset, m_intRecord(m_bytes), egress))
    {
        ++m_stats.intStamped;
    }
}

uint32_t
QbbEgressQueue::Flush(uint8_t cls)
{
    CheckClass(cls, "Flush");
    uint32_t n = 0;
    while (!m_classes[cls].items.empty())
    {
        QbbQueueItem item = Pop(cls);
        if (m_mmu && item.inPort != QbbQueueItem::NO_PORT)
        {
            m_mmu->Release(item.inPort, item.cls, item.Bytes());
            m_mmu->CheckXon(item.inPort, item.cls);
        }
        Drop(item, DROP_PFC_STORM);
        ++n;
    }
    return n;
}

void
QbbEgressQueue::Drop(const QbbQueueItem& item, RdmaDropReason reason)
{
    NS_LOG_LOGIC("drop " << RdmaDropReasonName(reason) << " " << item.frame->GetSize()
                         << " bytes");
    ++m_stats.drops[reason];
    if (m_dropCallback)
    {
        m_dropCallback(*item.frame, item.inPort, reason);
    }
    FireFrameTrace(m_dropTrace, *item.frame, item.inPort, reason);
}

uint64_t
QbbEgressQueue::GetBytes(uint8_t cls) const
{
    CheckClass(cls, "GetBytes");
    return m_classes[cls].bytes;
}

uint32_t
QbbEgressQueue::GetFrames() const
{
    std::size_t n = 0;
    for (const ClassQueue& q : m_classes)
    {
        n += q.items.size();
    }
    return static_cast<uint32_t>(n);
}

uint32_t
QbbEgressQueue::GetFrames(uint8_t cls) const
{
    CheckClass(cls, "GetFrames");
    return static_cast<uint32_t>(m_classes[cls].items.size());
}

std::vector<uint64_t>
QbbEgressQueue::GetBytesByIngress(uint8_t cls, uint32_t nPorts) const
{
    CheckClass(cls, "GetBytesByIngress");
    std::vector<uint64_t> bytes(nPorts, 0);
    const RdmaFifo<QbbQueueItem>& items = m_classes[cls].items;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        const QbbQueueItem& item = items[i];
        if (item.inPort < nPorts)
        {
            bytes[item.inPort] += item.Bytes();
        }
    }
    return bytes;
}

const QbbEgressQueue::Stats&
QbbEgressQueue::GetStats() const
{
    return m_stats;
}

} // namespace ns3
