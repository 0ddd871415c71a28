// The table's clock: monotonic milliseconds that a restart mid-board never turns back.
#include <gtest/gtest.h>
#include <poll.h>

#include "daemon/table_clock.hpp"

namespace cardtable::daemon {
namespace {

table::TableInput reading(table::Millis time) {
  table::TableInput in;
  in.kind = table::TableInput::Kind::Observe;
  in.time = time;
  in.observation.time = time;
  return in;
}

TEST(TableClock, AFreshClockStartsAtZeroAndNeverRunsBack) {
  TableClock clock;
  const table::Millis first = clock.ms();
  EXPECT_GE(first, 0);
  EXPECT_LT(first, 60'000) << "a fresh daemon's table starts near 0";
  EXPECT_GE(clock.ms(), first);
}

TEST(TableClock, AfterAResumeItGoesOnFromTheReplayedBoardsLastTimePlusTheGap) {
  TableClock clock;
  // The last run applied its last input at table time 90 s, 5 s (wall) ago.
  clock.resume(90'000, clock.wall() - 5.0, {});
  EXPECT_GE(clock.ms(), 95'000);
  EXPECT_LT(clock.ms(), 95'000 + 60'000) << "the gap is the restart's, not more";
}

TEST(TableClock, AWallClockSetBackDuringTheRestartAddsNoGapAndNeverTurnsTheTimeBack) {
  TableClock clock;
  clock.resume(90'000, clock.wall() + 3600.0,
               {});  // the last input "an hour from now": NTP stepped the clock back
  EXPECT_GE(clock.ms(), 90'000);
  EXPECT_LT(clock.ms(), 90'000 + 60'000);
}

TEST(TableClock, ARealClocksInputsAreNotMovedByAResume) {
  TableClock clock;
  clock.resume(90'000, clock.wall(), devices::fixed_script({reading(1'000)}));
  EXPECT_EQ(clock.scenario_input(reading(1'000)).time, 1'000);
}

TEST(TableClock, AScenarioReplayedFromItsStartGoesOnAfterTheResumedBoardsTimes) {
  TableClock clock(false);
  table::TableInput tick;  // a scenario's leading ticks do not count: its first reading does
  tick.time = 0;
  clock.resume(90'000, clock.wall(), devices::fixed_script({tick, reading(2'000), reading(3'000)}));
  table::TableInput in = reading(3'000);
  in.command.time = 3'000;
  const table::TableInput moved = clock.scenario_input(in);
  EXPECT_EQ(moved.time, 91'000);
  EXPECT_EQ(moved.observation.time, 91'000);
  EXPECT_EQ(moved.command.time, 91'000);
}

TEST(TableClock, AScenarioThatStartsAfterTheResumedBoardIsNotMovedBack) {
  TableClock clock(false);
  clock.resume(1'000, clock.wall(), devices::fixed_script({reading(5'000)}));
  EXPECT_EQ(clock.scenario_input(reading(5'000)).time, 5'000);
}

TEST(TableClock, TheRealClocksTimerTicksTheTableAtTheTimeNow) {
  TableClock clock;
  ASSERT_TRUE(clock.start_timer());
  pollfd p{clock.timer_fd(), POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 5'000), 1) << "the timer fires every 100 ms";
  const table::Millis before = clock.ms();
  const table::TableInput t = clock.tick();
  EXPECT_EQ(t.kind, table::TableInput::Kind::Tick);
  EXPECT_GE(t.time, before);
  EXPECT_EQ(poll(&p, 1, 0), 0) << "the expirations were read: the fd waits for the next";
}

TEST(TableClock, AScenarioClocksTimerIsNeverArmed) {
  TableClock clock(false);
  ASSERT_TRUE(clock.start_timer());
  pollfd p{clock.timer_fd(), POLLIN, 0};
  EXPECT_EQ(poll(&p, 1, 300), 0) << "a sped-up scenario brings its own ticks";
}

}  // namespace
}  // namespace cardtable::daemon
