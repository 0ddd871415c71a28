#include "daemon/log.hpp"

#include <atomic>
#include <memory>

namespace cardtable::daemon {

namespace {

Logger& logger() {
  static Logger instance("cardtabled");  // decides once: journald if stderr is the journal's stream
  return instance;
}

// Written once, before any device thread starts; read by every line.
std::shared_ptr<const std::string>& table_name() {
  static std::shared_ptr<const std::string> name = std::make_shared<const std::string>();
  return name;
}

}  // namespace

void log(std::string_view line) { log(Priority::Info, line); }

void log(Priority priority, std::string_view line) {
  LogContext c;
  c.table = *std::atomic_load(&table_name());
  logger().log(priority, line, c);
}

void log_event(const protocol::WireEvent& e) { logger().event(e); }

void set_log_table(std::string table) {
  std::atomic_store(&table_name(), std::make_shared<const std::string>(std::move(table)));
}

}  // namespace cardtable::daemon
