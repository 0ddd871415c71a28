// What systemd waits for from cardtabled (sd_notify(3)): READY=1 once the endpoints are bound (Type=notify
// holds the units ordered after it until then), WATCHDOG=1 pings at half of WatchdogSec= (a loop that
// stops pinging is killed and restarted), STATUS= lines for `systemctl status`, STOPPING=1.
//
// A message the notify socket refuses (EACCES after a User= change, a socket gone) was dropped without a
// word: systemd then timed the start out or killed a working daemon for a missed watchdog, and the log had
// nothing on why. Each refusal is said now, the first of each kind at once and the later ones counted.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace cardtable::daemon {

class ServiceNotifier {
 public:
  using Clock = std::chrono::steady_clock;
  // Reads the watchdog interval systemd gave (WATCHDOG_USEC, for this pid): none outside systemd.
  ServiceNotifier();
  void ready(const std::string& status);
  void status(const std::string& status);
  void stopping();
  // A WATCHDOG=1 when half the interval has passed since the last (each turn of the loop asks).
  void watchdog(Clock::time_point now);

 private:
  // Sends one message; a refusal is logged (the first of its kind with the reason, then every 100th).
  void send(const char* kind, const std::string& message);
  bool watchdog_enabled_ = false;
  std::chrono::microseconds watchdog_every_{0};
  Clock::time_point last_watchdog_ = Clock::now();
  std::map<std::string, std::uint64_t> refused_by_kind_;
};

}  // namespace cardtable::daemon
