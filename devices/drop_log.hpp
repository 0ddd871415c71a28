// How a reader's dropped frames reach the log: a reader that drops a frame every poll (a stale reply each
// time, a noisy cable) wrote 20 lines a second at the shipped 50 ms period, 72,000 an hour into the system
// journal. The first few of each window are said one by one; the rest are counted and said as one line once
// the window is over -- at the reader's next poll, not only at its next dropped frame, and when it stops --
// so a burst that ends is said in full. Every frame is in status's counters besides.
//
// The policy is log_budget::LineBudget's (log_budget/line_budget.hpp), which the control endpoint, the hub
// and the console's refusals share; this is the readers' window and budget.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "log_budget/line_budget.hpp"

namespace cardtable::devices {

class DropLog {
 public:
  using Clock = log_budget::LineBudget::Clock;
  static constexpr std::chrono::seconds kWindow{10};
  static constexpr int kSaid = 5;  // lines of their own in a window

  // One frame dropped at `now`: true when it is said on a line of its own, else it is counted for held().
  bool take(Clock::time_point now) { return budget_.take(now); }

  struct Held {
    std::uint64_t frames = 0;
    std::chrono::seconds over{};  // the time they were dropped in
  };
  // The frames not said one by one, once their window is over (or at once when `closing`: the reader
  // stops); a new window starts then. Nothing when none are held or the window goes on.
  std::optional<Held> held(Clock::time_point now, bool closing = false) {
    const auto h = budget_.held(now, closing);
    if (!h) return std::nullopt;
    return Held{h->count, std::chrono::duration_cast<std::chrono::seconds>(h->over)};
  }

 private:
  log_budget::LineBudget budget_{kSaid, kWindow};
};

}  // namespace cardtable::devices
