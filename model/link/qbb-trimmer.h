/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QBB_TRIMMER_H
#define QBB_TRIMMER_H

#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-frame.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Packet trimming, the policy a switch egress queue (QbbEgressQueue)
 * applies where it would drop a frame: the frame is cut to its headers and
 * queued in a high-priority class instead, so the receiver learns of the
 * loss one queueing delay later and asks for that packet at once (NDP:
 * Handley et al., SIGCOMM 2017, section 3.1; UEC 1.0, packet trimming; DCP,
 * SIGCOMM 2025).
 *
 * Which frames: those of the classes in Classes (a bit mask; 0, the
 * default, trims nothing) that carry a payload. Each is trimmed where the
 * queue's admission would refuse it (the queue's MaxBytes, the switch
 * MMU's limits) or, with a Threshold, as soon as its class queue holds
 * that many bytes (NDP's shallow queue). Trimmed frames take no shared
 * buffer (switch ASICs keep them in a queue of their own): only the
 * queue's MaxBytes bounds them. A frame with no payload (an ACK, a READ
 * request, a frame already trimmed) is dropped as before.
 *
 * What a trimmed frame is: the same RoCEv2 frame, every header kept
 * (Ethernet, 802.1Q, IP, UDP, an INT header, BTH and its extension
 * headers), the payload and pad removed, the IP and UDP lengths, the IPv4
 * header checksum (when not 0) and the ICRC recomputed, so that it is a
 * valid RoCEv2 packet that Wireshark decodes. It is marked by its DSCP
 * (Dscp), as UEC marks trimmed packets; the BTH has no spare bit that a
 * RoCE NIC would leave alone. The default, 63, is a codepoint of RFC 2474's
 * pool 2 (xxxx11, experimental or local use, section 6), so it is no
 * standard class's. A tagged frame's 802.1Q priority becomes TrimClass; an
 * untagged frame is classed by its DSCP, so the port's DscpToClass must
 * map Dscp to TrimClass (the default map sends 63 to class 7, the default
 * TrimClass). A receiving NIC takes a frame with this DSCP as trimmed
 * (RdmaNic's TrimmedDscp).
 *
 * Which frame is cut when a full queue refuses one: the arriving frame, or,
 * with QueuedVictimProbability p > 0, with probability p the newest frame
 * of the arriving frame's class queue, so the arriving one takes its place
 * (htsim's CompositeQueue, which UEC's simulator uses, does so half the
 * time). A resend that meets a queue kept full by its peers then gets
 * through; when only the arriving frame is cut, it can be cut again at
 * each try until its sender's timer fires.
 */
class QbbTrimmer : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QbbTrimmer();
    ~QbbTrimmer() override;

    /// \return whether any class is trimmed (Classes is not 0)
    bool IsEnabled() const;
    /**
     * \param cls a class 0-7
     * \return whether its frames are trimmed rather than dropped
     */
    bool Trims(uint8_t cls) const;
    /**
     * \param cls a class 0-7
     * \param queueBytes the bytes its class queue holds
     * \return whether a frame joining it is trimmed at once (Threshold)
     */
    bool AboveThreshold(uint8_t cls, uint64_t queueBytes) const;
    /**
     * \brief Cut a frame to its headers (see the class notes).
     * \param frame a frame of a trimmed class
     * \return the trimmed frame, or null where there is nothing to cut (not
     *         a RoCEv2 frame, no payload)
     */
    Ptr<RdmaFrame> Trim(RdmaFrame& frame) const;
    /// \return the class trimmed frames are queued in (TrimClass)
    uint8_t GetTrimClass() const;
    /// \return the DSCP that marks a trimmed frame (Dscp)
    uint8_t GetDscp() const;
    /// \return the bytes of trimmed frames a port may hold (MaxBytes; 0: the queue's MaxBytes)
    uint64_t GetMaxBytes() const;
    /**
     * \brief Draw whether a full queue cuts its newest queued frame rather
     * than the arriving one (QueuedVictimProbability).
     * \return true to cut the queued frame
     */
    bool CutQueued();
    /**
     * \brief Set the stream of the draws of CutQueued; none is taken when
     * QueuedVictimProbability is 0 or nothing is trimmed, so a run without
     * them numbers its other streams as before.
     * \param stream the first stream
     * \return the streams taken (0 or 1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /**
     * \brief Trim a compact frame without an INT header by rewriting its
     * head's bytes (Trim's result, without parsing and building the frame).
     * \param frame the frame
     * \param done set true when the answer is final; false leaves the frame
     *        to Trim's parse (another L3, IPv4 options, not RoCEv2)
     * \return the trimmed frame, or null (no payload, or not done)
     */
    Ptr<RdmaFrame> TrimCompact(const RdmaFrame& frame, bool& done) const;

    uint8_t m_classes{0};    //!< Classes attribute: bit c = class c is trimmed
    uint8_t m_trimClass{7};  //!< TrimClass attribute
    uint8_t m_dscp{63};      //!< Dscp attribute
    uint64_t m_threshold{0}; //!< Threshold attribute, bytes (0: only where it would drop)
    uint64_t m_maxBytes{0};  //!< MaxBytes attribute, bytes (0: the queue's MaxBytes)
    double m_queuedVictim{0}; //!< QueuedVictimProbability attribute
    Ptr<UniformRandomVariable> m_rng; //!< CutQueued's draws
};

} // namespace ns3

#endif // QBB_TRIMMER_H
