// The cardtable reader-board protocol, version 1: an open USB vendor-class protocol for a board with several
// HF antennas (docs/hardware.md is its normative description, for firmware authors). Every frame, both ways:
//
//   offset size  field
//   0      2     magic 'C' 'T' (0x43 0x54)
//   2      1     protocol version (1)
//   3      1     type (FrameType)
//   4      2     sequence number, little-endian: the host counts its requests; a reply repeats its request's
//   6      2     payload length n, little-endian, at most kMaxPayload
//   8      n     payload (layout per type, below)
//   8+n    2     CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of bytes 0..8+n-1, little-endian
//
// This file is the one place the layouts are written down in code: a struct per frame, its parse (every
// size checked) and its encoding. The driver and the tests' emulated board both use it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "devices/frame_error.hpp"
#include "devices/uid.hpp"

namespace cardtable::devices::board {

inline constexpr std::uint8_t kMagic0 = 0x43, kMagic1 = 0x54;  // "CT"
inline constexpr std::uint8_t kVersion = 1;
inline constexpr std::size_t kHeaderSize = 8;
inline constexpr std::size_t kCrcSize = 2;
inline constexpr std::size_t kMaxPayload = 1024;
inline constexpr std::size_t kMaxFrame = kHeaderSize + kMaxPayload + kCrcSize;
inline constexpr std::size_t kMaxAntennas = 16;
inline constexpr std::size_t kMaxTagsPerAntenna = 8;

enum class FrameType : std::uint8_t {
  Hello = 0x01,       // host → board: payload {u8 highest protocol version the host speaks}
  Scan = 0x02,        // host → board: empty; scan every antenna once and reply
  Reset = 0x03,       // host → board: empty; re-initialise the reader chips
  HelloReply = 0x81,  // board → host: BoardInfo
  ScanReply = 0x82,   // board → host: ScanResult
  ResetReply = 0x83,  // board → host: empty
  Error = 0xEE,       // board → host: {u8 code, text} — the request failed
};

struct Header {
  std::uint8_t version = kVersion;
  FrameType type = FrameType::Scan;
  std::uint16_t seq = 0;
  std::uint16_t length = 0;
};

// The HELLO reply: 8 bytes.
struct BoardInfo {
  std::uint8_t version = kVersion;   // the protocol version the board will speak (<= the host's)
  std::uint8_t antennas = 0;         // 1..kMaxAntennas
  std::uint8_t max_tags = 0;         // the most tags it reports per antenna, 1..kMaxTagsPerAntenna
  std::uint8_t firmware[3] = {};     // major, minor, patch
  std::uint16_t min_poll_ms = 0;     // the board cannot scan faster than this
};
inline constexpr std::size_t kBoardInfoSize = 8;

// Flags per antenna in a scan reply.
inline constexpr std::uint8_t kFlagCollision = 0x01;   // more tags answered than the chip could separate
inline constexpr std::uint8_t kFlagFieldError = 0x02;  // the antenna's driver reports a fault
inline constexpr std::uint8_t kFlagOverflow = 0x04;    // more than max_tags tags; the list is cut
inline constexpr std::uint8_t kKnownFlags = 0x07;

struct Tag {
  Uid uid;
  std::uint8_t strength = 0;  // received signal strength, 1 (weakest)..255; 0: the chip cannot tell
};
struct AntennaReading {
  std::uint8_t antenna = 0;  // physical antenna number, 0-based
  std::uint8_t flags = 0;
  std::vector<Tag> tags;
};
// The SCAN reply: u32 scan counter, u8 antenna count, then per antenna
// {u8 antenna, u8 flags, u8 tag count, per tag {u8 uid length (4/7/10), uid, u8 strength}}.
struct ScanResult {
  std::uint32_t scan = 0;  // the board's scan counter (wraps)
  std::vector<AntennaReading> antennas;
};

struct ErrorReply {
  std::uint8_t code = 0;
  std::string text;
};

// A whole frame, checked (magic, version, length, CRC) but with the payload still raw.
struct Frame {
  Header header;
  std::vector<std::uint8_t> payload;
};

std::uint16_t crc16(std::span<const std::uint8_t> bytes);

Parsed<Frame> parse_frame(std::span<const std::uint8_t> bytes);
Parsed<BoardInfo> parse_board_info(std::span<const std::uint8_t> payload);
Parsed<ScanResult> parse_scan(std::span<const std::uint8_t> payload, std::size_t antennas);
Parsed<ErrorReply> parse_error(std::span<const std::uint8_t> payload);

std::vector<std::uint8_t> encode(FrameType type, std::uint16_t seq, std::span<const std::uint8_t> payload = {});
std::vector<std::uint8_t> encode_board_info(const BoardInfo& info);
std::vector<std::uint8_t> encode_scan(const ScanResult& scan);

}  // namespace cardtable::devices::board
