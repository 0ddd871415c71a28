#include "devices/board_protocol.hpp"

namespace cardtable::devices::board {

namespace {
std::uint16_t le16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] | (b[at + 1] << 8));
}
void put16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v & 0xFF));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}
bool known_type(std::uint8_t t) {
  switch (static_cast<FrameType>(t)) {
    case FrameType::Hello: case FrameType::Scan: case FrameType::Reset: case FrameType::HelloReply:
    case FrameType::ScanReply: case FrameType::ResetReply: case FrameType::Error: return true;
  }
  return false;
}
std::string sizes(std::size_t want, std::size_t got) {
  return "needs " + std::to_string(want) + " bytes, has " + std::to_string(got);
}
}  // namespace

std::uint16_t crc16(std::span<const std::uint8_t> bytes) {
  std::uint16_t crc = 0xFFFF;
  for (std::uint8_t byte : bytes) {
    crc = static_cast<std::uint16_t>(crc ^ (byte << 8));
    for (int bit = 0; bit < 8; ++bit)
      crc = static_cast<std::uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
  }
  return crc;
}

Parsed<Frame> parse_frame(std::span<const std::uint8_t> b) {
  if (b.size() < kHeaderSize + kCrcSize) return Parsed<Frame>::fail(FrameError::Short, "frame " + sizes(kHeaderSize + kCrcSize, b.size()));
  if (b[0] != kMagic0 || b[1] != kMagic1) return Parsed<Frame>::fail(FrameError::Garbage, "bad magic");
  if (b[2] != kVersion) return Parsed<Frame>::fail(FrameError::Garbage, "protocol version " + std::to_string(b[2]));
  if (!known_type(b[3])) return Parsed<Frame>::fail(FrameError::Garbage, "unknown frame type " + std::to_string(b[3]));
  Frame f;
  f.header.version = b[2];
  f.header.type = static_cast<FrameType>(b[3]);
  f.header.seq = le16(b, 4);
  f.header.length = le16(b, 6);
  if (f.header.length > kMaxPayload) return Parsed<Frame>::fail(FrameError::Garbage, "payload length " + std::to_string(f.header.length) + " over 1024");
  std::size_t total = kHeaderSize + f.header.length + kCrcSize;
  if (b.size() < total) return Parsed<Frame>::fail(FrameError::Short, "frame " + sizes(total, b.size()));
  if (b.size() > total) return Parsed<Frame>::fail(FrameError::Garbage, std::to_string(b.size() - total) + " bytes after the CRC");
  std::uint16_t want = crc16(b.first(total - kCrcSize));
  if (std::uint16_t got = le16(b, total - kCrcSize); got != want)
    return Parsed<Frame>::fail(FrameError::Crc, "frame says " + std::to_string(got) + ", bytes give " + std::to_string(want));
  f.payload.assign(b.begin() + kHeaderSize, b.begin() + static_cast<std::ptrdiff_t>(total - kCrcSize));
  return Parsed<Frame>::ok(std::move(f));
}

Parsed<BoardInfo> parse_board_info(std::span<const std::uint8_t> p) {
  if (p.size() != kBoardInfoSize) return Parsed<BoardInfo>::fail(p.size() < kBoardInfoSize ? FrameError::Short : FrameError::Garbage, "HELLO reply " + sizes(kBoardInfoSize, p.size()));
  BoardInfo info;
  info.version = p[0];
  info.antennas = p[1];
  info.max_tags = p[2];
  info.firmware[0] = p[3];
  info.firmware[1] = p[4];
  info.firmware[2] = p[5];
  info.min_poll_ms = le16(p, 6);
  if (info.version != kVersion) return Parsed<BoardInfo>::fail(FrameError::Garbage, "board speaks protocol version " + std::to_string(info.version));
  if (info.antennas == 0 || info.antennas > kMaxAntennas) return Parsed<BoardInfo>::fail(FrameError::Garbage, "antenna count " + std::to_string(info.antennas));
  if (info.max_tags == 0 || info.max_tags > kMaxTagsPerAntenna) return Parsed<BoardInfo>::fail(FrameError::Garbage, "max tags " + std::to_string(info.max_tags));
  return Parsed<BoardInfo>::ok(info);
}

