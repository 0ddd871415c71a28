#include "daemon/log.hpp"

#include <mutex>

namespace cardtable::daemon {

namespace {

Logger& logger() {
  static Logger instance("cardtabled");  // decides once: journald if stderr is the journal's stream
  return instance;
}

// Written once at start; read by every line, from any thread.
std::mutex table_mutex;
std::string table_name;

}  // namespace

void log(std::string_view line) { log(Priority::Info, line); }

void log(Priority priority, std::string_view line) {
  LogContext c;
  {
    std::lock_guard lock(table_mutex);
    c.table = table_name;
  }
  logger().log(priority, line, c);
}

void log_event(const protocol::WireEvent& e) { logger().event(e); }

void set_log_table(std::string table) {
  std::lock_guard lock(table_mutex);
  table_name = std::move(table);
}

}  // namespace cardtable::daemon
