#include "heard_tables.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "terminal_text.hpp"

namespace cardtable::tools {

namespace {
std::string seconds_words(double s) {
  std::ostringstream out;
  out << std::round(s * 10) / 10 << " s";
  return out.str();
}
}  // namespace

HeardTables::HeardTables(std::string endpoint, bool heartbeats_expected, double heartbeat, Clock::time_point start)
    : endpoint_(std::move(endpoint)), heartbeats_expected_(heartbeats_expected), heartbeat_(heartbeat), last_heard_(start) {}

double HeardTables::period_of(const std::string& table) const {
  auto it = periods_.find(table);
  return it == periods_.end() ? heartbeat_ : it->second;
}

double HeardTables::endpoint_period() const {
  double longest = 0;
  for (const auto& [table, every] : periods_) longest = std::max(longest, every);
  return longest > 0 ? longest : heartbeat_;
}

namespace {
HeardTables::Clock::duration times_missed(double period) {
  return std::chrono::duration_cast<HeardTables::Clock::duration>(std::chrono::duration<double>(HeardTables::kMissed * period));
}
}  // namespace

void HeardTables::say_silent_tables(Clock::time_point now) {
  if (!heartbeats_expected_ || now - last_heard_ > times_missed(endpoint_period())) return;  // nothing heard at all: said once for all
  for (const auto& [name, at] : table_heard_) {
    const double period = period_of(name);
    if (now - at > times_missed(period) && tables_silent_.insert(name).second)
      std::cerr << "cardtablectl watch: table " << printable(name) << ": nothing from it for " << seconds_words(kMissed * period)
                << ", not even a heartbeat, while other tables are heard: its daemon stopped, or its machine or network is down. Still listening.\n";
  }
}

void HeardTables::nothing(Clock::time_point now) {
  const double period = endpoint_period();
  if (heartbeats_expected_ && !quiet_said_ && now - last_heard_ > times_missed(period)) {
    std::cerr << "cardtablectl watch: nothing from " << endpoint_ << " for " << seconds_words(kMissed * period) << ", not even a heartbeat (expected every "
              << seconds_words(period)
              << (periods_.empty() ? ": --heartbeat, as the daemons'" : ", as its heartbeats said")
              << "): is it running, and is this its --publish endpoint (or a hub's downstream)? Still listening.\n";
    quiet_said_ = true;
  }
}

void HeardTables::message(Clock::time_point now) {
  last_heard_ = now;
  quiet_said_ = false;
}

bool HeardTables::table(const std::string& table, Clock::time_point now) {
  const bool first = table_heard_.emplace(table, now).second;
  table_heard_[table] = now;
  if (tables_silent_.erase(table)) std::cerr << "cardtablectl watch: table " << printable(table) << ": heard again\n";
  return first;
}

void HeardTables::heartbeat_period(const std::string& table, double every) { periods_[table] = every; }

}  // namespace cardtable::tools
