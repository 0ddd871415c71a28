// A refusal that a hostile client can cause in a loop (a forged Host, another site's Origin) is logged at
// most once in 10 s, then with how many were not: a page sending requests in a loop must not fill the log.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace cardtable::console {

class LogThrottle {
 public:
  using Clock = std::chrono::steady_clock;
  // nullopt: not this one (it is counted). Otherwise the line is due, and this is what ends it: empty, or
  // " (and N more WHAT in the last S s, not logged one by one)".
  std::optional<std::string> due(const std::string& what, Clock::time_point now = Clock::now()) {
    if (now - last_ < kEvery) {
      ++unlogged_;
      return std::nullopt;
    }
    std::string tail;
    if (unlogged_)
      tail = " (and " + std::to_string(unlogged_) + " more " + what + " in the last " +
             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now - last_).count()) + " s, not logged one by one)";
    unlogged_ = 0;
    last_ = now;
    return tail;
  }

 private:
  static constexpr std::chrono::seconds kEvery{10};
  std::uint64_t unlogged_ = 0;
  Clock::time_point last_{};
};

}  // namespace cardtable::console
