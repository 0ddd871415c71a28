// How an event that can repeat in a loop reaches the log: a hostile client sending thousands of refused
// requests a second, a reader dropping a frame every poll, must not fill the system journal, and none of
// them may go unsaid either. The first `lines` of a window get a line of their own; the rest are counted
// and said once, as one count, when their window is over (or at once, when the caller stops).
//
// One policy for the daemon's control endpoint and the hub (protocol::LogBudget), the console's refusals
// (console::LogThrottle) and a reader's dropped frames (devices::DropLog). It lives below all three, and
// below table/ and bridge/ too, which need no log policy: devices/ links neither protocol/ (ZeroMQ) nor
// console/. Each keeps its own window, budget and wording.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace cardtable::log_budget {

class LineBudget {
 public:
  using Clock = std::chrono::steady_clock;

  LineBudget(int lines, Clock::duration window) : lines_(lines), window_(window) {}

  // One occurrence at `now`: true when it is said on a line of its own, else it is counted for held().
  // A window starts at the first occurrence after the last one is over -- unless a count is still held:
  // it is said first (held()), so that no count covers two windows and none is dropped.
  bool take(Clock::time_point now) {
    if (now - started_ >= window_ && held_ == 0) {
      started_ = now;
      said_ = 0;
    }
    if (said_ < lines_) {
      ++said_;
      return true;
    }
    ++held_;
    return false;
  }

  struct Held {
    std::uint64_t count = 0;
    Clock::duration over{};  // the time they happened in: from their window's start to `now`
  };
  // The occurrences not said one by one, once their window is over (or at once when `closing`); a new
  // window starts then. Nothing when none are held or their window goes on: each count is said once.
  std::optional<Held> held(Clock::time_point now, bool closing = false) {
    if (held_ == 0 || (!closing && now - started_ < window_)) return std::nullopt;
    Held h{held_, now - started_};
    started_ = now;
    said_ = 0;
    held_ = 0;
    return h;
  }

 private:
  int lines_;
  Clock::duration window_;
  Clock::time_point started_{};
  int said_ = 0;
  std::uint64_t held_ = 0;
};

}  // namespace cardtable::log_budget
