// The table's one clock. The table takes its time only from its inputs (table/input.hpp), so this is where
// the daemon's time comes from: milliseconds, monotonic (a wall clock set back by NTP must never make a
// board's time run backwards), ticked every 100 ms by a timerfd so that silence, the pocket gap and slow
// boards fire while every zone is quiet. A scenario sped up (--speed) brings its own times and ticks: the
// timer is then not armed. After a restart mid-board the clock goes on from the replayed board's last time
// plus the time the restart took, and a sped-up scenario's times after the replayed board's: a restart never
// turns the table's time back (else every zone looked silent for minutes at the first tick).
#pragma once

#include <chrono>
#include <vector>

#include "devices/sim/input_script.hpp"
#include "table/input.hpp"

namespace cardtable::daemon {

class TableClock {
 public:
  // `real`: the daemon's timer ticks the table; false: a sped-up scenario's own clock (its inputs' times).
  explicit TableClock(bool real = true) : real_(real) {}
  ~TableClock();
  TableClock(const TableClock&) = delete;
  TableClock& operator=(const TableClock&) = delete;

  void use_scenario_clock() { real_ = false; }
  bool real() const { return real_; }

  table::Millis ms() const;  // the table's time now
  double wall() const;       // seconds since the epoch (events' `time`)
  double mono() const;       // seconds since the daemon started (events' `mono`)

  // After a board was replayed: the clock goes on from its last input's time plus the wall time since it
  // was applied (none when the wall clock went back); a scenario's times (`scenario`: its inputs, from its
  // start again) go on after the replayed board's.
  void resume(table::Millis last_time, double last_wall, const devices::InputScript& scenario);
  // A scenario's input as the table gets it: its times moved on after a resumed board's.
  table::TableInput scenario_input(table::TableInput in) const;

  // The timerfd (every 100 ms; only created, never armed, for a scenario's clock). False with errno set.
  bool start_timer();
  int timer_fd() const { return timer_fd_; }
  // The timer fired: its expirations read; the tick to apply, at the time now.
  table::TableInput tick();

 private:
  bool real_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  table::Millis base_ = 0;  // ms() at started_: the replayed board's last time plus the restart's gap
  table::Millis scenario_offset_ = 0;  // added to a sped-up scenario's times after a resume
  int timer_fd_ = -1;
};

}  // namespace cardtable::daemon
