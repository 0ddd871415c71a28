// Why a frame from a reader was dropped. Each kind has its own counter in DeviceCounters, so `status`
// says whether a reader sends garbage, is cut short by the bus, or lost a reply.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "devices/device.hpp"

namespace cardtable::devices {

enum class FrameError : std::uint8_t {
  None,
  Short,          // fewer bytes than the header (or the header's length) says
  Garbage,        // bad magic, unknown type, a field out of range
  Crc,            // the CRC does not match
  OutOfSequence,  // a reply to another request
  Failed,         // a well-formed frame that says the reader failed (CCID error, PN53x status, board ERROR)
};
const char* to_string(FrameError e);

// Counts one dropped frame in the counter of its kind.
void count(DeviceCounters& counters, FrameError e);

// A parsed frame, or why not.
template <typename T>
struct Parsed {
  std::optional<T> value;
  FrameError error = FrameError::None;
  std::string detail;  // "length 12 but 9 bytes", for the log line
  static Parsed fail(FrameError e, std::string why) { return Parsed{std::nullopt, e, std::move(why)}; }
  static Parsed ok(T v) { return Parsed{std::move(v), FrameError::None, {}}; }
  explicit operator bool() const { return value.has_value(); }
};

}  // namespace cardtable::devices
