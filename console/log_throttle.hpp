// A refusal that a hostile client can cause in a loop (a forged Host, another site's Origin) is logged at
// most once in 10 s, then with how many were not: a page sending requests in a loop must not fill the log.
// The count was said only with the next refusal, so a flood's last window went unsaid for good: now the
// console's once-a-second tick says it on a line of its own when its window ends, and shutdown at once.
// The policy is log_budget::LineBudget's (log_budget/line_budget.hpp); this is the console's wording.
#pragma once

#include <chrono>
#include <iostream>
#include <optional>
#include <string>

#include "log_budget/line_budget.hpp"

namespace cardtable::console {

class LogThrottle {
 public:
  using Clock = log_budget::LineBudget::Clock;
  static constexpr std::chrono::seconds kEvery{10};

  // what: how the count names them, "connections refused".
  explicit LogThrottle(std::string what) : what_(std::move(what)) {}

  // nullopt: not this one (it is counted). Otherwise the line is due, and this is what ends it: empty, or
  // " (and N more WHAT in the last S s, not logged one by one)".
  std::optional<std::string> due(Clock::time_point now = Clock::now()) {
    auto count = held(now, false);
    if (!budget_.take(now)) return std::nullopt;
    if (!count) return std::string();
    return " (and " + *count + ")";
  }

  // The count of a window that is over, with no refusal since to carry it (at once when `closing`):
  // "N more WHAT in the last S s, not logged one by one", for a line of its own; said once.
  std::optional<std::string> overdue(Clock::time_point now, bool closing = false) { return held(now, closing); }

  // The same on the console's log (its tick, and when it stops).
  void say_overdue(bool closing = false) {
    if (auto count = overdue(Clock::now(), closing)) std::cerr << "cardtable-console: " << *count << std::endl;
  }

 private:
  std::optional<std::string> held(Clock::time_point now, bool closing) {
    const auto h = budget_.held(now, closing);
    if (!h) return std::nullopt;
    return std::to_string(h->count) + " more " + what_ + " in the last " +
           std::to_string(std::chrono::duration_cast<std::chrono::seconds>(h->over).count()) + " s, not logged one by one";
  }

  std::string what_;
  log_budget::LineBudget budget_{1, kEvery};
};

}  // namespace cardtable::console
