// A refusal that a hostile client can cause in a loop (a forged Host, another site's Origin) is logged at
// most once in 10 s, then with how many were not: a page sending requests in a loop must not fill the log.
// The policy is log_budget::LineBudget's (log_budget/line_budget.hpp); this is the console's wording.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "log_budget/line_budget.hpp"

namespace cardtable::console {

class LogThrottle {
 public:
  using Clock = log_budget::LineBudget::Clock;
  // nullopt: not this one (it is counted). Otherwise the line is due, and this is what ends it: empty, or
  // " (and N more WHAT in the last S s, not logged one by one)".
  std::optional<std::string> due(const std::string& what, Clock::time_point now = Clock::now()) {
    const auto held = budget_.held(now);
    if (!budget_.take(now)) return std::nullopt;
    if (!held) return std::string();
    return " (and " + std::to_string(held->count) + " more " + what + " in the last " +
           std::to_string(std::chrono::duration_cast<std::chrono::seconds>(held->over).count()) + " s, not logged one by one)";
  }

 private:
  static constexpr std::chrono::seconds kEvery{10};
  log_budget::LineBudget budget_{1, kEvery};
};

}  // namespace cardtable::console
