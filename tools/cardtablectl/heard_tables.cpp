#include "heard_tables.hpp"

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
    : endpoint_(std::move(endpoint)),
      heartbeats_expected_(heartbeats_expected),
      heartbeat_(heartbeat),
      quiet_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kMissed * heartbeat))),
      quiet_words_(seconds_words(kMissed * heartbeat)),
      last_heard_(start) {}

void HeardTables::say_silent_tables(Clock::time_point now) {
  if (!heartbeats_expected_ || now - last_heard_ > quiet_) return;  // nothing heard at all: said once for all
  for (const auto& [name, at] : table_heard_)
    if (now - at > quiet_ && tables_silent_.insert(name).second)
      std::cerr << "cardtablectl watch: table " << printable(name) << ": nothing from it for " << quiet_words_
                << ", not even a heartbeat, while other tables are heard: its daemon stopped, or its machine or network is down. Still listening.\n";
}

void HeardTables::nothing(Clock::time_point now) {
  if (heartbeats_expected_ && !quiet_said_ && now - last_heard_ > quiet_) {
    std::cerr << "cardtablectl watch: nothing from " << endpoint_ << " for " << quiet_words_ << ", not even a heartbeat (expected every "
              << seconds_words(heartbeat_) << ": --heartbeat, as the daemons'): is it running, and is this its --publish endpoint (or a hub's "
                 "downstream)? Still listening.\n";
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

}  // namespace cardtable::tools
