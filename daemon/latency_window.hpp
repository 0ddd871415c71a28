// The last few thousand latencies of one path through the daemon (a reading from its reader's queue into
// the table), summarised for `status`: how long readings wait, measured where it happens, not guessed.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace cardtable::daemon {

class LatencyWindow {
 public:
  explicit LatencyWindow(std::size_t capacity = 4096) : capacity_(capacity) { samples_.reserve(capacity); }
  void add(std::chrono::steady_clock::duration d);
  // {"samples": N (all time), "median_us", "p99_us", "max_us"} over the window; the figures are absent
  // while nothing has been measured.
  nlohmann::json summary() const;

 private:
  std::size_t capacity_;
  std::vector<std::int64_t> samples_;  // microseconds, a ring once full
  std::size_t next_ = 0;
  std::uint64_t total_ = 0;
};

}  // namespace cardtable::daemon
