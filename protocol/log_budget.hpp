#pragma once
// A log line per refused request or dropped message, but never a flood: a hostile client sending
// thousands a second must not fill journald. At most `per_second` lines are written in a second; the
// rest are counted and said as one line once their second is over. Shared by the daemon's control
// endpoint and the hub's forwarding; the policy is log_budget::LineBudget's (log_budget/line_budget.hpp).
#include <chrono>
#include <cstdint>

#include "log_budget/line_budget.hpp"

namespace cardtable::protocol {

class LogBudget {
 public:
  using Clock = log_budget::LineBudget::Clock;
  explicit LogBudget(int per_second) : budget_(per_second, std::chrono::seconds(1)) {}

  // How many lines the last second did not write, once it is over (0 when it is not, or none were held
  // back); each is said once. Call it before take(), and now and then.
  std::uint64_t roll(Clock::time_point now = Clock::now()) {
    const auto held = budget_.held(now);
    return held ? held->count : 0;
  }
  // Whether one more line may be written in this second; one that may not is counted.
  bool take(Clock::time_point now = Clock::now()) { return budget_.take(now); }

 private:
  log_budget::LineBudget budget_;
};

}  // namespace cardtable::protocol
