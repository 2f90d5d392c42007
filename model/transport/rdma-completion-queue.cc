/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-completion-queue.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCompletionQueue");
NS_OBJECT_ENSURE_REGISTERED(RdmaCompletionQueue);

TypeId
RdmaCompletionQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCompletionQueue")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaCompletionQueue>()
            .AddAttribute("Depth",
                          "Completions the queue holds before an overrun (entries).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaCompletionQueue::m_depth),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Completion",
                            "A work completion was generated.",
                            MakeTraceSourceAccessor(&RdmaCompletionQueue::m_completion),
                            "ns3::RdmaCompletionQueue::CompletionTracedCallback")
            .AddTraceSource("CqError",
                            "A completion found the queue full (CQ overrun).",
                            MakeTraceSourceAccessor(&RdmaCompletionQueue::m_cqError),
                            "ns3::RdmaCompletionQueue::CompletionTracedCallback");
    return tid;
}

RdmaCompletionQueue::RdmaCompletionQueue()
    : m_depth(4096),
      m_error(false)
{
}

void
RdmaCompletionQueue::SetDepth(uint32_t depth)
{
    m_depth = depth;
}

uint32_t
RdmaCompletionQueue::GetDepth() const
{
    return m_depth;
}

void
RdmaCompletionQueue::SetCompletionCallback(Callback<void, const RdmaWorkCompletion&> cb)
{
    m_callback = cb;
}

bool
RdmaCompletionQueue::Push(const RdmaWorkCompletion& wc)
{
    if (m_error)
    {
        return false;
    }
    m_completion(wc);
    if (!m_callback.IsNull())
    {
        m_callback(wc);
        return true;
    }
    if (m_queue.size() >= m_depth)
    {
        NS_LOG_WARN("CQ overrun at depth " << m_depth);
        m_error = true;
        m_cqError(wc);
        return false;
    }
    m_queue.push_back(wc);
    return true;
}

std::vector<RdmaWorkCompletion>
RdmaCompletionQueue::Poll(uint32_t max)
{
    std::vector<RdmaWorkCompletion> out;
    while (!m_queue.empty() && out.size() < max)
    {
        out.push_back(m_queue.front());
        m_queue.pop_front();
    }
    return out;
}

uint32_t
RdmaCompletionQueue::GetSize() const
{
    return m_queue.size();
}

bool
RdmaCompletionQueue::IsInError() const
{
    return m_error;
}

} // namespace ns3
