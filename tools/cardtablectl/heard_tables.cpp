#include "heard_tables.hpp"

#include <iostream>

#include "terminal_text.hpp"

namespace cardtable::tools {

HeardTables::HeardTables(std::string endpoint, bool heartbeats_expected, Clock::time_point start)
    : endpoint_(std::move(endpoint)), heartbeats_expected_(heartbeats_expected), last_heard_(start) {}

void HeardTables::say_silent_tables(Clock::time_point now) {
  if (!heartbeats_expected_ || now - last_heard_ > kQuiet) return;  // nothing heard at all: said once for all
  for (const auto& [name, at] : table_heard_)
    if (now - at > kQuiet && tables_silent_.insert(name).second)
      std::cerr << "cardtablectl watch: table " << printable(name) << ": nothing from it for 15 s, not even a heartbeat, while other tables "
                   "are heard: its daemon stopped, or its machine or network is down. Still listening.\n";
}

void HeardTables::nothing(Clock::time_point now) {
  if (heartbeats_expected_ && !quiet_said_ && now - last_heard_ > kQuiet) {
    std::cerr << "cardtablectl watch: nothing from " << endpoint_ << " for 15 s, not even a heartbeat (a daemon sends one every 5 s "
                 "by default): is it running, and is this its --publish endpoint (or a hub's downstream)? Still listening.\n";
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
