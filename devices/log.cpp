#include "devices/log.hpp"

#include <cstdio>
#include <mutex>

namespace cardtable::devices {

namespace {
std::mutex& log_mutex() {
  static std::mutex m;
  return m;
}
LogSink& current() {
  static LogSink s;
  return s;
}
}  // namespace

void set_log_sink(LogSink sink) {
  std::lock_guard lock(log_mutex());
  current() = std::move(sink);
}

void log(LogLevel level, const std::string& device, const std::string& message) {
  std::lock_guard lock(log_mutex());
  if (current()) {
    current()(level, device, message);
    return;
  }
  std::fprintf(stderr, "<%d>%s: %s\n", static_cast<int>(level), device.c_str(), message.c_str());
}

}  // namespace cardtable::devices
