/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qbb-class-config.h"

#include "ns3/abort.h"
#include "ns3/rdma-wire.h"

#include <algorithm>
#include <istream>
#include <limits>
#include <ostream>

namespace ns3
{

namespace
{
/// Default DWRR quantum of every class: the largest frame at the default Mtu (9000 + 14 + 4).
constexpr uint32_t g_defaultQuantum = 9000 + 14 + 4;

/**
 * \brief Read the rest of a stream and mark it failed: a malformed
 * attribute string then fails to set (naming the attribute) instead of
 * aborting on unread input.
 * \param is the stream
 */
void
FailStream(std::istream& is)
{
    is.clear();
    is.ignore(std::numeric_limits<std::streamsize>::max());
    is.setstate(std::ios::failbit);
}

/**
 * \brief Read exactly n unsigned numbers in [lo, hi] separated by white space.
 * \param is the stream
 * \param out where the numbers go
 * \param n how many
 * \param lo smallest allowed value
 * \param hi largest allowed value
 */
template <typename T>
void
ReadBoundedList(std::istream& is, T* out, std::size_t n, uint64_t lo, uint64_t hi)
{
    for (std::size_t i = 0; i < n; ++i)
    {
        uint64_t v = 0;
        if (!(is >> v) || v < lo || v > hi)
        {
            FailStream(is);
            return;
        }
        out[i] = static_cast<T>(v);
    }
    if (!is.eof())
    {
        is >> std::ws; // trailing white space is fine, more values are not
        if (!is.eof())
        {
            FailStream(is);
        }
    }
}
} // namespace

QbbDscpClassMap::QbbDscpClassMap()
{
    for (uint32_t d = 0; d < cls.size(); ++d)
    {
        cls[d] = static_cast<uint8_t>(d >> 3);
    }
}

uint8_t
QbbDscpClassMap::Classify(const RdmaFrame& frame) const
{
    // Bytes 12-13 EtherType; then the PCP (byte 14) of a tag, or the first
    // two bytes of an IP header (DSCP in byte 15 for IPv4, bytes 14-15 for IPv6).
    uint8_t b[16];
    const uint32_t n = std::min<uint32_t>(frame.GetSize(), sizeof(b));
    if (n < 15)
    {
        return RdmaWire::NUM_CLASSES - 1;
    }
    frame.CopyData(b, n);
    return ClassifyHead(b, n);
}

uint8_t
QbbDscpClassMap::Classify(Ptr<const Packet> frame) const
{
    return Classify(*RdmaFrame::Wrap(ConstCast<Packet>(frame)));
}

uint8_t
QbbDscpClassMap::ClassifyHead(const uint8_t* b, uint32_t n) const
{
    if (n < 15)
    {
        return RdmaWire::NUM_CLASSES - 1;
    }
    const uint16_t type = static_cast<uint16_t>((b[12] << 8) | b[13]);
    if (type == RdmaWire::ETHERTYPE_VLAN)
    {
        return b[14] >> 5;
    }
    if (n < 16)
    {
        return RdmaWire::NUM_CLASSES - 1;
    }
    if (type == RdmaWire::ETHERTYPE_IPV4)
    {
        return cls[b[15] >> 2];
    }
    if (type == RdmaWire::ETHERTYPE_IPV6)
    {
        return cls[((b[14] & 0x0F) << 2) | (b[15] >> 6)];
    }
    return RdmaWire::NUM_CLASSES - 1;
}

void
QbbDscpClassMap::Set(uint8_t dscp, uint8_t c)
{
    NS_ABORT_MSG_IF(dscp >= cls.size(), "QbbDscpClassMap: DSCP " << +dscp << " is not 0-63");
    NS_ABORT_MSG_IF(c >= RdmaWire::NUM_CLASSES, "QbbDscpClassMap: class " << +c << " is not 0-7");
    cls[dscp] = c;
}

uint8_t
QbbDscpClassMap::Get(uint8_t dscp) const
{
    NS_ABORT_MSG_IF(dscp >= cls.size(), "QbbDscpClassMap: DSCP " << +dscp << " is not 0-63");
    return cls[dscp];
}

std::ostream&
operator<<(std::ostream& os, const QbbDscpClassMap& map)
{
    for (std::size_t d = 0; d < map.cls.size(); ++d)
    {
        os << (d ? " " : "") << +map.cls[d];
    }
    return os;
}

std::istream&
operator>>(std::istream& is, QbbDscpClassMap& map)
{
    ReadBoundedList(is, map.cls.data(), map.cls.size(), 0, RdmaWire::NUM_CLASSES - 1);
    return is;
}

// ns-3's macro defines SerializeToString/DeserializeFromString without
// using their checker parameter (clang warns, GCC does not).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
ATTRIBUTE_HELPER_CPP(QbbDscpClassMap);
#pragma GCC diagnostic pop

QbbDwrrQuanta::QbbDwrrQuanta()
{
    bytes.fill(g_defaultQuantum);
}

std::ostream&
operator<<(std::ostream& os, const QbbDwrrQuanta& quanta)
{
    for (std::size_t c = 0; c < quanta.bytes.size(); ++c)
    {
        os << (c ? " " : "") << quanta.bytes[c];
    }
    return os;
}

std::istream&
operator>>(std::istream& is, QbbDwrrQuanta& quanta)
{
    ReadBoundedList(is,
                    quanta.bytes.data(),
                    quanta.bytes.size(),
                    1,
                    std::numeric_limits<uint32_t>::max());
    return is;
}

// ns-3's macro defines SerializeToString/DeserializeFromString without
// using their checker parameter (clang warns, GCC does not).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
ATTRIBUTE_HELPER_CPP(QbbDwrrQuanta);
#pragma GCC diagnostic pop

} // namespace ns3