Parsed<ScanResult> parse_scan(std::span<const std::uint8_t> p, std::size_t antennas) {
  using R = Parsed<ScanResult>;
  if (p.size() < 5) return R::fail(FrameError::Short, "SCAN reply " + sizes(5, p.size()));
  ScanResult s;
  s.scan = static_cast<std::uint32_t>(p[0] | (p[1] << 8) | (p[2] << 16)) | (static_cast<std::uint32_t>(p[3]) << 24);
  std::size_t count = p[4];
  if (count != antennas) return R::fail(FrameError::Garbage, "SCAN reply lists " + std::to_string(count) + " antennas, the board has " + std::to_string(antennas));
  std::size_t at = 5;
  std::uint32_t seen = 0;
  for (std::size_t a = 0; a < count; ++a) {
    if (p.size() < at + 3) return R::fail(FrameError::Short, "antenna record " + sizes(at + 3, p.size()));
    AntennaReading r;
    r.antenna = p[at];
    r.flags = p[at + 1];
    std::size_t tags = p[at + 2];
    at += 3;
    if (r.antenna >= antennas) return R::fail(FrameError::Garbage, "antenna " + std::to_string(r.antenna) + " out of range");
    if (seen & (1U << r.antenna)) return R::fail(FrameError::Garbage, "antenna " + std::to_string(r.antenna) + " listed twice");
    seen |= 1U << r.antenna;
    if (r.flags & ~kKnownFlags) return R::fail(FrameError::Garbage, "unknown antenna flags " + std::to_string(r.flags));
    if (tags > kMaxTagsPerAntenna) return R::fail(FrameError::Garbage, std::to_string(tags) + " tags on one antenna");
    for (std::size_t t = 0; t < tags; ++t) {
      if (p.size() < at + 1) return R::fail(FrameError::Short, "tag record " + sizes(at + 1, p.size()));
      std::size_t len = p[at];
      if (!Uid::valid_length(len)) return R::fail(FrameError::Garbage, "UID length " + std::to_string(len));
      if (p.size() < at + 1 + len + 1) return R::fail(FrameError::Short, "tag record " + sizes(at + 2 + len, p.size()));
      Tag tag;
      tag.uid = *Uid::from_bytes(p.subspan(at + 1, len));
      tag.strength = p[at + 1 + len];
      r.tags.push_back(tag);
      at += 2 + len;
    }
    s.antennas.push_back(std::move(r));
  }
  if (at != p.size()) return R::fail(FrameError::Garbage, std::to_string(p.size() - at) + " bytes after the last antenna");
  return R::ok(std::move(s));
}

Parsed<ErrorReply> parse_error(std::span<const std::uint8_t> p) {
  if (p.empty()) return Parsed<ErrorReply>::fail(FrameError::Short, "ERROR reply without a code");
  ErrorReply e;
  e.code = p[0];
  for (std::size_t i = 1; i < p.size(); ++i) {
    char c = static_cast<char>(p[i]);
    e.text += (p[i] >= 0x20 && p[i] < 0x7F) ? c : '?';  // the text goes to a log line: printable only
  }
  return Parsed<ErrorReply>::ok(std::move(e));
}

std::vector<std::uint8_t> encode(FrameType type, std::uint16_t seq, std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> out = {kMagic0, kMagic1, kVersion, static_cast<std::uint8_t>(type)};
  put16(out, seq);
  put16(out, static_cast<std::uint16_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  put16(out, crc16(out));
  return out;
}

std::vector<std::uint8_t> encode_board_info(const BoardInfo& i) {
  std::vector<std::uint8_t> out = {i.version, i.antennas, i.max_tags, i.firmware[0], i.firmware[1], i.firmware[2]};
  put16(out, i.min_poll_ms);
  return out;
}

std::vector<std::uint8_t> encode_scan(const ScanResult& s) {
  std::vector<std::uint8_t> out;
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<std::uint8_t>((s.scan >> shift) & 0xFF));
  out.push_back(static_cast<std::uint8_t>(s.antennas.size()));
  for (const AntennaReading& a : s.antennas) {
    out.push_back(a.antenna);
    out.push_back(a.flags);
    out.push_back(static_cast<std::uint8_t>(a.tags.size()));
    for (const Tag& t : a.tags) {
      out.push_back(static_cast<std::uint8_t>(t.uid.size()));
      out.insert(out.end(), t.uid.bytes().begin(), t.uid.bytes().end());
      out.push_back(t.strength);
    }
  }
  return out;
}

}  // namespace cardtable::devices::board
