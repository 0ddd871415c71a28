#pragma once
// A log line per refused request or dropped message, but never a flood: a hostile client sending
// thousands a second must not fill journald. At most `per_second` lines are written in a second; the
// rest are counted and said as one line once their second is over. Shared by the daemon's control
// endpoint and the hub's forwarding.
#include <chrono>
#include <cstdint>

namespace cardtable::protocol {

class LogBudget {
 public:
  using Clock = std::chrono::steady_clock;
  explicit LogBudget(int per_second) : per_second_(per_second) {}

  // Starts a new second when the last is over, and returns how many lines that second did not write
  // (0 when it is not over, or none were held back). Call it before take(), and now and then.
  std::uint64_t roll(Clock::time_point now = Clock::now()) {
    if (now - second_ < std::chrono::seconds(1)) return 0;
    const std::uint64_t held = held_;
    second_ = now;
    written_ = 0;
    held_ = 0;
    return held;
  }
  // Whether one more line may be written in this second; one that may not is counted.
  bool take() {
    if (written_ >= per_second_) {
      ++held_;
      return false;
    }
    ++written_;
    return true;
  }

 private:
  int per_second_;
  Clock::time_point second_{};
  int written_ = 0;
  std::uint64_t held_ = 0;
};

}  // namespace cardtable::protocol
