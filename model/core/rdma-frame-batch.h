/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FRAME_BATCH_H
#define RDMA_FRAME_BATCH_H

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The frames (and notices) one rank sends to one other rank within
 * one granted-time window, serialized back to back: the body of one MPI
 * message (RdmaWindowMpiInterface, doc/mpi.rst "How it works").
 *
 * ns-3.37's GrantedTimeWindowMpiInterface::SendPacket sends each frame as
 * a message of its own: its arrival time (8 bytes), node and interface
 * index (4 each), then Packet::Serialize's output. A batch holds the same
 * fields per frame and the frame's event key (RdmaEventScheduler::TakeKey),
 * which per-frame messages carry as a packet tag (RdmaEventKeyTag):
 *
 *     arrival (8) | key (8) | node (4) | interface (4) | length (4) | 0 (2)
 *     | compact head (2) | Packet::Serialize output (length bytes) | zeros
 *     to a multiple of 8
 *
 * where "compact head" is, for a frame its sender kept in the compact form
 * (head bytes, then zeros and the ICRC: RdmaFrame), the length of that
 * head, so the receiving rank keeps it compact too (0: a frame to keep as
 * the Packet it is).
 *
 * A notice is a record with no frame: an event the receiving rank runs in
 * a node's context at the time it carries, with one 32-bit argument (e.g.
 * "close the responder's QP of this flow", RdmaFlowRunner::CloseResponder):
 *
 *     time (8) | key (8) | node (4) | argument (4) | 0 (4) | 1 (4)
 *
 * in the host's byte order (the ranks of one run are one build on one kind
 * of machine, as ns-3's own messages assume). The batch is kept in chunks
 * of CHUNK_BYTES (a record never straddles two; a larger one has a chunk
 * of its own), sent as one message by their used parts back to back
 * (GetChunks; an MPI derived datatype): its memory follows its bytes, with
 * no doubling of a growing buffer and no copy when it grows. Packet::Serialize writes and
 * Packet(buffer, size, true) reads 32-bit words, so every record starts at
 * a multiple of 8 bytes of the buffer (std::vector's storage is aligned for
 * any scalar). Nothing here calls MPI: the batch is built and read in any
 * build.
 *
 * A received batch (Received) is read in place: each frame read from it
 * stays serialized there (SerializedFrame, which holds the batch) until
 * its arrival makes a Packet of it (ToPacket), so a frame waiting for its
 * arrival time costs its bytes once (RdmaFrameArrivals).
 */
class RdmaFrameBatch
{
  public:
    /// Bytes of a record before the serialized packet.
    static constexpr uint32_t HEADER_BYTES = 32;

    /**
     * \brief A received batch: its bytes, 8-byte aligned, shared by the
     * frames read from it (SerializedFrame).
     */
    class Received : public SimpleRefCount<Received>
    {
      public:
        /// \param bytes the batch's size, a multiple of 8 (zeroed)
        explicit Received(std::size_t bytes);
        /// \return where MPI writes the batch (GetBytes() of it)
        uint8_t* GetData();
        /// \return the batch's bytes
        const uint8_t* GetData() const;
        /// \return its size
        std::size_t GetBytes() const;

      private:
        std::vector<uint64_t> m_words; //!< the batch, in 8-byte words (aligned)
    };

    /**
     * \brief A frame of a received batch, still serialized in it (the
     * batch is kept while any of its frames is).
     */
    class SerializedFrame
    {
      public:
        SerializedFrame() = default;
        /**
         * \param batch the received batch
         * \param offset where the frame's serialized form starts in it
         * \param length its bytes
         */
        SerializedFrame(Ptr<const Received> batch, std::size_t offset, uint32_t length);
        /// \return whether there is a frame (false: a notice's record)
        explicit operator bool() const
        {
            return bool(m_batch);
        }

        /// \return the frame's serialized form's length, bytes
        uint32_t GetSerializedSize() const;
        /// \param dst where to copy the serialized form (GetSerializedSize() bytes)
        void CopyTo(uint8_t* dst) const;
        /**
         * \brief Deserialize the frame (Packet(buffer, size, true)): its
         * bytes, tags and metadata as sent.
         * \return the frame
         */
        Ptr<Packet> ToPacket() const;

