#include "daemon/latency_window.hpp"

#include <algorithm>
#include <cmath>

namespace cardtable::daemon {

void LatencyWindow::add(std::chrono::steady_clock::duration d) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  if (samples_.size() < capacity_) {
    samples_.push_back(us);
  } else {
    samples_[next_] = us;
    next_ = (next_ + 1) % capacity_;
  }
  ++total_;
}

nlohmann::json LatencyWindow::summary() const {
  nlohmann::json j = {{"samples", total_}};
  if (samples_.empty()) return j;
  std::vector<std::int64_t> sorted = samples_;
  std::sort(sorted.begin(), sorted.end());
  // Nearest rank: the smallest sample with at least p of them at or below it.
  auto rank = [&](double p) { return sorted[static_cast<std::size_t>(std::max(0.0, std::ceil(p * static_cast<double>(sorted.size())) - 1))]; };
  j["median_us"] = rank(0.5);
  j["p99_us"] = rank(0.99);
  j["max_us"] = sorted.back();
  return j;
}

}  // namespace cardtable::daemon
