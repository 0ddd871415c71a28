#include "daemon/service_notifier.hpp"

#include <systemd/sd-daemon.h>

#include <cstdlib>
#include <cstring>

#include "daemon/log.hpp"

namespace cardtable::daemon {

ServiceNotifier::ServiceNotifier() {
  std::uint64_t usec = 0;
  watchdog_enabled_ = sd_watchdog_enabled(0, &usec) > 0;
  watchdog_every_ = std::chrono::microseconds(usec / 2);
}

void ServiceNotifier::send(const char* kind, const std::string& message) {
  const int r = sd_notify(0, message.c_str());
  if (r >= 0) return;  // sent (1), or no NOTIFY_SOCKET: not under systemd (0)
  const std::uint64_t n = ++refused_by_kind_[kind];
  if (n != 1 && n % 100 != 0) return;
  const char* socket = std::getenv("NOTIFY_SOCKET");
  log(std::string(kind) == "READY=1" ? Priority::Error : Priority::Warning,
      std::string("systemd's notify socket ") + (socket ? socket : "?") + " refused " + kind + ": " + std::strerror(-r) +
          (n == 1 ? "" : " (" + std::to_string(n) + " times)") +
          (std::string(kind) == "READY=1"       ? "; a Type=notify unit waits for it and times the start out"
           : std::string(kind) == "WATCHDOG=1" ? "; WatchdogSec= kills a daemon whose pings do not arrive"
                                               : ""));
}

void ServiceNotifier::ready(const std::string& status) { send("READY=1", "READY=1\nSTATUS=" + status); }

void ServiceNotifier::status(const std::string& status) { send("STATUS", "STATUS=" + status); }

void ServiceNotifier::stopping() { send("STOPPING=1", "STOPPING=1"); }

void ServiceNotifier::watchdog(Clock::time_point now) {
  if (!watchdog_enabled_ || now - last_watchdog_ < watchdog_every_) return;
  last_watchdog_ = now;
  send("WATCHDOG=1", "WATCHDOG=1");
}

}  // namespace cardtable::daemon