      private:
        Ptr<const Received> m_batch; //!< the batch it is in, or null
        uint32_t m_offset{0};        //!< where in it (8-byte aligned)
        uint32_t m_length{0};        //!< its length
    };

    /// One frame or notice of a batch, as read back.
    struct Record
    {
        uint64_t arrivalTs;    //!< arrival at the receiving device (a notice's
                               //!< time), in time steps
        uint64_t key;          //!< the arrival event's key (RdmaEventScheduler)
        uint32_t node;         //!< receiving node id
        uint32_t ifIndex{0};   //!< receiving device's interface index on it (a frame's)
        uint32_t argument{0};  //!< a notice's argument
        uint32_t compactHead{0}; //!< a frame's compact head bytes (0: keep it a Packet)
        SerializedFrame frame; //!< the frame, serialized (none: a notice)
    };

    /**
     * \brief Append a frame.
     * \param frame the frame (serialized with its tags and metadata)
     * \param arrival its arrival time at the receiving device
     * \param key its arrival event's key
     * \param node the receiving node id
     * \param ifIndex the receiving device's interface index
     * \param compactHead the bytes of the head its sender kept it in the
     *        compact form with (below 65536), or 0
     */
    void Append(Ptr<const Packet> frame,
                Time arrival,
                uint64_t key,
                uint32_t node,
                uint32_t ifIndex,
                uint32_t compactHead = 0);

    /**
     * \brief Append a notice (a record with no frame).
     * \param at when the receiving rank runs it (after the window's end)
     * \param key its event's key
     * \param node the node in whose context it runs
     * \param argument its argument
     */
    void AppendNotice(Time at, uint64_t key, uint32_t node, uint32_t argument);

    /// \return frames appended since the last Clear()
    uint32_t GetFrames() const;
    /// \return notices appended since the last Clear()
    uint32_t GetNotices() const;
    /// Bytes of a chunk of a batch (CHUNK_BYTES at least each, unless a
    /// record is larger).
    static constexpr std::size_t CHUNK_BYTES = 256 * 1024;

    /// The used part of one chunk of a batch.
    struct Chunk
    {
        const uint8_t* data; //!< its first byte (8-byte aligned)
        std::size_t bytes;   //!< bytes used (a multiple of 8)
    };

    /// \return bytes of the batch (a multiple of 8)
    std::size_t GetBytes() const;
    /// \return the used parts of its chunks, in order: the batch's bytes
    /// are theirs back to back
    std::vector<Chunk> GetChunks() const;
    /// \param dst where to copy the batch's bytes (GetBytes() of them)
    void CopyTo(uint8_t* dst) const;
    /// \return the earliest arrival (or notice's time) appended since the
    /// last Clear(), in time steps (INT64_MAX if none)
    uint64_t GetEarliestArrival() const;
    /// Empty the batch (its first chunk kept for the next window, the
    /// others freed).
    void Clear();

    /**
     * \brief Read a received batch, record by record in the order they
     * were appended; each frame's record refers to its bytes in the batch.
     * A malformed batch (a length past its end, a record not on an 8-byte
     * boundary, a kind neither frame nor notice) ends the run with an
     * error.
     * \param batch the batch
     * \param each called once per record
     * \return the number of records
     */
    static uint32_t Read(Ptr<const Received> batch, const std::function<void(const Record&)>& each);

  private:
    /**
     * \brief Append a record's header.
     * \param ts its time, in time steps \param key its key \param node its node
     * \param word the interface index or the argument \param length frame bytes
     * \param kind 0: a frame, 1: a notice \param bytes the record's bytes
     * \return where the record starts
     */
    uint8_t* AppendHeader(uint64_t ts,
                          uint64_t key,
                          uint32_t node,
                          uint32_t word,
                          uint32_t length,
                          uint32_t kind,
                          std::size_t bytes);

    std::vector<std::vector<uint64_t>> m_chunks; //!< the batch, in chunks of 8-byte words
    std::size_t m_bytes{0};                      //!< bytes in all chunks
    uint32_t m_frames{0};                     //!< frame records in it
    uint32_t m_notices{0};                    //!< notice records in it
    uint64_t m_earliest{uint64_t(INT64_MAX)}; //!< earliest arrival, time steps
};

} // namespace ns3

#endif // RDMA_FRAME_BATCH_H
