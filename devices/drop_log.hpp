// How a reader's dropped frames reach the log: a reader that drops a frame every poll (a stale reply each
// time, a noisy cable) wrote 20 lines a second at the shipped 50 ms period, 72,000 an hour into the system
// journal. The first few of each window are said one by one; the rest are counted and said as one line once
// the window is over -- at the reader's next poll, not only at its next dropped frame, and when it stops --
// so a burst that ends is said in full. Every frame is in status's counters besides.
//
// The same job as protocol::LogBudget (the control endpoint, the hub) and console::LogThrottle (refused
// requests), which devices/ cannot include: no library below all three holds a log policy (bridge/ is the
// game, data_files/ where files lie), and devices/ does not link protocol/ (ZeroMQ).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace cardtable::devices {

class DropLog {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kWindow{10};
  static constexpr int kSaid = 5;  // lines of their own in a window

  // One frame dropped at `now`: true when it is said on a line of its own, else it is counted for held().
  bool take(Clock::time_point now) {
    if (now - window_ >= kWindow && held_ == 0) {
      window_ = now;
      said_ = 0;
    }
    if (said_ < kSaid) {
      ++said_;
      return true;
    }
    ++held_;
    return false;
  }

  struct Held {
    std::uint64_t frames = 0;
    std::chrono::seconds over{};  // the time they were dropped in
  };
  // The frames not said one by one, once their window is over (or at once when `closing`: the reader
  // stops); a new window starts then. Nothing when none are held or the window goes on.
  std::optional<Held> held(Clock::time_point now, bool closing = false) {
    if (held_ == 0 || (!closing && now - window_ < kWindow)) return std::nullopt;
    Held h{held_, std::chrono::duration_cast<std::chrono::seconds>(now - window_)};
    window_ = now;
    said_ = 0;
    held_ = 0;
    return h;
  }

 private:
  Clock::time_point window_{};
  int said_ = 0;
  std::uint64_t held_ = 0;
};

}  // namespace cardtable::devices
