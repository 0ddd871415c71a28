#include "daemon/table_clock.hpp"

#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace cardtable::daemon {

TableClock::~TableClock() {
  if (timer_fd_ >= 0) close(timer_fd_);
}

table::Millis TableClock::ms() const {
  return base_ +
         std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_)
             .count();
}

double TableClock::wall() const {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double TableClock::mono() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void TableClock::resume(table::Millis last_time, double last_wall,
                        const devices::InputScript& scenario) {
  const double gap_ms = std::max(0.0, (wall() - last_wall) * 1000.0);
  base_ = last_time + static_cast<table::Millis>(gap_ms);
  if (real_) return;
  // The scenario starts again from its own first time: its first reading comes right after the replayed
  // board's last.
  if (!scenario) return;
  const devices::InputCursor inputs = scenario();
  while (const auto in = inputs())
    if (in->kind != table::TableInput::Kind::Tick) {
      scenario_offset_ = std::max<table::Millis>(0, last_time - in->time);
      return;
    }
}

table::TableInput TableClock::scenario_input(table::TableInput in) const {
  if (scenario_offset_ == 0) return in;
  in.time += scenario_offset_;
  in.observation.time += scenario_offset_;
  in.command.time += scenario_offset_;
  return in;
}

bool TableClock::start_timer() {
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  itimerspec every{{0, 100'000'000}, {0, 100'000'000}};
  return timer_fd_ >= 0 && (!real_ || timerfd_settime(timer_fd_, 0, &every, nullptr) == 0);
}

table::TableInput TableClock::tick() {
  std::uint64_t expirations = 0;
  (void)!read(timer_fd_, &expirations, sizeof expirations);
  return table::TableInput{table::TableInput::Kind::Tick, {}, {}, ms()};
}

}  // namespace cardtable::daemon
